/**
 * The match screen's skeleton: header (title, status, score strip, actions), the board with its
 * zoom controls, connection banner and tray, the side panel (players, info, log) and the layer
 * the dialogs open in. Returns the nodes the other modules fill; buttons call hooks on ``m``.
 */

import { t, languageSelect } from '../i18n.js';
import { h } from '../dom.js';
import { soundToggle } from '../sound.js';
import { themeToggle } from '../theme.js';

const MENU = '<svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true"><path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/></svg>';
const GLOBE = '<svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true"><g fill="none" stroke="currentColor" stroke-width="1.6"><circle cx="10" cy="10" r="8"/><ellipse cx="10" cy="10" rx="3.4" ry="8"/><path d="M2.5 7.3h15M2.5 12.7h15"/></g></svg>';
const CENTRE = '<svg viewBox="0 0 20 20" width="18" height="18"><circle cx="10" cy="10" r="3.2" fill="currentColor"/><path d="M10 1v4M10 15v4M1 10h4M15 10h4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

// Set when the side panel's language switcher is used: the match re-renders in the new language
// (main.js re-routes) and its panel opens again where the person was.
let reopenPanel = false;

/** Build the screen for match ``m.matchId``; ``m.board`` is used by the zoom buttons once set. */
export function buildLayout(m) {
  const title = h('h1.match-title', t('match.title'));
  // The table's aid policy (match/aids.js), beside the title.
  const aidsTag = h('span.tag.aids#aids-tag', { title: t('aids.policy') });
  const statusLine = h('p.match-status#turn-status', { 'aria-live': 'polite' }, t('app.loading'));
  const seriesLine = h('p.match-series#series-line', { hidden: true });
  const banner = h('div.conn-banner#conn-banner', { role: 'status', 'aria-live': 'assertive', hidden: true });
  const boardHost = h('div.board-host');
  const tray = h('div.tray#tray', { 'aria-live': 'polite' });
  const playersBox = h('ol.players#players');
  const infoBox = h('div.match-info');
  const logList = h('ol.log#log', { 'aria-label': t('match.logLabel') });
  const endLayer = h('div.end-layer');
  // Moves, scores and whose turn it is, for screen readers (match/access/attention.js).
  const announcer = h('div.visually-hidden#announcer', { 'aria-live': 'polite', 'aria-atomic': 'true' });
  // The match in words, with its choices as lists (match/access/textBoard.js); hidden until turned on.
  const textBoard = h('section.text-board#text-board', { 'aria-labelledby': 'tb-title', hidden: true });
  const textBoardToggle = h('button.btn.small.ghost#text-board-toggle', { type: 'button', 'aria-pressed': 'false',
    'aria-controls': 'text-board', title: t('tb.toggleTitle'), onclick: m.hooks.toggleTextBoard }, t('tb.toggle'));
  const panelToggle = h('button.btn.small.ghost.panel-toggle', { 'aria-expanded': 'false', 'aria-controls': 'side-panel',
    onclick: () => {
      const open = !section.classList.contains('panel-open');
      section.classList.toggle('panel-open', open);
      panelToggle.setAttribute('aria-expanded', String(open));
    } }, h('span', { html: MENU }),
  h('span.visually-hidden', t('match.scoresAndLog')));
  const scoreStrip = h('div.score-strip', { 'aria-hidden': 'true' });
  // On a phone the header's switcher gives way to the score strip; the panel offers it instead.
  const panelLang = h('label.panel-lang', {},
    h('span.panel-lang-icon', { html: GLOBE }), h('span', t('lang.choose')),
    languageSelect({ className: 'panel-lang-select', id: 'panel-lang', onBefore: () => { reopenPanel = true; } }));
  // ...and so does the theme toggle, on the switcher's row (a row of its own stood where the
  // drawer's toasts show, below the switcher, and they covered it).
  const panelTheme = themeToggle({ id: 'panel-theme', className: 'btn small secondary match-theme-toggle panel-theme' });

  const zoom = h('div.board-controls', { role: 'group', 'aria-label': t('match.boardView') },
    h('button.icon-btn#zoom-in', { type: 'button', title: t('match.zoomInTitle'), 'aria-label': t('match.zoomIn'), onclick: () => m.board.zoomBy(1.25) }, '+'),
    h('button.icon-btn#zoom-out', { type: 'button', title: t('match.zoomOutTitle'), 'aria-label': t('match.zoomOut'), onclick: () => m.board.zoomBy(0.8) }, '−'),
    h('button.icon-btn#centre', { type: 'button', title: t('match.centreTitle'), 'aria-label': t('match.centre'), onclick: () => m.board.centre() },
      h('span', { html: CENTRE })));

  const section = h('section.match#match', { dataset: { match: m.matchId } },
    h('header.match-top', {},
      h('a.back', { href: '#/lobbies', title: t('match.back'), 'aria-label': t('match.back') }, '‹'),
      h('div.match-heading', {}, h('div.match-title-row', {}, title, aidsTag), seriesLine, statusLine),
      scoreStrip,
      h('div.match-actions', {},
        soundToggle('btn small ghost'),
        // The page's header (and its toggle) is hidden in a match; on a phone the panel has one.
        themeToggle({ id: 'match-theme', className: 'btn small ghost match-theme-toggle' }),
        languageSelect(), // the page's header is hidden in a match; on a phone the panel's switcher (panelLang) stands in
        h('button.btn.small.ghost#share-match', { type: 'button', onclick: m.hooks.share, title: t('match.shareTitle') }, t('match.share')),
        textBoardToggle,
        h('button.btn.small.ghost#keys-help', { type: 'button', onclick: m.hooks.showKeys, title: t('match.keysTitle') }, t('match.keys')),
        // Step back through what has happened so far (the replay viewer; never past now).
        h('a.btn.small.ghost#rewind-match', { href: `#/replay/${encodeURIComponent(m.matchId)}${m.code ? `?code=${encodeURIComponent(m.code)}` : ''}`,
          title: t('match.rewindTitle') }, t('match.rewind')),
        panelToggle)),
    h('div.match-body', {},
      h('div.board-wrap', {}, boardHost, zoom, banner, tray),
      h('aside.side-panel#side-panel', { 'aria-label': t('match.playersAndLog') },
        h('div.panel-prefs', {}, panelLang, panelTheme), textBoard, h('h2.visually-hidden', t('match.players')), playersBox, infoBox,
        h('h2.log-title', t('match.log')), logList,
        h('div.panel-links', {},
          h('button.btn.small.secondary', { type: 'button', onclick: m.hooks.share }, t('match.copyWatch')),
          h('button.btn.small.secondary', { type: 'button', onclick: m.hooks.showKeys }, t('match.keysTitle')),
          h('a.btn.small.ghost', { href: '#/lobbies' }, t('match.backToTables'))))),
    endLayer, announcer);
  if (reopenPanel) {
    reopenPanel = false;
    section.classList.add('panel-open');
    panelToggle.setAttribute('aria-expanded', 'true');
    const select = panelLang.querySelector('select');
    setTimeout(() => { if (select.isConnected) select.focus(); }, 0);
  }
  return { announcer, textBoard, textBoardToggle, section, title, aidsTag, statusLine, seriesLine, banner, boardHost, tray, playersBox, infoBox, logList, endLayer, scoreStrip, panelToggle };
}
