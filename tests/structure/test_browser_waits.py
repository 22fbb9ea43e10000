"""No browser test waits on an async function with Playwright's ``wait_for_function``.

``wait_for_function`` polls its function until the result is truthy; an async function's result
is a Promise, truthy at once, so the "wait" returns on the first call with whatever the Promise
resolves to (a null that the test then indexes, or a false it never checks): no wait at all.
``tests.support.browser.ui.wait_for_async`` is the wait for async functions. Checked on the
source of every test module: the first argument of each ``wait_for_function`` call, a string or a
module-level string constant, must not be an async function.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _strings(tree: ast.Module) -> dict[str, str]:
    """The module-level ``NAME = "…"`` string constants of ``tree``."""
    found: dict[str, str] = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)):
            continue
        if isinstance(node.value.value, str):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value.value
    return found


def async_waits(source: str) -> list[int]:
    """Line numbers of the ``wait_for_function`` calls in ``source`` given an async function."""
    tree = ast.parse(source)
    constants = _strings(tree)
    lines = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr != "wait_for_function" or not node.args:
            continue
        first = node.args[0]
        text = None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            text = first.value
        elif isinstance(first, ast.Name):
            text = constants.get(first.id)
        if text is not None and text.lstrip().startswith("async"):
            lines.append(node.lineno)
    return lines


def test_the_check_finds_an_async_wait() -> None:
    source = 'F = """async () => 1"""\npage.wait_for_function(F)\npage.wait_for_function("x")\n'
    assert async_waits(source) == [2]
    assert async_waits('page.wait_for_function("async () => { return 1; }", arg=2)') == [1]


def test_no_browser_test_waits_on_an_async_function() -> None:
    found = {
        str(path.relative_to(TESTS)): lines
        for path in sorted(TESTS.rglob("*.py"))
        if (lines := async_waits(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"use wait_for_async for these: {found}"
