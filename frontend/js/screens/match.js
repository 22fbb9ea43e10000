/**
 * The match (#/match/ID[?code=LOBBYCODE]): play or watch.
 *
 * Loads the match over REST (readable errors, fast first paint), then follows the match
 * websocket with ``since=<version>``: every ``events`` frame carries the engine events and the
 * view after them; a dropped connection shows a banner, retries with backoff and resumes from
 * the last version seen. Actions go over the socket (REST when the socket is down), each with a
 * client action id so a retry never applies twice.
 *
 * Playing a turn: legal cells glow → hover/tap previews the drawn tile in the current rotation
 * (rotations that do not fit are refused) → confirm → follower targets on the tile, or
 * "no follower". Keyboard: arrows choose, R rotates, Enter places/confirms, N = no follower,
 * Esc cancels, + / − zoom, C centres.
 *
 * This module only wires the parts together; they live in ``../match/``: ``model.js`` (what
 * the server said: the only writer of the match, its version and clock), ``ui.js`` (the
 * person's half-made choices and what waits to be drawn), ``sync.js`` (feeds the model:
 * snapshot, events, version), ``connection.js`` (socket, banner), ``layout.js`` (the skeleton),
 * ``render.js`` (board and status), ``panel.js`` (players, info, log), ``tray.js``, ``play.js``
 * (choosing and sending actions), ``dialogs.js`` (end screen and other dialogs),
 * ``keyboard.js``, ``clock.js``, ``attention.js``. What an expansion adds they ask
 * ``../expansions/`` for. The parts receive one screen object ``m``: ``{matchId, code, model,
 * ui, hooks, dom, board, socket, chat, alive, go}``; they read ``m.model``, write ``m.ui`` and
 * call each other only through ``m.hooks`` (made and frozen here), so none of them imports
 * another's module but ``model.js``, ``ui.js`` and ``aids.js`` (what the table's aid policy
 * shows this viewer).
 */

import * as api from '../api.js';
import { clear, toastArea } from '../dom.js';
import { Board } from '../board/board.js';
import { matchingPreset } from '../widgets/table/rules.js';
import { loadPresets } from '../widgets/table/rulesEditor.js';
import { errorPanel } from '../widgets/page/errorPanel.js';
import { MatchModel } from '../match/model.js';
import { newUiState } from '../match/ui.js';
import { collect } from '../expansions/index.js';
import { buildLayout } from '../match/layout.js';
import { render, renderInteraction, celebrate } from '../match/render.js';
import { renderPlayers, addLog, renderLog } from '../match/panel.js';
import { renderTray } from '../match/tray.js';
import { hoverCell, selectCell, rotate, cancelSelection, confirmPlacement, pickSpot, pass, clearPending, retryAction, sendAction } from '../match/play.js';
import { renderTextBoard, toggle as toggleTextBoard } from '../match/access/textBoard.js';
import { resync, applySnapshot, onMessage, loadHistory } from '../match/sync.js';
import { connect, stopBanner } from '../match/connection.js';
import { showEnd, showRemaining, showKeys, share } from '../match/dialogs.js';
import { onKey } from '../match/access/keyboard.js';
import { attend, watchTurn, resetAttention } from '../match/access/attention.js';
import { loadLocalSeats, watchHandover, dropCover } from '../match/access/hotSeat.js';
import { chatBox } from '../widgets/page/chat.js';
import { isMissing, isRefused, missingPanel, refusedPanel } from '../widgets/page/missing.js';
import { codeFor, known, remember, showInAddress } from '../stored/inviteCodes.js';
import * as session from '../session.js';
import { decoratePlayers, tick } from '../match/status/clock.js';
import { loadSeries } from '../match/status/series.js';

/** The hooks the parts call each other through (``m.hooks``), bound to screen ``m``. */
function makeHooks(m) {
  return Object.freeze({
    render: () => { render(m); renderTextBoard(m); },
    sendAction: (d) => sendAction(m, d),
    toggleTextBoard: () => toggleTextBoard(m),
    renderInteraction: () => renderInteraction(m),
    renderPlayers: () => { renderPlayers(m); decoratePlayers(m); tick(m); },
    renderTray: () => renderTray(m),
    renderLog: () => renderLog(m),
    addLog: (events, opts) => addLog(m, events, opts),
    celebrate: (events) => celebrate(m, events),
    showEnd: () => showEnd(m),
    showRemaining: () => showRemaining(m),
    showKeys: () => showKeys(m),
    share: () => share(m),
    hoverCell: (x, y) => hoverCell(m, x, y),
    selectCell: (x, y) => selectCell(m, x, y),
    rotate: (dir) => rotate(m, dir),
    cancelSelection: () => cancelSelection(m),
    confirmPlacement: () => confirmPlacement(m),
    pickSpot: (spot) => pickSpot(m, spot),
    pass: () => pass(m),
    clearPending: () => clearPending(m),
    retryAction: (id, retryAfter) => retryAction(m, id, retryAfter),
    resync: () => resync(m),
    attend: (events) => attend(m, events),
    watchTurn: () => { watchTurn(m); watchHandover(m); },
  });
}

