"""axe-core (tests/support/browser/vendor/axe.min.js) run on a page: the accessibility violations a
person would meet, by rule, with the nodes they were found on.

The engine is injected into the page under test only (``page.add_script_tag``); it is never
part of what the app serves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"

#: The impacts the issue's bar counts (axe also reports ``minor`` and ``moderate``).
BLOCKING = ("serious", "critical")

_RUN = """async (impacts) => {
  // Colours are read as they are at rest: finite animations and transitions (a toast fading
  // in) are let finish first (at most 2 s), and a toast on its way out is not judged.
  const finite = document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity);
  await Promise.race([
    Promise.all(finite.map((a) => a.finished.catch(() => null))),
    new Promise((done) => setTimeout(done, 2000)),
  ]);
  const context = document.querySelector('.toast.leaving')
    ? { exclude: [['.toast.leaving']] } : document;
  const result = await axe.run(context, { resultTypes: ['violations'] });
  return result.violations
    .filter((v) => impacts.includes(v.impact))
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                   nodes: v.nodes.slice(0, 5)
                     .map((n) => n.target.join(' ') + ' | ' + n.failureSummary) }));
}"""


def violations(page: Any, impacts: tuple[str, ...] = BLOCKING) -> list[dict[str, Any]]:
    """The violations of ``impacts`` on ``page`` as it is now: ``[{"id", "impact", "help",
    "nodes": [selector | why]}]`` (at most five nodes per rule).
    """
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(_RUN, list(impacts))
    return found
