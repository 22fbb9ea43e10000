/**
 * Textes français de « Jouer maintenant » sur la liste des tables. Clés comme dans
 * ../en/playnow.js.
 */
export default {
  'playNow.title': 'Jouer maintenant',
  'playNow.lead': 'Rejoignez d’autres joueurs qui cherchent la même partie : pas d’hôte, pas de salle d’attente.',
  'playNow.players': 'Joueurs',
  'playNow.rules': 'Règles',
  'playNow.clock': 'Pendule',
  'playNow.rated': 'Classée',
  'playNow.ratedShort': 'classée',
  'playNow.ratedNeedsAccount': 'Les parties classées demandent un compte',
  'playNow.go': 'Jouer maintenant',
  'playNow.cancel': 'Annuler',
  'playNow.looking': 'Recherche de joueurs…',
  'playNow.waitingOf': '{n} sur {needed} présents',
  'playNow.range': 'classement {low}–{high}',
  'playNow.found': 'Trouvé ! Ouverture de la partie…',
  'playNow.expired': 'Votre recherche a pris fin. Réessayez.',
  'playNow.nobody': 'Personne n’attend pour l’instant : soyez le premier.',
  'playNow.poolPlayers': { one: '{n} joueur', other: '{n} joueurs' },
  'playNow.waiting': { one: '{n} attend', other: '{n} attendent' },
};
