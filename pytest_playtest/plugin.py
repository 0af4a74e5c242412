"""pytest glue: options, ini values, the ``playtest`` marker and fixture, hook registration.

Nothing here starts a display or imports a GUI library: that happens on a test's first use, in the
process running the test (an xdist worker, never the controller).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import hookspecs
from .benchmark.collector import BenchmarkPlugin
from .fixture import Playtest, Runtime, Settings
from .report_plugin import ReportPlugin

SKIP_REASON = "playtest tests are skipped without --playtest (pass --playtest to run them)"
RUNTIME_KEY = pytest.StashKey[Runtime]()

# (option, ini name, help, default) — every option has an ini twin of the same name with underscores.
OPTIONS: list[tuple[str, str, str, str | None]] = [
    ("--playtest-size", "playtest_size", "size of the virtual display, WIDTHxHEIGHT", "1024x768"),
    ("--playtest-display", "playtest_display", "use this running X display (:N) instead of starting Xvfb",
     None),
    ("--playtest-output", "playtest_output", "folder for per-test artifacts", "playtest-results"),
    ("--playtest-policy", "playtest_policy", "default policy: heuristic, random, llm, replay", "heuristic"),
    ("--playtest-max-steps", "playtest_max_steps", "default bound on actions per run", "50"),
    ("--playtest-timeout", "playtest_timeout", "default bound on seconds per run", "60"),
    ("--playtest-screenshots", "playtest_screenshots",
     "keep screenshots: on, off or only-on-failure", "on"),
    ("--playtest-samples", "playtest_samples",
     "benchmark samples file (JSONL) for tasks.jsonl suites; without it each task's own code is the sample",
     None),
    ("--playtest-k", "playtest_k", "benchmark: comma-separated k values for Exec@k, Pass@k, Play@k", "1"),
    ("--playtest-results", "playtest_results", "benchmark: write the metrics to this JSON file", None),
    ("--playtest-model", "playtest_model", "model name for policy llm", None),
    ("--playtest-base-url", "playtest_base_url",
     "OpenAI-compatible endpoint for policy llm (else OPENAI_BASE_URL)", None),
    ("--playtest-replay", "playtest_replay",
     "replay recorded runs from this folder (a recording's output root or one test's folder)", None),
]


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("playtest", "playtesting GUI apps and games")
    group.addoption("--playtest", action="store_true", default=None,
                    help="run playtests (tests using the playtest marker or fixture)")
    parser.addini("playtest", "run playtests without passing --playtest", type="bool", default=False)
    group.addoption("--playtest-record", action="store_true", dest="playtest_record", default=None,
                    help="record every run's trajectory (trajectory.jsonl) in its artifacts folder "
                         "(ini: playtest_record)")
    parser.addini("playtest_record", "record every run's trajectory", type="bool", default=False)
    for option, ini, help_text, default in OPTIONS:
        group.addoption(option, dest=ini, default=None, help=f"{help_text} (ini: {ini}; default: {default})")
        parser.addini(ini, help_text, default=default)


def setting(config: pytest.Config, ini: str) -> Any:
    """An option's value: the command line, else the ini file, else the default."""
    value = config.getoption(ini, default=None)
    return config.getini(ini) if value is None else value


def enabled(config: pytest.Config) -> bool:
    flag = config.getoption("playtest", default=None)
    return bool(config.getini("playtest")) if flag is None else bool(flag)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "playtest(app=..., strategy=..., goal=..., expect=[...], max_steps=..., timeout=..., policy=..., "
        "size=..., env=..., cwd=..., seed=...): a playtest of a GUI app; see the pytest-playtest docs",
    )
    if enabled(config):
        config.stash[RUNTIME_KEY] = Runtime(Settings.from_config(config, setting))
        config.pluginmanager.register(BenchmarkPlugin(config), BenchmarkPlugin.NAME)
        config.pluginmanager.register(ReportPlugin(config), "playtest-report")


def pytest_unconfigure(config: pytest.Config) -> None:
    runtime = config.stash.get(RUNTIME_KEY, None)
    if runtime is not None:
        runtime.close()


def _is_playtest(item: pytest.Item) -> bool:
    return item.get_closest_marker("playtest") is not None or "playtest" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if enabled(config):
        return
    skip = pytest.mark.skip(reason=SKIP_REASON)
    for item in items:
        if _is_playtest(item):
            item.add_marker(skip)


@pytest.fixture
def playtest(request: pytest.FixtureRequest) -> Iterator[Playtest]:
    """Launch, drive and judge a GUI app; see ``pytest_playtest.fixture.Playtest``."""
    runtime = request.config.stash.get(RUNTIME_KEY, None)
    if runtime is None:
        pytest.skip(SKIP_REASON)
    marker = request.node.get_closest_marker("playtest")
    marker_kwargs: dict[str, Any] = dict(marker.kwargs) if marker else {}
    if marker and marker.args:
        raise pytest.UsageError(
            f"{request.node.nodeid}: @pytest.mark.playtest takes keyword arguments only, got {marker.args!r}"
        )
    tester = Playtest(runtime, request.node, marker_kwargs, rootdir=Path(str(request.config.rootpath)))
    try:
        yield tester
    finally:
        tester.close()
