/**
 * The tray under the board: what the person looking can do now (rotate and place the drawn tile,
 * deploy a follower or not, answer the Plague) or whom everyone is waiting for.
 */

import { h, clear, append } from '../dom.js';
import { tileSvg, spotPoint, tileType } from '../tiles.js';
import { colourOf, swatch, roleIconMarkup, roleOfSpot, ROLE_LABEL, PLACE_LABEL } from '../pieces.js';
import { joinNames, around, MARK } from '../words.js';
import { t } from '../i18n.js';
import { segmentLabel } from '../wheel.js';
import { whereOnTile } from './state.js';

const EYE = '<svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true"><path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.2" fill="currentColor"/></svg>';
const PLAGUE_ICON = '<svg width="44" height="44" viewBox="-22 -22 44 44"><circle r="20" fill="#dfe6cf" stroke="#5d6b45" stroke-width="2"/>' +
  '<path d="M-12,4 C-12,-4 -4,-8 3,-6 C7,-5 10,-2 12,2 L15,3 L11,5 C8,7 -6,8 -12,4 Z" fill="#8a8076" stroke="#3d2b18" stroke-width="1.5" stroke-linejoin="round"/>' +
  '<circle cx="2" cy="-6" r="3" fill="#b3a89c" stroke="#3d2b18"/><circle cx="8" cy="-0.5" r="1.2" fill="#3d2b18"/>' +
  '<path d="M-12,4 C-17,5 -17,11 -12,12" fill="none" stroke="#3d2b18" stroke-width="1.3" stroke-linecap="round"/></svg>';

/** ``Element.append`` writes null as "null": append children, skipping null and false. */
const put = (node, ...children) => append(node, children);

function trayTile(m, tileId, rotation, { big = false, clickable = false } = {}) {
  const svg = tileSvg(tileId, rotation, big ? 112 : 64, 'tray-tile');
  if (!clickable) return h('div.tray-tile-wrap', {}, svg);
  return h('button.tray-tile-btn#drawn-tile', { type: 'button', title: t('match.rotateTitle'), 'aria-label': t('match.drawnTile', { deg: rotation }),
    dataset: { tile: tileId, rotation }, onclick: () => m.rotate(1) }, svg, h('span.rotate-badge', '↻'));
}

/** "Wheel icon 2: the pig moved to Tax" when the drawn tile carries a wheel icon. */
function wheelNote(s) {
  const type = s.tile && tileType(s.tile);
  if (!type || !type.icon || !s.wheel) return null;
  return h('small.wheel-note', t('match.wheelNote', { icon: type.icon, seg: segmentLabel(s.wheel.pig) }));
}

