/**
 * The Wheel of Fortune on the match screen (RULES.md §6, docs/API.md § Wheel of Fortune): the
 * wheel and its pig on the board, the pig in the side panel, the wheel icon of a drawn tile,
 * crown spaces as follower spots, the Plague phase (who takes back which follower, and its
 * countdown), the wheel's scores floating from their segment once the pig has landed, and the
 * end screen's six wheel categories; its log lines and text board lines (``wheelWords.js``).
 * Registered in ``index.js``; reads the match, never writes it.
 */

import { h } from '../dom.js';
import { t, has } from '../i18n.js';
import { colourOf, swatch, roleIconMarkup, roleOfSpot, roleName, placeName } from '../board/pieces.js';
import { tileType } from '../board/tiles.js';
import { joinNames, around, MARK } from '../words.js';
import { CATEGORIES, segmentLabel, segmentEffect } from './wheelView.js';
import { logLines, textBoardLines, spotWords } from './wheelWords.js';
import { tilePlan, tileArt, tileBarriers } from './wheelTiles.js';
import { boardLayers, setWheel, segmentPoint, spotPoint, drawPosition, plagueTarget, PLAGUE_MARK } from './wheelBoard.js';

const ID = 'wheel_of_fortune';
/** Milliseconds the pig takes per segment (``wheelView.js``): wheel points wait for it to land. */
const HOP_MS = 380;

const PLAGUE_ICON = '<svg width="44" height="44" viewBox="-22 -22 44 44"><circle r="20" fill="#dfe6cf" stroke="#5d6b45" stroke-width="2"/>' +
  '<path d="M-12,4 C-12,-4 -4,-8 3,-6 C7,-5 10,-2 12,2 L15,3 L11,5 C8,7 -6,8 -12,4 Z" fill="#8a8076" stroke="#3d2b18" stroke-width="1.5" stroke-linejoin="round"/>' +
  '<circle cx="2" cy="-6" r="3" fill="#b3a89c" stroke="#3d2b18"/><circle cx="8" cy="-0.5" r="1.2" fill="#3d2b18"/>' +
  '<path d="M-12,4 C-17,5 -17,11 -12,12" fill="none" stroke="#3d2b18" stroke-width="1.3" stroke-linecap="round"/></svg>';
const EYE = '<svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true"><path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.2" fill="currentColor"/></svg>';

/** This expansion's UI state on the screen: the pig's steps to animate, the Plague deadline. */
function own(m) {
  if (!m.ui.ext[ID]) m.ui.ext[ID] = { pigSteps: null, plagueDeadline: null };
  return m.ui.ext[ID];
}

/** How far the pig moves in ``events`` (segments). */
const pigSteps = (events) => events.filter((e) => e.type === 'PigMoved').reduce((a, e) => a + e.steps, 0);

/** Where a cell lies seen from the wheel ("2 tiles north-east of the wheel"). */
export function fromWheel(s, [x, y]) {
  const cells = (s.wheel && s.wheel.cells) || [[0, 0]];
  const xs = cells.map((c) => c[0]);
  const ys = cells.map((c) => c[1]);
  const dx = x < Math.min(...xs) ? x - Math.min(...xs) : x > Math.max(...xs) ? x - Math.max(...xs) : 0;
  const dy = y < Math.min(...ys) ? y - Math.min(...ys) : y > Math.max(...ys) ? y - Math.max(...ys) : 0;
  const dir = `${dy < 0 ? 'n' : dy > 0 ? 's' : ''}${dx < 0 ? 'w' : dx > 0 ? 'e' : ''}`;
  if (!dir) return t('match.onWheel');
  return t(`match.wheelDir.${dir}`, { n: Math.max(Math.abs(dx), Math.abs(dy)) });
}

/** The Plague: the followers the deciding seat may take back, as board targets. */
export function plagueItems(s) {
  return ((s.plague && s.plague.choices) || []).map(([x, y, spot]) => {
    const role = roleOfSpot(spot);
    const kind = spot === 'cloister' ? 'cloister' : spot.split(':')[0];
    const where = fromWheel(s, [x, y]);
    return { id: `plague:${x},${y}:${spot}`, at: [x, y], spot, where,
      label: t('match.spotWhere', { role: roleName(role) || t('role.follower'), place: placeName(kind) || '', where }).replace(' ,', ',') };
  });
}

/** "A computer chooses for you in 24 s" while a Plague decision is pending. */
function countdownText(m, mine) {
  const deadline = own(m).plagueDeadline;
  if (!deadline) return '';
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  if (left === 0) return t(mine ? 'match.plagueTimeUpMine' : 'match.plagueTimeUp');
  return t(mine ? 'match.plagueLeftMine' : 'match.plagueLeft', { n: left });
}

