import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_playtest.benchmark.merge import main, mean_interval, merge_results, t_quantile_975
from pytest_playtest.benchmark.metrics import TaskOutcome, compute_metrics, write_results
from pytest_playtest.errors import MergeError
from pytest_playtest.usage import TokenPrice

MERGE_SCRIPT = Path(sys.executable).parent / "playtest-merge"


def outcome(task_id, language="python", category="classic-games", n=3, exec=3, pass_=2, play=1, tokens=300):
    return TaskOutcome(
        task_id, language, category, n, exec, pass_, play, sample_tokens=tokens, tester_tokens=100
    )


SUITE_OUTCOMES = [
    outcome("a"),
    outcome("b", language="javascript", category="standalone-apps", exec=1, pass_=1, play=0),
    outcome("c", category="mmorpg", n=1, exec=1, pass_=1, play=1, tokens=0),
    outcome("d", language="typescript", category="mmorpg", exec=2, pass_=0, play=0, tokens=900),
]


def run_with_play(plays, tokens=300):
    """One run of tasks a and b where task a's samples reached play ``plays`` times out of 5."""
    outcomes = [
        outcome("a", n=5, exec=5, pass_=5, play=plays, tokens=tokens),
        outcome("b", language="javascript", n=5, exec=2, pass_=1, play=0, tokens=tokens),
    ]
    return compute_metrics("mini", outcomes, [1, 3])


def test_merging_shards_equals_computing_the_whole_run_at_once():
    whole = compute_metrics("mini", SUITE_OUTCOMES, [1, 3])
    shards = [
        compute_metrics("mini", SUITE_OUTCOMES[:1], [1, 3]),
        compute_metrics("mini", SUITE_OUTCOMES[1:], [1, 3]),
    ]
    merged = merge_results(shards)
    assert merged.pop("shards") == 2
    assert merged == whole


def test_merged_shards_are_priced_as_the_run_was():
    price = TokenPrice(2.5, 1.25, 10)
    priced = [TaskOutcome("a", "python", "classic-games", 1, 1, 1, 1, tester_tokens=1000, tester_prompt_tokens=900,
                          tester_cached_tokens=600),
              TaskOutcome("b", "python", "classic-games", 1, 1, 1, 0, tester_tokens=500, tester_prompt_tokens=450)]
    whole = compute_metrics("mini", priced, [1], price)

    merged = merge_results([compute_metrics("mini", priced[:1], [1], price),
                            compute_metrics("mini", priced[1:], [1], price)])

    assert merged["tester"] == whole["tester"]
    assert whole["tester"]["cached_tokens"] == 600 and whole["tester"]["cost_usd"] > 0
    runs = merge_results([whole, compute_metrics("mini", priced, [1], price)], mode="runs")
    assert runs["tester"] == whole["tester"]


def test_shards_through_json_files(tmp_path):
    paths = []
    for number, part in enumerate((SUITE_OUTCOMES[:2], SUITE_OUTCOMES[2:])):
        paths.append(tmp_path / f"shard{number}.json")
        write_results(paths[-1], compute_metrics("mini", part, [1, 3]))
    assert main([str(tmp_path / "merged.json"), *map(str, paths)]) == 0
    merged = json.loads((tmp_path / "merged.json").read_text())
    assert merged["metrics"] == compute_metrics("mini", SUITE_OUTCOMES, [1, 3])["metrics"]


def dealt(results, index, count=3, split="0123456789abcdef"):
    """Results as the shard ``index`` of ``count`` of a deal writes them."""
    return {**results, "shard": {"index": index, "count": count, "split": split, "tasks": len(results["tasks"])}}


def test_a_shard_that_holds_no_task_is_pooled_with_the_others():
    shards = [dealt(compute_metrics("mini", SUITE_OUTCOMES[:2], [1, 3]), 1),
              dealt(compute_metrics("mini", SUITE_OUTCOMES[2:], [1, 3]), 2),
              dealt(compute_metrics("mini", [], [1, 3]), 3)]
    assert shards[2]["tasks"] == {} and shards[2]["n"] == 0
    merged = merge_results(shards)
    assert merged.pop("shards") == 3
    assert merged == compute_metrics("mini", SUITE_OUTCOMES, [1, 3])


