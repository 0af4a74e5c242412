"""Run a benchmark suite as pytest items: ``tasks.jsonl`` → one exec, pass and play item per sample.

Collection: every ``tasks.jsonl`` becomes a ``SuiteFile``; each (task, sample) a ``SampleNode`` named
``<task_id>[s<i>]`` holding the three stage items ``exec``, ``pass`` and ``play``. The stages are nested,
so a later stage is skipped when an earlier one failed; the three items of a sample share an
``xdist_group`` so that, with ``--dist loadgroup``, they run in order on one worker.

With ``--playtest-benchmark-shard`` every task is collected, and the tasks dealt to other shards are deselected
(``shard.py``): the deal sees every task of the run in every shard.

Scoring happens in the controller only, from the reports (``pytest_runtest_logreport``), which carry the
task, sample and stage in ``user_properties``: this works the same with and without xdist, because
workers send their reports to the controller but not their in-memory state.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import warnings
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ..config import BENCHMARK_PLUGIN, METRICS_KEY, RUNTIME_KEY, VERDICTS_KEY, setting
from ..errors import PlaytestBenchmarkWarning, SandboxError, ShardError, SpliceError
from ..loop.thresholds import STARTUP_TIMEOUT
from ..report.terminal import explain
from ..runtime.scratch import scratch_dir
from ..runtime.tracebacks import has_traceback
from .boxing import boxed, sample_mode, sample_sandbox
from .costs import read_store, sample_of, stored_seconds, task_costs
from .metrics import STAGES, TESTER_TOKENS, TaskOutcome, compute_metrics, write_results
from .paths import references_path, results_path
from .references import DIFFERENTIAL_MODES, DifferentialMode, FailedBy, References
from .rounds import Repairer, StageAttempt, add_repair_results
from .shard import Shard, TaskKey, dealing_order, split_id
from .splice import definition_source, splice_repo
from .summary import describe_rounds, format_table, metrics_html, rounds_html
from .tasks import LineError, Sample, Task, load_samples, load_tasks, resolve_argv

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr

    from ..loop.spec import RunResult, RunSpec
    from ..trajectory import Step
    from ..verdict import Verdict

PROPERTY = "playtest_benchmark"
#: What an xdist worker tells the controller about its collection (in ``workeroutput``): the suites and the deal.
COLLECTED = "playtest_benchmark_collected"
# After the window shows, watch a little longer: many startup crashes happen on the first frame.
EXEC_SETTLE = 1.0
UNIT_TEST_TIMEOUT = 60.0
BUILD_TIMEOUT = 120.0


class StageFailed(Exception):
    """A sample did not get through a stage; the message says why (shown without a Python traceback).

    A failed play stage also carries its verdict and steps: the evidence a repair round shows the model.
    """

    def __init__(self, message: str, verdict: Verdict | None = None, steps: Sequence[Step] = ()) -> None:
        super().__init__(message)
        self.verdict = verdict
        self.steps = steps


class SuiteLineError(Exception):
    """A bad line of a suite file (tasks or samples), reported as a failing item naming file:line:field."""


def reference_completion(task: Task) -> str:
    """The task's own current code for its symbol (decorators or ``export`` included): the sample of a
    sanity run."""
    source = (task.repo / task.file).read_text(encoding="utf-8")
    return definition_source(source, task.symbol, filename=task.file, language=task.language)


def parse_ks(raw: Any) -> list[int]:
    problem = (f"--playtest-benchmark-k / ini playtest_benchmark_k: expected a comma list of positive integers, "
               f"got {raw!r}")
    try:
        ks = [int(part) for part in str(raw).split(",") if part.strip()]
    except ValueError:
        raise pytest.UsageError(problem) from None
    if not ks or any(k < 1 for k in ks):
        raise pytest.UsageError(problem)
    return ks


@dataclass
class _Prepared:
    """A sample's spliced repository copy (or why it could not be made), made once per worker."""

    repo: Path | None
    error: str | None = None


