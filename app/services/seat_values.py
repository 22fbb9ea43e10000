"""A match's seats as typed, frozen values (:class:`MatchSeat`), with the exact JSON they are
stored as (``matches.seats``) — pure: no I/O, no feature imported. It sits below the feature
packages so the instance-wide cache (:mod:`app.services.cache`) can hold a cached match's seats
typed, as :mod:`app.services.clock_values` lets it hold the clock typed.

A stored seat is ``{"seat", "player", "name", "colour", "bot", "level", "bot_account"}`` in
turn order (:func:`app.services.lobby.dealing.deal` writes every key; matches dealt by older
releases lack ``level`` and ``bot_account``, some even more). ``MatchSeat.from_json(data)
.to_json() == data`` for every stored seat, the order of its keys included: a key the stored
seat lacks stays absent, and keys this module does not know ride along in ``extra``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from app.json_types import JsonObject, JsonValue, json_copy

#: The keys every stored seat has.
REQUIRED_KEYS = ("seat", "name", "colour", "bot")
#: The keys of a seat this module knows, in the order a seat is written with.
KNOWN_KEYS = ("seat", "player", "name", "colour", "bot", "level", "bot_account")


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchSeat:
    """One seat of a match: its number ``seat`` (0-based, turn order), the ``player`` id
    holding it (None for a computer seat), the ``name`` and ``colour`` shown, whether it is a
    computer seat (``bot``), the computer ``level`` that plays it (a bot's, or a person's once
    the seat is handed to the computer; None: not stored, the default level) and whether its
    player is a bot account (``bot_account``, shown as BOT).
    """

    seat: int
    player: str | None
    name: str | None
    colour: str | None
    bot: bool
    level: str | None = None
    bot_account: bool = False
    #: The stored seat's keys in their order (known and extra); a known key not in it is absent
    #: from the JSON, its field at its default.
    keys: tuple[str, ...] = field(default=KNOWN_KEYS, compare=False, repr=False)
    #: Keys this module does not know, kept as they are.
    extra: Mapping[str, JsonValue] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, JsonValue]) -> MatchSeat:
        """Parse a stored seat dict. Raises ``KeyError`` for a seat without a required key
        (:data:`REQUIRED_KEYS`) and ``ValueError`` for a known key holding a value of the wrong
        kind (``seat`` an integer, ``bot`` and ``bot_account`` booleans, the others text or
        null).
        """
        for key in REQUIRED_KEYS:
            if key not in data:
                raise KeyError(key)
        number = data["seat"]
        if not isinstance(number, int) or isinstance(number, bool):
            raise ValueError(f"a seat's number must be an integer: {number!r}")
        return cls(
            seat=number,
            player=_text(data, "player"),
            name=_text(data, "name"),
            colour=_text(data, "colour"),
            bot=_flag(data, "bot"),
            level=_text(data, "level"),
            bot_account=_flag(data, "bot_account"),
            keys=tuple(data),
            extra={k: json_copy(v) for k, v in data.items() if k not in KNOWN_KEYS},
        )

    def to_json(self) -> JsonObject:
        """The stored dict, its keys in their stored order (extra keys not in :attr:`keys`
        after them); fresh lists and dicts: the caller may change it.
        """
        known: JsonObject = {
            "seat": self.seat,
            "player": self.player,
            "name": self.name,
            "colour": self.colour,
            "bot": self.bot,
            "level": self.level,
            "bot_account": self.bot_account,
        }
        extra = {k: json_copy(v) for k, v in self.extra.items()}
        order = (*self.keys, *(k for k in extra if k not in self.keys))
        return {k: known[k] if k in KNOWN_KEYS else extra[k] for k in order}


def seats_from_json(data: Iterable[Mapping[str, JsonValue]]) -> tuple[MatchSeat, ...]:
    """A match's stored seats (``matches.seats``, in turn order) typed; raises as
    :meth:`MatchSeat.from_json`.
    """
    return tuple(MatchSeat.from_json(s) for s in data)


def seats_to_json(seats: Iterable[MatchSeat]) -> list[JsonObject]:
    """The stored form of ``seats`` (fresh dicts), as :func:`seats_from_json` read it."""
    return [s.to_json() for s in seats]


def seat_of(seats: Sequence[MatchSeat], player_id: str | None) -> int | None:
    """The number of the first seat ``player_id`` holds (None: not seated, or no player)."""
    if player_id is None:
        return None
    return next((s.seat for s in seats if s.player == player_id), None)


def _text(data: Mapping[str, JsonValue], key: str) -> str | None:
    """``data[key]``, text or null (None when absent); raises ``ValueError`` for another kind."""
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"a seat's {key} must be text or null: {value!r}")
    return value


def _flag(data: Mapping[str, JsonValue], key: str) -> bool:
    """``data[key]``, a boolean (False when absent); raises ``ValueError`` for another kind."""
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"a seat's {key} must be true or false: {value!r}")
    return value
