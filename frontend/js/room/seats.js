/**
 * The waiting room's players panel: the seats (names, tags, connection, the host's computer
 * levels, add/remove buttons), the colour picker, "take a seat" and the start button.
 */

import * as api from '../api.js';
import { h } from '../dom.js';
import { COLOURS, COLOUR_ORDER, swatch } from '../board/pieces.js';
import { decorateSeats } from '../widgets/player/ratings.js';
import { t } from '../i18n.js';
import { botTag } from '../widgets/player/botTag.js';
import * as localSeats from '../stored/localSeats.js';

/**
 * "Someone here": seat another person playing on this device (hot-seat). They get a guest
 * identity of their own (``POST /api/players``), which joins the table; the match screen passes
 * the device to them on their turns (match/access/hotSeat.js). While the name is being typed the form
 * is ``room.localDraft``, so a table update re-rendering the room keeps it open with its text.
 */
function localSeatButton(room, seat) {
  const box = h('span.local-seat');
  const draft = room.localDraft;
  if (draft && draft.seat === seat) {
    const name = h('input#local-name', { type: 'text', maxlength: 32, 'aria-label': t('room.localName'),
      placeholder: t('room.localName'), value: draft.value, oninput: () => { draft.value = name.value; } });
    const add = async (e) => {
      e.preventDefault();
      const wanted = name.value.trim();
      if (!wanted) { name.focus(); return; }
      room.localDraft = null; // the seat the answer fills is drawn without the form
      const seated = await room.act(async () => {
        const made = await api.createPlayer(wanted);
        const person = { id: made.player.id, name: made.player.name, token: made.token };
        localSeats.add(room.code, person);
        return api.post(`/api/lobbies/${encodeURIComponent(room.code)}/join`, {}, { token: person.token });
      });
      if (!seated && !room.localDraft) { // refused (the toast says why): the name stays to edit
        room.localDraft = draft;
        room.hooks.render();
      }
    };
    box.append(h('form.local-form', { onsubmit: add }, name,
      h('button.btn.small.primary#local-add', { type: 'submit' }, t('room.localSeat'))));
    return box;
  }
  const open = () => {
    room.localDraft = { seat, value: '' }; // one form at a time: another seat's closes
    room.hooks.render();
    const input = document.getElementById('local-name');
    if (input) input.focus();
  };
  box.append(h('button.btn.small.secondary.add-local', { type: 'button', onclick: open, title: t('room.localHelp') },
    t('room.localButton')));
  return box;
}

function emptySeat(room, i) {
  return h('li.seat.empty', { dataset: { seat: i } },
    h('span.seat-swatch.empty', { html: '' }),
    h('div.seat-main', {}, h('b', t('room.openSeat')), h('small', t('room.waitingPlayer'))),
    room.hostCanEdit()
      ? h('div.seat-actions', {},
        h('button.btn.small.secondary.add-bot', { onclick: () => room.act(() => api.addBot(room.code)) }, t('room.addBot')),
        inviteButton(room, i), localSeatButton(room, i))
      : room.mySeat() ? h('div.seat-actions', {}, localSeatButton(room, i)) : null);
}

/**
 * The host's "invite a bot" at empty seat ``seat``: a list of the bot accounts (docs/BOT_API.md)
 * to send an invitation to; the bot takes the seat when its program accepts. While the list is
 * open it is ``room.botPicker`` (``{seat, bots}``), so a table update re-rendering the room (a
 * player connecting, another joining) keeps it open instead of dropping the host's choice.
 */
function inviteButton(room, seat) {
  const box = h('span.invite-bot');
  const picker = room.botPicker;
  if (picker && picker.seat === seat) {
    const others = picker.bots.filter((b) => !room.lobby.seats.some((s) => s.player === b.id));
    const select = h(`select.bot-choice#bot-choice-${seat}`, { 'aria-label': t('botAccount.chooseBot') },
      h('option', { value: '' }, others.length ? t('botAccount.chooseBot') : t('botAccount.noBots')),
      others.map((b) => h('option', { value: b.id }, `${b.name} (@${b.username})`)));
    select.addEventListener('change', async () => {
      const bot = others.find((b) => b.id === select.value);
      if (!bot) return;
      room.botPicker = null; // the answer's table is drawn without the list
      const sent = await room.act(() => api.inviteBot(room.code, bot.id), t('botAccount.invited', { name: bot.name }));
      if (!sent) { room.botPicker = picker; } // refused (the toast says why): choose again
      room.hooks.render();
    });
    box.append(select);
    return box;
  }
  const open = async () => {
    const { bots } = await room.act(() => api.listBots()) || { bots: [] };
    room.botPicker = { seat, bots: bots || [] }; // one list at a time: another seat's closes
    room.hooks.render();
    const select = document.getElementById(`bot-choice-${seat}`);
    if (select) select.focus();
  };
  box.append(h('button.btn.small.ghost.invite-bot-btn', { type: 'button', onclick: open }, t('botAccount.invite')));
  return box;
}

/** The host's button that removes a computer or a person from seat ``s``. */
function removeButton(room, s) {
  if (s.bot) {
    return h('button.btn.small.ghost.remove-bot', { onclick: () => room.act(() => api.removeBot(room.code, s.seat)),
      'aria-label': t('room.removeBotAria', { name: s.name }) }, t('room.remove'));
  }
  const kick = () => { if (window.confirm(t('room.kickConfirm', { name: s.name }))) room.act(() => api.kick(room.code, s.seat)); };
  return h('button.btn.small.ghost.kick', { onclick: kick, 'aria-label': t('room.kickAria', { name: s.name }) }, t('room.remove'));
}

