"""The monitoring files in ``deploy/`` agree with the app: every series the Grafana dashboard
queries is one the app exposes, Prometheus scrapes the replicas' metrics port, and the compose
file with the ``monitoring`` profile is valid (when ``docker-compose`` is installed).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app.api.app import create_app
from app.settings import ROOT
from tests.support.app import make_settings

DEPLOY = ROOT / "deploy"


def _exposed(sqlite_url: str, tmp_path: Path) -> set[str]:
    settings = make_settings(sqlite_url, None, "deploy", tmp_path)
    with TestClient(create_app(settings, with_loops=False)) as client:
        text = client.get("/metrics").text
    names = set()
    for family in text_string_to_metric_families(text):
        names.add(family.name)
        names.update(s.name for s in family.samples)
        if family.type == "counter":  # a labelled counter has no sample before its first use
            names.add(f"{family.name}_total")
    # Histograms expose their buckets only once observed: name them all the same.
    names.update(f"{n}_{part}" for n in list(names) for part in ("bucket", "sum", "count"))
    return names


def test_the_dashboard_queries_series_the_app_exposes(sqlite_url: str, tmp_path: Path) -> None:
    dashboard = json.loads((DEPLOY / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    queried = {m for e in exprs for m in re.findall(r"carcassonne_[a-z_]+", e)}
    assert len(queried) >= 15
    missing = queried - _exposed(sqlite_url, tmp_path)
    assert not missing, sorted(missing)


def test_prometheus_scrapes_the_metrics_port() -> None:
    config = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    port = compose["x-app"]["environment"]["METRICS_PORT"]
    targets = config["scrape_configs"][0]["static_configs"][0]["targets"]
    assert targets == [f"app1:{port}", f"app2:{port}"]
    assert compose["services"]["prometheus"]["profiles"] == ["monitoring"]


def test_the_compose_file_is_valid_with_monitoring() -> None:
    binary = shutil.which("docker-compose")
    if binary is None:
        pytest.skip("docker-compose is not installed")
    result = subprocess.run(
        [binary, "--profile", "monitoring", "config", "-q"],
        cwd=ROOT,
        env={"SECRET_KEY": "x" * 32, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
