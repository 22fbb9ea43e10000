/**
 * The tray under the board: what the person looking can do now (rotate and place the drawn tile,
 * deploy a follower or not, or what an expansion's phase asks, such as the Plague's choice) or
 * whom everyone is waiting for.
 */

import { h, clear, append } from '../dom.js';
import { tileSvg, spotPoint } from '../board/tiles.js';
import { colourOf, swatch, roleIconMarkup, roleOfSpot, roleName, placeName } from '../board/pieces.js';
import { t } from '../i18n.js';
import { playableCells } from './ui.js';
import { collect, phaseOf, spotOwner } from '../expansions/index.js';

const EYE = '<svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true"><path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.2" fill="currentColor"/></svg>';
/** ``Element.append`` writes null as "null": append children, skipping null and false. */
const put = (node, ...children) => append(node, children);

function trayTile(m, tileId, rotation, { big = false, clickable = false } = {}) {
  const svg = tileSvg(tileId, rotation, big ? 112 : 64, 'tray-tile');
  if (!clickable) return h('div.tray-tile-wrap', {}, svg);
  return h('button.tray-tile-btn#drawn-tile', { type: 'button', title: t('match.rotateTitle'), 'aria-label': t('match.drawnTile', { deg: rotation }),
    dataset: { tile: tileId, rotation }, onclick: () => m.hooks.rotate(1) }, svg, h('span.rotate-badge', '↻'));
}

/** Where a point (tile units) lies on its tile, in words ("west", "south-east", "middle"). */
function whereOnTile([x, y]) {
  const dir = `${y < 38 ? 'n' : y > 62 ? 's' : ''}${x < 38 ? 'w' : x > 62 ? 'e' : ''}`;
  return t(`match.onTile.${dir || 'mid'}`);
}

/** What the active expansions say beside the drawn tile (the wheel icon's pig move), or null. */
const trayNote = (m, s) => collect(m.model, 'trayNote', s)[0] || null;

/** Where follower spot ``sp`` is, in words: on the tile just placed, or what its expansion calls it. */
function spotWhere(m, placedTile, sp) {
  const owner = spotOwner(m.model, sp);
  if (owner) return h('small.spot-where', owner.spotWhere(sp));
  return placedTile ? h('small.spot-where', whereOnTile(spotPoint(placedTile.tile, sp, placedTile.rotation))) : null;
}

/** Draw the tray for the current state. */
/** "You are watching", or how far behind a delayed match shows its spectators. */
function watchingText(m) {
  const delay = m.model.match && m.model.match.spectator_delay;
  if (delay && delay.moves) return t('match.watchingDelayedMoves', { n: delay.moves });
  if (delay && delay.seconds) return t('match.watchingDelayedSeconds', { n: delay.seconds });
  return t('match.watchingYou');
}

