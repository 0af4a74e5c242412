"""Actions a tester can take, their schema and their text grammar (runtime.executor performs them).

Coordinates are always relative to the app window's top-left corner (client area).

``SCHEMA`` describes every action kind once: its fields in order, with type, bounds and meaning.
``Action.validate``, the positional text grammar (``click(10, 20)``) and the LLM tester's tool are derived from it.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Literal, TypeGuard, get_args

from .errors import ActionError

ActionKind = Literal[
    "click", "double_click", "right_click", "drag", "move", "type_text", "press", "hotkey", "hold", "scroll",
    "wait", "finish",
]
Direction = Literal["up", "down", "left", "right"]
FinishVerdict = Literal["pass", "fail"]
#: How a field is checked: a whole number, any number, a string, or a list of key names. The first three
#: are also their JSON Schema type names.
FieldType = Literal["integer", "number", "string", "keys"]

ACTION_KINDS: tuple[ActionKind, ...] = get_args(ActionKind)
POINTER_KINDS: frozenset[ActionKind] = frozenset({"click", "double_click", "right_click", "drag", "move", "scroll"})
KEY_KINDS: frozenset[ActionKind] = frozenset({"type_text", "press", "hotkey", "hold"})

# The most a single action may ask for, so a policy cannot stall the run inside one step.
MAX_WAIT_SECONDS = 5.0
MAX_REPEAT = 50
#: Wheel notches per scroll. The executor sends one every 10 ms; 20 (about 60 lines, more than a page in
#: most widgets) take 0.2 s, and scrolling farther takes several steps, each of them observed.
MAX_SCROLL = 20
#: X11 coordinates are 16-bit and no real window is wider than 16K pixels; anything beyond is a unit mix-up.
#: This is only a sanity bound: the executor checks the actual window.
MAX_COORDINATE = 16383
#: The fields that are points on the window. A model is told their true bound, the size of the screenshot it
#: is sent, with that screenshot; the tools leave the sanity bound out.
COORDINATE_FIELDS = frozenset({"x", "y", "x2", "y2"})
#: Characters per type_text: they are typed one key press at a time, so 500 take about two seconds.
MAX_TEXT = 500
#: Keys per hotkey: four covers every real chord (ctrl+alt+shift+t).
MAX_HOTKEY_KEYS = 4
#: A key name: a character or a keysym name ("pagedown", "XF86AudioMute"); 32 leaves room for the longest.
MAX_KEY_NAME = 32
#: A finish reason is one paragraph for the report; longer is a model rambling.
MAX_REASON = 2000


@dataclass(frozen=True)
class FieldSpec:
    """One field of an action kind: the Action attribute it fills, its type, bounds and meaning."""

    name: str
    type: FieldType
    #: a few words for the model where the name and the kind's description do not say it all ("" for none)
    description: str
    #: inclusive bounds: of the value for numbers, of the length for strings, of the count for keys
    low: float = 0
    high: float = 0
    #: the only values a string may take (instead of length bounds)
    choices: tuple[str, ...] = ()
    #: the model must give it; else the Action's default applies (``FIELD_DEFAULTS``)
    required: bool = True
    #: the argument name in calls, where it differs from the attribute (drag's x1, y1)
    alias: str | None = None

    @property
    def argument(self) -> str:
        return self.alias or self.name


@dataclass(frozen=True)
class KindSpec:
    """One action kind: what it does (for the model) and its fields, in positional order."""

    description: str
    fields: tuple[FieldSpec, ...]


def _coordinate(name: str, alias: str | None = None) -> FieldSpec:
    return FieldSpec(name, "integer", "", 0, MAX_COORDINATE, alias=alias)


def _key(description: str) -> FieldSpec:
    return FieldSpec("key", "string", description, 1, MAX_KEY_NAME)


_SECONDS = FieldSpec("seconds", "number", "", 0, MAX_WAIT_SECONDS)
_AT = (_coordinate("x"), _coordinate("y"))
#: A key name, and the names a model may use, said once (press); hold's key and hotkey's keys are the same.
KEY_FIELD = _key("a character, or enter, space, tab, esc, backspace, delete, left, right, up, down, home, end, "
                 "pageup, pagedown, f1..f12")

# The descriptions are what a model reads in every request (the LLM tester's one tool): a few words each.
SCHEMA: Mapping[ActionKind, KindSpec] = MappingProxyType({
    "click": KindSpec("left-click", _AT),
    "double_click": KindSpec("double-click", _AT),
    "right_click": KindSpec("right-click", _AT),
    "drag": KindSpec("drag with the left button from (x, y) to (x2, y2)", (
        _coordinate("x", alias="x1"), _coordinate("y", alias="y1"), _coordinate("x2"), _coordinate("y2"),
    )),
    "move": KindSpec("move the pointer, no button (mouse-steered games)", _AT),
    "type_text": KindSpec("type into the focused field", (FieldSpec("text", "string", "", 1, MAX_TEXT),)),
    "press": KindSpec("press a key", (KEY_FIELD, FieldSpec("times", "integer", "", 1, MAX_REPEAT, required=False))),
    "hotkey": KindSpec("press a combination", (
        FieldSpec("keys", "keys", "modifiers first: [ctrl, s]", 1, MAX_HOTKEY_KEYS),
    )),
    "hold": KindSpec("hold a key down (movement in games)", (_key(""), _SECONDS)),
    "scroll": KindSpec("turn the wheel at a point, amount notches", (
        *_AT,
        FieldSpec("direction", "string", "", choices=get_args(Direction)),
        FieldSpec("amount", "integer", "", 1, MAX_SCROLL, required=False),
    )),
    "wait": KindSpec("wait, then look again", (_SECONDS,)),
    "finish": KindSpec("end the test", (
        FieldSpec("verdict", "string", "", choices=get_args(FinishVerdict)),
        FieldSpec("reason", "string", "what was checked, or what went wrong and where", 0, MAX_REASON),
    )),
})


def _is_kind(name: object) -> TypeGuard[ActionKind]:
    return name in ACTION_KINDS  # a tuple, so an unhashable name is simply not found


@dataclass(frozen=True)
class Action:
    """One input to the app. Only the fields of its kind (``SCHEMA``) may differ from their defaults."""

    kind: ActionKind
    x: int | None = None
    y: int | None = None
    x2: int | None = None
    y2: int | None = None
    text: str | None = None
    key: str | None = None
    keys: tuple[str, ...] = ()
    times: int = 1
    seconds: float = 0.0
    direction: str | None = None
    amount: int = 3
    verdict: str | None = None
    reason: str = ""

    def __post_init__(self) -> None:
        self.validate()

    # -- constructors -------------------------------------------------------------------------------
    @classmethod
    def click(cls, x: int, y: int) -> Action:
        return cls("click", x=int(x), y=int(y))

    @classmethod
    def double_click(cls, x: int, y: int) -> Action:
        return cls("double_click", x=int(x), y=int(y))

    @classmethod
    def right_click(cls, x: int, y: int) -> Action:
        return cls("right_click", x=int(x), y=int(y))

    @classmethod
    def drag(cls, x1: int, y1: int, x2: int, y2: int) -> Action:
        return cls("drag", x=int(x1), y=int(y1), x2=int(x2), y2=int(y2))

    @classmethod
    def move(cls, x: int, y: int) -> Action:
        return cls("move", x=int(x), y=int(y))

    @classmethod
    def type_text(cls, text: str) -> Action:
        return cls("type_text", text=text)

    @classmethod
    def press(cls, key: str, times: int = 1) -> Action:
        return cls("press", key=key, times=int(times))

    @classmethod
    def hotkey(cls, *keys: str) -> Action:
        return cls("hotkey", keys=tuple(keys))

    @classmethod
    def hold(cls, key: str, seconds: float) -> Action:
        return cls("hold", key=key, seconds=float(seconds))

    @classmethod
    def scroll(cls, x: int, y: int, direction: str = "down", amount: int = 3) -> Action:
        return cls("scroll", x=int(x), y=int(y), direction=direction, amount=int(amount))

    @classmethod
    def wait(cls, seconds: float) -> Action:
        return cls("wait", seconds=float(seconds))

    @classmethod
    def finish(cls, verdict: str, reason: str = "") -> Action:
        return cls("finish", verdict=verdict, reason=reason)

    # -- checks and (de)serialisation ---------------------------------------------------------------
    def validate(self) -> None:
        """Raise ActionError naming the kind, the field, the value and what is allowed."""
        if not _is_kind(self.kind):
            raise ActionError(f"unknown action {self.kind!r}; expected one of {', '.join(ACTION_KINDS)}")
        specs = SCHEMA[self.kind].fields
        foreign = [name for name, default in FIELD_DEFAULTS.items()
                   if getattr(self, name) != default and all(spec.name != name for spec in specs)]
        if foreign:
            raise ActionError(f"{self.kind} takes no {', '.join(foreign)}")
        missing = [spec.argument for spec in specs if getattr(self, spec.name) is None]
        if missing:
            raise ActionError(f"{self.kind} needs {', '.join(missing)}")
        for spec in specs:
            problem = _problem(spec, getattr(self, spec.name))
            if problem:
                raise ActionError(f"{self.kind}: {spec.argument} {problem}")

    @property
    def target(self) -> tuple[int, int] | None:
        """Where a pointer action lands (window coordinates), or None for keys and waits."""
        if self.kind in POINTER_KINDS and self.x is not None and self.y is not None:
            return (self.x, self.y)
        return None

    def scaled(self, fx: float, fy: float) -> Action:
        """The same action with its coordinates multiplied (image space → window space)."""
        def sx(v: int | None) -> int | None:
            return None if v is None else round(v * fx)

        def sy(v: int | None) -> int | None:
            return None if v is None else round(v * fy)

        return replace(self, x=sx(self.x), y=sy(self.y), x2=sx(self.x2), y2=sy(self.y2))

    def label(self) -> str:
        """A short human label, used in histories, storyboards and reports."""
        match self.kind:
            case "click" | "double_click" | "right_click" | "scroll":
                extra = f" {self.direction}" if self.kind == "scroll" else ""
                return f"{self.kind}({self.x},{self.y}){extra}"
            case "drag":
                return f"drag({self.x},{self.y}→{self.x2},{self.y2})"
            case "move":
                return f"move({self.x},{self.y})"
            case "type_text":
                return f"type {self.text!r}"
            case "press":
                return f"press {self.key}" + (f" ×{self.times}" if self.times > 1 else "")
            case "hotkey":
                return "hotkey " + "+".join(self.keys)
            case "hold":
                return f"hold {self.key} {self.seconds:g}s"
            case "wait":
                return f"wait {self.seconds:g}s"
            case _:
                return f"finish {self.verdict}" + (f": {self.reason}" if self.reason else "")

    def to_dict(self) -> dict[str, Any]:
        """The kind and the fields that differ from their defaults, JSON-ready (trajectory lines)."""
        data: dict[str, Any] = {"kind": self.kind}
        for spec in SCHEMA[self.kind].fields:
            value = getattr(self, spec.name)
            if value != FIELD_DEFAULTS[spec.name]:
                data[spec.name] = list(value) if isinstance(value, tuple) else value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        """Build an action from a dict (trajectory line or tool-call arguments with a ``kind``)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str):
            raise ActionError(f"an action must be an object with a 'kind' string, got {data!r}")
        fields = dict(data)
        kind = fields.pop("kind")
        return from_call(kind, fields)


