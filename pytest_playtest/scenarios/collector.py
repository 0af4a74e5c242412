"""Scenario files as pytest items, and functional completeness in the terminal and the results JSON.

``plugin.py`` hands every ``*.playtest.md`` and ``TestCases_*.md`` file to ``ScenarioFileNode`` when playtests
are enabled, and registers ``ScenarioPlugin`` (the FC summary). Each Functionality is one item
(``file.md::Functionalities 3. Saving a note``); a malformed file or Functionality is one failing item naming
``file:line``. The case outcomes travel in ``user_properties`` (JUnit ``<property>`` elements), so the
controller counts them the same with and without xdist.
"""

from __future__ import annotations

import fnmatch
import re
import shlex
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ..config import METRICS_KEY, RUNTIME_KEY, SKIP_REASON, VERDICTS_KEY, setting, settings_from
from ..errors import ScenarioError, SpecError
from ..loop.spec import desktop_rules
from ..report.artifacts import artifacts_dir
from .completeness import Tally, overall, results, tally
from .grammar import parse_expectation
from .model import CaseOutcome, Functionality, ScenarioFile
from .parser import CASES, FRONT_MATTER_KEYS, login_problem, parse_file
from .runner import play_functionality, scenario_spec

if TYPE_CHECKING:
    from ..policies.base import Policy, PolicyContext

#: user_properties names: the scenario file (relative to the rootdir), each case's outcome, a malformed item.
FILE_PROPERTY = "playtest_scenario"
CASE_PROPERTY = "playtest_case_"
MALFORMED_PROPERTY = "playtest_scenario_malformed"
APPS_OPTION = "playtest_scenario_apps"
LOGIN_OPTION = "playtest_scenario_login"
CASES_OPTION = "playtest_scenario_cases"
RESULTS_KEY = "scenarios"


class ScenarioFailed(Exception):
    """Cases of a Functionality failed (or errored); the message lists them."""


def relative_name(config: pytest.Config, path: Path) -> str:
    try:
        return str(path.relative_to(config.rootpath))
    except ValueError:
        return str(path)


def mapped_app(config: pytest.Config, path: Path) -> Any:
    """The app ``--playtest-scenario-apps`` (ini ``playtest_scenario_apps``) gives this file, or None.

    Entries ``PATTERN=APP``, one per line or separated by ``;``: the first whose glob matches the file's name
    or its path from the rootdir wins. APP is a ``.py`` path or a command line; paths are from the rootdir.
    """
    raw = setting(config, APPS_OPTION) or ""
    for entry in (part.strip() for line in str(raw).splitlines() for part in line.split(";")):
        if not entry:
            continue
        pattern, equals, app = entry.partition("=")
        if not equals or not pattern.strip() or not app.strip():
            raise ScenarioError(path, 1, f"--playtest-scenario-apps / ini {APPS_OPTION}: entry {entry!r} is not "
                                         "PATTERN=APP")
        if any(fnmatch.fnmatch(name, pattern.strip()) for name in (path.name, relative_name(config, path))):
            argv = [_from_root(config, part) for part in shlex.split(app)]
            return argv[0] if len(argv) == 1 else argv
    return None


def ini_login(config: pytest.Config, path: Path) -> dict[str, str] | None:
    """The credentials ``--playtest-scenario-login`` (ini ``playtest_scenario_login``) gives: ``username=NAME``,
    ``password=SECRET`` and maybe ``email=ADDRESS``, one per line or separated by ``;``."""
    raw = setting(config, LOGIN_OPTION)
    if not raw:
        return None
    entries = [part.strip() for line in str(raw).splitlines() for part in line.split(";") if part.strip()]
    pairs = [entry.partition("=") for entry in entries]
    bad = next((entry for entry, (_, equals, _) in zip(entries, pairs, strict=True) if not equals), None)
    login = {key.strip(): value.strip() for key, _, value in pairs}
    problem = f"entry {bad!r} is not KEY=VALUE" if bad else login_problem(login)
    if problem:
        raise ScenarioError(path, 1, f"--playtest-scenario-login / ini {LOGIN_OPTION}: {problem}")
    return login


