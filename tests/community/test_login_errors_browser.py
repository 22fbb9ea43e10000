"""The login form's refusals in words: a wrong password is a wrong password (not "your session
has expired"), and the attempt limit says when to try again (``Retry-After``, the error body's
``retry_after``), in English, German and French.
"""

from __future__ import annotations

import secrets

import httpx
import pytest

from tests.support.browser.ui import TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
PASSWORD = "correct horse battery"


def _login_page(browser, server, lang: str, width: int = 1400):  # type: ignore[no-untyped-def]
    context = browser.new_context(base_url=server, viewport={"width": width, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(f"localStorage.setItem('carcassonne.lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/#/account")
    page.wait_for_selector("#login-submit")
    return context, page, errors


def _try(page, username: str, password: str) -> str:  # type: ignore[no-untyped-def]
    page.fill("#login-username", username)
    page.fill("#login-password", password)
    page.click("#login-submit")
    page.wait_for_function("document.querySelector('#login-error').textContent.length > 0")
    return str(page.inner_text("#login-error"))


def test_wrong_password_and_too_many_attempts_are_said_as_such(server, browser, artifacts):
    user = f"lia{secrets.token_hex(3)}"
    r = httpx.post(
        f"{server}/api/accounts", json={"username": user, "password": PASSWORD}, timeout=30
    )
    assert r.status_code == 201, r.text

    context, page, errors = _login_page(browser, server, "en")
    said = _try(page, user, "not the password")
    assert said == "Wrong username or password.", said
    assert "session" not in said.lower()
    # The signed-out visitor stays on the form: nothing was forgotten, nobody was sent away.
    assert page.url.endswith("#/account")
    said = _try(page, "nobody" + secrets.token_hex(3), "not the password")
    assert said == "Wrong username or password.", said
    page.screenshot(path=str(artifacts / "login-wrong-password.png"))

    # Use up the attempts for this username from this address (10 a minute): the form then
    # says how long to wait, from the server's Retry-After.
    with httpx.Client(base_url=server, timeout=30) as http:
        for _ in range(12):
            r = http.post("/api/accounts/login", json={"username": user, "password": "nope1234"})
            if r.status_code == 429:
                break
        assert r.status_code == 429, r.text
        wait = int(r.headers["Retry-After"])
        assert r.json()["error"]["retry_after"] == wait
    said = _try(page, user, "not the password")
    assert said.startswith("Too many attempts. Try again in "), said
    seconds = int(said.split(" in ")[1].split()[0])
    assert 1 <= seconds <= 60
    page.screenshot(path=str(artifacts / "login-too-many.png"))
    context.close()

    for lang, wrong, too_many, width in (
        ("de", "Benutzername oder Passwort falsch.", "Zu viele Versuche.", 390),
        ("fr", "Nom d'utilisateur ou mot de passe incorrect.", "Trop de tentatives.", 390),
    ):
        context, page, more = _login_page(browser, server, lang, width)
        other = f"ben{secrets.token_hex(3)}"
        assert _try(page, other, "not the password") == wrong
        said = _try(page, user, "not the password")  # still over the limit
        assert said.startswith(too_many), said
        page.screenshot(path=str(artifacts / f"login-too-many-{lang}-phone.png"), full_page=True)
        errors += more
        context.close()
    assert errors == []
