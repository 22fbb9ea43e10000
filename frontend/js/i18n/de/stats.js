/**
 * Deutsche Texte der Profilstatistik (widgets/player/statistics.js). Schlüssel wie in ../en/stats.js.
 */
export default {
  'stats.title': 'Statistik',
  'stats.none': 'Die Statistik erscheint nach dem ersten beendeten Spiel.',
  'stats.averageScore': 'Punkte im Schnitt',
  'stats.finished': 'Spiele bis zum Ende gespielt',
  'stats.left': 'Spiele vorzeitig verlassen',
  'stats.longestRoad': 'Karten der längsten gewerteten Straße',
  'stats.biggestCity': 'Karten der größten gewerteten Stadt',
  'stats.ratingHistory': 'Wertungsverlauf',
  'stats.preset': 'Regelvorgabe',
  'stats.graphLabel': { one: '{preset}: Wertung {from} vor dem ersten gewerteten Spiel, {to} nach {n} Spiel', other: '{preset}: Wertung {from} vor dem ersten gewerteten Spiel, {to} nach {n} Spielen' },
  'stats.start': 'Beginn',
  'stats.afterGames': { one: 'nach {n} Spiel', other: 'nach {n} Spielen' },
  'stats.winRate': 'Siege nach Spielerzahl',
  'stats.players': { one: '{n} Spieler', other: '{n} Spieler' },
  'stats.wonOf': '{won} von {n} gewonnen ({pct} %)',
  'stats.pointsByFeature': 'Punkte nach Gebiet',
  'stats.featurePoints': '{feature}: {points} Punkte ({pct} %)',
  'stats.feature.road': 'Straßen',
  'stats.feature.city': 'Städte',
  'stats.feature.cloister': 'Klöster',
  'stats.feature.farm': 'Wiesen',
  'stats.feature.other': 'Schicksalsrad',
};
