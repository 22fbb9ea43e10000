/**
 * The whole French catalogue, merged from its parts (./fr.js and ./<area>.fr.js) so that each
 * area's strings live beside each other and a key is defined once. i18n.js loads only the
 * reader's language (one of these three files and its parts).
 */

import common from './fr.js';
import log from './log.fr.js';
import match from './match.fr.js';
import screens from './screens.fr.js';
import clock from './clock.fr.js';
import account from './account.fr.js';
import playnow from './playnow.fr.js';
import stats from './stats.fr.js';
import errors from './errors.fr.js';
import bots from './bots.fr.js';
import tournament from './tournament.fr.js';
import aids from './aids.fr.js';

export default { ...common, ...log, ...match, ...screens, ...clock, ...account, ...playnow, ...stats, ...errors, ...bots, ...tournament, ...aids };
