"""A WCAG 2.1 AA text-contrast check that runs in the page.

:data:`LOW_CONTRAST` is a JavaScript function of a CSS selector (the region to check): for
every visible element under it that holds text of its own, the contrast between its colour and
the background it is drawn on — the nearest ancestors' background colours composited over each
other until one is opaque — must be at least 4.5:1, or 3:1 for large text (24 px, or 18.66 px
bold). Elements over a background image or gradient are left out (their background is unknown),
as are disabled controls (WCAG exempts them). Returns the failures as
``[{text, ratio, colour, background}]``.
"""

from __future__ import annotations

LOW_CONTRAST = """(root) => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => {
    const a = top[3] + under[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    const mix = (i) => (top[i] * top[3] + under[i] * under[3] * (1 - top[3])) / a;
    return [mix(0), mix(1), mix(2), a];
  };
  const lum = (c) => {
    const f = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const background = (el) => {
    let colour = [0, 0, 0, 0];
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage !== 'none') return null;
      colour = over(colour, parse(s.backgroundColor));
      if (colour[3] >= 0.999) return colour;
    }
    return over(colour, [255, 255, 255, 1]);
  };
  const failures = [];
  for (const el of document.querySelectorAll(`${root}, ${root} *`)) {
    const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim())
      .map((n) => n.textContent.trim()).join(' ');
    if (!own || el.closest('svg, [aria-hidden=true], .visually-hidden, :disabled')) continue;
    const s = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    const gone = s.visibility === 'hidden' || s.display === 'none' || Number(s.opacity) === 0;
    if (gone || box.width === 0 || box.height === 0) continue;
    const bg = background(el);
    if (!bg) continue;
    const fg = over(parse(s.color), bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5) - 0.01) {
      failures.push({ text: own.slice(0, 40), ratio: Math.round(ratio * 100) / 100,
        colour: s.color, background: `rgb(${bg.slice(0, 3).map(Math.round)})` });
    }
  }
  return failures;
}"""
