"""Turn alerts that reach a closed tab: Web Push for correspondence and per-turn matches.

A player opts in per device (browser): the client subscribes with the browser's push service
against the server's VAPID public key (``GET /api/push/key``) and hands the subscription over
(``POST /api/push/subscriptions``, with the reader's language). When a move makes it a seat's
turn in a match with a ``correspondence`` or ``per_turn`` clock, and that seat's player has no
socket on the match (its presence is older than the presence window), every device of theirs
gets one encrypted message: ``{"type": "turn", "match", "move", "table", "title", "body",
"url"}`` — the table's name and the record move (1-based) they are to play, worded in the
language of that device. The service worker (``frontend/sw.js``) shows it and opens the match.

A device's subscription ends when its owner turns the alert off, when that login logs out
(its ``session``), when every device is signed out (password change, sign-out everywhere,
account deletion: all of the player's), when its push service answers 404/410 or fails
five times in a row, when its keys turn out to encrypt nothing, and when the player
subscribes more devices than ``PUSH_SUBSCRIPTIONS_PER_PLAYER`` (the oldest goes).

Pushes to a player's devices go out together, each on its own: one device's failure (a push
service down, keys that encrypt nothing, a library error) never stops the others', and never
reaches the move that caused the alert. A test alert that no push service took is a 502
``push_failed`` (reason ``push_undelivered``), never a 500; test alerts are counted per
player (``PUSH_TESTS_PER_PLAYER``).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import TypedDict

from app.db.models import utcnow
from app.json_types import JsonObject, JsonValue
from app.services.cache import Live
from app.services.community import queries
from app.services.community.model import NewSubscription, Subscription
from app.services.errors import NotFound, PushFailed, ValidationFailed
from app.services.runtime import Runtime

log = logging.getLogger(__name__)

#: Clock kinds whose turns are worth an alert (a live untimed or chess-clock match is watched).
ALERTED_KINDS = ("correspondence", "per_turn")
#: A seat seen this recently has a socket on the match (app.realtime.hub.PRESENCE_TTL).
PRESENT = timedelta(seconds=45)

_WORDS = {
    "en": ("Your turn", "{table} — move {move}", "{host}'s table"),
    "de": ("Du bist dran", "{table} — Zug {move}", "Tisch von {host}"),
    "fr": ("À vous de jouer", "{table} — coup {move}", "Table de {host}"),
}
#: What a push carries for one subscription (JSON, encrypted to it).
PayloadOf = Callable[[Subscription], JsonObject]


class Device(TypedDict):
    """A subscribed device: ``id`` and ``created_at`` (ISO 8601)."""

    id: str
    created_at: str


_TEST_WORDS = {
    "en": ("Turn alerts are on", "This device will hear when it is your turn."),
    "de": ("Zug-Hinweise sind an", "Dieses Gerät meldet sich, wenn du dran bist."),
    "fr": ("Alertes activées", "Cet appareil vous préviendra quand ce sera à vous."),
}


async def ensure_keys(rt: Runtime) -> str:
    """Load the VAPID key pair (setting, else the shared generated one); its public key."""
    if not rt.push.ready:
        pem = rt.push.configured_key
        if not pem:
            async with rt.storage.db.transaction() as conn:
                pem = await queries.shared_secret(
                    conn, "vapid_private_key", rt.push.new_private_pem()
                )
        rt.push.load_keys(pem)
    return rt.push.public_key


def _key(value: JsonValue, name: str, size: int) -> str:
    """A base64url key of ``size`` bytes, or :class:`ValidationFailed`."""
    if not isinstance(value, str) or len(value) > 200:
        raise ValidationFailed(f"keys.{name}: a base64url string")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise ValidationFailed(f"keys.{name}: a base64url string") from None
    if len(raw) != size:
        raise ValidationFailed(f"keys.{name}: {size} bytes expected")
    return value


async def subscribe(
    rt: Runtime, player_id: str, session: str | None, subscription: JsonObject, lang: str
) -> dict[str, str]:
    """Store a browser's push subscription (``{"endpoint", "keys": {"p256dh", "auth"}}``, as
    ``PushSubscription.toJSON()`` gives it) for the player's login ``session`` (None: guest).
    Returns ``{"id"}``. A player keeps at most ``PUSH_SUBSCRIPTIONS_PER_PLAYER`` devices: past
    it, the oldest subscriptions are deleted (counted and trimmed under a lock on the player's
    row, so concurrent subscriptions never leave more). Raises :class:`ValidationFailed` for
    an endpoint that is not a known push service over https, keys of the wrong size (p256dh:
    65 bytes, auth: 16), or a p256dh that is no P-256 point (reason ``push_keys_invalid``).
    """
    endpoint = subscription.get("endpoint")
    if not isinstance(endpoint, str) or len(endpoint) > 1000:
        raise ValidationFailed("endpoint: a push service URL")
    why = rt.push.check_endpoint(endpoint)
    if why is not None:
        raise ValidationFailed(f"endpoint: not a push service ({why})")
    given = subscription.get("keys")
    keys: JsonObject = given if isinstance(given, dict) else {}
    p256dh = _key(keys.get("p256dh"), "p256dh", 65)
    auth = _key(keys.get("auth"), "auth", 16)
    if not rt.push.keys_usable(p256dh):
        raise ValidationFailed(
            "keys.p256dh: not a P-256 public key (nothing can be encrypted to it)",
            reason="push_keys_invalid",
        )
    row: NewSubscription = {
        "id": queries.subscription_id(endpoint),
        "player_id": player_id,
        "session": session,
        "endpoint": endpoint,
        "p256dh": p256dh,
        "auth": auth,
        "lang": lang if lang in _WORDS else "en",
        "failures": 0,
        "created_at": utcnow(),
    }
    async with rt.storage.db.transaction() as conn:
        await queries.lock_player(conn, player_id, rt.storage.db.is_postgres)
        await queries.save(conn, row)
        await queries.trim(conn, player_id, rt.settings.push_subscriptions_per_player)
    return {"id": row["id"]}


async def unsubscribe(rt: Runtime, player_id: str, endpoint: str) -> None:
    """Turn the alert off on one device. Raises :class:`NotFound` (not the player's)."""
    async with rt.storage.db.transaction() as conn:
        gone = await queries.remove(conn, player_id, queries.subscription_id(endpoint))
    if not gone:
        raise NotFound("no such subscription")


async def devices(rt: Runtime, player_id: str) -> list[Device]:
    """The player's subscribed devices: ``[{"id", "created_at"}]``, oldest first."""
    async with rt.storage.db.reading() as conn:
        rows = await queries.of_player(conn, player_id)
    return [{"id": r.id, "created_at": r.created_at.isoformat()} for r in rows]


async def forget(rt: Runtime, player_id: str, session: str | None = None) -> None:
    """End the subscriptions of one login ``session`` (logout), or all of the player's."""
    async with rt.storage.db.transaction() as conn:
        await queries.remove_for(conn, player_id, session)


async def _send_one(rt: Runtime, r: Subscription, payload: JsonObject) -> str:
    """Send one push and note its outcome: ``"delivered"``, ``"dropped"`` (the subscription
    was deleted: gone, or keys that encrypt nothing) or ``"failed"``. Never raises (but for
    cancellation): a database error noting it is logged and counts as failed.
    """
    outcome = await rt.push.send(r.endpoint, r.p256dh, r.auth, payload)
    try:
        async with rt.storage.db.transaction() as conn:
            if outcome.ok:
                await queries.succeeded(conn, r.id)
            else:
                await queries.failed(conn, r.id, outcome.gone)
    except Exception:
        log.exception("could not note the push outcome of subscription %s", r.id[:12])
    if outcome.ok:
        return "delivered"
    return "dropped" if outcome.gone else "failed"


async def _send_all(rt: Runtime, rows: list[Subscription], payload_of: PayloadOf) -> dict[str, int]:
    """Send ``payload_of(row)`` to each subscription, all at once and each on its own (one
    device's failure never holds up or stops another's). Returns ``{"delivered", "dropped",
    "failed"}``: how many push services took theirs, how many subscriptions were deleted
    (gone, unusable keys), how many failed otherwise (kept; deleted after five in a row).
    """
    await ensure_keys(rt)
    outcomes = await asyncio.gather(*(_send_one(rt, r, payload_of(r)) for r in rows))
    return {k: outcomes.count(k) for k in ("delivered", "dropped", "failed")}


async def test_alert(rt: Runtime, player_id: str) -> dict[str, int]:
    """Send "alerts are on" to each of the player's devices: ``{"devices", "delivered"}``
    (``{"devices": 0, "delivered": 0}`` when none). Raises :class:`RateLimited` past
    ``PUSH_TESTS_PER_PLAYER``, and :class:`PushFailed` (502, reason ``push_undelivered``,
    ``params`` ``{"devices", "dropped"}``) when the player has devices and none took it.
    """
    await rt.limits.accounts.push_test(player_id)
    async with rt.storage.db.reading() as conn:
        rows = await queries.of_player(conn, player_id)

    def payload(r: Subscription) -> JsonObject:
        title, body = _TEST_WORDS.get(r.lang, _TEST_WORDS["en"])
        return {"type": "test", "title": title, "body": body, "url": "/#/lobbies"}

    sent = await _send_all(rt, rows, payload)
    if rows and not sent["delivered"]:
        raise PushFailed(
            "no push service took the test alert: turn alerts off and on again on the device",
            reason="push_undelivered",
            params={"devices": len(rows), "dropped": sent["dropped"]},
        )
    return {"devices": len(rows), "delivered": sent["delivered"]}


def turn_alert_due(live: Live, acted_seat: int) -> tuple[str, int, int] | None:
    """After a committed move: ``(player id, seat, move)`` when it made it a person's turn in a
    match whose clock kind is in :data:`ALERTED_KINDS` (``move``: the 1-based record move the
    seat is to play); None otherwise (the same seat acts on, the match is over, a computer's
    seat, an untimed or chess-clock match).
    """
    state = live.state
    if state.is_over or state.seat == acted_seat or live.clock is None:
        return None
    if live.clock.control.kind not in ALERTED_KINDS:
        return None
    seat = next((s for s in live.seats if s.seat == state.seat), None)
    if seat is None or seat.bot or not seat.player:
        return None
    return seat.player, state.seat, state.turn + 1


async def alert_turn(
    rt: Runtime, live: Live, player_id: str, seat: int, move: int, host: str | None
) -> int:
    """Alert ``player_id`` on every device that it is their turn (move ``move``) in the match
    of ``live``, unless the seat has a socket on the match now; ``host``: the host's name, for
    a table without a name. Returns pushes delivered. Errors are logged, never raised (an
    alert must not disturb the move).
    """
    try:
        async with rt.storage.db.reading() as conn:
            seen = await queries.last_seen(conn, live.match_id, seat)
            if seen is not None and utcnow() - seen <= PRESENT:
                return 0
            rows = await queries.of_player(conn, player_id)
        if not rows:
            return 0
        host = host or "?"

        def payload(r: Subscription) -> JsonObject:
            title, body, unnamed = _WORDS.get(r.lang, _WORDS["en"])
            table = live.name or unnamed.format(host=host)
            return {
                "type": "turn",
                "match": live.match_id,
                "move": move,
                "table": table,
                "title": title,
                "body": body.format(table=table, move=move),
                "url": f"/#/match/{live.match_id}",
            }

        return (await _send_all(rt, rows, payload))["delivered"]
    except Exception:
        log.exception("turn alert for match %s failed", live.match_id)
        return 0
