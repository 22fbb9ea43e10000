/**
 * Small DOM helpers shared by the screens: element building, toasts, clipboard, focus.
 * No framework: screens build their DOM with ``h()`` and update it by hand.
 */

import { t } from './i18n.js';

/**
 * ``h('button.primary#go', {onclick, disabled}, 'Go')`` — tag with optional .classes and #id;
 * attributes (``on*`` become listeners, ``dataset`` an object, ``class`` extra classes);
 * children are nodes, strings, numbers, arrays, or null/false (skipped).
 */
export function h(spec, attrs = {}, ...children) {
  if (attrs === null || typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs)) {
    children.unshift(attrs);
    attrs = {};
  }
  const m = spec.match(/^([a-z0-9-]+)?((?:[.#][\w-]+)*)$/i);
  const node = document.createElement((m && m[1]) || 'div');
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === '.') node.classList.add(part.slice(1));
      else node.id = part.slice(1);
    }
  }
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k === 'class') for (const c of String(v).split(/\s+/).filter(Boolean)) node.classList.add(c);
    else if (k === 'style' && typeof v === 'object') Object.assign(node.style, v);
    else if (k === 'html') node.innerHTML = v;
    else if (v === true) node.setAttribute(k, '');
    else if (k === 'value') node.value = v;
    else node.setAttribute(k, v);
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** A node from an SVG/HTML string. */
export function fromHtml(html) {
  const t = document.createElement('template');
  t.innerHTML = html.trim();
  return t.content.firstChild;
}

let toastBox = null;
let toastHost = null;

/** How long a toast shows (ms) unless the caller says; errors stay longer. */
const TOAST_MS = { info: 4000, success: 4000, error: 7000 };
/** At most this many at once (two on a phone): a burst of news pushes the oldest out. */
const MAX_TOASTS = 3;
const PHONE = '(max-width: 760px)';
/**
 * Where on the page the column may stand, in order of preference: a desktop's bottom-right and
 * bottom-left corners or its top-right below the header; a phone's bottom edge or its top below
 * the header (the CSS places each ``data-side``). The first that covers no control wins.
 */
const SIDES = { desktop: ['bottom-end', 'bottom-start', 'top-end'], phone: ['bottom-end', 'top-end'] };
const CONTROLS = 'a[href], button, input, select, textarea, [role=button], [tabindex="0"]';
let watcher = null;

/**
 * Show toasts inside ``node`` from now on (a screen's own area: the match shows them at the foot
 * of its board, above the tray and clear of the header and the zoom buttons) instead of on the
 * page; returns the function that gives them back to the page.
 */
export function toastArea(node) {
  toastHost = node;
  placeToasts();
  return () => {
    if (toastHost !== node) return;
    toastHost = null;
    placeToasts();
  };
}

function placeToasts() {
  if (!toastBox) return;
  const host = toastHost && toastHost.isConnected ? toastHost : document.body;
  if (toastBox.parentNode !== host) host.appendChild(toastBox);
  toastBox.classList.toggle('in-area', host !== document.body);
  if (host === document.body) chooseSide();
  watchPage();
}

/** How many controls in view the column covers where it stands now. */
function covered() {
  const box = toastBox.getBoundingClientRect();
  if (!box.height) return 0;
  let n = 0;
  for (const e of document.querySelectorAll(CONTROLS)) {
    if (toastBox.contains(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width && r.height && r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom) n += 1;
  }
  return n;
}

/**
 * Stand the column where it covers no control (or the fewest): the page scrolls, so no corner is
 * free on every screen — a phone's profile has its buttons at the top, its waiting room its chat
 * at the bottom. The current side stays unless another covers fewer.
 */
function chooseSide() {
  const bar = document.getElementById('topbar');
  const below = bar && bar.offsetParent !== null ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  toastBox.style.setProperty('--below-header', `${Math.round(below)}px`);
  const sides = SIDES[window.matchMedia(PHONE).matches ? 'phone' : 'desktop'];
  const current = sides.includes(toastBox.dataset.side) ? toastBox.dataset.side : sides[0];
  toastBox.dataset.side = current;
  let best = current;
  let fewest = covered();
  for (const side of sides) {
    if (!fewest) break;
    if (side === current) continue;
    toastBox.dataset.side = side;
    const n = covered();
    if (n < fewest) {
      best = side;
      fewest = n;
    }
  }
  toastBox.dataset.side = best;
}

/** While toasts show on the page, what comes under them (a screen rendering) may move them. */
function watchPage() {
  const showing = !!toastBox && !toastBox.classList.contains('in-area') && !!toastBox.querySelector('.toast');
  if (showing && !watcher) {
    let queued = false;
    const again = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        watchPage();
        if (watcher) chooseSide();
      });
    };
    const observer = new MutationObserver(again);
    observer.observe(document.getElementById('view') || document.body, { childList: true, subtree: true });
    window.addEventListener('resize', again);
    watcher = () => {
      observer.disconnect();
      window.removeEventListener('resize', again);
    };
  } else if (!showing && watcher) {
    watcher();
    watcher = null;
  }
}

