"""The LLM tester against a real loopback OpenAI-compatible server, through the real openai client."""

from __future__ import annotations

import base64
import io
import time

import pytest
from PIL import Image

from pytest_playtest import expect
from pytest_playtest.actions import ACTION_KINDS, Action
from pytest_playtest.errors import PolicyError
from pytest_playtest.policies.llm import ACT_TOOL, TOOLS, LLMPolicy
from pytest_playtest.trajectory import Step
from tests.support.openai_server import Failure, Reply, tool

SECRET = "sk-test-0123456789-do-not-leak"


def user_parts(body: dict) -> tuple[str, list[dict]]:
    """The text and the image parts of the first user message of a request."""
    user = next(m for m in body["messages"] if m["role"] == "user")
    text = "\n".join(p["text"] for p in user["content"] if p["type"] == "text")
    return text, [p for p in user["content"] if p["type"] == "image_url"]


def decode_image(part: dict) -> Image.Image:
    header, encoded = part["image_url"]["url"].split(",", 1)
    assert header.startswith("data:image/") and header.endswith(";base64")
    return Image.open(io.BytesIO(base64.b64decode(encoded)))


# -- actions and coordinates ---------------------------------------------------------------------------------
def test_click_in_screenshot_pixels_becomes_window_pixels(openai_server, make_policy, make_observation):
    openai_server.add(("click", {"x": 100, "y": 50}))
    policy = make_policy(image_long_side=1024, image_tiles=4)

    decision = policy.decide(make_observation(2048, 1536))

    assert decision.action == Action.click(200, 100)


@pytest.mark.parametrize(("call", "expected"), [
    (("double_click", {"x": 512, "y": 341}), Action.double_click(750, 499)),
    (("right_click", {"x": 0, "y": 682}), Action.right_click(0, 999)),
    (("drag", {"x1": 10, "y1": 10, "x2": 1023, "y2": 600}), Action.drag(15, 15, 1499, 878)),
    (("scroll", {"x": 100, "y": 200, "direction": "up", "amount": 2}), Action.scroll(146, 293, "up", 2)),
])
def test_every_pointer_tool_is_rescaled_per_axis(openai_server, make_policy, make_observation, call, expected):
    """1500x1000 sends a 1024x683 image: the two axes scale by slightly different factors."""
    openai_server.add(call)
    policy = make_policy(image_tiles=6)

    assert policy.decide(make_observation(1500, 1000)).action == expected


@pytest.mark.parametrize(("call", "expected"), [
    (("type_text", {"text": "hello"}), Action.type_text("hello")),
    (("press", {"key": "left", "times": 3}), Action.press("left", 3)),
    (("hotkey", {"keys": ["ctrl", "s"]}), Action.hotkey("ctrl", "s")),
    (("hold", {"key": "right", "seconds": 0.5}), Action.hold("right", 0.5)),
    (("wait", {"seconds": 1}), Action.wait(1)),
])
def test_keyboard_and_wait_tools(openai_server, make_policy, make_observation, call, expected):
    openai_server.add(call)
    assert make_policy().decide(make_observation(2048, 1536)).action == expected


def test_finish_fail_keeps_the_reason(openai_server, make_policy, make_observation):
    reason = "the score went from 3 to 1 after eating a pellet"
    openai_server.add(tool("finish", {"verdict": "fail", "reason": reason}, content="The score dropped."))

    decision = make_policy().decide(make_observation())

    assert decision.action.kind == "finish"
    assert decision.action.verdict == "fail"
    assert decision.action.reason == reason
    assert decision.note == "The score dropped."


def test_the_tool_offers_exactly_the_action_kinds():
    (tool,) = TOOLS
    assert tool["function"]["name"] == ACT_TOOL
    assert sorted(tool["function"]["parameters"]["properties"]["kind"]["enum"]) == sorted(ACTION_KINDS)


def test_tools_kinds_offers_one_tool_per_kind(openai_server, make_policy, make_observation):
    openai_server.add(("drag", {"x1": 10, "y1": 10, "x2": 300, "y2": 200}))

    decision = make_policy(tools="kinds", image_tiles=4).decide(make_observation(2048, 1536))

    tools = openai_server.bodies()[0]["tools"]
    assert [tool["function"]["name"] for tool in tools] == list(ACTION_KINDS)
    assert tools[3]["function"]["parameters"]["required"] == ["x1", "y1", "x2", "y2"]
    assert decision.action == Action.drag(20, 20, 600, 400)


