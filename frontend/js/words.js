/**
 * Engine events in words for the match log ("Ann completed a city: 4 tiles, 1 pennant —
 * 10 points"). Input: the engine's event JSON (app/engine/events.py) and the seat names.
 * Consecutive PointsScored events for one shared feature are told as one sentence.
 *
 * Every sentence comes from the message catalogue (i18n/<lang>/log.js). A log line is a
 * structured entry (kind, seat, cells, …) whose ``text`` is built when it is read, in the
 * language of that moment: a log kept across a language switch shows the new language.
 */

import { t } from './i18n.js';
import { roleOfSpot } from './board/pieces.js';
import { segmentLabel, segmentEffect } from './expansions/wheelView.js';

const ROLES = ['knight', 'thief', 'monk', 'farmer'];
const roleKey = (role) => (ROLES.includes(role) ? role : 'follower');

/** "Ann", "Ann and Ben", "Ann, Ben and Cy" in the current language ("Nobody" for none). */
export function joinNames(names) {
  if (names.length <= 1) return names[0] || t('log.nobody');
  return `${names.slice(0, -1).join(', ')} ${t('log.and')} ${names[names.length - 1]}`;
}

const WHEEL_CATEGORIES = ['fortune', 'tax', 'famine', 'storm', 'inquisition', 'crown'];
/** Wheel actions that may score nobody: the log says why ("nobody has a knight in a city"). */
const NOBODY = ['fortune', 'tax', 'famine', 'storm', 'inquisition'];

const points = (n) => t('unit.point', { n });

/** A log line: ``fields`` plus a ``text`` getter that builds its words in the current language. */
export function logLine(fields, say) {
  const line = { ...fields };
  Object.defineProperty(line, 'text', { get: say, enumerable: true, configurable: true });
  Object.defineProperty(line, 'say', { value: say, enumerable: false, configurable: true });
  return line;
}

/** A placeholder for a node inside a catalogue sentence (see ``around``). */
export const MARK = '\u2063';

/** ``text`` (with one ``MARK``) as ``[before, node, after]``: a node inside a sentence of any language. */
export function around(text, node) {
  const at = text.indexOf(MARK);
  return at < 0 ? [text, ' ', node] : [text.slice(0, at), node, text.slice(at + MARK.length)];
}

/** The facts of one scoring ("4 tiles, 1 pennant"). */
export function scoringDetail(e) {
  const parts = [];
  if (e.category === 'farm') {
    if (e.cities) parts.push(t('log.n.completedCity', { n: e.cities }));
  } else {
    parts.push(t('unit.tile', { n: (e.tiles || []).length }));
    if (e.category !== 'cloister' && e.pennants) parts.push(t('unit.pennant', { n: e.pennants }));
  }
  return parts.join(', ');
}

/** "Ann completed a city: 4 tiles, 1 pennant — 10 points" for a group of PointsScored. */
export function scoringSentence(group, names) {
  const e = group[0];
  const n = group.length;
  const who = joinNames(group.map((g) => names[g.seat] || t('log.seat', { n: g.seat + 1 })));
  const pts = points(e.points);
  const detail = scoringDetail(e);
  if (!['road', 'city', 'cloister', 'farm'].includes(e.category)) {
    // Categories of expansions this client does not know in detail.
    const what = e.category[0].toUpperCase() + e.category.slice(1);
    return t('log.otherScore', { n, what, who, points: pts }) + (e.rule ? ` (${e.rule})` : '');
  }
  if (e.category === 'farm') {
    if (e.rule && e.rule.startsWith('original')) return t('log.farmOriginal', { n, who, points: pts });
    return t('log.farm', { n, who, points: pts, cities: detail || t('log.noCompletedCity') });
  }
  if (e.final) return t(`log.final.${e.category}`, { n, who, detail, points: pts });
  const small = e.category === 'city' && e.rule && e.rule.includes('two-tile') ? ` ${t('log.smallCity')}` : '';
  return t(`log.done.${e.category}`, { n, who, detail, points: pts }) + small;
}

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

function sameFeature(a, b) {
  return a.type === 'PointsScored' && b.type === 'PointsScored' && a.category === b.category &&
    a.final === b.final && a.points === b.points && JSON.stringify(a.tiles) === JSON.stringify(b.tiles);
}

/** What a FollowerPlaced or CrownPlaced line says (without and with the tile placed before it). */
function deploySay(e, nameOf, withTile) {
  const kind = withTile ? 'log.turn' : 'log.deployed';
  if (e.type === 'CrownPlaced') {
    return () => t(withTile ? 'log.turn.crown' : 'log.crownPlaced', { name: nameOf(e.seat), seg: segmentLabel(e.segment) });
  }
  return () => t(`${kind}.${roleKey(e.role)}`, { name: nameOf(e.seat), spot: e.spot });
}

/**
 * One log line for a player's turn: the tile placed (line ``placed``) and the follower deployed
 * just after (line ``deployed``), "Ann placed a tile and deployed a knight in a city".
 */
export function joinTurn(placed, deployed) {
  const { text: _text, ...fields } = placed;
  return logLine({ ...fields, tag: 'turn', computer: placed.computer || deployed.computer }, deployed.sayTurn);
}

