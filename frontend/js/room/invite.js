/** The waiting room's invite panel: the table's code and link, each with a copy button. */

import { h, copyButton } from '../dom.js';
import { t } from '../i18n.js';

/** The link that opens (and joins) table ``code``. */
export function inviteLink(code) {
  return `${location.origin}${location.pathname}#/lobby/${encodeURIComponent(code)}`;
}

/** The invite panel of ``lobby``. */
export function invitePanel(lobby) {
  const link = inviteLink(lobby.code);
  return h('div.panel.invite#invite', {},
    h('h2', lobby.private ? t('room.inviteFriends') : t('room.invite')),
    h('p.help', lobby.private ? t('room.invitePrivate') : t('room.invitePublic')),
    h('div.invite-code', {}, h('span.label', t('room.code')), h('code#invite-code', lobby.code),
      copyButton(t('room.copyCode'), lobby.code, { id: 'copy-code' })),
    h('div.invite-link', {}, h('input#invite-link', { type: 'text', readonly: true, value: link, 'aria-label': t('room.inviteLink'),
      onfocus: (e) => e.target.select() }), copyButton(t('room.copyLink'), link, { id: 'copy-invite' })));
}
