/**
 * Boot and hash routing. Routes (links work, reloads resume):
 *   #/              start (choose a name) or the lobby browser
 *   #/lobbies       lobby browser          #/create        create a table
 *   #/lobby/CODE    waiting room (joins)   #/match/ID[?code=LOBBYCODE]  match (play or watch)
 *   #/tiles         tile guide
 *   #/account       register, log in, password, delete   #/player/ID   profile and history
 *   #/replay/ID[?move=N&code=C]  replay viewer (a private match's addresses carry its code)   #/replay   open a record file
 *   #/leaderboard/PRESET  ratings
 *   #/tournaments  tournaments (list, create)   #/tournament/ID  one tournament, live
 * Screens are modules exporting ``mount(root, ctx) → cleanup``.
 */

import * as api from './api.js';
import * as session from './session.js';
import { setCatalogue } from './board/tiles.js';
import { h, clear, toast } from './dom.js';
import { t, languageSelect, onLangChange, ready as catalogueReady } from './i18n.js';
import { themeToggle } from './theme.js';
import { soundToggle } from './sound.js';
import { errorPanel } from './widgets/page/errorPanel.js';

const screens = {
  start: () => import('./screens/start.js'),
  lobbies: () => import('./screens/lobbies.js'),
  create: () => import('./screens/create.js'),
  room: () => import('./screens/room.js'),
  match: () => import('./screens/match.js'),
  tiles: () => import('./screens/guide.js'),
  account: () => import('./screens/account.js'),
  profile: () => import('./screens/profile.js'),
  replay: () => import('./screens/replay.js'),
  leaderboard: () => import('./screens/leaderboard.js'),
  tournaments: () => import('./screens/tournaments/list.js'),
  tournament: () => import('./screens/tournaments/page.js'),
};

let cleanup = null;
let routeSeq = 0;
let catalogueLoaded = null;

/** The catalogue, loaded once (tile art needs it). */
export function loadCatalogue() {
  if (!catalogueLoaded) {
    catalogueLoaded = api.catalogue().then((data) => {
      setCatalogue(data.tiles || data);
      return data;
    }).catch((err) => {
      catalogueLoaded = null;
      throw err;
    });
  }
  return catalogueLoaded;
}