@pytest.mark.parametrize(("fields", "expected"), [
    ({"kind": "click", "x": 100, "y": 50}, Action.click(200, 100)),
    ({"kind": "drag", "x": 10, "y": 10, "x2": 300, "y2": 200}, Action.drag(20, 20, 600, 400)),
    ({"kind": "press", "key": "left", "times": 2}, Action.press("left", 2)),
    ({"kind": "hotkey", "keys": ["ctrl", "s"]}, Action.hotkey("ctrl", "s")),
    ({"kind": "finish", "verdict": "pass", "reason": "all good"}, Action.finish("pass", "all good")),
])
def test_act_calls_become_actions(openai_server, make_policy, make_observation, fields, expected):
    openai_server.add(tool(ACT_TOOL, fields))
    assert make_policy(image_tiles=4).decide(make_observation(2048, 1536)).action == expected


# -- what the request carries --------------------------------------------------------------------------------
def test_request_carries_model_tools_goal_ocr_and_downscaled_png(openai_server, make_policy, make_observation):
    openai_server.add(("press", {"key": "space"}))
    policy = make_policy(goal="Reach level 2 without losing a life.",
                         expectations=[expect.text(r"Level: 2"), expect.alive()])

    policy.decide(make_observation(2048, 1536, text="Score: 40  Lives: 3"))

    (body,) = openai_server.bodies()
    assert body["model"] == "tester-model"
    assert body["tools"] == TOOLS
    system, user = body["messages"]
    assert system["role"] == "system" and user["role"] == "user"
    # the task is part of the run's fixed prefix, the screen's text of the step's message
    assert "Reach level 2 without losing a life." in system["content"]
    assert "text /Level: 2/ is seen during the run" in system["content"]
    assert "the app is still running at the end" in system["content"]
    text, images = user_parts(body)
    assert "Score: 40 Lives: 3" in text, "spaces collapsed"
    # a 4:3 window is sent as 2x1 tiles of 512 pixels (the default image_tiles=2)
    assert "2048x1536" in text and "682x512" in text
    (image_part,) = images
    assert image_part["image_url"]["url"].startswith("data:image/png;base64,")
    image = decode_image(image_part)
    assert image.format == "PNG"
    assert image.size == (682, 512)
    # the picture is the frame itself: red left, blue right, white top-left corner
    rgb = image.convert("RGB")
    assert rgb.getpixel((10, 10)) == (255, 255, 255)
    assert rgb.getpixel((200, 400)) == (220, 30, 30)
    assert rgb.getpixel((600, 400)) == (30, 30, 220)


def test_small_windows_are_sent_at_their_own_size(openai_server, make_policy, make_observation):
    openai_server.add(("click", {"x": 639, "y": 479}))
    decision = make_policy().decide(make_observation(640, 480))

    _, (image_part,) = user_parts(openai_server.bodies()[0])
    assert decode_image(image_part).size == (640, 480)
    assert decision.action == Action.click(639, 479)


def test_jpeg_format(openai_server, make_policy, make_observation):
    openai_server.add(("wait", {"seconds": 1}))
    make_policy(image_format="jpeg", image_long_side=400).decide(make_observation(800, 600))

    _, (image_part,) = user_parts(openai_server.bodies()[0])
    assert image_part["image_url"]["url"].startswith("data:image/jpeg;base64,")
    image = decode_image(image_part)
    assert (image.format, image.size) == ("JPEG", (400, 300))


def test_history_shows_the_most_recent_steps_with_their_effects(openai_server, make_policy, make_observation):
    steps = [Step(index=i, action=Action.press("right"), changed=True, changed_fraction=0.02) for i in range(5)]
    steps.append(Step(index=5, action=Action.click(7, 9), changed=False))
    openai_server.add(("wait", {"seconds": 1}))

    make_policy(history=3).decide(make_observation(history=steps, step=6))

    text, _ = user_parts(openai_server.bodies()[0])
    assert "5. click(7,9) → no visible change" in text
    assert "4. press right → window changed (2.0% of pixels)" in text
    assert "3. press right" in text
    assert "2. press right" not in text