def test_shards_of_different_deals_or_one_shard_twice_are_refused():
    first, second = compute_metrics("mini", SUITE_OUTCOMES[:2], [1]), compute_metrics("mini", SUITE_OUTCOMES[2:], [1])
    with pytest.raises(MergeError, match="shards of different deals"):
        merge_results([dealt(first, 1), dealt(second, 2, split="fedcba9876543210")], labels=["a.json", "b.json"])
    with pytest.raises(MergeError, match="shards of different deals"):
        merge_results([dealt(first, 1, count=2), dealt(second, 2)])
    empty = dealt(compute_metrics("mini", [], [1]), 3)
    with pytest.raises(MergeError, match="c.json and d.json are both shard 3/3"):
        merge_results([dealt(first, 1), empty, empty], labels=["a.json", "c.json", "d.json"])
    # results without a deal (unsharded, or from before shards named theirs) merge as they did
    assert merge_results([first, dealt(second, 2)])["shards"] == 2


def test_runs_become_means_with_a_student_t_interval():
    runs = [run_with_play(1), run_with_play(2), run_with_play(3)]
    merged = merge_results(runs)

    assert merged["runs"] == 3
    plays = [run["metrics"]["play@1"] for run in runs]
    assert plays == pytest.approx([0.1, 0.2, 0.3])  # a: 1/5, 2/5, 3/5; b: 0
    assert merged["metrics"]["play@1"] == pytest.approx(0.2)
    # s = 0.1, t(0.975, 2) = 4.303 (NIST table), half-width = 4.303 * 0.1 / sqrt(3)
    low, high = merged["interval"]["play@1"]
    half_width = 4.303 * 0.1 / math.sqrt(3)
    assert (low, high) == pytest.approx((0.2 - half_width, 0.2 + half_width))
    # Identical in every run: the mean is that value and the interval has no width.
    assert merged["metrics"]["exec@1"] == pytest.approx(runs[0]["metrics"]["exec@1"])
    assert merged["interval"]["exec@1"] == pytest.approx([merged["metrics"]["exec@1"]] * 2)
    assert set(merged["interval"]) == set(merged["metrics"]) | {"tokens"}

    assert merged["by_language"]["python"]["play@1"] == pytest.approx(0.4)
    assert merged["efficiency"]["efficiency@1"] == merged["metrics"]["efficiency@1"]
    assert merged["tasks"]["a"] == {"n": 15, "exec": 15, "pass": 15, "play": 6}  # pooled over runs
    assert merged["n"] == 5 and merged["k"] == [1, 3]


def test_interval_of_tokens_and_efficiency():
    merged = merge_results([run_with_play(2, tokens=300), run_with_play(2, tokens=500)])
    assert merged["tokens"] == pytest.approx(1000)  # (800 + 1200) / 2
    low, high = merged["interval"]["tokens"]
    assert low < 1000 < high
    efficiencies = [0.2 / (800 / 2000), 0.2 / (1200 / 2000)]
    assert merged["metrics"]["efficiency@1"] == pytest.approx(sum(efficiencies) / 2)


def test_metric_missing_in_a_run_stays_missing():
    runs = [compute_metrics("mini", [outcome("a", n=1, exec=1, pass_=1, play=1)], [1, 3])] * 2
    merged = merge_results(runs)
    assert merged["metrics"]["play@3"] is None and merged["interval"]["play@3"] is None
    assert merged["metrics"]["play@1"] == 1.0


def test_student_t_table():
    assert t_quantile_975(1) == 12.706
    assert t_quantile_975(4) == 2.776
    assert t_quantile_975(30) == 2.042
    assert t_quantile_975(31) == t_quantile_975(1000) == 1.96
    quantiles = [t_quantile_975(df) for df in range(1, 40)]
    assert quantiles == sorted(quantiles, reverse=True)
    with pytest.raises(ValueError):
        t_quantile_975(0)


