"""pytest glue: options, ini values, the ``playtest`` marker and fixtures, hook registration.

Hooks only. Importing this module (which pytest does in every session where the package is installed)
loads nothing but ``config`` and ``hookspecs``: the fixture, the reports and the benchmark machinery are
imported when playtests are enabled or a benchmark suite is collected. Nothing here starts a display or
imports a GUI library: that happens on a test's first use, in the process running the test (an xdist
worker, never the controller).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from . import hookspecs
from .config import (
    BENCHMARK_PLUGIN,
    OPTIONS,
    REPORT_PLUGIN,
    RUNTIME_KEY,
    SCENARIO_PLUGIN,
    SKIP_REASON,
    deprecated_spellings,
    enabled,
    ini_name,
    launch_args,
    launched,
    marker_help,
    settings_from,
)

if TYPE_CHECKING:
    from .benchmark.rounds import Repairer
    from .fixture import Playtest
    from .pipeline import Runtime
    from .policies.base import Policy, PolicyContext, PolicyFactory

#: The file name of a benchmark suite (the benchmark package is imported when one is collected).
SUITE_FILE = "tasks.jsonl"
#: Scenario files: ours, and FSD-Bench's test case files (the scenarios package is imported with --playtest).
SCENARIO_SUFFIX = ".playtest.md"
FSD_BENCH_PATTERN = "TestCases_*.md"


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    """Every option of ``config.OPTIONS`` with its ini twin, and their deprecated spellings. The ini twins have
    no default (``config.setting`` supplies the table's), so that one given is told from one that is not."""
    group = parser.getgroup("playtest", "playtesting GUI apps and games")
    for option in OPTIONS:
        flag: dict[str, Any] = {"action": "store_true"} if option.kind == "bool" else {}
        if option.choices:
            flag["choices"] = option.choices
        group.addoption(option.flag, dest=option.ini, default=None, help=option.described(), **flag)
        parser.addini(option.ini, option.help, type=option.kind, default=None)
        for alias in option.aliases:
            group.addoption(alias, dest=ini_name(alias), default=None, help=f"deprecated: use {option.flag}", **flag)
            parser.addini(ini_name(alias), f"deprecated: use {option.ini}", type=option.kind, default=None)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", marker_help())
    if not hasattr(config, "workerinput"):  # once per session: xdist workers parse the same command line
        for old, new in deprecated_spellings(config):
            from .errors import PytestPlaytestDeprecationWarning

            config.issue_config_time_warning(
                PytestPlaytestDeprecationWarning(f"{old} is deprecated: use {new}"), stacklevel=2)
    if enabled(config):
        from .benchmark.collector import BenchmarkPlugin
        from .pipeline import Runtime
        from .reporting import ReportPlugin

        if hasattr(config, "workerinput"):  # an xdist worker: it must not outlive a killed controller
            from .runtime.lifeline import end_with_parent

            end_with_parent()
        config.stash[RUNTIME_KEY] = Runtime(settings_from(config), policies=_hook_policies(config))
        config.pluginmanager.register(ReportPlugin(config), REPORT_PLUGIN)
        # registered in the controller too, which scores the run from the workers' reports
        config.pluginmanager.register(BenchmarkPlugin(config, repairer=_repairer(config)), BENCHMARK_PLUGIN)
        from .scenarios.collector import ScenarioPlugin

        config.pluginmanager.register(ScenarioPlugin(config), SCENARIO_PLUGIN)
        from .benchmark.store import StorePlugin

        config.pluginmanager.register(StorePlugin(config), "playtest-store")


def _hook_policies(config: pytest.Config) -> PolicyFactory:
    """The pipeline's policy factory: the ``pytest_playtest_make_policy`` hook (plugins first, built-ins last)."""

    def make(name: str, context: PolicyContext) -> Policy | None:
        policy: Policy | None = config.hook.pytest_playtest_make_policy(name=name, context=context, config=config)
        return policy

    return make


def _repairer(config: pytest.Config) -> Repairer | None:
    """What repairs failing benchmark samples, when ``--playtest-benchmark-repair`` asks for rounds (the repair package,
    and the model client with it, load only then)."""
    from .benchmark.collector import repair_rounds

    if not repair_rounds(config):
        return None
    from .repair.benchmark import BenchmarkRepair

    return BenchmarkRepair


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``--playtest``, ``-n`` (``--dist load``) and ``--dist loadgroup`` keep each benchmark sample's
    stages on one worker and start the samples an earlier run found longest first
    (``benchmark/scheduling.py``); other modes are xdist's own."""
    if not enabled(config) or config.getvalue("dist") not in ("load", "loadgroup"):
        return None
    from .benchmark.scheduling import SampleScheduling

    store = config.pluginmanager.get_plugin("playtest-store")
    return SampleScheduling(config, log, earlier=getattr(store, "earlier", None))


@pytest.hookimpl(trylast=True)
def pytest_playtest_make_policy(name: str, context: PolicyContext, config: pytest.Config) -> Policy | None:
    """The built-in policies answer last: a plugin may add names or replace one of them."""
    from .policies import builtin_policy

    return builtin_policy(name, context)


def pytest_unconfigure(config: pytest.Config) -> None:
    runtime = config.stash.get(RUNTIME_KEY, None)
    if runtime is not None:
        runtime.close()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    name = file_path.name
    scenario = name.endswith(SCENARIO_SUFFIX) or fnmatch(name, FSD_BENCH_PATTERN)
    if not (name == SUITE_FILE or scenario) or not enabled(parent.config):
        return None
    if scenario:
        from .scenarios.collector import ScenarioFileNode

        return ScenarioFileNode.from_parent(parent, path=file_path)
    from .benchmark.collector import SuiteFile

    return SuiteFile.from_parent(parent, path=file_path)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A suite's task repositories are apps to evaluate, not tests of this session: ``pytest my-suite/``
    collects the suite's ``tasks.jsonl`` and never the repositories' own test files."""
    if not collection_path.is_dir():
        return None
    folder = collection_path.resolve()
    for suite in folder.parents:
        if folder in _task_repos(suite / SUITE_FILE):
            return True
        if suite == config.rootpath:
            break
    return None


@functools.cache
def _task_repos(suite_file: Path) -> frozenset[Path]:
    """Every task's ``repo`` folder of a suite file (empty when there is no suite file there)."""
    if not suite_file.is_file():
        return frozenset()
    import json

    repos = set()
    for line in suite_file.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            repo = json.loads(line).get("repo")
        except (ValueError, AttributeError):
            continue  # the collector reports bad lines
        if isinstance(repo, str) and repo:
            repos.add((suite_file.parent / repo).resolve())
    return frozenset(repos)


def _is_playtest(item: pytest.Item) -> bool:
    return item.get_closest_marker("playtest") is not None or "playtest" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if enabled(config):
        return
    skip = pytest.mark.skip(reason=SKIP_REASON)
    for item in items:
        if _is_playtest(item):
            item.add_marker(skip)


# -- the fixture chain: playtest_launch_args → playtest_runtime → playtest_defaults → playtest; a conftest.py
# overrides any of them (docs/writing-playtests.md, "The fixture chain")
@pytest.fixture(scope="session")
def playtest_launch_args(pytestconfig: pytest.Config) -> dict[str, Any]:
    """How the session's apps are launched, from the command line and ini file: ``size`` (``"WxH"``), ``display``
    (``":N"``, None: a new Xvfb), ``sandbox`` (``"auto"``, ``"on"``, ``"off"``, None), ``sandbox_limits`` and
    ``env`` (extra environment for every app the ``playtest`` fixture launches).

    Override it (session scope) in the rootdir's ``conftest.py`` to change them for every test::

        @pytest.fixture(scope="session")
        def playtest_launch_args(playtest_launch_args):
            return {**playtest_launch_args, "size": "800x600", "env": {"LANG": "C.UTF-8"}}
    """
    runtime = pytestconfig.stash.get(RUNTIME_KEY, None)
    if runtime is None:
        pytest.skip(SKIP_REASON)
    return launch_args(runtime.settings)


@pytest.fixture(scope="session")
def playtest_runtime(pytestconfig: pytest.Config, playtest_launch_args: dict[str, Any]) -> Iterator[Runtime]:
    """The displays and OCR engine the session's playtests share (``pipeline.Runtime``): the one the plugin made
    at start-up when the launch arguments are the command line's, else one of their own, closed at the end of
    the session (its own Xvfb and OCR engine). Benchmark and scenario items use the plugin's."""
    runtime = pytestconfig.stash.get(RUNTIME_KEY, None)
    if runtime is None:
        pytest.skip(SKIP_REASON)
    settings, _ = launched(runtime.settings, playtest_launch_args)
    if settings == runtime.settings:
        yield runtime
        return
    from .pipeline import Runtime

    own = Runtime(settings, policies=runtime.policies)
    try:
        yield own
    finally:
        own.close()


@pytest.fixture
def playtest_defaults() -> dict[str, Any]:
    """Playtest arguments every test in scope starts from; the marker and ``run()`` arguments override them.

    Override it in a ``conftest.py`` to set a policy, bounds, size or environment for one directory::

        @pytest.fixture
        def playtest_defaults():
            return {"policy": "random", "max_steps": 200, "env": {"LEVEL": "1"}}
    """
    return {}


@pytest.fixture
def playtest(request: pytest.FixtureRequest, playtest_runtime: Runtime, playtest_launch_args: dict[str, Any],
             playtest_defaults: dict[str, Any]) -> Iterator[Playtest]:
    """Launch, drive and judge a GUI app; see ``pytest_playtest.fixture.Playtest``."""
    from .errors import SpecError
    from .fixture import Playtest

    marker = request.node.get_closest_marker("playtest")
    if marker and marker.args:
        raise SpecError(f"{request.node.nodeid}: @pytest.mark.playtest takes keyword arguments only, got "
                        f"{marker.args!r}")
    if not isinstance(playtest_defaults, dict):
        raise SpecError(f"{request.node.nodeid}: the playtest_defaults fixture must return a dict, "
                        f"got {type(playtest_defaults).__name__}")
    arguments = {**playtest_defaults, **(marker.kwargs if marker else {})}
    _, env = launched(playtest_runtime.settings, playtest_launch_args)
    tester = Playtest(playtest_runtime, request.node, arguments, rootdir=Path(str(request.config.rootpath)), env=env)
    try:
        yield tester
    finally:
        tester.close()
