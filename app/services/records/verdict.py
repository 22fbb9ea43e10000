"""The verdict of a finished match as a competition: who placed where, who won, who left.

The engine's ``winners`` are the rules' (the highest final score, RULES.md §4.4) and stay in
its view and its record's ``result``. The service judges the match as a contest between the
people at the table (docs/RATINGS.md): a seat that *left* — the computer played a turn for it
(a time-out, an abandoned turn, a seat handed to the computer) or it was away when the others
ended the match early — is ranked last whatever its score; the seats that stayed are ranked by
score. That verdict is what the end screen, the history, the ratings, the record and the API
all say, so they never contradict each other. Its points are still shown as scored.

Pure functions: no I/O (the history settlement stores what :func:`left_moves` finds, and
:func:`verdict_json` shapes it for every reader).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypedDict

from app.engine import Action, PlaceTile, is_decision, record_decisions
from app.json_types import JsonObject


def _entries(record: JsonObject) -> list[JsonObject]:
    """The record's move entries (``moves``; objects only)."""
    moves = record.get("moves")
    return [m for m in moves if isinstance(m, dict)] if isinstance(moves, list) else []


def moves_of_actions(record: JsonObject, actions: Sequence[Action]) -> dict[int, int]:
    """``{seq: move}``: the record move (1-based index into ``record["moves"]``, as in
    ``#/replay/ID?move=N``) that each logged action (``seq`` = its index in ``actions`` + 1)
    belongs to. A move entry owns its off-turn decisions (one decision action each,
    :func:`app.engine.record_decisions`), then, when
    it placed a tile, the ``PlaceTile`` and the follower decision after it. A running match's
    last, unfinished turn belongs to the move after the last entry.
    """
    out: dict[int, int] = {}
    seq = 1
    entries = _entries(record)
    for n, entry in enumerate(entries, start=1):
        for _ in record_decisions(entry):
            if seq <= len(actions) and is_decision(actions[seq - 1]):
                out[seq] = n
                seq += 1
        if "tile" in entry and seq <= len(actions) and isinstance(actions[seq - 1], PlaceTile):
            out[seq] = n
            out[seq + 1] = n
            seq += 2
    for rest in range(seq, len(actions) + 1):
        out[rest] = len(entries) + 1
    return out


def left_moves(
    record: JsonObject,
    actions: Sequence[Action],
    computer_seqs: Iterable[int],
    away_at_end: Iterable[int] = (),
) -> dict[int, int]:
    """``{seat: move}`` of every seat that left, with the first move it did not play itself.

    ``computer_seqs``: the logged actions the computer chose for a person
    (``match_actions.by``); an off-turn decision after its short time-out (e.g. a Wheel of
    Fortune Plague removal) does not count as leaving (docs/RATINGS.md). ``away_at_end``: seats
    away when the others ended the match early (they left at the move that was never played:
    the one after the last).
    """
    move_of = moves_of_actions(record, actions)
    after_last = len(_entries(record)) + 1
    out: dict[int, int] = {}
    for seq in sorted(computer_seqs):
        if not 0 < seq <= len(actions) or is_decision(actions[seq - 1]):
            continue
        seat = int(actions[seq - 1].seat)
        out.setdefault(seat, move_of.get(seq, after_last))
    for seat in away_at_end:
        out.setdefault(int(seat), after_last)
    return out


class LeftAt(TypedDict):
    """A seat that left and the record move it first did not play (None: not known)."""

    seat: int
    move: int | None


class VerdictJson(TypedDict):
    """The ``verdict`` block of docs/API.md (see :func:`verdict_json`)."""

    places: list[int]
    winners: list[int]
    scores: list[int]
    left: list[LeftAt]


def verdict_json(
    scores: Sequence[int], places: Sequence[int], left_at: dict[int, int | None]
) -> VerdictJson:
    """The ``verdict`` block of docs/API.md: ``{"places": [place by seat], "winners": [seats
    in place 1], "scores": [final points by seat], "left": [{"seat", "move"}]}``.

    ``places``: from :func:`app.services.records.ratings.placements` (leavers share the last place);
    ``left_at``: ``{seat: move}`` of the seats that left (``move`` null when not known: a
    match settled before moves were noted).
    """
    return {
        "places": list(places),
        "winners": [seat for seat, place in enumerate(places) if place == 1],
        "scores": list(scores),
        "left": [{"seat": seat, "move": move} for seat, move in sorted(left_at.items())],
    }
