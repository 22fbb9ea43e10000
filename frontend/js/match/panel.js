/**
 * The side panel: players (score, followers in supply, connection, whose turn), the score strip
 * for narrow screens, the match info (tiles left, spectators, the active expansions' items such
 * as the pig, the rules) and the log.
 */

import { verdictOf } from './status/verdict.js';
import { h, clear, toast } from '../dom.js';
import { COLOURS, colourOf, swatch, meepleIcon } from '../board/pieces.js';
import { describe, joinTurn } from '../words.js';
import { rulesSummary } from '../widgets/table/rules.js';
import { FOLLOWERS } from './model.js';
import { MAX_LOG } from './ui.js';
import { t } from '../i18n.js';
import { botTag } from '../widgets/player/botTag.js';
import { active, collect, withHook } from '../expansions/index.js';
import { projectedScore, remainingTable } from './aids.js';

/** Whether ``phase`` has its own ``match.doing.*`` words: the base game's and an expansion's. */
const doingKnown = (phase) => ['place_tile', 'deploy'].includes(phase) || withHook('phases').some((x) => x.phases[phase]);

/** Players, the score strip and the match info, from the current state. */
export function renderPlayers(m) {
  const s = m.model.state();
  const n = m.model.names();
  clear(m.dom.playersBox);
  clear(m.dom.scoreStrip);
  const verdict = m.model.isOver() ? verdictOf(m) : null; // a seat that left is never the winner
  m.model.match.seats.forEach((seat, i) => {
    const active = !m.model.isOver() && s.seat === i;
    const winner = m.model.isOver() && !!verdict && verdict.winners.includes(i);
    const supply = (s.supply || [])[i] ?? 0;
    const online = seat.bot || seat.connected;
    const meeples = [];
    for (let k = 0; k < FOLLOWERS; k += 1) meeples.push(h('span', { html: meepleIcon(seat.colour, 13, k >= supply) }));
    m.dom.playersBox.appendChild(h('li.player', { class: `${active ? 'active' : ''} ${winner ? 'winner' : ''}`.trim(), dataset: { seat: i, colour: seat.colour } },
      h('span.player-swatch', { html: swatch(seat.colour, 26), title: COLOURS[seat.colour] ? COLOURS[seat.colour].label : '' }),
      h('div.player-main', {},
        h('div.player-name', {}, h('b.name-cut', { title: n[i] }, n[i]), m.model.you() === i ? h('span.tag.you', t('match.you')) : null,
          seat.bot ? h('span.tag.bot', t('match.computer')) : null, botTag(seat), winner ? h('span.tag.win', t('match.winner')) : null),
        h('div.player-sub', {},
          h('span.conn', { class: online ? 'on' : 'off', title: t(online ? 'match.connected' : 'match.disconnected') }, h('i.dot'), online ? '' : t('match.offline')),
          h('span.supply', { role: 'img', title: t('match.inSupply', { n: supply }), 'aria-label': t('match.inSupply', { n: supply }) }, meeples),
          active ? h('span.turn-tag', t(doingKnown(s.phase) ? `match.doing.${s.phase}` : 'match.doing.other')) : null)),
      h('span.player-score', { dataset: { score: i } }, String((s.scores || [])[i] ?? 0),
        projectedScore(m, i) === null ? null : h('small.projected', { dataset: { projected: i }, title: t('aids.projectedTitle') },
          t('aids.projected', { n: projectedScore(m, i) })))));
    m.dom.scoreStrip.appendChild(h('span.strip-item', { class: active ? 'active' : '' },
      h('span', { html: swatch(seat.colour, 16) }), h('b', String((s.scores || [])[i] ?? 0)),
      projectedScore(m, i) === null ? null : h('small.projected', `→${projectedScore(m, i)}`)));
  });
  // The expansions' items (the pig) after the counts; ``append`` would write "null" for none.
  clear(m.dom.infoBox).append(...[
    h('button.info-item.info-btn', { type: 'button', onclick: m.hooks.showRemaining, title: t('match.tilesLeftTitle') },
      h('span.info-num#tiles-left', String(s.tiles_remaining)), h('small', t('match.tilesLeft', { n: s.tiles_remaining }))),
    h('div.info-item', {}, h('span.info-num#spectators', String(m.model.match.spectators || 0)),
      h('small', t('match.watching', { n: m.model.match.spectators || 0 }))),
    ...collect(m.model, 'infoItem', m, s),
    h('div.info-item.rules', {}, h('small', rulesSummary(s.rules, m.ui.presetName))),
    remainingTable(m, s)].filter(Boolean));
}

/**
 * Add the lines describing ``events`` to the log (``quiet``: no toasts; ``auto``: a timeout
 * chose; ``defer``: do not draw the log now, the screen's next drawing does).
 */
export function addLog(m, events, { quiet = false, auto = false, defer = false } = {}) {
  const lines = describe(events, m.model.names(), { auto });
  const exts = active(m.model);
  const news = new Map(); // expansion → the score lines it toasts together (the wheel's, once the pig has landed)
  for (const line of lines) {
    const top = m.ui.logItems[0];
    if (auto && line.kind === 'move') line.computer = true; // marked in the log (match/status/clock.js)
    if (line.tag === 'deployed' && top && top.tag === 'placed' && top.seat === line.seat) {
      // One line per turn: "Ann placed a tile and deployed a knight in a city".
      m.ui.logItems[0] = joinTurn(top, line);
      continue;
    }
    m.ui.logItems.unshift(line);
    const owner = line.kind === 'score' ? exts.find((x) => x.claimsScoreLine && x.claimsScoreLine(line)) : null;
    if (!quiet && owner) {
      news.set(owner, [...(news.get(owner) || []), line.text]);
    } else if (!quiet && line.kind === 'score' && line.seats && !line.final) {
      // Scoring is news: also a toast for a moment.
      toast(line.text, 'success', 2600);
    }
  }
  // An expansion's points of one batch in one toast, when it says (the wheel's: the pig has landed).
  for (const [owner, texts] of news) {
    const delay = owner.scoreToastDelay ? owner.scoreToastDelay(events) : 0;
    setTimeout(() => { if (m.alive) toast(texts.join(' · '), 'success', 3600); }, delay);
  }
  m.ui.logItems = m.ui.logItems.slice(0, MAX_LOG);
  m.ui.logDirty = true;
  if (!defer) renderLog(m);
}

/**
 * The replay move a log line belongs to (``#/replay/ID?move=N``): the number of the placement
 * it follows — the line's own or the nearest older one's tile, found by its cell in the board,
 * which lists the start tiles, then every placed tile in order (``turn`` of them). Null when
 * unknown (a line from before the first placement, a tile no longer in the log).
 */
export function moveOfLine(m, index) {
  const s = m.model.state() || {};
  const board = s.board || [];
  if (typeof s.turn !== 'number') return null;
  const older = m.ui.logItems.slice(index).find((l) => l.tag === 'placed' || l.tag === 'turn');
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
  m.ui.logDirty = false;
  clear(m.dom.logList);
  const cols = m.model.colours();
  for (const [index, line] of m.ui.logItems.entries()) {
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
