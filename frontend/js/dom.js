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

/** Show a short message; ``kind`` is info, success or error. Errors stay longer. */
export function toast(message, kind = 'info', ms) {
  if (!toastBox) {
    toastBox = h('div#toasts', { role: 'status', 'aria-live': 'polite' });
    document.body.appendChild(toastBox);
  }
  const node = h(`div.toast.${kind}`, {}, h('span', {}, message),
    h('button.toast-close', { 'aria-label': t('app.dismiss'), onclick: () => node.remove() }, '×'));
  if (kind === 'error') node.setAttribute('role', 'alert');
  toastBox.appendChild(node);
  setTimeout(() => node.classList.add('leaving'), (ms || (kind === 'error' ? 7000 : 3200)) - 300);
  setTimeout(() => node.remove(), ms || (kind === 'error' ? 7000 : 3200));
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
