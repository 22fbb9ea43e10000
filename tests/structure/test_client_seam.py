"""The expansion seam in the client: its core names no expansion, or no more than it does today.

The client's core is every module of ``frontend/js/`` but the expansions' own
(``frontend/js/expansions/``, which the core reaches through the registry's hooks in
``expansions/index.js``) and the message catalogues (``frontend/js/i18n/``, which word everything).
Checked on the code itself, comments aside (they may give an example): every identifier and every
string (catalogue keys, CSS classes, module paths) is split into words at non-letters, ``_`` and
camel-case humps (``wheelView`` → wheel, view; ``PLAGUE_ICON`` → plague, icon; ``'p.tb-wheel'``
→ p, tb, wheel) and each word compared with the expansions' words — ``river``, ``wheel``,
``plague``, ``crown``, ``pig`` and their plurals (a ``driver`` or a ``pigment`` is no pig).

The match log's sentences (``words.js``) and the text board (``match/access/textBoard.js``) name
none: the expansions word their own events and lines (``logLines``, ``textBoardLines``,
``edgeWords``, ``spotWords``); the board draws no expansion's tiles or layers (``tilePlan``,
``tileArt``, ``tileBarriers``, ``boardLayers``, ``spotPoint``, ``drawPosition``); the table's
rules offer the expansions' presets, options and tile sets (``presets``, ``tileset``,
``rulesOption``, ``summaryWords``, ``tilesLine``) and the pieces know their follower roles
(``followerRoles``), the match, its aids and the tile guide theirs (``activeIn``, ``phases``,
``tileGroups``, ``guideGroups``, ``guideWords``) and the start screen's landscape of base tiles
the tiles it leaves out (``outOfLandscape``) through the registry. The rest of the core that
still names an expansion — the board view's mouse ``wheel`` event (no expansion's) — is a known
remainder, held in ``REMAINDER`` as ``{file: words found}``: a ratchet. No file outside it may
name an expansion, no file in it may name more than it does, and a file that names none any more
leaves it (lower a count when a change lowers it, so the ratchet holds there).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from app.settings import ROOT

CLIENT = ROOT / "frontend" / "js"
#: Folders of the client that are no part of its core.
NOT_CORE = ("expansions", "i18n")
#: The expansions' words (the River's; the Wheel of Fortune's, its Plague, crowns and pig).
NAMES = frozenset({"river", "wheel", "plague", "crown", "pig"})
#: Core modules that must name no expansion at all.
CLEAN = ("words.js", "match/access/textBoard.js")

#: The known remainder: core modules that still name an expansion, and how many words they do.
REMAINDER = {
    "board/boardView.js": 1,
}

_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {
    "",
    "return",
    "typeof",
    "case",
    "do",
    "else",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "yield",
    "await",
}
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def strip_comments(src: str) -> str:
    """``src`` with its comments blanked (newlines kept, so lines keep their numbers).

    A small lexer: strings, template literals (with ``${…}`` nested to any depth) and regular
    expression literals are read as such, so a ``//`` inside them starts no comment.
    """
    out = list(src)
    n = len(src)
    subs: list[int] = []  # the brace depth at each open ``${``
    depth = 0
    prev = ""  # the last significant token: tells a regular expression from a division

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    def template(i: int) -> int:
        """Read a template literal's text from ``i``: past its closing quote or its next ``${``."""
        while i < n:
            if src[i] == "\\":
                i += 2
            elif src[i] == "`":
                return i + 1
            elif src.startswith("${", i):
                subs.append(depth)
                return i + 2
            else:
                i += 1
        return n

    i = 0
    while i < n:
        c = src[i]
        if c.isspace():
            i += 1
        elif src.startswith("//", i):
            end = src.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif src.startswith("/*", i):
            end = src.find("*/", i + 2)
            end = n if end < 0 else end + 2
            blank(i, end)
            i = end
        elif c in "'\"":
            i += 1
            while i < n and src[i] != c and src[i] != "\n":
                i += 2 if src[i] == "\\" else 1
            i += 1
            prev = '"'
        elif c == "`":
            i = template(i + 1)
            prev = '"'
        elif c == "/" and prev in _REGEX_AFTER:
            i += 1
            in_class = False
            while i < n and src[i] != "\n":
                if src[i] == "\\":
                    i += 2
                    continue
                if src[i] == "/" and not in_class:
                    break
                in_class = (in_class or src[i] == "[") and src[i] != "]"
                i += 1
            i += 1
            prev = '"'
        elif c == "}" and subs and subs[-1] == depth:
            subs.pop()
            i = template(i + 1)
            prev = '"'
        elif m := _IDENT.match(src, i):
            prev = m.group()
            i = m.end()
        else:
            depth += c == "{"
            depth -= c == "}"
            prev = c
            i += 1
    return "".join(out)