export function parseHash(hash = location.hash) {
  const raw = hash.replace(/^#/, '');
  const [path, query = ''] = raw.split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { parts, query: new URLSearchParams(query), raw };
}

export function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function resolve({ parts }) {
  const [head, arg] = parts;
  if (!head) return { screen: session.token() ? 'lobbies' : 'start' };
  if (head === 'lobbies') return { screen: 'lobbies' };
  if (head === 'create') return { screen: 'create' };
  if (head === 'lobby' && arg) return { screen: 'room', code: arg };
  if (head === 'match' && arg) return { screen: 'match', id: arg };
  if (head === 'tiles') return { screen: 'tiles' };
  if (head === 'start') return { screen: 'start' };
  if (head === 'account') return { screen: 'account' };
  if (head === 'player' && arg) return { screen: 'profile', id: arg };
  if (head === 'replay') return { screen: 'replay', id: arg || null };
  if (head === 'leaderboard') return { screen: 'leaderboard', preset: arg || 'standard' };
  if (head === 'tournaments') return { screen: 'tournaments' };
  if (head === 'tournament' && arg) return { screen: 'tournament', id: arg };
  return { screen: 'lobbies' };
}

function renderHeader() {
  const header = document.getElementById('topbar');
  const who = session.player();
  clear(header);
  header.append(
    h('a.brand', { href: '#/lobbies', 'aria-label': t('nav.home') },
      h('span.brand-mark', { html: brandMark() }), h('span.brand-name', 'Carcassonne')),
    h('nav.topnav', {},
      h('a', { href: '#/lobbies' }, t('nav.tables')),
      h('a', { href: '#/tiles' }, t('nav.guide')),
      h('a', { href: '#/tournaments' }, t('nav.tournaments')),
      h('a', { href: '#/leaderboard/standard' }, t('nav.leaderboard')),
      h('a', { href: '#/replay' }, t('nav.replays')),
      who ? h('a#nav-account', { href: who.username ? `#/player/${encodeURIComponent(who.id)}` : '#/account' },
        who.username ? t('nav.history') : t('nav.account')) : h('a#nav-account', { href: '#/account' }, t('nav.login'))),
    h('div.top-tools', {}, soundToggle(), themeToggle(), languageSelect()),
    who ? h('a.me-chip', { href: '#/start', title: t('nav.changeName') },
      h('span.me-avatar', { 'aria-hidden': 'true' }, (who.name[0] || '?').toUpperCase()),
      h('span.me-name.name-cut', { title: who.name }, who.name))
      : h('a.me-chip', { href: '#/start' }, t('nav.signin')),
  );
}

function brandMark() {
  return '<svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">' +
    '<rect x="2" y="2" width="28" height="28" rx="5" fill="#8fbf5a" stroke="#5d7f34" stroke-width="1.5"/>' +
    '<path d="M2.6,3 H29.4 C22,15 10,15 2.6,3 Z" fill="#e9d3a2" stroke="#6d5234" stroke-width="1.5"/>' +
    '<path d="M16,30 V19" stroke="#8a7656" stroke-width="5"/><path d="M16,30 V19" stroke="#f3ead2" stroke-width="3"/>' +
    '</svg>';
}

export async function route() {
  const seq = ++routeSeq;
  const parsed = parseHash();
  const target = resolve(parsed);
  const needsIdentity = !['start', 'tiles', 'account', 'profile', 'replay', 'leaderboard'].includes(target.screen);
  // Spectating a match needs an identity too (the API wants a token); the start screen
  // brings the visitor back here afterwards.
  if (needsIdentity && !session.token()) {
    target.screen = 'start';
    target.next = parsed.raw && !parsed.raw.startsWith('/start') ? `#${parsed.raw}` : '#/lobbies';
  }
  if (cleanup) {
    try { cleanup(); } catch (e) { console.error(e); }
    cleanup = null;
  }
  document.body.dataset.screen = target.screen;
  renderHeader();
  const root = clear(document.getElementById('view'));
  root.appendChild(h('div.loading', { 'aria-busy': 'true' }, h('div.spinner'), t('app.loading')));
  let mod;
  try {
    [mod] = await Promise.all([screens[target.screen](), loadCatalogue()]);
  } catch (err) {
    if (seq !== routeSeq) return;
    clear(root).appendChild(errorPanel(err, () => route()));
    return;
  }
  if (seq !== routeSeq) return;
  clear(root);
  try {
    cleanup = mod.mount(root, { ...target, query: parsed.query, go, refreshHeader: renderHeader }) || null;
  } catch (err) {
    console.error(err);
    root.appendChild(errorPanel(err, () => route()));
  }
}

/** A 401 anywhere means the token is no longer valid: forget it and ask for a name. */
window.addEventListener('unhandledrejection', (ev) => {
  const err = ev.reason;
  if (err instanceof api.ApiError) {
    ev.preventDefault();
    if (err.code === 'unauthorized') {
      session.forget();
      toast(api.friendly(err), 'error');
      go(`#/start?next=${encodeURIComponent(location.hash || '#/lobbies')}`);
    } else {
      toast(api.friendly(err), 'error');
    }
  }
});

async function boot() {
  try {
    await catalogueReady; // the reader's words, before any screen is drawn
  } catch (err) {
    console.error(err); // offline: screens show their keys rather than nothing
  }
  window.addEventListener('hashchange', route);
  const skip = document.querySelector('.skip-link');
  if (skip) skip.textContent = t('app.skip');
  // A new language re-renders the current screen (screens read the catalogue as they build).
  onLangChange(() => {
    if (skip) skip.textContent = t('app.skip');
    route();
  });
  if (session.token()) {
    // Check the stored token once; a server that forgot us (new secret) means a new name.
    try {
      const who = await api.get('/api/accounts/me');
      const stored = session.player();
      if (!stored || stored.id !== who.id || stored.name !== who.name
          || (stored.username || null) !== who.username) session.save(session.token(), who);
    } catch (err) {
      if (err instanceof api.ApiError && (err.status === 401 || err.code === 'unauthorized')) {
        session.forget();
      }
    }
  }
  route();
  offlineNotice();
  // The installable app's offline files (frontend/sw.js); turn alerts use the same worker.
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/sw.js').catch((err) => console.warn('no service worker', err));
  }
}

/** While the device is offline, a banner says what still works (the saved replays). */
function offlineNotice() {
  const banner = h('p.offline-banner#offline-banner', { role: 'status', hidden: navigator.onLine },
    t('app.offline'), ' ', h('a', { href: '#/replay' }, t('app.offlineReplays')));
  document.body.prepend(banner);
  const update = () => { banner.hidden = navigator.onLine; };
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
}

boot();
