"""Pytest hooks that put playtest verdicts into the terminal, JUnit XML and the pytest-html report.

``plugin.py`` registers ``ReportPlugin(config)`` as ``"playtest-report"`` when playtests are enabled; the
plugin then adds its pytest-html hooks (``HtmlReportHooks``) itself when pytest-html is installed.
Everything attached to a report is plain data (strings, numbers, lists, dicts) so it travels from xdist
workers to the controller unchanged.
"""

from __future__ import annotations

import base64
from collections.abc import Generator, Mapping
from html import escape
from pathlib import Path
from typing import Any

import pytest

from . import __version__
from .config import GOLDEN_KEY, HAND_RECORD_KEY, RUNTIME_KEY, VERDICTS_KEY, output_root, setting
from .errors import OutputFolderError
from .files import FRAMES_DIR, STORYBOARD_FILE, frames_in
from .report.artifacts import clean_output
from .report.terminal import explain
from .verdict import FINDING_KINDS, Finding, Verdict

#: Prefix of the entries written to ``user_properties`` (and so to JUnit XML ``<property>`` elements).
PROPERTY_PREFIX = "playtest_"
REPORT_SECTION = "playtest"
#: When a test runs several playtests its status is the worst of theirs: a finding about the app first,
#: then a harness error, then pass.
STATUS_PRECEDENCE = ("fail", "error", "pass")


def verdict_properties(verdicts: list[Verdict]) -> list[tuple[str, str | int]]:
    """The ``user_properties`` entries summarising a test's verdicts (several runs are combined)."""
    statuses = {v.status for v in verdicts}
    kinds = {kind for v in verdicts for kind in v.kinds()}
    artifacts = next((v.artifacts for v in verdicts if v.artifacts), None)
    return [
        (PROPERTY_PREFIX + "status", next(s for s in STATUS_PRECEDENCE if s in statuses)),
        (PROPERTY_PREFIX + "findings", ",".join(k for k in FINDING_KINDS if k in kinds)),
        (PROPERTY_PREFIX + "steps", sum(v.steps for v in verdicts)),
        (PROPERTY_PREFIX + "tokens", sum(v.tokens for v in verdicts)),
        (PROPERTY_PREFIX + "prompt_tokens", sum(v.prompt_tokens for v in verdicts)),
        (PROPERTY_PREFIX + "cached_tokens", sum(v.cached_tokens for v in verdicts)),
        (PROPERTY_PREFIX + "runs", len(verdicts)),
        # later runs of a test live inside its first run's folder (run-2/, ...): that folder holds them all
        (PROPERTY_PREFIX + "artifacts", str(artifacts) if artifacts else ""),
        *_location_properties(verdicts),
        *_coverage_properties(verdicts),
    ]


def _location_properties(verdicts: list[Verdict]) -> list[tuple[str, str | int]]:
    """``locations``: where each finding points in the app's code (``kind file:line``, ``;``-separated), when any
    does."""
    places = [f"{finding.kind} {finding.location.file}:{finding.location.line}"
              for verdict in verdicts for finding in verdict.findings if finding.location is not None]
    return [(PROPERTY_PREFIX + "locations", "; ".join(places))] if places else []


def _coverage_properties(verdicts: list[Verdict]) -> list[tuple[str, str | int]]:
    """``coverage_lines`` / ``coverage_branches`` as ``hit/total`` (the last measured run's), when measured."""
    measured = [v.coverage for v in verdicts if v.coverage is not None]
    if not measured:
        return []
    last = measured[-1]
    return [(PROPERTY_PREFIX + "coverage_lines", f"{last.lines_hit}/{last.lines_total}"),
            (PROPERTY_PREFIX + "coverage_branches", f"{last.branches_hit}/{last.branches_total}")]


def playtest_properties(report: pytest.TestReport) -> dict[str, str]:
    """The verdict entries of a report's ``user_properties``, without the prefix; empty if it has no verdict.

    Other ``playtest_`` properties (the benchmark's stage bookkeeping) carry no status and don't count.
    """
    properties = {
        name.removeprefix(PROPERTY_PREFIX): str(value)
        for name, value in report.user_properties
        if name.startswith(PROPERTY_PREFIX)
    }
    return properties if "status" in properties else {}


def verdict_text(properties: Mapping[str, str]) -> str:
    """``fail: unresponsive, timeout`` — the status and the finding kinds."""
    findings = properties.get("findings", "").replace(",", ", ")
    return properties["status"] + (f": {findings}" if findings else "")


