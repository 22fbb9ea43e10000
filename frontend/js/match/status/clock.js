/**
 * Clocks and leaving on the match screen: each seat's clock in the players list (the running one
 * ticks; the last 10 seconds turn red and show in the tab title), the time control in the info
 * box, the "Ben left — the computer takes over in 0:45" banner with its countdown, the vote
 * (wait / hand to the computer / end now), "take my seat back", the live ↔ correspondence
 * proposal, and an opt-in browser notification when it becomes your turn while the tab is hidden.
 *
 * The server is the authority (docs/API.md § Clocks): every clock it sends carries
 * ``server_now``; the model (``model.js``) keeps ``offset = server_now - Date.now()`` from the
 * moment it arrived (``serverNow()``) and we count down from there, so a client whose clock is
 * wrong still shows the right time.
 */

import { h, clear } from '../../dom.js';
import { t } from '../../i18n.js';
import { tableName } from '../../tableName.js';
import { timeLabel, policyLabel } from '../../widgets/table/rules.js';

const WARN_MS = 10_000;
const NOTIFY_KEY = 'carcassonne.notifyTurn';

/** Milliseconds ``seat`` has left now (null: untimed). */
export function remainingOf(m, seat) {
  const c = m.model.match && m.model.match.clock;
  if (!c || c.remaining[seat] === null || c.remaining[seat] === undefined) return null;
  let left = c.remaining[seat];
  if (c.running === seat && !m.model.isOver()) left -= m.model.serverNow() - c.server_now;
  return Math.max(0, left);
}

/** ``1:05``, ``0:07``, ``1:02:03``, or ``2 d 3 h`` for correspondence-sized times. */
export function formatClock(ms) {
  const total = Math.ceil(ms / 1000);
  if (total >= 86_400) {
    const d = Math.floor(total / 86_400);
    const hrs = Math.floor((total % 86_400) / 3600);
    return t('clock.days', { d, h: hrs });
  }
  const hrs = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return hrs ? `${hrs}:${String(min).padStart(2, '0')}:${sec}` : `${min}:${sec}`;
}

/** The clock chips in the players list, the banner and the title: everything that ticks. */
export function tick(m) {
  if (!m.alive || !m.model.match || !m.dom) return;
  const c = m.model.match.clock;
  let warn = null;
  for (const node of m.dom.playersBox.querySelectorAll('.seat-clock')) {
    const seat = Number(node.dataset.seat);
    const left = remainingOf(m, seat);
    if (left === null) continue;
    node.textContent = formatClock(left);
    const running = c.running === seat && !m.model.isOver();
    node.classList.toggle('running', running);
    node.classList.toggle('low', running && left <= WARN_MS);
    if (running && left <= WARN_MS && seat === m.model.you()) warn = left;
  }
  for (const node of m.dom.section.querySelectorAll('[data-until]')) {
    node.textContent = formatClock(Math.max(0, Number(node.dataset.until) - m.model.serverNow()));
  }
  // Only our prefix is ours: the rest of the title belongs to the screen (attention.js).
  const mine = /^⏰ \S+ — /;
  if (warn !== null) document.title = `⏰ ${formatClock(warn)} — ${document.title.replace(mine, '')}`;
  else if (mine.test(document.title)) document.title = document.title.replace(mine, '');
  m.dom.section.classList.toggle('clock-warning', warn !== null);
}

/** Redraw the parts that change with the clock's state (not every tick). */
export function renderClockUI(m) {
  if (!m.alive || !m.model.match || !m.dom) return;
  decoratePlayers(m);
  renderBanner(m);
  notifyIfMyTurn(m);
  tick(m);
}

/** Add a clock chip (and "left" / "computer" tags) to each player row. */
export function decoratePlayers(m) {
  const c = m.model.match && m.model.match.clock;
  if (!c) return;
  for (const row of m.dom.playersBox.querySelectorAll('li.player')) {
    const seat = Number(row.dataset.seat);
    row.querySelectorAll('.seat-clock, .tag.away, .tag.auto').forEach((n) => n.remove());
    const name = row.querySelector('.player-name');
    if (c.auto[seat]) name.appendChild(h('span.tag.auto', { title: t('clock.autoTitle') }, t('clock.autoTag')));
    else if (c.away[String(seat)]) name.appendChild(h('span.tag.away', t('clock.awayTag')));
    if (c.remaining[seat] !== null && c.remaining[seat] !== undefined) {
      row.querySelector('.player-sub').appendChild(h('span.seat-clock', { dataset: { seat }, 'aria-label': t('clock.aria') }));
    }
  }
  const info = m.dom.infoBox;
  info.querySelectorAll('.clock-info').forEach((n) => n.remove());
  const you = m.model.you();
  const buttons = [];
  // Live ↔ correspondence: a live clock may go to correspondence, and a switched match back
  // (a match played by correspondence from the start has no live clock to return to).
  const canPropose = !c.correspondence || c.can_switch_back;
  if (you !== null && !m.model.isOver() && c.control.kind !== 'untimed' && !c.proposal && canPropose) {
    buttons.push(h('button.btn.small.ghost#propose-switch', { type: 'button', onclick: () => send(m, { t: 'switch', d: { accept: false } }) },
      c.correspondence && c.can_switch_back ? t('clock.proposeLive') : t('clock.proposeCorr')));
  }
  if (you !== null && c.correspondence && 'Notification' in window) {
    if (Notification.permission === 'granted') buttons.push(h('small.notify-state#notify-turn-on', t('clock.notifyOn')));
    else if (Notification.permission === 'denied') buttons.push(h('small.notify-state#notify-turn-blocked', t('clock.notifyBlocked')));
    else buttons.push(h('button.btn.small.ghost#notify-turn', { type: 'button', onclick: () => askNotify(m) }, t('clock.notify')));
  }
  const inc = c.control.kind === 'fischer' && c.control.increment
    ? h('small.clock-increment', ` (${t('clock.increment', { s: c.control.increment })})`) : null;
  info.appendChild(h('div.info-item.clock-info#time-control', {},
    h('small', {}, t('clock.control'), ' ', h('b', timeLabel(c.control, c.label)), inc,
      c.control.kind !== 'untimed' ? h('span#timeout-policy-info', {}, ' · ', t('policy.label'), ': ', policyLabel(c.policy)) : null),
    ...buttons));
}

