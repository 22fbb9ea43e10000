"""Computer players: three levels that choose actions through the engine API (no I/O).

Every level decides from what its seat may see: :func:`plan` first reduces the game to its
public part (:func:`app.bots.public.redacted`: the undrawn tiles in a canonical order, no seed),
so the hidden deck order cannot reach a decision. ``easy`` (:mod:`app.bots.easy`), ``normal``
(:mod:`app.bots.heuristic`), ``strong`` (:mod:`app.bots.strong`, a search with a time budget).
Servers think in worker processes (:mod:`app.bots.pool`).
"""

from __future__ import annotations

import random

from app.bots import easy, heuristic, strong
from app.bots.public import Position, public_position, public_state, redacted
from app.engine import Action, GameState, action_from_json

LEVELS = ("easy", "normal", "strong")
DEFAULT_LEVEL = "normal"
#: Seconds a Strong bot thinks per decision unless told otherwise.
DEFAULT_THINK = 1.0


def decide(root: GameState, rng: random.Random, level: str, think: float) -> list[Action]:
    """The decision of ``level`` for ``root.seat`` of a *redacted* ``root``: the action to
    play now, possibly followed by the follower decision it intends after a placement.
    Raises ValueError for an unknown level or when the game takes no action.
    """
    if level == "strong":
        return strong.plan(root, rng, think)
    if level == "normal":
        return [heuristic.choose_action(root, rng)]
    if level == "easy":
        return [easy.choose_action(root, rng)]
    raise ValueError(f"unknown bot level {level!r}: one of {', '.join(LEVELS)}")


def plan(
    state: GameState, rng: random.Random, level: str = DEFAULT_LEVEL, think: float = DEFAULT_THINK
) -> list[Action]:
    """:func:`decide` on the public part of ``state`` (any state: it is redacted first)."""
    return decide(redacted(state), rng, level, think)


def choose_action(
    state: GameState, rng: random.Random, level: str = DEFAULT_LEVEL, think: float = DEFAULT_THINK
) -> Action:
    """One legal action for ``state.seat`` at ``level``; raises ValueError when the game takes
    none (over, paused) or the level is unknown.
    """
    return plan(state, rng, level, think)[0]


def plan_position(
    position: Position, seed: int, level: str, think: float
) -> list[dict[str, object]]:
    """Worker-process entry: :func:`decide` from a :func:`public_position` (JSON in, action
    JSON out; the seed makes the decision reproducible).
    """
    root = public_state(position)
    return [a.to_json() for a in decide(root, random.Random(seed), level, think)]


def actions_from_json(raw: list[dict[str, object]]) -> list[Action]:
    """Decode :func:`plan_position`'s answer."""
    return [action_from_json(a) for a in raw]


__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_THINK",
    "LEVELS",
    "actions_from_json",
    "choose_action",
    "decide",
    "plan",
    "plan_position",
    "public_position",
]
