/**
 * A profile's statistics panel, drawn from ``GET /api/players/{id}/statistics`` (docs/API.md §
 * History and replays): key figures (average score, finished and left, longest road, biggest
 * city), a rating graph per preset (SVG by hand: a line of the rating after each rated match,
 * a preset switcher when there are several), the win rate by number of players, and the share
 * of points by feature. Colours come from the theme's CSS variables, so both themes read well.
 */

import { h } from '../../dom.js';
import { t } from '../../i18n.js';

const SVG = 'http://www.w3.org/2000/svg';
const FEATURES = ['road', 'city', 'cloister', 'farm', 'other'];
// Graph box in SVG units; the SVG scales to its container's width, so a phone gets a narrower
// box (its 12-unit labels then stay about 12 px on screen).
const narrow = () => window.innerWidth < 640;
const PAD = { left: 48, right: 14, top: 14, bottom: 30 };

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) if (c) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return node;
}

/** Rounded ticks covering ``[lo, hi]`` (3–5 of them). */
function ticks(lo, hi) {
  const span = Math.max(hi - lo, 10);
  const step = [10, 20, 25, 50, 100, 200, 250, 500].find((s) => span / s <= 4) || 1000;
  const out = [];
  for (let v = Math.floor(lo / step) * step; v <= hi + step / 2; v += step) out.push(v);
  return out;
}

/**
 * The SVG line of one preset's rating history ``[{at, rating}]``: x is the match number (0 =
 * before the first rated match), y the displayed rating. Each point carries a ``<title>`` with
 * its date and rating; the SVG's label says the first and last rating in words.
 */
export function ratingGraph(points, presetLabel) {
  const W = narrow() ? 340 : 640;
  const H = narrow() ? 180 : 220;
  const values = points.map((p) => p.rating);
  const marks = ticks(Math.min(...values), Math.max(...values));
  const lo = marks[0];
  const hi = marks[marks.length - 1] === lo ? lo + 10 : marks[marks.length - 1];
  const x = (i) => PAD.left + (points.length > 1 ? (i * (W - PAD.left - PAD.right)) / (points.length - 1) : (W - PAD.left - PAD.right) / 2);
  const y = (v) => PAD.top + ((hi - v) * (H - PAD.top - PAD.bottom)) / (hi - lo);
  const last = values[values.length - 1];
  const graph = svg('svg', {
    viewBox: `0 0 ${W} ${H}`, class: 'rating-graph', role: 'img',
    'aria-label': t('stats.graphLabel', { preset: presetLabel, from: values[0], to: last, n: points.length - 1 }),
  });
  for (const v of marks) {
    graph.appendChild(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: 'grid' }));
    graph.appendChild(svg('text', { x: PAD.left - 8, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, String(v)));
  }
  graph.appendChild(svg('text', { x: PAD.left, y: H - 8, class: 'axis' }, t('stats.start')));
  graph.appendChild(svg('text', { x: W - PAD.right, y: H - 8, 'text-anchor': 'end', class: 'axis' },
    t('stats.afterGames', { n: points.length - 1 })));
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  graph.appendChild(svg('path', { d: path, class: 'line' }));
  points.forEach((p, i) => {
    const when = p.at ? new Date(p.at).toLocaleDateString() : '';
    graph.appendChild(svg('circle', { cx: x(i), cy: y(p.rating), r: 4.5, class: 'dot' },
      svg('title', {}, `${p.rating}${when ? ` · ${when}` : ''}`)));
  });
  return graph;
}

function figure(id, value, label) {
  const shown = new Intl.NumberFormat(document.documentElement.lang || undefined).format(value);
  return h('div.panel.stat', { dataset: { stat: id } }, h('strong', shown), h('span', label));
}

function winRates(byPlayers) {
  const rows = Object.entries(byPlayers);
  if (!rows.length) return null;
  return h('div.stats-block#stats-win-rate', {},
    h('h3', t('stats.winRate')),
    ...rows.map(([n, r]) => {
      const pct = r.played ? Math.round((100 * r.won) / r.played) : 0;
      return h('div.bar-row', { dataset: { players: n } },
        h('span.bar-label', t('stats.players', { n: Number(n) })),
        h('span.bar', { role: 'presentation' }, h('span.bar-fill', { style: { width: `${pct}%` } })),
        h('span.bar-value', t('stats.wonOf', { won: r.won, n: r.played, pct })));
    }));
}

function pointShares(stats) {
  const total = FEATURES.reduce((sum, f) => sum + stats.points[f], 0);
  if (!total) return null;
  const shown = FEATURES.filter((f) => stats.points[f] > 0);
  return h('div.stats-block#stats-points', {},
    h('h3', t('stats.pointsByFeature')),
    h('div.share-bar', { role: 'presentation' },
      ...shown.map((f) => h('span.share', { class: `feature-${f}`, style: { flexGrow: String(stats.points[f]) } }))),
    h('ul.share-legend', {},
      ...shown.map((f) => h('li', { dataset: { feature: f } },
        h('span.share-key', { class: `feature-${f}` }),
        t('stats.featurePoints', { feature: t(`stats.feature.${f}`), points: stats.points[f], pct: Math.round(100 * stats.share[f]) })))));
}

/**
 * The statistics section of a profile. ``presetName(preset)`` words a preset. Empty figures
 * (no finished match) give one sentence instead of zeros.
 */
export function statisticsPanel(stats, presetName) {
  const section = h('section.panel.stats#profile-statistics', {}, h('h2', t('stats.title')));
  if (!stats.played) {
    section.appendChild(h('p.help', t('stats.none')));
    return section;
  }
  section.appendChild(h('div.profile-stats', {},
    figure('average', stats.average_score, t('stats.averageScore')),
    figure('finished', stats.finished, t('stats.finished')),
    figure('left', stats.left, t('stats.left')),
    figure('road', stats.longest_road, t('stats.longestRoad')),
    figure('city', stats.biggest_city, t('stats.biggestCity'))));
  const presets = Object.keys(stats.ratings);
  if (presets.length) {
    const holder = h('div.graph-holder');
    const show = (preset) => {
      holder.replaceChildren(ratingGraph(stats.ratings[preset], presetName(preset)));
      holder.dataset.preset = preset;
    };
    const picker = presets.length > 1
      ? h('select#stats-preset', { 'aria-label': t('stats.preset'), onchange: (e) => show(e.target.value) },
        ...presets.map((p) => h('option', { value: p }, presetName(p))))
      : h('span.help', presetName(presets[0]));
    section.appendChild(h('div.stats-block#stats-rating', {},
      h('div.stats-head', {}, h('h3', t('stats.ratingHistory')), picker), holder));
    show(presets[0]);
  }
  section.appendChild(h('div.stats-columns', {}, winRates(stats.by_players), pointShares(stats)));
  return section;
}
