/**
 * A visible length limit for a text input with ``maxlength`` (player names 24, table names 40,
 * usernames 20): the browser silently refuses characters past the limit, so the person would not
 * know why their name stops. ``lengthLimit(input)`` returns a small note to place after the
 * input: a counter once the text is close to the limit ("21/24"), and a message when a key
 * press or a paste is refused ("At most 24 characters — the rest was not taken"). The input's
 * own value is never cut further than the browser cuts it.
 */

import { h } from '../../dom.js';
import { t } from '../../i18n.js';

/** Characters from the limit at which the counter appears. */
const NEAR = 6;

/**
 * Watch ``input`` (its ``maxlength`` is the limit); returns ``{node, update()}``: ``node`` the
 * note (``.limit-note``, ``aria-live``), ``update()`` after setting the value by hand.
 */
export function lengthLimit(input) {
  const max = Number(input.getAttribute('maxlength')) || 0;
  const node = h('small.limit-note', { 'aria-live': 'polite', dataset: { max } });
  let refused = false;

  function update() {
    const n = input.value.length;
    node.classList.toggle('near', n >= max - NEAR);
    node.classList.toggle('refused', refused);
    input.classList.toggle('at-limit', refused);
    if (refused) node.textContent = t('limit.refused', { max });
    else node.textContent = n >= max - NEAR ? t('limit.count', { n, max }) : '';
  }

  /** Whether inserting ``text`` over the current selection would pass the limit. */
  function overflows(text) {
    const selected = (input.selectionEnd ?? 0) - (input.selectionStart ?? 0);
    return input.value.length - selected + text.length > max;
  }

  input.addEventListener('beforeinput', (e) => {
    if (!max || !e.inputType || !e.inputType.startsWith('insert')) return;
    const text = e.data ?? (e.dataTransfer ? e.dataTransfer.getData('text') : '') ?? '';
    if (text && overflows(text)) {
      refused = true;
      update();
    }
  });
  input.addEventListener('paste', (e) => {
    const text = e.clipboardData ? e.clipboardData.getData('text') : '';
    if (max && text && overflows(text)) {
      refused = true;
      // The browser keeps the first characters that fit; the note says the rest was dropped.
      setTimeout(update, 0);
    }
  });
  input.addEventListener('input', () => {
    if (refused && input.value.length < max) refused = false;
    update();
  });
  input.addEventListener('blur', () => {
    refused = false;
    update();
  });
  update();
  return { node, update };
}
