"""The per-run store: every finished stage report of a benchmark run, one JSON line each, flushed per line.

The controller appends each stage item's reports (setup, call, teardown; serialized as xdist sends them) to
``<results>.store.jsonl`` beside ``--playtest-results``. A killed run loses at most the line being written.
``--playtest-benchmark-resume`` deselects the stage items the store already holds and feeds their stored reports to
the scoring, so the metrics are computed from the store's content: a resumed run gives the numbers an
uninterrupted one would. Without ``--playtest-benchmark-resume`` a run starts a new store. Under xdist the controller
first reads what each sample cost in the store it replaces, so that the longest samples go out first
(``scheduling.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..config import BENCHMARK_PLUGIN, setting
from .collector import PROPERTY, shard_costs_path
from .costs import read_store, stored_seconds
from .metrics import write_results
from .paths import store_path
from .timing import format_timing, run_timing


def _stage_key(props: Any) -> tuple[str, str, int, str] | None:
    if not isinstance(props, dict):
        return None
    return (props["suite"], props["task_id"], props["sample"], props["stage"])


def _finished(stored: Iterator[dict[str, Any]]) -> dict[tuple[str, str, int, str], list[dict[str, Any]]]:
    """The stored reports of each finished stage: from its last setup (a stage a kill interrupted runs again
    from its setup) to its teardown."""
    attempts: dict[tuple[str, str, int, str], list[dict[str, Any]]] = {}
    for data in stored:
        key = _stage_key(dict(data.get("user_properties", [])).get(PROPERTY))
        if key is None:
            continue
        if data.get("when") == "setup":
            attempts[key] = []
        attempts.setdefault(key, []).append(data)
    return {key: reports for key, reports in attempts.items() if reports[-1].get("when") == "teardown"}


class StorePlugin:
    """Writes the store (controller) and, with ``--playtest-benchmark-resume``, skips and replays what it holds."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.path = store_path(config)
        costs = shard_costs_path(config)
        if self.path is not None and costs is not None and costs.resolve() == self.path.resolve():
            # the run rewrites it while xdist workers read it to deal the tasks: they would deal differently
            raise pytest.UsageError(f"--playtest-benchmark-shard-costs: {costs} is the store this run writes; give the "
                                    "store of an earlier run (a copy of it)")
        self.resume = bool(setting(config, "playtest_benchmark_resume"))
        self._out: Any = None
        parallel = self.controller and config.getoption("dist", default="no") != "no"
        earlier = list(self._read()) if self.resume or parallel else []
        finished = _finished(iter(earlier)) if self.resume else {}
        self.done = set(finished)
        self.stored: list[dict[str, Any]] = [data for reports in finished.values() for data in reports]
        #: each sample's seconds in the store as the earlier run left it, for xdist to start the longest first
        self.earlier = stored_seconds(earlier) if parallel else {}

    def _read(self) -> Iterator[dict[str, Any]]:
        if self.path is None or not self.path.is_file():
            return
        yield from read_store(self.path)

    @property
    def controller(self) -> bool:
        return not hasattr(self.config, "workerinput")

    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        if not self.done:
            return
        keep: list[pytest.Item] = []
        skip: list[pytest.Item] = []
        for item in items:
            key = _stage_key(dict(item.user_properties).get(PROPERTY))
            (skip if key in self.done else keep).append(item)
        if skip:
            config.hook.pytest_deselected(items=skip)
            items[:] = keep

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        if not self.controller or self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        cut = self.resume and self.path.is_file() and self.path.read_bytes()[-1:] not in (b"", b"\n")
        self._out = open(self.path, "a" if self.resume else "w", encoding="utf-8")  # noqa: SIM115 - open all run
        if cut:  # the line a kill cut short stays alone on its line, unread
            self._out.write("\n")
        scoring = self.config.pluginmanager.get_plugin(BENCHMARK_PLUGIN)
        for data in self.stored:
            if scoring is not None:
                report = self.config.hook.pytest_report_from_serializable(config=self.config, data=data)
                scoring.pytest_runtest_logreport(report)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self._out is None or _stage_key(dict(report.user_properties).get(PROPERTY)) is None:
            return
        data = self.config.hook.pytest_report_to_serializable(config=self.config, report=report)
        data.pop("node", None)  # under xdist: the worker the report came from, not data
        line = json.dumps(data, default=str)
        self._out.write(line + "\n")
        self._out.flush()
        self.stored.append(json.loads(line))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Add the run's timing (from the store's content) to the results, in the file and for the terminal."""
        scoring = self.config.pluginmanager.get_plugin(BENCHMARK_PLUGIN)
        results = getattr(scoring, "results", None)
        if not self.controller or not isinstance(results, dict) or not self.stored:
            return
        results["timing"] = run_timing(self.stored, PROPERTY)
        target = setting(self.config, "playtest_results")
        if target and self.path is not None:
            write_results(self.path.with_name(Path(target).name), results)

    @pytest.hookimpl(trylast=True)  # under the metrics table
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        scoring = self.config.pluginmanager.get_plugin(BENCHMARK_PLUGIN)
        results = getattr(scoring, "results", None)
        if isinstance(results, dict) and results.get("timing"):
            terminalreporter.write_line(format_timing(results["timing"]))

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None
