/**
 * The BOT tag of a bot account (a program plays it: docs/BOT_API.md), for seats, scoreboards
 * and profiles; the server's own computer players keep their "Computer" tag.
 */

import { h } from '../../dom.js';
import { t } from '../../i18n.js';

/** ``<span class="tag botaccount">BOT</span>`` when ``who.bot_account``, else null. */
export function botTag(who) {
  return who && who.bot_account ? h('span.tag.botaccount', { title: t('botAccount.tagTitle') }, t('botAccount.tag')) : null;
}
