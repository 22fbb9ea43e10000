/**
 * The client's message catalogue: every string a person reads comes from here, in English,
 * German or French, with the rulebooks' own words in each language (knight/thief/monk/farmer;
 * Ritter/Wegelagerer/Mönch/Bauer; chevalier/voleur/moine/paysan).
 *
 *   import { t } from './i18n.js';
 *   t('nav.tables')                       → "Tables" / "Tische" / "Tables"
 *   t('log.placed', { name: 'Ann' })      → "Ann placed a tile"
 *   t('unit.point', { n: 3 })             → "3 points" (plural forms by Intl.PluralRules)
 *   errorText('not_your_turn', message)   → the catalogue's words for a server error code
 *
 * A catalogue (./i18n/<lang>.js plus the area parts ./i18n/<area>.<lang>.js, merged below) is
 * a flat object ``key → string`` or ``key → {one, other, …}`` (CLDR plural categories, chosen
 * by ``params.n``). ``{name}`` placeholders are filled from
 * ``params``. A key missing in a language falls back to English, then to the key itself, so a
 * new string never breaks a screen: add it to the English part first, then to German and French.
 *
 * The language is chosen once per page: a stored choice (``carcassonne.lang``), else the first
 * of ``navigator.languages`` we have, else English. ``<html lang>`` follows it. Changing it
 * (``setLang``) stores it and calls the listeners (main.js re-renders the current screen).
 */

import enCommon from './i18n/en.js';
import enLog from './i18n/log.en.js';
import enMatch from './i18n/match.en.js';
import enScreens from './i18n/screens.en.js';
import enClock from './i18n/clock.en.js';
import enAccount from './i18n/account.en.js';
import deCommon from './i18n/de.js';
import deLog from './i18n/log.de.js';
import deMatch from './i18n/match.de.js';
import deScreens from './i18n/screens.de.js';
import deClock from './i18n/clock.de.js';
import deAccount from './i18n/account.de.js';
import frCommon from './i18n/fr.js';
import frLog from './i18n/log.fr.js';
import frMatch from './i18n/match.fr.js';
import frScreens from './i18n/screens.fr.js';
import frClock from './i18n/clock.fr.js';
import frAccount from './i18n/account.fr.js';

// One catalogue per language, merged from its parts (./i18n/<lang>.js and ./i18n/<area>.<lang>.js)
// so that each area's strings live beside each other and a key is defined once.
const en = { ...enCommon, ...enLog, ...enMatch, ...enScreens, ...enClock, ...enAccount };
const de = { ...deCommon, ...deLog, ...deMatch, ...deScreens, ...deClock, ...deAccount };
const fr = { ...frCommon, ...frLog, ...frMatch, ...frScreens, ...frClock, ...frAccount };

const CATALOGUES = { en, de, fr };
const STORE_KEY = 'carcassonne.lang';

/** The languages offered by the switcher: ``[{code, name}]``, each named in its own language. */
export const LANGS = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'fr', name: 'Français' },
];

function initialLang() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORE_KEY);
  } catch {
    stored = null;
  }
  if (stored && CATALOGUES[stored]) return stored;
  const wanted = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en']);
  for (const tag of wanted) {
    const base = String(tag || '').toLowerCase().split('-')[0];
    if (CATALOGUES[base]) return base;
  }
  return 'en';
}

let current = initialLang();
let plurals = new Intl.PluralRules(current);
const listeners = new Set();
if (typeof document !== 'undefined') document.documentElement.lang = current;

/** The current language code (``en``, ``de`` or ``fr``). */
export function lang() {
  return current;
}

/** Switch language: stores the choice, sets ``<html lang>``, tells the listeners. */
export function setLang(code) {
  if (!CATALOGUES[code] || code === current) return;
  current = code;
  plurals = new Intl.PluralRules(current);
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

/** Call ``fn(code)`` after every language change; returns a remover. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Whether ``key`` exists in the current language or in English. */
export function has(key) {
  return key in CATALOGUES[current] || key in en;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params && params[name] !== null && params[name] !== undefined
    ? String(params[name]) : whole));
}

/**
 * The message ``key`` in the current language, with ``{placeholders}`` filled from ``params``.
 * Plural entries pick their form by ``params.n`` (a number). Unknown keys return the key.
 */
export function t(key, params) {
  let entry = CATALOGUES[current][key];
  if (entry === undefined) entry = en[key];
  if (entry === undefined) return key;
  if (typeof entry === 'object') {
    const n = params && typeof params.n === 'number' ? params.n : 0;
    entry = entry[plurals.select(n)] ?? entry.other;
  }
  return fill(entry, params);
}

/**
 * Words for a server error code (``{"error": {"code", "message"}}`` or a websocket error
 * frame). English shows the server's own message when it has one (it is often more precise:
 * "colour taken"), except for codes whose catalogue entry is marked as preferred; the other
 * languages always use the catalogue's ``error.<code>``, falling back to the server's message.
 */
export function errorText(code, message) {
  const key = `error.${code}`;
  const own = CATALOGUES[current][key];
  if (current === 'en') {
    if (message && !PREFER_CATALOGUE.has(code)) return message;
    return own || message || t('error.unknown', { code });
  }
  return own || message || t('error.unknown', { code });
}

/** Codes whose server message is terse or technical: every language uses the catalogue. */
const PREFER_CATALOGUE = new Set(['network', 'rate_limited', 'unauthorized', 'chat_empty', 'chat_too_long',
  'chat_too_fast', 'chat_not_allowed', 'chat_muted']);

/**
 * A language switcher ``<select>`` (caller places it); changing it calls ``setLang``.
 * ``className``: its class (the header's ``lang-select`` unless the caller styles its own);
 * ``onBefore(code)``: called just before the switch (and the re-render it causes).
 */
export function languageSelect({ className = 'lang-select', id, onBefore } = {}) {
  const sel = document.createElement('select');
  sel.className = className;
  if (id) sel.id = id;
  sel.setAttribute('aria-label', t('lang.choose'));
  for (const { code, name } of LANGS) {
    const opt = document.createElement('option');
    opt.value = code;
    opt.lang = code;
    opt.textContent = name;
    if (code === current) opt.selected = true;
    sel.appendChild(opt);
  }
  sel.addEventListener('change', () => {
    if (onBefore && sel.value !== current) onBefore(sel.value);
    setLang(sel.value);
  });
  return sel;
}
