"""Session-wide test set-up.

anyio imports ``anyio._core._fileio`` lazily, on the first use of ``anyio.open_file`` (Starlette's
``FileResponse`` makes it). pytest rewrites anyio's modules (anyio is a pytest plugin), and when
that first use happens in a ``TestClient``'s portal thread, CPython 3.11's compiler may fail with
``SystemError: AST constructor recursion depth mismatch`` (seen once in each of two full runs, in
``tests/api/test_players.py::test_static_frontend_is_served``). Loading it here, in the main
thread while pytest starts, takes that compile out of the request.
"""

from __future__ import annotations

import anyio

PRELOADED = anyio.open_file
