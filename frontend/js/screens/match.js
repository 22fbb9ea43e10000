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
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { h, clear, toast, copyText } from '../dom.js';
import { LiveSocket } from '../socket.js';
import { Board, cellKey } from '../board.js';
import { tileSvg, spotPoint, tileType } from '../tiles.js';
import { COLOURS, colourOf, swatch, meepleIcon, roleIconMarkup, roleOfSpot, ROLE_LABEL, PLACE_LABEL } from '../pieces.js';
import { describe, scoringDetail, joinNames } from '../words.js';
import { segmentLabel, segmentEffect } from '../wheel.js';
import { rulesSummary, matchingPreset } from './rules.js';
import { loadPresets } from './create.js';
import { errorPanel } from '../main.js';

const EYE = '<svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true"><path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.2" fill="currentColor"/></svg>';
const TROPHY = '<svg width="56" height="56" viewBox="0 0 64 64"><path d="M18 8h28v14c0 10-6 17-14 17S18 32 18 22z" fill="#f2c318" stroke="#8a6b00" stroke-width="2.5"/><path d="M18 13H8c0 9 4 14 11 15M46 13h10c0 9-4 14-11 15" fill="none" stroke="#8a6b00" stroke-width="3"/><path d="M28 39h8v8h-8z" fill="#d9a90f"/><path d="M20 56h24l-3-9H23z" fill="#6d5234"/><path d="M27 17l5-4 5 4-2 7h-6z" fill="#fff6c4" opacity=".8"/></svg>';
const PLAGUE_ICON = '<svg width="44" height="44" viewBox="-22 -22 44 44"><circle r="20" fill="#dfe6cf" stroke="#5d6b45" stroke-width="2"/>' +
  '<path d="M-12,4 C-12,-4 -4,-8 3,-6 C7,-5 10,-2 12,2 L15,3 L11,5 C8,7 -6,8 -12,4 Z" fill="#8a8076" stroke="#3d2b18" stroke-width="1.5" stroke-linejoin="round"/>' +
  '<circle cx="2" cy="-6" r="3" fill="#b3a89c" stroke="#3d2b18"/><circle cx="8" cy="-0.5" r="1.2" fill="#3d2b18"/>' +
  '<path d="M-12,4 C-17,5 -17,11 -12,12" fill="none" stroke="#3d2b18" stroke-width="1.3" stroke-linecap="round"/></svg>';
/** Where a point (tile units) lies on its tile, in words ("west", "south-east", "middle"). */
function whereOnTile([x, y]) {
  const ns = y < 38 ? 'north' : y > 62 ? 'south' : '';
  const ew = x < 38 ? 'west' : x > 62 ? 'east' : '';
  return ns && ew ? `${ns}-${ew}` : ns || ew || 'middle';
}

const SHORT = { road: 'Road', city: 'City', cloister: 'Clois.', farm: 'Farm' };
const CATEGORIES = [['road', 'Roads'], ['city', 'Cities'], ['cloister', 'Cloisters'], ['farm', 'Farms']];
const MAX_LOG = 250;
const WHEEL_CATEGORIES = ['fortune', 'tax', 'famine', 'storm', 'inquisition', 'crown'];
const FOLLOWERS = 7;