def test_mean_interval_of_one_value_has_no_interval():
    assert mean_interval([0.5]) == (0.5, None)
    mean, (low, high) = mean_interval([1.0, 3.0])
    assert mean == 2.0
    assert high - mean == pytest.approx(12.706 * math.sqrt(2) / math.sqrt(2))


def test_auto_refuses_inputs_that_are_neither_shards_nor_runs():
    overlapping = compute_metrics("mini", SUITE_OUTCOMES[:2], [1, 3])
    other = compute_metrics("mini", SUITE_OUTCOMES[1:], [1, 3])
    with pytest.raises(MergeError, match=r"neither disjoint shards .* nor repeated runs"):
        merge_results([overlapping, other], labels=["one.json", "two.json"])


def test_explicit_mode_must_fit_the_task_sets():
    run = run_with_play(1)
    with pytest.raises(MergeError, match="not disjoint shards of one run: input 1 and input 2 share 'a'"):
        merge_results([run, run], mode="shards")
    shard = compute_metrics("mini", SUITE_OUTCOMES[:1], [1, 3])
    with pytest.raises(MergeError, match="not repeated runs"):
        merge_results([shard, compute_metrics("mini", SUITE_OUTCOMES[1:], [1, 3])], mode="runs")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"suite": "other"}, "is suite 'mini' but input 2 is 'other'"),
        ({"k": [1]}, r"has k=\[1, 3\] but input 2 has k=\[1\]"),
        ({"runs": 5}, "already a merge of 5 runs"),
    ],
)
def test_inputs_must_be_compatible(change, message):
    first, second = run_with_play(1), run_with_play(2)
    second.update(change)
    with pytest.raises(MergeError, match=message):
        merge_results([first, second])


def test_nothing_to_merge():
    with pytest.raises(MergeError, match="nothing to merge"):
        merge_results([])


def test_cli_merges_runs_and_prints_the_table(tmp_path):
    paths = []
    for plays in (1, 2, 3):
        paths.append(tmp_path / f"run{plays}.json")
        write_results(paths[-1], run_with_play(plays))
    out = tmp_path / "merged.json"
    completed = subprocess.run(
        [str(MERGE_SCRIPT), str(out), *map(str, paths), "--mode", "runs"], capture_output=True, text=True
    )
    assert completed.returncode == 0, completed.stderr
    assert "mean of 3 runs" in completed.stdout
    overall = next(line for line in completed.stdout.splitlines() if line.startswith("overall"))
    assert "20.0±" in overall
    assert f"wrote {out} (mean of 3 runs)" in completed.stdout
    merged = json.loads(out.read_text())
    assert merged["runs"] == 3 and merged["interval"]["play@1"][0] < 0.2 < merged["interval"]["play@1"][1]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("{ not json", "is not valid JSON"),
        ("[]", "is not a results file: expected a JSON object"),
        ('{"suite": "mini"}', "is not a results file: missing n, k, metrics"),
    ],
)
def test_cli_exits_2_on_unusable_input(tmp_path, content, message):
    good = tmp_path / "good.json"
    write_results(good, run_with_play(1))
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content)
    completed = subprocess.run([str(MERGE_SCRIPT), str(tmp_path / "out.json"), str(good), str(bad)],
                               capture_output=True, text=True)  # fmt: skip
    assert completed.returncode == 2
    assert completed.stderr.startswith("playtest-merge: error: ")
    assert str(bad) in completed.stderr and message in completed.stderr
    assert not (tmp_path / "out.json").exists()


def test_cli_exits_2_on_incompatible_inputs(tmp_path, capsys):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    write_results(first, compute_metrics("mini", SUITE_OUTCOMES[:2], [1]))
    write_results(second, compute_metrics("mini", SUITE_OUTCOMES[1:], [1]))
    assert main([str(tmp_path / "out.json"), str(first), str(second)]) == 2
    assert f"{first} and {second} share 'b'" in capsys.readouterr().err


