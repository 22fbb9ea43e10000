"""Prometheus metrics of this instance (served at ``/metrics``)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram


class Metrics:
    """One registry per app (tests build several apps in one process)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.matches_live = Gauge(
            "carcassonne_matches_live",
            "Matches being played (all instances)",
            registry=self.registry,
        )
        self.websockets = Gauge(
            "carcassonne_websocket_connections",
            "Open websockets on this instance",
            ["kind"],
            registry=self.registry,
        )
        self.actions = Counter(
            "carcassonne_actions_applied",
            "Actions applied by this instance",
            ["by"],
            registry=self.registry,
        )
        self.action_latency = Histogram(
            "carcassonne_action_latency_seconds",
            "submit_action: lock, check, apply, commit and local fan-out",
            buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=self.registry,
        )
        self.publish_failures = Counter(
            "carcassonne_broker_publish_failures",
            "Broker publishes that failed",
            registry=self.registry,
        )
        self.rejected = Counter(
            "carcassonne_actions_rejected",
            "Actions refused, by error code",
            ["code"],
            registry=self.registry,
        )
