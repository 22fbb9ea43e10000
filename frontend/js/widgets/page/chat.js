/**
 * The chat box of the waiting room and of the match (players' and spectators' chat).
 *
 * Messages come in as ``chat`` frames on the screen's socket and are sent as ``{"t": "chat",
 * "d": {"text"} | {"quick"}}`` (docs/API.md § Chat). Every text is inserted as text, never as
 * HTML. Quick messages travel by name and are worded in the reader's language. Each reader may
 * hide one person's messages for themselves (kept in this browser); the host of a waiting room
 * may mute a person for everyone (the server refuses their messages). Spectators' messages are
 * marked as such (players get them only once the match is over: the server sees to that).
 */

import * as api from '../../api.js';
import { h, clear } from '../../dom.js';
import { t, errorText } from '../../i18n.js';
import { swatch } from '../../board/pieces.js';
import { play } from '../../sound.js';

export const QUICK = ['hello', 'good_luck', 'well_played', 'thinking', 'oops', 'thanks', 'good_game', 'bye'];
/** The quick messages a match's panel shows before its "…" button opens the others. */
const QUICK_FIRST = new Set(['hello', 'good_luck', 'well_played']);
export const MAX_CHARS = 300;
const HIDDEN_KEY = 'carcassonne.chatHidden';
const EYE = '<svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true"><path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.2" fill="currentColor"/></svg>';

function hiddenIds() {
  try {
    return new Set(JSON.parse(localStorage.getItem(HIDDEN_KEY) || '[]'));
  } catch {
    return new Set();
  }
}

function saveHidden(ids) {
  try {
    localStorage.setItem(HIDDEN_KEY, JSON.stringify([...ids].slice(-200)));
  } catch { /* private mode */ }
}

/**
 * A chat box. ``opts``: ``scope`` ("lobby" | "match"), ``key`` (lobby code or match id),
 * ``code`` (a private match's lobby code), ``me()`` (my player id), ``canWrite()``,
 * ``isHost()`` (may mute; waiting room only), ``role()`` ("players" | "spectators" | "lobby"),
 * ``send(frame)`` → false when the socket is down, ``online()`` (optional: whether the socket is
 * open; while it is not, writing waits, so nothing typed is lost to a socket still connecting).
 * Returns ``{node, handle(msg) → bool, load(), refresh()}``: ``handle`` takes the socket's
 * frames and says whether it was a chat frame (``chat``, ``chat_muted``, ``chat_*`` errors).
 */
