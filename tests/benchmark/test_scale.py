"""Benchmark runs at scale: the suite folder as the argument and shards (collection only, no display), then
real runs on Xvfb killed and resumed, and sharded and merged."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_playtest.benchmark.shard import Shard, dealing_order
from pytest_playtest.errors import ShardError
from tests.support.benchmark import run_benchmark, task_line, write_toy_suite

MERGE = Path(sys.executable).parent / "playtest-merge"
needs_xvfb = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")


def _suite(root: Path, tasks: int) -> Path:
    """A suite folder whose task repository has test files of its own that cannot even be imported."""
    suite = root / "my-suite"
    repo = suite / "apps" / "toy"
    repo.mkdir(parents=True)
    (repo / "logic.py").write_text("def add(a, b):\n    return a + b\n")
    (repo / "main.py").write_text("print('app')\n")
    (repo / "test_logic.py").write_text("import module_that_does_not_exist\n")
    (repo / "tests").mkdir()
    (repo / "tests" / "test_more.py").write_text("raise SystemExit('collected a task repository')\n")
    lines = [json.dumps({
        "task_id": f"toy/t{i}", "language": "python", "category": "standalone-apps", "repo": "apps/toy",
        "file": "logic.py", "symbol": "add", "signature": "def add(a, b)", "requirement": "Add.", "context": [],
        "run": ["python", "main.py"], "unit_tests": ["python", "-c", "pass"],
        "playtest": {"strategy": "coverage", "goal": "add", "expect": [], "max_steps": 2, "timeout": 5},
    }) for i in range(tasks)]
    (suite / "tasks.jsonl").write_text("\n".join(lines) + "\n")
    return suite


def _collected(pytester: pytest.Pytester, *args: str) -> list[str]:
    result = pytester.runpytest("--playtest", "-p", "no:cacheprovider", "--collect-only", "-q", *args)
    assert result.ret == 0, result.stdout.str()
    return [line for line in result.stdout.lines if "::" in line]


def test_the_suite_folder_collects_tasks_not_the_task_repositories_tests(pytester: pytest.Pytester) -> None:
    suite = _suite(pytester.path, tasks=2)
    ids = _collected(pytester, str(suite))
    assert len(ids) == 2 * 3 and all("tasks.jsonl::toy/t" in node for node in ids), ids
    assert not any("test_logic" in node or "test_more" in node for node in ids)


def test_shards_split_by_task_disjoint_and_complete(pytester: pytest.Pytester,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    suite = _suite(pytester.path, tasks=12)
    whole = _collected(pytester, str(suite))
    shards = [_collected(pytester, str(suite), "--playtest-benchmark-shard", f"{i}/3") for i in (1, 2, 3)]
    assert sorted(sum(shards, [])) == sorted(whole)
    tasks_of = [{node.split("::")[1].split("[")[0] for node in shard} for shard in shards]
    assert [len(tasks) for tasks in tasks_of] == [4, 4, 4]  # 12 tasks dealt to 3 shards
    assert not (tasks_of[0] & tasks_of[1]) and not (tasks_of[1] & tasks_of[2]) and not (tasks_of[0] & tasks_of[2])
    # all samples of a task (its three stages) stay in one shard, and the split is the same every time
    assert shards[1] == _collected(pytester, str(suite), "--playtest-benchmark-shard", "2/3")
    monkeypatch.setenv("JOB_COMPLETION_INDEX", "1")
    assert _collected(pytester, str(suite), "--playtest-benchmark-shard", "auto/3") == shards[1]


def test_tasks_are_dealt_evenly_the_costliest_first() -> None:
    for count in range(1, 7):
        for size in range(12):
            order = dealing_order({("s/tasks.jsonl", f"t{i:02}") for i in range(size)}, {})
            dealt = [Shard(index, count).holds(order) for index in range(1, count + 1)]
            assert sorted(sum(dealt, [])) == order  # every task in one shard
            assert max(map(len, dealt)) - min(map(len, dealt)) <= 1, (count, size)
    tasks = [("s/tasks.jsonl", name) for name in ("a", "b", "c", "d", "e")]
    # by id without costs; with costs the costliest first, a task without one at the median
    assert dealing_order(tasks, {}) == tasks
    costs = dict(zip(tasks, (1.0, 50.0, 40.0, 2.0), strict=False))
    assert [task for _, task in dealing_order(tasks, costs)] == ["b", "c", "e", "d", "a"]
    # there and back (shards 1, 2, 2, 1, 1): the two costliest in different shards, the third beside the second
    assert [[task for _, task in Shard(index, 2).holds(dealing_order(tasks, costs))] for index in (1, 2)] == [
        ["b", "d", "a"], ["c", "e"]]


def test_shards_are_dealt_by_the_costs_an_earlier_store_recorded(pytester: pytest.Pytester) -> None:
    suite = _suite(pytester.path, tasks=4)

    def tasks_of(*args: str) -> list[str]:
        nodes = _collected(pytester, str(suite), *args)
        return sorted({node.split("::")[1].split("[")[0] for node in nodes})

    assert [tasks_of("--playtest-benchmark-shard", f"{i}/2") for i in (1, 2)] == [["toy/t0", "toy/t3"],
                                                                                 ["toy/t1", "toy/t2"]]
    store = pytester.path / "earlier.store.jsonl"
    reports = [{"nodeid": f"my-suite/tasks.jsonl::toy/t{task}[s0]::{stage}", "when": "call", "duration": seconds}
               for task, seconds in enumerate((1.0, 50.0, 40.0, 2.0)) for stage in ("exec", "pass", "play")]
    store.write_text("".join(json.dumps(report) + "\n" for report in reports))
    costs = ("--playtest-benchmark-shard-costs", str(store))
    assert [tasks_of("--playtest-benchmark-shard", f"{i}/2", *costs) for i in (1, 2)] == [["toy/t0", "toy/t1"],
                                                                                          ["toy/t2", "toy/t3"]]
    missing = pytester.runpytest("--playtest", "-p", "no:cacheprovider", "--collect-only", str(suite),
                                 "--playtest-benchmark-shard", "1/2", "--playtest-benchmark-shard-costs",
                                 "nowhere.store.jsonl")
    assert (f"--playtest-benchmark-shard-costs: cannot read {pytester.path / 'nowhere.store.jsonl'}"
            in missing.stderr.str())
    own = pytester.runpytest("--playtest", "-p", "no:cacheprovider", "--collect-only", str(suite),
                             "--playtest-benchmark-shard", "1/2", "--playtest-results", "earlier.json", *costs)
    assert "is the store this run writes" in own.stderr.str()


def test_shard_values_are_checked() -> None:
    assert Shard.parse("2/4") == Shard(2, 4)
    assert Shard.parse("auto/4", {"JOB_COMPLETION_INDEX": "0"}) == Shard(1, 4)
    for bad in ("0/4", "5/4", "2", "a/b"):
        with pytest.raises(ShardError, match="--playtest-benchmark-shard"):
            Shard.parse(bad, {})
    with pytest.raises(ShardError, match="JOB_COMPLETION_INDEX is not set"):
        Shard.parse("auto/2", {})


def test_a_bad_shard_is_a_usage_error(pytester: pytest.Pytester) -> None:
    suite = _suite(pytester.path, tasks=1)
    result = pytester.runpytest("--playtest", "-p", "no:cacheprovider", "--collect-only", str(suite),
                                "--playtest-benchmark-shard", "3/2")
    assert "shard 3 of 2 does not exist" in result.stderr.str() + result.stdout.str()


def _store_lines(store: Path) -> list[dict[str, object]]:
    lines = []
    for line in store.read_text().splitlines() if store.is_file() else []:
        try:
            lines.append(json.loads(line))
        except ValueError:
            continue  # the line being written
    return lines


def _kill_midway(pytester: pytest.Pytester, store: Path, *args: str) -> None:
    """Start the run and SIGKILL it once its store holds a finished stage and the next stage is running."""
    with open(pytester.path / "killed.log", "wb") as log:
        run = subprocess.Popen([sys.executable, "-m", "pytest", "--playtest", "-p", "no:cacheprovider", "-rs",
                                "--playtest-output", str(pytester.path / "out-killed"), *args],
                               cwd=pytester.path, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 240  # a guard against a hung run, not a measured time
        while time.monotonic() < deadline:
            log = pytester.path / "killed.log"
            assert run.poll() is None, f"the run ended before it was killed:\n{log.read_text()}"
            lines = _store_lines(store)
            if any(line["when"] == "teardown" for line in lines) and lines[-1]["when"] == "setup":
                break
            time.sleep(0.02)
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait()


@pytest.mark.gui
@needs_xvfb
def test_a_run_killed_midway_and_resumed_gives_the_uninterrupted_results(pytester: pytest.Pytester) -> None:
    """A live run SIGKILLed while a stage runs (its store then half written too), resumed, against a whole run."""
    suite = write_toy_suite(pytester.path)
    args = [str(suite / "tasks.jsonl"), "--playtest-benchmark-samples", str(pytester.path / "samples.jsonl")]
    run_benchmark(pytester, *args, "--playtest-results", "whole.json")
    whole = json.loads((pytester.path / "whole.json").read_text())
    assert len(_store_lines(pytester.path / "whole.store.jsonl")) == 3 * 3 * 3  # samples x stages x phases

    store = pytester.path / "part.store.jsonl"
    _kill_midway(pytester, store, *args, "--playtest-results", "part.json")
    assert not (pytester.path / "part.json").exists()  # killed: no results written
    finished = [line for line in _store_lines(store) if line["when"] == "teardown"]
    assert 1 <= len(finished) < 3 * 3
    with open(store, "a") as out:  # as a kill in the middle of a write leaves the store
        out.write(store.read_text().splitlines()[-1][:40])

    resumed = run_benchmark(pytester, *args, "--playtest-results", "part.json", "--playtest-benchmark-resume")
    assert f"{len(finished)} deselected" in resumed.stdout.str()  # the stored stages did not run again
    part = json.loads((pytester.path / "part.json").read_text())
    assert part["metrics"] == whole["metrics"] and part["tasks"] == whole["tasks"]
    # the store now holds every stage once, finished, and every line but the cut one reads
    lines = _store_lines(store)
    assert len(store.read_text().splitlines()) == len(lines) + 1
    stages = [(line["nodeid"], line["when"]) for line in lines if line["when"] == "teardown"]
    assert len(stages) == len(set(stages)) == 3 * 3
    # the cost comes from the store too: the resumed run counts the stages it did not run again
    assert part["timing"]["samples"] == whole["timing"]["samples"] == 3
    assert set(part["timing"]["per_sample"]) == set(whole["timing"]["per_sample"])
    assert whole["timing"]["sample_seconds"] > 0 and whole["timing"]["samples_per_hour"] > 0
    assert "samples/hour; tester tokens 0" in resumed.stdout.str()
    print(*[line for line in resumed.stdout.lines if "samples/hour" in line])  # shown with -s


def _two_task_suite(pytester: pytest.Pytester, completions: tuple[str, ...]) -> list[str]:
    """The toy suite (folder ``suite``) with the tasks clicker/on_click and clicker/reset, each with a sample
    of each completion; the arguments that run it."""
    suite = write_toy_suite(pytester.path)
    tasks = ("clicker/on_click", "clicker/reset")
    (suite / "tasks.jsonl").write_text("".join(task_line(task) + "\n" for task in tasks))
    samples = [{"task_id": task, "completion": completion, "tokens": 5 + 4 * number}
               for task in tasks for number, completion in enumerate(completions)]
    (pytester.path / "samples.jsonl").write_text("".join(json.dumps(sample) + "\n" for sample in samples))
    return ["suite/", "--playtest-benchmark-samples", "samples.jsonl", "--playtest-benchmark-k", "1,2"]


@pytest.mark.gui
@needs_xvfb
def test_shards_run_and_merged_equal_the_whole_run(pytester: pytest.Pytester) -> None:
    """A two-task suite run whole and as 1/2 and 2/2 (one task each), then ``playtest-merge``."""
    args = _two_task_suite(pytester, ("return total +\n", "return total + amount\n"))
    run_benchmark(pytester, *args, "--playtest-results", "whole.json")
    for index in (1, 2):
        shard = run_benchmark(pytester, *args, "--playtest-benchmark-shard", f"{index}/2",
                              "--playtest-results", f"shard-{index}.json")
        shard.assert_outcomes(passed=3, failed=1, skipped=2)  # its task's two samples
    merged = subprocess.run([str(MERGE), "merged.json", "shard-1.json", "shard-2.json"], cwd=pytester.path,
                            capture_output=True, text=True, check=True)
    assert "2 shard(s)" in merged.stdout and "4 samples in" in merged.stdout

    whole = json.loads((pytester.path / "whole.json").read_text())
    result = json.loads((pytester.path / "merged.json").read_text())
    assert result.pop("shards") == 2
    timing, whole_timing = result.pop("timing"), whole.pop("timing")
    assert result == whole and set(whole["tasks"]) == {"clicker/on_click", "clicker/reset"}
    assert timing["samples"] == whole_timing["samples"] == 4
    assert set(timing["per_sample"]) == set(whole_timing["per_sample"])
    assert set(timing["stage_seconds"]) == {"exec", "pass", "play"} and timing["samples_per_hour"] > 0


def test_a_shard_dealt_no_task_writes_results_that_merge(pytester: pytest.Pytester) -> None:
    """3/3 of a two-task suite runs nothing, exits 0 and writes results holding no task; the three shards
    merge into the whole run's numbers. (Samples that do not compile: no app starts.)"""
    args = _two_task_suite(pytester, ("return total +\n", "return (total\n"))
    run_benchmark(pytester, *args, "--playtest-results", "whole.json").assert_outcomes(failed=4, skipped=8)
    for index in (1, 2):
        shard = run_benchmark(pytester, *args, "--playtest-benchmark-shard", f"{index}/3",
                              "--playtest-results", f"shard-{index}.json")
        shard.assert_outcomes(failed=2, skipped=4)
    empty = run_benchmark(pytester, *args, "--playtest-benchmark-shard", "3/3", "--playtest-results", "shard-3.json")
    assert empty.ret == 0 and "12 deselected" in empty.stdout.str()  # the other shards' 4 samples x 3 stages
    empty.stdout.fnmatch_lines(["shard 3/3 of split * holds no task*"])
    results = json.loads((pytester.path / "shard-3.json").read_text())
    assert results["suite"] == "suite" and results["tasks"] == {} and results["n"] == 0
    assert results["shard"]["tasks"] == 0 and (results["shard"]["index"], results["shard"]["count"]) == (3, 3)

    merged = subprocess.run([str(MERGE), "merged.json", "shard-1.json", "shard-2.json", "shard-3.json"],
                            cwd=pytester.path, capture_output=True, text=True)
    assert merged.returncode == 0, merged.stderr
    assert "3 shard(s)" in merged.stdout and "4 samples in" in merged.stdout
    whole = json.loads((pytester.path / "whole.json").read_text())
    result = json.loads((pytester.path / "merged.json").read_text())
    assert result.pop("shards") == 3
    assert result.pop("timing")["samples"] == whole.pop("timing")["samples"] == 4
    assert result == whole
