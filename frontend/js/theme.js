/**
 * Light and dark themes. By default the page follows the system's ``prefers-color-scheme``
 * (and changes with it); the header's toggle stores an explicit choice (``carcassonne.theme``:
 * ``light`` or ``dark``) that wins from then on. The effective theme is written to
 * ``<html data-theme>``, which the stylesheet's dark palette keys on.
 */

import { t } from './i18n.js';

const STORE_KEY = 'carcassonne.theme';
const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

function stored() {
  try {
    const v = localStorage.getItem(STORE_KEY);
    return v === 'dark' || v === 'light' ? v : null;
  } catch {
    return null;
  }
}

/** The theme in effect: the stored choice, else the system's. */
export function theme() {
  return stored() || (query && query.matches ? 'dark' : 'light');
}

/** Write the effective theme to ``<html data-theme>`` (and the browser's theme colour). */
export function applyTheme() {
  const now = theme();
  document.documentElement.dataset.theme = now;
  const meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute('content', now === 'dark' ? '#141a15' : '#2b3a2c');
  return now;
}

/** Store ``value`` (``light`` / ``dark``) as the person's choice and apply it. */
export function setTheme(value) {
  try {
    localStorage.setItem(STORE_KEY, value);
  } catch {
    // Private mode: the choice lasts for this page.
  }
  applyTheme();
}

if (query && query.addEventListener) query.addEventListener('change', applyTheme);

const MOON = '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M15.5 12.8A6.5 6.5 0 0 1 7.2 4.5a6.5 6.5 0 1 0 8.3 8.3z" fill="currentColor"/></svg>';
const SUN = '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><circle cx="10" cy="10" r="3.6" fill="currentColor"/><path d="M10 1.5v2.6M10 15.9v2.6M1.5 10h2.6M15.9 10h2.6M4 4l1.8 1.8M14.2 14.2 16 16M4 16l1.8-1.8M14.2 5.8 16 4" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>';

/**
 * A theme toggle button (``aria-pressed`` true in the dark theme): the page header's by default;
 * the match screen places its own (``id``, ``className``). Every toggle on the page repaints
 * when one is used.
 */
export function themeToggle({ id = 'theme-toggle', className = 'top-toggle' } = {}) {
  const btn = document.createElement('button');
  btn.type = 'button';
  btn.id = id;
  btn.className = `${className} theme-toggle`;
  const paint = () => {
    const dark = theme() === 'dark';
    btn.setAttribute('aria-pressed', String(dark));
    btn.setAttribute('aria-label', t('theme.toggle'));
    btn.title = dark ? t('theme.light') : t('theme.dark');
    btn.innerHTML = dark ? SUN : MOON;
  };
  btn.addEventListener('click', () => {
    setTheme(theme() === 'dark' ? 'light' : 'dark');
    paint();
    for (const other of document.querySelectorAll('.theme-toggle')) if (other !== btn) other.dispatchEvent(new Event('repaint'));
  });
  btn.addEventListener('repaint', paint);
  paint();
  return btn;
}

applyTheme();
