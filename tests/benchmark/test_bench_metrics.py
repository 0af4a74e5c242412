import json
from math import comb

import pytest

from pytest_playtest.benchmark.metrics import (
    TaskOutcome,
    compute_metrics,
    estimate_at_k,
    outcomes_from_results,
    write_results,
)
from pytest_playtest.benchmark.summary import format_table
from pytest_playtest.usage import TokenPrice


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (5, 2, 1, 0.4),  # 1 - C(3,1)/C(5,1) = 1 - 3/5
        (5, 2, 3, 0.9),  # 1 - C(3,3)/C(5,3) = 1 - 1/10
        (5, 3, 3, 1.0),  # n - c = 2 < k: every draw of 3 holds a good sample
        (4, 1, 4, 1.0),  # n = k with one good sample
        (4, 0, 4, 0.0),  # n = k with none
        (10, 0, 1, 0.0),
        (10, 0, 5, 0.0),
        (6, 6, 2, 1.0),
        (10, 1, 2, 0.2),  # 1 - C(9,2)/C(10,2) = 1 - 36/45
    ],
)
def test_estimator_matches_hand_computed_values(n, c, k, expected):
    assert estimate_at_k(n, c, k) == pytest.approx(expected)


def test_estimator_matches_the_binomial_definition_exhaustively():
    for n in range(1, 13):
        for c in range(n + 1):
            for k in range(1, n + 1):
                assert estimate_at_k(n, c, k) == pytest.approx(1 - comb(n - c, k) / comb(n, k))


def test_estimator_is_stable_for_large_n():
    # C(2000, 1000) overflows a float; the product form must not.
    assert estimate_at_k(2000, 1, 1000) == pytest.approx(0.5)
    assert estimate_at_k(2000, 3, 1000) == pytest.approx(1 - comb(1997, 1000) / comb(2000, 1000))


@pytest.mark.parametrize(("n", "c", "k"), [(3, 4, 1), (3, -1, 1), (3, 1, 0), (3, 1, 4)])
def test_estimator_rejects_impossible_arguments(n, c, k):
    with pytest.raises(ValueError):
        estimate_at_k(n, c, k)


def hand_made_outcomes():
    return [
        TaskOutcome(
            "a", "python", "classic-games", n=3, exec=3, pass_=2, play=1, sample_tokens=300, tester_tokens=300
        ),
        TaskOutcome("b", "javascript", "standalone-apps", n=3, exec=1, pass_=0, play=0, sample_tokens=600),
        TaskOutcome("c", "python", "standalone-apps", n=1, exec=1, pass_=1, play=1),
    ]


def test_compute_metrics_on_a_hand_made_example():
    results = compute_metrics("mini", hand_made_outcomes(), [3, 1])

    design_keys = [
        "suite",
        "n",
        "k",
        "metrics",
        "by_language",
        "by_category",
        "tasks",
        "tokens",
        "efficiency",
    ]
    assert list(results) == [*design_keys, "task_info", "tester"]
    assert results["suite"] == "mini"
    assert results["n"] == 3
    assert results["k"] == [1, 3]
    assert results["tokens"] == 1200

    metrics = results["metrics"]
    # @1 is the mean success rate over the three tasks: a 3/3 2/3 1/3, b 1/3 0 0, c 1 1 1.
    assert metrics["exec@1"] == pytest.approx(7 / 9)
    assert metrics["pass@1"] == pytest.approx(5 / 9)
    assert metrics["play@1"] == pytest.approx(4 / 9)
    # Task c has a single sample, so it sits out k=3: only a and b count.
    assert metrics["exec@3"] == pytest.approx(1.0)
    assert metrics["pass@3"] == pytest.approx(0.5)
    assert metrics["play@3"] == pytest.approx(0.5)
    # AT = 1200 tokens / (3 tasks * 1000) = 0.4
    assert metrics["efficiency@1"] == pytest.approx((4 / 9) / 0.4)
    assert metrics["efficiency@3"] == pytest.approx(0.5 / 0.4)
    assert results["efficiency"] == {
        "efficiency@1": metrics["efficiency@1"],
        "efficiency@3": metrics["efficiency@3"],
    }

    python = results["by_language"]["python"]
    assert python["exec@1"] == pytest.approx(1.0)
    assert python["pass@1"] == pytest.approx(5 / 6)
    assert python["play@1"] == pytest.approx(2 / 3)
    assert python["play@3"] == pytest.approx(1.0)
    assert python["efficiency@1"] == pytest.approx((2 / 3) / (600 / 2000))
    assert results["by_language"]["javascript"]["exec@1"] == pytest.approx(1 / 3)
    assert sorted(results["by_category"]) == ["classic-games", "standalone-apps"]
    assert results["by_category"]["standalone-apps"]["play@1"] == pytest.approx(0.5)

    assert results["tasks"]["a"] == {"n": 3, "exec": 3, "pass": 2, "play": 1}
    assert results["task_info"]["a"] == {
        "language": "python",
        "category": "classic-games",
        "tokens": 600,
        "sample_tokens": 300,
        "tester_tokens": 300,
        "tester_prompt_tokens": 0,
        "tester_cached_tokens": 0,
    }
    assert results["tester"] == {"tokens": 300, "prompt_tokens": 0, "cached_tokens": 0}
    json.dumps(results)  # must be writable as is


