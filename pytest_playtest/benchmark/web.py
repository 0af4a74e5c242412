"""The benchmark stages' side of web tasks: which page a task runs, its build's tools, and the exec check.

A web task's ``run`` is one item naming the page (an ``.html`` file, a folder holding ``index.html``, or a
loopback URL), as ``app=`` does for a playtest. Its exec stage opens the page in Chromium exactly as a
playtest would (``runtime/browser``) and asks the browser's channel what the play stage's oracles ask
(``loop/web.PageWatch``): an uncaught error or unhandled rejection, a file of the app's own that failed to
load, a crashed renderer, or a main thread that no longer runs a trivial script all fail it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import AppError
from ..loop.spec import OracleSettings
from ..loop.web import PageWatch
from ..runtime.browser import Browser, WebTarget, web_target

if TYPE_CHECKING:
    from ..runtime.display import Display

#: Where a JavaScript repo's installed packages put their commands (``npm run`` puts it on PATH too).
NODE_BIN = Path("node_modules", ".bin")


def task_web_target(run: Sequence[str], repo: Path) -> WebTarget | None:
    """The page a task's ``run`` names in ``repo`` (None: ``run`` is a desktop app's argv)."""
    if len(run) != 1:
        return None
    return web_target(run[0], repo)


def tool_environment(env: Mapping[str, str], repo: Path) -> dict[str, str]:
    """``env`` with the repo's ``node_modules/.bin`` first on PATH, so a ``build`` or ``unit_tests`` argv
    can name an installed tool (``esbuild``) as ``npm run`` would."""
    env = dict(env)
    tools = repo / NODE_BIN
    if tools.is_dir():
        env["PATH"] = os.pathsep.join(part for part in (str(tools), env.get("PATH", "")) if part)
    return env


def page_problems(target: WebTarget, display: Display, *, window_timeout: float, settle: float) -> list[str]:
    """Why the page fails to load and keep running (empty: it does), after watching it for ``settle`` s."""
    notes: list[str] = []
    browser = Browser(target, display)
    try:
        browser.start()
        if not browser.wait_for_window(timeout=window_timeout):
            return [f"Chromium showed no window within {window_timeout:g}s:\n{browser.text_output()[-2000:]}"]
        watch = PageWatch(browser, notes)
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline and browser.poll() is None and not browser.crashed:
            time.sleep(0.05)
        findings = watch.check_reports(0)
        for finding in (watch.crash(0), watch.freeze(0, OracleSettings().page_answer)):
            if finding is not None:
                findings.append(finding)
        if not findings and browser.poll() is not None:
            return [f"Chromium exited with code {browser.poll()}:\n{browser.text_output()[-2000:]}"]
        # the play stage's wording; at this stage the page has had no input yet
        return [f"{finding.kind}: {finding.message.removesuffix(' (the page kept running)')}" for finding in findings]
    except AppError as exc:
        return [f"cannot open the page: {exc}"]
    finally:
        browser.terminate()
