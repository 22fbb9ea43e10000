"""Accounts, history, ratings, replays and the shuffle check (docs/API.md § Accounts,
§ History and replays, § Ratings, § Fair bag).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Request, Response

from app.api.deps import (
    RENEWED_TOKEN_HEADER,
    BearerToken,
    CurrentPlayer,
    OptionalPlayer,
    RuntimeDep,
)
from app.api.responses import errors
from app.api.routes_matches import InviteCode, MatchId
from app.api.schemas import CODE_PATTERN
from app.api.schemas_community import (
    AccountCreated,
    AccountOut,
    Credentials,
    MatchPage,
    PasswordChange,
    PasswordConfirm,
    Profile,
    TokenOut,
    Verdict,
)
from app.bots.pool import Busy
from app.services.community import accounts
from app.services.community.socket_revocation import close_ended_session
from app.services.errors import RateLimited, ValidationFailed
from app.services.match import reads
from app.services.records import history, ratings, replays, shuffle
from app.services.runtime import Runtime

router = APIRouter(prefix="/api", tags=["accounts and history"])

_PLAYER_ID = re.compile(CODE_PATTERN)
PlayerId = Annotated[str, Path(pattern=CODE_PATTERN, description="the player id")]
PresetName = Annotated[str, Path(max_length=32, description="a key of GET /api/presets")]


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.post(
    "/accounts",
    status_code=201,
    response_model=AccountCreated,
    responses=errors(401, 409, 413, 429),
)
async def register(
    body: Credentials, rt: RuntimeDep, guest: OptionalPlayer, request: Request
) -> dict[str, Any]:
    """Create an account. With a guest's bearer token the guest becomes the account and keeps
    its matches and name (the guest token is revoked: use the one returned); without one a new
    player named after the username is made. Limited per client address (429).
    """
    client = _client(request)
    account, token = await accounts.register(rt, body.username, body.password, client, guest)
    return {"account": account, "token": token}


@router.post("/accounts/login", response_model=AccountCreated, responses=errors(401, 413, 429))
async def login(body: Credentials, rt: RuntimeDep, request: Request) -> dict[str, Any]:
    """Log in (any device): a new bearer token for the account's player. Unknown username and
    wrong password give the same 401; attempts are limited per username and per client.
    """
    account, token = await accounts.login(rt, body.username, body.password, _client(request))
    return {"account": account, "token": token}


@router.get("/accounts/me", response_model=AccountOut, responses=errors(401))
async def me(rt: RuntimeDep, player: CurrentPlayer) -> dict[str, Any]:
    """The caller: ``username`` is null for a guest."""
    return await accounts.whoami(rt, player)


@router.post(
    "/accounts/password",
    status_code=204,
    response_class=Response,
    responses=errors(401, 413, 429),
)
async def change_password(
    body: PasswordChange, rt: RuntimeDep, player: CurrentPlayer, request: Request
) -> Response:
    """Change the caller's password (the current one is checked, limited like logins). Every
    other device is signed out and its sockets closed; the caller's fresh token comes in the
    ``X-Renewed-Token`` header.
    """
    token = await accounts.change_password(
        rt, player, body.password, body.new_password, _client(request)
    )
    return Response(status_code=204, headers={RENEWED_TOKEN_HEADER: token})


@router.post("/accounts/logout", status_code=204, response_class=Response, responses=errors(401))
async def logout(rt: RuntimeDep, token: BearerToken) -> Response:
    """Log this device out: the session of the caller's token ends, and its tokens (renewed ones
    too) are refused from now on (other instances within 5 s). A guest's token has no session:
    nothing changes on the server (the client forgets it).
    """
    player = await rt.revocations.verify(token)
    await rt.revocations.end_session(token)
    session = rt.tokens.session(token)
    if session is not None:  # its sockets here close now; elsewhere within seconds
        await close_ended_session(rt, player, session)
    return Response(status_code=204)


@router.post("/accounts/sign-out-everywhere", response_model=TokenOut, responses=errors(401, 404))
async def sign_out_everywhere(
    rt: RuntimeDep, player: CurrentPlayer, response: Response
) -> dict[str, Any]:
    """Revoke every token of the caller's account, on every device; the caller gets a fresh
    one (also in ``X-Renewed-Token``). Other instances refuse the old tokens within 5 s.
    Guests get 404: their token is their only way back in.
    """
    token = await accounts.sign_out_everywhere(rt, player)
    response.headers[RENEWED_TOKEN_HEADER] = token
    return {"token": token}


@router.post(
    "/accounts/delete",
    status_code=204,
    response_class=Response,
    responses=errors(401, 413, 429),
)
async def delete_account(
    body: PasswordConfirm, rt: RuntimeDep, player: CurrentPlayer, request: Request
) -> Response:
    """Delete the caller's account (password checked, limited like logins). Matches stay, the
    name becomes "Deleted player"; ratings are removed.
    """
    await accounts.delete_account(rt, player, body.password, _client(request))
    return Response(status_code=204)


@router.get("/players/{player_id}/profile", response_model=Profile, responses=errors(401, 404))
async def profile(player_id: PlayerId, rt: RuntimeDep, viewer: OptionalPlayer) -> dict[str, Any]:
    """Matches played and won, ratings by preset, the 10 most recent matches."""
    return await history.profile(rt, player_id, viewer)


@router.get("/players/{player_id}/matches", response_model=MatchPage, responses=errors(401, 404))
async def player_matches(
    player_id: PlayerId,
    rt: RuntimeDep,
    viewer: OptionalPlayer,
    page: Annotated[int, Query(ge=1, le=10_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 20,
) -> dict[str, Any]:
    """A player's matches, newest first (private ones only to the player)."""
    return await history.player_matches(rt, player_id, page, per_page, viewer)


