/**
 * English messages for bot accounts (docs/BOT_API.md): the BOT tag on seats and profiles, the
 * profile's challenge form, the waiting room's "invite a bot". Keys: ``botAccount.*``.
 * German and French in ../de/bots.js / ../fr/bots.js; see ../../i18n.js.
 */
export default {
  'botAccount.tag': 'BOT',
  'botAccount.pool': '{preset} vs bots',
  'botAccount.tagTitle': 'A program plays this account',
  'botAccount.challenge': 'Challenge this bot',
  'botAccount.rules': 'Rules',
  'botAccount.rated': 'Rated',
  'botAccount.waiting': 'Waiting for {name} to accept…',
  'botAccount.declined': '{name} declined the challenge.',
  'botAccount.cancel': 'Withdraw',
  'botAccount.loginToChallenge': 'Log in to challenge this bot.',
  'botAccount.invite': '+ Invite a bot',
  'botAccount.chooseBot': 'Choose a bot',
  'botAccount.noBots': 'No bot accounts yet.',
  'botAccount.invited': 'Invitation sent to {name}: the seat is theirs when they accept.',
  'error.reason.not_a_bot': 'Only a bot account can do this.',
  'error.reason.no_such_bot': 'There is no such bot.',
  'error.reason.bot_busy': 'This bot has too many challenges waiting. Try again soon.',
  'error.reason.challenge_closed': 'This challenge is no longer open.',
};