def describe(properties: Mapping[str, str]) -> str:
    """``playtest fail: unresponsive, 12 steps`` — what ``-v`` and the terminal summary show."""
    runs, steps = int(properties.get("runs", 1)), int(properties.get("steps", 0))
    text = f"playtest {verdict_text(properties)}" + (f", {runs} runs" if runs > 1 else "")
    text += f", {steps} step" + ("" if steps == 1 else "s")
    if "coverage_lines" in properties:
        text += f", lines {properties['coverage_lines']}, branches {properties['coverage_branches']}"
    return text


def html_extras(verdicts: list[Verdict]) -> list[dict[str, Any]]:
    """pytest-html extras for a test's runs: the storyboard and the final screenshot (base64 PNG, so they
    embed in a --self-contained-html report), the verdict as JSON and the explanation as text."""
    from pytest_html import extras  # only called when pytest-html is writing a report

    attached = []
    for number, verdict in enumerate(verdicts, start=1):
        suffix = f" (run {number})" if len(verdicts) > 1 else ""
        if verdict.artifacts:
            folder = Path(verdict.artifacts)
            images = (("storyboard", folder / STORYBOARD_FILE), ("final screenshot", _last_frame(folder)))
            attached += [png_extra(image, name + suffix) for name, image in images if image and image.exists()]
        attached += [extras.html(code_excerpt(finding)) for finding in verdict.findings if finding.location]
        attached.append(extras.json(verdict.to_dict(), "verdict" + suffix))
        attached.append(extras.text(explain(verdict), "explanation" + suffix))
    return attached


def code_excerpt(finding: Finding) -> str:
    """A finding's place in the app's code as HTML: where, how it was found, and the lines around it."""
    location = finding.location
    assert location is not None
    head = escape(f"[{finding.kind}] {location.describe()} (found by {location.how})")
    return f"<div class=\"playtest-location\"><p>{head}</p><pre>{escape(location.excerpt)}</pre></div>"


def png_extra(image: Path, name: str) -> dict[str, Any]:
    """A PNG file as a pytest-html extra, embedded (base64) so it survives --self-contained-html."""
    from pytest_html import extras

    return extras.png(base64.b64encode(image.read_bytes()).decode("ascii"), name)


def _add_extras(report: pytest.TestReport, extras: list[dict[str, Any]]) -> None:
    """pytest-html reads a report's ``extras`` attribute, which pytest's TestReport does not declare."""
    setattr(report, "extras", [*getattr(report, "extras", []), *extras])  # noqa: B010


def _last_frame(folder: Path) -> Path | None:
    frames = frames_in(folder / FRAMES_DIR)
    return frames[-1] if frames else None


def _explain_all(verdicts: list[Verdict]) -> str:
    if len(verdicts) == 1:
        return explain(verdicts[0])
    return "\n".join(f"run {number}: {explain(v)}" for number, v in enumerate(verdicts, start=1))