export function chatBox(opts) {
  const messages = [];
  const seen = new Set();
  let muted = new Set();
  let hidden = hiddenIds();
  const list = h('ol.chat-list', { 'aria-label': t('chat.title'), 'aria-live': 'polite', 'aria-relevant': 'additions' });
  const error = h('p.chat-error', { role: 'alert' });
  const counter = h('small.chat-count', `0/${MAX_CHARS}`);
  const input = h('input.chat-input', { type: 'text', maxlength: String(MAX_CHARS), autocomplete: 'off',
    'aria-label': t('chat.write'), placeholder: '' });
  const sendBtn = h('button.btn.small.primary.chat-send', { type: 'submit' }, t('chat.send'));
  // In a match's narrow panel the first three show and a "…" button opens the rest (wrapped, all
  // eight took up to four rows; one row scrolling sideways hid most of them past the edge).
  const more = h('button.btn.small.secondary.quick-more', { type: 'button', 'aria-expanded': 'false',
    'aria-label': t('chat.quickMore'), title: t('chat.quickMore'),
    onclick: () => {
      const open = quick.classList.toggle('open');
      more.setAttribute('aria-expanded', String(open));
    } }, '…');
  const quick = h('div.chat-quick', { role: 'group', 'aria-label': t('chat.quickLabel') },
    QUICK.map((q) => h(`button.btn.small.secondary.quick-btn${QUICK_FIRST.has(q) ? '' : '.quick-extra'}`,
      { type: 'button', dataset: { quick: q }, onclick: () => send({ quick: q }) }, t(`chat.quick.${q}`))),
    more);
  const form = h('form.chat-form', { onsubmit: (e) => { e.preventDefault(); send({ text: input.value }); } },
    input, sendBtn);
  const node = h('section.chat', { dataset: { scope: opts.scope } },
    h('h2.chat-title', t(opts.role() === 'spectators' ? 'chat.titleSpectators' : 'chat.title')),
    list, error, quick, h('div.chat-write', {}, form, counter));

  input.addEventListener('input', () => {
    counter.textContent = `${input.value.length}/${MAX_CHARS}`;
    error.textContent = '';
  });

  function send(body) {
    error.textContent = '';
    if (body.text !== undefined && !body.text.trim()) {
      error.textContent = errorText('chat_empty');
      return;
    }
    if (!opts.send({ t: 'chat', d: body })) {
      error.textContent = t('chat.offline');
      return;
    }
    if (body.text !== undefined) {
      input.value = '';
      counter.textContent = `0/${MAX_CHARS}`;
    }
  }

  function toggleHidden(playerId) {
    if (hidden.has(playerId)) hidden.delete(playerId);
    else hidden.add(playerId);
    saveHidden(hidden);
    draw();
  }

  async function toggleMute(playerId) {
    try {
      const res = await api.muteInLobby(opts.key, playerId, !muted.has(playerId));
      muted = new Set(res.muted || []);
      draw();
    } catch (err) {
      error.textContent = api.friendly(err);
    }
  }

  function line(msg) {
    const mine = msg.player === opts.me();
    const isHidden = !mine && hidden.has(msg.player);
    const who = h('b.chat-name.name-cut', { title: msg.name }, msg.name);
    const body = msg.quick ? h('span.chat-text.chat-quick-text', t(`chat.quick.${msg.quick}`))
      : h('span.chat-text', msg.text); // text, never HTML
    const tools = mine ? null : h('span.chat-tools', {},
      h('button.chat-hide', { type: 'button', onclick: () => toggleHidden(msg.player),
        title: t(isHidden ? 'chat.showTitle' : 'chat.hideTitle', { name: msg.name }) },
      t(isHidden ? 'chat.show' : 'chat.hide')),
      opts.scope === 'lobby' && opts.isHost() ? h('button.chat-mute', { type: 'button', onclick: () => toggleMute(msg.player),
        title: t(muted.has(msg.player) ? 'chat.unmuteTitle' : 'chat.muteTitle', { name: msg.name }) },
      t(muted.has(msg.player) ? 'chat.unmute' : 'chat.mute')) : null);
    return h('li.chat-msg', { class: `${mine ? 'mine' : ''} room-${msg.room} ${isHidden ? 'hidden-msg' : ''}`.trim(),
      dataset: { player: msg.player, room: msg.room } },
    h('span.chat-swatch', { class: msg.colour ? '' : 'spectator', html: msg.colour ? swatch(msg.colour, 14) : EYE }),
    who,
    msg.room === 'spectators' ? h('span.tag.spect', t('chat.spectator')) : null,
    msg.room === 'organiser' ? h('span.tag.organiser', t('chat.organiser')) : null,
    muted.has(msg.player) ? h('span.tag.muted', t('chat.muted')) : null,
    isHidden ? h('span.chat-text.chat-hidden-note', t('chat.hiddenNote')) : body,
    tools);
  }

  function draw() {
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    clear(list);
    if (!messages.length) list.appendChild(h('li.chat-empty', t('chat.empty')));
    for (const msg of messages) list.appendChild(line(msg));
    if (atBottom || !list.dataset.drawn) list.scrollTop = list.scrollHeight;
    list.dataset.drawn = '1';
    refresh();
  }

  /** Enable or disable writing (seats change in the waiting room; muting). */
  function refresh() {
    const me = opts.me();
    const online = opts.online ? opts.online() : true;
    const may = opts.canWrite() && online && !(me && muted.has(me));
    input.disabled = !may;
    sendBtn.disabled = !may;
    for (const b of quick.querySelectorAll('button')) b.disabled = !may;
    input.placeholder = !opts.canWrite() ? t('chat.readOnly') : me && muted.has(me) ? errorText('chat_muted')
      : !online ? t('chat.connecting') : t(opts.role() === 'spectators' ? 'chat.placeholderSpectators' : 'chat.placeholder');
    input.title = may ? '' : input.placeholder; // a refusal's whole sentence, where the input cuts it
  }

  function add(msg, live) {
    if (seen.has(msg.id)) return;
    seen.add(msg.id);
    messages.push(msg);
    if (messages.length > 300) messages.shift();
    if (live && msg.player !== opts.me() && !hidden.has(msg.player)) play('chat');
  }

  return {
    node,
    handle(msg) {
      if (msg.t === 'chat' && msg.d) {
        add(msg.d, true);
        draw();
        return true;
      }
      if (msg.t === 'chat_muted' && msg.d) {
        muted = new Set(msg.d.muted || []);
        draw();
        return true;
      }
      if (msg.t === 'error' && msg.d && String(msg.d.code || '').startsWith('chat_')) {
        error.textContent = errorText(msg.d.code, msg.d.message, msg.d.reason, msg.d.params);
        return true;
      }
      return false;
    },
    async load() {
      try {
        const data = opts.scope === 'lobby' ? await api.lobbyChat(opts.key) : await api.matchChat(opts.key, opts.code);
        muted = new Set(data.muted || []);
        for (const msg of data.messages || []) add(msg, false);
        messages.sort((a, b) => a.id - b.id);
      } catch { /* live messages still arrive */ }
      draw();
    },
    refresh,
  };
}
