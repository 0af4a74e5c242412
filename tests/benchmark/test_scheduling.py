"""How -n N hands out a benchmark's samples: one unit per sample, longest first, promised as late as xdist
allows. The scheduler runs against stand-ins for xdist's worker controllers (they record what they are
sent), then in a real -n 2 session whose earlier store says which samples are long."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_playtest.benchmark.costs import estimates, longest_first, stored_seconds
from pytest_playtest.benchmark.scheduling import SampleScheduling

SUITE = "suite/tasks.jsonl"


def _stages(task: str, index: int) -> list[str]:
    return [f"{SUITE}::{task}[s{index}]::{stage}" for stage in ("exec", "pass", "play")]


class Worker:
    """What the scheduler sees of an xdist worker: it is sent item indices and, at the end, a shutdown."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.sent: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def _scheduler(pytester: pytest.Pytester, collection: list[str], earlier: dict[str, float],
               workers: int = 2) -> tuple[SampleScheduling, list[Worker]]:
    config = pytester.parseconfig("--tx", f"{workers}*popen", "--dist", "load")  # what -n N sets
    scheduler = SampleScheduling(config, earlier=earlier)
    nodes = [Worker(f"gw{index}") for index in range(workers)]
    for node in nodes:
        scheduler.add_node(node)
        scheduler.add_node_collection(node, collection)
    scheduler.schedule()
    return scheduler, nodes


def test_a_samples_stages_are_one_unit_of_work() -> None:
    scheduler = SampleScheduling.__new__(SampleScheduling)  # _split_scope reads nothing of its state
    suite = "benchmarks/my-suite/tasks.jsonl"
    units = {scheduler._split_scope(f"{suite}::{task}[s{index}]::{stage}")
             for task in ("toy/t0", "apps/x@y") for index in (0, 12) for stage in ("exec", "pass", "play")}
    assert units == {f"{suite}::{task}[s{index}]" for task in ("toy/t0", "apps/x@y") for index in (0, 12)}
    # other tests: one unit each, or their xdist_group's where xdist still marks it in the node id
    assert scheduler._split_scope("tests/test_a.py::test_b[s1]") == "tests/test_a.py::test_b[s1]"
    assert scheduler._split_scope("tests/test_a.py::test_c@db") == "db"


def test_costs_come_from_the_earlier_run_then_the_task_then_the_median() -> None:
    a0, a1, a2, b0, c0 = (f"{SUITE}::{task}" for task in ("t/a[s0]", "t/a[s1]", "t/a[s2]", "t/b[s0]", "t/c[s0]"))
    reports = [{"nodeid": f"{a0}::exec", "duration": 1.0}, {"nodeid": f"{a0}::play", "duration": 9.0},
               {"nodeid": f"{a1}::exec", "duration": 2.0}, {"nodeid": f"{b0}::exec", "duration": 0.5},
               {"nodeid": "tests/test_x.py::test_y", "duration": 100.0}]
    earlier = stored_seconds(reports)
    assert earlier == {a0: 10.0, a1: 2.0, b0: 0.5}
    units = [b0, c0, "tests/test_x.py::test_y", a2, a1, a0]
    costs = estimates(units, earlier, budgets={})
    # a2: its task's median; c0 (a task the earlier run lacked) and the plain test: the median of the rest
    assert costs == {a0: 10.0, a1: 2.0, a2: 6.0, b0: 0.5, c0: 4.0, "tests/test_x.py::test_y": 4.0}
    assert longest_first(units, costs) == [a0, a2, c0, "tests/test_x.py::test_y", a1, b0]


def test_without_an_earlier_run_the_task_budgets_order_and_no_costs_keep_the_order() -> None:
    units = [f"{SUITE}::t/short[s0]", f"{SUITE}::t/long[s0]", f"{SUITE}::t/short[s1]", f"{SUITE}::t/long[s1]"]
    costs = estimates(units, {}, budgets={(SUITE, "t/short"): 15.0, (SUITE, "t/long"): 120.0})
    assert longest_first(units, costs) == [units[1], units[3], units[0], units[2]]
    assert longest_first(units, estimates(units, {}, budgets={})) == units


def test_units_go_out_longest_first_and_the_next_one_only_when_the_last_stage_starts(
        pytester: pytest.Pytester) -> None:
    samples = [("t/a", 0), ("t/a", 1), ("t/b", 0), ("t/b", 1)]
    collection = [nodeid for task, index in samples for nodeid in _stages(task, index)]
    earlier = {f"{SUITE}::t/a[s0]": 1.0, f"{SUITE}::t/a[s1]": 30.0, f"{SUITE}::t/b[s0]": 5.0,
               f"{SUITE}::t/b[s1]": 12.0}
    scheduler, (first, second) = _scheduler(pytester, collection, earlier)
    index = collection.index
    # the two longest samples first, one per worker, a whole sample each
    assert first.sent == [index(n) for n in _stages("t/a", 1)]
    assert second.sent == [index(n) for n in _stages("t/b", 1)]

    scheduler.mark_test_complete(second, index(_stages("t/b", 1)[0]))  # exec done: pass and play to go
    assert len(second.sent) == 3  # nothing promised yet: the other worker may be free first
    scheduler.mark_test_complete(second, index(_stages("t/b", 1)[1]))  # pass done: play waits for its next
    assert second.sent[3:] == [index(n) for n in _stages("t/b", 0)]  # the longest one left
    for nodeid in _stages("t/a", 1):
        scheduler.mark_test_complete(first, index(nodeid))
    assert first.sent[3:] == [index(n) for n in _stages("t/a", 0)]
    assert not scheduler.workqueue and first.shutting_down  # nothing left: it stops after what it holds


