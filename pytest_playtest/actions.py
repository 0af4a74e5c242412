"""Actions a tester can take, their text grammar, and the executor that performs them with real X input.

Coordinates are always relative to the app window's top-left corner (client area).
"""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import App
    from .display import Display

ACTION_KINDS: tuple[str, ...] = (
    "click",
    "double_click",
    "right_click",
    "drag",
    "type_text",
    "press",
    "hotkey",
    "hold",
    "scroll",
    "wait",
    "finish",
)
POINTER_KINDS = frozenset({"click", "double_click", "right_click", "drag", "scroll"})
KEY_KINDS = frozenset({"type_text", "press", "hotkey", "hold"})

#: The upper bounds a single action may ask for, so a policy cannot stall the run inside one step.
MAX_WAIT_SECONDS = 5.0
MAX_REPEAT = 50


class ActionError(ValueError):
    """An action that cannot be performed as asked (bad field, target outside the window)."""


@dataclass(frozen=True)
class Action:
    """One input to the app. Only the fields of its kind are meaningful."""

    kind: str
    x: int | None = None
    y: int | None = None
    x2: int | None = None
    y2: int | None = None
    text: str | None = None
    key: str | None = None
    keys: tuple[str, ...] = field(default_factory=tuple)
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
        if self.kind not in ACTION_KINDS:
            raise ActionError(f"unknown action {self.kind!r}; expected one of {', '.join(ACTION_KINDS)}")
        need: dict[str, tuple[str, ...]] = {
            "click": ("x", "y"),
            "double_click": ("x", "y"),
            "right_click": ("x", "y"),
            "drag": ("x", "y", "x2", "y2"),
            "type_text": ("text",),
            "press": ("key",),
            "hold": ("key",),
            "scroll": ("x", "y", "direction"),
            "finish": ("verdict",),
        }
        missing = [name for name in need.get(self.kind, ()) if getattr(self, name) is None]
        if missing:
            raise ActionError(f"{self.kind} needs {', '.join(missing)}")
        if self.kind == "hotkey" and not self.keys:
            raise ActionError("hotkey needs at least one key")
        if self.kind == "scroll" and self.direction not in ("up", "down", "left", "right"):
            raise ActionError(f"scroll direction must be up/down/left/right, not {self.direction!r}")
        if self.kind == "finish" and self.verdict not in ("pass", "fail"):
            raise ActionError(f"finish verdict must be 'pass' or 'fail', not {self.verdict!r}")
        if not 1 <= self.times <= MAX_REPEAT:
            raise ActionError(f"times must be within 1..{MAX_REPEAT}, not {self.times}")
        if not 0 <= self.seconds <= MAX_WAIT_SECONDS:
            raise ActionError(f"seconds must be within 0..{MAX_WAIT_SECONDS}, not {self.seconds}")

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
        defaults = Action("wait")
        data = {"kind": self.kind}
        for name, value in asdict(self).items():
            if name != "kind" and value != getattr(defaults, name):
                data[name] = list(value) if isinstance(value, tuple) else value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """Build an action from a dict (trajectory line or tool-call arguments with a ``kind``)."""
        if not isinstance(data, dict) or "kind" not in data:
            raise ActionError(f"an action must be an object with a 'kind', got {data!r}")
        fields = dict(data)
        kind = fields.pop("kind")
        return from_call(kind, fields)


_ALIASES = {"type": "type_text", "key": "press", "keypress": "press", "left_click": "click",
            "doubleclick": "double_click", "rightclick": "right_click", "sleep": "wait", "done": "finish"}


def from_call(name: str, args: dict[str, Any]) -> Action:
    """An action from a tool/function call: ``name`` is the action kind, ``args`` its arguments.

    Accepts the tool schema (``drag{x1,y1,x2,y2}``, ``hotkey{keys}``) and the model field names alike.
    Raises ActionError naming the bad field.
    """
    kind = _ALIASES.get(name, name)
    args = dict(args)
    if kind == "drag":
        args.setdefault("x", args.pop("x1", None))
        args.setdefault("y", args.pop("y1", None))
    if kind == "hotkey" and isinstance(args.get("keys"), str):
        args["keys"] = [k for k in re.split(r"[+\s,]+", args["keys"]) if k]
    if "keys" in args:
        args["keys"] = tuple(str(k) for k in args["keys"])
    known = set(Action.__dataclass_fields__) - {"kind"}
    unknown = set(args) - known
    if unknown:
        raise ActionError(f"{kind}: unknown argument(s) {', '.join(sorted(unknown))}")
    try:
        for name_int in ("x", "y", "x2", "y2", "times", "amount"):
            if args.get(name_int) is not None:
                args[name_int] = round(float(args[name_int]))
        if args.get("seconds") is not None:
            args["seconds"] = float(args["seconds"])
    except (TypeError, ValueError) as exc:
        raise ActionError(f"{kind}: non-numeric coordinate or count ({exc})") from None
    return Action(kind, **args)


