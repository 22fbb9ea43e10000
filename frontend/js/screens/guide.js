/**
 * The tile guide: every tile type of the catalogue, drawn by the client, with how many copies
 * the set holds and what it shows. Also a self-check: the art must separate exactly the fields
 * the catalogue lists (`checkFields`); mismatches are listed at the bottom.
 */

import { h } from '../dom.js';
import { t as tr } from '../i18n.js';
import { allTileTypes, tileSvg, checkFields } from '../board/tiles.js';
import { withHook } from '../expansions/index.js';

function describeTile(t) {
  const parts = [];
  const n = (kind) => t.segs.filter((s) => s.kind === kind).length;
  const cities = t.segs.filter((s) => s.kind === 'city');
  if (cities.length) parts.push(tr('guide.cities', { n: cities.length }));
  if (n('road')) parts.push(tr('guide.roads', { n: n('road') }));
  if (n('cloister')) parts.push(tr('guide.cloister'));
  for (const x of withHook('guideWords')) {
    const words = x.guideWords(t);
    if (words) parts.push(words);
  }
  const pennants = cities.reduce((a, c) => a + c.pennants, 0);
  if (pennants) parts.push(tr('guide.pennants', { n: pennants }));
  parts.push(tr('guide.fields', { n: n('field') }));
  return parts.join(', ');
}

export function mount(root) {
  // The expansions' groups (``guideGroups``); the base game's: the tiles in play none of them has.
  const own = withHook('guideGroups').flatMap((x) => x.guideGroups);
  const groups = [
    [tr('guide.base'), allTileTypes().filter((t) => t.count > 0 && !own.some((g) => g.has(t)))],
    ...own.map((g) => [tr(g.title), allTileTypes().filter(g.has)]),
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
