"""What the browser says about a web app under test, turned into findings and notes.

Uncaught errors, unhandled rejections and failed requests for the app's own files are ``exception``
findings; a crashed renderer is a ``crash``; a main thread that does not run a trivial script within
``OracleSettings.page_answer`` seconds is a ``freeze`` (a JavaScript busy loop keeps the browser reading
X events, so the desktop freeze checks cannot see it); console errors and failed foreign requests are notes.
The page's DOM is read for the expectations (text and rules) and offered to the policies (text, clickables).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

import numpy as np

from ..errors import AppError, DevToolsTimeout, DomError, RuleError
from ..rules import Fact, Query
from ..runtime import dom
from ..runtime.browser import Browser
from ..runtime.places import place, relative_name
from ..runtime.stacks import SAMPLE_GAP
from ..source.jsloops import endless_loops, parameters_around, script_code
from ..verdict import Finding, Location, LocationHow
from ..vision import Vision, Widget
from .workers import TextReader

if TYPE_CHECKING:
    from .expectations import ExpectationTracker


#: a script frame as the browser reports it: ``/js/game.js:12:5``
SCRIPT_FRAME = re.compile(r"(?P<file>.+):(?P<line>\d+):(?P<column>\d+)")
#: a lookup by a name in an error's text: ``viewCommands[viewCmd] is not a function`` (table, key)
LOOKUP = re.compile(r"(?P<table>[\w.$]+)\[(?P<key>[A-Za-z_$][\w$]*)\]")


class PageWatch:
    """The browser's reports on one launch of a web app."""

    def __init__(self, browser: Browser, notes: list[str]) -> None:
        self.browser = browser
        self.notes = notes  # the run's notes: console errors and foreign requests go there
        self._reported: set[tuple[str, str]] = set()

    def check_reports(self, step: int) -> list[Finding]:
        """New findings from what the browser reported since the last look (each distinct error once)."""
        found = []
        for report in self.browser.reports():
            if (report.message, report.location) in self._reported:
                continue
            self._reported.add((report.message, report.location))
            where = f" at {report.location}" if report.location else ""
            if report.kind == "exception":
                frames = report.frames or (report.location,)
                found.append(Finding("exception", f"{report.message}{where} (the page kept running)", step=step,
                                     details=report.details, location=self.passed_key(report.message, frames)
                                     or self.script_place(frames, "traceback")))
            elif report.kind == "request":
                found.append(Finding("exception", f"a file of the app's own failed to load: {report.message}",
                                     step=step))
            elif report.kind == "console":
                self.notes.append(f"console error at step {step}: {report.message}{where}")
            elif report.kind == "foreign_request":
                self.notes.append(f"a request outside the app failed at step {step}: {report.message}")
            elif report.kind == "dialog":
                self.notes.append(f"the page opened a dialog at step {step}, answered with OK: {report.message}")
            elif report.kind == "navigation":
                self.notes.append(f"a link out of the app was not followed at step {step}: {report.message}")
        return found

    def crash(self, step: int) -> Finding | None:
        """A crash finding when the page's renderer died (the browser process itself stays alive)."""
        if not self.browser.crashed:
            return None
        return Finding("crash", "the page's renderer crashed (the browser showed \"Aw, Snap!\")", step=step)

    def freeze(self, step: int, bound: float) -> Finding | None:
        """A freeze finding when the page's main thread does not run a trivial script within ``bound`` seconds;
        where: the loop that never ends, found in two pauses of it by the debugger (else where the first pause
        found it running)."""
        if self.browser.crashed or self.browser.answers(bound):
            return None
        first = self.browser.paused_frames(bound)
        time.sleep(SAMPLE_GAP)
        second = self.browser.paused_frames(bound) if first else []
        location = self.endless_loop(first, second) or self.script_place(first or second, "script")
        return Finding("freeze", f"the page's main thread did not run a script within {bound:g}s "
                                 "(a busy loop or a blocking call)", step=step, location=location)

    def endless_loop(self, *samples: Sequence[str]) -> Location | None:
        """The innermost loop of the page's own scripts that may never end and encloses a frame of every
        sample of its stack (the samples the debugger gave), as a Location at its header."""
        root = self.browser.target.root
        taken = [frames for frames in samples if frames]
        if root is None or not taken:
            return None
        codes: dict[Path, str] = {}
        loops = [self._loops(frames, root, codes) for frames in taken]
        common = next((loop for loop in loops[0] if all(loop in other for other in loops[1:])), None)
        if common is None:
            return None
        location = place(common[0], common[1], root, "script")
        location.detail = f"a loop that never ends; the debugger paused it at {taken[0][0].lstrip('/')}"
        return location

    @staticmethod
    def _loops(frames: Sequence[str], root: Path, codes: dict[Path, str]) -> list[tuple[Path, int]]:
        """The loops that may never end around each frame of the page's own scripts, innermost first."""
        found = []
        for frame in frames:
            match = SCRIPT_FRAME.fullmatch(frame)
            if match is None or match["file"].endswith(".min.js"):
                continue
            path = root / unquote(match["file"].lstrip("/"))
            if path not in codes:
                text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
                codes[path] = script_code(text, html=path.suffix in (".html", ".htm"))
            found += [(path, header) for header in endless_loops(codes[path], int(match["line"]))]
        return found

    def passed_key(self, message: str, frames: Sequence[str]) -> Location | None:
        """The caller's frame, when the error names a lookup by a parameter of the function that raised
        (``viewCommands[viewCmd] is not a function``): the key that found nothing is the one the caller
        passed, as a ``KeyError`` would show in Python."""
        lookup = LOOKUP.search(message)
        own = self._own_frames(frames)
        if lookup is None or len(own) < 2:
            return None
        (path, line, column), (caller, caller_line, caller_column) = own[:2]
        code = script_code(path.read_text(encoding="utf-8", errors="replace"), html=path.suffix in (".html", ".htm"))
        if lookup["key"] not in parameters_around(code, line, column):
            return None
        location = place(caller, caller_line, self._root(), "traceback")
        location.column = caller_column
        location.detail = (f"passes the {lookup['key']} that {lookup['table']} has no entry for; raised at "
                           f"{relative_name(path, self._root())}:{line}")
        return location

    def _root(self) -> Path:
        return self.browser.target.root or Path(".")

    def _own_frames(self, frames: Sequence[str]) -> list[tuple[Path, int, int]]:
        """The frames of the page's own scripts (served from its folder; not a minified library's): file, line
        and column."""
        root = self.browser.target.root
        if root is None:
            return []
        own = []
        for frame in frames:
            match = SCRIPT_FRAME.fullmatch(frame)
            if match is None or match["file"].endswith(".min.js"):
                continue
            path = root / unquote(match["file"].lstrip("/"))
            if path.is_file():
                own.append((path, int(match["line"]), int(match["column"])))
        return own

    def script_place(self, frames: Sequence[str], how: LocationHow) -> Location | None:
        """The innermost frame of the page's own scripts (served from its folder; a minified library's is not
        the app's) as a Location, with the line's text from the file."""
        own = self._own_frames(frames)
        if not own:
            return None
        path, line, column = own[0]
        location = place(path, line, self._root(), how)
        location.column = column
        return location


