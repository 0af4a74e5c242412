"""A task's reference is recorded once, by whichever process needs it first; what cannot be recorded says why."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from pathlib import Path

from pytest_playtest.benchmark.references import UNAVAILABLE_FILE, References
from pytest_playtest.sights import SIGHTS_FILE


def _recorder(calls: list[Path], why_not: str = "") -> Callable[[Path], str]:
    def record(folder: Path) -> str:
        calls.append(folder)
        if not why_not:
            folder.mkdir(parents=True)
            (folder / SIGHTS_FILE).write_text("{}\n")
        return why_not

    return record


def test_a_reference_is_recorded_once_and_kept(tmp_path: Path) -> None:
    references, calls = References(tmp_path / "refs"), list[Path]()
    first = references.get("mini", "counter/increment", _recorder(calls))
    again = references.get("mini", "counter/increment", _recorder(calls))
    assert first == again and first.available and calls == [tmp_path / "refs" / "mini" / "counter_increment"]


def test_a_reference_that_cannot_be_recorded_keeps_why(tmp_path: Path) -> None:
    references, calls = References(tmp_path), list[Path]()
    reference = references.get("mini", "t", _recorder(calls, "its own playtest did not pass"))
    assert not reference.available and reference.why_not == "its own playtest did not pass"
    assert references.get("mini", "t", _recorder(calls)).why_not == "its own playtest did not pass"
    assert len(calls) == 1 and (reference.folder / UNAVAILABLE_FILE).is_file()


def test_what_a_killed_recording_left_is_recorded_anew(tmp_path: Path) -> None:
    references, calls = References(tmp_path), list[Path]()
    (references.folder("mini", "t") / "frames").mkdir(parents=True)  # a recording that never finished
    assert references.get("mini", "t", _recorder(calls)).available and len(calls) == 1


def _slow_record(root: str, done: multiprocessing.Queue[str]) -> None:
    def record(folder: Path) -> str:
        time.sleep(0.5)
        folder.mkdir(parents=True)
        (folder / SIGHTS_FILE).write_text("{}\n")
        done.put("recorded")
        return ""

    References(Path(root)).get("mini", "t", record)
    done.put("got")


def test_processes_take_turns_and_only_the_first_records(tmp_path: Path) -> None:
    done: multiprocessing.Queue[str] = multiprocessing.Queue()
    workers = [multiprocessing.Process(target=_slow_record, args=(str(tmp_path), done)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=10)
    events = [done.get(timeout=1) for _ in range(3)]
    assert sorted(events) == ["got", "got", "recorded"]


def test_a_new_run_forgets_the_references(tmp_path: Path) -> None:
    references = References(tmp_path / "refs")
    references.get("mini", "t", _recorder([]))
    references.clear()
    assert not (tmp_path / "refs").exists()
