"""One run pipeline for every playtest: the process's displays and OCR, a run, and its artifacts.

The fixture's ``run()`` and the benchmark's play stage both go through ``Runtime.play``, so a playtest
written by hand and a benchmark sample are launched, judged and reported the same way.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import DisplayError
from .loop.spec import RunResult, RunSpec
from .report.artifacts import finalize_artifacts
from .runtime.display import Display
from .verdict import Verdict

if TYPE_CHECKING:
    from .policies.base import PolicyFactory
    from .settings import Settings
    from .vision import Vision


class Runtime:
    """What one test process shares between its playtests: the displays, the OCR engine, and what makes a run's
    policy (the glue's: under pytest, the ``pytest_playtest_make_policy`` hook; else the built-ins)."""

    def __init__(self, settings: Settings, *, policies: PolicyFactory | None = None) -> None:
        self.settings = settings
        self.policies = policies
        self._displays: dict[tuple[int, int], Display] = {}
        self._vision: Vision | None = None
        self._warming: threading.Thread | None = None

    def display(self, size: tuple[int, int] | None = None) -> Display:
        """The process's display of that size, started on first use (a private one for odd sizes)."""
        size = size or self.settings.size
        if size not in self._displays:
            existing = self.settings.display if size == self.settings.size else None
            self._displays[size] = Display(size, existing=existing)
        display = self._displays[size]
        display.start()
        return display

    @property
    def vision(self) -> Vision:
        if self._vision is None:
            from .vision import Vision  # OpenCV and the OCR engine load with the first run

            self._vision = Vision()
        return self._vision

    def warm_up(self) -> None:
        """Load the OCR engine on a background thread, once per process: for a caller that is about to wait
        idle (the benchmark's exec stage watches the app for a second), so the first read does not wait."""
        if self._warming is None:
            from .vision.ocr import warm_up

            self._warming = threading.Thread(target=warm_up, name="playtest-ocr-warm-up", daemon=True)
            self._warming.start()

    def play(self, spec: RunSpec, *, artifacts: Path, default_cwd: Path) -> RunResult:
        """Run one playtest and write its artifacts; never raises for the app's faults or infrastructure."""
        screenshots = self.settings.screenshots
        try:
            display = self.display(spec.size)
        except DisplayError as exc:
            result = RunResult(Verdict(status="error", error=str(exc), policy=spec.policy), [])
        else:
            from .loop.playthrough import run_session  # the loop (OpenCV, the OCR engine) loads with the first run

            result = run_session(spec, display=display, vision=self.vision, policies=self.policies,
                                 artifacts=artifacts, screenshots=screenshots, default_cwd=default_cwd)
        finalize_artifacts(artifacts, result.verdict, result.steps, stdout=result.stdout, stderr=result.stderr,
                           screenshots=screenshots)
        return result

    def close(self) -> None:
        if self._warming is not None:  # not torn down by the interpreter's exit halfway through a load
            self._warming.join(timeout=30)
        for display in self._displays.values():
            display.stop()
        self._displays.clear()
