"""What one run of :mod:`load` cost, beyond its round trips: the counters read before and after
the measuring window, the lag probe's log inside it, and the lines that print them.

* :func:`counters` — the backing stores (Postgres commits of the bench database, the cluster's
  WAL position, updates and HOT updates of the ``matches`` table, Redis commands) and the
  started server's own ``/metrics`` (database statements, the time and calls of each
  ``move committed`` subscriber); :func:`difference` of two readings is the window's share.
* :func:`probe_figures` — loop stalls and GC pauses the probe (:mod:`lagprobe`) logged inside the
  window.
* :func:`detail_lines` — the indented lines printed under a run's row.

Postgres and Redis are shared with anything else on the machine (WAL bytes are the whole
cluster's) and Postgres publishes a busy backend's statistics about once a second, so the
figures mean something in a quiet sitting with windows of several seconds.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The database and Redis of the started server (set by :func:`load.main`; empty with
#: ``--url``: no store figures then).
STORES: dict[str, str] = {}

#: A loop wake-up later than this (ms) counts as a stall.
STALL_MS = 20.0
#: A collection longer than this (ms) is counted apart.
LONG_GC_MS = 10.0

#: The ``/metrics`` series read (a counter's samples carry ``_total``).
STATEMENTS = "carcassonne_db_statements_total"
SUBSCRIBER_SECONDS = "carcassonne_hook_subscriber_seconds_total"
SUBSCRIBER_CALLS = "carcassonne_hook_subscriber_calls_total"
MOVE_HOOK = "move committed"


async def store_counters() -> dict[str, float]:
    """The stores' cumulative counters now: ``pg_commits`` (transactions committed in the bench
    database), ``wal_bytes`` (the cluster's WAL position, bytes), ``match_updates`` and
    ``match_hot_updates`` (rows of table ``matches`` updated, of them heap-only; absent when the
    table is not there, as for the bare pipelines), ``redis_commands`` (commands processed).
    Empty for a server given with ``--url``.
    """
    out: dict[str, float] = {}
    if not STORES:
        return out
    import asyncpg
    import redis.asyncio as aioredis

    dsn = STORES["database"].replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(dsn)
    try:
        row = await conn.fetchrow(
            "SELECT xact_commit, pg_current_wal_lsn() - '0/0'::pg_lsn AS wal "
            "FROM pg_stat_database WHERE datname = current_database()"
        )
        out["pg_commits"], out["wal_bytes"] = float(row["xact_commit"]), float(row["wal"])
        row = await conn.fetchrow(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables "
            "WHERE relname = 'matches' AND schemaname = current_schema()"
        )
        if row is not None:
            out["match_updates"] = float(row["n_tup_upd"])
            out["match_hot_updates"] = float(row["n_tup_hot_upd"])
    finally:
        await conn.close()
    client = aioredis.from_url(STORES["redis"])
    try:
        out["redis_commands"] = float((await client.info("stats"))["total_commands_processed"])
    finally:
        await client.aclose()
    return out


async def metric_counters(client: Any) -> dict[str, float]:
    """The server's own counters from ``GET /metrics`` (``client``: an ``httpx.AsyncClient`` on
    the server): ``statements`` and ``statements:<pool>`` (SQL statements sent, transaction
    control excluded), ``seconds:<subscriber>`` and ``calls:<subscriber>`` (wall-clock seconds
    spent in each ``move committed`` subscriber, and its calls). Empty when the server serves
    no metrics (the bare pipelines, production settings).
    """
    from prometheus_client.parser import text_string_to_metric_families

    try:
        response = await client.get("/metrics")
    except Exception:  # noqa: BLE001 - no metrics: the figures are left out
        return {}
    if response.status_code != 200:
        return {}
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            if sample.name == STATEMENTS:
                pool = sample.labels.get("pool", "?")
                out[f"statements:{pool}"] = sample.value
                out["statements"] = out.get("statements", 0.0) + sample.value
            elif (
                sample.name in (SUBSCRIBER_SECONDS, SUBSCRIBER_CALLS)
                and sample.labels.get("hook") == MOVE_HOOK
            ):
                kind = "seconds" if sample.name == SUBSCRIBER_SECONDS else "calls"
                out[f"{kind}:{sample.labels.get('subscriber', '?')}"] = sample.value
    return out


async def counters(client: Any) -> dict[str, float]:
    """:func:`store_counters` and :func:`metric_counters` in one dict."""
    return {**await store_counters(), **await metric_counters(client)}


def difference(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """``after - before`` for every counter read both times."""
    return {k: after[k] - v for k, v in before.items() if k in after}


@dataclass
class Probe:
    """What the lag probe logged inside a window (milliseconds)."""

    #: The latest wake-up of the loop (0: none more than 5 ms late).
    worst_lag_ms: float = 0.0
    #: Wake-ups more than :data:`STALL_MS` late.
    stalls: int = 0
    #: Collections by generation, the longest pause, and how many over :data:`LONG_GC_MS`.
    collections: dict[int, int] = field(default_factory=dict)
    gc_max_ms: float = 0.0
    gc_long: int = 0


def probe_figures(path: Path, start: float, end: float) -> Probe:
    """The probe's lines (:mod:`lagprobe`) logged between unix times ``start`` and ``end``."""
    probe = Probe()
    with contextlib.suppress(OSError):
        for line in path.read_text().splitlines():
            parts = line.split(" ")
            with contextlib.suppress(ValueError, IndexError):
                if not start <= float(parts[0]) <= end:
                    continue
                if parts[1].startswith("gc"):
                    ms, gen = float(parts[2]), int(parts[1][2:])
                    probe.collections[gen] = probe.collections.get(gen, 0) + 1
                    probe.gc_max_ms = max(probe.gc_max_ms, ms)
                    probe.gc_long += ms > LONG_GC_MS
                else:
                    lag = float(parts[1])
                    probe.worst_lag_ms = max(probe.worst_lag_ms, lag)
                    probe.stalls += lag > STALL_MS
    return probe


