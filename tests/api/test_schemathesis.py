"""Property-based fuzzing of every REST operation from the OpenAPI schema (schemathesis).

Valid and invalid requests, with and without a valid token, against the app on both
backends: no input may produce a 5xx, and every error body keeps the documented shape.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode

from tests.support.client import Api

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]

EXAMPLES = 25


def test_no_input_gives_a_server_error(client: TestClient, api: Api) -> None:
    schema = schemathesis.openapi.from_dict(client.app.openapi())  # type: ignore[attr-defined]
    _, _, headers = api.player("Fuzz")
    match_id, people, code = api.match()
    failures: list[str] = []
    operations = [r.ok() for r in schema.get_all_operations()]
    assert len(operations) >= 15
    for operation in operations:
        strategy = st.one_of(
            operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
            operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
        )

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=strategy, authed=st.booleans(), known=st.booleans())
        def run(case: Any, authed: bool, known: bool) -> None:
            if known and case.path_parameters:
                # Aim part of the traffic at things that exist.
                for key in list(case.path_parameters):
                    case.path_parameters[key] = match_id if key == "match_id" else code
            kwargs = case.as_transport_kwargs(base_url="http://testserver")
            request_headers = dict(kwargs.get("headers") or {})
            if authed:
                request_headers.update(people[0][2] if known else headers)
            response = client.request(
                kwargs["method"],
                kwargs["url"],
                headers=request_headers,
                params=kwargs.get("params"),
                json=kwargs.get("json"),
                content=kwargs.get("data") if isinstance(kwargs.get("data"), bytes | str) else None,
            )
            if response.status_code >= 500:
                failures.append(
                    f"{kwargs['method']} {kwargs['url']} -> "
                    f"{response.status_code} {response.text[:200]}"
                )
            elif response.status_code >= 400 and "json" in response.headers.get("content-type", ""):
                body = response.json()
                assert set(body) == {"error"} and {"code", "message"} <= set(body["error"])
            case.validate_response(response, checks=[not_a_server_error])

        run()
    assert not failures, failures
