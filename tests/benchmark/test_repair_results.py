"""Round metrics: the code in hand after each round, the tokens up to it, merges of repaired runs."""

import pytest

from pytest_playtest.benchmark.merge import merge_results
from pytest_playtest.benchmark.metrics import TaskOutcome, compute_metrics
from pytest_playtest.benchmark.rounds import add_repair_results, stages_after, task_rounds
from pytest_playtest.benchmark.summary import format_table
from pytest_playtest.errors import MergeError

FAILED_EXEC = {"exec": False, "pass": False, "play": False}
FAILED_PLAY = {"exec": True, "pass": True, "play": False}
ALL = {"exec": True, "pass": True, "play": True}


def record(number, stages=None, tokens=100, tester_tokens=0, error=None):
    return {"round": number, "diagnosis": "play", "tokens": tokens, "tester_tokens": tester_tokens,
            "stages": stages or {}, "error": error, "completion": None, "verdict": None, "artifacts": None}


def test_a_round_with_nothing_to_try_keeps_the_code_in_hand():
    rounds = [record(1, error="no usable code: the reply holds no code"), record(2, ALL)]
    assert stages_after(FAILED_PLAY, rounds, 3) == [FAILED_PLAY, ALL, ALL]


def test_a_worse_candidate_counts_as_it_is_and_stages_nest():
    rounds = [record(1, {"exec": False}), record(2, {"exec": True, "pass": False, "play": True})]
    assert stages_after(FAILED_PLAY, rounds, 2) == [FAILED_EXEC, {"exec": True, "pass": False, "play": False}]


def test_task_rounds_count_samples_and_every_token_up_to_each_round():
    samples = [(0, FAILED_PLAY, [record(1, FAILED_PLAY, tokens=1000, tester_tokens=50), record(2, ALL, tokens=2000)]),
               (1, FAILED_EXEC, [record(1, ALL, tokens=500)]),
               (2, ALL, [])]
    assert task_rounds(samples, 2) == [{"exec": 3, "pass": 3, "play": 2, "tokens": 1550},
                                       {"exec": 3, "pass": 3, "play": 3, "tokens": 3550}]


def repaired_run(task_ids=("a", "b")):
    outcomes = [TaskOutcome(task_id, "python", "classic-games", 2, 1, 1, 0, sample_tokens=200) for task_id in task_ids]
    results = compute_metrics("mini", outcomes, [1])
    samples = {task_id: [(0, FAILED_PLAY, [record(1, FAILED_PLAY, tokens=300), record(2, ALL, tokens=500)]),
                         (1, FAILED_EXEC, [record(1, tokens=0, error="endpoint: down")])] for task_id in task_ids}
    add_repair_results(results, 2, samples)
    return results


def test_round_metrics_efficiency_and_summary():
    results = repaired_run()
    metrics = results["metrics"]
    assert (metrics["play@1"], metrics["play@1_r1"], metrics["play@1_r2"]) == (0.0, 0.0, 0.5)
    assert metrics["exec@1_r2"] == metrics["exec@1"] == 0.5
    # 200 sample tokens + 800 repair tokens per task
    assert metrics["efficiency@1_r2"] == pytest.approx(0.5 / (1000 / 1000))
    assert results["efficiency"]["efficiency@1_r2"] == metrics["efficiency@1_r2"]
    assert results["by_language"]["python"]["play@1_r2"] == 0.5
    samples = results["repair"].pop("samples")
    assert results["repair"] == {"rounds": 2, "repaired_samples": 4, "rounds_run": 6, "failed_rounds": 2,
                                 "errors": ["endpoint: down"], "tokens": 1600}
    assert [r["tokens"] for r in samples["a"]["0"]] == [300, 500] and samples["b"]["1"][0]["error"] == "endpoint: down"
    table = format_table(results)
    assert "after round 2" in table and "2 round(s) had nothing to try: endpoint: down" in table


def test_shards_of_a_repaired_run_merge_to_the_whole_run():
    whole = repaired_run(("a", "b"))
    merged = merge_results([repaired_run(("a",)), repaired_run(("b",))], "shards")
    for key, value in whole["metrics"].items():
        assert merged["metrics"][key] == pytest.approx(value) if value is not None else merged["metrics"][key] is None
    assert merged["tasks"]["a"]["rounds"] == whole["tasks"]["a"]["rounds"]
    assert merged["repair"]["tokens"] == whole["repair"]["tokens"]
    assert merged["repair"]["samples"] == whole["repair"]["samples"]


def test_repeated_repaired_runs_average_the_round_metrics_and_pool_the_rounds():
    merged = merge_results([repaired_run(), repaired_run()], "runs")
    assert merged["metrics"]["play@1_r2"] == 0.5 and merged["interval"]["play@1_r2"] == [0.5, 0.5]
    assert merged["tasks"]["a"]["rounds"][1] == {"exec": 2, "pass": 2, "play": 2, "tokens": 1600}
    assert merged["tasks"]["a"]["n"] == 4


def test_repaired_and_plain_runs_do_not_merge():
    plain = compute_metrics("mini", [TaskOutcome("a", "python", "classic-games", 2, 1, 1, 0)], [1])
    with pytest.raises(MergeError, match=r"r.json has 2 repair round\(s\) but p.json has 0"):
        merge_results([repaired_run(("a",)), plain], "runs", labels=["r.json", "p.json"])


def test_playtest_merge_prints_the_rounds_of_repaired_shards(tmp_path, capsys):
    from pytest_playtest.benchmark.merge import main
    from pytest_playtest.benchmark.metrics import write_results

    write_results(tmp_path / "a.json", repaired_run(("a",)))
    write_results(tmp_path / "b.json", repaired_run(("b",)))
    assert main([str(tmp_path / "out.json"), str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 0
    output = capsys.readouterr().out
    assert "before repair" in output and "after round 2" in output and "2 shard(s)" in output