#: Every Action field but ``kind``, with the value it has when its kind does not use it.
FIELD_DEFAULTS: Mapping[str, object] = MappingProxyType(
    {field.name: field.default for field in dataclasses.fields(Action) if field.name != "kind"})

_TYPE_WORDS: dict[FieldType, str] = {
    "integer": "an integer", "number": "a number", "string": "a string", "keys": "a list of key names"}


def _problem(spec: FieldSpec, value: object) -> str | None:
    """What is wrong with ``value`` for ``spec``, as words to follow the field's name; None if it fits."""
    wrong_type = f"must be {_TYPE_WORDS[spec.type]}, got {value!r}"
    match spec.type:
        case "integer" | "number":
            # bool is an int to Python, but True is no coordinate or count
            if isinstance(value, bool) or not isinstance(value, int | float) or (
                    spec.type == "integer" and isinstance(value, float)):
                return wrong_type
            return None if spec.low <= value <= spec.high else (
                f"must be within {spec.low:g}..{spec.high:g}, got {value!r}")
        case "string":
            if not isinstance(value, str):
                return wrong_type
            if spec.choices:
                return None if value in spec.choices else f"must be {_either(spec.choices)}, got {value!r}"
            return _length_problem(spec, len(value), "must be {}..{} characters long")
        case "keys":
            if not isinstance(value, tuple):
                return wrong_type
            problems = [f"item {i} {p}" for i, key in enumerate(value, 1) if (p := _problem(KEY_FIELD, key))]
            return _length_problem(spec, len(value), "must have {}..{} keys") or (problems[0] if problems else None)


