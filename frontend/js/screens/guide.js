/**
 * The tile guide: every tile type of the catalogue, drawn by the client, with how many copies
 * the set holds and what it shows. Also a self-check: the art must separate exactly the fields
 * the catalogue lists (`checkFields`); mismatches are listed at the bottom.
 */

import { h } from '../dom.js';
import { t as tr } from '../i18n.js';
import { allTileTypes, tileSvg, checkFields } from '../board/tiles.js';

function describeTile(t) {
  const parts = [];
  const n = (kind) => t.segs.filter((s) => s.kind === kind).length;
  const cities = t.segs.filter((s) => s.kind === 'city');
  if (cities.length) parts.push(tr('guide.cities', { n: cities.length }));
  if (n('road')) parts.push(tr('guide.roads', { n: n('road') }));
  if (n('cloister')) parts.push(tr('guide.cloister'));
  if (n('river')) parts.push(tr('guide.river'));
  const pennants = cities.reduce((a, c) => a + c.pennants, 0);
  if (pennants) parts.push(tr('guide.pennants', { n: pennants }));
  parts.push(tr('guide.fields', { n: n('field') }));
  return parts.join(', ');
}

export function mount(root) {
  const groups = [
    // Ids with a dash are the Wheel of Fortune's shapes from other expansions (IC-CCC, KS-RC…).
    [tr('guide.base'), allTileTypes().filter((t) => !t.river && !t.icon && t.count > 0 && !t.id.includes('-'))],
    [tr('guide.theRiver'), allTileTypes().filter((t) => t.river)],
    [tr('guide.wofShapes'), allTileTypes().filter((t) => !t.icon && t.count > 0 && t.id.includes('-'))],
    [tr('guide.wofIcons'), allTileTypes().filter((t) => t.icon)],
  ].filter(([, list]) => list.length);
  const problems = checkFields();
  root.appendChild(h('section.guide', {},
    h('h1', tr('guide.title')),
    h('p.lead', tr('guide.lead')),
    groups.map(([title, list]) => h('div', {},
      h('h2', title),
      h('div.guide-grid', {}, list.map((t) => h('figure.guide-tile', { dataset: { tile: t.id } },
        tileSvg(t.id, 0, 104),
        h('figcaption', {}, h('b', t.id),
          h('span', { title: tr('guide.copies', { n: t.count }) }, ` ×${t.count}`), h('small', describeTile(t)))))))),
    h('p.help#guide-check', { dataset: { problems: Object.keys(problems).length } },
      Object.keys(problems).length
        ? tr('guide.checkBad', { problems: JSON.stringify(problems) })
        : tr('guide.checkOk'))));
  return null;
}