@dataclass
class _Play:
    """A sample's play stage: its playtest, and the reference's inputs replayed on it (None: not compared)."""

    explored: RunResult
    replayed: RunResult | None = None

    @property
    def failed_by(self) -> FailedBy | None:
        if not self.explored.verdict.passed:
            return "playtest"
        if self.replayed is not None and not self.replayed.verdict.passed:
            return "divergence"
        return None

    @property
    def judged(self) -> RunResult:
        """The run the stage's verdict is: the replay that failed, else the playtest."""
        return self.replayed if self.failed_by == "divergence" and self.replayed is not None else self.explored


@dataclass
class _SampleState:
    results: dict[str, bool] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    #: the repair rounds (as dicts), once the sample has failed a stage and --playtest-benchmark-repair asked for them
    repair: list[dict[str, Any]] | None = None


class BenchmarkPlugin:
    """Collects ``tasks.jsonl`` suites, runs their stages, and (in the controller) scores the run."""

    def __init__(self, config: pytest.Config, repairer: Repairer | None = None) -> None:
        self.config = config
        self.repair = repair_rounds(config)
        #: what repairs a failing sample when ``--playtest-benchmark-repair`` asks for rounds (plugin.py hands it over)
        self.repairer = repairer
        self.shard_asked = _shard(config)  # a bad value stops the run before anything is collected
        self.differential = differential_mode(config) == "on"
        self.references = References(references_path(config))
        if self.differential and not hasattr(config, "workerinput") \
                and not setting(config, "playtest_benchmark_resume"):
            self.references.clear()  # before any worker starts: a new run records its references anew
        self._tmp: Path | None = None
        self._prepared: dict[tuple[str, str, int], _Prepared] = {}
        self.states: dict[tuple[str, str, int], _SampleState] = {}
        # Controller side: (suite, task_id, sample) → stage → passed; and what each task is.
        self.outcomes: dict[tuple[str, str, int], dict[str, bool]] = {}
        self.task_info: dict[tuple[str, str], dict[str, Any]] = {}
        #: (suite, task_id, sample) → its repair rounds, from the reports (--playtest-benchmark-repair)
        self.repairs: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
        #: the suites the run collected tasks of, whether this shard holds any of them or not
        self.suites: set[str] = set()
        #: this shard of the run (``--playtest-benchmark-shard``): index, count, split (the deal's id) and the tasks
        #: it holds
        self.shard: dict[str, Any] | None = None
        self.results: dict[str, Any] | None = None

    def workdir(self) -> Path:
        if self._tmp is None:
            self._tmp = scratch_dir("playtest-bench-")
        return self._tmp

    def sample_dir(self, suite: str, task: Task, sample: Sample) -> Path:
        """Where a sample's repository copy goes (its repair rounds' copies go beside it)."""
        return self.workdir() / suite / task.task_id.replace("/", "_") / f"s{sample.index}"

    def prepare(self, suite: str, task: Task, sample: Sample) -> _Prepared:
        key = (suite, task.task_id, sample.index)
        if key not in self._prepared:
            dest = self.sample_dir(suite, task, sample)
            dest.parent.mkdir(parents=True, exist_ok=True)
            try:
                repo = splice_repo(task.repo, dest, task.file, task.symbol, sample.completion, task.signature,
                                   language=task.language)
                self._prepared[key] = _Prepared(repo)
            except (SpliceError, OSError) as exc:
                self._prepared[key] = _Prepared(None, f"cannot splice the completion: {exc}")
        return self._prepared[key]

    def reference_repo(self, suite: str, task: Task) -> Path:
        """A copy of the task's repository with its own code in place (what its reference is recorded on)."""
        dest = self.workdir() / suite / task.task_id.replace("/", "_") / "reference"
        dest.parent.mkdir(parents=True, exist_ok=True)
        return splice_repo(task.repo, dest, task.file, task.symbol, reference_completion(task), task.signature,
                           language=task.language)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)

    # -- the shard (in each process that collects: all of them deal alike) -----------------------------------
    @pytest.hookimpl(tryfirst=True)  # before -k, --deselect and --playtest-benchmark-resume: the deal sees every task
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """Keep the tasks dealt to this shard (``--playtest-benchmark-shard``), and note the suites the run covers."""
        stages = [item for item in items if isinstance(item, StageItem)]
        self.suites.update(item.suite for item in stages)
        if self.shard_asked is not None:
            held = self._deal(self.shard_asked, stages)
            dropped = [item for item in stages if item.task_key not in held]
            if dropped:
                config.hook.pytest_deselected(items=dropped)
                items[:] = [item for item in items if not isinstance(item, StageItem) or item.task_key in held]
        if hasattr(config, "workeroutput"):  # under xdist the controller collects nothing: it learns this here
            config.workeroutput[COLLECTED] = {"suites": sorted(self.suites), "shard": self.shard}

    def _deal(self, shard: Shard, stages: list[StageItem]) -> set[TaskKey]:
        """This shard's tasks, dealt from every task of the run (``shard.py``)."""
        samples = sorted({sample for item in stages if (sample := sample_of(item.nodeid)) is not None})
        order = dealing_order({item.task_key for item in stages}, task_costs(samples, _earlier_costs(self.config)))
        held = shard.holds(order)
        self.shard = {"index": shard.index, "count": shard.count, "split": split_id(order), "tasks": len(held)}
        return set(held)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        """An xdist worker's collection: the suites and the deal (each worker collected the same)."""
        collected = getattr(node, "workeroutput", {}).get(COLLECTED)
        if collected:
            self.suites.update(collected["suites"])
            self.shard = self.shard or collected["shard"]

    # -- scoring (controller) -----------------------------------------------------------------------------
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        props = dict(report.user_properties).get(PROPERTY)
        if not isinstance(props, dict):
            return
        key = (props["suite"], props["task_id"], props["sample"])
        stages = self.outcomes.setdefault(key, {})
        self.task_info.setdefault((props["suite"], props["task_id"]), {
            "language": props["language"], "category": props["category"], "sample_tokens": {},
            **{name: {} for name in TESTER_TOKENS}, "coverage": {}, "diverged": {}, "differential": False,
        })
        info = self.task_info[(props["suite"], props["task_id"])]
        info["sample_tokens"][props["sample"]] = props.get("tokens") or 0
        for name in TESTER_TOKENS:
            if props.get(name):
                info[name][props["sample"]] = props[name]
        if props.get("coverage") is not None:
            info["coverage"][props["sample"]] = props["coverage"]
        if props.get("repair") is not None:
            self.repairs[key] = props["repair"]
        if props.get("differential"):
            info["differential"] = True
            info["diverged"][props["sample"]] = props.get("failed_by") == "divergence"
        stage = props["stage"]
        # A stage passes only if every phase passed and the call ran (a skip or an error is not a pass).
        if report.failed or report.skipped:
            stages[stage] = False
        elif report.when == "call":
            stages.setdefault(stage, True)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Score the run; a run that collected suites but ran none of their samples (a shard dealt no task)
        writes results that hold no task, and a shard that holds no task is no failed run."""
        if hasattr(self.config, "workerinput") or self.config.getoption("collectonly") \
                or not (self.outcomes or self.suites):
            return
        ks = parse_ks(setting(self.config, "playtest_benchmark_k"))
        per_task: dict[tuple[str, str], list[dict[str, bool]]] = {}
        for (suite, task_id, _), stages in sorted(self.outcomes.items()):
            per_task.setdefault((suite, task_id), []).append(stages)
        # every shard of a run names its suites (and their tasks) alike, whichever tasks it was dealt
        suites = sorted(self.suites | {suite for suite, _ in per_task})
        outcomes = []
        for (suite, task_id), samples in per_task.items():
            info = self.task_info[(suite, task_id)]
            counts = {stage: sum(1 for s in samples if s.get(stage, False)) for stage in STAGES}
            # Keep the nesting even if a stage was run alone (e.g. selected with -k).
            counts["pass"] = min(counts["pass"], counts["exec"])
            counts["play"] = min(counts["play"], counts["pass"])
            outcomes.append(TaskOutcome(
                task_id=task_id if len(suites) == 1 else f"{suite}/{task_id}",
                language=info["language"], category=info["category"], n=len(samples),
                exec=counts["exec"], pass_=counts["pass"], play=counts["play"],
                sample_tokens=sum(info["sample_tokens"].values()),
                **{name: sum(info[name].values()) for name in TESTER_TOKENS},
                coverage=_mean(list(info["coverage"].values())),
                diverged=sum(info["diverged"].values()) if info["differential"] else None,
            ))
        runtime = self.config.stash.get(RUNTIME_KEY, None)
        price = runtime.settings.token_price if runtime is not None else None
        results = compute_metrics("+".join(suites), outcomes, ks, price)
        if self.shard is not None:
            results["shard"] = self.shard
            if not self.shard["tasks"] and session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
                session.exitstatus = pytest.ExitCode.OK
        if self.repair:
            add_repair_results(results, self.repair, self._samples_by_task(len(suites) > 1))
        self.results = results
        path = results_path(self.config)
        if path is not None:
            write_results(path, results)
        self.config.hook.pytest_playtest_metrics(metrics=results, config=self.config)
        self.config.stash[METRICS_KEY] = results

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]
                                  ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """A stage that ran repair rounds shows them in the HTML report: one row per round."""
        report = yield
        rounds = getattr(item, "properties", {}).get("repair") if isinstance(item, StageItem) else None
        if rounds and report.when == "call" and self.config.getoption("htmlpath", None):
            from pytest_html import extras

            setattr(report, "extras", [*getattr(report, "extras", []), extras.html(rounds_html(rounds))])  # noqa: B010
        return report

    def _samples_by_task(self, qualified: bool) -> dict[str, list[tuple[int, dict[str, bool], list[dict[str, Any]]]]]:
        """Per task (named as in the results), each sample's index, original stages and repair rounds."""
        samples: dict[str, list[tuple[int, dict[str, bool], list[dict[str, Any]]]]] = {}
        for (suite, task_id, index), stages in sorted(self.outcomes.items()):
            name = f"{suite}/{task_id}" if qualified else task_id
            samples.setdefault(name, []).append((index, stages, self.repairs.get((suite, task_id, index), [])))
        return samples

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_summary(self, prefix: list[str], summary: list[str], postfix: list[str]) -> None:
        """pytest-html: the metrics table under the report's summary."""
        if self.results:
            postfix.append(metrics_html(self.results))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.results is None:
            return
        terminalreporter.write_sep("=", "playtest benchmark")
        terminalreporter.write_line(format_table(self.results))
        shard = self.results.get("shard")
        if shard is not None:
            held = f"{shard['tasks']} task(s)" if shard["tasks"] else "no task (its results merge all the same)"
            terminalreporter.write_line(f"shard {shard['index']}/{shard['count']} of split {shard['split']}: "
                                        f"holds {held}")
        target = setting(self.config, "playtest_results")
        if target:
            terminalreporter.write_line(f"results written to {target}")


