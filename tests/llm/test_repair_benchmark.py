"""Repair rounds end to end: a real inner pytest session on Xvfb over a playeval-mini task, the real openai
client against the loopback server (scripted per request by the failing code it is shown)."""

from __future__ import annotations

import base64
import html
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.support import REPO
from tests.support.openai_server import OpenAIServer, Reply

pytestmark = [pytest.mark.gui, pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")]

MINI = REPO / "benchmarks" / "playeval-mini"
TASK_ID = "counter/on-increment"

#: The playeval-mini mutant that fails play: an exception in the Tk callback on every click.
PLAY_MUTANT = "self.counter.increment()\nself.label.configure(txt=self.counter.label())\n"
#: A mutant that fails exec with a traceback: the decorator does not exist, so the class cannot be made.
EXEC_MUTANT = "@refreshes\ndef on_increment(self) -> None:\n    self.counter.increment()\n    self.refresh()\n"
#: What the scripted model proposes: first another faulty version, then the right one.
WRONG = "def on_increment(self) -> None:\n    self.counter.increment()\n    self.refresh(1)\n"
RIGHT = "def on_increment(self) -> None:\n    self.counter.increment()\n    self.refresh()\n"


def fenced(code: str) -> str:
    return f"The label was configured wrongly.\n\n```python\n{code}```\n"


def user_text(body: dict[str, Any]) -> str:
    content = body["messages"][1]["content"]
    return "\n".join(part["text"] for part in content if part["type"] == "text")


def script(body: dict[str, Any]) -> Reply:
    """Answers by the code the request shows as failing, so the rounds of each sample are deterministic."""
    text = user_text(body)
    if "txt=self.counter.label()" in text:  # round 1 of the play mutant: still wrong
        return Reply(content=fenced(WRONG), prompt_tokens=1000, completion_tokens=100)
    if "self.refresh(1)" in text:  # round 2 of the play mutant: right
        return Reply(content=fenced(RIGHT), prompt_tokens=2000, completion_tokens=200)
    if "@refreshes" in text:  # round 1 of the exec mutant: right, no fence (the whole reply is the code)
        return Reply(content=RIGHT, prompt_tokens=500, completion_tokens=50)
    return Reply(content="I cannot tell.", prompt_tokens=1, completion_tokens=1)


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Path:
    """playeval-mini's counter/on-increment over a copy of the counter app, with one play and one exec mutant."""
    folder = pytester.path / "suite"
    folder.mkdir()
    shutil.copytree(REPO / "sample_projects" / "counter", folder / "counter",
                    ignore=shutil.ignore_patterns("__pycache__", "playtests"))
    line = next(json.loads(text) for text in (MINI / "tasks.jsonl").read_text().splitlines()
                if json.loads(text)["task_id"] == TASK_ID)
    line["repo"] = "counter"
    (folder / "tasks.jsonl").write_text(json.dumps(line) + "\n")
    samples = [{"task_id": TASK_ID, "completion": PLAY_MUTANT, "tokens": 78},
               {"task_id": TASK_ID, "completion": EXEC_MUTANT, "tokens": 69}]
    (pytester.path / "samples.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))
    return folder


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(
        "--playtest", "-p", "no:cacheprovider", "--playtest-output", str(pytester.path / "out"),
        "suite/tasks.jsonl", "--playtest-benchmark-samples", "samples.jsonl", "--playtest-model", "repair-model", *args,
        timeout=400)


def tree(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {str(path.relative_to(folder)): (path.stat().st_mtime_ns, path.read_bytes())
            for path in sorted(folder.rglob("*")) if path.is_file()}


def test_a_mutant_repaired_in_round_two_passes_play_and_the_metrics_follow_the_script(
        pytester: pytest.Pytester, suite: Path) -> None:
    before = tree(suite)
    with OpenAIServer(default=script) as server:
        result = run(pytester, "--playtest-base-url", server.url, "--playtest-benchmark-repair", "2",
                     "--playtest-results", "results.json", "-v", "--html", "report.html", "--self-contained-html")
    output = result.stdout.str()
    results = json.loads((pytester.path / "results.json").read_text())
    metrics = results["metrics"]

    # The samples' own outcomes stand: s0 fails play, s1 fails exec, whatever the repair did.
    assert f"{TASK_ID}[s0]::play FAILED" in output and f"{TASK_ID}[s1]::exec FAILED" in output
    assert results["tasks"][TASK_ID] | {"rounds": None} == {
        "n": 2, "exec": 1, "pass": 1, "play": 0, "diverged": 0, "rounds": None}
    assert (metrics["exec@1"], metrics["pass@1"], metrics["play@1"]) == (0.5, 0.5, 0.0)
    # Round 1 repairs s1 (exec) and gives s0 another faulty version; round 2 repairs s0.
    assert (metrics["exec@1_r1"], metrics["pass@1_r1"], metrics["play@1_r1"]) == (1.0, 1.0, 0.5)
    assert (metrics["exec@1_r2"], metrics["pass@1_r2"], metrics["play@1_r2"]) == (1.0, 1.0, 1.0)
    # Tokens of both rounds count: 1100 + 550 after round 1, + 2200 after round 2.
    assert [r["tokens"] for r in results["tasks"][TASK_ID]["rounds"]] == [1650, 3850]
    assert results["repair"]["tokens"] == 3850 and results["tokens"] == 78 + 69
    assert metrics["efficiency@1_r2"] == pytest.approx(1.0 / ((147 + 3850) / 1000))
    assert metrics["efficiency@1"] == 0.0  # no sample played before repair
    assert results["by_category"]["desktop-widgets"]["play@1_r2"] == 1.0
    # Each sample's rounds: diagnosis kind, tokens, the completion tried, the stages.
    s0, s1 = (results["repair"]["samples"][TASK_ID][index] for index in ("0", "1"))
    played = {"exec": True, "pass": True, "play": False}
    assert [(r["diagnosis"], r["tokens"], r["stages"], r["verdict"]) for r in s0] == [
        ("play", 1100, played, "fail: exception"), ("play", 2200, played | {"play": True}, "pass")]
    assert (s0[0]["completion"], s0[1]["completion"]) == (WRONG, RIGHT)
    assert [(r["diagnosis"], r["tokens"], r["completion"]) for r in s1] == [("exec", 550, RIGHT)]

    # What each round sent and got: three requests, each sample's rounds recorded on its failing item.
    bodies = server.bodies()
    assert len(bodies) == 3
    assert all(body["model"] == "repair-model" and "tools" not in body for body in bodies)
    play_prompts = [body for body in bodies if "play stage" in user_text(body)]
    exec_prompts = [body for body in bodies if "exec stage" in user_text(body)]
    assert len(play_prompts) == 2 and len(exec_prompts) == 1

    # A play-stage prompt carries the findings, the steps and the storyboard image.
    first = play_prompts[0]
    text = user_text(first)
    assert "[exception]" in text and "unknown option \"-txt\"" in text
    assert "1. " in text and " → " in text  # the steps with their effects
    images = [part for part in first["messages"][1]["content"] if part["type"] == "image_url"]
    assert len(images) == 1
    url = images[0]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    storyboard = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert storyboard.width > 100 and storyboard.height > 100
    # The second play prompt is about round 1's faulty version and its own traceback.
    assert "self.refresh(1)" in user_text(play_prompts[1]) and "TypeError" in user_text(play_prompts[1])
    # The exec prompt carries the traceback of the app's start.
    exec_text = user_text(exec_prompts[0])
    assert "Traceback (most recent call last)" in exec_text and "NameError: name 'refreshes'" in exec_text
    assert not any(part["type"] == "image_url" for part in exec_prompts[0]["messages"][1]["content"])
    # The task, its requirement and the related file are in every prompt.
    assert all("refresh the label" in user_text(body) and "`logic.py`" in user_text(body) for body in bodies)

    assert "round 1 (play diagnosis, 1100 tokens): exec ✓ pass ✓ play ✗ (fail: exception)" in output
    assert "round 2 (play diagnosis, 2200 tokens): exec ✓ pass ✓ play ✓ (pass)" in output
    assert "after round 2" in output
    # The rounds' playtests left their artifacts beside the sample's; the task's repo was never written.
    assert list((pytester.path / "out").rglob("repair-round-2/storyboard.png"))
    assert tree(suite) == before

    # The HTML report: under each repaired stage, a table with one row per round, its verdict and storyboard.
    page = (pytester.path / "report.html").read_text(encoding="utf-8")
    blob = re.search(r'data-jsonblob="([^"]*)"', page)
    assert blob is not None
    tests = json.loads(html.unescape(blob.group(1)))["tests"]
    tables = {nodeid.rsplit("::", 2)[-2]: extra["content"] for nodeid, rows in tests.items() for row in rows
              for extra in row["extras"] if 'class="playtest-repair"' in str(extra.get("content", ""))}
    assert set(tables) == {f"{TASK_ID}[s0]", f"{TASK_ID}[s1]"}
    assert tables[f"{TASK_ID}[s0]"].count("<tr><td>") == 2 and tables[f"{TASK_ID}[s1]"].count("<tr><td>") == 1
    assert "exec ✓ pass ✓ play ✗ (fail: exception)" in tables[f"{TASK_ID}[s0]"]
    assert tables[f"{TASK_ID}[s0]"].count('<img src="data:image/png;base64,') == 2
    assert "after round 2" in page  # the round metrics in the summary


def test_endpoint_down_keeps_every_outcome_warns_and_writes_nothing_into_the_repo(
        pytester: pytest.Pytester, suite: Path, closed_port_url: str) -> None:
    before = tree(suite)
    plain = run(pytester, "--playtest-results", "plain.json")
    down = run(pytester, "--playtest-base-url", closed_port_url, "--playtest-benchmark-repair", "2",
               "--playtest-results", "down.json")
    without = json.loads((pytester.path / "plain.json").read_text())
    repaired = json.loads((pytester.path / "down.json").read_text())

    for key, value in without["metrics"].items():
        assert repaired["metrics"][key] == value
        assert repaired["metrics"][f"{key}_r1"] == repaired["metrics"][f"{key}_r2"] == value
    assert {key: repaired["tasks"][TASK_ID][key] for key in without["tasks"][TASK_ID]} == without["tasks"][TASK_ID]
    assert repaired["repair"]["failed_rounds"] == 2 and repaired["repair"]["tokens"] == 0
    assert "cannot reach the model endpoint" in repaired["repair"]["errors"][0]
    # One round per sample, recorded as failed with the reason; no second round waits for a dead endpoint.
    output = down.stdout.str()
    assert "round 1 (" in output and "round 2 (" not in output
    assert "failed: endpoint: cannot reach the model endpoint" in output
    assert "PlaytestRepairWarning" in output and "keeps its original outcome" in output
    down.assert_outcomes(passed=2, failed=2, skipped=2)
    plain.assert_outcomes(passed=2, failed=2, skipped=2)
    assert tree(suite) == before


#: playeval-mini's tally/render mutant that only the playtest catches (esbuild builds a misspelt property).
TS_TASK_ID = "tally/render"
TS_PLAY_MUTANT = ("const render = (room: Tally): void => {\n  inside.textContent = String(room.inside);\n"
                  "  total.textContent = String(room.totl);\n  log.textContent = room.recent(3).join(\" · \");\n};\n")
TS_RIGHT = TS_PLAY_MUTANT.replace("room.totl", "room.total")


def test_a_typescript_sample_is_repaired_through_the_same_splice_build_and_page(pytester: pytest.Pytester) -> None:
    """The repair of a TypeScript task: the reply is validated with tree-sitter, spliced, built with esbuild
    (from the copied app's own node_modules) and played in Chromium."""
    folder = pytester.path / "suite"
    folder.mkdir()
    shutil.copytree(REPO / "sample_projects" / "web_tally", folder / "web_tally", symlinks=True,
                    ignore=shutil.ignore_patterns("playtests"))
    line = next(json.loads(text) for text in (MINI / "tasks.jsonl").read_text().splitlines()
                if json.loads(text)["task_id"] == TS_TASK_ID)
    line["repo"] = "web_tally"
    (folder / "tasks.jsonl").write_text(json.dumps(line) + "\n")
    (pytester.path / "samples.jsonl").write_text(
        json.dumps({"task_id": TS_TASK_ID, "completion": TS_PLAY_MUTANT, "tokens": 60}) + "\n")

    def answer(body: dict[str, Any]) -> Reply:
        if "room.totl" in user_text(body):
            return Reply(content=f"The total was misspelt.\n\n```ts\n{TS_RIGHT}```\n", prompt_tokens=900,
                         completion_tokens=90)
        return Reply(content="I cannot tell.", prompt_tokens=1, completion_tokens=1)

    with OpenAIServer(default=answer) as server:
        result = run(pytester, "--playtest-base-url", server.url, "--playtest-benchmark-repair", "1",
                     "--playtest-results", "results.json")
    output = result.stdout.str()
    results = json.loads((pytester.path / "results.json").read_text())
    assert results["tasks"][TS_TASK_ID] | {"rounds": None} == {"n": 1, "exec": 1, "pass": 1, "play": 0, "diverged": 0,
                                                               "rounds": None}
    assert "#total is 'undefined'" in user_text(server.bodies()[0])
    assert "round 1 (play diagnosis, 990 tokens): exec ✓ pass ✓ play ✓ (pass)" in output
    assert results["metrics"]["play@1_r1"] == 1.0 and results["by_language"]["typescript"]["play@1_r1"] == 1.0
