/**
 * The whole English catalogue, merged from its parts (./en/common.js and ./en/<area>.js) so that each
 * area's strings live beside each other and a key is defined once. i18n.js loads only the
 * reader's language (one of these three files and its parts).
 */

import common from './en/common.js';
import log from './en/log.js';
import match from './en/match.js';
import screens from './en/screens.js';
import clock from './en/clock.js';
import account from './en/account.js';
import playnow from './en/playnow.js';
import stats from './en/stats.js';
import errors from './en/errors.js';
import bots from './en/bots.js';
import tournament from './en/tournament.js';
import aids from './en/aids.js';

export default { ...common, ...log, ...match, ...screens, ...clock, ...account, ...playnow, ...stats, ...errors, ...bots, ...tournament, ...aids };
