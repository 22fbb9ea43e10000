/**
 * English messages of a profile's statistics (widgets/player/statistics.js): ``stats.*``.
 */
export default {
  'stats.title': 'Statistics',
  'stats.none': 'Statistics appear after the first finished game.',
  'stats.averageScore': 'average score',
  'stats.finished': 'games played to the end',
  'stats.left': 'games left early',
  'stats.longestRoad': 'tiles in the longest road scored',
  'stats.biggestCity': 'tiles in the biggest city scored',
  'stats.ratingHistory': 'Rating history',
  'stats.preset': 'Rule preset',
  'stats.graphLabel': { one: '{preset}: rating {from} before the first rated game, {to} after {n} game', other: '{preset}: rating {from} before the first rated game, {to} after {n} games' },
  'stats.start': 'start',
  'stats.afterGames': { one: 'after {n} game', other: 'after {n} games' },
  'stats.winRate': 'Wins by number of players',
  'stats.players': { one: '{n} player', other: '{n} players' },
  'stats.wonOf': '{won} of {n} won ({pct} %)',
  'stats.pointsByFeature': 'Points by feature',
  'stats.featurePoints': '{feature}: {points} points ({pct} %)',
  'stats.feature.road': 'Roads',
  'stats.feature.city': 'Cities',
  'stats.feature.cloister': 'Cloisters',
  'stats.feature.farm': 'Farms',
  'stats.feature.other': 'Wheel of Fortune',
};
