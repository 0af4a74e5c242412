"""The inputs an app offers on one screen: its own (the vocabulary read from its code) and what vision finds.

``InputCatalog`` turns the vocabulary and a screen's widgets into ``Candidate`` inputs for the offline
tester (``heuristic.py``). The code's keys, shortcuts, right clicks, drags, wheel and typing are used
when the code handles them, its quit keys and quit labels only when asked for; without a vocabulary the
keys games commonly use stand in. A pointer input is named by where it lands (``Places``), so a widget
keeps its statistics across screens.

Ranks order the untried inputs: 0 the app's own controls (labels its code names, fields), 1 keys and the
buttons of a widget toolkit, 2 what a drawn UI shows (board cells, sprites) and pointer probes, 3 the
rest (holds, drags, the wheel, other texts).
"""

from __future__ import annotations

import math
import re

from ..actions import Action
from ..geometry import Box
from ..keys import MOVEMENT_KEYS
from ..source import Vocabulary, split_hotkey
from ..vision import Widget
from .exploration import WAIT, Candidate, Rank
from .thresholds import DRAG_REACH, FEW_WIDGETS, GRID, HOLD_SECONDS, MAX_FORM_CHOICES, MAX_OPTIONS, NEAR, PROBE_POINTS

GAME_KEYS = ("right", "down", "left", "up", "space", "enter", "w", "a", "s", "d")
FIELD_TEXT = ("hello", "12", "")  # "" empties the field: required fields are tested too
FORM_TEXT = ("hello", "12")  # what a whole form is filled in with (words, then numbers)
#: how a field is emptied: its text selected from the end to the start, then deleted, as a person does (Tk, ttk
#: and browser fields select so; 40 backspaces of a hand's 50 ms each took over 3 s a field)
CLEAR_FIELD = (Action.press("end"), Action.hotkey("shift", "home"), Action.press("backspace"))
CLICKABLE = ("button", "field", "shape")


class Places:
    """Where pointer inputs land, named by the first point seen there: a widget keeps its name when vision
    boxes it a few pixels differently or its label changes (a counter, a toggled caption)."""

    def __init__(self) -> None:
        self.known: list[tuple[int, int]] = []

    def name(self, x: int, y: int) -> str:
        for px, py in self.known:
            if abs(px - x) <= NEAR and abs(py - y) <= NEAR:
                return f"{px},{py}"
        self.known.append((x, y))
        return f"{x},{y}"


