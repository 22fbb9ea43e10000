/** The 2–5 seats picker shared by the create screen and the waiting room. */

import { h, clear } from '../../dom.js';
import { t } from '../../i18n.js';

/**
 * Buttons 2…5 (``min``: the fewest allowed, e.g. the seats already taken); ``onChange(n)`` on a
 * choice. Returns {node, set(n)}.
 */
export function seatPicker(value, onChange, { min = 2, disabled = false } = {}) {
  const node = h('div.segmented', { role: 'radiogroup', 'aria-label': t('create.seats') });
  const render = (v) => {
    clear(node);
    for (let n = 2; n <= 5; n += 1) {
      node.appendChild(h('button.seg', { type: 'button', role: 'radio', 'aria-checked': v === n ? 'true' : 'false',
        class: v === n ? 'checked' : '', disabled: disabled || n < min, dataset: { seats: n },
        onclick: () => { render(n); onChange(n); } }, String(n)));
    }
  };
  render(value);
  return { node, set: render };
}
