/**
 * The whole English catalogue, merged from its parts (./en.js and ./<area>.en.js) so that each
 * area's strings live beside each other and a key is defined once. i18n.js loads only the
 * reader's language (one of these three files and its parts).
 */

import common from './en.js';
import log from './log.en.js';
import match from './match.en.js';
import screens from './screens.en.js';
import clock from './clock.en.js';
import account from './account.en.js';
import playnow from './playnow.en.js';
import stats from './stats.en.js';
import errors from './errors.en.js';
import bots from './bots.en.js';
import tournament from './tournament.en.js';
import aids from './aids.en.js';

export default { ...common, ...log, ...match, ...screens, ...clock, ...account, ...playnow, ...stats, ...errors, ...bots, ...tournament, ...aids };
