/**
 * Deutsche Texte für „Sofort spielen“ auf der Tischliste. Schlüssel wie in ../en/playnow.js.
 */
export default {
  'playNow.title': 'Sofort spielen',
  'playNow.lead': 'Setz dich zu anderen, die dasselbe Spiel suchen: kein Gastgeber, kein Warteraum.',
  'playNow.players': 'Spieler',
  'playNow.rules': 'Regeln',
  'playNow.clock': 'Bedenkzeit',
  'playNow.rated': 'Gewertet',
  'playNow.ratedShort': 'gewertet',
  'playNow.ratedNeedsAccount': 'Gewertete Spiele brauchen ein Konto',
  'playNow.go': 'Sofort spielen',
  'playNow.cancel': 'Abbrechen',
  'playNow.looking': 'Suche Mitspieler…',
  'playNow.waitingOf': '{n} von {needed} da',
  'playNow.range': 'Wertung {low}–{high}',
  'playNow.found': 'Gefunden! Die Partie wird geöffnet…',
  'playNow.expired': 'Deine Suche ist abgelaufen. Versuch es noch einmal.',
  'playNow.nobody': 'Gerade wartet niemand: sei der Erste.',
  'playNow.poolPlayers': { one: '{n} Spieler', other: '{n} Spieler' },
  'playNow.waiting': { one: '{n} wartet', other: '{n} warten' },
};
