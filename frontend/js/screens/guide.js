/**
 * The tile guide: every tile type of the catalogue, drawn by the client, with how many copies
 * the set holds and what it shows. Also a self-check: the art must separate exactly the fields
 * the catalogue lists (`checkFields`); mismatches are listed at the bottom.
 */

import { h } from '../dom.js';
import { allTileTypes, tileSvg, checkFields } from '../tiles.js';

function describeTile(t) {
  const parts = [];
  const n = (kind) => t.segs.filter((s) => s.kind === kind).length;
  const cities = t.segs.filter((s) => s.kind === 'city');
  if (cities.length) parts.push(cities.length === 1 ? 'a city' : `${cities.length} cities`);
  if (n('road')) parts.push(n('road') === 1 ? 'a road' : `${n('road')} roads`);
  if (n('cloister')) parts.push('a cloister');
  if (n('river')) parts.push('the river');
  const pennants = cities.reduce((a, c) => a + c.pennants, 0);
  if (pennants) parts.push(`${pennants} pennant${pennants > 1 ? 's' : ''}`);
  parts.push(`${n('field')} field${n('field') === 1 ? '' : 's'}`);
  return parts.join(', ');
}

export function mount(root) {
  const groups = [
    // Ids with a dash are the Wheel of Fortune's shapes from other expansions (IC-CCC, KS-RC…).
    ['Base game', allTileTypes().filter((t) => !t.river && !t.icon && t.count > 0 && !t.id.includes('-'))],
    ['The River', allTileTypes().filter((t) => t.river)],
    ['Wheel of Fortune: other expansions\' designs', allTileTypes().filter((t) => !t.icon && t.count > 0 && t.id.includes('-'))],
    ['Wheel of Fortune icons', allTileTypes().filter((t) => t.icon)],
  ].filter(([, list]) => list.length);
  const problems = checkFields();
  root.appendChild(h('section.guide', {},
    h('h1', 'Tile guide'),
    h('p.lead', 'Every tile, drawn from the rules engine\'s catalogue. Cities have walls, pennants are blue shields, the river is blue, crossroads have a house.'),
    groups.map(([title, list]) => h('div', {},
      h('h2', title),
      h('div.guide-grid', {}, list.map((t) => h('figure.guide-tile', { dataset: { tile: t.id } },
        tileSvg(t.id, 0, 104),
        h('figcaption', {}, h('b', t.id), h('span', ` ×${t.count}`), h('small', describeTile(t)))))))),
    h('p.help#guide-check', { dataset: { problems: Object.keys(problems).length } },
      Object.keys(problems).length
        ? `Art check: ${JSON.stringify(problems)}`
        : 'Art check: every tile separates its fields exactly as the catalogue says.')));
  return null;
}
