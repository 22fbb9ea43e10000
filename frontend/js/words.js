/**
 * Engine events in words for the match log ("Ann completed a city: 4 tiles, 1 pennant —
 * 10 points"). Input: the engine's event JSON (app/engine/events.py) and the seat names.
 * Consecutive PointsScored events for one shared feature are told as one sentence.
 */

import { ROLE_LABEL, roleOfSpot } from './pieces.js';
import { segmentLabel, segmentEffect } from './wheel.js';

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function joinNames(names) {
  if (names.length <= 1) return names[0] || 'Nobody';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

const ARTICLE = { knight: 'a knight', thief: 'a thief', monk: 'a monk', farmer: 'a farmer' };
const WHEEL_CATEGORIES = ['fortune', 'tax', 'famine', 'storm', 'inquisition', 'crown'];
/** What a wheel action pays for, when nobody scores ("nobody has a knight in a city"). */
const NOBODY = {
  fortune: 'no points', tax: 'nobody has a knight in a city', famine: 'no farmer supplies a completed city',
  storm: 'nobody has a follower in supply', inquisition: 'nobody has a monk',
};
const WHERE = { knight: 'in a city', thief: 'on a road', monk: 'in a cloister', farmer: 'in a field' };

/** The facts of one scoring ("4 tiles, 1 pennant"). */
export function scoringDetail(e) {
  const parts = [];
  if (e.category === 'farm') {
    if (e.cities) parts.push(`${plural(e.cities, 'completed city', 'completed cities')}`);
  } else if (e.category === 'cloister') {
    parts.push(plural(e.tiles.length, 'tile'));
  } else {
    parts.push(plural(e.tiles.length, 'tile'));
    if (e.pennants) parts.push(plural(e.pennants, 'pennant'));
  }
  return parts.join(', ');
}

/** "Ann completed a city: 4 tiles, 1 pennant — 10 points" for a group of PointsScored. */
export function scoringSentence(group, names) {
  const e = group[0];
  const who = joinNames(group.map((g) => names[g.seat] || `Seat ${g.seat + 1}`));
  const each = group.length > 1 ? ' each' : '';
  const pts = `${plural(e.points, 'point')}${each}`;
  const detail = scoringDetail(e);
  if (!['road', 'city', 'cloister', 'farm'].includes(e.category)) {
    // Categories of expansions this client does not know in detail.
    const what = e.category[0].toUpperCase() + e.category.slice(1);
    return `${what}: ${who} scores ${pts}${e.rule ? ` (${e.rule})` : ''}`;
  }
  if (e.category === 'farm') {
    if (e.rule && e.rule.startsWith('original')) {
      return `Final scoring: ${who}'s farmers supply a completed city — ${pts}`;
    }
    return `Final scoring: ${who}'s farm supplies ${detail || 'no completed city'} — ${pts}`;
  }
  if (e.final) {
    const what = e.category === 'cloister' ? 'cloister' : e.category;
    return `Final scoring: ${who}'s incomplete ${what}${detail ? `: ${detail}` : ''} — ${pts}`;
  }
  if (e.category === 'cloister') return `${who} completed a cloister — ${pts}`;
  const rule = e.rule && e.rule.includes('two-tile') ? ' (first edition: small city)' : '';
  return `${who} completed a ${e.category}: ${detail} — ${pts}${rule}`;
}

/**
 * A Wheel of Fortune scoring as its formula, for one player ("Tax: Ann 2 knights × (1 pennant
 * + 2 knights) = 6"). ``segment``: for crown scoring, the segment whose crowns scored.
 */
export function wheelSentence(e, who, segment) {
  const k = (e.followers || [])[e.seat] || 0;
  switch (e.category) {
    case 'fortune':
      return `Fortune: ${who} moved the pig = ${e.points}`;
    case 'tax':
      return `Tax: ${who} ${plural(k, 'knight')} × (${plural(e.pennants, 'pennant')} + ${plural(k, 'knight')}) = ${e.points}`;
    case 'famine':
      return `Famine: ${who} ${plural(k, 'farmer')} × ${plural(e.cities, 'completed city', 'completed cities')} = ${e.points}`;
    case 'storm':
      return `Storm: ${who} ${plural(e.points, 'follower')} in supply × 1 = ${e.points}`;
    case 'inquisition':
      return `Inquisition: ${who} ${plural(k, 'monk')} × 2 = ${e.points}`;
    case 'crown': {
      const where = segment ? ` on ${segmentLabel(segment)}` : '';
      const occupants = (e.followers || []).reduce((a, n) => a + n, 0);
      let how;
      if (occupants > 1) how = `shares the ${occupants} crown spaces = ${e.points}`;
      else if (e.points === 6) how = 'alone on both crown spaces = 6';
      else how = `alone on its crown space = ${e.points}`;
      return `Crown${where}: ${who} ${how}`;
    }
    default:
      return `${segmentLabel(e.category)}: ${who} scores ${plural(e.points, 'point')}`;
  }
}

function sameFeature(a, b) {
  return a.type === 'PointsScored' && b.type === 'PointsScored' && a.category === b.category &&
    a.final === b.final && a.points === b.points && JSON.stringify(a.tiles) === JSON.stringify(b.tiles);
}

/**
 * Log lines for one batch of events (one action's: a batch that starts with FollowerReturned is
 * a Plague decision): ``[{text, kind, seat}]`` where kind is ``move``, ``score``, ``wheel``,
 * ``end`` or ``info``. ``names``: seat → display name; ``auto``: the batch had no client action
 * id though its seat is a person's (the server decided for them when their time ran out).
 */
export function describe(events, names, { auto = false } = {}) {
  const out = [];
  const name = (seat) => names[seat] || `Seat ${seat + 1}`;
  for (let i = 0; i < events.length; i += 1) {
    const e = events[i];
    switch (e.type) {
      case 'TilePlaced':
        out.push({ kind: 'move', seat: e.seat, tag: 'placed', cells: [e.at], text: `${name(e.seat)} placed a tile` });
        break;
      case 'FollowerPlaced':
      {
        const rest = `deployed ${ARTICLE[e.role] || 'a follower'} ${WHERE[e.role] || `on ${e.spot}`}`;
        out.push({ kind: 'move', seat: e.seat, tag: 'deployed', cells: e.at ? [e.at] : undefined, rest, text: `${name(e.seat)} ${rest}` });
      }
        break;
      case 'TileDiscarded':
        out.push({ kind: 'info', seat: e.seat, text: `Tile ${e.tile} fits nowhere — discarded, ${name(e.seat)} draws again` });
        break;
      case 'FeatureCompleted':
        if (!e.followers || e.followers.every((n) => n === 0)) {
          const size = e.kind === 'cloister' ? '' : `: ${plural(e.tiles.length, 'tile')}`;
          out.push({ kind: 'info', cells: e.tiles, text: `A ${e.kind} was completed${size} — nobody had a follower there` });
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
          out.push({ kind: 'score', seat: e.seat, seats: [e.seat], points: e.points, wheel: e.category,
            text: wheelSentence(e, name(e.seat), segment) });
          break;
        }
        const group = [e];
        while (i + 1 < events.length && sameFeature(e, events[i + 1])) {
          group.push(events[i + 1]);
          i += 1;
        }
        out.push({ kind: 'score', seat: e.seat, seats: group.map((g) => g.seat), points: e.points, cells: e.tiles,
          text: scoringSentence(group, names) });
        break;
      }
      case 'GameEnded': {
        const winners = e.winners.map(name);
        const top = e.winners.length ? e.scores[e.winners[0]] : 0;
        out.push({ kind: 'end', text: winners.length > 1
          ? `Game over — ${joinNames(winners)} share the win with ${top} points`
          : `Game over — ${winners[0]} wins with ${top} points` });
        break;
      }
      case 'PigMoved': {
        out.push({ kind: 'wheel', seat: e.seat, segment: e.segment,
          text: `${name(e.seat)} drew a wheel tile: the pig moves ${plural(e.steps, 'segment')} to ${segmentLabel(e.segment)} — ${segmentEffect(e.segment)}` });
        // An action nobody scores from still gets a line, so the log explains the silence.
        const until = events.findIndex((x, j) => j > i && (x.type === 'TileDrawn' || x.type === 'PigMoved'));
        const after = events.slice(i + 1, until < 0 ? events.length : until);
        if (NOBODY[e.segment] && !after.some((x) => x.type === 'PointsScored' && x.category === e.segment)) {
          out.push({ kind: 'info', text: `${segmentLabel(e.segment)}: ${NOBODY[e.segment]} — nobody scores` });
        }
        break;
      }
      case 'CrownPlaced':
        out.push({ kind: 'move', seat: e.seat, tag: 'deployed', rest: `put a follower on a crown space of ${segmentLabel(e.segment)}`,
          text: `${name(e.seat)} put a follower on a crown space of ${segmentLabel(e.segment)}` });
        break;
      case 'FollowerReturned':
        // First in its batch: a Plague decision (scoring returns followers after the points).
        if (i === 0) {
          const role = roleOfSpot(e.spot);
          out.push({ kind: 'move', seat: e.seat, tag: 'plague',
            text: `Plague: ${name(e.seat)} took back ${ARTICLE[role] || 'a follower'} ${WHERE[role] || ''}`.trim() +
              (auto ? ' (played by the computer)' : '') });
        }
        break;
      case 'TileDrawn':
      case 'CrownReturned':
      case 'TurnEnded':
        break;
      default: {
        // Events of expansions this client does not know in detail yet.
        const words = e.type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
        out.push({ kind: 'info', seat: e.seat, text: e.seat !== undefined ? `${name(e.seat)}: ${words}` : words });
      }
    }
  }
  return out;
}

export function roleLabel(role) {
  return ROLE_LABEL[role] || 'Follower';
}
