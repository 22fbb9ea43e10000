/**
 * The Wheel of Fortune in words: its log lines (the pig's move and the silence of an action
 * nobody scores from, each player's wheel formula, crowns placed and scored, the Plague's
 * decision) and its lines on the text board (where the pig is, the crowns on each segment).
 * The hooks ``logLines``, ``textBoardLines`` and ``spotWords`` of ``wheelOfFortune.js``; every
 * sentence comes from the message catalogue (``log.*``, ``tb.*``), like the base game's
 * (``../words.js``), built when the line is read.
 */

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { roleOfSpot } from '../board/pieces.js';
import { logLine, deployedLine, roleKey } from '../words.js';
import { CATEGORIES, segmentLabel, segmentEffect } from './wheelView.js';

/** Wheel actions that may score nobody: the log says why ("nobody has a knight in a city"). */
const NOBODY = ['fortune', 'tax', 'famine', 'storm', 'inquisition'];

const points = (n) => t('unit.point', { n });

/**
 * A Wheel of Fortune scoring as its formula, for one player ("Tax for Ann: 2 knights × (1 pennant
 * + 2 knights) = 6"). The player's name ends before a colon, so a name that ends in a digit
 * ("Bot 1") never runs into the count ("Inquisition for Bot 1: 1 monk × 2 = 2").
 * ``segment``: for crown scoring, the segment whose crowns scored.
 */
export function wheelSentence(e, who, segment) {
  const k = (e.followers || [])[e.seat] || 0;
  const seg = segmentLabel(e.category);
  const n = e.points;
  switch (e.category) {
    case 'fortune':
      return t('log.wheel.fortune', { seg, who, n });
    case 'tax':
      return t('log.wheel.tax', { seg, who, n, knights: t('log.n.knight', { n: k }), pennants: t('unit.pennant', { n: e.pennants }) });
    case 'famine':
      return t('log.wheel.famine', { seg, who, n, farmers: t('log.n.farmer', { n: k }), cities: t('log.n.completedCity', { n: e.cities }) });
    case 'storm':
      return t('log.wheel.storm', { seg, who, n, followers: t('log.n.follower', { n: e.points }) });
    case 'inquisition':
      return t('log.wheel.inquisition', { seg, who, n, monks: t('log.n.monk', { n: k }) });
    case 'crown': {
      const head = segment ? t('log.crownOn', { seg: segmentLabel(segment) }) : t('log.crown');
      const occupants = (e.followers || []).reduce((a, c) => a + c, 0);
      if (occupants > 1) return t('log.crown.shared', { head, who, k: occupants, n });
      return t(e.points === 6 ? 'log.crown.both' : 'log.crown.one', { head, who, n });
    }
    default:
      return t('log.wheel.other', { seg, who, points: points(e.points) });
  }
}

/** The pig's move, and a line for an action nobody scores from, so the log explains the silence. */
function pigLines(e, events, i, name) {
  const out = [logLine({ kind: 'wheel', seat: e.seat, segment: e.segment }, () => t('log.pig', {
    name: name(e.seat), steps: t('log.n.segment', { n: e.steps }), seg: segmentLabel(e.segment), effect: segmentEffect(e.segment) }))];
  const until = events.findIndex((x, j) => j > i && (x.type === 'TileDrawn' || x.type === 'PigMoved'));
  const after = events.slice(i + 1, until < 0 ? events.length : until);
  if (NOBODY.includes(e.segment) && !after.some((x) => x.type === 'PointsScored' && x.category === e.segment)) {
    out.push(logLine({ kind: 'info' }, () => t('log.nobodyScores', { seg: segmentLabel(e.segment), why: t(`log.why.${e.segment}`) })));
  }
  return out;
}

/**
 * The log lines of engine event ``e`` when it is the Wheel's (else null): ``ctx`` as the
 * registry's ``logLines`` hook gives it (``index.js``).
 */
export function logLines(e, { events, i, name, auto }) {
  switch (e.type) {
    case 'PigMoved':
      return pigLines(e, events, i, name);
    case 'CrownPlaced':
      return [deployedLine(e, (withTile) => t(withTile ? 'log.turn.crown' : 'log.crownPlaced',
        { name: name(e.seat), seg: segmentLabel(e.segment) }))];
    case 'CrownReturned':
      return [];
    case 'PointsScored': {
      if (!CATEGORIES.includes(e.category)) return null;
      // One line per player: the formula with that player's numbers.
      let segment = null;
      if (e.category === 'crown') {
        const back = events.slice(i + 1).find((x) => x.type === 'CrownReturned' && x.seat === e.seat);
        segment = back ? back.segment : null;
      }
      return [logLine({ kind: 'score', seat: e.seat, seats: [e.seat], points: e.points, wheel: e.category },
        () => wheelSentence(e, name(e.seat), segment))];
    }
    case 'FollowerReturned': {
      // First in its batch: a Plague decision (scoring returns followers after the points).
      if (i !== 0) return null;
      const role = roleKey(roleOfSpot(e.spot));
      return [logLine({ kind: 'move', seat: e.seat, tag: 'plague' },
        () => t(`log.plague.${role}`, { name: name(e.seat) }) + (auto ? ` ${t('log.byComputer')}` : ''))];
    }
    default:
      return null;
  }
}

/** The wheel on the text board: the pig's segment, then each segment's crowns and how many are taken. */
export function textBoardLines(s) {
  const w = s.wheel;
  if (!w || !w.segments) return [];
  // The view names the pig's segment (an index in older views).
  const pig = typeof w.pig === 'number' ? (w.segments[w.pig] || {}).name : w.pig;
  const lines = [t('tb.pig', { seg: segmentLabel(pig || '') })];
  for (const seg of w.segments) {
    if (!seg.crowns) continue;
    const taken = (seg.occupants || []).filter((o) => o !== null && o !== undefined).length;
    lines.push(t('tb.crowns', { seg: segmentLabel(seg.name), n: seg.crowns, taken }));
  }
  return lines.map((line) => h('p.tb-wheel', line));
}

/** A crown space in words ("crown on Tax"), else null. */
export function spotWords(spot) {
  const [kind, segment] = spot.split(':');
  return kind === 'crown' ? t('tb.crown', { seg: segmentLabel(segment) }) : null;
}