def test_the_testers_cached_tokens_and_cost_at_the_users_price():
    outcomes = [TaskOutcome("a", "python", "classic-games", n=1, exec=1, pass_=1, play=1, sample_tokens=500,
                            tester_tokens=3_000_000, tester_prompt_tokens=2_000_000, tester_cached_tokens=1_500_000),
                TaskOutcome("b", "python", "classic-games", n=1, exec=1, pass_=1, play=1)]
    price = TokenPrice.parse("input=2.5,cached=1.25,output=10")

    results = compute_metrics("mini", outcomes, [1], price)

    assert results["tester"] == {
        "tokens": 3_000_000, "prompt_tokens": 2_000_000, "cached_tokens": 1_500_000,
        "price": {"input": 2.5, "cached": 1.25, "output": 10.0},
        # 0.5M fresh prompt tokens at 2.5, 1.5M cached at 1.25, 1M completion tokens at 10
        "cost_usd": pytest.approx(1.25 + 1.875 + 10.0)}
    assert outcomes_from_results(results) == outcomes
    assert ("tester tokens: 3,000,000 (2,000,000 prompt, 1,500,000 of it cached), estimated cost $13.1250 at "
            "input $2.5, cached $1.25, output $10 per million tokens") in format_table(results)


@pytest.mark.parametrize(("text", "expected"), [
    ("3", TokenPrice(3, 3, 3)),
    ("input=2.5", TokenPrice(2.5, 2.5, 2.5)),
    ("input=2.5, output=10", TokenPrice(2.5, 2.5, 10)),
    ("cached=0.5,input=1", TokenPrice(1, 0.5, 1)),
])
def test_a_price_is_read_from_its_option(text, expected):
    assert TokenPrice.parse(text) == expected


@pytest.mark.parametrize(("text", "message"), [
    ("cheap", "price must be a number"),
    ("input=-1", "input must be at least 0"),
    ("output=10", "no input price"),
    ("input=1,prompt=2", "unknown price 'prompt'"),
])
def test_a_bad_price_is_named(text, message):
    with pytest.raises(ValueError, match=message):
        TokenPrice.parse(text)


def test_metrics_are_none_when_no_task_has_k_samples():
    results = compute_metrics("mini", hand_made_outcomes(), [1, 5])
    assert results["metrics"]["exec@5"] is None
    assert results["metrics"]["efficiency@5"] is None
    assert results["metrics"]["exec@1"] == pytest.approx(7 / 9)


def test_efficiency_is_none_without_tokens():
    outcomes = [TaskOutcome("a", "python", "classic-games", n=2, exec=2, pass_=2, play=2)]
    results = compute_metrics("mini", outcomes, [1])
    assert results["tokens"] == 0
    assert results["efficiency"] == {"efficiency@1": None}
    assert results["metrics"]["play@1"] == 1.0