def test_coverage_strategy_uses_its_own_system_prompt(openai_server, make_policy, make_observation):
    openai_server.add(("wait", {"seconds": 1}), ("wait", {"seconds": 1}))
    make_policy(strategy="coverage", goal="").decide(make_observation())
    make_policy(strategy="goal").decide(make_observation())

    coverage, goal = (body["messages"][0]["content"] for body in openai_server.bodies())
    assert "coverage" in coverage and "workflows" in coverage
    assert "game tester" in goal and "logic violation" in goal
    assert "<!--" not in coverage + goal, "the placeholder comment line is stripped"
    assert "{" not in coverage + goal, "every placeholder is filled"
    assert "explore the app" in coverage, "an empty goal is replaced by an explicit instruction"


def test_the_system_prompt_lists_the_inputs_the_code_handles(openai_server, make_policy, make_observation):
    from pytest_playtest.source import scan_app
    from tests.support import SAMPLES

    calculator = scan_app(str(SAMPLES / "calculator" / "main.py"), SAMPLES / "calculator")
    openai_server.add(("wait", {"seconds": 1}), ("wait", {"seconds": 1}))
    make_policy(strategy="coverage", goal="", vocabulary=calculator).decide(make_observation())
    make_policy(strategy="coverage", goal="").decide(make_observation())

    known, unknown = (body["messages"][0]["content"] for body in openai_server.bodies())
    assert "The app's own code was read before the run" in known and "escape" in known and "enter" in known
    assert "The inputs the app handles are not known" in unknown


