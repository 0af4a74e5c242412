"""The benchmark collector end to end: real inner pytest sessions on Xvfb over tiny suites and playeval-mini."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support import REPO
from tests.support.benchmark import run_benchmark, task_line, write_toy_suite

pytestmark = [pytest.mark.gui, pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")]

MINI = REPO / "benchmarks" / "playeval-mini"


@pytest.fixture
def toy_suite(pytester: pytest.Pytester) -> Path:
    """One toy Tk app, a suite with one good task, one bad line, and three samples of each kind."""
    return write_toy_suite(pytester.path)


def _workers_per_sample(store: Path) -> set[int]:
    """How many xdist workers ran each sample's stages, from the run store (one: no stage ran twice)."""
    workers: dict[str, set[str]] = {}
    for line in store.read_text().splitlines():
        report = json.loads(line)
        workers.setdefault(report["nodeid"].rsplit("::", 1)[0], set()).add(report["worker_id"])
    return {len(names) for names in workers.values()}


def test_stages_nest_skip_with_reasons_and_bad_line_is_an_error(pytester: pytest.Pytester, toy_suite: Path) -> None:
    result = run_benchmark(pytester, "suite/tasks.jsonl", "--playtest-benchmark-samples", "samples.jsonl",
                           "--playtest-benchmark-k", "1,3", "--playtest-results", "results.json", "-v")
    output = result.stdout.str()
    # s0 fails exec (syntax), s1 fails pass (unit tests), s2 gets through every stage.
    assert "toy/add[s0]::exec FAILED" in output
    assert "toy/add[s1]::exec PASSED" in output
    assert "toy/add[s1]::pass FAILED" in output
    assert "toy/add[s2]::play PASSED" in output
    assert "exec stage failed" in output and "pass stage failed" in output
    assert "does not compile" in output
    # The bad line is reported as file:line:field while the good task still runs.
    assert "tasks.jsonl:2: field 'category'" in output
    result.assert_outcomes(passed=4, failed=3, skipped=3)

    results = json.loads((pytester.path / "results.json").read_text())
    assert results["suite"] == "suite"
    assert results["n"] == 3 and results["k"] == [1, 3]
    assert results["tasks"] == {"toy/add": {"n": 3, "exec": 2, "pass": 1, "play": 1, "diverged": 0}}
    assert results["metrics"]["exec@1"] == pytest.approx(2 / 3)
    assert results["metrics"]["pass@1"] == pytest.approx(1 / 3)
    assert results["metrics"]["play@3"] == pytest.approx(1.0)
    assert results["tokens"] == 60
    assert "playtest benchmark" in output and "Exec@1" in output


def test_xdist_gives_the_same_results_as_serial(pytester: pytest.Pytester, toy_suite: Path) -> None:
    common = ("suite/tasks.jsonl", "--playtest-benchmark-samples", "samples.jsonl", "--playtest-benchmark-k", "1,2")
    run_benchmark(pytester, *common, "--playtest-results", "serial.json")
    run_benchmark(pytester, *common, "--playtest-results", "xdist.json", "-n", "2")
    serial = json.loads((pytester.path / "serial.json").read_text())
    parallel = json.loads((pytester.path / "xdist.json").read_text())
    assert _workers_per_sample(pytester.path / "xdist.store.jsonl") == {1}
    for results in (serial, parallel):
        del results["timing"]  # wall times: measured, never equal
    assert parallel == serial


def test_without_samples_each_task_is_its_own_sample(pytester: pytest.Pytester, toy_suite: Path) -> None:
    (toy_suite / "tasks.jsonl").write_text(task_line("toy/add") + "\n")
    result = run_benchmark(pytester, "suite/tasks.jsonl", "--playtest-results", "sanity.json")
    result.assert_outcomes(passed=3)
    results = json.loads((pytester.path / "sanity.json").read_text())
    assert results["metrics"]["play@1"] == 1.0


def test_a_task_without_samples_is_named_in_a_warning(pytester: pytest.Pytester, toy_suite: Path) -> None:
    (toy_suite / "tasks.jsonl").write_text(task_line("toy/add") + "\n" + task_line("toy/other") + "\n")
    result = run_benchmark(pytester, "suite/tasks.jsonl", "--playtest-benchmark-samples", "samples.jsonl",
                           "--playtest-results", "results.json")
    result.stdout.fnmatch_lines(["*PlaytestBenchmarkWarning: tasks.jsonl:2: task 'toy/other' has no samples*"])
    assert list(json.loads((pytester.path / "results.json").read_text())["tasks"]) == ["toy/add"]


