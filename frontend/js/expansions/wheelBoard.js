/**
 * The Wheel of Fortune on the board (``../board/board.js``): its layer over the tiles
 * (``boardLayers``), the wheel drawn there (``wheelView.js``, kept in ``board.own``), the crown
 * spaces as follower spots (``spotPoint``), a replay's wheel (``drawPosition``), and the Plague's
 * targets and marks on the followers it is about.
 */

import { svgEl as el } from '../board/tiles.js';
import { roleName, roleA } from '../board/pieces.js';
import { t } from '../i18n.js';
import { WheelView } from './wheelView.js';

const ID = 'wheel_of_fortune';

/** The board's layers of its own, over the tiles. */
export const boardLayers = ['wheel'];

/**
 * Draw the Wheel of Fortune over its board cells (see wheelView.js): six segments, crown spaces
 * with their followers, the pig. ``wheel``: the view's ``wheel`` (null: none); ``steps``: the
 * segments the pig just moved, to animate its run.
 */
export function setWheel(board, wheel, colours, { steps = null, animate = true } = {}) {
  if (!wheel) {
    if (board.own[ID]) board.own[ID].clear();
    return;
  }
  if (!board.own[ID]) board.own[ID] = new WheelView(board.layers.wheel);
  board.own[ID].update(wheel, colours, { steps, animate });
}

/** A replay's position: its wheel, without animation. */
export function drawPosition(board, pos, colours, opts) {
  if (pos.wheel) setWheel(board, pos.wheel, colours, opts);
}

/** World point of a wheel segment (for floating points), or null without a wheel. */
export function segmentPoint(board, segment) {
  return board.own[ID] ? board.own[ID].segmentPoint(segment) : null;
}

/** World position of a crown space (``crown:<segment>``) a follower may take, or null. */
export function spotPoint(board, spot) {
  return board.own[ID] ? board.own[ID].freeCrown(spot.slice(6)) : null;
}

/** The class of the marks on the followers a Plague decision is about (everyone else's view). */
export const PLAGUE_MARK = 'plague-mark';

/**
 * A Plague target (``board.setTargetList``'s ``art``): a ring round the follower (which stays
 * visible) and a "take back" arrow badge. ``it``: ``{id, wx, wy, role, label}``; ``c``: the
 * deciding player's colour; ``s``: the targets' scale.
 */
export function plagueTarget(it, c, s, focused) {
  const g = el('g', { 'data-wx': it.wx, 'data-wy': it.wy, class: `target plague-target${focused ? ' focused' : ''}`,
    'data-spot': it.id, role: 'button', 'aria-label': t('match.takeBackTitle', { label: it.label || roleName(it.role) || t('role.follower') }),
    transform: `translate(${it.wx},${it.wy}) scale(${s})` });
  g.innerHTML = '<circle class="plague-hit" r="15" fill="rgba(255,255,255,0.01)"/>' +
    `<circle class="plague-ring" r="14" fill="none" stroke="#c0392b" stroke-width="3.2"/>` +
    `<g transform="translate(10,-10)"><circle r="6.8" fill="#c0392b" stroke="#fff" stroke-width="1.6"/>` +
    '<path d="M2.6,2.2 A3.4,3.4 0 1 0 -2.8,1.4 M-2.8,1.4 l-1.6,-2.6 M-2.8,1.4 l2.8,-0.6" fill="none" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/></g>';
  const title = el('title');
  title.textContent = t('match.takeBackThis', { role: roleA(it.role), colour: c.label });
  g.appendChild(title);
  return g;
}