/**
 * Load the match over REST (readable errors, fast first paint), then the chat, the socket and
 * the log's history; an error replaces the screen with a panel that says what happened.
 */
async function openMatch(m, root, ctx) {
  try {
    const data = await api.getMatch(m.matchId, m.code);
    if (!m.alive) return;
    if (data.private) {
      // The address carries the invite code, so the link a player copies works for others.
      m.code = codeFor(m.matchId, m.code, data) || undefined;
      remember(m.matchId, m.code);
      showInAddress(ctx.query, m.code);
    }
    loadPresets().then((presets) => {
      m.ui.presetName = matchingPreset(data.state.rules, presets);
      if (m.alive && m.model.match) m.hooks.renderPlayers();
    }).catch(() => {});
    await loadLocalSeats(m, data); // hot-seat: the other people playing on this device
    if (!m.alive) return;
    m.ui.handedTo = data.you ?? null;
    applySnapshot(m, data.version, data);
    m.board.fit(false);
    loadSeries(m);
    // The chat: players' (or spectators') messages; chat frames never reach the game's handler.
    m.chat = chatBox({
      scope: 'match', key: m.matchId, code: m.code, me: () => (session.player() || {}).id || null,
      role: () => (m.model.you() === null ? 'spectators' : 'players'), canWrite: () => !!session.token(),
      isHost: () => false, send: (frame) => !!m.socket && m.socket.send(frame),
      online: () => !!m.socket && m.socket.isOpen,
    });
    const side = m.dom.section.querySelector('#side-panel');
    // Below the log: the log takes the room the chat leaves (polish.css), never pushed out of sight.
    side.insertBefore(m.chat.node, side.querySelector('.panel-links'));
    m.chat.load();
    connect(m, (msg) => {
      if (m.chat.handle(msg)) return;
      const wasOver = m.model.isOver();
      onMessage(m, msg);
      // Players read the spectators' chat once the match is over.
      if (!wasOver && m.model.isOver() && m.model.you() !== null) setTimeout(() => m.alive && m.chat.load(), 300);
    });
    loadHistory(m);
  } catch (err) {
    if (!m.alive) return;
    clear(root).appendChild(isRefused(err) ? refusedPanel('match') : isMissing(err) ? missingPanel('match', ctx.id)
      : errorPanel(err, () => ctx.go(location.hash)));
    document.body.classList.remove('in-match');
  }
}

export function mount(root, ctx) {
  const m = {
    matchId: ctx.id,
    code: ctx.query.get('code') || known(ctx.id) || undefined,
    model: new MatchModel(),
    ui: newUiState(),
    hooks: null,
    dom: null,
    board: null,
    socket: null,
    chat: null,
    series: null,
    conn: { bannerTimer: null, wasDown: false },
    alive: true,
    go: ctx.go,
  };
  m.hooks = makeHooks(m);

  m.dom = buildLayout(m);
  root.appendChild(m.dom.section);
  document.body.classList.add('in-match');
  m.board = new Board(m.dom.boardHost, {
    onCellClick: (x, y) => m.hooks.selectCell(x, y),
    onCellHover: (x, y) => m.hooks.hoverCell(x, y),
    onSpotClick: (spot) => m.hooks.pickSpot(spot),
    onPreviewClick: () => m.hooks.rotate(1),
  });
  // Toasts at the foot of the board: clear of the header, the zoom buttons and the tray.
  const toastsBack = toastArea(m.dom.boardHost);

  const keydown = (e) => onKey(m, e);
  document.addEventListener('keydown', keydown);

  // The clocks tick, and whatever an expansion counts down (the Plague's decision).
  const ticker = setInterval(() => {
    tick(m); // the clocks and the leave countdowns (match/status/clock.js)
    if (m.model.match) collect(m.model, 'tick', m);
  }, 500);

  openMatch(m, root, ctx);

  return () => {
    m.alive = false;
    clearInterval(ticker);
    clearPending(m);
    stopBanner(m);
    document.removeEventListener('keydown', keydown);
    document.body.classList.remove('in-match');
    toastsBack();
    document.title = 'Carcassonne';
    resetAttention();
    dropCover(m);
    if (m.socket) m.socket.close();
    if (m.board) m.board.destroy();
  };
}
