"""What a computer player may know, and the games it imagines from it.

A bot never reads the hidden deck order. :func:`public_position` reduces a
:class:`~app.engine.GameState` to what every seat already knows — the rules, the players, the
tiles drawn so far (placed or discarded, in order), the actions played, and the *multiset* of
tiles still to come, written in a fixed canonical order — so two games that differ only in the
order of the undrawn tiles give the same position, byte for byte. Everything a bot computes
starts from that position (:func:`public_state`), and its imagined futures
(:func:`determinize`) draw the unseen tiles at random from the public counts.

Only the public engine API is used (``GameState.to_json`` / ``load_state``, ``apply_in_place``).
"""

from __future__ import annotations

import random
from typing import Any

from app.engine import GameState, draw_stage, load_state

#: Position JSON: ``GameState.to_json()`` with ``seed`` removed and the undrawn part of
#: ``deck`` sorted canonically; ``drawn`` says how many deck entries are really known.
Position = dict[str, Any]


def public_position(state: GameState) -> Position:
    """The public part of ``state`` as JSON (no seed, no order of the undrawn tiles).

    Shape: ``{"format", "rules", "players", "seed": None, "deck", "partial", "actions",
    "drawn"}`` where ``deck[:drawn]`` are the tiles drawn so far in order and ``deck[drawn:]``
    the undrawn tiles sorted by (draw stage, tile id; :func:`app.engine.draw_stage`). Safe to
    hand to any bot process.
    """
    data = state.to_json()
    drawn = len(data["deck"]) - state.tiles_remaining
    rest = sorted(data["deck"][drawn:], key=lambda t: (draw_stage(state.options, t), t))
    data["deck"] = data["deck"][:drawn] + rest
    data["seed"] = None
    data["drawn"] = drawn
    return data


def _build(position: Position, deck: list[str]) -> GameState:
    data = {k: v for k, v in position.items() if k != "drawn"}
    data["deck"] = deck
    return load_state(data)


def public_state(position: Position) -> GameState:
    """A playable state of ``position`` (a replay of its actions) whose undrawn tiles are in
    canonical order: what a bot process builds from what it was sent.
    """
    return _build(position, list(position["deck"]))


def redacted(state: GameState) -> GameState:
    """The same as ``public_state(public_position(state))`` without a replay: a copy whose
    undrawn tiles are put in canonical order and whose seed is dropped.

    This (with :func:`with_future`) is the one place that writes the engine's ``deck``
    attribute; the never-peek tests check it gives what :func:`public_state` gives.
    """
    data = public_position(state)
    c = state.copy()
    c.deck = tuple(data["deck"])
    c.seed = None
    return c


def unseen(state: GameState) -> list[str]:
    """The tiles still to draw of a redacted state (a multiset in canonical order)."""
    return list(state.deck[len(state.deck) - state.tiles_remaining :])


def sample_future(state: GameState, rng: random.Random, horizon: int | None) -> list[str]:
    """A random draw order for the unseen tiles of a redacted ``state`` from their public
    counts, respecting the deck's draw stages (:func:`app.engine.draw_stage`), cut after
    ``horizon`` tiles (None: all of them).
    """
    stages: dict[int, list[str]] = {}
    for tid in unseen(state):
        stages.setdefault(draw_stage(state.options, tid), []).append(tid)
    order: list[str] = []
    for key in sorted(stages):
        group = stages[key]
        rng.shuffle(group)
        order += group
    return order if horizon is None else order[:horizon]


def with_future(state: GameState, future: list[str]) -> GameState:
    """A copy of a redacted ``state`` whose tiles still to draw are exactly ``future`` (an
    imagined order; shorter than the real rest makes the imagined game end sooner and run
    its final scoring — how bots score a position).
    """
    known = state.deck[: len(state.deck) - state.tiles_remaining]
    c = state.copy()
    c.deck = tuple(known) + tuple(future)
    return c


def determinize(state: GameState, rng: random.Random, horizon: int | None) -> GameState:
    """A concrete game consistent with what a redacted ``state`` shows: the known draws, then
    ``horizon`` unseen tiles in a random order (None: all).
    """
    return with_future(state, sample_future(state, rng, horizon))


def exhausted(state: GameState) -> GameState:
    """A redacted ``state`` with no tile left to draw: finishing the current turn runs the
    final scoring, so the scores then are the position's worth if the game stopped there.
    """
    return with_future(state, [])
