"""A local Redis Cluster for tests: three masters, no replicas, on free ports in a temp dir.

``LocalCluster(tmp_path).start()`` runs ``redis-server --cluster-enabled yes`` three times and
joins them with ``redis-cli --cluster create --cluster-yes``; :meth:`LocalCluster.kill` and
:meth:`LocalCluster.revive` stop one primary and start it again on its own ``nodes.conf`` (it
keeps its slots);
:meth:`LocalCluster.stop` kills every process it started. Under ``CI=true`` a missing
``redis-server`` is a failure (``unavailable``), elsewhere a skip.
"""

from __future__ import annotations

import random
import signal
import socket
import subprocess
import time
from pathlib import Path

import redis
import redis.cluster

from tests.support.services import unavailable
from tests.support.wait import START_TIMEOUT, wait_until


class LocalCluster:
    """Three ``redis-server`` masters in cluster mode under ``root``."""

    def __init__(self, root: Path, masters: int = 3) -> None:
        self.root = root
        self.ports = [_cluster_port() for _ in range(masters)]
        self.procs: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def url(self) -> str:
        """``redis+cluster://127.0.0.1:p1,127.0.0.1:p2,...`` (the app's notation)."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def _spawn(self, port: int) -> None:
        folder = self.root / f"node-{port}"
        folder.mkdir(parents=True, exist_ok=True)
        args = ["redis-server", "--port", str(port), "--bind", "127.0.0.1"]
        args += ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"]
        args += ["--cluster-node-timeout", "2000", "--save", "", "--appendonly", "no"]
        args += ["--dir", str(folder)]
        try:
            self.procs[port] = subprocess.Popen(
                args, stdout=(folder / "log").open("ab"), stderr=subprocess.STDOUT
            )
        except FileNotFoundError as exc:
            self.stop()
            unavailable("redis-server", str(exc))
        wait_until(lambda: _answers(port), timeout=START_TIMEOUT, interval=0.1, message="node down")

    def start(self) -> LocalCluster:
        """Start the nodes, create the cluster, wait until every node says ``cluster_state:ok``.
        Stops what it started when any step fails.
        """
        try:
            for port in self.ports:
                self._spawn(port)
            nodes = [f"127.0.0.1:{p}" for p in self.ports]
            try:
                subprocess.run(
                    ["redis-cli", "--cluster", "create", *nodes, "--cluster-yes"],
                    check=True,
                    capture_output=True,
                    timeout=60,
                )
            except FileNotFoundError as exc:
                unavailable("redis-cli", str(exc))
            self.wait_ok()
        except BaseException:
            self.stop()
            raise
        return self

    def wait_ok(self) -> None:
        """Wait until every node reports ``cluster_state:ok``."""
        wait_until(
            lambda: all(_state_ok(p) for p in self.ports),
            timeout=30,
            interval=0.2,
            message="cluster not ok",
        )

    def owner(self, key: str) -> int:
        """The port of the primary owning ``key``'s slot (asked of the running nodes)."""
        nodes = [redis.cluster.ClusterNode("127.0.0.1", p) for p in self.procs]
        client = redis.RedisCluster(startup_nodes=nodes)
        try:
            return int(client.get_node_from_key(key).port)
        finally:
            client.close()

    def kill(self, port: int) -> None:
        """SIGKILL the node on ``port`` (its slots are unserved until :meth:`revive`)."""
        proc = self.procs.pop(port)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def revive(self, port: int) -> None:
        """Start the node on ``port`` again on its own ``nodes.conf`` (same id, same slots)
        and wait until the cluster is ok.
        """
        self._spawn(port)
        self.wait_ok()

    def restart(self, port: int, down: float = 1.0) -> None:
        """:meth:`kill`, ``down`` seconds, :meth:`revive`."""
        self.kill(port)
        time.sleep(down)
        self.revive(port)

    def stop(self) -> None:
        """Kill every node this object started."""
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        self.procs.clear()


def _cluster_port() -> int:
    """A free port below 55536 whose cluster bus port (+10,000) is free too."""
    for _ in range(1000):
        port = random.randint(20000, 55000)
        if _free(port) and _free(port + 10000):
            return port
    raise RuntimeError("no free port pair for a cluster node")


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _answers(port: int) -> bool:
    try:
        return bool(redis.Redis(port=port, socket_timeout=1).ping())
    except redis.RedisError:
        return False


def _state_ok(port: int) -> bool:
    try:
        info = redis.Redis(port=port, socket_timeout=1).execute_command("CLUSTER", "INFO")
    except redis.RedisError:
        return False
    text = info.decode() if isinstance(info, bytes) else str(info)
    return "cluster_state:ok" in text