class ReportPlugin:
    """Verdicts in the terminal (``-v`` status, failure section, summary) and in JUnit XML properties."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        # pytest-html is registered whenever it is installed, but writes a report only with --html
        self.html_report = config.pluginmanager.hasplugin("html") and bool(config.getoption("htmlpath", None))
        self.results: list[tuple[str, dict[str, str]]] = []

    def pytest_configure(self, config: pytest.Config) -> None:
        # pytest_html_* hook implementations are refused unless pytest-html (their spec) is installed
        manager = config.pluginmanager
        if manager.hasplugin("html") and not manager.hasplugin("playtest-report-html"):
            manager.register(HtmlReportHooks(), "playtest-report-html")

    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        """The versions in use, under pytest's own: the plugin, Xvfb (or the running display given), Chromium
        and the OCR engine (runtime/versions.py; nothing is started). The controller's terminal only."""
        if hasattr(config, "workerinput"):
            return []
        from .runtime.versions import header

        return [header(__version__, setting(config, "playtest_display") or None)]

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        # This plugin is only registered when playtests are enabled. Only the controller cleans: xdist
        # workers run tests once it has scheduled them, after this hook, and write into the same root.
        if not hasattr(session.config, "workerinput"):
            try:
                clean_output(output_root(session.config))
            except OutputFolderError as exc:
                raise pytest.UsageError(str(exc)) from None

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if report.when != "call":
            return report
        self._attach_hand_record(item, report)
        verdicts = item.stash.get(VERDICTS_KEY, [])
        if not verdicts:
            return report
        properties = verdict_properties(verdicts)
        outcomes = item.stash.get(GOLDEN_KEY, [])
        if outcomes:
            properties.append((PROPERTY_PREFIX + "golden", ",".join(outcomes)))
        # the call report feeds the terminal and pytest-html; JUnit XML reads the teardown report,
        # which is built later from item.user_properties
        report.user_properties.extend(properties)
        item.user_properties.extend(properties)
        report.sections.append((REPORT_SECTION, _explain_all(verdicts)))
        if self.html_report:
            _add_extras(report, html_extras(verdicts))
        return report

    def _attach_hand_record(self, item: pytest.Item, report: pytest.TestReport) -> None:
        """The storyboard of the inputs the test sent itself (launch/click/press…), before its app stops."""
        keep = item.stash.get(HAND_RECORD_KEY, None)
        folder = keep(report.failed) if keep else None
        if folder is None:
            return
        storyboard = folder / STORYBOARD_FILE
        report.sections.append((f"{REPORT_SECTION} (inputs sent by the test)", f"storyboard: {storyboard}"))
        if self.html_report:
            _add_extras(report, [png_extra(storyboard, "storyboard (inputs by hand)")])

    def pytest_report_teststatus(
        self, report: pytest.TestReport, config: pytest.Config
    ) -> tuple[str, str, tuple[str, Mapping[str, bool]]] | None:
        # xfail/xpass and reruns keep the words their plugins give them
        if report.when != "call" or hasattr(report, "wasxfail") or report.outcome not in ("passed", "failed"):
            return None
        properties = playtest_properties(report)
        if not properties:
            return None
        word = f"{report.outcome.upper()} ({describe(properties)})"
        markup = {"green": report.passed, "red": report.failed}
        return report.outcome, "." if report.passed else "F", (word, markup)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        properties = playtest_properties(report) if report.when == "call" else {}
        if properties:
            self.results.append((report.nodeid, properties))

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.results:
            return
        statuses = [properties["status"] for _, properties in self.results]
        totals = ", ".join(f"{statuses.count(s)} {s}" for s in STATUS_PRECEDENCE if s in statuses)
        terminalreporter.write_sep("-", "playtest")
        terminalreporter.write_line(f"{len(self.results)} test(s) with playtests: {totals}")
        tokens, prompt, cached = (sum(int(properties.get(key, 0)) for _, properties in self.results)
                                  for key in ("tokens", "prompt_tokens", "cached_tokens"))
        if tokens:
            terminalreporter.write_line(f"model tokens: {tokens:,} (prompt + completion, as the endpoint reported)"
                                        + (f"; {cached:,} of the prompts' {prompt:,} cached" if cached else ""))
            runtime = self.config.stash.get(RUNTIME_KEY, None)
            price = runtime.settings.token_price if runtime is not None else None
            if price is not None:
                terminalreporter.write_line(f"estimated cost: ${price.cost(prompt, cached, tokens - prompt):,.4f} "
                                            f"at {price.describe()}")
        for nodeid, properties in self.results:
            if properties["status"] != "pass" or terminalreporter.verbosity > 0:
                where = f"  {properties['artifacts']}" if properties.get("artifacts") else ""
                terminalreporter.write_line(f"{nodeid}: {describe(properties)}{where}")
        self._golden_summary(terminalreporter)

    def _golden_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """How many golden runs were checked and recorded, and the golden runs of the test files that ran
        which no test of this session used (their test is gone, renamed, or was not selected)."""
        outcomes = [o for _, properties in self.results for o in properties.get("golden", "").split(",") if o]
        if outcomes:
            counts = {o: outcomes.count(o) for o in dict.fromkeys(outcomes)}
            terminalreporter.write_line("golden runs: " + ", ".join(f"{n} {o}" for o, n in counts.items()))
        unused = self._unused_golden_runs()
        if unused:
            terminalreporter.write_line(f"{len(unused)} golden run(s) unused by this session's tests (delete those "
                                        "whose test is gone):")
            for folder in unused:
                terminalreporter.write_line(f"  {folder}")

    def _unused_golden_runs(self) -> list[Path]:
        from .golden import golden_folders  # the loop's modules, only when a summary is written

        used: dict[str, int] = {}
        for nodeid, properties in self.results:
            used[nodeid] = int(properties.get("runs", 1))
        files = dict.fromkeys(self.config.rootpath / nodeid.partition("::")[0] for nodeid in used)
        return [folder for file in files for folder, test, run in golden_folders(file)
                if run > used.get(test, 0)]


class HtmlReportHooks:
    """The pytest-html side: a Verdict column (the benchmark adds its metrics to the summary itself)."""

    def pytest_html_results_table_header(self, cells: list[str]) -> None:
        cells.insert(2, '<th class="sortable" data-column-type="verdict">Verdict</th>')

    def pytest_html_results_table_row(self, report: pytest.TestReport, cells: list[str]) -> None:
        # every row needs the cell, playtest or not, or the columns shift
        properties = playtest_properties(report)
        text = verdict_text(properties) if properties else ""
        cells.insert(2, f'<td class="col-verdict">{escape(text)}</td>')