def test_other_tests_keep_xdists_two_items_ahead(pytester: pytest.Pytester) -> None:
    collection = [f"tests/test_x.py::test_{name}" for name in "abcdef"]
    scheduler, (first, second) = _scheduler(pytester, collection, earlier={})
    assert (first.sent, second.sent) == ([0, 2], [1, 3])  # xdist's own start: two units each
    scheduler.mark_test_complete(first, 0)
    assert first.sent == [0, 2, 4]


def test_a_dead_workers_units_go_back_in_their_place(pytester: pytest.Pytester) -> None:
    samples = [("t/a", 0), ("t/a", 1), ("t/a", 2)]
    collection = [nodeid for task, index in samples for nodeid in _stages(task, index)]
    earlier = {f"{SUITE}::t/a[s0]": 1.0, f"{SUITE}::t/a[s1]": 30.0, f"{SUITE}::t/a[s2]": 5.0}
    scheduler, (first, second) = _scheduler(pytester, collection, earlier)
    assert scheduler.remove_node(first) == _stages("t/a", 1)[0]  # crashed in its first item
    for nodeid in _stages("t/a", 2)[:2]:
        scheduler.mark_test_complete(second, collection.index(nodeid))
    assert second.sent[3:] == [collection.index(n) for n in _stages("t/a", 1)]  # the longest again first


def test_a_real_n2_run_starts_the_samples_its_earlier_store_found_longest(pytester: pytest.Pytester) -> None:
    """Samples that fail to compile need no display; the earlier store holds what the costs are read from."""
    suite = pytester.path / "suite"
    (suite / "toy").mkdir(parents=True)
    (suite / "toy" / "logic.py").write_text("def add(a, b):\n    return a + b\n")
    task = {"task_id": "toy/add", "language": "python", "category": "standalone-apps", "repo": "toy",
            "file": "logic.py", "symbol": "add", "signature": "def add(a, b)", "requirement": "Add.",
            "run": ["python", "-c", "pass"], "unit_tests": ["python", "-c", "pass"],
            "playtest": {"strategy": "coverage", "goal": "add", "expect": [], "max_steps": 2, "timeout": 5}}
    (suite / "tasks.jsonl").write_text(json.dumps(task) + "\n")
    samples = [{"task_id": "toy/add", "completion": f"return a +  # {index}\n"} for index in range(4)]
    (pytester.path / "samples.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))
    sample = "suite/tasks.jsonl::toy/add[s{}]"
    earlier = {0: 0.1, 1: 0.2, 2: 40.0, 3: 30.0}  # seconds of each sample in the "earlier run"
    (pytester.path / "run.store.jsonl").write_text("".join(
        json.dumps({"nodeid": f"{sample.format(index)}::exec", "when": "call", "duration": seconds}) + "\n"
        for index, seconds in earlier.items()))
    result = pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "suite/tasks.jsonl",
                                           "--playtest-benchmark-samples", "samples.jsonl",
                                           "--playtest-results", "run.json", "-n", "2", timeout=120)
    result.assert_outcomes(failed=4, skipped=8)
    firsts: dict[str, tuple[float, str]] = {}  # each worker's first sample: (start, sample)
    samples_seen = set()
    for line in (pytester.path / "run.store.jsonl").read_text().splitlines():
        report = json.loads(line)
        if report["when"] == "setup" and report["nodeid"].endswith("::exec"):
            samples_seen.add(report["nodeid"])
            start = (report["start"], report["nodeid"].removesuffix("::exec"))
            firsts[report["worker_id"]] = min(firsts.get(report["worker_id"], start), start)
    assert len(samples_seen) == 4  # the new store replaced the earlier one
    # the two long samples went out first, one to each worker (in collection order: s0 and s1)
    assert sorted(sample for _, sample in firsts.values()) == [sample.format(2), sample.format(3)]
    assert json.loads((pytester.path / "run.json").read_text())["tasks"]["toy/add"]["exec"] == 0


def test_the_earlier_store_is_read_only_by_an_xdist_controller(pytester: pytest.Pytester, tmp_path: Path) -> None:
    from pytest_playtest.benchmark.store import StorePlugin

    store = tmp_path / "run.store.jsonl"
    store.write_text(json.dumps({"nodeid": f"{SUITE}::t/a[s0]::exec", "duration": 2.5}) + "\n")
    results = f"--playtest-results={tmp_path / 'run.json'}"
    parallel = pytester.parseconfig("--playtest", results, "-n", "2", "--dist", "load")  # as xdist sets -n 2
    assert StorePlugin(parallel).earlier == {f"{SUITE}::t/a[s0]": 2.5}
    assert StorePlugin(pytester.parseconfig("--playtest", results)).earlier == {}