class InputCatalog:
    """The candidates of one app, screen by screen."""

    def __init__(self, vocabulary: Vocabulary | None) -> None:
        self.vocabulary = vocabulary
        self.places = Places()
        self.labels = {plain(t) for t in vocabulary.texts} if vocabulary else set()
        self.quit_labels = {plain(t) for t in vocabulary.quit_texts} if vocabulary else set()

    def learn(self, vocabulary: Vocabulary) -> None:
        """What the app handles grew during the run (its screen named an input); an app played without a
        vocabulary (its code told nothing) keeps the generic inputs."""
        if self.vocabulary is not None:
            self.vocabulary = vocabulary

    @property
    def uses_widgets(self) -> bool:
        """Whether vision is worth asking for widgets: the app takes clicks or typing (a keyboard game does not)."""
        v = self.vocabulary
        return v is None or bool(v.buttons or v.texts or v.typing)

    def candidates(self, widgets: list[Widget], size: tuple[int, int], *,
                   hold: float = HOLD_SECONDS) -> list[Candidate]:
        """Every input of this screen; movement keys are also held ``hold`` seconds (a real-time game's beat)."""
        v = self.vocabulary
        if v is None:  # nothing known: widgets and the keys games use
            return [*self._widget_clicks(widgets), *self._choices(widgets), *self._fields(widgets, enter=False),
                    *(key_candidate(key, Rank.KEY) for key in GAME_KEYS)]
        clicks, choices = self._widget_clicks(widgets), self._choices(widgets)
        found = [*clicks, *self._forms(widgets, clicks, choices, typing=v.typing), *choices]
        if v.typing:
            found += self._fields(widgets, enter="enter" in v.keys)
        found += [key_candidate(key, Rank.KEY) for key in (*v.safe_keys, *v.safe_hotkeys)]
        # (in an app that takes many letter keys, w, a, s, d are letters: held, they type a row of one)
        found += [Candidate(f"hold:{key}", (Action.hold(key, hold),), rank=Rank.REST, repeatable=False)
                  for key in v.safe_keys if key in MOVEMENT_KEYS and not (v.types_characters and len(key) == 1)]
        found += self._pointer_probes(widgets, size, v)
        if v.typing and not v.texts and not any(w.kind == "field" for w in widgets):
            # typing handled without fields (a game reading characters): type into the window
            found += [Candidate(f"type:{text}", (Action.type_text(text),), rank=Rank.DRAWN, repeatable=False)
                      for text in FIELD_TEXT if text]
        found = [c for c in found if not _unhandled(c, widgets)]
        return found or [WAIT]

    def quit_inputs(self, widgets: list[Widget]) -> list[Candidate]:
        """The app's quit keys and the quit labels on screen (they end the app normally)."""
        if self.vocabulary is None:
            return []
        return [*(key_candidate(key, Rank.OWN) for key in self.vocabulary.quit_keys),
                *(self._click(w, Rank.OWN) for w in widgets if w.text and plain(w.text) in self.quit_labels)]

    def play_keys(self) -> tuple[str, ...]:
        """The keys goal play uses: the app's own single keys (not its quit keys), else those games use."""
        if self.vocabulary is None:
            return GAME_KEYS
        return tuple(k for k in self.vocabulary.safe_keys if len(k) == 1 or "+" not in k)

    def _widget_clicks(self, widgets: list[Widget]) -> list[Candidate]:
        """Labels the code names (buttons, menu entries) first, then other buttons of a widget toolkit, then
        what a drawn UI shows (board cells, sprites) and, in apps with labelled controls, other texts (a
        radio button's label). Quit labels are left alone."""
        found = []
        for widget in widgets:
            label = plain(widget.text)
            if label and label in self.quit_labels:
                continue
            if label in self.labels or (widget.kind == "button" and self.vocabulary is None):
                found.append(self._click(widget, Rank.OWN))
            elif widget.kind == "button":
                # a toolkit's button labelled at run time; on a drawn UI, a board cell with a number
                found.append(self._click(widget, Rank.KEY if self.labels else Rank.DRAWN))
            elif widget.kind == "shape":
                found.append(self._click(widget, Rank.DRAWN))
            elif widget.kind == "text" and self.labels:
                found.append(self._click(widget, Rank.REST))
        return found

    def _choices(self, widgets: list[Widget]) -> list[Candidate]:
        """Each option of a list to choose from, chosen as a person does with the keyboard: open the list,
        go to its top, down to the option, Enter."""
        found = []
        for widget in (w for w in widgets if w.kind == "choice"):
            x, y = widget.center
            place = self.places.name(x, y)
            for index, option in enumerate(widget.options[:MAX_OPTIONS]):
                downs = (Action.press("down", index),) if index else ()
                found.append(Candidate(f"choose@{place}:{index}", (Action.click(x, y), Action.press("home"), *downs,
                                                                  Action.press("enter")),
                                       rank=Rank.OWN, repeatable=False, label=option))
        return found

    def _forms(self, widgets: list[Widget], clicks: list[Candidate], choices: list[Candidate], *,
               typing: bool) -> list[Candidate]:
        """A form sent as a person sends it, with the app's own button nearest its controls (the one that
        sends it): every field filled in (a form whose fields are required is never sent one field at a
        time), then each option of a list chosen and sent, once with the fields as they are and once emptied
        (a filter or settings form is tried one choice at a time). They come before the bare choices: a
        choice shows what it does when the form is sent."""
        fields = [w for w in widgets if w.kind == "field"] if typing else []
        controls = [w.box for w in widgets if w.kind == "choice"] + [w.box for w in fields]
        button = _nearest([c for c in clicks if c.rank == Rank.OWN], controls)
        if button is None:
            return []
        found = [Candidate(f"form:{button.name}:{text}", (*_filled(fields, text), *button.actions), rank=Rank.OWN,
                           repeatable=False, label=f"fill in the form, then {button.label}")
                 for text in (FORM_TEXT if fields else ())]
        emptied = (*_filled(fields, ""), *button.actions) if fields else ()
        found += [Candidate(f"form:{button.name}:{choice.name}", (*choice.actions, *button.actions, *emptied),
                            rank=Rank.OWN, repeatable=False, label=f"{choice.label}, then {button.label}")
                  for choice in choices[:MAX_FORM_CHOICES]]
        return found

    def _fields(self, widgets: list[Widget], *, enter: bool) -> list[Candidate]:
        """Click a field, type into it (or empty it), and press Enter when the app handles it."""
        found = []
        for widget in (w for w in widgets if w.kind == "field"):
            x, y = widget.center
            for text in FIELD_TEXT:
                typed = (Action.type_text(text),) if text else CLEAR_FIELD
                tail = (Action.press("enter"),) if enter else ()
                found.append(Candidate(f"field@{self.places.name(x, y)}:{text!r}",
                                       (Action.click(x, y), *typed, *tail), rank=Rank.OWN, repeatable=False))
        return found

    def _pointer_probes(self, widgets: list[Widget], size: tuple[int, int], v: Vocabulary) -> list[Candidate]:
        """Right clicks, pointer moves, drags and the wheel where the code handles them; clicks at fixed points
        when vision finds few widgets (a board drawn without outlines), and all over a drawn UI (the code
        handles clicks but labels no control: where a click counts is the code's to decide)."""
        width, height = size
        points = [(int(fx * width), int(fy * height)) for fx, fy in PROBE_POINTS]
        targets = [w.center for w in widgets if w.kind in CLICKABLE] + points
        found = []
        if "left" in v.buttons and not v.texts:
            grid = [(int((col + 0.5) * width / GRID), int((row + 0.5) * height / GRID))
                    for row in range(GRID) for col in range(GRID)]
            found += [self._point("click", Action.click(x, y), Rank.DRAWN) for x, y in grid]
        elif "left" in v.buttons and sum(w.kind in CLICKABLE for w in widgets) < FEW_WIDGETS:
            found += [self._point("click", Action.click(x, y), Rank.DRAWN) for x, y in points]
        if "right" in v.buttons:
            found += [self._point("right", Action.right_click(x, y), Rank.DRAWN) for x, y in targets]
        if "wheel" in v.buttons:
            found += [Candidate(f"scroll-{d}", (Action.scroll(width // 2, height // 2, d),), rank=Rank.REST)
                      for d in ("down", "up")]
        if v.pointer:  # the app follows the pointer (a paddle, a fist, an aim): steer it there
            found += [self._point("move", Action.move(x, y), Rank.DRAWN) for x, y in targets]
        if v.drags:
            cx, cy = width // 2, height // 2
            dx, dy = int(width * DRAG_REACH), int(height * DRAG_REACH)
            ends = ((cx + dx, cy), (cx - dx, cy), (cx, cy + dy), (cx, cy - dy))
            found += [Candidate(f"drag→{self.places.name(x, y)}", (Action.drag(cx, cy, x, y),), rank=Rank.REST)
                      for x, y in ends]
        return found

    def _point(self, prefix: str, action: Action, rank: Rank) -> Candidate:
        x, y = action.target or (0, 0)
        return Candidate(f"{prefix}@{self.places.name(x, y)}", (action,), rank=rank)

    def _click(self, widget: Widget, rank: Rank) -> Candidate:
        x, y = widget.center
        return Candidate(f"click@{self.places.name(x, y)}", (Action.click(x, y),), rank=rank,
                         label=widget.text or widget.kind, box=widget.box)


def _nearest(buttons: list[Candidate], controls: list[Box]) -> Candidate | None:
    """The button closest to a form's controls (the first of equals: reading order), if the form has any."""
    placed = [(button, button.box) for button in buttons if button.box is not None]
    if not controls or not placed:
        return None
    return min(placed, key=lambda pair: min(_gap(pair[1], control) for control in controls))[0]


def _gap(a: Box, b: Box) -> float:
    """The distance between two boxes' edges (0 when they touch or overlap)."""
    dx = max(0, b.x - a.right, a.x - b.right)
    dy = max(0, b.y - a.bottom, a.y - b.bottom)
    return math.hypot(dx, dy)


def _filled(fields: list[Widget], text: str) -> list[Action]:
    """Each field clicked, emptied and, unless ``text`` is empty, typed into."""
    typed = (Action.type_text(text),) if text else ()
    return [a for w in fields for a in (Action.click(*w.center), *CLEAR_FIELD, *typed)]


def _unhandled(candidate: Candidate, widgets: list[Widget]) -> bool:
    """Whether a click lands where the app says it takes none (a web page's canvas no script listens to for
    clicks: a keyboard game's field is not clicked all over)."""
    first = candidate.actions[0]
    if first.kind not in ("click", "double_click") or first.target is None:
        return False
    return any(not w.handles and w.box.contains(*first.target) for w in widgets)


def key_candidate(key: str, rank: Rank) -> Candidate:
    """A key press, or a shortcut ("ctrl+s") pressed as a chord."""
    if len(key) > 1 and "+" in key:
        return Candidate(f"hotkey:{key}", (Action.hotkey(*split_hotkey(key)),), rank=rank)
    return Candidate(f"key:{key}", (Action.press(key),), rank=rank)


def plain(text: str) -> str:
    """A label as compared with the code's: case, spaces and a trailing colon or ellipsis do not matter."""
    return re.sub(r"[\s.:…]+", " ", text).strip().lower()
