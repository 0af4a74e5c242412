"""A replayed page's requests answered one at a time, in the order the page made them.

A page that fetches several files and acts on each as it arrives (adds a product when its picture comes, draws
a level when its map comes) acts in the network's order, which differs from launch to launch even on this
machine: the browser fetches in parallel and the smallest file is back first. Seeding ``Math.random`` does not
make such a page replay the same; letting one request through at a time does. The requests are held by the
DevTools protocol's Fetch domain as the page makes them and let through in that order, each once the one before
has finished loading (Network domain) or has been on its way ``HOLD`` seconds (a stream, a long poll, an event
source never finishes). On the app's own loopback server a file comes back in a few milliseconds more. Only
replays are played so: an exploring run meets the page as a browser shows it, its files in parallel.
"""

from __future__ import annotations

import threading
from collections import deque

from .devtools import DevTools, Event

#: A request on its way longer than this (seconds) no longer holds back the ones made after it.
HOLD = 1.0


class InOrder:
    """Lets a page's paused requests (``Fetch.requestPaused``, request stage) through in order, one at a time.

    Its handlers run on the protocol's reader thread; a timer lets the next request through when one takes too
    long. ``paused`` is given every request but the page's own documents (navigations are not held)."""

    def __init__(self, devtools: DevTools) -> None:
        self._devtools = devtools
        self._lock = threading.Lock()
        self._waiting: deque[tuple[str, str, str]] = deque()  # (Fetch request id, network request id, session)
        self._loading = ""  # the network request id of the one on its way ("" when none)
        self._timer: threading.Timer | None = None  # lets the next one go when the one on its way is overdue

    def paused(self, event: Event) -> None:
        ident = str(event.params.get("requestId", ""))
        network = str(event.params.get("networkId", ident))
        with self._lock:
            if network == self._loading:  # a redirect of the request on its way: still that request
                self._send(ident, event.session)
                return
            self._waiting.append((ident, network, event.session))
            if not self._loading:
                self._release()

    def finished(self, event: Event) -> None:
        """``Network.loadingFinished`` or ``Network.loadingFailed``: the next request may go."""
        with self._lock:
            if event.params.get("requestId") == self._loading:
                self._next()

    def _next(self) -> None:
        """The request on its way no longer holds the others back (the lock is held)."""
        if self._timer is not None:
            self._timer.cancel()
        self._loading = ""
        self._release()

    def _release(self) -> None:
        """Let the oldest waiting request go (the lock is held)."""
        if not self._waiting:
            return
        ident, self._loading, session = self._waiting.popleft()
        self._timer = threading.Timer(HOLD, self._overdue, args=(self._loading,))
        self._timer.daemon = True
        self._timer.start()
        self._send(ident, session)

    def _overdue(self, loading: str) -> None:
        with self._lock:
            if loading == self._loading:
                self._next()

    def _send(self, ident: str, session: str) -> None:
        self._devtools.send("Fetch.continueRequest", {"requestId": ident}, session=session)
