"""The action schema and what is derived from it: validation, the text grammar, the LLM tester's tool (no display)."""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest

from pytest_playtest.actions import (
    ACTION_KINDS,
    MAX_COORDINATE,
    MAX_HOTKEY_KEYS,
    MAX_KEY_NAME,
    MAX_REASON,
    MAX_REPEAT,
    MAX_SCROLL,
    MAX_TEXT,
    MAX_WAIT_SECONDS,
    SCHEMA,
    Action,
    ActionKind,
    Direction,
    FinishVerdict,
    from_call,
    parse_text,
)
from pytest_playtest.errors import ActionError
from pytest_playtest.policies.llm import ACT_TOOL, TOOLS

#: One action of every kind, with every field away from its default.
EXAMPLES: dict[str, Action] = {
    "click": Action.click(10, 20),
    "double_click": Action.double_click(0, MAX_COORDINATE),
    "right_click": Action.right_click(5, 6),
    "drag": Action.drag(1, 2, 300, 400),
    "move": Action.move(40, 50),
    "type_text": Action.type_text("hello, world"),
    "press": Action.press("left", 3),
    "hotkey": Action.hotkey("ctrl", "shift", "s"),
    "hold": Action.hold("right", 0.5),
    "scroll": Action.scroll(100, 200, "up", 2),
    "wait": Action.wait(1.5),
    "finish": Action.finish("fail", "the score went down"),
}
#: The smallest valid arguments of each kind, as a model would call it.
BASE: dict[str, dict[str, Any]] = {
    "click": {"x": 1, "y": 1},
    "drag": {"x1": 1, "y1": 1, "x2": 2, "y2": 2},
    "type_text": {"text": "a"},
    "press": {"key": "a"},
    "hotkey": {"keys": ["a"]},
    "hold": {"key": "a", "seconds": 1},
    "scroll": {"x": 1, "y": 1, "direction": "down"},
    "wait": {"seconds": 1},
    "finish": {"verdict": "pass", "reason": ""},
}


def keyword_text(action: Action) -> str:
    """``kind(name=value, ...)`` as a model would write it."""
    data = action.to_dict()
    kind = data.pop("kind")
    return f"{kind}({', '.join(f'{name}={value!r}' for name, value in data.items())})"


def positional_text(action: Action) -> str:
    """``kind(value, ...)`` in the schema's field order, hotkey's keys spread out."""
    values: list[Any] = []
    for spec in SCHEMA[action.kind].fields:
        value = getattr(action, spec.name)
        values.extend(value if isinstance(value, tuple) else [value])
    return f"{action.kind}({', '.join(repr(value) for value in values)})"


# -- the schema ------------------------------------------------------------------------------------------
def test_the_kinds_come_from_the_literal_and_each_has_a_schema():
    assert ACTION_KINDS == get_args(ActionKind)
    assert tuple(SCHEMA) == ACTION_KINDS
    assert set(EXAMPLES) == set(ACTION_KINDS)
    assert SCHEMA["scroll"].fields[2].choices == get_args(Direction)
    assert SCHEMA["finish"].fields[0].choices == get_args(FinishVerdict)


# -- round trips ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ACTION_KINDS)
def test_every_kind_round_trips_through_a_dict(kind):
    action = EXAMPLES[kind]
    assert Action.from_dict(action.to_dict()) == action


@pytest.mark.parametrize("kind", ACTION_KINDS)
@pytest.mark.parametrize("write", [keyword_text, positional_text])
def test_every_kind_round_trips_through_the_text_grammar(kind, write):
    action = EXAMPLES[kind]
    assert parse_text(f"I check the next rule.\n{write(action)}") == action


def test_records_leave_out_defaults_and_still_load():
    assert Action.wait(0).to_dict() == {"kind": "wait"}
    assert Action.from_dict({"kind": "wait"}) == Action.wait(0)
    assert Action.from_dict({"kind": "finish", "verdict": "pass"}) == Action.finish("pass")


@pytest.mark.parametrize("text", ["hotkey('ctrl', 's')", "hotkey('ctrl+s')", "hotkey(['ctrl', 's'])",
                                  "hotkey(keys='ctrl+s')", 'hotkey(keys=["ctrl", "s"])'])
def test_hotkey_is_read_in_every_written_form(text):
    assert parse_text(text) == Action.hotkey("ctrl", "s")


def test_parse_text_takes_the_last_valid_call():
    assert parse_text("no action here") is None
    assert parse_text("click(1, 2)\nscroll(1, 2, 'up', 500)") == Action.click(1, 2)
    assert parse_text("press('a')\npress('b')") == Action.press("b")


