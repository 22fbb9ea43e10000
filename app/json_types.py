"""JSON as a type: what a payload, a JSON column or a frame may hold, without ``Any``.

``JsonValue`` is recursive (a list or an object holds JSON values again), so a value read out of
a :data:`JsonObject` must be narrowed (``isinstance``) before it is used as a number, a list or an
object: the type says what JSON allows, not what one payload holds. A payload whose shape is
fixed gets a ``TypedDict`` or a frozen dataclass in its feature instead; these aliases are for
the edges where the shape is open (a record's moves, a client's frame before validation).

The aliases are types at run time too (``JsonValue`` a ``TypeAliasType``, recursive without a
string), so pydantic can read a ``TypedDict`` holding them: the API's response schemas are the
services' ``TypedDict`` s (app/api/schemas_tournaments.py).
"""

from __future__ import annotations

from typing import TypeAlias

from typing_extensions import TypeAliasType

#: A JSON scalar: a string, a number, a boolean or ``null``.
JsonScalar: TypeAlias = str | int | float | bool | None
#: Any JSON value (RFC 8259): a scalar, an array of values or an object of values.
JsonValue = TypeAliasType("JsonValue", "JsonScalar | list[JsonValue] | dict[str, JsonValue]")
#: A JSON object: string keys, JSON values.
JsonObject: TypeAlias = dict[str, JsonValue]
#: A JSON array.
JsonArray: TypeAlias = list[JsonValue]


def json_copy(value: JsonValue) -> JsonValue:
    """A deep copy of JSON data: fresh dicts and lists all the way down (other values are
    immutable and shared).
    """
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value
