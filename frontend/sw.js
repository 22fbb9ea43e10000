/**
 * The service worker: the installable app's offline files, and turn alerts that reach a closed
 * tab. Served unversioned from the site's root (scope ``/``) with ``Cache-Control: no-cache``.
 *
 * Offline files (the cache :data:`CACHE`): on install, and again after every page load that
 * reached the network, the page (``/``) is read and every fingerprinted URL it names (its
 * stylesheets, and the ``?v=<hash>`` modules of its import map: app/api/static.py) is cached,
 * with the offline page, the manifest, the icons and the tile catalogue; fingerprinted URLs no
 * longer named are dropped. Then:
 * - a ``?v=`` URL is answered from the cache (it never changes), else fetched and kept;
 * - a page load goes to the network; without one, ``/`` is the cached page (the replay viewer
 *   opens the replays saved on this device) and any other address the offline page;
 * - the tile catalogue goes to the network, falling back on its cached copy;
 * - anything else (the API, websockets) is left to the network.
 *
 * Turn alerts (Web Push; server side in app/services/push.py): a push carries ``{"type",
 * "title", "body", "url", "match"?, "move"?}`` already worded in this device's language; it is
 * shown as a notification (one per match: a newer turn replaces the older one) and a click opens
 * — or focuses — the match.
 */

const CACHE = 'carcassonne-offline-1';
const OFFLINE = '/offline.html';
const ALWAYS = ['/', OFFLINE, '/manifest.json', '/icons/icon.svg', '/icons/icon-192.png',
  '/icons/icon-512.png', '/api/catalogue'];

/** The fingerprinted URLs a page names: its ``href``/``src`` and its import map's targets. */
function namedBy(html) {
  const urls = new Set();
  for (const m of html.matchAll(/(?:href|src)="(\/[^"]+\?v=[0-9a-f]+)"/g)) urls.add(m[1]);
  const map = html.match(/<script type="importmap">([^<]*)<\/script>/);
  if (map) {
    try {
      for (const url of Object.values(JSON.parse(map[1]).imports || {})) urls.add(url);
    } catch { /* a page without a readable map: its modules are cached as they are used */ }
  }
  return urls;
}

/** Cache the page and everything it names; drop fingerprinted URLs it no longer names. */
async function refresh(page) {
  const cache = await caches.open(CACHE);
  const html = await page.clone().text();
  await cache.put('/', page);
  const wanted = namedBy(html);
  const have = await cache.keys();
  for (const request of have) {
    const url = new URL(request.url);
    if (url.searchParams.has('v') && !wanted.has(url.pathname + url.search)) await cache.delete(request);
  }
  const cached = new Set(have.map((r) => { const u = new URL(r.url); return u.pathname + u.search; }));
  const missing = [...ALWAYS.filter((u) => u !== '/'), ...wanted].filter((u) => !cached.has(u));
  await Promise.all(missing.map((u) => cache.add(u).catch(() => undefined)));
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    try {
      const page = await fetch('/', { cache: 'no-cache' });
      if (page.ok) await refresh(page);
    } catch { /* offline while installing: the next page load fills the cache */ }
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) {
    if (name.startsWith('carcassonne-offline-') && name !== CACHE) await caches.delete(name);
  }
  await self.clients.claim();
})()));

async function fromCacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function pageLoad(event) {
  const url = new URL(event.request.url);
  try {
    const response = await fetch(event.request);
    if (url.pathname === '/' && response.ok) event.waitUntil(refresh(response.clone()));
    return response;
  } catch {
    const cache = await caches.open(CACHE);
    const shell = url.pathname === '/' || url.pathname === '/index.html' ? await cache.match('/') : null;
    return shell || (await cache.match(OFFLINE)) || Response.error();
  }
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch {
    return (await cache.match(request)) || Response.error();
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') event.respondWith(pageLoad(event));
  else if (url.searchParams.has('v')) event.respondWith(fromCacheFirst(request));
  else if (url.pathname === '/api/catalogue') event.respondWith(networkFirst(request));
});

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = data.title || 'Carcassonne';
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || '',
    tag: data.match ? `turn-${data.match}` : `carcassonne-${data.type || 'note'}`,
    renotify: true,
    data: { url: data.url || '/' },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/', self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
    if (open) {
      await open.focus();
      if (open.url !== url && 'navigate' in open) await open.navigate(url);
      return;
    }
    await self.clients.openWindow(url);
  })());
});
