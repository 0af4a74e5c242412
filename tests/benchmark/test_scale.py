"""Benchmark runs at scale, without a display: the suite folder as the argument, and shards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_playtest.benchmark.shard import Shard, ShardError


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
    shards = [_collected(pytester, str(suite), "--playtest-shard", f"{i}/3") for i in (1, 2, 3)]
    assert sorted(sum(shards, [])) == sorted(whole)
    assert all(shard for shard in shards)  # 12 tasks: every shard gets some
    tasks_of = [{node.split("::")[1].split("[")[0] for node in shard} for shard in shards]
    assert not (tasks_of[0] & tasks_of[1]) and not (tasks_of[1] & tasks_of[2]) and not (tasks_of[0] & tasks_of[2])
    # all samples of a task (its three stages) stay in one shard, and the split is the same every time
    assert shards[1] == _collected(pytester, str(suite), "--playtest-shard", "2/3")
    monkeypatch.setenv("JOB_COMPLETION_INDEX", "1")
    assert _collected(pytester, str(suite), "--playtest-shard", "auto/3") == shards[1]


def test_shard_values_are_checked() -> None:
    assert Shard.parse("2/4") == Shard(2, 4)
    assert Shard.parse("auto/4", {"JOB_COMPLETION_INDEX": "0"}) == Shard(1, 4)
    for bad in ("0/4", "5/4", "2", "a/b"):
        with pytest.raises(ShardError, match="--playtest-shard"):
            Shard.parse(bad, {})
    with pytest.raises(ShardError, match="JOB_COMPLETION_INDEX is not set"):
        Shard.parse("auto/2", {})


def test_a_bad_shard_is_a_usage_error(pytester: pytest.Pytester) -> None:
    suite = _suite(pytester.path, tasks=1)
    result = pytester.runpytest("--playtest", "-p", "no:cacheprovider", "--collect-only", str(suite),
                                "--playtest-shard", "3/2")
    assert "shard 3 of 2 does not exist" in result.stderr.str() + result.stdout.str()




def test_a_run_cut_short_and_resumed_gives_the_uninterrupted_results(pytester: pytest.Pytester) -> None:
    """The store of a whole run, cut after a few stages (as a kill leaves it, last line half written), resumed."""
    from tests.benchmark.test_collector import _run, toy_suite  # noqa: F401 - the fixture's suite

    suite = toy_suite.__wrapped__(pytester)  # type: ignore[attr-defined]
    args = [str(suite / "tasks.jsonl"), "--playtest-samples", str(pytester.path / "samples.jsonl")]
    _run(pytester, *args, "--playtest-results", "whole.json")
    whole = json.loads((pytester.path / "whole.json").read_text())
    store = pytester.path / "whole.store.jsonl"
    lines = store.read_text().splitlines()
    assert len(lines) == 3 * 3 * 3  # 3 samples x 3 stages x (setup, call, teardown); bad lines are not stages
    (pytester.path / "part.store.jsonl").write_text("\n".join(lines[:10]) + "\n" + lines[10][:40])
    resumed = _run(pytester, *args, "--playtest-results", "part.json", "--playtest-resume")
    assert "deselected" in resumed.stdout.str()  # the stored stages did not run again
    part = json.loads((pytester.path / "part.json").read_text())
    assert part["metrics"] == whole["metrics"] and part["tasks"] == whole["tasks"]
    # the cost comes from the store too: the resumed run counts the stages it did not run again
    assert part["timing"]["samples"] == whole["timing"]["samples"] == 3
    assert whole["timing"]["sample_seconds"] > 0 and whole["timing"]["samples_per_hour"] > 0
    assert "samples/hour; tester tokens 0" in resumed.stdout.str()
    print(*[line for line in resumed.stdout.lines if "samples/hour" in line])  # shown with -s