/** Draw the tray for the current state. */
export function renderTray(m) {
  const s = m.state();
  const n = m.names();
  clear(m.dom.tray);
  m.dom.tray.className = 'tray';
  if (m.isOver()) {
    m.dom.tray.classList.add('over');
    put(m.dom.tray, h('div.tray-text', {}, h('b', t('match.gameOver')), h('span', t('match.seeFinal'))),
      h('button.btn.primary#show-end', { onclick: m.showEnd }, t('match.finalScores')));
    return;
  }
  if (s.phase === 'paused') {
    put(m.dom.tray, h('div.tray-text', {}, h('b', t('match.paused')), h('span', t('match.pausedWaiting'))));
    return;
  }
  if (!m.myTurn() && s.phase === 'plague' && s.plague) {
    // Someone else decides which follower the Plague takes: everyone waits for them.
    m.dom.tray.classList.add('waiting', 'plague');
    const next = (s.plague.waiting || []).slice(1).map((i) => (i === m.you() ? t('match.youLower') : n[i]));
    put(m.dom.tray, 
      h('div.tray-plague-icon', { 'aria-hidden': 'true', html: PLAGUE_ICON }),
      h('div.tray-text#plague-waiting', { dataset: { seat: s.plague.seat } },
        h('b', {}, ...around(t('match.plagueWaiting', { name: `${MARK}${n[s.seat]}` }),
          h('span.name-swatch', { html: swatch(m.colours()[s.seat], 16) }))),
        h('span', t('match.plagueTheyMust', { name: n[s.seat] }) +
          (next.length ? ` ${t('match.plagueThen', { names: joinNames(next) })}` : '')),
        h('small.plague-countdown', m.countdownText(false)),
        m.you() === null ? h('small.spectating', {}, h('span', { html: EYE }), ` ${t('match.watchingYou')}`) : null));
    m.dom.tray.style.setProperty('--turn-colour', colourOf(m.colours()[s.seat]).fill);
    return;
  }
  if (!m.myTurn()) {
    m.dom.tray.classList.add('waiting');
    const c = colourOf(m.colours()[s.seat]);
    put(m.dom.tray, 
      s.tile ? trayTile(m, s.tile, 0) : null,
      h('div.tray-text', {},
        h('b', {}, h('span', { html: swatch(m.colours()[s.seat], 16) }), ` ${n[s.seat]}`),
        h('span', t(s.phase === 'place_tile' ? 'match.isPlacing' : 'match.isDeploying')),
        s.phase === 'place_tile' ? wheelNote(s) : null,
        m.you() === null ? h('small.spectating', {}, h('span', { html: EYE }), ` ${t('match.watchingYou')}`) : null));
    m.dom.tray.style.setProperty('--turn-colour', c.fill);
    return;
  }
  m.dom.tray.classList.add('mine');
  if (m.ui.pending) {
    put(m.dom.tray, h('div.tray-text', {}, h('span.spinner.small'), h('span', t('match.sending'))));
    return;
  }
  if (s.phase === 'place_tile') {
    const key = m.ui.selected;
    put(m.dom.tray, 
      h('div.tray-rotate', {},
        h('button.icon-btn#rotate-ccw', { type: 'button', title: t('match.rotateLeftTitle'), 'aria-label': t('match.rotateCcw'), onclick: () => m.rotate(-1) }, '⟲'),
        trayTile(m, s.tile, m.ui.rotation, { big: true, clickable: true }),
        h('button.icon-btn#rotate-cw', { type: 'button', title: t('match.rotateRightTitle'), 'aria-label': t('match.rotateCw'), onclick: () => m.rotate(1) }, '⟳')),
      key
        ? h('div.tray-text', {},
          h('b', t('match.placeHere')),
          m.legalCells().get(key).length > 1 ? h('span', t('match.otherWays'))
            : h('span.tray-only-way', { role: 'status' }, t('match.onlyWay')),
          h('div.row', {},
            h('button.btn.primary#confirm-placement', { onclick: m.confirmPlacement }, t('match.placeTile')),
            h('button.btn.ghost#cancel-placement', { onclick: m.cancelSelection }, t('match.cancel'))))
        : h('div.tray-text', {},
          h('b', t('match.yourTurn')),
          h('span.tray-hint', t('match.chooseSquare', { n: m.legalCells().size })),
          wheelNote(s)));
    return;
  }
  if (s.phase === 'deploy') {
    const spots = s.legal_spots || [];
    const supply = (s.supply || [])[m.you()] ?? 0;
    const placedTile = s.placed ? s.board.find((b) => b.at[0] === s.placed[0] && b.at[1] === s.placed[1]) : null;
    const crownsFree = spots.some((sp) => sp.startsWith('crown:'));
    put(m.dom.tray, h('div.tray-text', {},
      h('b', t(spots.length ? 'match.deployQ' : supply ? 'match.noFreeFeature' : 'match.noFollowersLeft')),
      h('span', t(spots.length ? (crownsFree ? 'match.tapMarkerCrown' : 'match.tapMarker') : 'match.endYourTurn')),
      spots.length ? h('div.spot-buttons', {}, spots.map((sp) => {
        const role = roleOfSpot(sp);
        const kind = sp === 'cloister' ? 'cloister' : sp.split(':')[0];
        const show = () => { m.ui.spotFocus = sp; m.ui.keyboard = true; m.renderInteraction(); };
        return h('button.btn.small.secondary.spot-btn', { dataset: { spotBtn: sp }, onclick: () => m.pickSpot(sp),
          onmouseenter: show, onfocus: show,
          title: t('match.spotTitle', { role: ROLE_LABEL[role] || t('role.follower'), place: PLACE_LABEL[kind] || '' }).trim() },
        h('span', { html: `<svg width="16" height="16" viewBox="-9 -9 18 18" aria-hidden="true">${roleIconMarkup(role)}</svg>` }),
        ` ${ROLE_LABEL[role] || sp}`, placedTile && !sp.startsWith('crown:')
          ? h('small.spot-where', whereOnTile(spotPoint(placedTile.tile, sp, placedTile.rotation)))
          : sp.startsWith('crown:') ? h('small.spot-where', segmentLabel(sp.slice(6))) : null);
      })) : null,
      h('button.btn.primary#no-follower', { onclick: m.pass }, t(spots.length ? 'match.noFollower' : 'match.endTurn'))));
    return;
  }
  if (s.phase === 'plague' && s.plague) {
    m.dom.tray.classList.add('plague');
    const next = (s.plague.waiting || []).slice(1).map((i) => n[i]);
    put(m.dom.tray, 
      h('div.tray-plague-icon', { 'aria-hidden': 'true', html: PLAGUE_ICON }),
      h('div.tray-text#plague-choice', {}, h('b', t('match.plagueTakeBack')),
        h('span', next.length ? t('match.plagueTapThen', { n: next.length, names: joinNames(next) }) : t('match.plagueTap')),
        h('div.spot-buttons', {}, m.plagueItems().map((it) => {
          const show = () => { m.ui.spotFocus = it.id; m.ui.keyboard = true; m.renderInteraction(); };
          return h('button.btn.small.secondary.spot-btn', { onclick: () => m.pickSpot(it.id), dataset: { spotBtn: it.id },
            onmouseenter: show, onfocus: show, title: t('match.takeBackTitle', { label: it.label }) },
          h('span', { html: `<svg width="16" height="16" viewBox="-9 -9 18 18" aria-hidden="true">${roleIconMarkup(roleOfSpot(it.spot))}</svg>` }),
          ` ${ROLE_LABEL[roleOfSpot(it.spot)] || t('role.follower')}`, h('small.spot-where', it.where));
        })),
        h('small.plague-countdown', m.countdownText(true))));
    return;
  }
  put(m.dom.tray, h('div.tray-text', {}, h('b', t('match.yourTurn')), h('span', t('match.phase', { phase: s.phase }))));
}
