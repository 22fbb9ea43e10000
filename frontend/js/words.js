/**
 * Engine events in words for the match log ("Ann completed a city: 4 tiles, 1 pennant —
 * 10 points"). Input: the engine's event JSON (app/engine/events.py) and the seat names.
 * Consecutive PointsScored events for one shared feature are told as one sentence.
 *
 * Every sentence comes from the message catalogue (i18n/<lang>/log.js). A log line is a
 * structured entry (kind, seat, cells, …) whose ``text`` is built when it is read, in the
 * language of that moment: a log kept across a language switch shows the new language.
 *
 * The base game's events only: an expansion words its own (its ``logLines`` hook, asked first
 * through ``./expansions/index.js``); this module names no expansion.
 */

import { t } from './i18n.js';
import { wordEvent } from './expansions/index.js';
import { ROLE_OF_KIND, roleName } from './board/pieces.js';

/** The catalogue's word for ``role`` in the log's sentences (``log.*.<role>``): a base role, else "follower". */
export const roleKey = (role) => (Object.values(ROLE_OF_KIND).includes(role) ? role : 'follower');

/** "Ann", "Ann and Ben", "Ann, Ben and Cy" in the current language ("Nobody" for none). */
export function joinNames(names) {
  if (names.length <= 1) return names[0] || t('log.nobody');
  return `${names.slice(0, -1).join(', ')} ${t('log.and')} ${names[names.length - 1]}`;
}

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

function sameFeature(a, b) {
  return a.type === 'PointsScored' && b.type === 'PointsScored' && a.category === b.category &&
    a.final === b.final && a.points === b.points && JSON.stringify(a.tiles) === JSON.stringify(b.tiles);
}

/**
 * The line of a piece deployed by ``e`` (a FollowerPlaced, or an expansion's like it): ``say(false)``
 * is its own sentence, ``say(true)`` the one it makes with the tile placed before it (``joinTurn``).
 */
export function deployedLine(e, say) {
  const line = logLine({ kind: 'move', seat: e.seat, tag: 'deployed', cells: e.at ? [e.at] : undefined }, () => say(false));
  Object.defineProperty(line, 'sayTurn', { value: () => say(true), enumerable: false });
  return line;
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
 * Log lines for one batch of events (one action's): ``[{text, kind, seat}]`` where kind is
 * ``move``, ``score``, ``end``, ``info`` or an expansion's own. ``names``: seat → display name;
 * ``auto``: the batch had no client action id though its seat is a person's (the server decided
 * for them when their time ran out); ``model``: the match, whose active expansions word their
 * events (null, as in a replay: every registered expansion words its own).
 * ``text`` is a getter: the words are made in the language current when it is read.
 */
export function describe(events, names, { auto = false, model = null } = {}) {
  const out = [];
  const name = (seat) => names[seat] || t('log.seat', { n: seat + 1 });
  for (let i = 0; i < events.length; i += 1) {
    const e = events[i];
    const theirs = wordEvent(e, { events, i, name, auto }, model);
    if (theirs) {
      out.push(...theirs);
      continue;
    }
    switch (e.type) {
      case 'TilePlaced':
        out.push(logLine({ kind: 'move', seat: e.seat, tag: 'placed', cells: [e.at] }, () => t('log.placed', { name: name(e.seat) })));
        break;
      case 'FollowerPlaced':
        out.push(deployedLine(e, (withTile) => t(`${withTile ? 'log.turn' : 'log.deployed'}.${roleKey(e.role)}`,
          { name: name(e.seat), spot: e.spot })));
        break;
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
      case 'FollowerReturned': // scoring returns followers after the points: its line says enough
      case 'TileDrawn':
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

/** A follower's role as a noun ("Knight", "Crown"): the base game's or an expansion's, else "Follower". */
export function roleLabel(role) {
  return roleName(role) ?? t('role.follower');
}
