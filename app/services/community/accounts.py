"""Accounts: a username and password on top of a player identity (guests keep playing as today).

An account is a row of ``accounts`` pointing at a ``players`` row, so everything keyed by the
player id (seats, match history, ratings) follows the account. Registering with a guest's token
turns that guest into the account and keeps its matches. Logging in answers with a bearer token
for the account's player (the same token family as guests', :class:`app.services.identity.Tokens`).

Passwords are hashed with Argon2id through ``pwdlib``, on the instance's hashing threads
(:class:`app.services.offload.Offload`), never on the event loop; an unknown username and a
wrong password get the same error, and an unknown username still costs one hash so timing
tells nothing. Every route that checks a password (login, change, delete) and registration
counts the attempt first (:class:`app.services.limits.accounts.AccountLimits`: per username and
address, per address, on Redis when ``REDIS_URL`` is set).
Deleting an account keeps its matches: the player's name becomes "Deleted player" everywhere.
"""

from __future__ import annotations

import functools
import re
import secrets

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import utcnow
from app.services import queries as player_queries
from app.services.community import push, queries
from app.services.community.model import Account, AccountJson
from app.services.community.socket_revocation import close_ended_session, close_revoked_player
from app.services.errors import Conflict, NotFound, Unauthorized, ValidationFailed
from app.services.identity import new_session
from app.services.runtime import Runtime