export function renderTray(m) {
  const s = m.model.state();
  const n = m.model.names();
  clear(m.dom.tray);
  m.dom.tray.className = 'tray';
  if (m.model.isOver()) {
    m.dom.tray.classList.add('over');
    put(m.dom.tray, h('div.tray-text', {}, h('b', t('match.gameOver')), h('span', t('match.seeFinal'))),
      h('button.btn.primary#show-end', { onclick: m.hooks.showEnd }, t('match.finalScores')));
    return;
  }
  if (s.phase === 'paused') {
    put(m.dom.tray, h('div.tray-text', {}, h('b', t('match.paused')), h('span', t('match.pausedWaiting'))));
    return;
  }
  // An expansion's phase (the Plague) fills the tray itself, for the decider and the others.
  const phase = phaseOf(m.model, s.phase);
  if (!m.model.myTurn() && phase && phase.tray && phase.tray(m, false)) return;
  if (!m.model.myTurn()) {
    m.dom.tray.classList.add('waiting');
    const c = colourOf(m.model.colours()[s.seat]);
    put(m.dom.tray, 
      s.tile ? trayTile(m, s.tile, 0) : null,
      h('div.tray-text', {},
        h('b', {}, h('span', { html: swatch(m.model.colours()[s.seat], 16) }), ` ${n[s.seat]}`),
        h('span', t(s.phase === 'place_tile' ? 'match.isPlacing' : 'match.isDeploying')),
        s.phase === 'place_tile' ? trayNote(m, s) : null,
        m.model.you() === null ? h('small.spectating', {}, h('span', { html: EYE }), ` ${watchingText(m)}`) : null));
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
        h('button.icon-btn#rotate-ccw', { type: 'button', title: t('match.rotateLeftTitle'), 'aria-label': t('match.rotateCcw'), onclick: () => m.hooks.rotate(-1) }, '⟲'),
        trayTile(m, s.tile, m.ui.rotation, { big: true, clickable: true }),
        h('button.icon-btn#rotate-cw', { type: 'button', title: t('match.rotateRightTitle'), 'aria-label': t('match.rotateCw'), onclick: () => m.hooks.rotate(1) }, '⟳')),
      key
        ? h('div.tray-text', {},
          h('b', t('match.placeHere')),
          playableCells(m).get(key).length > 1 ? h('span', t('match.otherWays'))
            : h('span.tray-only-way', { role: 'status' }, t('match.onlyWay')),
          h('div.row', {},
            h('button.btn.primary#confirm-placement', { onclick: m.hooks.confirmPlacement }, t('match.placeTile')),
            h('button.btn.ghost#cancel-placement', { onclick: m.hooks.cancelSelection }, t('match.cancel'))))
        : h('div.tray-text', {},
          h('b', t('match.yourTurn')),
          h('span.tray-hint', t('match.chooseSquare', { n: playableCells(m).size })),
          trayNote(m, s)));
    return;
  }
  if (s.phase === 'deploy') {
    const spots = s.legal_spots || [];
    const supply = (s.supply || [])[m.model.you()] ?? 0;
    const placedTile = s.placed ? s.board.find((b) => b.at[0] === s.placed[0] && b.at[1] === s.placed[1]) : null;
    // Spots off the tile (the wheel's crown spaces) belong to an expansion, which names them.
    const offTile = spots.map((sp) => spotOwner(m.model, sp)).find(Boolean);
    put(m.dom.tray, h('div.tray-text', {},
      h('b', t(spots.length ? 'match.deployQ' : supply ? 'match.noFreeFeature' : 'match.noFollowersLeft')),
      h('span', t(spots.length ? ((offTile && offTile.deployHint) || 'match.tapMarker') : 'match.endYourTurn')),
      spots.length ? h('div.spot-buttons', {}, spots.map((sp) => {
        const role = roleOfSpot(sp);
        const kind = sp === 'cloister' ? 'cloister' : sp.split(':')[0];
        const show = () => { m.ui.spotFocus = sp; m.ui.keyboard = true; m.hooks.renderInteraction(); };
        return h('button.btn.small.secondary.spot-btn', { dataset: { spotBtn: sp }, onclick: () => m.hooks.pickSpot(sp),
          onmouseenter: show, onfocus: show,
          title: t('match.spotTitle', { role: roleName(role) || t('role.follower'), place: placeName(kind) || '' }).trim() },
        h('span', { html: `<svg width="16" height="16" viewBox="-9 -9 18 18" aria-hidden="true">${roleIconMarkup(role)}</svg>` }),
        ` ${roleName(role) || sp}`, spotWhere(m, placedTile, sp));
      })) : null,
      h('button.btn.primary#no-follower', { onclick: m.hooks.pass }, t(spots.length ? 'match.noFollower' : 'match.endTurn'))));
    return;
  }
  if (phase && phase.tray && phase.tray(m, true)) return;
  put(m.dom.tray, h('div.tray-text', {}, h('b', t('match.yourTurn')), h('span', t('match.phase', { phase: s.phase }))));
}