def test_no_suite_no_benchmark_summary(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_plain():\n    pass\n")
    result = run_benchmark(pytester, "--playtest-results", "none.json")
    result.assert_outcomes(passed=1)
    assert "playtest benchmark" not in result.stdout.str()
    assert not (pytester.path / "none.json").exists()


def test_playeval_mini_mutants_give_the_documented_numbers(pytester: pytest.Pytester) -> None:
    # judged by the playtests alone, as documented (benchmarks/differential/playeval.py measures the references)
    result = run_benchmark(pytester, str(MINI / "tasks.jsonl"), "--playtest-benchmark-samples",
                           str(MINI / "samples" / "mutants.jsonl"),
                           "--playtest-benchmark-k", "1,3", "--playtest-results", "mini.json", "-n", "2",
                           "--dist", "loadgroup", "--playtest-benchmark-differential", "off")
    results = json.loads((pytester.path / "mini.json").read_text())
    assert _workers_per_sample(pytester.path / "mini.store.jsonl") == {1}
    metrics = results["metrics"]
    # The numbers documented in benchmarks/playeval-mini/README.md.
    assert metrics["exec@1"] == pytest.approx(2 / 3)
    assert metrics["pass@1"] == pytest.approx(17 / 36)
    assert metrics["play@1"] == pytest.approx(1 / 3)
    assert metrics["exec@3"] == metrics["pass@3"] == metrics["play@3"] == pytest.approx(1.0)
    assert len(results["tasks"]) == 12 and results["n"] == 3
    by_language = results["by_language"]
    assert list(by_language) == ["javascript", "python", "typescript"]
    assert by_language["python"]["pass@1"] == pytest.approx(11 / 24)
    for language in ("javascript", "typescript"):
        assert (by_language[language]["exec@1"], by_language[language]["pass@1"], by_language[language]["play@1"]) \
            == pytest.approx((2 / 3, 1 / 2, 1 / 3))
    output = result.stdout.str()
    assert "overall                       12    66.7    47.2    33.3   100.0   100.0   100.0" in output
    assert "language: javascript           2    66.7    50.0    33.3   100.0   100.0   100.0" in output
    assert "language: typescript           2    66.7    50.0    33.3   100.0   100.0   100.0" in output


def test_web_tasks_fail_each_stage_with_the_tools_own_words(pytester: pytest.Pytester) -> None:
    """playeval-mini's JavaScript and TypeScript mutants: the browser's error, esbuild's output and node's test
    runner are quoted in the failures; the play-only slips fail the playtest's rule."""
    result = run_benchmark(pytester, str(MINI / "tasks.jsonl"), "--playtest-benchmark-samples",
                           str(MINI / "samples" / "mutants.jsonl"), "-k", "dodge or tally", "-n", "2",
                           "--playtest-benchmark-differential", "off")
    output = result.stdout.str()
    # a syntax error in plain JavaScript: the page's uncaught SyntaxError, with where
    assert "exception: SyntaxError: missing ) after argument list at /logic.js:11:" in output
    # a syntax error in TypeScript: the build fails, quoted
    assert "exec stage failed: build exited with code 1:" in output
    assert 'Expected ")" but found "{"' in output and "logic.ts:" in output
    assert 'Expected ")" but found ";"' in output and "app.ts:15:41" in output
    # a one-line slip in the rules: node's test runner
    assert "unit tests exited with code 1:" in output and "not ok 2 - the player stays inside the field" in output
    # a one-line slip only the playtest catches: -= for +=, and a misspelt property
    assert "expected rule '#score > 0' holds at some point during the run; it never held" in output
    assert "never held; at the end #total is 'undefined'" in output
    result.assert_outcomes(passed=18, failed=8, skipped=10)


def _on_add_suite(toy_suite: Path, pytester: pytest.Pytester) -> None:
    """The toy's click handler as the task (the unit tests cover logic.py only): a correct sample written
    otherwise, and one that forgets to refresh the label, which only the reference's inputs show."""
    (toy_suite / "tasks.jsonl").write_text(task_line(
        "toy/on-add", file="main.py", symbol="Toy.on_add", signature="def on_add(self) -> None",
        playtest={"strategy": "coverage", "goal": "click Add", "expect": [{"alive": True}], "max_steps": 4,
                  "timeout": 20}) + "\n")
    samples = [
        {"task_id": "toy/on-add",
         "completion": "self.total += 1\nself.label.configure(text='Total: ' + str(self.total))\n"},
        {"task_id": "toy/on-add", "completion": "self.total = add(self.total, 1)\n"},
    ]
    (pytester.path / "samples.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))


def test_a_sample_that_passes_its_playtest_is_judged_against_the_tasks_reference(
        pytester: pytest.Pytester, toy_suite: Path) -> None:
    _on_add_suite(toy_suite, pytester)
    common = ("suite/tasks.jsonl", "--playtest-benchmark-samples", "samples.jsonl", "-v")
    result = run_benchmark(pytester, *common, "--playtest-results", "results.json")
    output = result.stdout.str()
    assert "toy/on-add[s0]::play PASSED" in output and "toy/on-add[s1]::play FAILED" in output
    assert "the sample passed its playtest, but on the inputs of the task's reference" in output
    assert "the reference showed «Total: 1», this run «Total: 0»" in output
    results = json.loads((pytester.path / "results.json").read_text())
    assert results["tasks"]["toy/on-add"] == {"n": 2, "exec": 2, "pass": 2, "play": 1, "diverged": 1}
    assert results["metrics"]["play@1"] == 0.5 and results["metrics"]["play_without_divergence@1"] == 1.0
    assert "1 sample(s) passed their playtest and diverged; by the playtests alone Play@1 100.0 %" in output
    reference = pytester.path / "results.references" / "suite" / "toy_on-add"
    recorded = (reference / "sights.jsonl").stat().st_mtime_ns

    # a resumed run reuses the reference; off judges by the playtest alone
    (pytester.path / "results.store.jsonl").write_text("")
    run_benchmark(pytester, *common, "--playtest-results", "results.json", "--playtest-benchmark-resume")
    assert (reference / "sights.jsonl").stat().st_mtime_ns == recorded
    off = run_benchmark(pytester, *common, "--playtest-benchmark-differential", "off", "--playtest-results", "off.json")
    off.assert_outcomes(passed=6)
    assert "diverged" not in json.loads((pytester.path / "off.json").read_text())["tasks"]["toy/on-add"]


def test_a_task_whose_reference_does_not_pass_its_playtest_judges_by_the_playtest_alone(
        pytester: pytest.Pytester, toy_suite: Path) -> None:
    _on_add_suite(toy_suite, pytester)
    main = toy_suite / "toy" / "main.py"  # the task's own handler raises on every click
    main.write_text(main.read_text().replace("add(self.total, 1)", "add(self.total, '1')"))
    result = run_benchmark(pytester, "suite/tasks.jsonl", "--playtest-benchmark-samples", "samples.jsonl",
                           "--playtest-results", "results.json", "--playtest-benchmark-differential", "on", "-rA")
    result.assert_outcomes(passed=6)
    why = pytester.path / "results.references" / "suite" / "toy_on-add" / "unavailable.txt"
    assert "exception" in why.read_text() and "no golden run recorded: the playtest did not pass" in why.read_text()
    assert "diverged" in json.loads((pytester.path / "results.json").read_text())["tasks"]["toy/on-add"]


def test_a_bad_differential_mode_is_a_usage_error(pytester: pytest.Pytester, toy_suite: Path) -> None:
    result = run_benchmark(pytester, "suite/tasks.jsonl", "-o", "playtest_benchmark_differential=maybe")
    result.stderr.fnmatch_lines(["*--playtest-benchmark-differential / ini playtest_benchmark_differential: "
                                 "expected one of on, off, got 'maybe'*"])
    # argparse's choices
    result = run_benchmark(pytester, "suite/tasks.jsonl", "--playtest-benchmark-differential", "maybe")
    result.stderr.fnmatch_lines(["*--playtest-benchmark-differential: invalid choice: 'maybe'*"])
