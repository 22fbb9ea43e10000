/**
 * The match screen's dialogs: the end screen (final scores by category, rematch, download the
 * record), the tiles still to come, the keyboard help, and the watch link.
 */

import * as api from '../api.js';
import { h, clear, toast, copyText } from '../dom.js';
import { tileSvg } from '../board/tiles.js';
import { swatch } from '../board/pieces.js';
import { t, has } from '../i18n.js';
import { active, first } from '../expansions/index.js';
import { showRatingChanges } from '../widgets/player/ratings.js';
import { verdictOf, verdictTitle } from './status/verdict.js';
import { seriesEnd } from './status/series.js';

/**
 * A category's column head in the current language (an expansion names its own: the wheel's
 * segments), and its short form for narrow screens.
 */
const catLabel = (model, k) => (has(`end.cat.${k}`) ? t(`end.cat.${k}`)
  : first(model, 'categoryLabel', k) ?? k[0].toUpperCase() + k.slice(1));
const catShort = (model, k) => (has(`end.short.${k}`) ? t(`end.short.${k}`) : catLabel(model, k));
const CATEGORIES = ['road', 'city', 'cloister', 'farm'];
const TROPHY = '<svg width="56" height="56" viewBox="0 0 64 64"><path d="M18 8h28v14c0 10-6 17-14 17S18 32 18 22z" fill="#f2c318" stroke="#8a6b00" stroke-width="2.5"/><path d="M18 13H8c0 9 4 14 11 15M46 13h10c0 9-4 14-11 15" fill="none" stroke="#8a6b00" stroke-width="3"/><path d="M28 39h8v8h-8z" fill="#d9a90f"/><path d="M20 56h24l-3-9H23z" fill="#6d5234"/><path d="M27 17l5-4 5 4-2 7h-6z" fill="#fff6c4" opacity=".8"/></svg>';

/**
 * The end screen: final scores by category (completed + final), the verdict (who won; a seat
 * that left is ranked last whatever its points, and says so: docs/RATINGS.md), what next.
 */
export function showEnd(m) {
  const s = m.model.state();
  const n = m.model.names();
  const cols = m.model.colours();
  // An expansion's ways to score always have their columns (the wheel's six).
  const known = [...CATEGORIES, ...active(m.model).flatMap((x) => x.endCategories || [])];
  const extra = new Set();
  (s.breakdown || []).forEach((b) => Object.keys(b || {}).forEach((k) => { if (!known.includes(k)) extra.add(k); }));
  const cats = [...known, ...extra];
  const verdict = verdictOf(m);
  const place = (i) => (verdict ? verdict.places[i] : 1);
  const order = m.model.match.seats.map((_, i) => i)
    .sort((a, b) => (place(a) - place(b)) || (s.scores[b] - s.scores[a]) || a - b);
  const won = (i) => !!verdict && verdict.winners.includes(i);
  const leftAt = (i) => (verdict ? verdict.left.find((l) => l.seat === i) : undefined);
  const leftNote = (i) => {
    const gone = leftAt(i);
    if (!gone) return null;
    return h('small.left-note', { dataset: { leftSeat: i } },
      gone.move ? t('end.leftAt', { n: gone.move }) : t('end.leftCounted'));
  };
  const cell = (b, k) => {
    const done = (b && b.completed) || 0;
    const fin = (b && b.final) || 0;
    return h('td', { class: done + fin ? '' : 'zero', dataset: { cat: k } }, h('b', String(done + fin)),
      done + fin ? h('small', `${done} + ${fin}`) : null);
  };
  const table = h('table.score-table#final-scores', { class: cats.length > 6 ? 'many' : '' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('end.player')),
      cats.map((k) => h('th', { scope: 'col', dataset: { cat: k } }, h('span.long', catLabel(m.model, k)), h('span.short', catShort(m.model, k)),
        h('small', t('end.parts')))),
      h('th', { scope: 'col' }, t('end.total')))),
    h('tbody', {}, order.map((i) => h('tr', { class: `${won(i) ? 'winner' : ''}${leftAt(i) ? ' left' : ''}`, dataset: { seat: i } },
      h('th', { scope: 'row', title: n[i] }, h('span', { html: swatch(cols[i], 18) }), ' ', h('span.name-cut.end-name', n[i]), won(i) ? ' ★' : '',
        leftNote(i)),
      cats.map((k) => cell((s.breakdown[i] || {})[k], k)),
      h('td.total', { dataset: { finalTotal: i } }, String(s.scores[i]))))));
  const close = () => { clear(m.dom.endLayer); m.board.svg.focus(); };
  const dialog = h('div.end-screen#end-screen', { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'end-title' },
    // Many categories (the Wheel of Fortune's ten): a wider card, so longer words (Hungersnot,
    // Inquisition) still fit beside each other on a desktop.
    h('div.end-card', { class: cats.length > 6 ? 'wide' : '' },
      h('div.end-head', {},
        h('div.trophy', { 'aria-hidden': 'true', html: TROPHY }),
        h('h2#end-title', { dataset: { judged: String(!!m.model.match.verdict) } }, verdictTitle(verdict, n)),
        h('p.lead', first(m.model, 'endLead', s) ?? t('end.lead', { n: s.board.length }))),
      h('div.table-scroll', {}, table),
      h('p.help', t('end.help')),
      h('div.row.end-actions', {},
        m.model.you() !== null ? h('button.btn.primary#rematch', { onclick: () => rematch(m) }, t('end.rematch')) : null,
        h('button.btn.secondary#download-record', { onclick: () => downloadRecord(m) }, t('end.download')),
        h('a.btn.secondary#open-replay', { href: `#/replay/${encodeURIComponent(m.matchId)}` }, t('end.replay')),
        h('button.btn.ghost#view-board', { onclick: close }, t('end.viewBoard')),
        h('a.btn.ghost', { href: '#/lobbies' }, t('end.backToTables')))));
  dialog.addEventListener('keydown', (e) => { if (e.key === 'Escape') close(); });
  clear(m.dom.endLayer).appendChild(dialog);
  // The server's verdict (it settles right after the last move): when it differs from what
  // is shown, the screen is drawn again with it.
  showRatingChanges(dialog.querySelector('.end-card'), m.matchId, n, m.code, (judged) => {
    const key = (v) => (v ? JSON.stringify([v.places, v.winners, v.left]) : '');
    if (m.model.adoptVerdict(judged)) m.hooks.render(); // the seats' winner tag and the status line say it too
    if (dialog.isConnected && key(verdict) !== key(judged)) showEnd(m);
    else if (dialog.isConnected) dialog.querySelector('#end-title').dataset.judged = 'true';
  });
  setTimeout(() => { const b = dialog.querySelector('#rematch, #download-record'); if (b) b.focus(); }, 50);
  seriesEnd(m, dialog.querySelector('.end-actions'), dialog.querySelector('#rematch'));
}

