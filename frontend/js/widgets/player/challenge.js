/**
 * "Challenge this bot" on a bot account's profile (docs/BOT_API.md): rules preset and rated,
 * then the challenge waits for the bot's program to accept — the page follows it and opens the
 * match — or says that it declined.
 */

import * as api from '../../api.js';
import * as session from '../../session.js';
import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { presetKeys } from '../table/rules.js';

/** Milliseconds between looks at a waiting challenge. */
const POLL = 1000;

/** The challenge form for ``bot`` (``{id, name}``); ``alive()`` is false once the page left. */
export function challengePanel(bot, alive) {
  const panel = h('div.panel.challenge#challenge');
  if (!session.player()) {
    panel.append(h('p.help', t('botAccount.loginToChallenge')));
    return panel;
  }
  const preset = h('select#challenge-preset', { 'aria-label': t('botAccount.rules') },
    presetKeys().map((p) => h('option', { value: p }, t(`preset.${p}`))));
  const rated = h('input#challenge-rated', { type: 'checkbox' });
  const status = h('p.help#challenge-status', { role: 'status' });
  const send = h('button.btn.primary#challenge-send', { type: 'button' }, t('botAccount.challenge'));

  async function follow(id) {
    while (alive()) {
      await new Promise((ok) => { setTimeout(ok, POLL); });
      let c;
      try {
        c = await api.getChallenge(id);
      } catch (err) {
        status.textContent = api.friendly(err);
        return;
      }
      if (c.status === 'accepted' && c.match_id) {
        window.location.hash = `#/match/${encodeURIComponent(c.match_id)}`;
        return;
      }
      if (c.status !== 'open') {
        status.textContent = c.status === 'declined' ? t('botAccount.declined', { name: bot.name }) : '';
        send.disabled = false;
        return;
      }
    }
  }

  send.addEventListener('click', async () => {
    send.disabled = true;
    try {
      const c = await api.challengeBot(bot.id, { preset: preset.value, rated: rated.checked });
      status.replaceChildren(h('span.spinner.small'), ' ', t('botAccount.waiting', { name: bot.name }),
        ' ', h('button.btn.small.ghost#challenge-cancel', { type: 'button', onclick: async () => {
          await api.cancelChallenge(c.id).catch(() => null);
          status.textContent = '';
          send.disabled = false;
        } }, t('botAccount.cancel')));
      await follow(c.id);
    } catch (err) {
      status.textContent = api.friendly(err);
      send.disabled = false;
    }
  });
  panel.append(h('h2', t('botAccount.challenge')),
    h('div.row.challenge-form', {},
      h('label', {}, h('span', t('botAccount.rules')), preset),
      h('label.check', {}, rated, h('span', t('botAccount.rated'))),
      send),
    status);
  return panel;
}
