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
account deletion: all of the player's), and when its push service answers 404/410 or fails
five times in a row.
"""

from __future__ import annotations

import base64
import binascii
import logging
from datetime import timedelta
from typing import Any

from app.db.models import utcnow
from app.services.cache import Live
from app.services.community import queries
from app.services.errors import NotFound, ValidationFailed
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
            async with rt.db.transaction() as conn:
                pem = await queries.shared_secret(
                    conn, "vapid_private_key", rt.push.new_private_pem()
                )
        rt.push.load_keys(pem)
    return rt.push.public_key


def _key(value: Any, name: str, size: int) -> str:
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
    rt: Runtime, player_id: str, session: str | None, subscription: dict[str, Any], lang: str
) -> dict[str, Any]:
    """Store a browser's push subscription (``{"endpoint", "keys": {"p256dh", "auth"}}``, as
    ``PushSubscription.toJSON()`` gives it) for the player's login ``session`` (None: guest).
    Returns ``{"id"}``. Raises :class:`ValidationFailed` for an endpoint that is not a known
    push service over https, or keys of the wrong size (p256dh: 65 bytes, auth: 16).
    """
    endpoint = subscription.get("endpoint")
    if not isinstance(endpoint, str) or len(endpoint) > 1000:
        raise ValidationFailed("endpoint: a push service URL")
    why = rt.push.check_endpoint(endpoint)
    if why is not None:
        raise ValidationFailed(f"endpoint: not a push service ({why})")
    given = subscription.get("keys")
    keys: dict[str, Any] = given if isinstance(given, dict) else {}
    p256dh = _key(keys.get("p256dh"), "p256dh", 65)
    auth = _key(keys.get("auth"), "auth", 16)
    row = {
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
    async with rt.db.transaction() as conn:
        await queries.save(conn, row)
    return {"id": row["id"]}


async def unsubscribe(rt: Runtime, player_id: str, endpoint: str) -> None:
    """Turn the alert off on one device. Raises :class:`NotFound` (not the player's)."""
    async with rt.db.transaction() as conn:
        gone = await queries.remove(conn, player_id, queries.subscription_id(endpoint))
    if not gone:
        raise NotFound("no such subscription")


async def devices(rt: Runtime, player_id: str) -> list[dict[str, Any]]:
    """The player's subscribed devices: ``[{"id", "created_at"}]``, oldest first."""
    async with rt.db.reading() as conn:
        rows = await queries.of_player(conn, player_id)
    return [{"id": r.id, "created_at": r.created_at.isoformat()} for r in rows]


async def forget(rt: Runtime, player_id: str, session: str | None = None) -> None:
    """End the subscriptions of one login ``session`` (logout), or all of the player's."""
    async with rt.db.transaction() as conn:
        await queries.remove_for(conn, player_id, session)


async def _send_all(rt: Runtime, rows: list[Any], payload_of: Any) -> int:
    """Send ``payload_of(row)`` to each subscription; returns how many push services took
    theirs. Gone or failing subscriptions are noted (and deleted when due).
    """
    await ensure_keys(rt)
    delivered = 0
    for r in rows:
        outcome = await rt.push.send(r.endpoint, r.p256dh, r.auth, payload_of(r))
        async with rt.db.transaction() as conn:
            if outcome.ok:
                delivered += 1
                await queries.succeeded(conn, r.id)
            else:
                await queries.failed(conn, r.id, outcome.gone)
    return delivered


async def test_alert(rt: Runtime, player_id: str) -> dict[str, int]:
    """Send "alerts are on" to each of the player's devices: ``{"devices", "delivered"}``."""
    async with rt.db.reading() as conn:
        rows = await queries.of_player(conn, player_id)

    def payload(r: Any) -> dict[str, Any]:
        title, body = _TEST_WORDS[r.lang]
        return {"type": "test", "title": title, "body": body, "url": "/#/lobbies"}

    return {"devices": len(rows), "delivered": await _send_all(rt, rows, payload)}


def turn_alert_due(live: Live, acted_seat: int) -> tuple[str, int, int] | None:
    """After a committed move: ``(player id, seat, move)`` when it made it a person's turn in a
    match whose clock kind is in :data:`ALERTED_KINDS` (``move``: the 1-based record move the
    seat is to play); None otherwise (the same seat acts on, the match is over, a computer's
    seat, an untimed or chess-clock match).
    """
    state = live.state
    if state.is_over or state.seat == acted_seat or live.clock is None:
        return None
    kind = (live.clock.get("control") or {}).get("kind")
    if kind not in ALERTED_KINDS:
        return None
    seat = next((s for s in live.seats if s["seat"] == state.seat), None)
    if seat is None or seat.get("bot") or not seat.get("player"):
        return None
    return str(seat["player"]), state.seat, state.turn + 1


async def alert_turn(
    rt: Runtime, live: Live, player_id: str, seat: int, move: int, host: str | None
) -> int:
    """Alert ``player_id`` on every device that it is their turn (move ``move``) in the match
    of ``live``, unless the seat has a socket on the match now; ``host``: the host's name, for
    a table without a name. Returns pushes delivered. Errors are logged, never raised (an
    alert must not disturb the move).
    """
    try:
        async with rt.db.reading() as conn:
            seen = await queries.last_seen(conn, live.match_id, seat)
            if seen is not None and utcnow() - seen <= PRESENT:
                return 0
            rows = await queries.of_player(conn, player_id)
        if not rows:
            return 0
        host = host or "?"

        def payload(r: Any) -> dict[str, Any]:
            title, body, unnamed = _WORDS[r.lang]
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

        return await _send_all(rt, rows, payload)
    except Exception:
        log.exception("turn alert for match %s failed", live.match_id)
        return 0