def detail_lines(counted: dict[str, float], actions: int, probe: Probe | None) -> list[str]:
    """The lines under a run's row: loop stalls and GC pauses (``probe``; None: a server given
    with ``--url``), then per action (``counted``: :func:`difference` over the window, divided
    by the ``actions`` the bench saw answered in it) the stores, the statements and each
    ``move committed`` subscriber's wall-clock µs.
    """
    lines = []
    if probe is not None:
        gens = "/".join(str(probe.collections.get(g, 0)) for g in (0, 1, 2))
        lines.append(
            f"loop: {probe.stalls} stalls over {STALL_MS:.0f} ms (worst lag "
            f"{probe.worst_lag_ms:.1f} ms); GC: {sum(probe.collections.values())} pauses "
            f"(generation 0/1/2: {gens}), longest {probe.gc_max_ms:.1f} ms, {probe.gc_long} "
            f"over {LONG_GC_MS:.0f} ms"
        )
    if actions and counted:
        lines.append(_stores_line(counted, actions))
        lines.append(_subscribers_line(counted, actions))
    return [f"{'':10}{line}" for line in lines if line]


def _stores_line(counted: dict[str, float], actions: int) -> str:
    per = {k: v / actions for k, v in counted.items()}
    parts = []
    if "pg_commits" in per:
        parts.append(f"Postgres {per['pg_commits']:.2f} commits")
    if "statements" in per:
        pools = ", ".join(
            f"{k.partition(':')[2]} {v:.2f}"
            for k, v in sorted(per.items())
            if k.startswith("statements:")
        )
        parts.append(f"{per['statements']:.2f} statements ({pools})")
    else:
        parts.append("statements n/a (no /metrics)")
    if "wal_bytes" in per:
        parts.append(f"{per['wal_bytes']:,.0f} WAL bytes")
    if counted.get("match_updates"):
        hot = counted.get("match_hot_updates", 0.0) / counted["match_updates"]
        parts.append(f"{per['match_updates']:.2f} match-row updates ({hot:.0%} HOT)")
    elif "match_updates" in counted:
        parts.append("no match-row updates counted")
    if "redis_commands" in per:
        parts.append(f"Redis {per['redis_commands']:.2f} commands")
    return "per action: " + ", ".join(parts)


def _subscribers_line(counted: dict[str, float], actions: int) -> str:
    seconds = {k.partition(":")[2]: v for k, v in counted.items() if k.startswith("seconds:")}
    if not seconds:
        return ""
    calls = max((v for k, v in counted.items() if k.startswith("calls:")), default=0.0)
    each = ", ".join(f"{_short(name)} {s * 1e6 / actions:.1f}" for name, s in seconds.items())
    return (
        f"move committed, µs per action: {each} (all {sum(seconds.values()) * 1e6 / actions:.1f};"
        f" {calls / actions:.2f} moves per action)"
    )


def _short(subscriber: str) -> str:
    """``delivery.on_move_committed`` → ``delivery``, ``subscribers.alert_turn`` → ``alert_turn``
    (the metric's label is ``module.function``).
    """
    module, _, function = subscriber.rpartition(".")
    return module if function.startswith("on_") and module else function