function seatRow(room, i) {
  const { lobby, me } = room;
  const s = lobby.seats.find((x) => x.seat === i);
  if (!s || !(s.player || s.bot)) return emptySeat(room, i);
  const mine = me && s.player === me.id;
  const host = s.player && s.player === lobby.host;
  const online = s.bot || s.connected;
  return h('li.seat', { dataset: { seat: i, colour: s.colour }, class: mine ? 'mine' : '' },
    h('span.seat-swatch', { html: swatch(s.colour, 30), title: COLOURS[s.colour] ? t(`colour.${s.colour}`) : s.colour }),
    h('div.seat-main', {},
      h('b.seat-name.name-cut', { title: s.name || '' }, s.name || (s.bot ? t('room.computer') : t('room.player'))),
      h('small', {},
        mine ? h('span.tag.you', t('room.you')) : null,
        host ? h('span.tag.host', t('room.host')) : null,
        s.bot ? h('span.tag.bot', t('room.computer')) : null,
        botTag(s),
        s.bot && !room.hostCanEdit() ? h('span.tag.level', t(`bot.level.${s.level || 'normal'}`)) : null,
        h('span.conn', { class: online ? 'on' : 'off', title: online ? t('room.connected') : t('room.notConnected') },
          h('i.dot'), s.bot ? t('room.ready') : online ? t('room.online') : t('room.offline')))),
    room.hostCanEdit() ? levelSelect(room, s) : null,
    room.hostCanEdit() && !mine ? removeButton(room, s) : null);
}

/**
 * The computer's level for a seat (host only): how a bot plays, or who stands in for a person
 * who leaves the match (Normal unless chosen).
 */
function levelSelect(room, s) {
  const label = s.bot ? t('bot.level.label', { name: s.name }) : t('bot.standin.label', { name: s.name });
  return h('label.bot-level', { title: label },
    h('span', s.bot ? t('bot.level') : t('bot.standin')),
    h('select.level-select', {
      'aria-label': label,
      onchange: (e) => room.act(() => api.setSeatLevel(room.code, s.seat, e.target.value)),
    }, ['easy', 'normal', 'strong'].map((lv) => h('option', { value: lv, selected: (s.level || 'normal') === lv }, t(`bot.level.${lv}`)))));
}

function colourPicker(room) {
  const seat = room.mySeat();
  if (!seat) return null;
  const taken = new Set(room.lobby.seats.filter((s) => (s.player || s.bot) && s !== seat).map((s) => s.colour));
  return h('div.colour-picker', { role: 'radiogroup', 'aria-label': t('room.yourColour') },
    h('span.label', t('room.yourColour')),
    COLOUR_ORDER.map((c) => h('button.colour-btn', {
      type: 'button', role: 'radio', 'aria-checked': seat.colour === c ? 'true' : 'false',
      'aria-label': taken.has(c) ? t('room.colourTaken', { colour: t(`colour.${c}`) }) : t(`colour.${c}`), title: t(`colour.${c}`),
      disabled: taken.has(c), class: seat.colour === c ? 'checked' : '', dataset: { colour: c },
      html: swatch(c, 30),
      onclick: () => room.act(() => api.pickColour(room.code, c)),
    })));
}

/** The host's start button, or what the others wait for. */
function startRow(room) {
  const filled = room.filled();
  if (!room.isHost()) {
    return h('p.waiting-note', {}, h('span.spinner.small'), room.mySeat() ? t('room.waitingHost') : t('room.watchingTable'));
  }
  return h('button.btn.primary.big#start-match', { disabled: filled < 2, onclick: async (e) => {
    e.target.disabled = true;
    const res = await room.act(() => api.startMatch(room.code));
    if (res && res.match_id) {
      room.lobby.match_id = res.match_id;
      room.lobby.status = 'started';
      room.hooks.moveToMatch();
    } else e.target.disabled = false;
  } }, filled < 2 ? t('room.needTwo') : t('room.start', { n: filled }));
}

/**
 * The hot-seat form open at a seat someone has since taken moves to the first empty seat (and
 * closes when none is left).
 */
function keepLocalDraft(room) {
  const draft = room.localDraft;
  if (!draft) return;
  const { lobby } = room;
  const taken = (i) => lobby.seats.some((s) => s.seat === i && (s.player || s.bot));
  if (draft.seat < lobby.max_seats && !taken(draft.seat)) return;
  const free = [...Array(lobby.max_seats).keys()].find((i) => !taken(i));
  if (free === undefined) room.localDraft = null;
  else draft.seat = free;
}

/** The players panel: seats, my colour, "take a seat", start. */
export function seatsPanel(room) {
  const { lobby } = room;
  const filled = room.filled();
  keepLocalDraft(room);
  const picker = room.botPicker;
  if (picker && lobby.seats.some((s) => s.seat === picker.seat && (s.player || s.bot))) room.botPicker = null;
  const seats = h('ol.seats#seats');
  for (let i = 0; i < lobby.max_seats; i += 1) seats.appendChild(seatRow(room, i));
  decorateSeats(seats, lobby);
  const joinBtn = !room.mySeat() && lobby.status === 'open' && filled < lobby.max_seats
    ? h('button.btn.primary#take-seat', { onclick: () => room.act(() => api.joinLobby(room.code), t('room.tookSeat')) }, t('room.takeSeat'))
    : null;
  return h('div.panel.seats-panel', {}, h('h2', t('room.players', { n: filled, max: lobby.max_seats })), seats,
    colourPicker(room), joinBtn, h('div.start-row', {}, startRow(room)));
}