def _plugin(config: pytest.Config) -> BenchmarkPlugin:
    plugin = config.pluginmanager.get_plugin(BENCHMARK_PLUGIN)
    if plugin is None:  # collected through another route: still give the items somewhere to keep state
        plugin = BenchmarkPlugin(config)
        config.pluginmanager.register(plugin, BENCHMARK_PLUGIN)
    return plugin


class SuiteFile(pytest.File):
    """A suite's ``tasks.jsonl``: its tasks times the samples to evaluate."""

    def collect(self) -> Iterator[pytest.Item | pytest.Collector]:
        tasks, task_errors = load_tasks(self.path)
        suite = self.path.parent.name
        errors: list[LineError] = list(task_errors)
        samples_option = setting(self.config, "playtest_benchmark_samples")
        samples: dict[str, list[Sample]]
        if samples_option:
            samples_path = Path(samples_option)
            if not samples_path.is_absolute():
                samples_path = self.config.invocation_params.dir / samples_path
            try:
                samples, sample_errors = load_samples(samples_path, [task.task_id for task in tasks])
            except OSError as exc:
                raise self.CollectError(f"--playtest-benchmark-samples: cannot read {samples_path}: {exc}") from None
            errors.extend(sample_errors)
        else:
            samples = {}
            for task in tasks:
                try:
                    completion = reference_completion(task)
                except (SpliceError, SyntaxError, OSError) as exc:
                    completion = f"# the task's own code could not be read: {exc}\n"
                samples[task.task_id] = [Sample(task.task_id, completion, None, 0, task.path, task.line)]

        for task in tasks:
            if not samples.get(task.task_id):
                warnings.warn(PlaytestBenchmarkWarning(
                    f"{self.path.name}:{task.line}: task {task.task_id!r} has no samples in {samples_option}; "
                    "it is left out of the metrics"), stacklevel=1)

        by_line: dict[tuple[Path, int], list[LineError]] = {}
        for error in errors:
            by_line.setdefault((error.path, error.line), []).append(error)
        for (path, line), problems in by_line.items():
            kind = "task" if path == self.path else "sample"
            yield LineErrorItem.from_parent(self, name=f"{kind}-line-{line}", problems=problems,
                                            where=f"{path.name}:{line}")
        for task in tasks:
            for sample in samples.get(task.task_id, []):
                yield SampleNode.from_parent(self, name=f"{task.task_id}[s{sample.index}]", task=task,
                                             sample=sample, suite=suite)


