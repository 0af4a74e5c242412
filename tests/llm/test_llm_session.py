"""The LLM tester inside a real session: a real Tk app on Xvfb, real OCR, the loopback model endpoint."""

from __future__ import annotations

import json

import pytest

from pytest_playtest import expect
from pytest_playtest.loop.playthrough import run_session
from pytest_playtest.loop.spec import RunSpec
from pytest_playtest.policies.request_size import measure
from pytest_playtest.vision import Vision
from tests.support import APPS
from tests.support.openai_server import OpenAIServer, act, request_text

TK_TOY = APPS / "tk_toy.py"


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
            return act("finish", {"verdict": "pass", "reason": "the count went up by one"},
                       prompt_tokens=50, completion_tokens=5)
        return act("press", {"key": "plus"}, content="Pressing + should increment.", prompt_tokens=50,
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
    openai_server.add(act("finish", {"verdict": "fail", "reason": "the counter shows 0 after +"}))

    result = run_session(spec(openai_server.url), display=display, vision=vision)

    assert result.verdict.status == "fail"
    (finding,) = result.verdict.findings
    assert (finding.kind, finding.message) == ("judge", "the counter shows 0 after +")


def test_an_unreachable_endpoint_is_an_error_not_a_failure(display, vision, closed_port_url):
    result = run_session(spec(closed_port_url, expect=[expect.alive()]), display=display, vision=vision)

    assert result.verdict.status == "error"
    assert "connection refused" in result.verdict.error


def test_the_prefix_of_step_1_and_step_20_is_the_same(display, vision):
    """Tools, system prompt and task are byte for byte the same at every step, so an endpoint's prompt cache
    serves them; what the step says (the count on the screen, the recent steps) comes after them."""
    presses = [act("press", {"key": "plus"}, content="Pressing + should add one.") for _ in range(19)]
    finish = act("finish", {"verdict": "pass", "reason": "the count followed every press"})
    with OpenAIServer([*presses, finish], estimate_usage=True) as server:
        result = run_session(spec(server.url, strategy="coverage", goal="Count to nineteen with +.", max_steps=25,
                                  timeout=90, expect=[expect.alive()]), display=display, vision=vision)
        bodies = server.bodies()

    assert result.verdict.status == "pass", result.verdict.summary()
    assert len(bodies) == 20
    first, twentieth = bodies[0], bodies[19]

    def prefix(body: dict) -> str:
        return json.dumps([body["model"], body["tools"], body["messages"][0]], separators=(",", ":"))

    assert prefix(first) == prefix(twentieth)
    assert first["messages"][0]["role"] == "system" and "Count to nineteen with +." in first["messages"][0]["content"]
    assert "Count: 0" in request_text(first) and "Count: 19" in request_text(twentieth)
    assert "steps 1-14: 14 of 14 changed the window" in request_text(twentieth)
    # every step after the first reads the prefix from the cache; the verdict adds up what the endpoint said
    cached = [step.cached_tokens for step in result.steps]
    assert cached[0] == 0 and all(tokens == measure(twentieth).prefix for tokens in cached[1:])
    assert result.verdict.cached_tokens == sum(cached)
    assert result.verdict.prompt_tokens == sum(step.prompt_tokens for step in result.steps)
    assert all(step.prompt_tokens == measure(body).total for step, body in zip(result.steps, bodies, strict=True))
