"""Unit tests for the counter logic (no GUI). Run: python unit_tests.py  (exit 0 = all passed)."""

from __future__ import annotations

import sys
import traceback

from logic import Counter


def test_starts_at_zero():
    counter = Counter()
    assert counter.value == 0
    assert counter.label() == "Count: 0"


def test_increment_returns_and_stores_new_value():
    counter = Counter()
    assert counter.increment() == 1
    assert counter.increment() == 2
    assert counter.value == 2
    assert counter.label() == "Count: 2"


def test_decrement():
    counter = Counter(start=5)
    assert counter.decrement() == 4
    assert counter.decrement() == 3
    assert counter.value == 3


def test_decrement_never_goes_below_minimum():
    counter = Counter()
    assert counter.decrement() == 0
    assert counter.value == 0
    counter = Counter(start=2, minimum=1)
    assert counter.decrement() == 1
    assert counter.decrement() == 1
    assert counter.label() == "Count: 1"


def test_increment_then_decrement_round_trip():
    counter = Counter()
    for _ in range(7):
        counter.increment()
    for _ in range(3):
        counter.decrement()
    assert counter.value == 4


def test_reset_goes_back_to_start():
    counter = Counter(start=3)
    counter.increment()
    counter.increment()
    assert counter.reset() == 3
    assert counter.value == 3
    counter = Counter()
    for _ in range(10):
        counter.increment()
    assert counter.reset() == 0
    assert counter.label() == "Count: 0"


def test_label_format():
    counter = Counter()
    for _ in range(21):
        counter.increment()
    assert counter.label() == "Count: 21"


def test_start_below_minimum_is_rejected():
    try:
        Counter(start=-1)
    except ValueError:
        return
    raise AssertionError("Counter(start=-1) should raise ValueError")


def run_all() -> int:
    tests = [(name, obj) for name, obj in globals().items() if name.startswith("test_") and callable(obj)]
    failures = 0
    for name, test in tests:
        try:
            test()
        except Exception:
            failures += 1
            print(f"FAIL {name}")
            traceback.print_exc()
        else:
            print(f"ok   {name}")
    print(f"{len(tests) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(run_all())
