"""A TCP forwarder a test can cut: a backing service (Postgres, say) that "goes down" for one
server process only, without touching the service everyone else shares.
"""

from __future__ import annotations

import contextlib
import socket
import threading

from tests.support.servers import free_port


class TcpProxy:
    """Forwards ``127.0.0.1:<port>`` to ``target`` (host, port) while open. ``cut()`` closes
    the listener and every forwarded connection (clients see refusals); ``close()`` likewise
    for good. One thread per direction of each connection: for a test's few connections only.
    """

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self.resume()

    def resume(self) -> None:
        """Listen (again) and forward every connection."""
        listener = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Stop listening and drop every forwarded connection."""
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        with self._lock:
            conns, self._open = self._open, set()
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()

    close = cut

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._open |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