def independent_cases(config: pytest.Config, scenario: ScenarioFile) -> bool:
    """Whether a case after one that did not pass runs from a fresh launch: the front matter's ``cases``, else
    ``--playtest-scenario-cases`` (ini ``playtest_scenario_cases``)."""
    if scenario.independent is not None:
        return scenario.independent
    raw = str(setting(config, CASES_OPTION) or CASES[0]).strip()
    if raw not in CASES:
        raise ScenarioError(scenario.path, 1, f"--playtest-scenario-cases / ini {CASES_OPTION}: must be one of "
                                              f"{', '.join(CASES)}, got {raw!r}")
    return raw == "independent"


def _from_root(config: pytest.Config, part: str) -> str:
    candidate = config.rootpath / part
    return str(candidate.resolve()) if part.endswith(".py") and candidate.is_file() else part


class ScenarioFileNode(pytest.File):
    """A scenario file: one item per Functionality, one failing item per file-level fault."""

    def collect(self) -> Iterator[pytest.Item]:
        try:
            scenario = parse_file(self.path, default_app=mapped_app(self.config, self.path))
        except ScenarioError as exc:
            scenario = ScenarioFile(self.path, problems=[exc])
        if not scenario.problems:
            self._check_arguments(scenario)
        try:
            if not scenario.login:
                ini_login(self.config, self.path)
            independent_cases(self.config, scenario)
        except ScenarioError as exc:
            scenario.problems.append(exc)
        for number, problem in enumerate([*scenario.problems, *scenario.strays], start=1):
            yield MalformedItem.from_parent(self, name=f"line {problem.line} ({number})", problem=problem)
        for functionality in scenario.functionalities:
            if functionality.problem is None and not scenario.problems:
                functionality = _refuse_desktop_rules(scenario, functionality)
            if functionality.problem is not None:
                yield MalformedItem.from_parent(self, name=functionality.name, problem=functionality.problem)
            elif not scenario.problems:
                yield FunctionalityItem.from_parent(self, name=functionality.name, scenario=scenario,
                                                    functionality=functionality)

    def _check_arguments(self, scenario: ScenarioFile) -> None:
        """A bad front matter value is a fault of the file, found before anything runs."""
        try:
            scenario_spec(scenario, settings_from(self.config), where=str(self.path))
        except SpecError as exc:
            message = str(exc).split(": ", 1)[-1]
            named = [(match.start(), key) for key in FRONT_MATTER_KEYS
                     if (match := re.search(rf"\b{key}\b", message))]
            line = _front_matter_line(self.path, min(named)[1]) if named else 1  # the key the message names first
            scenario.problems.append(ScenarioError(self.path, line, f"front matter: {message}"))


def _refuse_desktop_rules(scenario: ScenarioFile, functionality: Functionality) -> Functionality:
    """A rule in backticks on an app that is a desktop one by its name is a spec error of its case, as
    ``expect.rule`` on a desktop app is: the Functionality is a failing item naming the Expectation's line."""
    app = scenario.arguments.get("app")
    if app is None:
        return functionality
    for case in functionality.cases:
        problem = desktop_rules(parse_expectation(case.expectation).rules, app)
        if problem:
            error = ScenarioError(scenario.path, case.expectation_line or case.line,
                                  f"Expectation of case {case.number}: {problem}")
            return replace(functionality, problem=error)
    return functionality


def _front_matter_line(path: Path, key: str) -> int:
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text.lstrip().startswith(f"{key}:"):
            return number
    return 1


class MalformedItem(pytest.Item):
    """A malformed file or Functionality: fails, naming ``file:line`` and what is wrong."""

    def __init__(self, *, problem: ScenarioError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.problem = problem

    def runtest(self) -> None:
        self.user_properties.extend([(FILE_PROPERTY, relative_name(self.config, self.path)),
                                     (MALFORMED_PROPERTY, self.problem.problem)])
        raise self.problem

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioError):
            return f"malformed scenario: {excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        # the domain is never the nodeid's tail, which the terminal would rewrite (dots to ::)
        return self.path, self.problem.line - 1, f"malformed scenario ({self.path.name}:{self.problem.line})"