/** True when the ``handover`` time-out policy gave ``seat`` to the computer for good. */
export function forGood(c, seat) {
  return !!(c && c.policy && c.policy.kind === 'handover' && c.auto[seat] && c.timeouts[seat] >= c.policy.after);
}

function send(m, frame) {
  if (!m.socket || !m.socket.send(frame)) m.hooks.addLog([], {});
}

async function askNotify(m) {
  try {
    const answer = await Notification.requestPermission();
    localStorage.setItem(NOTIFY_KEY, answer === 'granted' ? '1' : '0');
  } catch { /* no notifications here */ }
  renderClockUI(m);
}

/** When it just became my turn in a hidden tab and notifications are allowed: tell me. */
function notifyIfMyTurn(m) {
  const s = m.model.state();
  const mine = !!s && m.model.myTurn();
  const key = `${m.model.version}`;
  if (mine && !m.ui.notifiedFor && document.hidden && 'Notification' in window
      && Notification.permission === 'granted') {
    try {
      // eslint-disable-next-line no-new
      new Notification(t('clock.yourTurnTitle'), { body: t('clock.yourTurnBody', { name: tableName(m.model.match, t('match.title')) }), tag: `turn-${m.matchId}` });
    } catch { /* not allowed here */ }
  }
  m.ui.notifiedFor = mine ? (m.ui.notifiedFor || key) : null;
}

/** The leave banner: a countdown, the vote, the take-back offer, an open proposal. */
function renderBanner(m) {
  let box = m.dom.leaveBanner;
  if (!box) {
    box = h('div.leave-banner#leave-banner', { role: 'status', 'aria-live': 'polite', hidden: true });
    m.dom.banner.after(box);
    m.dom.leaveBanner = box;
  }
  clear(box);
  const c = m.model.match.clock;
  const names = m.model.names();
  const you = m.model.you();
  const parts = [];
  if (c && !m.model.isOver()) {
    if (you !== null && c.auto[you]) {
      // The ``handover`` policy gives the seat to the computer for good: nothing to take back.
      parts.push(forGood(c, you) ? h('div.leave-line', {}, h('span', t('clock.youAutoForGood')))
        : h('div.leave-line', {}, h('span', t('clock.youAuto')),
          h('button.btn.small#take-back', { type: 'button', onclick: () => send(m, { t: 'take_back' }) }, t('clock.takeBack'))));
    }
    for (const [seat, away] of Object.entries(c.away || {})) {
      if (c.vote && String(c.vote.seat) === seat) continue;
      parts.push(h('div.leave-line', {}, t('clock.left', { name: names[seat] }), ' ',
        h('b.countdown', { dataset: { until: away.until } })));
    }
    if (c.vote) {
      const ballot = c.vote.ballots[String(you)];
      const canVote = you !== null && you !== c.vote.seat && !c.auto[you];
      const choice = (value, label) => h(`button.btn.small${ballot === value ? '' : '.secondary'}`, {
        type: 'button', dataset: { choice: value }, 'aria-pressed': String(ballot === value),
        onclick: () => send(m, { t: 'vote', d: { choice: value } }),
      }, label);
      parts.push(h('div.leave-line.vote', {},
        h('span', {}, t('clock.voteAsk', { name: names[c.vote.seat] }), ' ', h('b.countdown', { dataset: { until: c.vote.until } })),
        canVote ? h('span.vote-buttons', {}, choice('wait', t('clock.wait')), choice('computer', t('clock.computer')), choice('end', t('clock.end')))
          : h('small', t('clock.othersVote'))));
    }
    if (c.proposal) {
      const accepted = c.proposal.accepted.includes(you);
      parts.push(h('div.leave-line', {},
        h('span', t(c.proposal.to === 'correspondence' ? 'clock.proposalCorr' : 'clock.proposalLive', { name: names[c.proposal.by] })),
        you !== null && !accepted
          ? h('button.btn.small#accept-switch', { type: 'button', onclick: () => send(m, { t: 'switch', d: { accept: true } }) }, t('clock.accept'))
          : h('small', t('clock.waitingOthers'))));
    }
  }
  if (c && c.ended_early && m.model.isOver()) parts.push(h('div.leave-line', t('clock.endedEarly')));
  box.append(...parts);
  box.hidden = parts.length === 0;
}
