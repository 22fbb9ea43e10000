/**
 * Drawing the match on the board: the position after each update (``render`` also refreshes
 * the status line, the side panel and the tray), the interactive layer of a turn (legal cells,
 * the previewed tile, follower targets, Plague marks) and the scoring animations.
 */

import { verdictOf } from './verdict.js';
import { cellKey } from '../board.js';
import { scoringDetail, joinNames } from '../words.js';
import { segmentLabel } from '../wheel.js';
import { t, has } from '../i18n.js';
import { tableName } from '../tableName.js';

const WHEEL_CATEGORIES = ['fortune', 'tax', 'famine', 'storm', 'inquisition', 'crown'];

/** Draw everything from the current match (a new turn resets the half-made choices). */
export function render(m) {
  if (!m.alive || !m.match) return;
  const s = m.state();
  m.dom.title.textContent = tableName(m.match, t('match.title'));
  m.dom.title.title = tableName(m.match, '');
  m.dom.section.dataset.version = String(m.version);
  m.dom.section.dataset.phase = m.isOver() ? 'game_over' : s.phase;
  m.dom.section.dataset.myTurn = m.myTurn() ? 'true' : 'false';
  m.dom.section.dataset.role = m.you() === null ? 'spectator' : 'player';
  m.board.svg.dataset.version = String(m.version);
  // A new turn or phase resets the half-made choices.
  const turnKey = `${s.turn}:${s.phase}:${s.seat}`;
  if (turnKey !== m.ui.turnKey) {
    m.ui.turnKey = turnKey;
    m.ui.selected = null;
    m.ui.hover = null;
    m.ui.spotFocus = null;
    if (s.phase === 'place_tile') m.ui.rotation = 0; // a new tile starts as drawn
    // A Plague decision falls to a computer after the server's timeout: count it down.
    m.ui.plagueDeadline = s.phase === 'plague' && m.match.plague_timeout && !(m.match.seats[s.seat] || {}).bot
      ? Date.now() + m.match.plague_timeout * 1000 : null;
    if (m.ui.cursor && !m.legalCells().has(m.ui.cursor)) m.ui.cursor = null;
  }
  m.board.setTiles(s.board);
  const lp = m.lastPlaced || (s.placed ? { at: s.placed, seat: s.seat } : null);
  // Every player's last tile is outlined in their colour; the very last one boldest.
  const others = Object.entries(m.lastBySeat).filter(([seat]) => !lp || Number(seat) !== lp.seat)
    .map(([seat, at]) => ({ at, colour: m.colours()[seat] }));
  m.board.setLastMoves([...others, ...(lp ? [{ at: lp.at, colour: m.colours()[lp.seat], latest: true }] : [])]);
  m.board.setFollowers(s.followers || [], m.colours());
  m.board.setWheel(s.wheel || null, m.colours(), { steps: m.ui.pigSteps });
  m.ui.pigSteps = null;
  renderInteraction(m);
  renderStatus(m);
  m.watchTurn();
  m.renderPlayers();
  m.renderTray();
  if (m.isOver() && !m.endShown) {
    m.endShown = true;
    setTimeout(() => { if (m.alive) m.showEnd(); }, m.ui.justEnded ? 1400 : 0);
  }
}