def _length_problem(spec: FieldSpec, length: int, rule: str) -> str | None:
    if spec.low <= length <= spec.high:
        return None
    return f"{rule.format(f'{spec.low:g}', f'{spec.high:g}')}, got {length}"


def _either(choices: tuple[str, ...]) -> str:
    quoted = [repr(choice) for choice in choices]
    return f"{', '.join(quoted[:-1])} or {quoted[-1]}"


_ALIASES = {"type": "type_text", "key": "press", "keypress": "press", "left_click": "click",
            "doubleclick": "double_click", "rightclick": "right_click", "sleep": "wait", "done": "finish"}


def kind_of(name: str) -> ActionKind | None:
    """The action kind a call's name means (a kind, or a common alias such as ``left_click``), or None."""
    kind = _ALIASES.get(name, name)
    return kind if _is_kind(kind) else None


def from_call(name: str, args: Mapping[str, Any]) -> Action:
    """An action from a tool/function call: ``name`` is the action kind, ``args`` its arguments.

    Accepts the tool argument names (``drag{x1,y1,x2,y2}``) and the Action field names alike, and reads
    numbers written as strings or floats. Raises ActionError naming the bad field.
    """
    kind = _ALIASES.get(name, name)
    if not _is_kind(kind):
        raise ActionError(f"unknown action {kind!r}; expected one of {', '.join(ACTION_KINDS)}")
    rest = dict(args)
    values: dict[str, Any] = {}
    for spec in SCHEMA[kind].fields:
        for argument in (spec.argument, spec.name):  # a record's field name wins over a tool's alias
            if argument in rest:
                values[spec.name] = _coerce(spec, rest.pop(argument))
    if rest:
        raise ActionError(f"{kind}: unknown argument(s) {', '.join(sorted(rest))}")
    return Action(kind, **values)


