"""A toy benchmark suite: one Tk app whose logic.py adds, its tasks and samples, and the pytest run over it."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

LOGIC = '''
def add(total: int, amount: int) -> int:
    """The new total after adding ``amount``."""
    return total + amount
'''

MAIN = '''
import signal
import sys
import tkinter as tk

from logic import add


class Toy:
    def __init__(self, root: tk.Tk) -> None:
        self.total = 0
        self.label = tk.Label(root, text="Total: 0", font=("Helvetica", 28))
        self.label.pack(padx=20, pady=20)
        tk.Button(root, text="Add", font=("Helvetica", 20), command=self.on_add).pack(pady=10)

    def on_add(self) -> None:
        self.total = add(self.total, 1)
        self.label.configure(text=f"Total: {self.total}")


root = tk.Tk()
root.title("Toy")
Toy(root)
signal.signal(signal.SIGTERM, lambda *_: root.quit())
root.after(200, lambda: None)
root.mainloop()
sys.exit(0)
'''

UNIT_TESTS = '''
import sys
from logic import add
sys.exit(0 if add(2, 3) == 5 and add(0, 1) == 1 else 1)
'''


def task_line(task_id: str, **overrides: Any) -> str:
    """A tasks.jsonl line of the toy app's ``add`` (a two-step coverage playtest), ``overrides`` applied."""
    task = {
        "task_id": task_id, "language": "python", "category": "standalone-apps", "repo": "toy",
        "file": "logic.py", "symbol": "add", "signature": "def add(total: int, amount: int) -> int",
        "requirement": "Return the total plus the amount.", "run": ["python", "main.py"],
        "unit_tests": ["python", "unit_tests.py"],
        "playtest": {"strategy": "coverage", "goal": "click Add", "expect": [{"alive": True}],
                     "max_steps": 2, "timeout": 10},
    }
    task.update(overrides)
    return json.dumps(task)


def write_toy_suite(root: Path) -> Path:
    """The suite ``root/suite``: the toy Tk app, one good task and one bad line; ``root/samples.jsonl``
    with three samples of the good task (exec fails, pass fails, all pass)."""
    suite = root / "suite"
    repo = suite / "toy"
    repo.mkdir(parents=True)
    (repo / "logic.py").write_text(textwrap.dedent(LOGIC))
    (repo / "main.py").write_text(textwrap.dedent(MAIN))
    (repo / "unit_tests.py").write_text(textwrap.dedent(UNIT_TESTS))
    lines = [task_line("toy/add"), task_line("toy/bad", category="arcade")]
    (suite / "tasks.jsonl").write_text("\n".join(lines) + "\n")
    samples = [
        {"task_id": "toy/add", "completion": "return total +\n", "tokens": 10},
        {"task_id": "toy/add", "completion": "return total - amount\n", "tokens": 20},
        {"task_id": "toy/add", "completion": "return total + amount\n", "tokens": 30},
    ]
    (root / "samples.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))
    return suite


def run_benchmark(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest --playtest in a subprocess in the pytester folder (artifacts in ``out``), ``args`` added."""
    return pytester.runpytest_subprocess("--playtest", "-p", "no:cacheprovider", "-rs",
                                         "--playtest-output", str(pytester.path / "out"), *args, timeout=240)
