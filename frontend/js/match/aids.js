/**
 * Player aids on the match screen, as the table's aid policy (``match.aids``) grants them to
 * this viewer (a player, or a spectator: the host may give spectators more):
 *
 * - ``legal_placements``: the legal cells glow (without it the cells still take a click);
 * - ``remaining_tiles``: a table in the side panel of every tile design still to come, with
 *   its count, grouped (cloisters, cities, roads, river) — from the view's public counts;
 * - ``impossible_holes`` / ``projected_scores`` / ``feature_highlight``: computed by the server
 *   for the current position, asked with an ``aids`` frame after each new version and
 *   answered on this socket only (docs/API.md § Aids); holes are marked on the board,
 *   projected scores stand beside the real ones, hovering a follower or any segment of a
 *   placed tile outlines its whole feature (occupied or not), its owners and its value.
 *
 * Reads ``m.model``; keeps the last answer in ``m.ui.aids``.
 */

import { h, clear } from '../dom.js';
import { tileSvg, tileType } from '../board/tiles.js';
import { t } from '../i18n.js';
import { withHook } from '../expansions/index.js';

const COMPUTED = ['impossible_holes', 'projected_scores', 'feature_highlight'];

/** The aids this viewer gets (a Set of names; empty for a match without a policy). */
export function granted(m) {
  const policy = (m.model.match && m.model.match.aids) || { players: [], spectators: [] };
  return new Set(m.model.you() === null ? policy.spectators : policy.players);
}

/** Ask the server for the computed aids of the current version (once per version). */
export function askAids(m) {
  const mine = granted(m);
  if (!COMPUTED.some((a) => mine.has(a)) || !m.socket || !m.model.match) return;
  if (m.ui.aidsAsked === m.model.version) return;
  if (m.socket.send({ t: 'aids' }) !== false) m.ui.aidsAsked = m.model.version;
}

/** An ``aids`` frame: keep it when it is about the version shown, and draw it. */
export function onAids(m, msg) {
  if (msg.v !== m.model.version) {
    if (msg.v < m.model.version) m.ui.aidsAsked = null; // an older position's: ask again
    if (m.ui.aidsAsked === null) askAids(m);
    return;
  }
  m.ui.aids = { v: msg.v, ...(msg.d || {}) };
  drawAids(m);
  m.hooks.renderPlayers();
}

/** The computed aids for the version shown, or null. */
export function currentAids(m) {
  return m.ui.aids && m.ui.aids.v === m.model.version ? m.ui.aids : null;
}

/** Holes on the board and the feature outlines' data, from the last answer. */
export function drawAids(m) {
  const mine = granted(m);
  m.board.svg.classList.toggle('no-legal-glow', !mine.has('legal_placements'));
  const aids = currentAids(m);
  m.board.setHoles(mine.has('impossible_holes') && aids ? aids.impossible_holes || [] : []);
  m.board.setFeatures(mine.has('feature_highlight') && aids ? aids.features || [] : [], m.model.colours());
}

/** The projected score of ``seat`` (null: not granted or not known yet). */
export function projectedScore(m, seat) {
  const aids = currentAids(m);
  if (!granted(m).has('projected_scores') || !aids || !aids.projected_scores) return null;
  return aids.projected_scores[seat] ?? null;
}

function groupOf(id) {
  const ty = tileType(id);
  if (!ty) return 'other';
  const kinds = new Set(ty.segments.map((s) => s.kind));
  const own = tileGroups().find((g) => kinds.has(g));
  if (own) return own;
  if (kinds.has('cloister')) return 'cloister';
  if (kinds.has('city')) return 'city';
  if (kinds.has('road')) return 'road';
  return 'other';
}

/**
 * The registered expansions' groups of the remaining tiles (``tileGroups``: segment kinds of their
 * own, worded ``aids.group.KIND``): a tile with such a segment is in its group.
 */
const tileGroups = () => withHook('tileGroups').flatMap((x) => x.tileGroups);

/** The remaining-tiles table for the side panel (null when not granted). */
export function remainingTable(m, s) {
  if (!granted(m).has('remaining_tiles')) return null;
  const entries = Object.entries(s.remaining || {}).filter(([, n]) => n > 0)
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
  const byGroup = new Map(['cloister', 'city', 'road', ...tileGroups(), 'other'].map((g) => [g, []]));
  for (const [id, n] of entries) byGroup.get(groupOf(id)).push([id, n]);
  const box = h('section.aid-remaining#remaining-table', { 'aria-label': t('aids.remainingTitle') },
    h('h2.aid-title', t('aids.remainingTitle')), h('small.help', t('aids.remainingCount', { n: s.tiles_remaining })));
  if (!entries.length) {
    box.appendChild(h('p.help', t('match.noTilesLeft')));
    return box;
  }
  for (const [group, items] of byGroup) {
    if (!items.length) continue;
    box.appendChild(h('div.aid-group', { dataset: { group } },
      h('h3', t(`aids.group.${group}`), ' ', h('small', `(${items.reduce((a, [, n]) => a + n, 0)})`)),
      h('ul.aid-tiles', {}, items.map(([id, n]) => h('li.aid-tile', { dataset: { tile: id, count: n }, title: `${id} ×${n}` },
        tileSvg(id, 0, 34), h('span', `×${n}`))))));
  }
  return box;
}

/** A short line naming the table's aid policy (the match header, the table card). */
export function policyLabel(policy) {
  if (!policy || policy.mode === 'off') return t('aids.label.off');
  if (policy.mode === 'learning') return t('aids.label.learning');
  return t('aids.label.custom', { n: new Set([...(policy.players || []), ...(policy.spectators || [])]).size });
}

/** The aid policy picker of the create screen: off / learning / custom (players, spectators). */
export function aidPolicyPicker(policy, onChange) {
  const node = h('div.aid-picker#aid-picker');
  const draw = () => {
    const modes = h('div.segmented', { role: 'radiogroup', 'aria-label': t('aids.policy') },
      ['off', 'learning', 'custom'].map((mode) => h('button.seg', { type: 'button', role: 'radio', id: `aids-${mode}`,
        'aria-checked': policy.mode === mode ? 'true' : 'false', class: policy.mode === mode ? 'checked' : '',
        onclick: () => { policy = { ...policy, mode }; onChange(policy); draw(); } }, t(`aids.mode.${mode}`))));
    const lists = policy.mode !== 'custom' ? null : h('div.aid-lists', {}, ['players', 'spectators'].map((who) => h('fieldset.aid-list', {},
      h('legend', t(`aids.for.${who}`)),
      ...['legal_placements', 'remaining_tiles', 'impossible_holes', 'projected_scores', 'feature_highlight'].map((aid) => {
        const on = (policy[who] || []).includes(aid);
        return h('label.check', {}, h('input', { type: 'checkbox', checked: on, dataset: { aid, who },
          onchange: (e) => {
            const set = new Set(policy[who] || []);
            if (e.target.checked) set.add(aid); else set.delete(aid);
            policy = { ...policy, [who]: [...set] };
            onChange(policy);
          } }), t(`aids.aid.${aid}`));
      }))));
    clear(node).append(modes, ...(lists ? [lists] : []), h('small.help', t(`aids.help.${policy.mode}`)));
  };
  draw();
  return { node, set: (p) => { policy = p; draw(); } };
}
