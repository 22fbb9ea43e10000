/**
 * The whole German catalogue, merged from its parts (./de.js and ./<area>.de.js) so that each
 * area's strings live beside each other and a key is defined once. i18n.js loads only the
 * reader's language (one of these three files and its parts).
 */

import common from './de.js';
import log from './log.de.js';
import match from './match.de.js';
import screens from './screens.de.js';
import clock from './clock.de.js';
import account from './account.de.js';
import playnow from './playnow.de.js';
import stats from './stats.de.js';
import errors from './errors.de.js';
import bots from './bots.de.js';
import tournament from './tournament.de.js';
import aids from './aids.de.js';

export default { ...common, ...log, ...match, ...screens, ...clock, ...account, ...playnow, ...stats, ...errors, ...bots, ...tournament, ...aids };
