"""A web app under test: Chromium in app mode on the playtest display, with the DevTools protocol beside it.

``app=`` names a web app with an ``.html`` file, a folder holding ``index.html``, or a loopback
``http://127.0.0.1…`` URL. Files are served by a :class:`~.webserver.StaticServer` on 127.0.0.1. The
browser is an :class:`~.app.App` like any other (own process group, scrubbed env, watchdog, window via
X-Resource, screenshots and XTest input), launched with its own profile and the flags of
:data:`CHROMIUM_FLAGS`; the protocol pipe (:mod:`.devtools`) adds what only the browser knows:
uncaught JavaScript errors, failed requests, console errors, a crashed renderer, and the DOM.
docs/web-apps.md explains every flag.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..errors import AppError, DevToolsError, DevToolsTimeout
from .app import App
from .arrivals import InOrder
from .devtools import DEFAULT_TIMEOUT, DevTools, Event
from .scratch import scratch_dir
from .webserver import StaticServer

if TYPE_CHECKING:
    from .display import Display

#: Where Chromium is looked for: Debian's real binary first (its /usr/bin/chromium wrapper script adds
#: flags of its own and trips over a shell test on these machines).
CHROMIUM_CANDIDATES = ("/usr/lib/chromium/chromium", "chromium", "chromium-browser", "google-chrome")
#: The flags every browser under test gets; docs/web-apps.md says why each is there.
CHROMIUM_FLAGS = (
    "--no-sandbox",  # the harness runs as root; Chromium refuses to start sandboxed as root
    "--test-type",  # no "unsupported flag" bar pushing the page down
    "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--password-store=basic", "--mute-audio",
    "--log-level=3",  # no D-Bus noise in the app's output
    "--enable-unsafe-swiftshader",  # WebGL on a display without a GPU
    "--window-position=0,0",
    "--remote-debugging-pipe",  # the protocol on fds 3/4: no TCP port anyone else could reach
)
WEB_SUFFIXES = (".html", ".htm")
#: The page a web app's folder opens with.
WEB_INDEX = "index.html"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
#: How long the browser may take to answer the protocol and offer the page after launch (seconds): a cold start
#: beside three other browsers on a loaded 2-core machine left the first command unanswered for over 10 s.
PAGE_TARGET_TIMEOUT = 30.0
#: How long the loop waits for a shown page to finish loading before it looks at it anyway (seconds).
PAGE_LOAD_TIMEOUT = 5.0
#: True once the app's page (not the blank one the window opens with) has loaded its styles and scripts.
LOADED = "!['about:', 'data:'].includes(location.protocol) && document.readyState === 'complete'"
#: ``Math.random`` drawing from the seed put in place of ``%d``, installed before the page's own scripts run:
#: mulberry32, a small generator of 32-bit state whose numbers are spread as evenly as a page needs.
SEEDED_RANDOM = """(() => {
  let state = %d >>> 0;
  Math.random = function random() {
    state = (state + 0x6D2B79F5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();"""
#: The page a seeded window opens with before the app's page (``about:blank`` would open a browser window
#: with tabs and an address bar, not an app window).
BLANK = "data:text/html,"
#: Requests the browser makes on its own for any page: their failure is not the app's.
INCIDENTAL_PATHS = ("/favicon.ico",)


@dataclass(frozen=True)
class WebTarget:
    """Where a web app is: a URL to open, and the folder to serve when it is made of files."""

    url: str
    root: Path | None = None

    @property
    def origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"


def looks_like_web_app(app: str | Sequence[str]) -> bool | None:
    """Whether ``app`` names a web app by its form alone (None: a path whose kind the file system tells)."""
    if not isinstance(app, str):
        return False
    if app.startswith(("http://", "https://")) or app.lower().endswith(WEB_SUFFIXES):
        return True
    if app.endswith(".py"):
        return False
    return None


def web_target(app: str | Sequence[str], cwd: Path | None) -> WebTarget | None:
    """The web app ``app`` names (None: a desktop app); raises AppError for a web app that cannot be opened."""
    if not isinstance(app, str) or looks_like_web_app(app) is False:
        return None
    if app.startswith(("http://", "https://")):
        host = urlsplit(app).hostname or ""
        if host not in LOOPBACK_HOSTS:
            raise AppError(f"a web app URL must be on this machine (127.0.0.1 or localhost), got {app}")
        return WebTarget(app)
    path = Path(app) if Path(app).is_absolute() else (cwd or Path.cwd()) / app
    if path.is_dir():
        if not (path / WEB_INDEX).is_file():
            return None  # a folder without a page is no web app (it may be an executable's argv)
        return WebTarget(WEB_INDEX, root=path.resolve())
    if looks_like_web_app(app):
        if not path.is_file():
            raise AppError(f"web app file not found: {path}")
        return WebTarget(path.name, root=path.parent.resolve())
    return None


def chromium() -> str:
    """The Chromium binary; AppError when none is installed."""
    for candidate in CHROMIUM_CANDIDATES:
        found = shutil.which(candidate)
        if found:
            return found
    raise AppError("Chromium is not installed: web apps need it (Debian: apt-get install chromium)")


@dataclass(frozen=True)
class PageReport:
    """Something the browser reported about the page: an uncaught error, a failed request of the app's own,
    a console error, a foreign request that failed, a crashed renderer, a dialog it opened (answered with OK)
    or a navigation away from the app's origin (not followed)."""

    kind: str  # "exception", "request", "console", "foreign_request", "crash", "dialog", "navigation"
    message: str
    location: str = ""
    details: str = ""
    #: an exception's script frames (``/game.js:line:column``), innermost first
    frames: tuple[str, ...] = ()


class Browser(App):
    """Chromium showing one web app, on the playtest display, with its DevTools connection."""

    def __init__(self, target: WebTarget, display: Display, *, env: Mapping[str, str] | None = None,
                 size: tuple[int, int] | None = None, seed: int | None = None, in_order: bool = False) -> None:
        self.target = target
        #: what the page's ``Math.random`` is seeded with (None: left as the browser makes it)
        self.seed = seed
        #: whether the page's requests are let through one at a time, in the order it made them (a replay's)
        self.ordered = in_order
        self.size = size or display.size
        self.profile = scratch_dir("playtest-chromium-")
        super().__init__([chromium()], display, cwd=self.profile, env=env)
        self.server: StaticServer | None = None
        self.devtools: DevTools | None = None
        self.session = ""
        self._arrivals: InOrder | None = None  # the queue of the page's requests, when ``ordered``
        self.url = target.url
        self._events_read = 0
        self._scripts: dict[str, str] = {}  # script id → its address (a paused frame names its script by id)

    def start(self) -> Browser:
        if self.target.root is not None:
            self.server = StaticServer(self.target.root).start()
            self.url = self.server.url(self.target.url)
        width, height = self.size
        self.argv = [*self.argv, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}",
                     f"--window-size={width},{height}",
                     f"--app={BLANK if self._held_from_start else self.url}"]
        commands_read, commands_write = _pipe_above(10)
        events_read, events_write = _pipe_above(10)
        # the browser reads commands on fd 3 and writes on fd 4; bash (dash knows no fd above 9) puts the
        # pipes there and execs it
        redirect = f"3<&{commands_read} 4>&{events_write} {commands_read}<&- {events_write}>&-"
        self.launch_argv = ["bash", "-c", f'exec "$@" {redirect}', "bash", *self.argv]
        self.pass_fds = (commands_read, events_write)
        try:
            super().start()
        finally:
            os.close(commands_read)
            os.close(events_write)
        self.devtools = DevTools(events_read, commands_write)
        self._attach()
        return self

    def _attach(self) -> None:
        """Attach to the app's page and enable the domains that report on it (they replay what came before)."""
        assert self.devtools is not None
        deadline = time.monotonic() + PAGE_TARGET_TIMEOUT
        page = None
        try:
            while page is None:
                left = max(deadline - time.monotonic(), DEFAULT_TIMEOUT)
                targets = self.devtools.call("Target.getTargets", timeout=left)["targetInfos"]
                page = next((t for t in targets if t.get("type") == "page"), None)
                if page is None:
                    if time.monotonic() > deadline:
                        raise AppError(f"Chromium showed no page within {PAGE_TARGET_TIMEOUT:g}s")
                    time.sleep(0.02)
            self.devtools.call("Target.setDiscoverTargets", {"discover": True})
            attached = self.devtools.call("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})
            self.session = attached["sessionId"]
            self.devtools.on("Page.javascriptDialogOpening", self._answer_dialog)
            self.devtools.on("Fetch.requestPaused", self._paused)
            self.devtools.on("Debugger.scriptParsed", self._script_parsed)
            # (the debugger is enabled from the start: a busy main thread answers no enable, only a pause)
            for domain in ("Runtime", "Log", "Inspector", "Page", "Debugger"):
                self.devtools.call(f"{domain}.enable", session=self.session)
            held: dict[str, str] = {"resourceType": "Document"}
            if self.ordered:  # the page gets its files in the order it asked for them
                self._arrivals = InOrder(self.devtools)
                self.devtools.on("Network.loadingFinished", self._arrivals.finished)
                self.devtools.on("Network.loadingFailed", self._arrivals.finished)
                self.devtools.call("Network.enable", session=self.session)
                held = {}
            self.devtools.call("Fetch.enable", {"patterns": [{"urlPattern": "*", **held}]}, session=self.session)
            if self.seed is not None:
                self.devtools.call("Page.addScriptToEvaluateOnNewDocument",
                                   {"source": SEEDED_RANDOM % (self.seed % 2**32)}, session=self.session)
            if self._held_from_start:
                self.devtools.call("Page.navigate", {"url": self.url}, session=self.session)
        except DevToolsError as exc:
            self.terminate()
            raise AppError(f"could not reach Chromium's page over DevTools: {exc}\n"
                           f"{self.text_output('stderr')[-2000:]}") from None

    def _script_of(self, frame: Mapping[str, Any]) -> str:
        """A paused frame's script address, by its script id (newer browsers leave the frame's own ``url`` empty)."""
        return self._scripts.get(str(frame.get("location", {}).get("scriptId", "")), "")

    def _script_parsed(self, event: Event) -> None:
        self._scripts[str(event.params.get("scriptId", ""))] = str(event.params.get("url", ""))

    def _answer_dialog(self, event: Event) -> None:
        """A page's ``alert``/``confirm``/``prompt``/``beforeunload`` blocks its main thread until someone
        answers; a person clicks OK (and leaves a prompt empty)."""
        assert self.devtools is not None
        self.devtools.send("Page.handleJavaScriptDialog", {"accept": True, "promptText": ""}, session=event.session)

    @property
    def _held_from_start(self) -> bool:
        """Whether the window opens blank and is sent to the app's page once the protocol is in place: so that
        the page loads seeded, or with its requests in order."""
        return self.seed is not None or self.ordered

    def _paused(self, event: Event) -> None:
        """A request held by the Fetch domain: a page's navigation, or (``ordered``) any of its requests."""
        if event.params.get("resourceType") == "Document" or self._arrivals is None:
            self._keep_on_origin(event)
        else:
            self._arrivals.paused(event)

    def _keep_on_origin(self, event: Event) -> None:
        """A page loaded into the app's window stays on the app's origin: a link to another site is not
        followed (the navigation is abandoned and the app stays as it was)."""
        assert self.devtools is not None
        request = event.params.get("request", {})
        url = str(request.get("url", ""))
        ident = event.params.get("requestId")
        if url.startswith(self._origin()) or not url.startswith(("http:", "https:")):
            self.devtools.send("Fetch.continueRequest", {"requestId": ident}, session=event.session)
        else:
            self.devtools.send("Fetch.failRequest", {"requestId": ident, "errorReason": "Aborted"},
                               session=event.session)

    def wait_for_window(self, *, timeout: float = 15.0) -> bool:
        """Wait for the window, then for the page to finish loading (its styles and scripts), so the first
        frame the loop sees is the page as its author meant it; a page still loading at the deadline is
        looked at as it is."""
        if not super().wait_for_window(timeout=timeout):
            return False
        deadline = time.monotonic() + PAGE_LOAD_TIMEOUT
        while time.monotonic() < deadline:
            try:
                if self.evaluate(LOADED, timeout=max(deadline - time.monotonic(), 0.01)):
                    break
            except (DevToolsTimeout, AppError):
                break  # a busy or broken page is for the oracles to judge
            time.sleep(0.01)
        return True

    # -- the page ---------------------------------------------------------------------------------------
    def evaluate(self, expression: str, *, timeout: float = 5.0, console: bool = False) -> Any:
        """The value of a JavaScript expression in the page (awaited when it is a promise); with ``console``,
        the DevTools console's functions are at hand (``getEventListeners(element)``).

        Raises DevToolsTimeout when the page does not answer in time (its main thread is busy), AppError
        when the page is gone or the expression threw.
        """
        if self.devtools is None:
            raise AppError("the browser has not been started")
        try:
            result = self.devtools.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                             "awaitPromise": True, "includeCommandLineAPI": console},
                                        session=self.session, timeout=timeout)
        except DevToolsTimeout:
            raise
        except DevToolsError as exc:
            raise AppError(f"the page cannot be read: {exc}") from None
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise AppError(f"evaluating in the page failed: {_error_message(details)}")
        return result.get("result", {}).get("value")

    def paused_frames(self, timeout: float) -> list[str]:
        """Where the page's busy main thread is: its script frames (``/game.js:line:column``, innermost first),
        read by pausing its JavaScript through the debugger (which interrupts a loop that never yields) and
        resuming it; [] when the page does not pause within ``timeout`` seconds or has no script running."""
        if self.devtools is None:
            return []
        start = len(self.devtools.events)
        try:
            self.devtools.call("Debugger.pause", session=self.session, timeout=timeout)
        except DevToolsError:
            return []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            paused = next((e for e in self.devtools.events_since(start) if e.method == "Debugger.paused"), None)
            if paused is not None:
                self.devtools.send("Debugger.resume", session=self.session)
                frames = [{**frame, "url": frame.get("url") or self._script_of(frame)}
                          for frame in paused.params.get("callFrames", [])]
                return [self._location(frame) for frame in frames if frame["url"]]
            time.sleep(0.02)
        return []

    def answers(self, timeout: float) -> bool:
        """Whether the page's main thread runs a trivial script within ``timeout`` seconds."""
        try:
            self.evaluate("1", timeout=timeout)
        except DevToolsTimeout:
            return False
        except AppError:
            return True  # a page that is gone is the crash oracle's, not a freeze
        return True

    @property
    def crashed(self) -> bool:
        """Whether the page's renderer died (the browser itself stays alive and shows "Aw, Snap!")."""
        return self.devtools is not None and any(
            e.method in ("Inspector.targetCrashed", "Target.targetCrashed") for e in self.devtools.events)

    def reports(self) -> list[PageReport]:
        """What the browser reported about the page since the last call."""
        if self.devtools is None:
            return []
        events = self.devtools.events_since(self._events_read)
        self._events_read += len(events)
        return [report for event in events if (report := self._report(event)) is not None]

    def _report(self, event: Event) -> PageReport | None:
        params = event.params
        if event.method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            frames = details.get("stackTrace", {}).get("callFrames", [])
            return PageReport("exception", _error_message(details), self._location(details),
                              details=_description(details),
                              frames=tuple(self._location(frame) for frame in frames if frame.get("url")))
        if event.method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(_remote_text(arg) for arg in params.get("args", []))
            frames = params.get("stackTrace", {}).get("callFrames", [])
            return PageReport("console", text, self._location(frames[0]) if frames else "")
        if event.method == "Log.entryAdded":
            entry = params.get("entry", {})
            url = entry.get("url", "")
            if entry.get("source") != "network" or entry.get("level") != "error" or not url:
                return None
            if urlsplit(url).path in INCIDENTAL_PATHS:
                return None
            kind = "request" if url.startswith(self._origin()) else "foreign_request"
            return PageReport(kind, f"{entry.get('text', 'request failed')}: {self._short(url)}", self._short(url))
        if event.method in ("Inspector.targetCrashed", "Target.targetCrashed"):
            return PageReport("crash", "the page's renderer crashed (the browser shows \"Aw, Snap!\")")
        if event.method == "Page.javascriptDialogOpening":
            kind = params.get("type", "alert")
            return PageReport("dialog", f"{kind}({json.dumps(params.get('message', ''))})")
        if event.method == "Fetch.requestPaused" and params.get("resourceType") == "Document":
            url = str(params.get("request", {}).get("url", ""))
            if not url.startswith(self._origin()) and url.startswith(("http:", "https:")):
                return PageReport("navigation", url)
        return None

    def _origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    def _short(self, url: str) -> str:
        """A URL of the app's own without its origin (``/game.js``); others as they are."""
        origin = self._origin()
        return url[len(origin):] or "/" if url.startswith(origin) else url

    def _location(self, where: Mapping[str, Any]) -> str:
        """``file:line:column`` (1-based) of an exception or stack frame (a debugger's call frame keeps them
        under ``location``), the innermost frame first."""
        frames = where.get("stackTrace", {}).get("callFrames", [])
        frame = frames[0] if frames else where
        url = frame.get("url", "")
        if not url:
            return ""
        place = frame.get("location", frame)
        return f"{self._short(url)}:{int(place.get('lineNumber', 0)) + 1}:{int(place.get('columnNumber', 0)) + 1}"

    # -- teardown -----------------------------------------------------------------------------------------
    def terminate(self, grace: float = 1.0) -> int | None:
        """Stop the browser's whole process group, then the protocol, the server and the profile."""
        code = super().terminate(grace)
        if self.devtools is not None:
            self.devtools.close()
        if self.server is not None:
            self.server.stop()
            self.server = None
        shutil.rmtree(self.profile, ignore_errors=True)
        return code


def _pipe_above(lowest: int) -> tuple[int, int]:
    """A pipe whose fds are at least ``lowest`` (clear of the 3 and 4 the browser's copy must get)."""
    read, write = os.pipe()
    high = (fcntl.fcntl(read, fcntl.F_DUPFD_CLOEXEC, lowest), fcntl.fcntl(write, fcntl.F_DUPFD_CLOEXEC, lowest))
    os.close(read)
    os.close(write)
    return high


def _error_message(details: Mapping[str, Any]) -> str:
    """The first line of an exception's description ("TypeError: x is undefined"), or its value."""
    exception = details.get("exception", {})
    first = (exception.get("description") or "").split("\n", 1)[0]
    if not first and "value" in exception:
        first = json.dumps(exception["value"])
    text = details.get("text", "")
    if not first:
        return text or "an uncaught error"
    return f"{text} {first}".strip() if text.startswith("Uncaught (in promise)") else first


def _description(details: Mapping[str, Any]) -> str:
    return str(details.get("exception", {}).get("description") or details.get("text", ""))


def _remote_text(value: Mapping[str, Any]) -> str:
    if "value" in value:
        return value["value"] if isinstance(value["value"], str) else json.dumps(value["value"])
    return str(value.get("description", value.get("type", "")))