def _words(run: str) -> list[str]:
    """An identifier-like run as lower-case words, split at ``_``, ``$``, digits and humps."""
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", run)]


def _names(word: str) -> bool:
    return word in NAMES or (word.endswith("s") and word[:-1] in NAMES)


def expansion_words(src: str) -> Iterator[tuple[int, str]]:
    """``(line, word)`` of every expansion's word in the code of ``src`` (comments aside)."""
    code = strip_comments(src)
    for m in _IDENT.finditer(code):
        for word in _words(m.group()):
            if _names(word):
                yield code.count("\n", 0, m.start()) + 1, word


def _core() -> Iterator[Path]:
    for path in sorted(CLIENT.rglob("*.js")):
        if path.relative_to(CLIENT).parts[0] not in NOT_CORE:
            yield path


def _found() -> dict[str, list[tuple[int, str]]]:
    """Every core module that names an expansion: ``{path under frontend/js: [(line, word)]}``."""
    found = {}
    for path in _core():
        hits = list(expansion_words(path.read_text(encoding="utf-8")))
        if hits:
            found[path.relative_to(CLIENT).as_posix()] = hits
    return found


def test_the_words_are_found() -> None:
    """The scan sees what it looks for (a check that finds nothing proves nothing)."""
    sample = """
import { segmentLabel } from './expansions/wheelView.js';  // the river's too
const PLAGUE_ICON = '<svg/>';
/* a crown */ m.ui.ext.plagueDeadline = t('tb.crowns', { n }) + h('p.tb-wheel', `${pigSteps}`);
const EDGE = { I: 'river' };
const driver = pigment / 2; const re = /\\/\\/ wheel/g; const url = 'http://x'; // pig
"""
    found = list(expansion_words(sample))
    assert found == [
        (2, "wheel"),
        (3, "plague"),
        (4, "plague"),
        (4, "crowns"),
        (4, "wheel"),
        (4, "pig"),
        (5, "river"),
        (6, "wheel"),
    ]
    assert strip_comments("a = `x${b /* c */ + `y${'//'}`}z` // d") == (
        "a = `x${b         + `y${'//'}`}z`     "
    )
    assert strip_comments("x = a / b; // wheel\ny = (c) / 2 /* pig */") == (
        "x = a / b;         \ny = (c) / 2          "
    )
    assert list(expansion_words("if (a) return /crown/.test(b);")) == [(1, "crown")]
    # The whole core is scanned, and the remainder is where it is said to be.
    assert len(list(_core())) > 50
    assert set(_found()) >= {"board/boardView.js"}


def test_the_log_and_the_text_board_name_no_expansion() -> None:
    found = _found()
    named = {path: found[path] for path in CLEAN if path in found}
    assert named == {}, (
        "word an expansion's events and lines in its own module, behind the registry's hooks "
        "(logLines, textBoardLines, edgeWords, spotWords: frontend/js/expansions/index.js): "
        f"{named}"
    )


def test_no_more_of_the_core_names_an_expansion() -> None:
    """The ratchet: no new file, no file naming more; a file naming fewer lowers its count."""
    found = _found()
    new = {path: hits for path, hits in found.items() if path not in REMAINDER}
    assert new == {}, f"reach the expansion through frontend/js/expansions/index.js's hooks: {new}"
    grown = {
        path: (REMAINDER[path], len(hits))
        for path, hits in found.items()
        if len(hits) > REMAINDER[path]
    }
    assert grown == {}, f"{{file: (allowed, found)}}: {grown}"
    gone = sorted(set(REMAINDER) - set(found))
    assert gone == [], f"these name no expansion any more: take them out of REMAINDER: {gone}"
