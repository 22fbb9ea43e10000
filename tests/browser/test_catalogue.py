"""The client's message catalogue (``frontend/js/i18n/``) is complete in every language.

Node loads each part the way the browser does (``import`` of the ES module); the parts are the
ones each ``frontend/js/i18n/catalogue.<lang>.js`` imports, so a new part is checked as soon as
it is wired in. Checks: every English key exists in German and French with the same shape
(plural entries stay plural), a translation uses no placeholder the English lacks, neither
language has keys English lacks, and no key is written twice — in one file or across the parts
of one language (the merge would silently keep the last one).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.support.services import unavailable

I18N = Path(__file__).resolve().parents[2] / "frontend" / "js" / "i18n.js"
LANGS = ("en", "de", "fr")
KEY_LINE = re.compile(r"^\s*'([^']+)'\s*:", re.MULTILINE)
PLACEHOLDER = re.compile(r"\{(\w+)\}")

# Loads every part given on the command line and prints {path: catalogue} as JSON.
LOADER = """
const out = {};
for (const path of process.argv.slice(1)) {
  out[path] = (await import('file://' + path)).default;
}
process.stdout.write(JSON.stringify(out));
"""


def _parts() -> dict[str, list[Path]]:
    """``{lang: [part files]}`` in the order each ``i18n/catalogue.<lang>.js`` imports them."""
    parts: dict[str, list[Path]] = {}
    for lang in LANGS:
        whole = I18N.parent / "i18n" / f"catalogue.{lang}.js"
        found = re.findall(
            r"^import \w+ from '\./([\w./]+\.js)';", whole.read_text(encoding="utf-8"), re.MULTILINE
        )
        parts[lang] = [whole.parent / rel for rel in found]
    return parts


def test_i18n_loads_the_three_catalogues() -> None:
    source = I18N.read_text(encoding="utf-8")
    for lang in LANGS:
        assert f"import('./i18n/catalogue.{lang}.js')" in source


@pytest.fixture(scope="module")
def catalogues() -> dict[str, dict[Path, dict[str, Any]]]:
    """``{lang: {part: {key: entry}}}`` as node imports them."""
    node = shutil.which("node")
    if node is None:
        unavailable("node (to load the client's message catalogue)", "not on PATH")
    parts = _parts()
    paths = [p for lang in LANGS for p in parts[lang]]
    done = subprocess.run(
        [str(node), "--input-type=module", "-e", LOADER, *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    return {lang: {p: loaded[str(p)] for p in parts[lang]} for lang in LANGS}


def _merged(parts: dict[Path, dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for entries in parts.values():
        merged.update(entries)
    return merged


def _placeholders(entry: Any) -> set[str]:
    texts = entry.values() if isinstance(entry, dict) else [entry]
    return {name for text in texts for name in PLACEHOLDER.findall(str(text))}


def test_every_language_has_the_same_parts(catalogues):
    areas = {
        lang: sorted((p.parent.name, p.stem) for p in parts) for lang, parts in catalogues.items()
    }
    assert all(folder == lang for lang in LANGS for folder, _ in areas[lang]), areas
    stems = {lang: [stem for _, stem in areas[lang]] for lang in LANGS}
    assert stems["de"] == stems["en"] and stems["fr"] == stems["en"], stems
    assert len(stems["en"]) >= 6


def test_every_english_key_is_translated_into_german_and_french(catalogues):
    english = _merged(catalogues["en"])
    problems: dict[str, list[str]] = {}
    for lang in ("de", "fr"):
        other = _merged(catalogues[lang])
        missing = sorted(k for k in english if k not in other)
        extra = sorted(k for k in other if k not in english)
        shape = sorted(
            k
            for k in english
            if k in other and isinstance(english[k], dict) != isinstance(other[k], dict)
        )
        strange = sorted(
            k
            for k in english
            if k in other and not _placeholders(other[k]) <= _placeholders(english[k])
        )
        for what, keys in (
            ("missing", missing),
            ("not in English", extra),
            ("plural in one language only", shape),
            ("placeholder the English lacks", strange),
        ):
            if keys:
                problems[f"{lang}: {what}"] = keys
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)


def test_no_key_is_defined_twice(catalogues):
    problems: dict[str, list[str]] = {}
    for lang, parts in catalogues.items():
        owners: dict[str, list[str]] = {}
        for path, entries in parts.items():
            for key in entries:
                owners.setdefault(key, []).append(f"{path.parent.name}/{path.name}")
            # Twice in one file: the import keeps only the last, so read the text.
            written = Counter(KEY_LINE.findall(path.read_text(encoding="utf-8")))
            twice = sorted(k for k, n in written.items() if n > 1)
            if twice:
                problems[f"{path.parent.name}/{path.name}: twice in the file"] = twice
        across = sorted(
            f"{k} ({', '.join(files)})" for k, files in owners.items() if len(files) > 1
        )
        if across:
            problems[f"{lang}: in two parts"] = across
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)


APP = I18N.parents[2] / "app"
RAISED_REASON = re.compile(r"""reason=["']([a-z_]+)["']""")


def test_every_reason_the_server_raises_has_a_sentence(catalogues):
    """Each stable ``reason`` the server's code raises (``reason="…"``) is worded in the
    client's error catalogue (``error.reason.<reason>``), so a person never reads the server's
    English fallback; the test above then asks the same of German and French.
    """
    raised = {
        reason
        for path in APP.rglob("*.py")
        for reason in RAISED_REASON.findall(path.read_text(encoding="utf-8"))
    }
    english = _merged(catalogues["en"])
    missing = sorted(r for r in raised if f"error.reason.{r}" not in english)
    assert len(raised) > 50
    assert not missing, missing
