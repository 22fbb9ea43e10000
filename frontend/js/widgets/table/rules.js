/**
 * Words for rule sets, presets and time controls, shared by the create, room, tables and match
 * screens. Every word comes from the message catalogue (``rules.*``, ``preset.*``,
 * ``tableTime.*``), read when called so a language switch shows at once.
 */

import { t, has } from '../../i18n.js';
import { withHook, firstOfAll } from '../../expansions/index.js';

/** The base game's presets. */
const BASE_PRESETS = ['standard', 'first_edition'];

/**
 * The presets the client knows words for (others show their key), in the order offered: the
 * base game's, then each registered expansion's (its ``presets`` hook).
 */
export function presetKeys() {
  return [...BASE_PRESETS, ...withHook('presets').flatMap((x) => x.presets)];
}

/** Whether ``tileset`` is the tile set a registered expansion brings (its ``tileset`` hook). */
export function isExpansionTileset(tileset) {
  return withHook('tileset').some((x) => x.tileset === tileset);
}

/** ``{title, text}`` of a preset in the current language, or null for an unknown preset. */
export function presetInfo(key) {
  if (!presetKeys().includes(key)) return null;
  return { title: t(`rules.title.${key}`), text: t(`rules.text.${key}`) };
}

export function presetTitle(key) {
  const info = presetInfo(key);
  return info ? info.title : key.replace(/_/g, ' ');
}

/** Which preset equals ``rules`` exactly, or null. */
export function matchingPreset(rules, presets) {
  for (const [key, r] of Object.entries(presets || {})) {
    if (Object.keys({ ...r, ...rules }).every((k) => (r[k] ?? null) === (rules[k] ?? null))) return key;
  }
  return null;
}

function tilesetName(tileset) {
  return has(`rules.tileset.${tileset}`) ? t(`rules.tileset.${tileset}`) : tileset.replace(/_/g, ' ');
}

export function rulesSummary(rules, preset) {
  if (!rules) return preset ? presetTitle(preset) : '';
  const parts = [];
  if (preset) parts.push(presetTitle(preset));
  else {
    if (rules.tileset && rules.tileset !== 'base') parts.push(tilesetName(rules.tileset));
    for (const x of withHook('summaryWords')) {
      const words = x.summaryWords(rules);
      if (words) parts.push(words);
    }
    parts.push(rules.farm_scoring === 'original' ? t('rules.summary.originalFarms') : t('rules.summary.modernFarms'));
    if (rules.small_city_two_points) parts.push(t('rules.summary.smallCities'));
  }
  return parts.join(' · ');
}

export function rulesLines(rules) {
  if (!rules) return [];
  const tiles = isExpansionTileset(rules.tileset) ? t(`rules.tileset.${rules.tileset}`) : t('rules.tileset.base');
  return [
    t(firstOfAll('tilesLine', rules) || 'rules.line.tiles', { tiles }),
    t(rules.farm_scoring === 'original' ? 'rules.line.farmsOriginal' : 'rules.line.farmsModern'),
    t(rules.small_city_two_points ? 'rules.line.smallCities2' : 'rules.line.smallCities4'),
  ];
}

function duration(seconds) {
  if (seconds >= 60 && seconds % 60 === 0) return t('tableTime.min', { n: seconds / 60 });
  if (seconds > 60) return t('tableTime.minSec', { m: Math.floor(seconds / 60), s: seconds % 60 });
  return t('tableTime.sec', { n: seconds });
}

/**
 * A table's time control in words (``time_control`` JSON as the server sends it), as the
 * server's own English ``time_label`` says it; ``fallback`` (that label) for a shape not known.
 */
export function timeLabel(tc, fallback) {
  if (!tc && fallback && fallback !== 'untimed') return fallback;
  if (!tc || !tc.kind || tc.kind === 'untimed') return t('tableTime.untimed');
  if (tc.kind === 'per_turn' && tc.seconds) return t('tableTime.perTurn', { d: duration(tc.seconds) });
  if (tc.kind === 'fischer' && tc.bank) return t('tableTime.fischer', { bank: duration(tc.bank), inc: duration(tc.increment || 0) });
  if (tc.kind === 'correspondence' && tc.days) return t('tableTime.corr', { n: tc.days });
  return fallback || tc.kind;
}

/**
 * What happens when a clock reaches zero (shown before a match starts): the time control
 * ``tc`` and the table's time-out policy (docs/API.md § Clocks; ``computer`` when absent).
 */
export function atZeroText(tc, policy) {
  if (!tc || !tc.kind || tc.kind === 'untimed') return t('tableTime.atZeroUntimed');
  const kind = (policy && policy.kind) || 'computer';
  if (kind === 'skip') return t('tableTime.atZeroSkip');
  if (kind === 'handover') return policy.after === 1 ? t('tableTime.atZeroHandover1') : t('tableTime.atZeroHandover', { n: policy.after });
  return t('tableTime.atZeroTimed', { n: 2 });
}

/** A short name of a time-out policy (the picker's option, the match header). */
export function policyLabel(policy) {
  const kind = (policy && policy.kind) || 'computer';
  if (kind === 'handover') return policy.after === 1 ? t('policy.handover1') : t('policy.handover', { n: policy.after });
  return t(kind === 'skip' ? 'policy.skip' : 'policy.computer');
}
