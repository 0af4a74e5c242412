"""What the browser says about a web app under test, turned into findings and notes.

Uncaught errors, unhandled rejections and failed requests for the app's own files are ``exception``
findings; a crashed renderer is a ``crash``; a main thread that does not run a trivial script within
``OracleSettings.page_answer`` seconds is a ``freeze`` (a JavaScript busy loop keeps the browser reading
X events, so the desktop freeze checks cannot see it); console errors and failed foreign requests are notes.
"""

from __future__ import annotations

from ..runtime.browser import Browser
from ..verdict import Finding


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
                found.append(Finding("exception", f"{report.message}{where} (the page kept running)", step=step,
                                     details=report.details))
            elif report.kind == "request":
                found.append(Finding("exception", f"a file of the app's own failed to load: {report.message}",
                                     step=step))
            elif report.kind == "console":
                self.notes.append(f"console error at step {step}: {report.message}{where}")
            elif report.kind == "foreign_request":
                self.notes.append(f"a request outside the app failed at step {step}: {report.message}")
        return found

    def crash(self, step: int) -> Finding | None:
        """A crash finding when the page's renderer died (the browser process itself stays alive)."""
        if not self.browser.crashed:
            return None
        return Finding("crash", "the page's renderer crashed (the browser showed \"Aw, Snap!\")", step=step)

    def freeze(self, step: int, bound: float) -> Finding | None:
        """A freeze finding when the page's main thread does not run a trivial script within ``bound`` seconds."""
        if self.browser.crashed or self.browser.answers(bound):
            return None
        return Finding("freeze", f"the page's main thread did not run a script within {bound:g}s "
                                 "(a busy loop or a blocking call)", step=step)