/**
 * Show a short message; ``kind`` is info, success or error (errors stay longer; ``ms`` overrides).
 * Toasts stack in one column, newest last, never more than three (two on a phone), where they
 * cover no control (``chooseSide``); each has a close button, and a mouse resting on one (or
 * focus on its button) holds it until the mouse (or focus) leaves.
 */
export function toast(message, kind = 'info', ms) {
  if (!toastBox) {
    toastBox = h('div#toasts', { role: 'status', 'aria-live': 'polite' });
  }
  placeToasts();
  const text = String(message);
  // The same words again replace the earlier toast rather than stacking a twin.
  for (const old of toastBox.querySelectorAll('.toast')) {
    if (old.firstChild && old.firstChild.textContent === text) old.remove();
  }
  const life = ms || TOAST_MS[kind] || TOAST_MS.info;
  let timer = null;
  let fade = null;
  const close = () => {
    clearTimeout(timer);
    clearTimeout(fade);
    node.remove();
    watchPage();
  };
  const start = (after) => {
    clearTimeout(timer);
    clearTimeout(fade);
    node.classList.remove('leaving');
    fade = setTimeout(() => node.classList.add('leaving'), Math.max(0, after - 300));
    timer = setTimeout(close, after);
  };
  const hold = () => {
    clearTimeout(timer);
    clearTimeout(fade);
    node.classList.remove('leaving');
  };
  const mouse = (fn) => (e) => { if (e.pointerType === 'mouse') fn(); };
  const node = h(`div.toast.${kind}`, {
    onpointerenter: mouse(hold), onpointerleave: mouse(() => start(1500)), onfocusin: hold, onfocusout: () => start(1500),
  }, h('span.toast-text', {}, text),
  h('button.toast-close', { type: 'button', 'aria-label': t('app.dismiss'), title: t('app.dismiss'), onclick: close }, '×'));
  if (kind === 'error') node.setAttribute('role', 'alert');
  toastBox.appendChild(node);
  const shown = toastBox.querySelectorAll('.toast');
  const onPhonePage = !toastBox.classList.contains('in-area') && window.matchMedia(PHONE).matches;
  const max = onPhonePage ? MAX_TOASTS - 1 : MAX_TOASTS;
  for (let i = 0; i < shown.length - max; i += 1) shown[i].remove();
  if (!toastBox.classList.contains('in-area')) chooseSide();
  watchPage();
  start(life);
  return node;
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Fallback for insecure origins (http on a LAN address).
    const ta = h('textarea', { style: { position: 'fixed', opacity: '0' } });
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    ta.remove();
    return ok;
  }
}

/** A button that copies ``text()`` and says so. */
export function copyButton(label, text, attrs = {}) {
  const btn = h('button.btn.secondary', {
    type: 'button',
    ...attrs,
    onclick: async () => {
      const ok = await copyText(typeof text === 'function' ? text() : text);
      btn.textContent = ok ? t('app.copied') : t('app.copyFailed');
      toast(ok ? t('app.copiedToast') : t('app.copyFailedToast'),
        ok ? 'success' : 'error');
      setTimeout(() => { btn.textContent = label; }, 1600);
    },
  }, label);
  return btn;
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

/** Run ``fn`` when the document becomes visible/hidden; returns a remover. */
export function onVisibility(fn) {
  const handler = () => fn(!document.hidden);
  document.addEventListener('visibilitychange', handler);
  return () => document.removeEventListener('visibilitychange', handler);
}