USERNAME_RE = re.compile(r"^[A-Za-z0-9_\-]{3,20}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 128
DELETED_NAME = "Deleted player"
_COMMON = {
    "password",
    "12345678",
    "123456789",
    "1234567890",
    "qwertyui",
    "qwerty123",
    "iloveyou",
    "11111111",
    "password1",
    "abcdefgh",
    "carcassonne",
    "00000000",
}

_hasher = PasswordHash.recommended()
#: ENVIRONMENT=test only: Argon2id with the smallest cost, so suites hashing hundreds of
#: passwords stay fast (a hash made with other parameters still verifies: they are stored in it).
_test_hasher = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
WRONG = "wrong username or password"


def _hash_for(rt: Runtime) -> PasswordHash:
    return _test_hasher if rt.settings.environment == "test" else _hasher


@functools.cache
def _dummy_hash(hasher: PasswordHash) -> str:
    """A hash of a random password made with ``hasher`` (made on first use, on the hashing
    thread: at import it cost every start-up ~0.1 s).
    """
    return str(hasher.hash("not-a-real-password-" + secrets.token_hex(8)))


def _verify_dummy(hasher: PasswordHash, password: str) -> None:
    hasher.verify(password, _dummy_hash(hasher))


async def _dummy_check(rt: Runtime, password: str, client: str) -> None:
    """Spend one hash on an unknown username, as a wrong password does (no timing oracle);
    ``client``: the caller's address (its turn in the hashing queue).
    """
    await rt.workers.offload.run(_verify_dummy, _hash_for(rt), password, key=client)


def clean_username(username: str) -> str:
    """A valid username (3–20 letters, digits, ``_`` or ``-``); raises
    :class:`ValidationFailed` naming the field.
    """
    if not isinstance(username, str) or not USERNAME_RE.fullmatch(username):
        raise ValidationFailed(
            "username: 3–20 letters, digits, '_' or '-'", reason="username_invalid"
        )
    return username


def check_password(password: str, username: str = "", field: str = "password") -> str:
    """A password strong enough to keep: 8–128 characters, not a common one, not the username,
    not one repeated character. Raises :class:`ValidationFailed` naming ``field``.
    """
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ValidationFailed(
            f"{field}: {MIN_PASSWORD}–{MAX_PASSWORD} characters",
            reason="password_length",
            params={"min": MIN_PASSWORD, "max": MAX_PASSWORD},
        )
    lowered = password.lower()
    if lowered in _COMMON or len(set(password)) < 3 or (username and lowered == username.lower()):
        raise ValidationFailed(
            f"{field}: too easy to guess; choose a longer, less common one",
            reason="password_common",
        )
    return password


def account_json(player_id: str, name: str, username: str | None) -> AccountJson:
    """``{"id", "name", "username"}`` (``username`` null for a guest)."""
    return {"id": player_id, "name": name, "username": username}


async def register(
    rt: Runtime, username: str, password: str, client: str, guest_id: str | None = None
) -> tuple[AccountJson, str]:
    """Create an account; returns ``(account JSON, token)``.

    ``client``: the caller's address (registrations are limited per address).
    ``guest_id``: the caller's guest player (from its token), which becomes the account and
    keeps its matches and name; without one a new player named ``username`` is made. The
    guest's tokens are revoked (its sockets close): from now on only the account's token and
    password get in. Raises :class:`ValidationFailed` (username, password), :class:`Conflict`
    (username taken, the guest already has an account), :class:`RateLimited`. Nothing is
    created on error.
    """
    username = clean_username(username)
    check_password(password, username)
    await rt.limits.accounts.registration(client)
    digest = await rt.workers.offload.run(_hash_for(rt).hash, password, key=client)
    now = utcnow()
    try:
        async with rt.storage.db.transaction() as conn:
            if guest_id is not None:
                guest_name = await queries.player_name(conn, guest_id)
                if guest_name is None:
                    raise NotFound("no such player")
                if await queries.account(conn, guest_id) is not None:
                    raise Conflict(
                        "you already have an account: log in instead", reason="account_exists"
                    )
                player_id, name = guest_id, guest_name
                # The guest token (and any copy of it) no longer gets in: only the account's.
                token = await rt.revocations.revoke(conn, player_id)
            else:
                player_id, name = secrets.token_hex(8), username
                await player_queries.insert_player(conn, player_id, name, now)
                token = rt.tokens.issue(player_id, 0, new_session())
            if await queries.is_username_taken(conn, username.lower()):
                raise Conflict("username: already taken", reason="username_taken")
            await queries.insert_account(
                conn,
                {
                    "player_id": player_id,
                    "username": username,
                    "username_key": username.lower(),
                    "password_hash": digest,
                    "created_at": now,
                    "updated_at": now,
                },
            )
    except IntegrityError:
        raise Conflict("username: already taken", reason="username_taken") from None
    if guest_id is not None:
        await revoked(rt, player_id, token)
    return account_json(player_id, name, username), token


async def login(rt: Runtime, username: str, password: str, client: str) -> tuple[AccountJson, str]:
    """Check a username and password; returns ``(account JSON, token)``.

    Raises :class:`RateLimited` (too many attempts for this username from this address, or from
    this address), :class:`Unauthorized` with the same message for an unknown user and a wrong
    password.
    """
    if (
        not isinstance(username, str)
        or not isinstance(password, str)
        or len(username) > 64
        or len(password) > MAX_PASSWORD
    ):
        raise ValidationFailed("username and password: text, at most 64 and 128 characters")
    key = username.lower()
    await rt.limits.accounts.password_attempt(key, client)
    if not USERNAME_RE.fullmatch(username):  # cannot exist: answer as for an unknown user
        await _dummy_check(rt, password, client)
        await rt.limits.accounts.password_failed(key)
        raise Unauthorized(WRONG)
    async with rt.storage.db.reading() as conn:
        row = await queries.login_row(conn, key)
    if row is None:
        await _dummy_check(rt, password, client)  # the same cost as a real check
        await rt.limits.accounts.password_failed(key)
        raise Unauthorized(WRONG)
    verify = _hash_for(rt).verify_and_update
    valid, new_hash = await rt.workers.offload.run(verify, password, row.password_hash, key=client)
    if not valid:
        await rt.limits.accounts.password_failed(key)
        raise Unauthorized(WRONG)
    if new_hash is not None:  # parameters were raised since: store the stronger hash
        async with rt.storage.db.transaction() as conn:
            await queries.update_account(conn, row.player_id, {"password_hash": new_hash})
    token = rt.tokens.issue(row.player_id, row.token_generation, new_session())
    return account_json(row.player_id, row.name, row.username), token


async def whoami(rt: Runtime, player_id: str) -> AccountJson:
    """Account JSON of a player (``username`` null for a guest); raises :class:`NotFound`."""
    async with rt.storage.db.reading() as conn:
        row = await queries.player_account(conn, player_id)
    if row is None:
        raise NotFound("no such player")
    return account_json(row.id, row.name, row.username)


async def revoked(rt: Runtime, player_id: str, token: str) -> None:
    """After a committed revocation of ``player_id``'s tokens: this instance trusts no older
    token from now on and closes their sockets here (other instances within seconds:
    :mod:`app.services.community.socket_revocation`); its devices' turn alerts end. ``token``:
    the new generation's token.
    """
    await close_revoked_player(rt, player_id, rt.tokens.claims(token)[1])
    await push.forget(rt, player_id)  # every device's turn alerts end with its tokens


async def _verified(rt: Runtime, player_id: str, password: str, client: str) -> Account:
    """The caller's account row once ``password`` is its password: the attempt counted first,
    under the same limits as a login from ``client``; hashed off the loop, outside any
    transaction. Raises :class:`NotFound`, :class:`RateLimited`, :class:`Unauthorized`.
    """
    async with rt.storage.db.reading() as conn:
        row = await queries.account(conn, player_id)
    if row is None:
        raise NotFound("you have no account")
    await rt.limits.accounts.password_attempt(row.username_key, client)
    ok = (
        isinstance(password, str)
        and len(password) <= MAX_PASSWORD
        and await rt.workers.offload.run(
            _hash_for(rt).verify, password, row.password_hash, key=client
        )
    )
    if not ok:
        await rt.limits.accounts.password_failed(row.username_key)
        raise Unauthorized("password: wrong password")
    return row


async def change_password(
    rt: Runtime, player_id: str, password: str, new_password: str, client: str
) -> str:
    """Replace the caller's password after checking the current one, and sign every other
    device out (their tokens are revoked, their sockets closed); returns a fresh token for
    the caller. ``client``: the caller's address (password checks are limited).

    Raises :class:`NotFound` (no account), :class:`RateLimited`, :class:`Unauthorized` (wrong
    current password), :class:`ValidationFailed` (new password too weak).
    """
    row = await _verified(rt, player_id, password, client)
    check_password(new_password, row.username, "new_password")
    digest = await rt.workers.offload.run(_hash_for(rt).hash, new_password, key=client)
    async with rt.storage.db.transaction() as conn:
        await queries.update_account(
            conn, player_id, {"password_hash": digest, "updated_at": utcnow()}
        )
        token = await rt.revocations.revoke(conn, player_id)
    await revoked(rt, player_id, token)
    return token


async def sign_out_everywhere(rt: Runtime, player_id: str) -> str:
    """Revoke every token of the caller's account (all devices, this one included) and return
    a fresh token for this device. Guests cannot: their token is their only way back in.

    Raises :class:`NotFound` (no account).
    """
    async with rt.storage.db.transaction() as conn:
        if await queries.account(conn, player_id) is None:
            raise NotFound("you have no account")
        token = await rt.revocations.revoke(conn, player_id)
    await revoked(rt, player_id, token)
    return token


async def delete_account(rt: Runtime, player_id: str, password: str, client: str) -> None:
    """Delete the caller's account after checking its password. Its matches stay, with the
    name replaced by "Deleted player" in seats and records; its ratings are removed; every
    token is revoked in the same transaction — its sessions' and its API tokens' — and their
    sockets and bot streams close (here at once, elsewhere within the sweep's seconds).
    ``client``: the caller's address (password checks are limited).

    Raises :class:`NotFound`, :class:`RateLimited`, :class:`Unauthorized`.
    """
    await _verified(rt, player_id, password, client)
    async with rt.storage.db.transaction() as conn:
        ids = await queries.delete_account(conn, player_id, DELETED_NAME)
        token = await rt.revocations.revoke(conn, player_id)  # every device is signed out
        api_ids = await player_queries.revoke_api_tokens(conn, player_id, utcnow())
        for match_id in ids:
            await _anonymise_match(conn, match_id, player_id)
    await revoked(rt, player_id, token)
    await close_ended_session(rt, player_id, *map(player_queries.api_token_session, api_ids))
    for match_id in ids:
        rt.storage.cache.drop(match_id)


async def _anonymise_match(conn: AsyncConnection, match_id: str, player_id: str) -> None:
    """Rename the player's seat(s) of one match in the seats, setup and snapshot."""
    row = await queries.match_names(conn, match_id)
    if row is None:
        return
    seats = [dict(s) for s in row.seats]
    mine: list[int] = []
    for s in seats:
        number = s.get("seat")
        if s.get("player") == player_id and isinstance(number, int):
            mine.append(number)
    for s in seats:
        if s.get("seat") in mine:
            s["name"] = DELETED_NAME
    setup, snapshot = dict(row.setup), dict(row.snapshot)
    for state in (setup, snapshot):
        players = state.get("players", [])
        names = list(players) if isinstance(players, list) else []
        for seat in mine:
            if seat < len(names):
                names[seat] = DELETED_NAME
        state["players"] = names
    await queries.update_match(conn, match_id, seats=seats, setup=setup, snapshot=snapshot)