/** The interactive layer: legal cells, the previewed tile, follower or Plague targets. */
export function renderInteraction(m) {
  const s = m.state();
  const cells = m.legalCells();
  m.board.setLegal(cells);
  m.board.clearPreview();
  m.board.setTargets(null);
  if (m.myTurn() && s.phase === 'place_tile' && s.tile) {
    const key = m.ui.selected || m.ui.hover;
    if (key && cells.has(key)) {
      const [x, y] = key.split(',').map(Number);
      m.board.showPreview(x, y, s.tile, m.ui.rotation, { fits: m.fits(key, m.ui.rotation), selected: key === m.ui.selected });
    }
    m.board.setCursor(...(m.ui.keyboard && m.ui.cursor ? m.ui.cursor.split(',').map(Number) : [null]));
  } else {
    m.board.setCursor(null);
  }
  if (m.myTurn() && s.phase === 'deploy' && s.placed && !m.ui.pending) {
    const spots = s.legal_spots || [];
    const placedKey = cellKey(s.placed[0], s.placed[1]);
    if (spots.length && m.ui.focused !== `${s.turn}:${placedKey}`) {
      // Zoom in on the tile just placed so its follower spots are easy to hit, with the wheel
      // too when a crown space is free: large if both fit, else smaller (every spot is also a
      // button in the tray) so the crown spaces stay in view; only a tile far from the wheel
      // gets the view to itself (its crown spaces are then the tray's buttons).
      m.ui.focused = `${s.turn}:${placedKey}`;
      const crowns = spots.some((sp) => sp.startsWith('crown:'));
      const onTile = spots.some((sp) => !sp.startsWith('crown:'));
      const box = s.wheel ? [s.placed, ...s.wheel.cells] : [];
      const both = crowns && s.wheel && (m.board.focusBox(box, onTile ? 105 : 40)
        || m.board.focusBox(box, 56));
      if (!both && onTile) m.board.focusCell(s.placed[0], s.placed[1]);
    }
    m.board.setTargets(s.placed, spots, m.colours()[m.you()], m.ui.keyboard ? m.ui.spotFocus : null);
  }
  if (m.myTurn() && s.phase === 'plague' && s.plague && !m.ui.pending) {
    const focusKey = `${s.turn}:plague:${(s.plague.waiting || []).join(',')}`;
    if (m.ui.focused !== focusKey) {
      // Frame the followers to choose from (with the wheel), large enough to tap.
      m.ui.focused = focusKey;
      const cells = m.plagueItems().map((it) => it.at);
      if (!m.board.focusBox([...cells, ...((s.wheel && s.wheel.cells) || [])], 90)) m.board.fit(true);
    }
    m.board.setTargetList(m.plagueItems(), m.colours()[m.you()], m.ui.keyboard ? m.ui.spotFocus : null);
  }
  // Everyone else sees which followers the Plague decision is about.
  m.board.setMarks(!m.isOver() && s.phase === 'plague' && s.plague && !m.myTurn() ? m.plagueItems() : null,
    s.plague ? m.colours()[s.plague.seat] : null);
}

/** The status line under the title and the page title. */
export function renderStatus(m) {
  const s = m.state();
  const n = m.names();
  let text;
  if (m.isOver()) {
    const verdict = verdictOf(m); // the server's verdict: a seat that left never wins
    const w = verdict ? verdict.winners.map((i) => n[i]) : [];
    text = w.length > 1 ? t('match.status.shared', { names: joinNames(w) }) : w.length ? t('match.status.won', { name: w[0] })
      : t('match.status.over');
  } else if (s.phase === 'paused') {
    text = t('match.status.paused');
  } else {
    const tiles = t('match.status.tilesLeft', { n: s.tiles_remaining });
    const who = m.myTurn() ? t('match.status.yourTurn') : t('match.status.theirTurn', { name: n[s.seat] });
    const what = s.phase === 'place_tile' ? t('match.status.place') : s.phase === 'deploy' ? t('match.status.deploy') : s.phase;
    text = s.phase === 'plague'
      ? (m.myTurn() ? t('match.status.plagueMine', { tiles }) : t('match.status.plagueWait', { name: n[s.seat], tiles }))
      : t('match.status.line', { who, what, tiles });
  }
  m.dom.statusLine.textContent = text;
  document.title = `${m.myTurn() ? '● ' : ''}${tableName(m.match, t('match.title'))} · Carcassonne`;
}

/** Highlight completed features and float the points scored by ``events`` over the board. */
export function celebrate(m, events) {
  const cols = m.colours();
  for (const e of events) {
    if (e.type === 'FeatureCompleted') m.board.highlight(e.tiles, 'rgba(255, 226, 92, 0.55)');
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
      if (!m.alive) return;
      let what;
      if (e.category === 'crown') what = segment ? t('log.crownOn', { seg: segmentLabel(segment) }) : t('log.crown');
      else if (wheelish) what = segmentLabel(e.category);
      else what = has(`match.cat.${e.category}`) ? t(`match.cat.${e.category}`) : e.category;
      const caption = `${m.names()[e.seat]} · ${what}${detail ? ` · ${detail}` : ''}`;
      const at = onWheel ? m.board.segmentPoint(segment) : null;
      if (at) m.board.floatAt(at[0] + (slot % 2 ? 1 : -1) * Math.ceil(slot / 2) * 105, at[1] + Math.ceil(slot / 2) * 12, `+${e.points}`, caption, cols[e.seat]);
      else m.board.floatText(e.tiles, `+${e.points}`, caption, cols[e.seat]);
    }, (wheelish ? pigLands : 0) + i * 300);
  });
}