class DomReader:
    """Feeds the expectations from the page itself after every observation: its visible text (exact) and the
    facts its rules need, in one DOM read; a page that draws on a canvas has the window OCRed too, in the
    background, since canvas text is only pixels. Used instead of the OCR reader on web apps."""

    def __init__(self, browser: Browser, tracker: ExpectationTracker, vision: Vision, *, timeout: float) -> None:
        self.browser, self.tracker, self.vision, self.timeout = browser, tracker, vision, timeout
        self.queries = list(dict.fromkeys(query for _, rule in tracker.rules for query in rule.queries))
        self._ocr: TextReader | None = None
        self.dom_text = ""
        self.ocr_text = ""
        self._dom_read_at = 0

    @property
    def text(self) -> str:
        return f"{self.dom_text}\n{self.ocr_text}" if self.ocr_text else self.dom_text

    @property
    def read_at(self) -> int:
        """The steps done when the oldest part of ``text`` was read (the canvas's OCR lags the DOM)."""
        return min(self._dom_read_at, self._ocr.read_at) if self.ocr_text and self._ocr else self._dom_read_at

    def offer(self, frame: np.ndarray, key: str, step: int) -> None:
        """Read the page now (a page that does not answer in time is the freeze oracle's to judge)."""
        try:
            state = dom.read(self.browser, self.queries, timeout=self.timeout)
        except DomError:
            raise
        except (DevToolsTimeout, AppError):
            return
        self.dom_text, self._dom_read_at = state.text, step
        if self.queries:
            self.tracker.observe_facts(state.facts, step)
        if state.canvas and self.tracker.needs_text:
            if self._ocr is None:
                self._ocr = TextReader(self.vision, self._read_canvas)
            self._ocr.offer(frame, key, step)
        self.tracker.observe_text(self.text, step)

    def _read_canvas(self, text: str, step: int, pieces: Sequence[str]) -> None:
        self.ocr_text = text
        self.tracker.observe_text(self.text, step, pieces)

    def final_text(self) -> str:
        """The page's text at the end of the run (the last read when the page no longer answers)."""
        try:
            state = dom.read(self.browser, self.queries, timeout=self.timeout)
        except (DevToolsTimeout, AppError):
            return self.text
        self.dom_text = state.text
        if self.queries:
            self.tracker.facts = state.facts
        return self.text

    def close(self) -> None:
        if self._ocr is not None:
            self._ocr.close()


class WebPage:
    """The page as a policy sees it: its visible DOM text, its clickable elements and the facts of rules (read
    as the DomReader reads them for ``expect.rule``), on demand."""

    def __init__(self, browser: Browser, *, timeout: float) -> None:
        self.browser, self.timeout = browser, timeout

    def text(self) -> str:
        try:
            return dom.read(self.browser, [], timeout=self.timeout).text
        except (DevToolsTimeout, AppError):
            return ""

    def widgets(self) -> list[Widget]:
        try:
            found = dom.clickables(self.browser, timeout=self.timeout)
        except (DevToolsTimeout, AppError):
            return []
        return [Widget(item.box, item.kind, item.text, item.options, handles=item.handles) for item in found]

    def animations_left(self) -> float:
        """Seconds until the page's finite animations end (dom.animations_left); 0 when it does not answer."""
        try:
            return dom.animations_left(self.browser, timeout=self.timeout)
        except (DevToolsTimeout, AppError):
            return 0.0

    def refused_submit(self, point: tuple[int, int]) -> bool:
        """Whether a click at ``point`` submits a form the browser refuses for its fields (dom.refused_submit)."""
        try:
            return dom.refused_submit(self.browser, point, timeout=self.timeout)
        except (DevToolsTimeout, AppError):
            return False

    def address(self) -> str:
        try:
            return dom.address(self.browser, timeout=self.timeout)
        except (DevToolsTimeout, AppError):
            return ""

    def facts(self, queries: Sequence[Query]) -> dict[Query, Fact] | None:
        try:
            return dom.read(self.browser, queries, timeout=self.timeout).facts
        except DomError as exc:
            raise RuleError(str(exc)) from None
        except (DevToolsTimeout, AppError):
            return None
