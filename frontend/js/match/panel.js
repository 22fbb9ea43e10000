/**
 * The side panel: players (score, followers in supply, connection, whose turn), the score strip
 * for narrow screens, the match info (tiles left, spectators, the pig, the rules) and the log.
 */

import { verdictOf } from './verdict.js';
import { h, clear, toast } from '../dom.js';
import { COLOURS, colourOf, swatch, meepleIcon } from '../pieces.js';
import { describe, joinTurn, around, MARK } from '../words.js';
import { segmentLabel, segmentEffect } from '../wheel.js';
import { rulesSummary } from '../widgets/rules.js';
import { FOLLOWERS, MAX_LOG } from './state.js';
import { t } from '../i18n.js';

/** Players, the score strip and the match info, from the current state. */
export function renderPlayers(m) {
  const s = m.state();
  const n = m.names();
  clear(m.dom.playersBox);
  clear(m.dom.scoreStrip);
  const verdict = m.isOver() ? verdictOf(m) : null; // a seat that left is never the winner
  m.match.seats.forEach((seat, i) => {
    const active = !m.isOver() && s.seat === i;
    const winner = m.isOver() && !!verdict && verdict.winners.includes(i);
    const supply = (s.supply || [])[i] ?? 0;
    const online = seat.bot || seat.connected;
    const meeples = [];
    for (let k = 0; k < FOLLOWERS; k += 1) meeples.push(h('span', { html: meepleIcon(seat.colour, 13, k >= supply) }));
    m.dom.playersBox.appendChild(h('li.player', { class: `${active ? 'active' : ''} ${winner ? 'winner' : ''}`.trim(), dataset: { seat: i, colour: seat.colour } },
      h('span.player-swatch', { html: swatch(seat.colour, 26), title: COLOURS[seat.colour] ? COLOURS[seat.colour].label : '' }),
      h('div.player-main', {},
        h('div.player-name', {}, h('b.name-cut', { title: n[i] }, n[i]), m.you() === i ? h('span.tag.you', t('match.you')) : null,
          seat.bot ? h('span.tag.bot', t('match.computer')) : null, winner ? h('span.tag.win', t('match.winner')) : null),
        h('div.player-sub', {},
          h('span.conn', { class: online ? 'on' : 'off', title: t(online ? 'match.connected' : 'match.disconnected') }, h('i.dot'), online ? '' : t('match.offline')),
          h('span.supply', { title: t('match.inSupply', { n: supply }), 'aria-label': t('match.inSupply', { n: supply }) }, meeples),
          active ? h('span.turn-tag', t(['place_tile', 'deploy', 'plague'].includes(s.phase) ? `match.doing.${s.phase}` : 'match.doing.other')) : null)),
      h('span.player-score', { dataset: { score: i } }, String((s.scores || [])[i] ?? 0))));
    m.dom.scoreStrip.appendChild(h('span.strip-item', { class: active ? 'active' : '' },
      h('span', { html: swatch(seat.colour, 16) }), h('b', String((s.scores || [])[i] ?? 0))));
  });
  // (No wheel: no pig item; ``append`` would write "null".)
  clear(m.dom.infoBox).append(...[
    h('button.info-item.info-btn', { type: 'button', onclick: m.showRemaining, title: t('match.tilesLeftTitle') },
      h('span.info-num#tiles-left', String(s.tiles_remaining)), h('small', t('match.tilesLeft', { n: s.tiles_remaining }))),
    h('div.info-item', {}, h('span.info-num#spectators', String(m.match.spectators || 0)),
      h('small', t('match.watching', { n: m.match.spectators || 0 }))),
    s.wheel ? h('div.info-item.wheel-info#pig-info', { dataset: { segment: s.wheel.pig }, title: segmentEffect(s.wheel.pig) },
      h('span.pig-dot', { 'aria-hidden': 'true' }), h('small', {}, ...around(t('match.pigOn', { seg: MARK, effect: segmentEffect(s.wheel.pig) }),
        h('b', segmentLabel(s.wheel.pig))))) : null,
    h('div.info-item.rules', {}, h('small', rulesSummary(s.rules, m.presetName)))].filter(Boolean));
}

/**
 * Add the lines describing ``events`` to the log (``quiet``: no toasts; ``auto``: a timeout
 * chose; ``defer``: do not draw the log now, the screen's next drawing does).
 */
