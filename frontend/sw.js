/**
 * The service worker: turn alerts that reach a closed tab (Web Push; server side in
 * app/services/push.py). A push carries ``{"type", "title", "body", "url", "match"?, "move"?}``
 * already worded in this device's language; it is shown as a notification (one per match: a
 * newer turn replaces the older one) and a click opens — or focuses — the match.
 * Served unversioned from the site's root (scope ``/``) with ``Cache-Control: no-cache``.
 */

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

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
