/**
 * Turn alerts on this device (Web Push; docs/API.md § Turn alerts): a panel that says whether
 * this browser alerts its player when it is their turn in a correspondence or per-turn match —
 * even with every tab closed — and turns that on or off, with a test alert.
 *
 * On: register the service worker (``/sw.js``), ask the browser's notification permission, get
 * the server's VAPID key (``GET /api/push/key``), subscribe with the browser's push service and
 * hand the subscription (and the reader's language) to the server. Off: unsubscribe both.
 * "On" is checked against the server's list (a logout there ends this device's alerts).
 */

import * as api from '../../api.js';
import { h, toast } from '../../dom.js';
import { t, lang } from '../../i18n.js';

export function supported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function keyBytes(b64url) {
  const raw = atob(b64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64url.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function endpointId(endpoint) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function registration() {
  return navigator.serviceWorker.register('/sw.js');
}

/** ``'unsupported' | 'blocked' | 'on' | 'off'`` for this browser and the signed-in player. */
export async function state() {
  if (!supported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = reg && await reg.pushManager.getSubscription();
  if (!sub) return 'off';
  const [mine, known] = await Promise.all([endpointId(sub.endpoint), api.get('/api/push/subscriptions')]);
  return known.devices.some((d) => d.id === mine) ? 'on' : 'off';
}

/** Turn alerts on; resolves to the new state (``'blocked'`` when permission was refused). */
export async function enable() {
  const reg = await registration();
  if (await Notification.requestPermission() !== 'granted') return 'blocked';
  const { public_key: key } = await api.get('/api/push/key', { auth: false });
  let sub = await reg.pushManager.getSubscription();
  if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  await api.post('/api/push/subscriptions', { ...sub.toJSON(), lang: lang() });
  return 'on';
}

/** Turn alerts off on this device. */
export async function disable() {
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = reg && await reg.pushManager.getSubscription();
  if (!sub) return 'off';
  try {
    await api.post('/api/push/subscriptions/delete', { endpoint: sub.endpoint });
  } catch (err) {
    if (err.status !== 404) throw err;
  }
  await sub.unsubscribe();
  return 'off';
}

/** The panel: a sentence of the state, the on/off button and (when on) "send a test alert". */
export function turnAlertsPanel() {
  const line = h('p.help#turn-alerts-state', t('app.loading'));
  const toggle = h('button.btn.secondary#turn-alerts-toggle', { type: 'button', disabled: true });
  const test = h('button.btn.ghost#turn-alerts-test', { type: 'button', hidden: true }, t('alerts.test'));
  const show = (now) => {
    line.textContent = t(`alerts.${now}`);
    toggle.dataset.state = now;
    toggle.textContent = now === 'on' ? t('alerts.turnOff') : t('alerts.turnOn');
    toggle.disabled = now === 'unsupported' || now === 'blocked';
    test.hidden = now !== 'on';
  };
  toggle.addEventListener('click', async () => {
    toggle.disabled = true;
    try {
      show(toggle.dataset.state === 'on' ? await disable() : await enable());
    } catch (err) {
      toast(err.code ? api.friendly(err) : t('alerts.failed'), 'error');
      show(await state().catch(() => 'off'));
    }
  });
  test.addEventListener('click', async () => {
    try {
      const sent = await api.post('/api/push/test');
      toast(t('alerts.testSent', { n: sent.delivered }), sent.delivered ? 'success' : 'error');
    } catch (err) {
      // 502 push_failed (no push service took it), 429 (too many tests): the server's reason.
      toast(err.code ? api.friendly(err) : t('alerts.failed'), 'error');
      if (err.code === 'push_failed') show(await state().catch(() => 'off'));
    }
  });
  state().then(show, () => show('off'));
  return h('div.panel#turn-alerts', {}, h('h2', t('alerts.title')), line, h('div.row', {}, toggle, test));
}
