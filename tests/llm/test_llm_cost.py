"""What a step of the LLM tester sends and costs: the image tiles, the text's budget, the reported usage."""

from __future__ import annotations

import pytest

from pytest_playtest import expect
from pytest_playtest.actions import Action
from pytest_playtest.policies.llm import OCR_LIMIT, screen_text
from pytest_playtest.policies.request_size import fit_tiles, image_tokens, measure, tiles
from pytest_playtest.trajectory import Step
from tests.support.openai_server import OpenAIServer, act

BUDGET = 1500


@pytest.mark.parametrize(("size", "expected"), [
    # OpenAI's published examples: a 1024x1024 image is scaled to 768x768, 4 tiles; 2048x4096 to 768x1536, 6
    ((1024, 1024), 765), ((2048, 4096), 1105),
    ((1024, 768), 765), ((682, 512), 425), ((512, 384), 255), ((360, 200), 255),
])
def test_image_tokens_follow_the_tile_formula(size, expected):
    assert image_tokens(*size) == expected


@pytest.mark.parametrize(("size", "budget", "expected"), [
    ((1024, 768), 2, (682, 512)), ((1024, 768), 4, (1024, 768)), ((1024, 768), 1, (512, 384)),
    ((1280, 720), 2, (910, 512)), ((640, 480), 2, (640, 480)), ((300, 200), 1, (300, 200)),
])
def test_a_screenshot_is_scaled_to_its_tiles(size, budget, expected):
    assert fit_tiles(*size, budget) == expected
    assert tiles(*expected) <= budget


def test_screen_text_says_each_line_once_and_stays_bounded():
    assert screen_text("Score:   10\n\nScore: 10\nLives: 3\n  \nScore: 10") == "Score: 10\nLives: 3"
    long = "\n".join(f"item number {index} of the list" for index in range(200))
    shown = screen_text(long)
    assert len(shown) < OCR_LIMIT + 60
    assert shown.startswith("item number 0 of the list\n")
    assert shown.endswith("more characters: see the screenshot)")


def test_a_step_at_1024x768_stays_within_the_budget(openai_server, make_policy, make_observation):
    """The worst a step sends: a 1024x768 window, a screen full of text, a long run behind it."""
    text = "\n".join(f"Row {index}: Widget {index} costs {index * 3} EUR, {index % 7} in stock" for index in range(120))
    history = [Step(index=i, action=Action.click(10 * i, 20), changed=i % 3 == 0, changed_fraction=0.01,
                    findings=["exception"] if i == 7 else []) for i in range(1, 40)]
    openai_server.add(("wait", {"seconds": 1}))
    policy = make_policy(strategy="coverage", goal="Add three products to the cart and check the total.",
                         expectations=[expect.text(r"Total: \d+"), expect.alive(), expect.no_text("Traceback")])

    policy.decide(make_observation(1024, 768, text=text, history=history, step=40))

    (body,) = openai_server.bodies()
    size = measure(body)
    assert size.tiles == 2 and size.image == 425
    assert size.total <= BUDGET, size
    user_text = body["messages"][1]["content"][0]["text"]
    assert "steps 1-34: 11 of 34 changed the window; no visible change from click(340,20)" in user_text
    assert "harness noticed: exception" in user_text
    assert "39. click(390,20) → window changed (1.0% of pixels)" in user_text


def test_usage_and_cached_tokens_reach_the_decision(openai_server, make_policy, make_observation):
    openai_server.add(act("press", {"key": "up"}, prompt_tokens=1200, completion_tokens=30, cached_tokens=1024))
    policy = make_policy()

    decision = policy.decide(make_observation())

    assert (decision.tokens, decision.prompt_tokens, decision.cached_tokens) == (1230, 1200, 1024)
    assert (policy.tokens, policy.prompt_tokens, policy.cached_tokens) == (1230, 1200, 1024)


def test_an_endpoint_without_cache_details_counts_none_cached(openai_server, make_policy, make_observation):
    openai_server.add(act("press", {"key": "up"}, prompt_tokens=900, completion_tokens=10))
    decision = make_policy().decide(make_observation())
    assert (decision.tokens, decision.prompt_tokens, decision.cached_tokens) == (910, 900, 0)


def test_the_prefix_is_the_same_whatever_the_step_says(make_policy, make_observation):
    """Tools, system message and task do not depend on the step: an estimating server sees them cached."""
    with OpenAIServer(default=act("wait", {"seconds": 1}), estimate_usage=True) as server:
        policy = make_policy(base_url=server.url)
        first = policy.decide(make_observation(text="Score: 0", step=1))
        later = policy.decide(make_observation(
            text="Score: 40", step=20, history=[Step(index=i, action=Action.press("up")) for i in range(1, 20)]))
        bodies = server.bodies()

    assert bodies[0]["tools"] == bodies[1]["tools"] and bodies[0]["messages"][0] == bodies[1]["messages"][0]
    assert bodies[0]["messages"][1] != bodies[1]["messages"][1]
    assert first.cached_tokens == 0
    assert later.cached_tokens == measure(bodies[1]).prefix > 0
