/**
 * Short sound cues made on the spot with the Web Audio API (no files, nothing downloaded):
 * ``turn`` (your turn), ``tile`` (a tile is placed), ``points`` (points scored), ``end`` (the
 * match is over), ``chat`` (a message arrived).
 *
 * Nothing plays before the person has interacted with the page: the AudioContext is created on
 * the first pointer or key press (browsers' autoplay rules want that anyway), and cues asked for
 * earlier are dropped. The mute toggle is remembered (``carcassonne.sound`` = ``off``).
 * ``window.carcassonneSounds`` lists the cues actually played (for tests and the curious).
 */

import { t } from './i18n.js';

const STORE_KEY = 'carcassonne.sound';
let ctx = null;
let unlocked = false;
const played = [];
if (typeof window !== 'undefined') window.carcassonneSounds = played;

/** Notes of each cue: ``[frequency Hz, start s, length s, wave, gain]``. */
const CUES = {
  turn: [[660, 0, 0.12, 'sine', 0.22], [880, 0.13, 0.18, 'sine', 0.22]],
  tile: [[180, 0, 0.07, 'triangle', 0.3], [120, 0.02, 0.09, 'sine', 0.25]],
  points: [[523, 0, 0.1, 'triangle', 0.2], [659, 0.09, 0.1, 'triangle', 0.2], [784, 0.18, 0.2, 'triangle', 0.2]],
  end: [[392, 0, 0.2, 'sine', 0.2], [523, 0.2, 0.2, 'sine', 0.2], [659, 0.4, 0.2, 'sine', 0.2], [784, 0.6, 0.45, 'sine', 0.22]],
  chat: [[988, 0, 0.06, 'sine', 0.12], [1319, 0.07, 0.08, 'sine', 0.1]],
};

function unlock() {
  unlocked = true;
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (Ctx) {
      try {
        ctx = new Ctx();
      } catch {
        ctx = null;
      }
    }
  }
  if (ctx && ctx.state === 'suspended') ctx.resume().catch(() => {});
}

if (typeof window !== 'undefined') {
  for (const type of ['pointerdown', 'keydown', 'touchstart']) {
    window.addEventListener(type, unlock, { capture: true, passive: true });
  }
}

/** Whether cues are muted (the stored choice; sound is on by default). */
export function isMuted() {
  try {
    return localStorage.getItem(STORE_KEY) === 'off';
  } catch {
    return false;
  }
}

/** Mute (true) or unmute, remembered across visits. */
export function setMuted(muted) {
  try {
    localStorage.setItem(STORE_KEY, muted ? 'off' : 'on');
  } catch {
    // Private mode: the choice lasts for this page.
  }
}

/** Play cue ``name`` unless muted or the page has not been interacted with yet. */
export function play(name) {
  const notes = CUES[name];
  if (!notes || isMuted() || !unlocked) return false;
  played.push(name);
  if (!ctx) return true;
  const now = ctx.currentTime + 0.01;
  for (const [freq, start, length, wave, gain] of notes) {
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    amp.gain.setValueAtTime(0.0001, now + start);
    amp.gain.exponentialRampToValueAtTime(gain, now + start + 0.01);
    amp.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(amp).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
  return true;
}

const ON = '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M3 7.5h3l4-3.5v12l-4-3.5H3z" fill="currentColor"/><path d="M13 7a4 4 0 0 1 0 6M15.2 4.8a7 7 0 0 1 0 10.4" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>';
const OFF = '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M3 7.5h3l4-3.5v12l-4-3.5H3z" fill="currentColor"/><path d="M13 7.5l5 5M18 7.5l-5 5" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>';

/** A mute toggle button (``aria-pressed`` true while the sound is on). */
export function soundToggle(extraClass = 'top-toggle') {
  const btn = document.createElement('button');
  btn.type = 'button';
  btn.className = `${extraClass} sound-toggle`;
  const paint = () => {
    const on = !isMuted();
    btn.setAttribute('aria-pressed', String(on));
    btn.setAttribute('aria-label', t('sound.toggle'));
    btn.title = on ? t('sound.on') : t('sound.off');
    btn.dataset.sound = on ? 'on' : 'off';
    btn.innerHTML = on ? ON : OFF;
  };
  btn.addEventListener('click', () => {
    setMuted(!isMuted());
    paint();
    for (const other of document.querySelectorAll('.sound-toggle')) if (other !== btn) other.dispatchEvent(new Event('repaint'));
  });
  btn.addEventListener('repaint', paint);
  paint();
  return btn;
}