/**
 * Log lines for one batch of events (one action's: a batch that starts with FollowerReturned is
 * a Plague decision): ``[{text, kind, seat}]`` where kind is ``move``, ``score``, ``wheel``,
 * ``end`` or ``info``. ``names``: seat → display name; ``auto``: the batch had no client action
 * id though its seat is a person's (the server decided for them when their time ran out).
 * ``text`` is a getter: the words are made in the language current when it is read.
 */
export function describe(events, names, { auto = false } = {}) {
  const out = [];
  const name = (seat) => names[seat] || t('log.seat', { n: seat + 1 });
  for (let i = 0; i < events.length; i += 1) {
    const e = events[i];
    switch (e.type) {
      case 'TilePlaced':
        out.push(logLine({ kind: 'move', seat: e.seat, tag: 'placed', cells: [e.at] }, () => t('log.placed', { name: name(e.seat) })));
        break;
      case 'FollowerPlaced':
      case 'CrownPlaced': {
        const line = logLine({ kind: 'move', seat: e.seat, tag: 'deployed', cells: e.at ? [e.at] : undefined }, deploySay(e, name, false));
        Object.defineProperty(line, 'sayTurn', { value: deploySay(e, name, true), enumerable: false });
        out.push(line);
        break;
      }
      case 'TileDiscarded':
        out.push(logLine({ kind: 'info', seat: e.seat }, () => t('log.discarded', { tile: e.tile, name: name(e.seat) })));
        break;
      case 'FeatureCompleted':
        if (!e.followers || e.followers.every((n) => n === 0)) {
          const key = ['city', 'road', 'cloister'].includes(e.kind) ? `log.emptyDone.${e.kind}` : 'log.emptyDone.other';
          out.push(logLine({ kind: 'info', cells: e.tiles }, () => t(key, { n: e.tiles.length, what: e.kind })));
        }
        break;
      case 'PointsScored': {
        if (WHEEL_CATEGORIES.includes(e.category)) {
          // One line per player: the formula with that player's numbers.
          let segment = null;
          if (e.category === 'crown') {
            const back = events.slice(i + 1).find((x) => x.type === 'CrownReturned' && x.seat === e.seat);
            segment = back ? back.segment : null;
          }
          out.push(logLine({ kind: 'score', seat: e.seat, seats: [e.seat], points: e.points, wheel: e.category },
            () => wheelSentence(e, name(e.seat), segment)));
          break;
        }
        const group = [e];
        while (i + 1 < events.length && sameFeature(e, events[i + 1])) {
          group.push(events[i + 1]);
          i += 1;
        }
        out.push(logLine({ kind: 'score', seat: e.seat, seats: group.map((g) => g.seat), points: e.points, cells: e.tiles,
          final: !!e.final }, () => scoringSentence(group, names)));
        break;
      }
      case 'GameEnded': {
        const top = e.winners.length ? e.scores[e.winners[0]] : 0;
        out.push(logLine({ kind: 'end' }, () => (e.winners.length > 1
          ? t('log.gameOverShared', { names: joinNames(e.winners.map(name)), n: top })
          : t('log.gameOver', { name: e.winners.length ? name(e.winners[0]) : t('log.nobody'), n: top }))));
        break;
      }
      case 'PigMoved': {
        out.push(logLine({ kind: 'wheel', seat: e.seat, segment: e.segment }, () => t('log.pig', {
          name: name(e.seat), steps: t('log.n.segment', { n: e.steps }), seg: segmentLabel(e.segment), effect: segmentEffect(e.segment) })));
        // An action nobody scores from still gets a line, so the log explains the silence.
        const until = events.findIndex((x, j) => j > i && (x.type === 'TileDrawn' || x.type === 'PigMoved'));
        const after = events.slice(i + 1, until < 0 ? events.length : until);
        if (NOBODY.includes(e.segment) && !after.some((x) => x.type === 'PointsScored' && x.category === e.segment)) {
          out.push(logLine({ kind: 'info' }, () => t('log.nobodyScores', { seg: segmentLabel(e.segment), why: t(`log.why.${e.segment}`) })));
        }
        break;
      }
      case 'FollowerReturned':
        // First in its batch: a Plague decision (scoring returns followers after the points).
        if (i === 0) {
          const role = roleKey(roleOfSpot(e.spot));
          out.push(logLine({ kind: 'move', seat: e.seat, tag: 'plague' },
            () => t(`log.plague.${role}`, { name: name(e.seat) }) + (auto ? ` ${t('log.byComputer')}` : '')));
        }
        break;
      case 'TileDrawn':
      case 'CrownReturned':
      case 'TurnEnded':
        break;
      default: {
        // Events of expansions this client does not know in detail yet.
        const words = e.type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
        out.push(logLine({ kind: 'info', seat: e.seat }, () => (e.seat !== undefined ? t('log.unknown', { name: name(e.seat), what: words }) : words)));
      }
    }
  }
  return out;
}

export function roleLabel(role) {
  return t(`role.${roleKey(role)}`);
}