def test_tool_argument_names_and_model_leniency():
    assert from_call("drag", {"x1": 1, "y1": 2, "x2": 3, "y2": 4}) == Action.drag(1, 2, 3, 4)
    assert from_call("click", {"x": "12", "y": 7.6}) == Action.click(12, 8)
    assert from_call("press", {"key": 5}) == Action.press("5")
    assert from_call("sleep", {"seconds": "0.5"}) == Action.wait(0.5)


# -- bounds: each rejects just outside and accepts at the edge ------------------------------------------------
BOUNDS = [  # (kind, argument, lowest allowed, highest allowed, just below, just above)
    ("click", "x", 0, MAX_COORDINATE, -1, MAX_COORDINATE + 1),
    ("click", "y", 0, MAX_COORDINATE, -1, MAX_COORDINATE + 1),
    ("drag", "x1", 0, MAX_COORDINATE, -1, MAX_COORDINATE + 1),
    ("drag", "y2", 0, MAX_COORDINATE, -1, MAX_COORDINATE + 1),
    ("scroll", "x", 0, MAX_COORDINATE, -1, MAX_COORDINATE + 1),
    ("scroll", "amount", 1, MAX_SCROLL, 0, MAX_SCROLL + 1),
    ("press", "times", 1, MAX_REPEAT, 0, MAX_REPEAT + 1),
    ("hold", "seconds", 0, MAX_WAIT_SECONDS, -0.01, MAX_WAIT_SECONDS + 0.01),
    ("wait", "seconds", 0, MAX_WAIT_SECONDS, -0.01, MAX_WAIT_SECONDS + 0.01),
]


@pytest.mark.parametrize(("kind", "argument", "low", "high", "below", "above"), BOUNDS)
def test_numbers_are_bounded(kind, argument, low, high, below, above):
    for edge in (low, high):
        assert getattr(from_call(kind, {**BASE[kind], argument: edge}), _attribute(kind, argument)) == edge
    for outside in (below, above):
        with pytest.raises(ActionError) as caught:
            from_call(kind, {**BASE[kind], argument: outside})
        assert str(caught.value) == f"{kind}: {argument} must be within {low:g}..{high:g}, got {outside!r}"


LENGTHS = [  # (kind, argument, a valid value of n items, lowest and highest n, the error's words)
    ("type_text", "text", "a", 1, MAX_TEXT, "characters long"),
    ("finish", "reason", "a", 0, MAX_REASON, "characters long"),
    ("press", "key", "a", 1, MAX_KEY_NAME, "characters long"),
    ("hotkey", "keys", ["a"], 1, MAX_HOTKEY_KEYS, "keys"),
]


@pytest.mark.parametrize(("kind", "argument", "unit", "low", "high", "words"), LENGTHS)
def test_lengths_are_bounded(kind, argument, unit, low, high, words):
    for edge in (low, high):
        assert len(getattr(from_call(kind, {**BASE[kind], argument: unit * edge}), argument)) == edge
    for outside in ([low - 1] if low else []) + [high + 1]:
        with pytest.raises(ActionError, match=rf"^{kind}: {argument} must \w+ {low}\.\.{high} {words}, "
                                              rf"got {outside}$"):
            from_call(kind, {**BASE[kind], argument: unit * outside})


def test_every_key_of_a_hotkey_is_checked():
    with pytest.raises(ActionError, match=r"^hotkey: keys item 2 must be 1\.\.32 characters long, got 33$"):
        Action.hotkey("ctrl", "x" * 33)


def test_the_unbounded_scroll_is_refused_everywhere():
    message = r"^scroll: amount must be within 1\.\.20, got 5000$"
    with pytest.raises(ActionError, match=message):
        parse_text('scroll(x=5, y=5, direction="down", amount=5000)')
    with pytest.raises(ActionError, match=message):
        from_call("scroll", {"x": 5, "y": 5, "direction": "down", "amount": 5000})
    with pytest.raises(ActionError, match=message):
        Action.scroll(5, 5, "down", 5000)