def stage_reports(task_id, sample, start, seconds, tokens=0):
    """The serialized reports of one sample's three stages (one report each), as the run store holds them."""
    from pytest_playtest.benchmark.collector import PROPERTY

    reports = []
    for stage, duration in zip(("exec", "pass", "play"), seconds, strict=True):
        props = {"suite": "mini", "task_id": task_id, "sample": sample, "stage": stage,
                 **({"tester_tokens": tokens} if stage == "play" and tokens else {})}
        reports.append({"user_properties": [[PROPERTY, props]], "when": "call", "duration": duration,
                        "start": start, "stop": start + duration})
        start += duration
    return reports


def test_timing_of_merged_shards_is_the_timing_of_the_whole_run():
    from pytest_playtest.benchmark.collector import PROPERTY
    from pytest_playtest.benchmark.timing import run_timing

    first = stage_reports("a", 0, 100.0, (1.0, 2.0, 3.0), tokens=7) + stage_reports("a", 1, 106.0, (1.0, 0.0, 0.0))
    second = stage_reports("b", 0, 101.0, (2.0, 2.0, 5.0), tokens=5)
    whole = run_timing(first + second, PROPERTY)
    assert whole["samples"] == 3 and whole["sample_seconds"] == 6.0 and whole["span_seconds"] == 10.0
    shards = [compute_metrics("mini", SUITE_OUTCOMES[:1], [1, 3]), compute_metrics("mini", SUITE_OUTCOMES[1:], [1, 3])]
    shards[0]["timing"], shards[1]["timing"] = run_timing(first, PROPERTY), run_timing(second, PROPERTY)
    assert merge_results(shards)["timing"] == whole
    # a file without timing (written by hand, by an older version) leaves the merge without one
    del shards[1]["timing"]
    assert "timing" not in merge_results(shards)


def test_timing_of_merged_runs_pools_samples_and_adds_the_spans(tmp_path, capsys):
    from pytest_playtest.benchmark.collector import PROPERTY
    from pytest_playtest.benchmark.timing import run_timing

    runs = [run_with_play(1), run_with_play(2)]
    runs[0]["timing"] = run_timing(stage_reports("a", 0, 0.0, (1.0, 1.0, 1.0), tokens=3), PROPERTY)
    runs[1]["timing"] = run_timing(stage_reports("a", 0, 50.0, (3.0, 3.0, 3.0), tokens=4), PROPERTY)
    paths = [tmp_path / "run1.json", tmp_path / "run2.json"]
    for path, run in zip(paths, runs, strict=True):
        write_results(path, run)
    assert main([str(tmp_path / "merged.json"), *map(str, paths)]) == 0
    timing = json.loads((tmp_path / "merged.json").read_text())["timing"]
    assert timing["samples"] == 2 and timing["span_seconds"] == 12.0 and timing["tester_tokens"] == 7
    assert timing["sample_seconds"] == 6.0 and timing["samples_per_hour"] == 600.0
    assert "2 samples in 12.0s = 600.0 samples/hour; tester tokens 7" in capsys.readouterr().out


def test_shards_that_compared_with_references_pool_their_divergences():
    shards = [compute_metrics("mini", [TaskOutcome("a", "python", "g", 3, 3, 3, 1, diverged=1)], [1]),
              compute_metrics("mini", [TaskOutcome("b", "python", "g", 3, 3, 2, 2, diverged=0)], [1])]
    merged = merge_results(shards)
    assert merged["tasks"]["a"]["diverged"] == 1 and merged["metrics"]["play_without_divergence@1"] == pytest.approx(
        (2 / 3 + 2 / 3) / 2)
    runs = [compute_metrics("mini", [TaskOutcome("a", "python", "g", 3, 3, 3, 1, diverged=1)], [1]),
            compute_metrics("mini", [TaskOutcome("a", "python", "g", 3, 3, 3, 2)], [1])]
    assert merge_results(runs)["metrics"]["play_without_divergence@1"] is None  # one run did not compare
