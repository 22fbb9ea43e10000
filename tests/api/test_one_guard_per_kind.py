"""Rules that check themselves: every surface of a kind goes through the one guard of its kind,
so a new surface cannot forget it.

- every websocket route (``@router.websocket``) is served through
  :func:`app.api.socket_admission.admit` (token, per-token and per-address caps, frame budget,
  held for revocation) — before, the tournament socket had none of them;
- every password hash or check goes through the fair hashing queue with the caller's address
  (``rt.workers.offload.run(..., key=client)``) — a call without a key shares one line with
  everyone.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROUTES = ROOT / "app" / "api" / "routes"


def _decorated_websockets(tree: ast.Module) -> list[ast.AsyncFunctionDef]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.AsyncFunctionDef):
            for deco in node.decorator_list:
                call = deco.func if isinstance(deco, ast.Call) else deco
                if isinstance(call, ast.Attribute) and call.attr == "websocket":
                    found.append(node)
    return found


def _calls(node: ast.AST) -> set[str]:
    names = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            f = sub.func
            names.add(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
    return names


def test_every_websocket_route_goes_through_the_one_admission() -> None:
    routes = []
    for path in sorted(ROUTES.rglob("*.py")):
        for fn in _decorated_websockets(ast.parse(path.read_text(encoding="utf-8"))):
            routes.append(f"{path.name}:{fn.name}")
            assert "admit" in _calls(fn), f"{path.name}:{fn.name} skips socket_admission.admit"
    assert len(routes) >= 3, routes  # match, lobby, tournament


def test_every_password_hash_names_who_asks() -> None:
    seen = 0
    for path in sorted((ROOT / "app").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if (
                isinstance(f, ast.Attribute)
                and f.attr == "run"
                and isinstance(f.value, ast.Attribute)
                and f.value.attr == "offload"
            ):
                seen += 1
                keys = {k.arg for k in node.keywords}
                assert "key" in keys, f"{path.relative_to(ROOT)}:{node.lineno} offload without key"
    assert seen >= 5


def test_every_token_is_verified_by_the_one_credential_check() -> None:
    """Requests, sockets and streams ask :func:`app.services.platform.credentials.verify`;
    only it (and logout, which ends the session it verifies) reads a token's validity itself.
    Before, the match socket and the REST dependencies each had their own branch for API
    tokens, and a deleted account's API token slipped through one of them.
    """
    allowed = {
        "app/services/platform/credentials.py",
        "app/api/routes/accounts.py",  # logout: ends the very session it verifies
    }
    direct = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        if rel in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            owner = node.func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if node.func.attr == "verify" and name in ("revocations", "api_tokens"):
                direct.append(f"{rel}:{node.lineno}")
    assert direct == [], f"tokens verified outside the one credential check: {direct}"