@router.get(
    "/me/records.zip",
    response_class=Response,
    responses={200: {"content": {"application/zip": {}}}, **errors(401)},
)
async def my_records(rt: RuntimeDep, player: CurrentPlayer) -> Response:
    """Every finished match of the caller as ``carcassonne-record/1`` files in one zip."""
    data = await history.records_zip(rt, player)
    return Response(
        data,
        media_type="application/zip",
        headers={"Content-Disposition": 'attachment; filename="carcassonne-records.zip"'},
    )


@router.get("/leaderboard/{preset}", responses=errors(404))
async def leaderboard(
    preset: PresetName,
    rt: RuntimeDep,
    page: Annotated[int, Query(ge=1, le=10_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 50,
) -> dict[str, Any]:
    """Rated players of one preset, best first: ``{"preset", "total", "players": [...]}``."""
    return await ratings.leaderboard(rt, preset, per_page, (page - 1) * per_page)


@router.get("/ratings")
async def ratings_of(
    rt: RuntimeDep,
    preset: Annotated[str, Query(max_length=32)],
    players: Annotated[str, Query(max_length=200, description="ids, comma-separated")],
) -> dict[str, Any]:
    """``{"preset", "ratings": {player_id: rating}}`` for seats and lobby cards (at most 5)."""
    ratings.require_preset(preset)
    ids = [p for p in players.split(",") if _PLAYER_ID.fullmatch(p)][:5]
    return {"preset": preset, "ratings": await ratings.of_players(rt, ids, preset)}


@router.get("/matches/{match_id}/replay", responses=errors(401, 403, 404))
async def match_replay(
    match_id: MatchId, rt: RuntimeDep, player: OptionalPlayer, code: InviteCode = None
) -> dict[str, Any]:
    """The match cut into steps for the replay viewer: a finished match whole (with its
    revealed shuffle), a live one up to its last completed move (never beyond).
    """
    record = await shuffle.reveal_into(rt, match_id, await reads.record(rt, match_id, player, code))
    out = replays.steps(record)
    out["record"] = record
    out["id"] = match_id
    out["commitment"] = await shuffle.commitment_of(rt, match_id)
    out["rating_changes"] = await ratings.changes(rt, match_id)
    out["verdict"] = record.get("verdict")
    return out


@router.get("/matches/{match_id}/fairness", responses=errors(401, 403, 404))
async def fairness(
    match_id: MatchId, rt: RuntimeDep, player: OptionalPlayer, code: InviteCode = None
) -> dict[str, Any]:
    """The shuffle commitment, published from the start: ``{"scheme", "commitment",
    "revealed"}``, plus ``"seed"`` and ``"salt"`` once the match is finished.
    """
    await reads.get_match(rt, match_id, player, code)  # exists and may be watched
    return await shuffle.public(rt, match_id)


@router.get("/matches/{match_id}/ratings", responses=errors(401, 403, 404))
async def match_ratings(
    match_id: MatchId, rt: RuntimeDep, player: OptionalPlayer, code: InviteCode = None
) -> dict[str, Any]:
    """``{"changes", "unrated", "verdict"}``: the rating changes of a rated match (empty until
    settled or when unrated), why a rated table's match ended unrated (``"not_played"``) or
    null, and the match's verdict (places, winners, who left; null until settled).
    Visible to whoever may watch the match (a private one: its seats, or its invite code).
    """
    await reads.get_match(rt, match_id, player, code)  # exists and may be watched
    return {
        "changes": await ratings.changes(rt, match_id),
        "unrated": await ratings.unrated_of(rt, match_id),
        "verdict": await history.verdict_of(rt, match_id),
    }


async def _offloaded(rt: Runtime, fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """``fn(*args)`` in a worker process; a busy pool is a 429 with a time to retry."""
    try:
        return await rt.bots.offload(fn, *args)
    except Busy as exc:
        raise RateLimited(str(exc), retry_after=5) from None


def _record_body(record: Any) -> Any:
    if not isinstance(record, dict):
        raise ValidationFailed("body: a carcassonne-record/1 JSON object")
    return record


@router.post("/replay", responses=errors(413, 429))
async def replay_file(
    rt: RuntimeDep, record: Annotated[Any, Body()], request: Request
) -> dict[str, Any]:
    """Any ``carcassonne-record/1`` cut into steps. An invalid record: 422 ``invalid_record``
    naming the move and the reason. Replayed off the event loop; limited per client address.
    """
    await rt.account_limits.replay(_client(request))
    out = await _offloaded(rt, replays.steps, _record_body(record))
    out["record"] = record
    return out


@router.post("/verify", response_model=Verdict, responses=errors(413, 429))
async def verify(
    rt: RuntimeDep,
    record: Annotated[Any, Body()],
    request: Request,
    commitment: Annotated[str | None, Query(pattern=r"^[0-9a-f]{64}$")] = None,
) -> dict[str, Any]:
    """Check a finished record's shuffle: the commitment, every drawn tile against the
    committed deck, and every move. ``commitment``: the one you saw published, if you kept it.
    Checked off the event loop; limited per client address.
    """
    await rt.account_limits.replay(_client(request))
    return await _offloaded(rt, replays.verify, _record_body(record), commitment)