# -- the text grammar (fallback when a model answers in prose instead of a tool call) ---------------
_CALL = re.compile(r"\b(" + "|".join(sorted(set(ACTION_KINDS) | set(_ALIASES), key=len, reverse=True))
                   + r")\s*\((.*?)\)(?=\s*(?:$|\n|;|`|\)|\.\s|[A-Za-z_]+\s*\())", re.S)
_POINT = re.compile(r"<point>\s*(-?\d+(?:\.\d+)?)[\s,]+(-?\d+(?:\.\d+)?)\s*</point>")
_BOX = re.compile(r"[\[(]\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*[\])]")
_KWARG = re.compile(r"(\w+)\s*=\s*('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\[[^\]]*\]|[^,]+)")


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
    """The last action written in ``reply`` as text, or None.

    Understands ``click(x=10, y=20)``, ``press(key='space')``, ``finish(verdict='fail', reason='...')``
    and the UI-TARS form ``click(point='<point>10 20</point>')`` / ``start_box='(10,20)'``.
    """
    found: Action | None = None
    for match in _CALL.finditer(reply):
        name, body = match.group(1), match.group(2)
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
            if key == "content":
                key = "text"
            args[key] = _literal(raw)
        if not args and body.strip():
            positional = [_literal(p) for p in body.split(",")]
            args = _positional(_ALIASES.get(name, name), positional)
        try:
            found = from_call(name, args)
        except ActionError:
            continue
    return found


def _positional(kind: str, values: list[Any]) -> dict[str, Any]:
    order = {
        "click": ("x", "y"), "double_click": ("x", "y"), "right_click": ("x", "y"),
        "drag": ("x", "y", "x2", "y2"), "type_text": ("text",), "press": ("key", "times"),
        "hold": ("key", "seconds"), "scroll": ("x", "y", "direction", "amount"), "wait": ("seconds",),
        "finish": ("verdict", "reason"),
    }.get(kind, ())
    return dict(zip(order, values, strict=False))


# -- executing actions with real X input --------------------------------------------------------------
class Executor:
    """Performs actions on one app's window with real X input events (XTest)."""

    def __init__(self, display: Display, app: App) -> None:
        self.display = display
        self.app = app

    def _absolute(self, x: int, y: int) -> tuple[int, int]:
        geometry = self.app.window_geometry()
        if not (0 <= x < geometry.width and 0 <= y < geometry.height):
            raise ActionError(
                f"({x}, {y}) is outside the app window ({geometry.width}x{geometry.height}); "
                "coordinates are relative to the window's top-left corner"
            )
        return geometry.x + x, geometry.y + y

    def hover(self, x: int, y: int) -> None:
        """Rest the pointer on a window point, as a person's hand does before clicking."""
        from .xinput import InputError

        try:
            self.display.input().move(*self._absolute(x, y))
        except InputError as exc:
            raise ActionError(str(exc)) from None

    def perform(self, action: Action) -> None:
        """Perform ``action``; raises ActionError (nothing sent) when it cannot be performed."""
        from .xinput import InputError

        if action.kind == "finish":
            return
        if action.kind == "wait":
            time.sleep(action.seconds)
            return
        xin = self.display.input()
        try:
            if action.kind in KEY_KINDS:
                if action.kind == "type_text":
                    xin.check_keys(*action.text)
                else:
                    xin.check_keys(*((action.key,) if action.key else action.keys))
                self.app.focus()
            match action.kind:
                case "click" | "double_click" | "right_click":
                    x, y = self._absolute(action.x, action.y)
                    button = "right" if action.kind == "right_click" else "left"
                    xin.button(x, y, button, clicks=2 if action.kind == "double_click" else 1)
                case "drag":
                    start = self._absolute(action.x, action.y)
                    end = self._absolute(action.x2, action.y2)
                    xin.drag(*start, *end)
                case "scroll":
                    x, y = self._absolute(action.x, action.y)
                    button = {"left": "scroll_left", "right": "scroll_right"}.get(action.direction,
                                                                                  action.direction)
                    xin.button(x, y, button, clicks=action.amount, interval=0.01)
                case "type_text":
                    xin.type_text(action.text)
                case "press":
                    for i in range(action.times):
                        if i:
                            time.sleep(0.03)
                        xin.press(action.key)
                case "hotkey":
                    xin.hotkey(*action.keys)
                case "hold":
                    xin.press(action.key, hold=action.seconds)
        except InputError as exc:
            raise ActionError(str(exc)) from None
