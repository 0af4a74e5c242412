"""A static file server on 127.0.0.1 for a web app under test made of files.

The browser loads the app over http (not file://) so it behaves as it would when deployed: modules,
fetch() of the app's own files and storage all work. The server binds a random loopback port, serves
only the app's folder, and records every request it answered with an error.
"""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

#: Types the standard table may lack; a module served as text/plain is refused by the browser.
EXTRA_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
               ".ts": "text/plain", ".map": "application/json"}


class _QuietHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **EXTRA_TYPES}

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        """Requests are not printed (the test's output is not the place for them)."""

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # a re-launch must see the files as they are now
        super().end_headers()


class StaticServer:
    """Serves one folder on http://127.0.0.1:PORT/ in a background thread."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> StaticServer:
        handler = functools.partial(_QuietHandler, directory=str(self.root))
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.1},
                                        daemon=True, name="playtest-static-server")
        self._thread.start()
        return self

    @property
    def origin(self) -> str:
        if self._server is None:
            raise RuntimeError("the static server is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def url(self, path: str) -> str:
        """The URL of a file below the root (``path`` relative, with forward slashes)."""
        return f"{self.origin}/{path.lstrip('/')}"

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