def _coerce(spec: FieldSpec, raw: Any) -> Any:
    """What a model or a text reply meant ("12" or 12.0 for 12, "ctrl+s" for keys); validate judges it."""
    if isinstance(raw, bool):  # never a number, nor a key
        return raw
    match spec.type:
        case "integer" | "number":
            try:
                number = float(raw)
            except (TypeError, ValueError, OverflowError):
                return raw
            if spec.type == "number":
                return number
            return round(number) if math.isfinite(number) else number
        case "string":
            return str(raw) if isinstance(raw, int | float) else raw
        case "keys":
            keys = [k for k in re.split(r"[+\s,]+", raw) if k] if isinstance(raw, str) else raw
            return tuple(_coerce(KEY_FIELD, k) for k in keys) if isinstance(keys, list | tuple) else raw


# -- the text grammar (fallback when a model answers in prose instead of a tool call) ---------------
_CALL = re.compile(r"\b(" + "|".join(sorted(set(ACTION_KINDS) | set(_ALIASES), key=len, reverse=True))
                   + r")\s*\((.*?)\)(?=\s*(?:$|\n|;|`|\)|\.\s|[A-Za-z_]+\s*\())", re.S)
_POINT = re.compile(r"<point>\s*(-?\d+(?:\.\d+)?)[\s,]+(-?\d+(?:\.\d+)?)\s*</point>")
_BOX = re.compile(r"[\[(]\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*[\])]")
#: One argument value: a quoted string (commas and all), a [list], or anything up to the next comma.
_VALUE = r"('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\[[^\]]*\]|[^,]+)"
_KWARG = re.compile(r"(\w+)\s*=\s*" + _VALUE)
_POSITIONAL = re.compile(r"\s*" + _VALUE)