export function addLog(m, events, { quiet = false, auto = false, defer = false } = {}) {
  const lines = describe(events, m.names(), { auto });
  const wheelNews = [];
  for (const line of lines) {
    const top = m.logItems[0];
    if (auto && line.kind === 'move') line.computer = true; // marked in the log (match/clock.js)
    if (line.tag === 'deployed' && top && top.tag === 'placed' && top.seat === line.seat) {
      // One line per turn: "Ann placed a tile and deployed a knight in a city".
      m.logItems[0] = joinTurn(top, line);
      continue;
    }
    m.logItems.unshift(line);
    if (!quiet && line.kind === 'score' && line.wheel) {
      wheelNews.push(line.text);
    } else if (!quiet && line.kind === 'score' && line.seats && !line.final) {
      // Scoring is news: also a toast for a moment.
      toast(line.text, 'success', 2600);
    }
  }
  // The wheel's points of one batch in one toast, once the pig has landed.
  if (wheelNews.length) {
    const steps = events.filter((e) => e.type === 'PigMoved').reduce((a, e) => a + e.steps, 0);
    setTimeout(() => { if (m.alive) toast(wheelNews.join(' · '), 'success', 3600); }, steps * 380);
  }
  m.logItems = m.logItems.slice(0, MAX_LOG);
  m.logDirty = true;
  if (!defer) renderLog(m);
}

/**
 * The replay move a log line belongs to (``#/replay/ID?move=N``): the number of the placement
 * it follows — the line's own or the nearest older one's tile, found by its cell in the board,
 * which lists the start tiles, then every placed tile in order (``turn`` of them). Null when
 * unknown (a line from before the first placement, a tile no longer in the log).
 */
export function moveOfLine(m, index) {
  const s = m.state() || {};
  const board = s.board || [];
  if (typeof s.turn !== 'number') return null;
  const older = m.logItems.slice(index).find((l) => l.tag === 'placed' || l.tag === 'turn');
  if (!older || !older.cells || !older.cells.length) return null;
  const [x, y] = older.cells[0];
  const at = board.findIndex((b) => b.at[0] === x && b.at[1] === y);
  const n = at - (board.length - s.turn) + 1;
  return at >= 0 && n >= 1 ? n : null;
}

/** The replay link of move ``n`` of this match (with the invite code of a private match). */
export function replayHref(m, n) {
  const q = new URLSearchParams();
  q.set('move', String(n));
  if (m.code) q.set('code', m.code);
  return `#/replay/${encodeURIComponent(m.matchId)}?${q}`;
}

/** Draw the log, newest first. */
export function renderLog(m) {
  m.logDirty = false;
  clear(m.dom.logList);
  const cols = m.colours();
  for (const [index, line] of m.logItems.entries()) {
    const move = moveOfLine(m, index);
    const cells = line.cells && line.cells.length ? line.cells : null;
    // A line that happened somewhere on the board shows it there when clicked.
    const show = cells ? () => {
      m.board.highlight(cells, line.seat !== undefined && cols[line.seat] ? colourOf(cols[line.seat]).fill : '#ffe36e');
      m.dom.section.dataset.highlighted = cells.map((c) => c.join(',')).join(' ');
    } : null;
    m.dom.logList.appendChild(h('li', { class: `log-${line.kind}${cells ? ' log-link' : ''}${line.computer ? ' log-computer' : ''}`,
      ...(cells ? { tabindex: '0', role: 'button', title: t('match.showOnBoard'), onclick: show,
        onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); show(); } } } : {}) },
    line.seat !== undefined && cols[line.seat] ? h('span.log-swatch', { html: swatch(cols[line.seat], 12) }) : h('span.log-swatch'),
    h('span', line.text),
    line.computer ? h('span.tag.computer-move', { title: t('clock.computerMoveTitle') }, t('clock.computerMove')) : null,
    // Opens the replay at this move (clicking the line itself shows it on the board).
    move ? h('a.log-replay', { href: replayHref(m, move), title: t('match.replayAt', { n: move }),
      'aria-label': t('match.replayAt', { n: move }), dataset: { move }, onclick: (e) => e.stopPropagation() }, `↺ ${move}`) : null));
  }
}
