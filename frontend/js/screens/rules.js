/**
 * Words for rule sets and presets, shared by the create, room and match screens.
 */

export const PRESET_INFO = {
  standard: { title: 'Standard', text: 'Today\'s rules: farms score 3 per completed city.' },
  first_edition: { title: 'First edition', text: 'Original farm scoring (4 per city to the farm majority); two-tile cities score 2.' },
  river: { title: 'With the River', text: 'Start with the River tiles, then the base game.' },
  wheel_of_fortune: { title: 'Wheel of Fortune', text: 'The Wheel of Fortune board and its events.' },
};

export function presetTitle(key) {
  return (PRESET_INFO[key] && PRESET_INFO[key].title) || key.replace(/_/g, ' ');
}

/** Which preset equals ``rules`` exactly, or null. */
export function matchingPreset(rules, presets) {
  for (const [key, r] of Object.entries(presets || {})) {
    if (Object.keys({ ...r, ...rules }).every((k) => (r[k] ?? null) === (rules[k] ?? null))) return key;
  }
  return null;
}

export function rulesSummary(rules, preset) {
  if (!rules) return preset ? presetTitle(preset) : '';
  const parts = [];
  if (preset) parts.push(presetTitle(preset));
  else {
    if (rules.tileset && rules.tileset !== 'base') parts.push(rules.tileset.replace(/_/g, ' '));
    if (rules.river) parts.push('River');
    parts.push(rules.farm_scoring === 'original' ? 'original farms' : 'modern farms');
    if (rules.small_city_two_points) parts.push('small cities 2');
  }
  return parts.join(' · ');
}

export function rulesLines(rules) {
  if (!rules) return [];
  return [
    `Tiles: ${rules.tileset === 'wheel_of_fortune' ? 'Wheel of Fortune' : 'base game'}${rules.river ? ' + the River' : ''}`,
    `Farms: ${rules.farm_scoring === 'original' ? 'original (4 per city to the majority)' : 'modern (3 per completed city)'}`,
    `Two-tile cities: ${rules.small_city_two_points ? '2 points (first edition)' : '4 points'}`,
  ];
}