class LineErrorItem(pytest.Item):
    """A bad line of a suite file: fails, naming file:line:field, while the other tasks still run."""

    def __init__(self, *, problems: list[LineError], where: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.problems = problems
        self.location_text = where

    def runtest(self) -> None:
        raise SuiteLineError("\n".join(str(problem) for problem in self.problems))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, SuiteLineError):
            return f"bad suite line:\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.problems[0].line - 1, f"{self.location_text}"


class SampleNode(pytest.Collector):
    """One (task, sample): its exec, pass and play items, run in that order on one worker."""

    def __init__(self, *, task: Task, sample: Sample, suite: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task = task
        self.sample = sample
        self.suite = suite

    def collect(self) -> Iterator[pytest.Item]:
        group = pytest.mark.xdist_group(name=f"{self.suite}:{self.task.task_id}:s{self.sample.index}")
        for stage in STAGES:
            item = StageItem.from_parent(self, name=stage, stage=stage)
            item.add_marker(group)
            yield item


class StageItem(pytest.Item):
    """One stage of one sample; earlier stages of the same sample run first (lazily if deselected)."""

    def __init__(self, *, stage: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.stage = stage
        parent: SampleNode = self.parent  # type: ignore[assignment]
        self.task = parent.task
        self.sample = parent.sample
        self.suite = parent.suite
        self.properties: dict[str, Any] = {
            "suite": self.suite, "task_id": self.task.task_id, "sample": self.sample.index,
            "stage": stage, "language": self.task.language, "category": self.task.category,
            "tokens": self.sample.tokens,
        }
        self.user_properties.append((PROPERTY, self.properties))

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.suite, self.task.task_id, self.sample.index)

    @property
    def task_key(self) -> TaskKey:
        """The task as a shard deals it: its suite file's node id and its id."""
        return (self.nodeid.split("::", 1)[0], self.task.task_id)

    def runtest(self) -> None:
        plugin = _plugin(self.config)
        state = plugin.states.setdefault(self.key, _SampleState())
        index = STAGES.index(self.stage)
        for earlier in STAGES[:index]:
            if earlier not in state.results:
                self._run_stage(plugin, state, earlier)
            if not state.results[earlier]:
                pytest.skip(f"{earlier} stage failed: {state.reasons.get(earlier, '')}".strip())
        self._run_stage(plugin, state, self.stage)
        if not state.results[self.stage]:
            raise StageFailed(state.reasons.get(self.stage, f"{self.stage} failed"))

    def _run_stage(self, plugin: BenchmarkPlugin, state: _SampleState, stage: str) -> None:
        try:
            repo = self._repo(plugin)
            if stage == "play":
                self._play(repo)
            else:
                {"exec": self._exec, "pass": self._pass}[stage](repo)
        except StageFailed as exc:
            state.results[stage] = False
            state.reasons[stage] = str(exc)
            if plugin.repair and plugin.repairer is not None and state.repair is None:
                state.repair = self._repair(plugin, plugin.repairer, stage, exc)
                self.properties["repair"] = state.repair
        else:
            state.results[stage] = True

    def _repair(self, plugin: BenchmarkPlugin, repairer: Repairer, stage: str, failure: StageFailed
                ) -> list[dict[str, Any]]:
        """The repair rounds of this sample (``--playtest-benchmark-repair``), run where its stages run."""
        from ..report.artifacts import artifacts_dir

        runtime = self.config.stash[RUNTIME_KEY]
        sample_dir = plugin.sample_dir(self.suite, self.task, self.sample)
        repair = repairer(self.task, rounds=plugin.repair, options=runtime.settings.options,
                          workdir=sample_dir.with_name(f"{sample_dir.name}-repair"),
                          artifacts=artifacts_dir(runtime.settings.output, self.nodeid), run_stage=self._attempt)
        attempt = StageAttempt(False, str(failure), failure.verdict, failure.steps)
        return [record.to_dict() for record in repair.run(self.sample.completion, stage, attempt)]

    def _attempt(self, stage: str, repo: Path, artifacts: Path) -> StageAttempt:
        """One stage of a repair round: the same checks as the sample's, in the round's repo copy."""
        try:
            if stage == "play":
                result = self._playthrough(repo, artifacts).judged
                verdict = result.verdict
                passed = verdict.passed
                return StageAttempt(passed, "" if passed else explain(verdict), verdict, result.steps)
            {"exec": self._exec, "pass": self._pass}[stage](repo)
        except StageFailed as exc:
            return StageAttempt(False, str(exc))
        return StageAttempt(True)

    def _repo(self, plugin: BenchmarkPlugin) -> Path:
        prepared = plugin.prepare(self.suite, self.task, self.sample)
        if prepared.repo is None:
            raise StageFailed(prepared.error or "no repository copy")
        return prepared.repo

    def _exec(self, repo: Path) -> None:
        from ..errors import AppError
        from ..runtime.app import App
        from .web import page_problems, task_web_target

        if self.task.language == "python":
            compiled = subprocess.run([sys.executable, "-m", "py_compile", self.task.file], cwd=repo,
                                      capture_output=True, text=True, timeout=60)
            if compiled.returncode != 0:
                raise StageFailed(f"{self.task.file} does not compile:\n{_tail(compiled.stderr + compiled.stdout)}")
        if self.task.build is not None:
            self._command("build", self.task.build, repo, BUILD_TIMEOUT)
        runtime = self.config.stash.get(RUNTIME_KEY, None)
        if runtime is None:
            pytest.skip("benchmark stages need --playtest")
        page = task_web_target(self.task.run, repo)
        if page is not None:
            problems = page_problems(page, runtime.display(), window_timeout=STARTUP_TIMEOUT, settle=EXEC_SETTLE)
            if problems:
                raise StageFailed(f"the page does not load and keep running ({EXEC_SETTLE:g}s without input):\n"
                                  + "\n".join(problems))
            return
        try:
            box = sample_sandbox(runtime.settings, repo, runtime.display().env().get("DISPLAY"))
        except (SandboxError, ValueError) as exc:
            raise StageFailed(f"cannot box the app: {exc}") from None
        app = App(resolve_argv(self.task.run, sys.executable), runtime.display(), cwd=repo, sandbox=box)
        try:
            app.start()
            shown = app.wait_for_window(timeout=STARTUP_TIMEOUT)
            if shown:
                runtime.warm_up()  # the play stage's OCR loads while this stage only watches the app
                deadline = time.monotonic() + EXEC_SETTLE
                while time.monotonic() < deadline and app.poll() is None:
                    time.sleep(0.05)
            code = app.poll()
            output = app.text_output()
            if has_traceback(output.splitlines()):
                raise StageFailed(f"the app printed a traceback:\n{_tail(output)}")
            if code is not None and code != 0:
                raise StageFailed(f"the app exited with code {code}:\n{_tail(output)}")
            if not shown and code is None:
                raise StageFailed(f"no window within {STARTUP_TIMEOUT:g}s:\n{_tail(output)}")
        except AppError as exc:
            raise StageFailed(f"cannot launch {self.task.run}: {exc}") from None
        finally:
            app.terminate()

    def _pass(self, repo: Path) -> None:
        self._command("unit tests", self.task.unit_tests, repo, UNIT_TEST_TIMEOUT)

    def _command(self, what: str, argv: list[str], repo: Path, timeout: float) -> None:
        """Run one of the task's commands (``build``, ``unit_tests``) in the repo copy, boxed like the app;
        StageFailed quoting its output unless it exits 0."""
        from ..runtime.app import scrubbed_environment
        from .web import tool_environment

        argv = resolve_argv(argv, sys.executable)
        runtime = self.config.stash.get(RUNTIME_KEY, None)
        box = None
        try:
            if runtime is not None:
                box = sample_sandbox(runtime.settings, repo)
            command, env = boxed(argv, tool_environment(scrubbed_environment({}), repo), box)
            done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True,
                                  timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise StageFailed(f"{what} {argv} did not finish within {timeout:g}s") from None
        except (OSError, SandboxError, ValueError) as exc:
            raise StageFailed(f"cannot run {what} {argv}: {exc}") from None
        finally:
            if box is not None:
                box.close()
        if done.returncode != 0:
            raise StageFailed(f"{what} exited with code {done.returncode}:\n{_tail(done.stdout + done.stderr)}")

    def _play(self, repo: Path) -> None:
        from ..report.artifacts import artifacts_dir

        runtime = self.config.stash.get(RUNTIME_KEY, None)
        if runtime is None:
            pytest.skip("benchmark stages need --playtest")
        play = self._playthrough(repo, artifacts_dir(runtime.settings.output, self.nodeid))
        result = play.judged
        self.stash.setdefault(VERDICTS_KEY, []).append(result.verdict)
        explored = play.explored.verdict
        if explored.tokens:
            self.properties |= {"tester_tokens": explored.tokens, "tester_prompt_tokens": explored.prompt_tokens,
                                "tester_cached_tokens": explored.cached_tokens}
        coverage = explored.coverage
        if coverage is not None and coverage.lines_total:
            self.properties["coverage"] = coverage.lines_hit / coverage.lines_total
        if _plugin(self.config).differential:
            self.properties |= {"differential": True, "failed_by": play.failed_by}
        if play.failed_by == "divergence":
            raise StageFailed(f"the sample passed its playtest, but on the inputs of the task's reference: "
                              f"{explain(result.verdict)}", result.verdict, result.steps)
        if play.failed_by:
            raise StageFailed(explain(result.verdict), result.verdict, result.steps)

    def _playthrough(self, repo: Path, artifacts: Path) -> _Play:
        """The task's playtest of the app in ``repo`` and, if it passes, the reference's inputs replayed on it
        (``--playtest-benchmark-differential``); their artifacts in ``artifacts``."""
        from ..golden import GoldenRun

        runtime = self.config.stash.get(RUNTIME_KEY, None)
        if runtime is None:
            pytest.skip("benchmark stages need --playtest")
        spec = self._spec(repo)
        artifacts.mkdir(parents=True, exist_ok=True)
        play = _Play(runtime.play(spec, artifacts=artifacts, default_cwd=repo))
        plugin = _plugin(self.config)
        if play.failed_by or not plugin.differential:
            return play
        reference = plugin.references.get(self.suite, self.task.task_id, self._record_reference)
        notes = play.explored.verdict.notes
        if not reference.available:
            notes.append(f"not compared with the task's reference: {reference.why_not}")
            return play
        check = GoldenRun(runtime, "check", reference.folder, {}, repo)
        play.replayed, _ = check.play(spec, artifacts=artifacts / "reference-replay", default_cwd=repo)
        if not play.failed_by:
            notes.append("the inputs of the task's reference replayed on the sample: no divergence")
        return play

    def _record_reference(self, folder: Path) -> str:
        """Record the task's reference in ``folder`` (a golden run of its playtest); why not, if it cannot."""
        from ..golden import GoldenRun
        from ..report.artifacts import artifacts_dir

        runtime = self.config.stash[RUNTIME_KEY]
        try:
            repo = _plugin(self.config).reference_repo(self.suite, self.task)
            if self.task.build is not None:
                self._command("build", self.task.build, repo, BUILD_TIMEOUT)
        except (SpliceError, SyntaxError, OSError) as exc:
            return f"the task's own code cannot be put in place: {exc}"
        except StageFailed as exc:
            return f"the task's own code does not build: {exc}"
        recorder = GoldenRun(runtime, "record", folder, {"task": self.task.task_id}, repo)
        nodeid = f"{self.nodeid.split('::', 1)[0]}::{self.task.task_id}[reference]"
        result, outcome = recorder.play(self._spec(repo), artifacts=artifacts_dir(runtime.settings.output, nodeid),
                                        default_cwd=repo)
        if outcome == "recorded":
            return ""
        return f"{result.verdict.summary().splitlines()[0]}; {result.verdict.notes[-1]}"

    def _spec(self, repo: Path) -> RunSpec:
        """The task's playtest of the app in ``repo``."""
        from ..loop.spec import RunSpec
        from .web import task_web_target

        settings = self.config.stash[RUNTIME_KEY].settings
        playtest = self.task.playtest
        # a web task's page is a str, as app= takes it; any other run is an argv
        app = self.task.run[0] if task_web_target(self.task.run, repo) else resolve_argv(self.task.run, sys.executable)
        return RunSpec.from_kwargs(
            {"app": app, "strategy": playtest.strategy,
             "goal": playtest.goal, "expect": playtest.expect, "max_steps": playtest.max_steps,
             "timeout": playtest.timeout, "cwd": str(repo), "sandbox": sample_mode(settings)},
            defaults=settings, where=f"{self.task.path}:{self.task.line}",
        )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, StageFailed):
            text = f"{self.stage} stage failed: {excinfo.value}"
            if self.properties.get("repair") is not None:
                text += "\n" + describe_rounds(self.properties["repair"])
            return text
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.task.line - 1, f"{self.task.task_id}[s{self.sample.index}]::{self.stage}"


