/**
 * The "something went wrong" panel a screen shows when it cannot load (with a retry).
 *
 * Its own module so screens need not import the router (``main.js`` imports the screens).
 */

import * as api from '../../api.js';
import { h } from '../../dom.js';
import { t } from '../../i18n.js';

/** A panel explaining ``err`` in words, with "Try again" (calls ``retry``) and a way back. */
export function errorPanel(err, retry) {
  return h('div.panel.error-panel', { role: 'alert' },
    h('h2', t('app.wrong')),
    h('p', api.friendly(err)),
    h('div.row', {},
      retry ? h('button.btn', { onclick: retry }, t('app.tryAgain')) : null,
      h('a.btn.secondary', { href: '#/lobbies' }, t('app.backToTables'))));
}