class FunctionalityItem(pytest.Item):
    """One Functionality: the app runs once and its cases are performed in order."""

    def __init__(self, *, scenario: ScenarioFile, functionality: Functionality, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.functionality = functionality

    def runtest(self) -> None:
        runtime = self.config.stash.get(RUNTIME_KEY, None)
        if runtime is None:
            pytest.skip(SKIP_REASON)
        where = f"{self.path}:{self.functionality.line}"
        scenario = self.scenario
        result = play_functionality(runtime, scenario, self.functionality, where=where,
                                    artifacts=artifacts_dir(runtime.settings.output, self.nodeid),
                                    login=scenario.login or ini_login(self.config, self.path),
                                    independent=independent_cases(self.config, scenario))
        self.stash.setdefault(VERDICTS_KEY, []).extend(result.verdicts)
        self.user_properties.extend(case_properties(relative_name(self.config, self.path), result.outcomes))
        outcomes = result.outcomes
        if any(v.status == "error" for v in result.verdicts) or any(o.status in ("fail", "error") for o in outcomes):
            raise ScenarioFailed("\n".join(o.describe() for o in outcomes))
        skipped = [o for o in outcomes if o.status == "skip"]
        if skipped:
            pytest.skip("; ".join(o.describe() for o in skipped))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return f"{self.path}:{self.functionality.line}: {self.name}\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.functionality.line - 1, f"{self.name} ({self.path.name}:{self.functionality.line})"


def case_properties(file: str, outcomes: list[CaseOutcome]) -> list[tuple[str, str]]:
    """``playtest_scenario`` and one ``playtest_case_N`` per case: ``pass``, or ``fail: <reason>``…"""
    return [(FILE_PROPERTY, file), *((f"{CASE_PROPERTY}{o.case.number}",
                                      o.status + (f": {o.reason}" if o.reason else "")) for o in outcomes)]


class ScenarioPlugin:
    """Counts the case outcomes from the reports (controller side) and reports functional completeness."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.statuses: dict[str, list[str]] = {}
        self.malformed: dict[str, int] = {}
        #: each Functionality's node id and its cases' outcomes, in the order they finished
        self.items: list[tuple[str, list[str]]] = []

    def pytest_playtest_make_policy(self, name: str, context: PolicyContext, config: pytest.Config
                                    ) -> Policy | None:
        """The ``scenario`` policy, which the runner names for a Functionality's cases (with a CasePlan)."""
        if name != "scenario":
            return None
        from .policy import ScenarioPolicy

        return ScenarioPolicy(context)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call":
            return
        properties = dict(report.user_properties)
        file = properties.get(FILE_PROPERTY)
        if not isinstance(file, str):
            return
        if MALFORMED_PROPERTY in properties:
            self.malformed[file] = self.malformed.get(file, 0) + 1
            return
        cases = [(name.removeprefix(CASE_PROPERTY), str(value)) for name, value in report.user_properties
                 if name.startswith(CASE_PROPERTY)]
        self.statuses.setdefault(file, []).extend(value.split(":", 1)[0] for _, value in cases)
        self.items.append((report.nodeid, [f"case {number} {value.split(':', 1)[0]}" for number, value in cases]))

    def tallies(self) -> dict[str, Tally]:
        return tally(self.statuses, self.malformed)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        target = setting(self.config, "playtest_results")
        if hasattr(self.config, "workerinput") or not target or not (self.statuses or self.malformed):
            return
        from ..benchmark.metrics import write_results

        path = Path(target)
        if not path.is_absolute():
            path = self.config.invocation_params.dir / path
        # a benchmark suite in the same session wrote its metrics there first: the FC joins them
        benchmark: dict[str, Any] = self.config.stash.get(METRICS_KEY, {})
        data = {**benchmark, RESULTS_KEY: results(self.tallies())}
        write_results(path, data)

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not (self.statuses or self.malformed):
            return
        tallies = self.tallies()
        terminalreporter.write_sep("-", "functional completeness (passed cases / all cases)")
        for nodeid, cases in self.items:
            terminalreporter.write_line(f"{nodeid}: {', '.join(cases)}")
        for path, counted in tallies.items():
            terminalreporter.write_line(f"{path}: {counted.describe()}")
        terminalreporter.write_line(f"overall: {overall(tallies).describe()}")
