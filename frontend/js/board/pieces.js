/**
 * Players' colours and shapes, followers (meeples) and role icons, as SVG.
 *
 * Colour is never the only cue: every colour has its own emblem shape (circle, square,
 * triangle, diamond, star) drawn on the player's followers and next to their name, so players
 * who cannot tell red from green still tell their pieces apart.
 */

import { t } from '../i18n.js';
import { withHook } from '../expansions/index.js';

export const COLOURS = {
  red: { fill: '#d0382e', dark: '#7d1d17', ink: '#fff', shape: 'circle', get label() { return t('colour.red'); } },
  blue: { fill: '#2f6fd6', dark: '#173d7a', ink: '#fff', shape: 'square', get label() { return t('colour.blue'); } },
  green: { fill: '#2f9a4a', dark: '#195629', ink: '#fff', shape: 'triangle', get label() { return t('colour.green'); } },
  yellow: { fill: '#f2c318', dark: '#8a6b00', ink: '#3a2c00', shape: 'diamond', get label() { return t('colour.yellow'); } },
  black: { fill: '#2d2d33', dark: '#000', ink: '#fff', shape: 'star', get label() { return t('colour.black'); } },
};
export const COLOUR_ORDER = ['red', 'blue', 'green', 'yellow', 'black'];

export function colourOf(name) {
  return COLOURS[name] || { fill: '#888', dark: '#444', ink: '#fff', shape: 'circle', label: name || '?' };
}

/** SVG markup of an emblem shape centred on (cx, cy) with radius r. */
export function shapeMarkup(shape, cx, cy, r, fill, stroke = 'none', sw = 0) {
  const a = `fill="${fill}" stroke="${stroke}" stroke-width="${sw}"`;
  switch (shape) {
    case 'square':
      return `<rect x="${cx - r * 0.85}" y="${cy - r * 0.85}" width="${r * 1.7}" height="${r * 1.7}" ${a}/>`;
    case 'triangle':
      return `<path d="M${cx},${cy - r} L${cx + r * 0.95},${cy + r * 0.75} L${cx - r * 0.95},${cy + r * 0.75} Z" ${a}/>`;
    case 'diamond':
      return `<path d="M${cx},${cy - r} L${cx + r},${cy} L${cx},${cy + r} L${cx - r},${cy} Z" ${a}/>`;
    case 'star': {
      const pts = [];
      for (let i = 0; i < 10; i += 1) {
        const rr = i % 2 ? r * 0.45 : r;
        const ang = -Math.PI / 2 + (i * Math.PI) / 5;
        pts.push(`${(cx + rr * Math.cos(ang)).toFixed(2)},${(cy + rr * Math.sin(ang)).toFixed(2)}`);
      }
      return `<path d="M${pts.join(' L')} Z" ${a}/>`;
    }
    default:
      return `<circle cx="${cx}" cy="${cy}" r="${r * 0.9}" ${a}/>`;
  }
}

/** A small swatch: coloured disc with the colour's emblem, as an inline <svg> string. */
export function swatch(colour, size = 18) {
  const c = colourOf(colour);
  return `<svg class="swatch" width="${size}" height="${size}" viewBox="0 0 20 20" aria-hidden="true">` +
    `<circle cx="10" cy="10" r="9.2" fill="${c.fill}" stroke="${c.dark}" stroke-width="1.2"/>` +
    shapeMarkup(c.shape, 10, 10.4, 4.6, c.ink) + '</svg>';
}

/** The meeple silhouette, 24 wide × 24 tall, centred on (0, 0). */
export const MEEPLE_PATH = 'M0,-11.5 C3.6,-11.5 5.2,-9 5.2,-6.4 C5.2,-4.6 4.4,-3.6 3.6,-2.9 L10.6,-0.6 ' +
  'C12.4,0 12.6,2.6 10.6,3.1 L5.4,3.6 L8.6,10.4 C9.2,11.6 8.4,12 7.4,12 L2.6,12 L0,7.2 L-2.6,12 ' +
  'L-7.4,12 C-8.4,12 -9.2,11.6 -8.6,10.4 L-5.4,3.6 L-10.6,3.1 C-12.6,2.6 -12.4,0 -10.6,-0.6 ' +
  'L-3.6,-2.9 C-4.4,-3.6 -5.2,-4.6 -5.2,-6.4 C-5.2,-9 -3.6,-11.5 0,-11.5 Z';