def repair_rounds(config: pytest.Config) -> int:
    """``--playtest-benchmark-repair N``: how many repair rounds a failing sample gets (0: no repair)."""
    raw = setting(config, "playtest_benchmark_repair") or 0
    try:
        rounds = int(raw)
    except (TypeError, ValueError):
        rounds = -1
    if rounds < 0:
        raise pytest.UsageError(f"--playtest-benchmark-repair / ini playtest_benchmark_repair: expected a number of "
                                f"rounds >= 0, got {raw!r}")
    if rounds and not setting(config, "playtest_model"):
        raise pytest.UsageError("--playtest-benchmark-repair asks a model for new code: pass --playtest-model NAME "
                                "(ini playtest_model) and, for a local server, --playtest-base-url URL")
    return rounds


def differential_mode(config: pytest.Config) -> DifferentialMode:
    """``--playtest-benchmark-differential``: whether samples are also judged against their task's reference."""
    raw = str(setting(config, "playtest_benchmark_differential") or "on")
    if raw not in DIFFERENTIAL_MODES:
        raise pytest.UsageError(f"--playtest-benchmark-differential / ini playtest_benchmark_differential: expected "
                                f"one of {', '.join(DIFFERENTIAL_MODES)}, got {raw!r}")
    return raw


def _shard(config: pytest.Config) -> Shard | None:
    raw = setting(config, "playtest_benchmark_shard")
    try:
        return Shard.parse(str(raw)) if raw else None
    except ShardError as exc:
        raise pytest.UsageError(str(exc)) from None


def shard_costs_path(config: pytest.Config) -> Path | None:
    """The earlier run's store ``--playtest-benchmark-shard`` deals the tasks by
    (``--playtest-benchmark-shard-costs``)."""
    raw = setting(config, "playtest_benchmark_shard_costs")
    return config.invocation_params.dir / Path(raw) if raw else None


def _earlier_costs(config: pytest.Config) -> dict[str, float]:
    """Each sample's seconds in the store ``--playtest-benchmark-shard-costs`` names (empty without one)."""
    path = shard_costs_path(config)
    if path is None:
        return {}
    try:
        return stored_seconds(read_store(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise pytest.UsageError(f"--playtest-benchmark-shard-costs: cannot read {path}: {exc}") from None
    except (TypeError, ValueError) as exc:  # a JSON line whose duration is no number
        raise pytest.UsageError(f"--playtest-benchmark-shard-costs: {path} is not a run store: {exc}") from None


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _tail(text: str, limit: int = 2000) -> str:
    text = text.strip()
    return text if len(text) <= limit else "…" + text[-limit:]
