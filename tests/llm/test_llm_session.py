"""The LLM tester inside a real session: a real Tk app on Xvfb, real OCR, the loopback model endpoint."""

from __future__ import annotations

from pathlib import Path

import pytest
from openai_server import tool

from pytest_playtest import expect
from pytest_playtest.loop.playthrough import run_session
from pytest_playtest.loop.spec import RunSpec
from pytest_playtest.vision import Vision

TK_TOY = Path(__file__).resolve().parents[2] / "fixtures" / "apps" / "tk_toy.py"


@pytest.fixture(scope="module")
def vision() -> Vision:
    return Vision()


def spec(server_url: str, **kwargs) -> RunSpec:
    settings = {"app": str(TK_TOY), "policy": "llm", "max_steps": 6, "timeout": 40,
                "options": {"model": "tester-model", "base_url": server_url, "retry_delay": 0.01,
                            "max_attempts": 2}}
    settings.update(kwargs)
    return RunSpec.from_kwargs(settings, defaults=RunSpec(), where="test")


def test_the_model_plays_from_what_it_sees(openai_server, display, vision):
    """The scripted model reads the OCR text it is sent and reacts to it, as a real one would."""
    def press_plus_until_counted(request: dict) -> object:
        text = next(p["text"] for p in request["messages"][1]["content"] if p["type"] == "text")
        if "Count: 1" in text:
            return tool("finish", {"verdict": "pass", "reason": "the count went up by one"},
                        prompt_tokens=50, completion_tokens=5)
        return tool("press", {"key": "plus"}, content="Pressing + should increment.", prompt_tokens=50,
                    completion_tokens=5)

    openai_server.add(press_plus_until_counted, press_plus_until_counted, press_plus_until_counted)

    result = run_session(spec(openai_server.url, strategy="coverage", goal="Increment the counter once."),
                         display=display, vision=vision)

    assert result.verdict.status == "pass", result.verdict.summary()
    assert [step.action.kind for step in result.steps] == ["press", "finish"]
    assert result.steps[0].note == "Pressing + should increment."
    assert result.verdict.tokens == 110
    assert len(openai_server.bodies()) == 2


def test_finish_fail_becomes_a_judge_finding(openai_server, display, vision):
    openai_server.add(tool("finish", {"verdict": "fail", "reason": "the counter shows 0 after +"}))

    result = run_session(spec(openai_server.url), display=display, vision=vision)

    assert result.verdict.status == "fail"
    (finding,) = result.verdict.findings
    assert (finding.kind, finding.message) == ("judge", "the counter shows 0 after +")


def test_an_unreachable_endpoint_is_an_error_not_a_failure(display, vision, closed_port_url):
    result = run_session(spec(closed_port_url, expect=[expect.alive()]), display=display, vision=vision)

    assert result.verdict.status == "error"
    assert "connection refused" in result.verdict.error
