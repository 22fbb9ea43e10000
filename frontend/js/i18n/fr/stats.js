/**
 * Textes français des statistiques du profil (widgets/player/statistics.js). Clés comme dans ../en/stats.js.
 */
export default {
  'stats.title': 'Statistiques',
  'stats.none': 'Les statistiques apparaissent après la première partie terminée.',
  'stats.averageScore': 'points en moyenne',
  'stats.finished': 'parties jouées jusqu’au bout',
  'stats.left': 'parties quittées en cours',
  'stats.longestRoad': 'tuiles de la plus longue route marquée',
  'stats.biggestCity': 'tuiles de la plus grande ville marquée',
  'stats.ratingHistory': 'Évolution du classement',
  'stats.preset': 'Règles',
  'stats.graphLabel': { one: '{preset} : classement {from} avant la première partie classée, {to} après {n} partie', other: '{preset} : classement {from} avant la première partie classée, {to} après {n} parties' },
  'stats.start': 'début',
  'stats.afterGames': { one: 'après {n} partie', other: 'après {n} parties' },
  'stats.winRate': 'Victoires selon le nombre de joueurs',
  'stats.players': { one: '{n} joueur', other: '{n} joueurs' },
  'stats.wonOf': '{won} sur {n} gagnées ({pct} %)',
  'stats.pointsByFeature': 'Points par type de zone',
  'stats.featurePoints': '{feature} : {points} points ({pct} %)',
  'stats.feature.road': 'Routes',
  'stats.feature.city': 'Villes',
  'stats.feature.cloister': 'Abbayes',
  'stats.feature.farm': 'Prés',
  'stats.feature.other': 'Roue de la Fortune',
};