@pytest.mark.parametrize(("build", "message"), [
    (lambda: Action("press", key="a", times=True), "press: times must be an integer, got True"),
    (lambda: from_call("click", {"x": True, "y": 1}), "click: x must be an integer, got True"),
    (lambda: from_call("wait", {"seconds": False}), "wait: seconds must be a number, got False"),
    (lambda: from_call("press", {"key": True}), "press: key must be a string, got True"),
    (lambda: Action("click", x=1.5, y=1), "click: x must be an integer, got 1.5"),
    (lambda: from_call("click", {"x": "left", "y": 1}), "click: x must be an integer, got 'left'"),
    (lambda: from_call("click", {"x": float("inf"), "y": 1}), "click: x must be an integer, got inf"),
    (lambda: from_call("wait", {"seconds": "nan"}), "wait: seconds must be within 0..5, got nan"),
    (lambda: Action.scroll(1, 1, "sideways"),
     "scroll: direction must be 'up', 'down', 'left' or 'right', got 'sideways'"),
    (lambda: Action.finish("maybe"), "finish: verdict must be 'pass' or 'fail', got 'maybe'"),
    (lambda: from_call("press", {}), "press needs key"),
    (lambda: from_call("click", {"x": 1, "y": 1, "button": "middle"}), "click: unknown argument(s) button"),
    (lambda: Action("click", x=1, y=1, text="hi"), "click takes no text"),
    (lambda: from_call("jump", {}), "unknown action 'jump'; expected one of click, double_click"),
    (lambda: Action.from_dict({"kind": ["click"]}), "an action must be an object with a 'kind' string"),
])
def test_bad_values_are_refused_with_a_clear_error(build, message):
    with pytest.raises(ActionError) as caught:
        build()
    assert str(caught.value).startswith(message)


# -- the LLM tester's tool -----------------------------------------------------------------------------------
def _attribute(kind: str, argument: str) -> str:
    return next(spec.name for spec in SCHEMA[kind].fields if spec.argument == argument)


def _tool() -> dict[str, Any]:
    (tool,) = TOOLS
    return tool["function"]


def _properties() -> dict[str, Any]:
    return _tool()["parameters"]["properties"]


def test_the_tool_is_the_schema_said_once():
    """One tool: the kind and every field of every kind once; its description lists each kind with its fields."""
    tool = _tool()
    assert tool["name"] == ACT_TOOL
    assert tool["parameters"]["required"] == ["kind"]
    assert _properties()["kind"]["enum"] == list(ACTION_KINDS)
    fields = {spec.name for kind_spec in SCHEMA.values() for spec in kind_spec.fields}
    assert set(_properties()) == {"kind"} | fields
    lines = tool["description"].splitlines()[1:]
    assert [line.split("(", 1)[0] for line in lines] == list(ACTION_KINDS)
    assert "drag(x, y, x2, y2): " in tool["description"] and "press(key, times=1): " in tool["description"]
    assert json.dumps(TOOLS).count("pagedown") == 1, "the key names are said once"


def test_the_tools_json_schema_bounds_are_the_constants():
    properties = _properties()
    for coordinate in ("x", "y", "x2", "y2"):
        assert properties[coordinate] == {"type": "integer"}, "the screenshot's size bounds a point"
    assert (properties["times"]["minimum"], properties["times"]["maximum"]) == (1, MAX_REPEAT)
    assert (properties["amount"]["minimum"], properties["amount"]["maximum"]) == (1, MAX_SCROLL)
    assert properties["direction"]["enum"] == ["up", "down", "left", "right"]
    assert (properties["seconds"]["type"], properties["seconds"]["minimum"], properties["seconds"]["maximum"]) == (
        "number", 0, MAX_WAIT_SECONDS)
    keys = properties["keys"]
    assert (keys["type"], keys["minItems"], keys["maxItems"]) == ("array", 1, MAX_HOTKEY_KEYS)
    assert properties["verdict"]["enum"] == ["pass", "fail"]
    for text in ("text", "key", "reason"):
        assert properties[text]["type"] == "string"


@pytest.mark.parametrize("kind", ACTION_KINDS)
def test_a_call_at_each_json_maximum_is_valid_and_one_more_is_not(kind):
    """The bounds the model is shown are exactly the ones validation applies."""
    base = BASE.get(kind, BASE["click"])
    for spec in SCHEMA[kind].fields:
        schema = _properties()[spec.name]
        if "maximum" not in schema:
            continue
        from_call(kind, {**base, spec.argument: schema["maximum"]})
        with pytest.raises(ActionError, match=f"^{kind}: {spec.argument} must be within"):
            from_call(kind, {**base, spec.argument: schema["maximum"] + 1})


def test_the_llm_policy_tells_the_model_why_a_written_action_was_refused():
    from openai.types.chat import ChatCompletionMessage

    from pytest_playtest.policies.llm import _read_action

    reply = ChatCompletionMessage(role="assistant", content='scroll(x=5, y=5, direction="down", amount=5000)')
    action, problems, _ = _read_action(reply, (640, 480))

    assert action is None
    assert problems == [("", "invalid action in the reply text: scroll: amount must be within 1..20, got 5000")]