def _literal(raw: str) -> Any:
    raw = raw.strip()
    if raw[:1] in "'\"" and raw[-1:] == raw[:1]:
        return raw[1:-1].encode().decode("unicode_escape")
    if raw.startswith("["):
        return [_literal(p) for p in re.findall(r"'[^']*'|\"[^\"]*\"|[^,\[\]\s]+", raw)]
    try:
        return float(raw) if "." in raw else int(raw)
    except ValueError:
        return raw


def parse_text(reply: str) -> Action | None:
    """The last valid action written in ``reply`` as text, or None when there is no action call in it.

    Understands ``click(x=10, y=20)``, ``click(10, 20)``, ``press(key='space')``, ``hotkey('ctrl', 's')``,
    ``finish(verdict='fail', reason='...')`` and the UI-TARS form ``click(point='<point>10 20</point>')`` /
    ``start_box='(10,20)'``. When calls are written but none is valid, raises the ActionError of the last.
    """
    found: Action | None = None
    error: ActionError | None = None
    for match in _CALL.finditer(reply):
        try:
            found = from_call(match.group(1), _arguments(match.group(1), match.group(2)))
        except ActionError as exc:
            error = exc
    if found is None and error is not None:
        raise error
    return found


def _arguments(name: str, body: str) -> dict[str, Any]:
    """The arguments of one written call: keywords, UI-TARS points and boxes, or positional values."""
    args: dict[str, Any] = {}
    point = _POINT.search(body)
    if point:
        args["x"], args["y"] = float(point.group(1)), float(point.group(2))
        body = _POINT.sub("", body)
    for key, raw in _KWARG.findall(body):
        if key in ("point", "start_box", "start_point"):
            box = _BOX.search(raw) or _POINT.search(raw)
            if box and "x" not in args:
                args["x"], args["y"] = float(box.group(1)), float(box.group(2))
            continue
        if key in ("end_box", "end_point"):
            box = _BOX.search(raw) or _POINT.search(raw)
            if box:
                args["x2"], args["y2"] = float(box.group(1)), float(box.group(2))
            continue
        args["text" if key == "content" else key] = _literal(raw)
    if not args and body.strip():
        args = _positional(_ALIASES.get(name, name), [_literal(v) for v in _POSITIONAL.findall(body)])
    return args


def _positional(kind: str, values: list[Any]) -> dict[str, Any]:
    """Positional values by the schema's field order; a last ``keys`` field takes all the rest, as
    ``Action.hotkey(*keys)`` does (a single value stays whole: ``hotkey('ctrl+s')``)."""
    if not _is_kind(kind):
        return {}
    specs = SCHEMA[kind].fields
    if specs[-1].type == "keys" and len(values) > len(specs):
        values = [*values[:len(specs) - 1], values[len(specs) - 1:]]
    return {spec.name: value for spec, value in zip(specs, values, strict=False)}