/** SVG markup of a follower: standing, or lying on its side for a farmer. */
export function meepleMarkup(colour, { lying = false, scale = 1, x = 0, y = 0 } = {}) {
  const c = colourOf(colour);
  const rot = lying ? ' rotate(-90)' : '';
  return `<g transform="translate(${x},${y}) scale(${scale})${rot}">` +
    `<path d="${MEEPLE_PATH}" fill="${c.fill}" stroke="${c.dark}" stroke-width="1.4" stroke-linejoin="round"/>` +
    `<g transform="${lying ? 'rotate(90)' : ''}">${shapeMarkup(c.shape, 0, lying ? 0 : 1.4, 4.1, c.ink, c.dark, 0.5)}</g>` +
    '</g>';
}

/** A small standalone meeple <svg> string (supply counters, legends). */
export function meepleIcon(colour, size = 14, empty = false) {
  const c = colourOf(colour);
  const fill = empty ? 'rgba(120, 105, 80, 0.12)' : c.fill;
  const stroke = empty ? '#9b8f78' : c.dark;
  return `<svg class="meeple-icon${empty ? ' meeple-empty' : ''}" width="${size}" height="${size}" viewBox="-13 -13 26 26" aria-hidden="true">` +
    `<path d="${MEEPLE_PATH}" fill="${fill}" stroke="${stroke}" stroke-width="${empty ? 2.2 : 1.6}" stroke-linejoin="round"/></svg>`;
}

/** The base game's follower role of each kind of spot. */
export const ROLE_OF_KIND = { city: 'knight', road: 'thief', cloister: 'monk', field: 'farmer' };

/**
 * The follower roles the registered expansions add (their ``followerRoles``), ``{spot kind:
 * {role, icon(ink)}}``: asked when used, not on import (the registry is built on first use).
 */
function addedRoles() {
  return Object.assign({}, ...withHook('followerRoles').map((x) => x.followerRoles));
}

/**
 * A role's name in the current language (Knight / Ritter / Chevalier…), the base game's or one
 * an expansion registered; undefined for any other role.
 */
export function roleName(role) {
  const known = Object.values(ROLE_OF_KIND).includes(role)
    || Object.values(addedRoles()).some((x) => x.role === role);
  return known ? t(`role.${role}`) : undefined;
}

/** Where a role stands on a spot of ``kind``, in the current language ("in the city"); undefined for an unknown kind. */
export function placeName(kind) {
  return Object.hasOwn(ROLE_OF_KIND, kind) || Object.hasOwn(addedRoles(), kind) ? t(`place.${kind}`) : undefined;
}

/** "a knight" / "einen Ritter" / "un chevalier" (any other role: a follower). */
export const roleA = (role) => t(Object.values(ROLE_OF_KIND).includes(role) ? `roleA.${role}` : 'roleA.follower');

/** Role icon markup centred on (0,0), about 14 units across, drawn in ``ink``. */
export function roleIconMarkup(role, ink = '#2b2116') {
  switch (role) {
    case 'knight': // a tower
      return `<path d="M-6,7 L-6,-4 L-6,-7 L-3.5,-7 L-3.5,-4.5 L-1.2,-4.5 L-1.2,-7 L1.2,-7 L1.2,-4.5 L3.5,-4.5 L3.5,-7 L6,-7 L6,7 Z" fill="${ink}"/>` +
        '<path d="M-1.6,7 L-1.6,2.5 A1.6,1.6 0 0 1 1.6,2.5 L1.6,7 Z" fill="#fff"/>';
    case 'thief': // a masked face
      return `<circle r="6.6" fill="${ink}"/><path d="M-6,-1.6 Q0,-4 6,-1.6 L6,1.4 Q0,-0.6 -6,1.4 Z" fill="#fff"/>` +
        `<circle cx="-2.6" cy="-0.6" r="1.1" fill="${ink}"/><circle cx="2.6" cy="-0.6" r="1.1" fill="${ink}"/>`;
    case 'monk': // a cross
      return `<path d="M-1.8,-7 H1.8 V-3 H5.5 V0.6 H1.8 V7.5 H-1.8 V0.6 H-5.5 V-3 H-1.8 Z" fill="${ink}"/>`;
    case 'farmer': // a pitchfork
      return `<path d="M0,-1 V7.5" stroke="${ink}" stroke-width="2" stroke-linecap="round"/>` +
        `<path d="M-4.5,-7 V-2.5 Q-4.5,0 0,0 Q4.5,0 4.5,-2.5 V-7 M0,-7 V0" fill="none" stroke="${ink}" stroke-width="1.8" stroke-linecap="round"/>`;
    default: {
      const added = Object.values(addedRoles()).find((x) => x.role === role);
      return added ? added.icon(ink) : `<circle r="4" fill="${ink}"/>`;
    }
  }
}

export function roleOfSpot(spot) {
  const kind = spot === 'cloister' ? 'cloister' : spot.split(':')[0];
  return ROLE_OF_KIND[kind] || (addedRoles()[kind] || {}).role || 'follower';
}
