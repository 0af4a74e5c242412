"""Shared fixtures for the plugin's own tests: a real Xvfb display and the small test apps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

# pytester runs its inner sessions in this process and unloads the modules they imported afterwards;
# numpy refuses to load twice in one process, so what the plugin imports lazily is loaded here once. The OCR
# engine too: an engine made before an inner session would otherwise meet the configuration classes
# (omegaconf's) that session loaded anew.
import omegaconf  # noqa: F401
import pytest
import rapidocr.ch_ppocr_rec  # noqa: F401
from rapidocr import RapidOCR  # noqa: F401

import pytest_playtest.benchmark.collector  # noqa: F401
import pytest_playtest.fixture  # noqa: F401
import pytest_playtest.reporting  # noqa: F401
import pytest_playtest.scenarios.collector  # noqa: F401
from pytest_playtest.loop.playthrough import RunResult, run_session
from pytest_playtest.loop.spec import RunSpec
from pytest_playtest.runtime.app import App
from pytest_playtest.runtime.display import Display
from pytest_playtest.vision import Vision
from tests.support import Play

#: The fixtures that start an Xvfb (and on it an app or a browser): a test using one, directly or through
#: another fixture, is marked ``gui``. Tests that start a display, a browser or a playing pytester session
#: otherwise carry the mark themselves (``pytestmark`` in the modules that do nothing else).
GUI_FIXTURES = frozenset({"display", "launch", "play", "browser"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if GUI_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.gui)


@pytest.fixture(scope="module")
def display() -> Iterator[Display]:
    """A real Xvfb for the module's tests, stopped afterwards."""
    screen = Display((800, 600))
    screen.start()
    yield screen
    screen.stop()


@pytest.fixture(scope="module")
def vision() -> Vision:
    """One vision (OCR models loaded once) for the module's tests."""
    return Vision()


@pytest.fixture(scope="module")
def play_defaults() -> SimpleNamespace:
    """What ``play`` runs with where a test says nothing (a module overrides this fixture for its own)."""
    return SimpleNamespace(policy="heuristic", max_steps=40, timeout=40.0, options={})



@pytest.fixture
def play(display: Display, vision: Vision, play_defaults: SimpleNamespace) -> Play:
    """Play an app on the test display as ``playtest.run`` does, keyword arguments as its; the session's
    result (verdict and steps). Artifacts and screenshots go to ``artifacts`` when a folder is given."""

    def run(*, artifacts: Path | None = None, **kwargs: Any) -> RunResult:
        spec = RunSpec.from_kwargs(kwargs, defaults=play_defaults, where="test")
        return run_session(spec, display=display, vision=vision, artifacts=artifacts,
                           screenshots="on" if artifacts else "off")

    return run


@pytest.fixture
def launch(display: Display) -> Iterator:
    """Start an app on the test display, waiting for its window; everything is killed afterwards."""
    started: list[App] = []

    def start(target, *, window: bool = True, **kwargs) -> App:  # noqa: ANN001
        app = App(target, display, **kwargs).start()
        started.append(app)
        if window:
            assert app.wait_for_window(timeout=15), app.text_output()
        return app

    yield start
    for app in started:
        app.terminate()

