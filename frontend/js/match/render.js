/**
 * Drawing the match on the board: the position after each update (``render`` also refreshes
 * the status line, the side panel and the tray), the interactive layer of a turn (legal cells,
 * the previewed tile, follower targets, an expansion phase's targets) and the scoring
 * animations. What an expansion adds (the wheel, the Plague) its module draws (``../expansions/``).
 */

import { verdictOf } from './status/verdict.js';
import { cellKey } from '../board/board.js';
import { scoringDetail, joinNames } from '../words.js';
import { t, has } from '../i18n.js';
import { tableName } from '../tableName.js';
import { playableCells, fits } from './ui.js';
import { collect, first, phaseOf, spotOwner } from '../expansions/index.js';
import { askAids, drawAids, policyLabel } from './aids.js';

/** Draw everything from the current match (a new turn resets the half-made choices). */
export function render(m) {
  if (!m.alive || !m.model.match) return;
  const s = m.model.state();
  m.dom.title.textContent = tableName(m.model.match, t('match.title'));
  m.dom.title.title = tableName(m.model.match, '');
  m.dom.aidsTag.textContent = policyLabel(m.model.match.aids);
  m.dom.aidsTag.dataset.mode = (m.model.match.aids || {}).mode || 'off';
  m.dom.section.dataset.version = String(m.model.version);
  m.dom.section.dataset.phase = m.model.isOver() ? 'game_over' : s.phase;
  m.dom.section.dataset.myTurn = m.model.myTurn() ? 'true' : 'false';
  m.dom.section.dataset.role = m.model.you() === null ? 'spectator' : 'player';
  m.board.svg.dataset.version = String(m.model.version);
  // A new turn or phase resets the half-made choices.
  const turnKey = `${s.turn}:${s.phase}:${s.seat}`;
  if (turnKey !== m.ui.turnKey) {
    m.ui.turnKey = turnKey;
    m.ui.selected = null;
    m.ui.hover = null;
    m.ui.spotFocus = null;
    if (s.phase === 'place_tile') m.ui.rotation = 0; // a new tile starts as drawn
    collect(m.model, 'onTurn', m, s);
    if (m.ui.cursor && !playableCells(m).has(m.ui.cursor)) m.ui.cursor = null;
  }
  m.board.setTiles(s.board);
  const lp = m.model.lastPlaced || (s.placed ? { at: s.placed, seat: s.seat } : null);
  // Every player's last tile is outlined in their colour; the very last one boldest.
  const others = Object.entries(m.model.lastBySeat).filter(([seat]) => !lp || Number(seat) !== lp.seat)
    .map(([seat, at]) => ({ at, colour: m.model.colours()[seat] }));
  m.board.setLastMoves([...others, ...(lp ? [{ at: lp.at, colour: m.model.colours()[lp.seat], latest: true }] : [])]);
  m.board.setFollowers(s.followers || [], m.model.colours());
  collect(m.model, 'drawBoard', m, s);
  renderInteraction(m);
  drawAids(m);
  askAids(m);
  renderStatus(m);
  m.hooks.watchTurn();
  m.hooks.renderPlayers();
  m.hooks.renderTray();
  if (m.model.isOver() && !m.ui.endShown) {
    m.ui.endShown = true;
    setTimeout(() => { if (m.alive) m.hooks.showEnd(); }, m.model.endedLive ? 1400 : 0);
  }
}

