/**
 * The client's message catalogue: every string a person reads comes from here, in English,
 * German or French, with the rulebooks' own words in each language (knight/thief/monk/farmer;
 * Ritter/Wegelagerer/Mönch/Bauer; chevalier/voleur/moine/paysan).
 *
 *   import { t } from './i18n.js';
 *   t('nav.tables')                       → "Tables" / "Tische" / "Tables"
 *   t('log.placed', { name: 'Ann' })      → "Ann placed a tile"
 *   t('unit.point', { n: 3 })             → "3 points" (plural forms by Intl.PluralRules)
 *   errorText(code, message, reason, params) → the catalogue's words for a server error
 *
 * A catalogue (./i18n/<lang>/common.js plus the area parts ./i18n/<lang>/<area>.js, merged by
 * ./i18n/catalogue.<lang>.js; only the reader's language is downloaded) is
 * a flat object ``key → string`` or ``key → {one, other, …}`` (CLDR plural categories, chosen
 * by ``params.n``). ``{name}`` placeholders are filled from
 * ``params``. A key missing in a language falls back to English (if loaded), then to the key, so a
 * new string never breaks a screen: add it to the English part first, then to German and French.
 *
 * ``ready`` resolves once the reader's catalogue is there (main.js waits for it).
 * The language is chosen once per page: a stored choice (``carcassonne.lang``), else the first
 * of ``navigator.languages`` we have, else English. ``<html lang>`` follows it. Changing it
 * (``setLang``) stores it and calls the listeners (main.js re-renders the current screen).
 */

// Only the reader's language is downloaded (each catalogue.<lang>.js imports its parts); the
// others load when the reader switches. Every language has every key (tests/test_catalogue.py).
const LOADERS = {
  en: () => import('./i18n/catalogue.en.js'),
  de: () => import('./i18n/catalogue.de.js'),
  fr: () => import('./i18n/catalogue.fr.js'),
};
const CATALOGUES = {};
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
  if (stored && LOADERS[stored]) return stored;
  const wanted = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en']);
  for (const tag of wanted) {
    const base = String(tag || '').toLowerCase().split('-')[0];
    if (LOADERS[base]) return base;
  }
  return 'en';
}

let current = initialLang();
let wanted = current; // the language last asked for (setLang), applied once its catalogue loads
let plurals = new Intl.PluralRules(current);
const listeners = new Set();
if (typeof document !== 'undefined') document.documentElement.lang = current;

/** Load the catalogue of ``code`` once; resolves when ``t`` can use it. */
function load(code) {
  if (!CATALOGUES[code]) {
    CATALOGUES[code] = LOADERS[code]().then((mod) => {
      CATALOGUES[code] = mod.default;
      return mod.default;
    }, (err) => {
      delete CATALOGUES[code];
      throw err;
    });
  }
  return Promise.resolve(CATALOGUES[code]);
}

/** Resolves once the reader's catalogue is loaded: main.js waits for it before any screen. */
export const ready = load(current);

function entries(code) {
  const cat = CATALOGUES[code];
  return cat && !(cat instanceof Promise) ? cat : {};
}

/** The current language code (``en``, ``de`` or ``fr``). */
export function lang() {
  return current;
}

/**
 * Switch language: loads its catalogue (only the reader's is there at first, so switching to
 * another one waits for the network), then stores the choice, sets ``<html lang>`` and tells
 * the listeners. Returns a promise: await it before reading the new words. A catalogue already
 * loaded switches at once. The last choice wins: a slower catalogue asked for earlier never
 * overrides a later switch. ``before(code)`` runs just before the switch.
 */
export function setLang(code, before) {
  if (!LOADERS[code]) return Promise.resolve();
  wanted = code;
  if (code === current) return Promise.resolve();
  const apply = () => {
    if (wanted !== code || code === current) return; // a later choice came first
    if (before) before(code);
    current = code;
    plurals = new Intl.PluralRules(current);
    try {
      localStorage.setItem(STORE_KEY, code);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    document.documentElement.lang = code;
    for (const fn of listeners) fn(code);
  };
  const cat = CATALOGUES[code];
  if (cat && !(cat instanceof Promise)) {
    apply();
    return Promise.resolve();
  }
  return load(code).then(apply, (err) => {
    if (wanted === code) wanted = current;
    throw err;
  });
}

/** Call ``fn(code)`` after every language change; returns a remover. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Whether ``key`` exists in the current language or in English. */
export function has(key) {
  return key in entries(current);
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
  let entry = entries(current)[key];
  if (entry === undefined) entry = entries('en')[key];
  if (entry === undefined) return key;
  if (typeof entry === 'object') {
    const n = params && typeof params.n === 'number' ? params.n : 0;
    entry = entry[plurals.select(n)] ?? entry.other;
  }
  return fill(entry, params);
}

/**
 * Words for a server error (``{"error": {"code", "message", "reason"?, "params"?}}`` or a
 * websocket error frame's ``d``). A ``reason`` with a catalogue entry ``error.reason.<reason>``
 * is worded from it and ``params`` in every language (a record's refused move also words the
 * engine's own reason, ``params.why``, as ``{detail}``). Otherwise English shows the server's own
 * message when it has one (it is often more precise: "colour taken"), except for codes whose
 * catalogue entry is marked as preferred; the other languages use the catalogue's
 * ``error.<code>`` (else ``error.unknown``) and never the server's English message.
 */
export function errorText(code, message, reason, params) {
  const words = entries(current);
  if (reason && `error.reason.${reason}` in words) {
    const p = { ...(params || {}) };
    if (p.why || p.error) {
      const { why, error, ...rest } = p;
      p.detail = errorText(error || 'unknown', '', why, rest);
    }
    return t(`error.reason.${reason}`, p);
  }
  const own = words[`error.${code}`];
  if (current === 'en') {
    if (message && !PREFER_CATALOGUE.has(code)) return message;
    return own || message || t('error.unknown', { code });
  }
  return own || t('error.unknown', { code });
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
  sel.addEventListener('change', async () => {
    try {
      await setLang(sel.value, onBefore);
    } catch {
      sel.value = current; // offline: stay in the language we have
    }
  });
  return sel;
}