/** The tray while a Plague decision is pending (``mine``: the person looking decides). */
function plagueTray(m, mine) {
  const s = m.model.state();
  if (!s.plague) return false;
  const n = m.model.names();
  const tray = m.dom.tray;
  tray.classList.add('plague');
  if (!mine) {
    // Someone else decides which follower the Plague takes: everyone waits for them.
    tray.classList.add('waiting');
    const next = (s.plague.waiting || []).slice(1).map((i) => (i === m.model.you() ? t('match.youLower') : n[i]));
    tray.append(
      h('div.tray-plague-icon', { 'aria-hidden': 'true', html: PLAGUE_ICON }),
      h('div.tray-text#plague-waiting', { dataset: { seat: s.plague.seat } },
        h('b', {}, ...around(t('match.plagueWaiting', { name: `${MARK}${n[s.seat]}` }),
          h('span.name-swatch', { html: swatch(m.model.colours()[s.seat], 16) }))),
        h('span', t('match.plagueTheyMust', { name: n[s.seat] }) +
          (next.length ? ` ${t('match.plagueThen', { names: joinNames(next) })}` : '')),
        h('small.plague-countdown', countdownText(m, false)),
        ...(m.model.you() === null ? [h('small.spectating', {}, h('span', { html: EYE }), ` ${t('match.watchingYou')}`)] : [])));
    tray.style.setProperty('--turn-colour', colourOf(m.model.colours()[s.seat]).fill);
    return true;
  }
  const next = (s.plague.waiting || []).slice(1).map((i) => n[i]);
  tray.append(
    h('div.tray-plague-icon', { 'aria-hidden': 'true', html: PLAGUE_ICON }),
    h('div.tray-text#plague-choice', {}, h('b', t('match.plagueTakeBack')),
      h('span', next.length ? t('match.plagueTapThen', { n: next.length, names: joinNames(next) }) : t('match.plagueTap')),
      h('div.spot-buttons', {}, plagueItems(s).map((it) => {
        const show = () => { m.ui.spotFocus = it.id; m.ui.keyboard = true; m.hooks.renderInteraction(); };
        return h('button.btn.small.secondary.spot-btn', { onclick: () => m.hooks.pickSpot(it.id), dataset: { spotBtn: it.id },
          onmouseenter: show, onfocus: show, title: t('match.takeBackTitle', { label: it.label }) },
        h('span', { html: `<svg width="16" height="16" viewBox="-9 -9 18 18" aria-hidden="true">${roleIconMarkup(roleOfSpot(it.spot))}</svg>` }),
        ` ${roleName(roleOfSpot(it.spot)) || t('role.follower')}`, h('small.spot-where', it.where));
      })),
      h('small.plague-countdown', countdownText(m, true))));
  return true;
}

/** The board during the Plague: the decider's targets, everyone else's marks. */
function plagueInteraction(m) {
  const { model, board, ui } = m;
  const s = model.state();
  if (!s.plague) return false;
  if (model.myTurn() && !ui.pending) {
    const focusKey = `${s.turn}:plague:${(s.plague.waiting || []).join(',')}`;
    if (ui.focused !== focusKey) {
      // Frame the followers to choose from (with the wheel), large enough to tap.
      ui.focused = focusKey;
      const cells = plagueItems(s).map((it) => it.at);
      if (!board.focusBox([...cells, ...((s.wheel && s.wheel.cells) || [])], 90)) board.fit(true);
    }
    board.setTargetList(plagueItems(s), model.colours()[model.you()], ui.keyboard ? ui.spotFocus : null, plagueTarget);
  }
  // Everyone else sees which followers the Plague decision is about.
  board.setMarks(!model.isOver() && !model.myTurn() ? plagueItems(s) : null, model.colours()[s.plague.seat], PLAGUE_MARK);
  return true;
}

const plague = {
  status(m) {
    const s = m.model.state();
    const tiles = t('match.status.tilesLeft', { n: s.tiles_remaining });
    return m.model.myTurn() ? t('match.status.plagueMine', { tiles })
      : t('match.status.plagueWait', { name: m.model.names()[s.seat], tiles });
  },
  tray: plagueTray,
  interaction: plagueInteraction,
  spots: (m) => plagueItems(m.model.state()).map((it) => it.id),
  /** The Plague decision that target ``id`` ("plague:x,y:spot") names, or null. */
  pick(m, id) {
    if (!id.startsWith('plague:')) return null;
    const [, xy, ...rest] = id.split(':');
    const [x, y] = xy.split(',').map(Number);
    return { type: 'plague', at: [x, y], spot: rest.join(':') };
  },
};