/** Ask for a rematch and go to its waiting room. */
export async function rematch(m) {
  try {
    const res = await api.rematch(m.matchId);
    m.go(`#/lobby/${encodeURIComponent(res.code)}`);
  } catch (err) {
    toast(api.friendly(err), 'error');
  }
}

/** Save the match record (JSON, see docs/record.md) as a file. */
export async function downloadRecord(m) {
  try {
    const record = await api.matchRecord(m.matchId, m.code);
    const blob = new Blob([JSON.stringify(record, null, 2)], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const a = h('a', { href: url, download: `carcassonne-${m.matchId}.json` });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 4000);
  } catch (err) {
    toast(api.friendly(err), 'error');
  }
}

/** Copy the watch link (with the lobby code for a private match). */
export async function share(m) {
  const lobbyCode = m.model.match && m.model.match.lobby_code;
  const q = m.model.match && m.model.match.private && (m.code || lobbyCode) ? `?code=${encodeURIComponent(m.code || lobbyCode)}` : '';
  const link = `${location.origin}${location.pathname}#/match/${encodeURIComponent(m.matchId)}${q}`;
  const ok = await copyText(link);
  toast(ok ? t('match.watchCopied') : link, ok ? 'success' : 'info');
}

/** The tiles still to be drawn, by type (public information: counts only, never order). */
export function showRemaining(m) {
  const s = m.model.state();
  const close = () => { clear(m.dom.endLayer); m.board.svg.focus(); };
  const entries = Object.entries(s.remaining || {}).filter(([, n]) => n > 0)
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
  const dialog = h('div.end-screen', { role: 'dialog', 'aria-modal': 'true', 'aria-label': t('match.remainingLabel'),
    onkeydown: (e) => { if (e.key === 'Escape') close(); }, onclick: (e) => { if (e.target === dialog) close(); } },
  h('div.end-card', {},
    h('h2', t('match.remainingTitle', { n: s.tiles_remaining })),
    entries.length ? h('div.remaining-grid#remaining', {}, entries.map(([id, n]) => h('figure.remaining-tile', { dataset: { tile: id } },
      tileSvg(id, 0, 56), h('figcaption', `×${n}`)))) : h('p', t('match.noTilesLeft')),
    h('div.row.end-actions', {}, h('button.btn.primary#close-remaining', { onclick: close }, t('match.close')))));
  clear(m.dom.endLayer).appendChild(dialog);
  dialog.querySelector('#close-remaining').focus();
}

/** The keyboard help. */
export function showKeys(m) {
  const close = () => { clear(m.dom.endLayer); m.board.svg.focus(); };
  const dialog = h('div.end-screen.keys', { role: 'dialog', 'aria-modal': 'true', 'aria-label': t('match.keysTitle'),
    onkeydown: (e) => { if (e.key === 'Escape') close(); } },
  h('div.end-card.small', {},
    h('h2', t('match.keysTitle')),
    h('dl.keys-list', {}, ['arrows', 'rotate', 'enter', 'n', 'esc', 'zoom', 'text']
      .map((k) => [h('dt', h('kbd', t(`match.key.${k}`))), h('dd', t(`match.key.${k}What`))])),
    h('button.btn.primary#close-keys', { onclick: close }, t('match.gotIt'))));
  clear(m.dom.endLayer).appendChild(dialog);
  dialog.querySelector('#close-keys').focus();
}
