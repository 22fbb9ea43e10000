/**
 * The whole German catalogue, merged from its parts (./de/common.js and ./de/<area>.js) so that each
 * area's strings live beside each other and a key is defined once. i18n.js loads only the
 * reader's language (one of these three files and its parts).
 */

import common from './de/common.js';
import log from './de/log.js';
import match from './de/match.js';
import screens from './de/screens.js';
import clock from './de/clock.js';
import account from './de/account.js';
import playnow from './de/playnow.js';
import stats from './de/stats.js';
import errors from './de/errors.js';
import bots from './de/bots.js';
import tournament from './de/tournament.js';
import aids from './de/aids.js';

export default { ...common, ...log, ...match, ...screens, ...clock, ...account, ...playnow, ...stats, ...errors, ...bots, ...tournament, ...aids };
