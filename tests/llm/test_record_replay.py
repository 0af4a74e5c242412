"""Record an LLM playthrough once, replay it with no endpoint; the key never leaves the tester."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.support import APPS
from tests.support.openai_server import act

pytestmark = pytest.mark.gui

TK_TOY = APPS / "tk_toy.py"
SECRET = "sk-test-never-written-anywhere"

TEST_FILE = f"""
import json, os, pytest
from pytest_playtest import expect

@pytest.mark.playtest(app={str(TK_TOY)!r}, strategy="coverage", goal="Increment the counter twice.",
                      expect=[expect.text("Count: 2")], max_steps=6, timeout=40)
def test_counter(playtest):
    verdict = playtest.run()
    with open("verdict-" + os.environ.get("PHASE", "x") + ".json", "w") as out:
        json.dump({{"status": verdict.status, "kinds": verdict.kinds(), "steps": verdict.steps,
                   "tokens": verdict.tokens, "notes": verdict.notes}}, out)
    assert verdict, verdict.summary()
"""


def test_record_then_replay_without_endpoint(pytester: pytest.Pytester, openai_server,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    openai_server.add(act("click", {"x": 150, "y": 105}, prompt_tokens=40, completion_tokens=4),
                      act("press", {"key": "plus"}, prompt_tokens=40, completion_tokens=4),
                      act("finish", {"verdict": "pass", "reason": "counted to two"}, prompt_tokens=40,
                          completion_tokens=4))
    pytester.makepyfile(test_counter=TEST_FILE)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("PHASE", "record")
    recorded = pytester.runpytest_subprocess(
        "--playtest", "--playtest-policy", "llm", "--playtest-model", "tester-model",
        "--playtest-base-url", openai_server.url, "--playtest-record", "--junitxml=junit.xml",
        "--playtest-token-price", "input=2,cached=1,output=8", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=1)
    first = json.loads((pytester.path / "verdict-record.json").read_text())
    assert first["tokens"] == 132 and first["steps"] == 3
    recorded.stdout.fnmatch_lines(["model tokens: 132 (prompt + completion, as the endpoint reported)",
                                   "estimated cost: $0.0003 at input $2, cached $1, output $8 per million tokens"])
    requests = openai_server.requests
    assert requests and all(r.headers["authorization"] == f"Bearer {SECRET}" for r in requests)

    written = [p for p in pytester.path.rglob("*") if p.is_file()]
    assert any(p.name == "trajectory.jsonl" for p in written)
    for path in written:
        assert SECRET.encode() not in path.read_bytes(), path

    shutil.copytree(pytester.path / "playtest-results", pytester.path / "recordings")
    openai_server.stop()
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setenv("PHASE", "replay")
    replayed = pytester.runpytest_subprocess("--playtest", "--playtest-replay", "recordings",
                                             "-p", "no:cacheprovider")
    replayed.assert_outcomes(passed=1)
    second = json.loads((pytester.path / "verdict-replay.json").read_text())
    assert (second["status"], second["kinds"], second["steps"]) == (first["status"], first["kinds"], first["steps"])
    assert second["tokens"] == 0 and second["notes"] == []
    replayed.stdout.no_fnmatch_line("model tokens:*")