export default {
  id: ID,
  presets: [ID],
  tileset: ID,
  activeIn: (s) => (s.rules || {}).tileset === ID || !!s.wheel,
  /** The tile guide: ids with a dash are its shapes from other expansions (IC-CCC, KS-RC…). */
  guideGroups: [
    { title: 'guide.wofShapes', has: (tile) => !tile.icon && tile.count > 0 && tile.id.includes('-') },
    { title: 'guide.wofIcons', has: (tile) => !!tile.icon },
  ],
  deltaMerges: ['wheel'],
  phases: { plague },

  drawBoard(m, s) {
    const mine = own(m);
    setWheel(m.board, s.wheel || null, m.model.colours(), { steps: mine.pigSteps });
    mine.pigSteps = null;
  },
  focusCells: (s) => (s.wheel ? s.wheel.cells : []),
  ownsSpot: (spot) => spot.startsWith('crown:'),
  /** A follower on a crown space of the wheel (``crown:SEGMENT``) is a crown, its icon a crown. */
  followerRoles: {
    crown: { role: 'crown', icon: (ink) => `<path d="M-6,4 L-6,-4 L-3,-1 L0,-6 L3,-1 L6,-4 L6,4 Z" fill="${ink}"/>` },
  },
  spotPoint,
  boardLayers,
  drawPosition,
  spotWhere: (spot) => segmentLabel(spot.slice(6)),
  deployHint: 'match.tapMarkerCrown',

  infoItem(m, s) {
    if (!s.wheel) return null;
    return h('div.info-item.wheel-info#pig-info', { dataset: { segment: s.wheel.pig }, title: segmentEffect(s.wheel.pig) },
      h('span.pig-dot', { 'aria-hidden': 'true' }), h('small', {}, ...around(t('match.pigOn', { seg: MARK, effect: segmentEffect(s.wheel.pig) }),
        h('b', segmentLabel(s.wheel.pig)))));
  },
  /** "Wheel icon 2: the pig moved to Tax" when the drawn tile carries a wheel icon. */
  trayNote(s) {
    const type = s.tile && tileType(s.tile);
    if (!type || !type.icon || !s.wheel) return null;
    return h('small.wheel-note', t('match.wheelNote', { icon: type.icon, seg: segmentLabel(s.wheel.pig) }));
  },

  onTurn(m, s) {
    // A Plague decision falls to a computer after the server's timeout: count it down.
    const { match } = m.model;
    const limit = match.decision_timeout ?? match.plague_timeout; // the name before: an older server
    own(m).plagueDeadline = s.phase === 'plague' && limit && !(match.seats[s.seat] || {}).bot
      ? Date.now() + limit * 1000 : null;
  },
  onDrawn(m, events) {
    // Batches drawn in one frame move the pig by all their steps.
    const steps = pigSteps(events);
    if (steps) own(m).pigSteps = (own(m).pigSteps || 0) + steps;
  },
  tick(m) {
    // The Plague countdown ticks in the tray (no re-render: just its text).
    if (!own(m).plagueDeadline) return;
    for (const node of m.dom.tray.querySelectorAll('.plague-countdown')) node.textContent = countdownText(m, !!m.model.myTurn());
  },

  /**
   * Wheel points rise from the wheel once the pig has landed (tax and famine from their cities
   * and farms); crown points from the segment whose crowns scored.
   */
  scoreFloat(m, events, e) {
    if (!CATEGORIES.includes(e.category)) return null;
    const k = events.indexOf(e);
    let segment = null;
    if (e.category === 'crown') {
      const back = events.slice(k).find((x) => x.type === 'CrownReturned' && x.seat === e.seat);
      segment = back ? back.segment : null;
    } else {
      const moved = events.slice(0, k).reverse().find((x) => x.type === 'PigMoved');
      segment = moved ? moved.segment : null;
    }
    const what = e.category === 'crown' ? (segment ? t('log.crownOn', { seg: segmentLabel(segment) }) : t('log.crown'))
      : segmentLabel(e.category);
    const onWheel = !(e.tiles || []).length;
    return { what, delay: pigSteps(events) * HOP_MS, anchor: onWheel ? segment : null,
      point: onWheel ? () => segmentPoint(m.board, segment) : null };
  },
  /** The wheel's points of one batch go in one toast, once the pig has landed. */
  claimsScoreLine: (line) => !!line.wheel,
  scoreToastDelay: (events) => pigSteps(events) * HOP_MS,

  logLines,
  textBoardLines,
  spotWords,

  tilePlan,
  tileArt,
  tileBarriers,

  endCategories: CATEGORIES,
  categoryLabel: (k) => (has(`wheel.${k}`) ? segmentLabel(k) : null),
  endLead: (s) => (s.wheel ? t('end.leadWheel', { n: s.board.length - s.wheel.cells.length }) : null),
};