export function mount(root, ctx) {
  const matchId = ctx.id;
  const code = ctx.query.get('code') || undefined;
  let alive = true;
  let match = null;
  let version = -1;
  let socket = null;
  let board = null;
  let endShown = false;
  let lastPlaced = null;
  let logItems = [];
  let actionSeq = 0;
  let presetName = null;
  const ui = { rotation: 0, selected: null, hover: null, cursor: null, spotFocus: null, pending: null, pendingTimer: null,
    keyboard: false, turnKey: null, pigSteps: null, plagueDeadline: null };

  // ------------------------------------------------------------------ layout

  const title = h('h1.match-title', 'Match');
  const statusLine = h('p.match-status#turn-status', { 'aria-live': 'polite' }, 'Loading…');
  const banner = h('div.conn-banner#conn-banner', { role: 'status', 'aria-live': 'assertive', hidden: true });
  const boardHost = h('div.board-host');
  const tray = h('div.tray#tray', { 'aria-live': 'polite' });
  const playersBox = h('ol.players#players');
  const infoBox = h('div.match-info');
  const logList = h('ol.log#log', { 'aria-label': 'What happened' });
  const endLayer = h('div.end-layer');
  const panelToggle = h('button.btn.small.ghost.panel-toggle', { 'aria-expanded': 'false', 'aria-controls': 'side-panel',
    onclick: () => {
      const open = !section.classList.contains('panel-open');
      section.classList.toggle('panel-open', open);
      panelToggle.setAttribute('aria-expanded', String(open));
    } }, h('span', { html: '<svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true"><path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/></svg>' }),
  h('span.visually-hidden', 'Scores and log'));
  const scoreStrip = h('div.score-strip', { 'aria-hidden': 'true' });

  const zoom = h('div.board-controls', { role: 'group', 'aria-label': 'Board view' },
    h('button.icon-btn#zoom-in', { type: 'button', title: 'Zoom in (+)', 'aria-label': 'Zoom in', onclick: () => board.zoomBy(1.25) }, '+'),
    h('button.icon-btn#zoom-out', { type: 'button', title: 'Zoom out (−)', 'aria-label': 'Zoom out', onclick: () => board.zoomBy(0.8) }, '−'),
    h('button.icon-btn#centre', { type: 'button', title: 'Centre the board (C)', 'aria-label': 'Centre the board', onclick: () => board.centre() },
      h('span', { html: '<svg viewBox="0 0 20 20" width="18" height="18"><circle cx="10" cy="10" r="3.2" fill="currentColor"/><path d="M10 1v4M10 15v4M1 10h4M15 10h4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>' })));

  const section = h('section.match#match', { dataset: { match: matchId } },
    h('header.match-top', {},
      h('a.back', { href: '#/lobbies', title: 'Back to the tables', 'aria-label': 'Back to the tables' }, '‹'),
      h('div.match-heading', {}, title, statusLine),
      scoreStrip,
      h('div.match-actions', {},
        h('button.btn.small.ghost#share-match', { type: 'button', onclick: share, title: 'Copy a link to watch this match' }, 'Share'),
        h('button.btn.small.ghost#keys-help', { type: 'button', onclick: showKeys, title: 'Keyboard controls' }, 'Keys'),
        panelToggle)),
    h('div.match-body', {},
      h('div.board-wrap', {}, boardHost, zoom, banner, tray),
      h('aside.side-panel#side-panel', { 'aria-label': 'Players and log' },
        h('h2.visually-hidden', 'Players'), playersBox, infoBox,
        h('h2.log-title', 'Game log'), logList,
        h('div.panel-links', {},
          h('button.btn.small.secondary', { type: 'button', onclick: share }, 'Copy watch link'),
          h('button.btn.small.secondary', { type: 'button', onclick: showKeys }, 'Keyboard controls'),
          h('a.btn.small.ghost', { href: '#/lobbies' }, 'Back to tables')))),
    endLayer);
  root.appendChild(section);
  document.body.classList.add('in-match');

  board = new Board(boardHost, {
    onCellClick: (x, y) => selectCell(x, y),
    onCellHover: (x, y) => hoverCell(x, y),
    onSpotClick: (spot) => pickSpot(spot),
    onPreviewClick: () => rotate(1),
  });

  // ------------------------------------------------------------------ derived state

  const state = () => (match ? match.state : null);
  const you = () => (match && typeof match.you === 'number' ? match.you : null);
  const names = () => (match ? match.seats.map((s, i) => s.name || (state() && state().players[i]) || `Seat ${i + 1}`) : []);
  const colours = () => (match ? match.seats.map((s) => s.colour) : []);
  const isOver = () => !!match && (match.status === 'finished' || (state() && state().phase === 'game_over'));
  const myTurn = () => {
    const s = state();
    return !!s && !isOver() && you() !== null && s.seat === you();
  };

  function legalCells() {
    const s = state();
    const cells = new Map();
    if (!myTurn() || s.phase !== 'place_tile' || ui.pending) return cells;
    for (const [x, y, r] of s.legal_placements || []) {
      const key = cellKey(x, y);
      if (!cells.has(key)) cells.set(key, []);
      cells.get(key).push(r);
    }
    for (const rots of cells.values()) rots.sort((a, b) => a - b);
    return cells;
  }

  function fits(key, rotation) {
    const rots = legalCells().get(key);
    return !!rots && rots.includes(rotation);
  }

  /** The next rotation from ``from`` in direction ``dir`` (±1) that fits at ``key``. */
  function nextFit(key, from, dir) {
    const rots = legalCells().get(key) || [];
    for (let i = 0; i < 4; i += 1) {
      const r = (((from + dir * 90 * i) % 360) + 360) % 360;
      if (rots.includes(r)) return r;
    }
    return from;
  }

  // ------------------------------------------------------------------ rendering

  function render() {
    if (!alive || !match) return;
    const s = state();
    title.textContent = match.name || 'Match';
    section.dataset.version = String(version);
    section.dataset.phase = isOver() ? 'game_over' : s.phase;
    section.dataset.myTurn = myTurn() ? 'true' : 'false';
    section.dataset.role = you() === null ? 'spectator' : 'player';
    board.svg.dataset.version = String(version);
    // A new turn or phase resets the half-made choices.
    const turnKey = `${s.turn}:${s.phase}:${s.seat}`;
    if (turnKey !== ui.turnKey) {
      ui.turnKey = turnKey;
      ui.selected = null;
      ui.hover = null;
      ui.spotFocus = null;
      if (s.phase === 'place_tile') ui.rotation = 0; // a new tile starts as drawn
      // A Plague decision falls to a computer after the server's timeout: count it down.
      ui.plagueDeadline = s.phase === 'plague' && match.plague_timeout && !(match.seats[s.seat] || {}).bot
        ? Date.now() + match.plague_timeout * 1000 : null;
      if (ui.cursor && !legalCells().has(ui.cursor)) ui.cursor = null;
    }
    board.setTiles(s.board);
    const lp = lastPlaced || (s.placed ? { at: s.placed, seat: s.seat } : null);
    board.setLastMove(lp ? lp.at : null, lp ? colours()[lp.seat] : null);
    board.setFollowers(s.followers || [], colours());
    board.setWheel(s.wheel || null, colours(), { steps: ui.pigSteps });
    ui.pigSteps = null;
    renderInteraction();
    renderStatus();
    renderPlayers();
    renderTray();
    if (isOver() && !endShown) {
      endShown = true;
      setTimeout(() => { if (alive) showEnd(); }, ui.justEnded ? 1400 : 0);
    }
  }

  function renderInteraction() {
    const s = state();
    const cells = legalCells();
    board.setLegal(cells);
    board.clearPreview();
    board.setTargets(null);
    if (myTurn() && s.phase === 'place_tile' && s.tile) {
      const key = ui.selected || ui.hover;
      if (key && cells.has(key)) {
        const [x, y] = key.split(',').map(Number);
        board.showPreview(x, y, s.tile, ui.rotation, { fits: fits(key, ui.rotation), selected: key === ui.selected });
      }
      board.setCursor(...(ui.keyboard && ui.cursor ? ui.cursor.split(',').map(Number) : [null]));
    } else {
      board.setCursor(null);
    }
    if (myTurn() && s.phase === 'deploy' && s.placed && !ui.pending) {
      const spots = s.legal_spots || [];
      const placedKey = cellKey(s.placed[0], s.placed[1]);
      if (spots.length && ui.focused !== `${s.turn}:${placedKey}`) {
        // Zoom in on the tile just placed so its follower spots are easy to hit (with the
        // wheel too when a crown space is free and both fit on screen large enough).
        ui.focused = `${s.turn}:${placedKey}`;
        const crowns = spots.some((sp) => sp.startsWith('crown:'));
        const onTile = spots.some((sp) => !sp.startsWith('crown:'));
        const both = crowns && s.wheel && board.focusBox([s.placed, ...s.wheel.cells], onTile ? 105 : 40);
        if (!both && onTile) board.focusCell(s.placed[0], s.placed[1]);
      }
      board.setTargets(s.placed, spots, colours()[you()], ui.keyboard ? ui.spotFocus : null);
    }
    if (myTurn() && s.phase === 'plague' && s.plague && !ui.pending) {
      const focusKey = `${s.turn}:plague:${(s.plague.waiting || []).join(',')}`;
      if (ui.focused !== focusKey) {
        // Frame the followers to choose from (with the wheel), large enough to tap.
        ui.focused = focusKey;
        const cells = plagueItems().map((it) => it.at);
        if (!board.focusBox([...cells, ...((s.wheel && s.wheel.cells) || [])], 90)) board.fit(true);
      }
      board.setTargetList(plagueItems(), colours()[you()], ui.keyboard ? ui.spotFocus : null);
    }
    // Everyone else sees which followers the Plague decision is about.
    board.setMarks(!isOver() && s.phase === 'plague' && s.plague && !myTurn() ? plagueItems() : null,
      s.plague ? colours()[s.plague.seat] : null);
  }

  function renderStatus() {
    const s = state();
    const n = names();
    let text;
    if (isOver()) {
      const w = (s.winners || []).map((i) => n[i]);
      text = w.length > 1 ? `Game over — ${joinNames(w)} share the win` : w.length ? `Game over — ${w[0]} wins` : 'Game over';
    } else if (s.phase === 'paused') {
      text = 'The match is paused.';
    } else {
      const who = myTurn() ? 'Your turn' : `${n[s.seat]}'s turn`;
      const what = s.phase === 'place_tile' ? 'place the tile' : s.phase === 'deploy' ? 'deploy a follower or not'
        : s.phase;
      text = s.phase === 'plague'
        ? `Plague — ${myTurn() ? 'take back one of your followers' : `waiting for ${n[s.seat]}…`} · ${s.tiles_remaining} tiles left`
        : `${who} — ${what} · ${s.tiles_remaining} tiles left`;
    }
    statusLine.textContent = text;
    document.title = `${myTurn() ? '● ' : ''}${match.name || 'Match'} · Carcassonne`;
  }

  function renderPlayers() {
    const s = state();
    const n = names();
    clear(playersBox);
    clear(scoreStrip);
    match.seats.forEach((seat, i) => {
      const active = !isOver() && s.seat === i;
      const winner = isOver() && (s.winners || []).includes(i);
      const supply = (s.supply || [])[i] ?? 0;
      const online = seat.bot || seat.connected;
      const meeples = [];
      for (let k = 0; k < FOLLOWERS; k += 1) meeples.push(h('span', { html: meepleIcon(seat.colour, 13, k >= supply) }));
      playersBox.appendChild(h('li.player', { class: `${active ? 'active' : ''} ${winner ? 'winner' : ''}`.trim(), dataset: { seat: i, colour: seat.colour } },
        h('span.player-swatch', { html: swatch(seat.colour, 26), title: COLOURS[seat.colour] ? COLOURS[seat.colour].label : '' }),
        h('div.player-main', {},
          h('div.player-name', {}, h('b', n[i]), you() === i ? h('span.tag.you', 'You') : null,
            seat.bot ? h('span.tag.bot', 'Computer') : null, winner ? h('span.tag.win', '★ Winner') : null),
          h('div.player-sub', {},
            h('span.conn', { class: online ? 'on' : 'off', title: online ? 'Connected' : 'Disconnected' }, h('i.dot'), online ? '' : 'offline'),
            h('span.supply', { title: `${supply} followers in supply`, 'aria-label': `${supply} followers in supply` }, meeples),
            active ? h('span.turn-tag', s.phase === 'place_tile' ? 'placing a tile' : s.phase === 'deploy' ? 'choosing a follower'
              : s.phase === 'plague' ? 'Plague: choosing' : 'to act') : null)),
        h('span.player-score', { dataset: { score: i } }, String((s.scores || [])[i] ?? 0))));
      scoreStrip.appendChild(h('span.strip-item', { class: active ? 'active' : '' },
        h('span', { html: swatch(seat.colour, 16) }), h('b', String((s.scores || [])[i] ?? 0))));
    });
    clear(infoBox).append(
      h('button.info-item.info-btn', { type: 'button', onclick: showRemaining, title: 'Which tiles are still to come' },
        h('span.info-num#tiles-left', String(s.tiles_remaining)), h('small', 'tiles left ›')),
      h('div.info-item', {}, h('span.info-num#spectators', String(match.spectators || 0)), h('small', 'watching')),
      s.wheel ? h('div.info-item.wheel-info#pig-info', { dataset: { segment: s.wheel.pig }, title: segmentEffect(s.wheel.pig) },
        h('span.pig-dot', { 'aria-hidden': 'true' }), h('small', {}, 'The pig is on ', h('b', segmentLabel(s.wheel.pig)), ` — ${segmentEffect(s.wheel.pig)}`)) : null,
      h('div.info-item.rules', {}, h('small', rulesSummary(s.rules, presetName))));
  }

  function trayTile(tileId, rotation, { big = false, clickable = false } = {}) {
    const svg = tileSvg(tileId, rotation, big ? 112 : 64, 'tray-tile');
    if (!clickable) return h('div.tray-tile-wrap', {}, svg);
    return h('button.tray-tile-btn#drawn-tile', { type: 'button', title: 'Rotate (R)', 'aria-label': `Drawn tile, rotated ${rotation} degrees. Press to rotate.`,
      dataset: { tile: tileId, rotation }, onclick: () => rotate(1) }, svg, h('span.rotate-badge', '↻'));
  }

  /** "Wheel icon 2: the pig moved to Tax" when the drawn tile carries a wheel icon. */
  function wheelNote(s) {
    const t = s.tile && tileType(s.tile);
    if (!t || !t.icon || !s.wheel) return null;
    return h('small.wheel-note', `Wheel icon ${t.icon}: the pig moved to ${segmentLabel(s.wheel.pig)}`);
  }

  function renderTray() {
    const s = state();
    const n = names();
    clear(tray);
    tray.className = 'tray';
    if (isOver()) {
      tray.classList.add('over');
      tray.append(h('div.tray-text', {}, h('b', 'Game over'), h('span', 'See the final scores.')),
        h('button.btn.primary#show-end', { onclick: showEnd }, 'Final scores'));
      return;
    }
    if (s.phase === 'paused') {
      tray.append(h('div.tray-text', {}, h('b', 'Paused'), h('span', 'The match is waiting.')));
      return;
    }
    if (!myTurn() && s.phase === 'plague' && s.plague) {
      // Someone else decides which follower the Plague takes: everyone waits for them.
      tray.classList.add('waiting', 'plague');
      const next = (s.plague.waiting || []).slice(1).map((i) => (i === you() ? 'you' : n[i]));
      tray.append(
        h('div.tray-plague-icon', { 'aria-hidden': 'true', html: PLAGUE_ICON }),
        h('div.tray-text#plague-waiting', { dataset: { seat: s.plague.seat } },
          h('b', {}, 'Plague! Waiting for ', h('span.name-swatch', { html: swatch(colours()[s.seat], 16) }), `${n[s.seat]}…`),
          h('span', `${n[s.seat]} must take back one of their followers from the land (marked on the board).` +
            (next.length ? ` Then ${joinNames(next)}.` : '')),
          h('small.plague-countdown', countdownText(false)),
          you() === null ? h('small.spectating', {}, h('span', { html: EYE }), ' You are watching') : null));
      tray.style.setProperty('--turn-colour', colourOf(colours()[s.seat]).fill);
      return;
    }
    if (!myTurn()) {
      tray.classList.add('waiting');
      const c = colourOf(colours()[s.seat]);
      tray.append(
        s.tile ? trayTile(s.tile, 0) : null,
        h('div.tray-text', {},
          h('b', {}, h('span', { html: swatch(colours()[s.seat], 16) }), ` ${n[s.seat]}`),
          h('span', s.phase === 'place_tile' ? 'is placing this tile…' : 'is choosing whether to deploy a follower…'),
          s.phase === 'place_tile' ? wheelNote(s) : null,
          you() === null ? h('small.spectating', {}, h('span', { html: EYE }), ' You are watching') : null));
      tray.style.setProperty('--turn-colour', c.fill);
      return;
    }
    tray.classList.add('mine');
    if (ui.pending) {
      tray.append(h('div.tray-text', {}, h('span.spinner.small'), h('span', 'Sending…')));
      return;
    }
    if (s.phase === 'place_tile') {
      const key = ui.selected;
      tray.append(
        h('div.tray-rotate', {},
          h('button.icon-btn#rotate-ccw', { type: 'button', title: 'Rotate left (Shift+R)', 'aria-label': 'Rotate anticlockwise', onclick: () => rotate(-1) }, '⟲'),
          trayTile(s.tile, ui.rotation, { big: true, clickable: true }),
          h('button.icon-btn#rotate-cw', { type: 'button', title: 'Rotate right (R)', 'aria-label': 'Rotate clockwise', onclick: () => rotate(1) }, '⟳')),
        key
          ? h('div.tray-text', {},
            h('b', 'Place it here?'),
            h('span', legalCells().get(key).length > 1 ? 'Rotate to try the other ways it fits.' : 'This is the only way it fits here.'),
            h('div.row', {},
              h('button.btn.primary#confirm-placement', { onclick: confirmPlacement }, '✓ Place tile'),
              h('button.btn.ghost#cancel-placement', { onclick: cancelSelection }, 'Cancel')))
          : h('div.tray-text', {},
            h('b', 'Your turn'),
            h('span.tray-hint', `Choose a glowing square (${legalCells().size} possible). Rotate with R or the arrows.`),
            wheelNote(s)));
      return;
    }
    if (s.phase === 'deploy') {
      const spots = s.legal_spots || [];
      const supply = (s.supply || [])[you()] ?? 0;
      const placedTile = s.placed ? s.board.find((t) => t.at[0] === s.placed[0] && t.at[1] === s.placed[1]) : null;
      const crownsFree = spots.some((sp) => sp.startsWith('crown:'));
      tray.append(h('div.tray-text', {},
        h('b', spots.length ? 'Deploy a follower?' : supply ? 'No free feature on this tile' : 'No followers left'),
        h('span', spots.length ? `Tap a marker on the tile${crownsFree ? ' or a crown space on the wheel' : ''}, or:` : 'End your turn.'),
        spots.length ? h('div.spot-buttons', {}, spots.map((sp) => {
          const role = roleOfSpot(sp);
          const kind = sp === 'cloister' ? 'cloister' : sp.split(':')[0];
          const show = () => { ui.spotFocus = sp; ui.keyboard = true; renderInteraction(); };
          return h('button.btn.small.secondary.spot-btn', { dataset: { spotBtn: sp }, onclick: () => pickSpot(sp),
            onmouseenter: show, onfocus: show,
            title: `${ROLE_LABEL[role] || 'Follower'} ${PLACE_LABEL[kind] || ''}` },
          h('span', { html: `<svg width="16" height="16" viewBox="-9 -9 18 18" aria-hidden="true">${roleIconMarkup(role)}</svg>` }),
          ` ${ROLE_LABEL[role] || sp}`, placedTile && !sp.startsWith('crown:')
            ? h('small.spot-where', whereOnTile(spotPoint(placedTile.tile, sp, placedTile.rotation)))
            : sp.startsWith('crown:') ? h('small.spot-where', segmentLabel(sp.slice(6))) : null);
        })) : null,
        h('button.btn.primary#no-follower', { onclick: pass }, spots.length ? 'No follower' : 'End turn')));
      return;
    }
    if (s.phase === 'plague' && s.plague) {
      tray.classList.add('plague');
      const next = (s.plague.waiting || []).slice(1).map((i) => n[i]);
      tray.append(
        h('div.tray-plague-icon', { 'aria-hidden': 'true', html: PLAGUE_ICON }),
        h('div.tray-text#plague-choice', {}, h('b', 'Plague! Take back one of your followers'),
          h('span', `Tap a ringed follower on the board (it returns to your supply, no points)${next.length ? `; then ${joinNames(next)} ${next.length > 1 ? 'choose' : 'chooses'}` : ''}.`),
          h('div.spot-buttons', {}, plagueItems().map((it) => {
            const show = () => { ui.spotFocus = it.id; ui.keyboard = true; renderInteraction(); };
            return h('button.btn.small.secondary.spot-btn', { onclick: () => pickSpot(it.id), dataset: { spotBtn: it.id },
              onmouseenter: show, onfocus: show, title: `Take back: ${it.label}` },
            h('span', { html: `<svg width="16" height="16" viewBox="-9 -9 18 18" aria-hidden="true">${roleIconMarkup(roleOfSpot(it.spot))}</svg>` }),
            ` ${ROLE_LABEL[roleOfSpot(it.spot)] || 'Follower'}`, h('small.spot-where', it.where));
          })),
          h('small.plague-countdown', countdownText(true))));
      return;
    }
    tray.append(h('div.tray-text', {}, h('b', 'Your turn'), h('span', `Phase: ${s.phase}`)));
  }

  // ------------------------------------------------------------------ playing

  function hoverCell(x, y) {
    if (!myTurn() || state().phase !== 'place_tile') return;
    const key = x === null ? null : cellKey(x, y);
    if (key === ui.hover) return;
    ui.hover = key && legalCells().has(key) ? key : null;
    if (!ui.selected) {
      renderInteraction();
      const hint = tray.querySelector('.tray-hint');
      if (hint) {
        hint.textContent = ui.hover && !fits(ui.hover, ui.rotation)
          ? 'It does not fit this way here — rotate it (R) or click to take the first way that fits.'
          : `Choose a glowing square (${legalCells().size} possible). Rotate with R or the arrows.`;
      }
    }
  }

  function selectCell(x, y) {
    if (!myTurn() || state().phase !== 'place_tile' || ui.pending) return;
    const key = cellKey(x, y);
    const cells = legalCells();
    if (!cells.has(key)) return;
    if (ui.selected === key) {
      rotate(1);
      return;
    }
    ui.selected = key;
    ui.cursor = key;
    if (!fits(key, ui.rotation)) ui.rotation = nextFit(key, ui.rotation, 1);
    renderInteraction();
    renderTray();
  }

  function rotate(dir) {
    if (!myTurn() || state().phase !== 'place_tile' || ui.pending) return;
    if (ui.selected) {
      const next = nextFit(ui.selected, ui.rotation + dir * 90, dir);
      if (next === ui.rotation && legalCells().get(ui.selected).length === 1) {
        toast('The tile fits here only this way.', 'info', 1800);
      }
      ui.rotation = next;
    } else {
      ui.rotation = (((ui.rotation + dir * 90) % 360) + 360) % 360;
    }
    renderInteraction();
    renderTray();
  }

  function cancelSelection() {
    ui.selected = null;
    renderInteraction();
    renderTray();
  }

  function confirmPlacement() {
    const key = ui.selected;
    if (!key || !fits(key, ui.rotation)) return;
    const [x, y] = key.split(',').map(Number);
    sendAction({ type: 'place_tile', at: [x, y], rotation: ui.rotation });
  }

  /** Wheel of Fortune, Plague: the followers the deciding seat may take back, as board targets. */
  function plagueItems() {
    const s = state();
    return ((s.plague && s.plague.choices) || []).map(([x, y, spot]) => {
      const role = roleOfSpot(spot);
      const kind = spot === 'cloister' ? 'cloister' : spot.split(':')[0];
      const where = fromWheel([x, y]);
      return { id: `plague:${x},${y}:${spot}`, at: [x, y], spot, where,
        label: `${ROLE_LABEL[role] || 'Follower'} ${PLACE_LABEL[kind] || ''}, ${where}` };
    });
  }

  /** Where a cell lies seen from the wheel ("2 tiles north-east of the wheel"). */
  function fromWheel([x, y]) {
    const s = state();
    const cells = (s.wheel && s.wheel.cells) || [[0, 0]];
    const xs = cells.map((c) => c[0]);
    const ys = cells.map((c) => c[1]);
    const dx = x < Math.min(...xs) ? x - Math.min(...xs) : x > Math.max(...xs) ? x - Math.max(...xs) : 0;
    const dy = y < Math.min(...ys) ? y - Math.min(...ys) : y > Math.max(...ys) ? y - Math.max(...ys) : 0;
    const ns = dy < 0 ? 'north' : dy > 0 ? 'south' : '';
    const ew = dx < 0 ? 'west' : dx > 0 ? 'east' : '';
    const far = Math.max(Math.abs(dx), Math.abs(dy));
    const dir = ns && ew ? `${ns}-${ew}` : ns || ew;
    if (!dir) return 'on the wheel';
    return far > 1 ? `${far} tiles ${dir} of the wheel` : `${dir} of the wheel`;
  }

  /** "A computer chooses for you in 24 s" while a Plague decision is pending. */
  function countdownText(mine) {
    if (!ui.plagueDeadline) return '';
    const left = Math.max(0, Math.ceil((ui.plagueDeadline - Date.now()) / 1000));
    if (left === 0) return mine ? 'Time is up: a computer chooses for you…' : 'Time is up: a computer chooses…';
    return mine ? `If you do not choose within ${left} s, a computer chooses for you.`
      : `A computer chooses for them in ${left} s.`;
  }

  function pickSpot(spot) {
    const s = state();
    if (spot.startsWith('plague:') && myTurn() && s.phase === 'plague' && !ui.pending) {
      const [, xy, ...rest] = spot.split(':');
      const [x, y] = xy.split(',').map(Number);
      sendAction({ type: 'plague', at: [x, y], spot: rest.join(':') });
      return;
    }
    if (!myTurn() || s.phase !== 'deploy' || ui.pending) return;
    if (!(s.legal_spots || []).includes(spot)) return;
    sendAction({ type: 'place_follower', spot });
  }

  function pass() {
    if (!myTurn() || state().phase !== 'deploy' || ui.pending) return;
    sendAction({ type: 'pass' });
  }

  function sendAction(d) {
    actionSeq += 1;
    const id = `c-${session.player()?.id?.slice?.(0, 6) || 'x'}-${Date.now().toString(36)}-${actionSeq}`;
    ui.pending = { id, d, v: version };
    const frame = { t: 'action', v: version, id, d };
    const viaSocket = socket && socket.send(frame);
    clearTimeout(ui.pendingTimer);
    // No answer on the socket in time (or no socket): the same action over REST; the client
    // action id makes the server return the first result instead of applying it twice.
    ui.pendingTimer = setTimeout(() => sendRest(frame), viaSocket ? 6000 : 0);
    renderInteraction();
    renderTray();
  }

  async function sendRest(frame) {
    if (!ui.pending || ui.pending.id !== frame.id) return;
    try {
      await api.postAction(matchId, { v: frame.v, id: frame.id, d: frame.d }, code);
      if (ui.pending && ui.pending.id === frame.id) await resync();
    } catch (err) {
      if (ui.pending && ui.pending.id === frame.id) {
        clearPending();
        toast(api.friendly(err), 'error');
        if (err.code === 'stale_version' || err.code === 'wrong_phase' || err.code === 'not_your_turn') resync();
        else render();
      }
    }
  }

  function clearPending() {
    clearTimeout(ui.pendingTimer);
    ui.pending = null;
  }

  async function resync() {
    try {
      const m = await api.getMatch(matchId, code);
      if (!alive) return;
      if (m.version >= version) applySnapshot(m.version, m);
    } catch (err) {
      toast(api.friendly(err), 'error');
    }
  }

  // ------------------------------------------------------------------ server frames

  function applySnapshot(v, m) {
    const prevYou = match ? match.you : undefined;
    match = m;
    if (m.you === undefined && prevYou !== undefined) match.you = prevYou;
    version = v ?? m.version;
    if (ui.pending) clearPending();
    render();
  }

  function applyEvents(v, d) {
    if (v <= version) return;
    if (version >= 0 && v > version + 1) {
      // A gap: ask for what we missed instead of skipping it.
      if (!socket || !socket.send({ t: 'sync', since: version })) resync();
      return;
    }
    version = v;
    match.version = v;
    if (d.state) match.state = d.state;
    const events = d.events || [];
    const pig = events.filter((e) => e.type === 'PigMoved');
    if (pig.length && d.state) ui.pigSteps = pig.reduce((a, e) => a + e.steps, 0);
    for (const e of events) {
      if (e.type === 'TilePlaced') lastPlaced = { at: e.at, seat: e.seat };
      if (e.type === 'GameEnded') {
        match.status = 'finished';
        ui.justEnded = true;
      }
    }
    if (ui.pending && (d.action_id === ui.pending.id || ui.pending.v < v)) clearPending();
    // A person's Plague decision without a client action id: the server's timeout chose.
    addLog(events, { quiet: !d.state, auto: d.action_id == null && !(match.seats[d.seat] || {}).bot });
    // In a catch-up only the last batch carries the state: draw once, at the end.
    if (d.state) {
      render();
      celebrate(events);
    }
  }

  function celebrate(events) {
    const cols = colours();
    for (const e of events) {
      if (e.type === 'FeatureCompleted') board.highlight(e.tiles, 'rgba(255, 226, 92, 0.55)');
    }
    const scored = events.filter((e) => e.type === 'PointsScored' && !e.final);
    // Wheel points rise from the wheel once the pig has landed (tax and famine from their
    // cities and farms); crown points from the segment whose crowns scored.
    const pigLands = events.filter((e) => e.type === 'PigMoved').reduce((a, e) => a + e.steps, 0) * 380;
    const atSegment = {}; // segment → how many floaters already rise there (side by side)
    scored.forEach((e, i) => {
      const k = events.indexOf(e);
      const wheelish = WHEEL_CATEGORIES.includes(e.category);
      let segment = null;
      if (e.category === 'crown') {
        const back = events.slice(k).find((x) => x.type === 'CrownReturned' && x.seat === e.seat);
        segment = back ? back.segment : null;
      } else if (wheelish) {
        const moved = events.slice(0, k).reverse().find((x) => x.type === 'PigMoved');
        segment = moved ? moved.segment : null;
      }
      const detail = wheelish ? '' : scoringDetail(e);
      const onWheel = wheelish && !(e.tiles || []).length;
      const slot = onWheel ? (atSegment[segment] = (atSegment[segment] ?? -1) + 1) : 0;
      setTimeout(() => {
        if (!alive) return;
        const caption = `${names()[e.seat]} · ${wheelish ? segmentLabel(e.category === 'crown' ? segment || 'crown' : e.category) : e.category}` +
          `${e.category === 'crown' ? ' crown' : ''}${detail ? ` · ${detail}` : ''}`;
        const at = onWheel ? board.segmentPoint(segment) : null;
        if (at) board.floatAt(at[0] + (slot % 2 ? 1 : -1) * Math.ceil(slot / 2) * 105, at[1] + Math.ceil(slot / 2) * 12, `+${e.points}`, caption, cols[e.seat]);
        else board.floatText(e.tiles, `+${e.points}`, caption, cols[e.seat]);
      }, (wheelish ? pigLands : 0) + i * 300);
    });
  }

  function addLog(events, { quiet = false, auto = false } = {}) {
    const lines = describe(events, names(), { auto });
    const wheelNews = [];
    for (const line of lines) {
      const top = logItems[0];
      if (line.tag === 'deployed' && top && top.tag === 'placed' && top.seat === line.seat) {
        // One line per turn: "Ann placed a tile and deployed a knight in a city".
        logItems[0] = { ...top, tag: 'turn', text: `${top.text} and ${line.rest}` };
        continue;
      }
      logItems.unshift(line);
      if (!quiet && line.kind === 'score' && line.wheel) {
        wheelNews.push(line.text);
      } else if (!quiet && line.kind === 'score' && line.seats && !line.text.startsWith('Final')) {
        // Scoring is news: also a toast for a moment.
        toast(line.text, 'success', 2600);
      }
    }
    // The wheel's points of one batch in one toast, once the pig has landed.
    if (wheelNews.length) {
      const steps = events.filter((e) => e.type === 'PigMoved').reduce((a, e) => a + e.steps, 0);
      setTimeout(() => { if (alive) toast(wheelNews.join(' · '), 'success', 3600); }, steps * 380);
    }
    logItems = logItems.slice(0, MAX_LOG);
    renderLog();
  }

  function renderLog() {
    clear(logList);
    const cols = colours();
    for (const line of logItems) {
      logList.appendChild(h('li', { class: `log-${line.kind}` },
        line.seat !== undefined && cols[line.seat] ? h('span.log-swatch', { html: swatch(cols[line.seat], 12) }) : h('span.log-swatch'),
        h('span', line.text)));
    }
  }

  function onMessage(msg) {
    if (!alive) return;
    switch (msg.t) {
      case 'snapshot':
        applySnapshot(msg.v, msg.d);
        break;
      case 'events':
        if (!match) return;
        applyEvents(msg.v, msg.d || {});
        break;
      case 'presence': {
        if (!match || !msg.d) return;
        for (const p of msg.d.seats || []) {
          const seat = match.seats.find((s) => s.seat === p.seat) || match.seats[p.seat];
          if (seat) seat.connected = p.connected;
        }
        if (msg.d.spectators !== undefined) match.spectators = msg.d.spectators;
        renderPlayers();
        break;
      }
      case 'error': {
        const e = msg.d || {};
        const mineFailed = ui.pending && (!e.id || e.id === ui.pending.id);
        if (mineFailed) clearPending();
        if (e.code === 'stale_version') {
          if (!socket || !socket.send({ t: 'sync', since: version })) resync();
          toast(api.friendly({ message: e.message, code: e.code }) || 'The game moved on.', 'info');
        } else {
          toast(e.message || e.code || 'The server refused that.', 'error');
        }
        render();
        break;
      }
      default:
        break;
    }
  }

  // ------------------------------------------------------------------ connection

  let bannerTimer = null;
  let wasDown = false;
  function onStatus(st) {
    clearInterval(bannerTimer);
    if (st.state === 'open') {
      if (wasDown) toast('Reconnected — you are up to date.', 'success', 2200);
      wasDown = false;
      banner.hidden = true;
      section.dataset.conn = 'open';
      return;
    }
    section.dataset.conn = st.state;
    if (st.state === 'connecting' && !wasDown) return;
    wasDown = true;
    banner.hidden = false;
    const retry = h('button.btn.small#retry-now', { onclick: () => socket.retryNow() }, 'Retry now');
    if (st.state === 'failed') {
      clear(banner).append(h('span', 'Cannot follow this match live: the server refused the connection.'),
        h('button.btn.small', { onclick: () => location.reload() }, 'Reload'));
      return;
    }
    const paint = () => {
      const left = st.at ? Math.max(0, Math.ceil((st.at - Date.now()) / 1000)) : 0;
      clear(banner).append(h('span.spinner.small'),
        h('span', st.state === 'connecting' ? 'Connection lost — reconnecting…'
          : `Connection lost — retrying in ${left} s (attempt ${st.attempt})`), retry);
    };
    paint();
    if (st.state === 'retrying') bannerTimer = setInterval(paint, 500);
  }

  function connect() {
    socket = new LiveSocket(() => api.wsUrl(`/ws/matches/${encodeURIComponent(matchId)}`,
      { token: session.token(), code, since: version >= 0 ? version : undefined }), { onMessage, onStatus });
    // Tests and the curious can reach the live socket (e.g. to cut it and watch it resume).
    window.carcassonne = Object.assign(window.carcassonne || {}, {
      socket, match: () => match, version: () => version,
    });
  }

  async function loadHistory() {
    const upTo = version;
    try {
      const data = await api.matchEvents(matchId, 0, code);
      if (!alive) return;
      const all = [];
      const batches = [];
      // Batches after ``upTo`` arrive (or arrived) on the socket and are logged from there.
      for (const b of data.batches || []) {
        if (b.v === undefined || b.v <= upTo) {
          all.push(...(b.events || []));
          batches.push(b);
        }
      }
      for (let i = all.length - 1; i >= 0; i -= 1) {
        if (all[i].type === 'TilePlaced') {
          lastPlaced = lastPlaced || { at: all[i].at, seat: all[i].seat };
          break;
        }
      }
      const live = logItems;
      logItems = [];
      // The setup's events (the first draw; the Wheel of Fortune pig's first move) come first.
      if (data.opening && data.opening.length) addLog(data.opening, { quiet: true, auto: false });
      for (const b of batches) { // one action's events each
        addLog(b.events || [], { quiet: true, auto: b.action_id == null && !(match.seats[b.seat] || {}).bot });
      }
      logItems = [...live, ...logItems].slice(0, MAX_LOG);
      renderLog();
      render();
    } catch { /* the log starts empty; the game itself is fine */ }
  }

  // ------------------------------------------------------------------ end screen

  function showEnd() {
    const s = state();
    const n = names();
    const cols = colours();
    const extra = new Set();
    (s.breakdown || []).forEach((b) => Object.keys(b || {}).forEach((k) => { if (!CATEGORIES.some(([c]) => c === k)) extra.add(k); }));
    const cats = [...CATEGORIES, ...[...extra].map((k) => [k, k[0].toUpperCase() + k.slice(1)])];
    const order = match.seats.map((_, i) => i).sort((a, b) => (s.scores[b] - s.scores[a]) || a - b);
    const winners = (s.winners || []).map((i) => n[i]);
    const cell = (b) => {
      const done = (b && b.completed) || 0;
      const fin = (b && b.final) || 0;
      return h('td', { class: done + fin ? '' : 'zero' }, h('b', String(done + fin)),
        done + fin ? h('small', `${done} + ${fin}`) : null);
    };
    const table = h('table.score-table#final-scores', {},
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'),
        cats.map(([k, label]) => h('th', { scope: 'col' }, h('span.long', label), h('span.short', SHORT[k] || label),
          h('small', 'completed + final'))),
        h('th', { scope: 'col' }, 'Total'))),
      h('tbody', {}, order.map((i) => h('tr', { class: (s.winners || []).includes(i) ? 'winner' : '', dataset: { seat: i } },
        h('th', { scope: 'row' }, h('span', { html: swatch(cols[i], 18) }), ` ${n[i]}`, (s.winners || []).includes(i) ? ' ★' : ''),
        cats.map(([k]) => cell((s.breakdown[i] || {})[k])),
        h('td.total', { dataset: { finalTotal: i } }, String(s.scores[i]))))));
    const close = () => { clear(endLayer); board.svg.focus(); };
    const dialog = h('div.end-screen#end-screen', { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'end-title' },
      h('div.end-card', {},
        h('div.end-head', {},
          h('div.trophy', { 'aria-hidden': 'true', html: TROPHY }),
          h('h2#end-title', winners.length > 1 ? `${joinNames(winners)} share the win!` : winners.length ? `${winners[0]} wins!` : 'Game over'),
          h('p.lead', s.wheel ? `The wheel and ${s.board.length - s.wheel.cells.length} tiles on the board · final scores by category`
            : `${s.board.length} tiles on the board · final scores by category`)),
        h('div.table-scroll', {}, table),
        h('p.help', '“Completed”: points for features finished during play. “Final”: the final scoring of unfinished features and farms.'),
        h('div.row.end-actions', {},
          you() !== null ? h('button.btn.primary#rematch', { onclick: rematch }, 'Rematch') : null,
          h('button.btn.secondary#download-record', { onclick: downloadRecord }, 'Download record'),
          h('button.btn.ghost#view-board', { onclick: close }, 'View the board'),
          h('a.btn.ghost', { href: '#/lobbies' }, 'Back to tables'))));
    dialog.addEventListener('keydown', (e) => { if (e.key === 'Escape') close(); });
    clear(endLayer).appendChild(dialog);
    setTimeout(() => { const b = dialog.querySelector('#rematch, #download-record'); if (b) b.focus(); }, 50);
  }

  async function rematch() {
    try {
      const res = await api.rematch(matchId);
      ctx.go(`#/lobby/${encodeURIComponent(res.code)}`);
    } catch (err) {
      toast(api.friendly(err), 'error');
    }
  }

  async function downloadRecord() {
    try {
      const record = await api.matchRecord(matchId, code);
      const blob = new Blob([JSON.stringify(record, null, 2)], { type: 'application/json' });
      const url = URL.createObjectURL(blob);
      const a = h('a', { href: url, download: `carcassonne-${matchId}.json` });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 4000);
    } catch (err) {
      toast(api.friendly(err), 'error');
    }
  }

  async function share() {
    const lobbyCode = match && match.lobby_code;
    const q = match && match.private && (code || lobbyCode) ? `?code=${encodeURIComponent(code || lobbyCode)}` : '';
    const link = `${location.origin}${location.pathname}#/match/${encodeURIComponent(matchId)}${q}`;
    const ok = await copyText(link);
    toast(ok ? 'Watch link copied — anyone with it can spectate.' : link, ok ? 'success' : 'info');
  }

  /** The tiles still to be drawn, by type (public information: counts only, never order). */
  function showRemaining() {
    const s = state();
    const close = () => { clear(endLayer); board.svg.focus(); };
    const entries = Object.entries(s.remaining || {}).filter(([, n]) => n > 0)
      .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
    const dialog = h('div.end-screen', { role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Tiles still to come',
      onkeydown: (e) => { if (e.key === 'Escape') close(); }, onclick: (e) => { if (e.target === dialog) close(); } },
    h('div.end-card', {},
      h('h2', `${s.tiles_remaining} tiles still to come`),
      entries.length ? h('div.remaining-grid#remaining', {}, entries.map(([id, n]) => h('figure.remaining-tile', { dataset: { tile: id } },
        tileSvg(id, 0, 56), h('figcaption', `×${n}`)))) : h('p', 'No tiles left.'),
      h('div.row.end-actions', {}, h('button.btn.primary#close-remaining', { onclick: close }, 'Close'))));
    clear(endLayer).appendChild(dialog);
    dialog.querySelector('#close-remaining').focus();
  }

  function showKeys() {
    const close = () => { clear(endLayer); board.svg.focus(); };
    const dialog = h('div.end-screen.keys', { role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Keyboard controls',
      onkeydown: (e) => { if (e.key === 'Escape') close(); } },
    h('div.end-card.small', {},
      h('h2', 'Keyboard controls'),
      h('dl.keys-list', {}, [
        ['Arrow keys', 'move between the glowing squares (or follower markers)'],
        ['R / Shift+R', 'rotate the tile clockwise / anticlockwise'],
        ['Enter', 'preview the tile on the square, then place it; place a follower'],
        ['N', 'no follower (end the turn)'],
        ['Esc', 'cancel the preview'],
        ['+ / − / C', 'zoom in, zoom out, centre the board'],
      ].map(([k, v]) => [h('dt', h('kbd', k)), h('dd', v)])),
      h('button.btn.primary#close-keys', { onclick: close }, 'Got it')));
    clear(endLayer).appendChild(dialog);
    dialog.querySelector('#close-keys').focus();
  }

  // ------------------------------------------------------------------ keyboard

  function moveCursor(dx, dy) {
    const cells = [...legalCells().keys()].map((k) => k.split(',').map(Number));
    if (!cells.length) return;
    let from = ui.cursor ? ui.cursor.split(',').map(Number) : null;
    if (!from) {
      const anchor = lastPlaced ? lastPlaced.at : [0, 0];
      cells.sort((a, b) => Math.hypot(a[0] - anchor[0], a[1] - anchor[1]) - Math.hypot(b[0] - anchor[0], b[1] - anchor[1]));
      ui.cursor = cellKey(...cells[0]);
    } else {
      let best = null;
      let bestScore = Infinity;
      for (const c of cells) {
        const along = (c[0] - from[0]) * dx + (c[1] - from[1]) * dy;
        const across = Math.abs((c[0] - from[0]) * dy) + Math.abs((c[1] - from[1]) * dx);
        if (along <= 0) continue;
        const score = along + 2 * across;
        if (score < bestScore) {
          bestScore = score;
          best = c;
        }
      }
      if (best) ui.cursor = cellKey(...best);
    }
    from = ui.cursor.split(',').map(Number);
    ui.hover = ui.selected ? ui.hover : ui.cursor;
    board.reveal(from[0], from[1]);
    renderInteraction();
  }

  function cycleSpot(dir) {
    const s = state();
    const spots = s.phase === 'plague' ? plagueItems().map((it) => it.id) : (s.legal_spots || []);
    if (!spots.length) return;
    const i = spots.indexOf(ui.spotFocus);
    ui.spotFocus = spots[(i + dir + spots.length) % spots.length];
    renderInteraction();
  }

  function onKey(e) {
    if (!alive) return;
    const tag = (e.target && e.target.tagName) || '';
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(tag)) return;
    if (endLayer.firstChild) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const s = state();
    if (!s) return;
    const key = e.key;
    const onButton = tag === 'BUTTON' || tag === 'A';
    if (key === '+' || key === '=') { board.zoomBy(1.25); e.preventDefault(); return; }
    if (key === '-' || key === '_') { board.zoomBy(0.8); e.preventDefault(); return; }
    if (key === 'c' || key === 'C') { board.centre(); return; }
    if (!myTurn() || ui.pending) return;
    if (s.phase === 'place_tile') {
      if (key === 'r' || key === 'R') { ui.keyboard = ui.keyboard || !!ui.cursor; rotate(e.shiftKey ? -1 : 1); e.preventDefault(); return; }
      const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      if (dirs[key]) {
        ui.keyboard = true;
        e.preventDefault();
        if (ui.selected) { ui.selected = null; renderTray(); }
        moveCursor(...dirs[key]);
        return;
      }
      if (key === 'Enter' && !onButton) {
        e.preventDefault();
        if (ui.selected) confirmPlacement();
        else if (ui.cursor) {
          const [x, y] = ui.cursor.split(',').map(Number);
          selectCell(x, y);
        } else {
          ui.keyboard = true;
          moveCursor(1, 0);
        }
        return;
      }
      if (key === 'Escape') { cancelSelection(); return; }
    } else if (s.phase === 'deploy' || s.phase === 'plague') {
      if (['ArrowLeft', 'ArrowUp'].includes(key)) { ui.keyboard = true; cycleSpot(-1); e.preventDefault(); return; }
      if (['ArrowRight', 'ArrowDown'].includes(key)) { ui.keyboard = true; cycleSpot(1); e.preventDefault(); return; }
      if (key === 'Enter' && !onButton) {
        e.preventDefault();
        if (ui.spotFocus) pickSpot(ui.spotFocus);
        else { ui.keyboard = true; cycleSpot(1); }
        return;
      }
      if ((key === 'n' || key === 'N') && s.phase === 'deploy') { pass(); }
    }
  }
  document.addEventListener('keydown', onKey);

  // The Plague countdown ticks in the tray (no re-render: just its text).
  const ticker = setInterval(() => {
    if (!ui.plagueDeadline) return;
    for (const node of tray.querySelectorAll('.plague-countdown')) {
      node.textContent = countdownText(!!myTurn());
    }
  }, 1000);

  // ------------------------------------------------------------------ start

  (async () => {
    try {
      const m = await api.getMatch(matchId, code);
      if (!alive) return;
      loadPresets().then((presets) => {
        presetName = matchingPreset(m.state.rules, presets);
        if (alive && match) renderPlayers();
      }).catch(() => {});
      applySnapshot(m.version, m);
      board.fit(false);
      connect();
      loadHistory();
    } catch (err) {
      if (!alive) return;
      clear(root).appendChild(errorPanel(err, () => ctx.go(location.hash)));
      document.body.classList.remove('in-match');
    }
  })();

  return () => {
    alive = false;
    clearInterval(ticker);
    clearPending();
    clearInterval(bannerTimer);
    document.removeEventListener('keydown', onKey);
    document.body.classList.remove('in-match');
    document.title = 'Carcassonne';
    if (socket) socket.close();
    if (board) board.destroy();
  };
}