/** The interactive layer: legal cells, the previewed tile, follower or Plague targets. */
export function renderInteraction(m) {
  const s = m.model.state();
  const cells = playableCells(m);
  m.board.setLegal(cells);
  m.board.clearPreview();
  m.board.setTargets(null);
  if (m.model.myTurn() && s.phase === 'place_tile' && s.tile) {
    const key = m.ui.selected || m.ui.hover;
    if (key && cells.has(key)) {
      const [x, y] = key.split(',').map(Number);
      m.board.showPreview(x, y, s.tile, m.ui.rotation, { fits: fits(m, key, m.ui.rotation), selected: key === m.ui.selected });
    }
    m.board.setCursor(...(m.ui.keyboard && m.ui.cursor ? m.ui.cursor.split(',').map(Number) : [null]));
  } else {
    m.board.setCursor(null);
  }
  if (m.model.myTurn() && s.phase === 'deploy' && s.placed && !m.ui.pending) {
    const spots = s.legal_spots || [];
    const placedKey = cellKey(s.placed[0], s.placed[1]);
    if (spots.length && m.ui.focused !== `${s.turn}:${placedKey}`) {
      // Zoom in on the tile just placed so its follower spots are easy to hit, with an
      // expansion's spots off the tile (the wheel's crown spaces) too when one is free: large if
      // both fit, else smaller (every spot is also a button in the tray) so those stay in view;
      // only a tile far from them gets the view to itself (they are then the tray's buttons).
      m.ui.focused = `${s.turn}:${placedKey}`;
      const offTile = spots.some((sp) => spotOwner(m.model, sp));
      const onTile = spots.some((sp) => !spotOwner(m.model, sp));
      const extra = collect(m.model, 'focusCells', s).flat();
      const box = extra.length ? [s.placed, ...extra] : [];
      const both = offTile && extra.length && (m.board.focusBox(box, onTile ? 105 : 40)
        || m.board.focusBox(box, 56));
      if (!both && onTile) m.board.focusCell(s.placed[0], s.placed[1]);
    }
    m.board.setTargets(s.placed, spots, m.model.colours()[m.model.you()], m.ui.keyboard ? m.ui.spotFocus : null);
  }
  // An expansion's phase (the Plague) draws its own targets, and marks for everyone else.
  const phase = phaseOf(m.model, s.phase);
  if (!(phase && phase.interaction && phase.interaction(m))) m.board.setMarks(null, null);
}

/** The status line under the title and the page title. */
export function renderStatus(m) {
  const s = m.model.state();
  const n = m.model.names();
  let text;
  if (m.model.isOver()) {
    const verdict = verdictOf(m); // the server's verdict: a seat that left never wins
    const w = verdict ? verdict.winners.map((i) => n[i]) : [];
    text = w.length > 1 ? t('match.status.shared', { names: joinNames(w) }) : w.length ? t('match.status.won', { name: w[0] })
      : t('match.status.over');
  } else if (s.phase === 'paused') {
    text = t('match.status.paused');
  } else {
    const tiles = t('match.status.tilesLeft', { n: s.tiles_remaining });
    const who = m.model.myTurn() ? t('match.status.yourTurn') : t('match.status.theirTurn', { name: n[s.seat] });
    const what = s.phase === 'place_tile' ? t('match.status.place') : s.phase === 'deploy' ? t('match.status.deploy') : s.phase;
    const phase = phaseOf(m.model, s.phase);
    text = phase && phase.status ? phase.status(m) : t('match.status.line', { who, what, tiles });
  }
  m.dom.statusLine.textContent = text;
  document.title = `${m.model.myTurn() ? '● ' : ''}${tableName(m.model.match, t('match.title'))} · Carcassonne`;
}

/**
 * Highlight completed features and float the points scored by ``events`` over the board (an
 * expansion's own scores where and when it says: the wheel's from their segment, once the pig
 * has landed).
 */
export function celebrate(m, events) {
  const cols = m.model.colours();
  for (const e of events) {
    if (e.type === 'FeatureCompleted') m.board.highlight(e.tiles, 'rgba(255, 226, 92, 0.55)');
  }
  const scored = events.filter((e) => e.type === 'PointsScored' && !e.final);
  const atAnchor = {}; // anchor → how many floaters already rise there (side by side)
  scored.forEach((e, i) => {
    const own = first(m.model, 'scoreFloat', m, events, e);
    const detail = own ? '' : scoringDetail(e);
    const slot = own && own.point ? (atAnchor[own.anchor] = (atAnchor[own.anchor] ?? -1) + 1) : 0;
    setTimeout(() => {
      if (!m.alive) return;
      const what = own ? own.what : has(`match.cat.${e.category}`) ? t(`match.cat.${e.category}`) : e.category;
      const caption = `${m.model.names()[e.seat]} · ${what}${detail ? ` · ${detail}` : ''}`;
      const at = own && own.point ? own.point() : null;
      if (at) m.board.floatAt(at[0] + (slot % 2 ? 1 : -1) * Math.ceil(slot / 2) * 105, at[1] + Math.ceil(slot / 2) * 12, `+${e.points}`, caption, cols[e.seat]);
      else m.board.floatText(e.tiles, `+${e.points}`, caption, cols[e.seat]);
    }, (own ? own.delay : 0) + i * 300);
  });
}
