/**
 * English messages of the "Play now" panel on the Tables page (screens/playNow.js). Keys:
 * ``playNow.*``. German and French in ../de/playnow.js / ../fr/playnow.js; see ../../i18n.js.
 */
export default {
  'playNow.title': 'Play now',
  'playNow.lead': 'Sit down with other players looking for the same game: no host, no waiting room.',
  'playNow.players': 'Players',
  'playNow.rules': 'Rules',
  'playNow.clock': 'Clock',
  'playNow.rated': 'Rated',
  'playNow.ratedShort': 'rated',
  'playNow.ratedNeedsAccount': 'Rated games need an account',
  'playNow.go': 'Play now',
  'playNow.cancel': 'Cancel',
  'playNow.looking': 'Looking for players…',
  'playNow.waitingOf': '{n} of {needed} here',
  'playNow.range': 'ratings {low}–{high}',
  'playNow.found': 'Found! Opening the match…',
  'playNow.expired': 'Your search ended. Try again.',
  'playNow.nobody': 'Nobody is waiting right now: be the first.',
  'playNow.poolPlayers': { one: '{n} player', other: '{n} players' },
  'playNow.waiting': { one: '{n} waiting', other: '{n} waiting' },
};
