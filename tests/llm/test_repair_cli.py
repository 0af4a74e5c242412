"""``playtest-repair`` on a developer's failing playtest: real pytest runs on Xvfb, the real openai client
against the loopback server, the patch tried in a copy of the project."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support import REPO
from tests.support.openai_server import OpenAIServer, Reply

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")

SLUG = "test_toy.py__test_toy_adds"

TOY = '''
import signal
import sys
import tkinter as tk


class Toy:
    def __init__(self, root: tk.Tk) -> None:
        self.total = 0
        self.label = tk.Label(root, text="Total: 0", font=("Helvetica", 28))
        self.label.pack(padx=20, pady=20)
        tk.Button(root, text="Add", font=("Helvetica", 20), command=self.on_add).pack(pady=10)

    def on_add(self) -> None:
        self.total += 1
        self.label.configure({option}=f"Total: {{self.total}}")


root = tk.Tk()
root.title("Toy")
Toy(root)
signal.signal(signal.SIGTERM, lambda *_: root.quit())
root.after(200, lambda: None)
root.mainloop()
sys.exit(0)
'''

TEST = '''
import pytest


@pytest.mark.playtest(app="toy/main.py", strategy="coverage", goal="Click Add", max_steps=6, timeout=15)
def test_toy_adds(playtest):
    verdict = playtest.run()
    assert verdict, verdict.summary()
'''


def tree(folder: Path, skip: str) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and skip not in path.parts and "__pycache__" not in path.parts}


def python(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        env.pop(name, None)
    return subprocess.run([sys.executable, *args], cwd=project, env=env, capture_output=True, text=True,
                          timeout=400)


def repair(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return python(project, "-m", "pytest_playtest.repair.cli", *args)


@pytest.mark.gui
def test_a_failing_playtest_gets_a_patch_and_the_patched_apps_verdict(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "toy").mkdir(parents=True)
    (project / "toy" / "main.py").write_text(textwrap.dedent(TOY.format(option="txt")))
    (project / "test_toy.py").write_text(textwrap.dedent(TEST))
    failing = python(project, "-m", "pytest", "--playtest", "-p", "no:cacheprovider", "--playtest-output", "out")
    assert failing.returncode == 1, failing.stdout
    artifacts = project / "out" / SLUG
    assert json.loads((artifacts / "verdict.json").read_text())["status"] == "fail"
    before = tree(project, "out")

    fixed = textwrap.dedent(TOY.format(option="text"))
    with OpenAIServer(default=Reply(content=f"```python toy/main.py\n{fixed}```\nThe option is text.")) as server:
        done = repair(project, str(artifacts), "toy/main.py", "--model", "fixer", "--base-url", server.url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the patched app's playtest: pass" in done.stdout

    # The prompt: the source, the findings with the traceback, the storyboard image.
    (body,) = server.bodies()
    content = body["messages"][1]["content"]
    text = content[0]["text"]
    assert "`toy/main.py`" in text and "configure(txt=" in text
    assert "[exception]" in text and 'unknown option "-txt"' in text
    assert content[1]["type"] == "image_url" and content[1]["image_url"]["url"].startswith("data:image/png;base64,")

    # The patch, the patched app's verdict and the round's artifacts beside the failing run's.
    patch = (artifacts / "repair" / "patch.diff").read_text()
    assert "--- a/toy/main.py" in patch and "+++ b/toy/main.py" in patch
    assert '-        self.label.configure(txt=f"Total: {self.total}")' in patch
    assert '+        self.label.configure(text=f"Total: {self.total}")' in patch
    assert json.loads((artifacts / "repair" / "verdict.json").read_text())["status"] == "pass"
    (record,) = json.loads((artifacts / "repair" / "rounds.json").read_text())
    assert record["round"] == 1 and record["tokens"] == 120 and record["stages"] == {"play": True}
    assert (artifacts / "repair" / "round-1" / SLUG / "storyboard.png").is_file()

    # The user's files are untouched, and the patch applies to them.
    assert tree(project, "out") == before
    applied = subprocess.run(["patch", "--dry-run", "-p1", "-i", str(artifacts / "repair" / "patch.diff")],
                             cwd=project, capture_output=True, text=True)
    assert applied.returncode == 0, applied.stdout + applied.stderr


def test_bad_input_is_named(tmp_path: Path) -> None:
    done = repair(tmp_path, str(tmp_path / "nowhere"), "main.py", "--model", "m")
    assert done.returncode == 2
    assert "holds no verdict.json" in done.stderr