# -- the API key ---------------------------------------------------------------------------------------------
def test_api_key_reaches_the_server_only(openai_server, make_policy, make_observation, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    openai_server.add(tool("click", {"x": 1, "y": 2}, content=f"I will click. (my key might be {SECRET})"),
                      Failure(401, f"Incorrect API key provided: {SECRET}."))
    policy = make_policy()

    decision = policy.decide(make_observation())
    with pytest.raises(PolicyError) as failure:
        policy.decide(make_observation())

    assert openai_server.requests[0].headers["authorization"] == f"Bearer {SECRET}"
    assert "401" in str(failure.value)
    for shown in (decision.note, repr(decision), repr(policy), repr(policy.options), str(failure.value),
                  repr(failure.value), str(vars(policy.options))):
        assert SECRET not in shown


def test_without_a_key_a_placeholder_is_sent(openai_server, make_policy, make_observation):
    openai_server.add(("wait", {"seconds": 1}))
    make_policy().decide(make_observation())

    assert openai_server.requests[0].headers["authorization"] == "Bearer not-needed"


# -- malformed replies -----------------------------------------------------------------------------------------
def test_corrections_until_a_usable_tool_call(openai_server, make_policy, make_observation):
    openai_server.add(
        Reply(content="I should click the start button.", prompt_tokens=100, completion_tokens=10),
        tool("click", '{"x": 10, "y":', prompt_tokens=200, completion_tokens=20),
        tool("click", {"x": 10, "y": 20}, content="Clicking start.", prompt_tokens=300, completion_tokens=30),
    )
    policy = make_policy()

    decision = policy.decide(make_observation())

    assert decision.action == Action.click(10, 20)
    assert decision.tokens == 660
    assert policy.tokens == 660
    assert decision.note.startswith("Clicking start.")
    assert "2 correction(s)" in decision.note
    first, second, third = openai_server.bodies()
    assert len(first["messages"]) == 2
    # after the reply without a tool call: that reply, then a correction naming the problem
    assistant, correction = second["messages"][2:]
    assert assistant == {"role": "assistant", "content": "I should click the start button."}
    assert correction["role"] == "user" and "no tool call" in correction["content"]
    # after the bad arguments: the tool call is answered (as the API requires) with what was wrong
    assistant, tool_answer, correction = third["messages"][4:]
    assert assistant["tool_calls"][0]["function"]["name"] == "click"
    assert tool_answer["role"] == "tool"
    assert tool_answer["tool_call_id"] == assistant["tool_calls"][0]["id"]
    assert "not valid JSON" in tool_answer["content"]
    assert "not valid JSON" in correction["content"]


@pytest.mark.parametrize(("bad", "problem"), [
    (("jump", {"height": 3}), "no tool named 'jump'"),
    (("press", {}), "press needs key"),
    (("click", {"x": 10, "y": 20, "button": "middle"}), "unknown argument(s) button"),
    (("finish", {"verdict": "maybe", "reason": "unsure"}), "finish: verdict must be 'pass' or 'fail', got 'maybe'"),
    (("click", {"x": 700, "y": 20}), "outside the screenshot, which is 640x480"),
    (("drag", {"x1": 1, "y1": 1, "x2": 5, "y2": 480}), "outside the screenshot"),
    (("click", "[1, 2]"), "must be a JSON object"),
    (("act", {"x": 1, "y": 2}), "act needs a kind, one of click, double_click"),
    (("act", {"kind": "jump"}), "unknown action 'jump'"),
    (("act", {"kind": "press"}), "press needs key"),
])
def test_each_kind_of_unusable_call_is_corrected(openai_server, make_policy, make_observation, bad, problem):
    openai_server.add(bad, ("press", {"key": "space"}))

    decision = make_policy().decide(make_observation(640, 480))

    assert decision.action == Action.press("space")
    correction = openai_server.bodies()[1]["messages"][-1]
    assert problem in correction["content"]


def test_gives_up_after_max_corrections(openai_server, make_policy, make_observation):
    openai_server.add("thinking...", "still thinking", ("click", {"x": -5, "y": 3}), ("click", {"x": 1, "y": 1}))
    policy = make_policy(max_corrections=2)

    with pytest.raises(PolicyError, match=r"no usable action after 3 attempts: "
                                          r"invalid click call: click: x must be within 0\.\.16383, got -5"):
        policy.decide(make_observation())

    assert len(openai_server.bodies()) == 3
    assert policy.tokens == 3 * 120, "tokens spent on unusable replies still count"


@pytest.mark.parametrize("content", [
    "The start button is at the top left.\nclick(x=5, y=6)",
    "Action: click(start_box='(5,6)')",
    "Action: click(point='<point>5 6</point>')",
])
def test_text_grammar_fallback_needs_no_correction(openai_server, make_policy, make_observation, content):
    openai_server.add(content)

    decision = make_policy(image_tiles=4).decide(make_observation(2048, 1536, text=""))

    assert decision.action == Action.click(10, 12)
    assert "read from the reply text" in decision.note
    assert len(openai_server.bodies()) == 1


def test_a_callable_entry_can_answer_from_the_request(openai_server, make_policy, make_observation):
    def click_where_told(request: dict) -> tuple:
        text, _ = user_parts(request)
        return ("click", {"x": 3, "y": 4}) if "Start" in text else ("wait", {"seconds": 1})

    openai_server.add(click_where_told)
    assert make_policy().decide(make_observation(text="Start")).action == Action.click(3, 4)


# -- HTTP failures ---------------------------------------------------------------------------------------------
def test_server_error_then_success_after_backoff(openai_server, make_policy, make_observation):
    openai_server.add(Failure(500, "upstream exploded"), Failure(503), ("press", {"key": "up"}))
    policy = make_policy(retry_delay=0.05, retry_delay_max=1, max_attempts=4)

    started = time.monotonic()
    decision = policy.decide(make_observation())

    assert decision.action == Action.press("up")
    assert len(openai_server.bodies()) == 3
    assert time.monotonic() - started >= 0.05 + 0.1, "waits, doubling, between attempts"


def test_rate_limit_until_attempts_run_out(openai_server, make_policy, make_observation):
    openai_server.add(*[Failure(429, "Rate limit reached for requests")] * 5)

    with pytest.raises(PolicyError, match=r"HTTP 429: Rate limit reached.*gave up after 3 attempts"):
        make_policy(max_attempts=3).decide(make_observation())

    assert len(openai_server.bodies()) == 3


def test_retry_after_header_is_honoured_within_the_cap(openai_server, make_policy, make_observation):
    openai_server.add(Failure(429, "slow down", retry_after=0.3), ("wait", {"seconds": 1}))

    started = time.monotonic()
    make_policy(retry_delay=0.01, retry_delay_max=5).decide(make_observation())

    assert time.monotonic() - started >= 0.3


def test_client_errors_are_not_retried(openai_server, make_policy, make_observation):
    openai_server.add(Failure(400, "this model does not support image inputs"))

    with pytest.raises(PolicyError, match=r"HTTP 400: this model does not support image inputs"):
        make_policy().decide(make_observation())

    assert len(openai_server.bodies()) == 1


def test_timeout_then_success(openai_server, make_policy, make_observation):
    openai_server.add(Reply(tool_calls=[("wait", {"seconds": 1})], delay=1.0), ("press", {"key": "esc"}))

    decision = make_policy(request_timeout=0.2).decide(make_observation())

    assert decision.action == Action.press("esc")


def test_timeouts_until_attempts_run_out(openai_server, make_policy, make_observation):
    openai_server.add(*[Reply(content="late", delay=1.0)] * 2)

    with pytest.raises(PolicyError, match=r"did not answer within 0.2 s \(gave up after 2 attempts\)"):
        make_policy(request_timeout=0.2, max_attempts=2).decide(make_observation())


def test_endpoint_down(make_policy, make_observation, closed_port_url):
    policy = make_policy(base_url=closed_port_url, max_attempts=2)

    with pytest.raises(PolicyError, match=r"cannot reach the model endpoint .*127\.0\.0\.1.*: connection refused"):
        policy.decide(make_observation())


# -- configuration ---------------------------------------------------------------------------------------------
def test_missing_model_is_a_clear_error(make_policy):
    with pytest.raises(PolicyError, match=r"needs a model name.*--playtest-model"):
        make_policy(model=None)


@pytest.mark.parametrize(("options", "message"), [
    ({"image_format": "gif"}, "image_format must be 'png' or 'jpeg'"),
    ({"history": "many"}, "history must be a number"),
    ({"max_attempts": 0}, "max_attempts must be at least 1"),
    ({"prompts_dir": "/no/such/folder"}, "is not a folder"),
    ({"tools": "many"}, "tools must be 'act' or 'kinds'"),
])
def test_bad_options_are_named(make_policy, options, message):
    with pytest.raises(PolicyError, match=message):
        make_policy(**options)


def test_unknown_strategy(make_policy):
    with pytest.raises(PolicyError, match="no prompt for strategy 'speedrun'"):
        make_policy(strategy="speedrun")


def test_base_url_from_the_environment(openai_server, make_policy, make_observation, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", openai_server.url)
    openai_server.add(("wait", {"seconds": 1}))

    policy = make_policy(base_url=None)
    policy.decide(make_observation())

    assert policy.endpoint == openai_server.url + "/"
    assert len(openai_server.bodies()) == 1


def test_endpoint_credentials_are_not_shown(make_policy):
    policy = make_policy(base_url="http://user:hunter2@127.0.0.1:9/v1")
    assert "hunter2" not in repr(policy) + repr(policy.options)


def test_user_prompts_dir_overrides_and_adds_examples(openai_server, make_policy, make_observation, tmp_path):
    (tmp_path / "system_goal.md").write_text(
        "<!-- placeholders: {goal} {strategy} {max_steps} -->\nYou are TESTER-X; {max_steps} steps at most.\n")
    (tmp_path / "user_step.md").write_text("Goal={goal} OCR={ocr_text} image={image_width}x{image_height}")
    (tmp_path / "examples.md").write_text("<!-- few-shot -->\nExample: after a pellet, the score goes up by 1.")
    openai_server.add(("wait", {"seconds": 1}))

    make_policy(prompts_dir=str(tmp_path), goal="Win.").decide(make_observation(text="Score: 1"))

    body = openai_server.bodies()[0]
    assert body["messages"][0]["content"] == (
        "You are TESTER-X; 30 steps at most.\n\nExample: after a pellet, the score goes up by 1.")
    text, images = user_parts(body)
    assert text == "Goal=Win. OCR=Score: 1 image=640x480"
    assert len(images) == 1


def test_a_user_prompt_with_an_unknown_placeholder_is_refused(make_policy, tmp_path):
    (tmp_path / "user_step.md").write_text("Goal: {goal}. Score: {score}")

    with pytest.raises(PolicyError, match=r"user_step.md: unknown placeholder\(s\) \{score\}"):
        make_policy(prompts_dir=tmp_path)


def test_close_releases_the_client(openai_server, make_policy, make_observation):
    policy: LLMPolicy = make_policy()
    policy.close()
    policy.close()  # harmless twice: the session closes policies in a finally block

    with pytest.raises(RuntimeError, match="client has been closed"):
        policy.decide(make_observation())
    assert openai_server.bodies() == []
