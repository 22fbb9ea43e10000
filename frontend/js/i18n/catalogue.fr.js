/**
 * The whole French catalogue, merged from its parts (./fr/common.js and ./fr/<area>.js) so that each
 * area's strings live beside each other and a key is defined once. i18n.js loads only the
 * reader's language (one of these three files and its parts).
 */

import common from './fr/common.js';
import log from './fr/log.js';
import match from './fr/match.js';
import screens from './fr/screens.js';
import clock from './fr/clock.js';
import account from './fr/account.js';
import playnow from './fr/playnow.js';
import stats from './fr/stats.js';
import errors from './fr/errors.js';
import bots from './fr/bots.js';
import tournament from './fr/tournament.js';
import aids from './fr/aids.js';

export default { ...common, ...log, ...match, ...screens, ...clock, ...account, ...playnow, ...stats, ...errors, ...bots, ...tournament, ...aids };