def test_outcomes_round_trip_through_results():
    outcomes = hand_made_outcomes()
    assert outcomes_from_results(compute_metrics("mini", outcomes, [1])) == outcomes


def test_counts_must_be_nested():
    with pytest.raises(ValueError, match="play <= pass"):
        TaskOutcome("a", "python", "classic-games", n=3, exec=1, pass_=2, play=0)


def test_a_task_cannot_be_counted_twice():
    outcome = hand_made_outcomes()[0]
    with pytest.raises(ValueError, match="twice"):
        compute_metrics("mini", [outcome, outcome], [1])


@pytest.mark.parametrize("ks", [[], [0], [1, -2]])
def test_k_values_must_be_positive(ks):
    with pytest.raises(ValueError, match="positive"):
        compute_metrics("mini", hand_made_outcomes(), ks)


def test_table_shows_percentages_per_group():
    table = format_table(compute_metrics("mini", hand_made_outcomes(), [1, 3]))
    lines = table.splitlines()
    assert "Exec@1" in lines[1] and "Play@3" in lines[1]
    overall = next(line for line in lines if line.startswith("overall"))
    assert overall.split() == ["overall", "3", "77.8", "55.6", "44.4", "100.0", "50.0", "50.0"]
    python = next(line for line in lines if line.startswith("language: python"))
    assert python.split()[2:] == ["2", "100.0", "83.3", "66.7", "100.0", "100.0", "100.0"]
    assert any(line.startswith("category: standalone-apps") for line in lines)
    # Efficiency on the paper's scale: Play@1 in percent per thousand tokens per task.
    assert "tokens: 1,200 (400 per task)" in table
    assert "Efficiency@1 111.11" in table


def test_table_marks_missing_values():
    outcomes = [TaskOutcome("a", "python", "classic-games", n=1, exec=0, pass_=0, play=0)]
    table = format_table(compute_metrics("mini", outcomes, [1, 3]))
    overall = next(line for line in table.splitlines() if line.startswith("overall"))
    assert overall.split() == ["overall", "1", "0.0", "0.0", "0.0", "-", "-", "-"]
    assert "no Efficiency@k" in table


def test_write_results_round_trips(tmp_path):
    results = compute_metrics("mini", hand_made_outcomes(), [1, 3])
    path = tmp_path / "out" / "results.json"
    write_results(path, results)
    assert json.loads(path.read_text()) == results
    assert [item.name for item in path.parent.iterdir()] == ["results.json"]


def test_samples_that_diverged_from_the_reference_count_as_failing_play_and_are_reported_apart():
    outcomes = [TaskOutcome("a", "python", "classic-games", n=4, exec=4, pass_=3, play=1, diverged=2),
                TaskOutcome("b", "python", "classic-games", n=4, exec=4, pass_=4, play=4, diverged=0)]
    results = compute_metrics("mini", outcomes, [1])
    assert results["metrics"]["play@1"] == pytest.approx((1 / 4 + 1) / 2)
    assert results["metrics"]["play_without_divergence@1"] == pytest.approx((3 / 4 + 1) / 2)
    assert results["tasks"]["a"]["diverged"] == 2
    assert outcomes_from_results(results) == outcomes
    assert ("compared with each task's reference: 2 sample(s) passed their playtest and diverged; by the "
            "playtests alone Play@1 87.5 %") in format_table(results)
    alone = compute_metrics("mini", [TaskOutcome("a", "python", "classic-games", n=4, exec=4, pass_=3, play=1)], [1])
    assert "play_without_divergence@1" not in alone["metrics"] and "diverged" not in alone["tasks"]["a"]
    assert "compared with each task's reference" not in format_table(alone)
    with pytest.raises(ValueError, match="play \\+ diverged <= pass"):
        TaskOutcome("a", "python", "classic-games", n=4, exec=4, pass_=3, play=2, diverged=2)
