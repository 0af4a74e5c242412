"""The offline tester (policies/heuristic.py): unit level on small simulated apps, end to end on the
detection benchmark's apps (benchmarks/detection/apps) through the real loop, display and vision.

The simulated apps are state machines: each state has its own synthetic frame (noise seeded by the state's
name, so every state is a different picture to the perceptual hash), an input moves between states, and a
move may report new lines of code as coverage would.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from pytest_playtest.actions import Action
from pytest_playtest.expect import Expectation
from pytest_playtest.geometry import Box
from pytest_playtest.policies.base import Observation, PolicyContext
from pytest_playtest.policies.exploration import InputStats, Sequences, Streak, mutate
from pytest_playtest.policies.heuristic import GAME_KEYS, HeuristicPolicy
from pytest_playtest.policies.thresholds import (
    ANIMATED_DEPTH,
    DEPTH,
    EDGE_PUSHES,
    QUIT_AT,
    TOGGLE_EVIDENCE,
    TURN_BACKS,
    UNPAUSE_TRIES,
    WIDGET_PERIOD,
    WIDGET_SHARE,
)
from pytest_playtest.runtime.display import Display
from pytest_playtest.source import Vocabulary
from pytest_playtest.trajectory import Step
from pytest_playtest.vision import Vision, Widget
from pytest_playtest.vision.ocr import TextBox

# -- a simulated app -------------------------------------------------------------------------------------
#: what an action does in a state: the next state and the new lines it reached (None: nothing happens)
Rule = Callable[[str, Action], tuple[str, int] | None]


def frame_of(state: str, size: tuple[int, int] = (160, 120)) -> np.ndarray:
    rng = np.random.default_rng(zlib.crc32(state.encode()))
    blocks = rng.integers(0, 256, size=(8, 9, 3), dtype=np.uint8)
    return np.kron(blocks, np.ones((size[1] // 8, size[0] // 9 + 1, 1), dtype=np.uint8))[:size[1], :size[0]]


class FakeVision:
    """Widgets for the frames of the simulated app (no OCR: the frames are noise): the same everywhere, or
    per state (the frame's key)."""

    def __init__(self, widgets: list[Widget] | None = None, by_state: dict[str, list[Widget]] | None = None) -> None:
        self.found = widgets or []
        self.by_state = by_state or {}
        self.asked = 0

    def widgets(self, frame: np.ndarray, key: str | None = None) -> list[Widget]:
        self.asked += 1
        return list(self.by_state.get(key or "", self.found))

    def read(self, frame: np.ndarray, key: str | None = None) -> list[TextBox]:
        return []  # (noise frames show no text)


@dataclass
class SimApp:
    rule: Rule
    state: str = "start"
    launch: int = 1
    vision: Any = field(default_factory=FakeVision)
    steps: list[Step] = field(default_factory=list)
    coverage: bool = False
    self_changing: bool = False
    resting: frozenset[str] = frozenset()  # states whose picture stands still even in a self-changing app
    seconds_per_step: float = 0.0  # how long a step takes (the clock stands still by default)
    texts: dict[str, str] = field(default_factory=dict)  # what the screen says in a state (read by the loop)
    text_lag: int = 0  # how many steps the reading of the screen's text lags (a background OCR on a busy machine)
    motion_lag: int = 0  # how many looks the motion watch takes to see a picture that rested move again
    text_every: int = 1  # the screen's text is read anew every this many steps (an OCR pass takes seconds)
    scene_kept: bool = False  # a self-changing state looks alike at every look (a game going on), not all new

    def play(self, policy: HeuristicPolicy, count: int) -> list[Action]:
        for _ in range(count):
            self.step(policy)
        return [s.action for s in self.steps]

    def step(self, policy: HeuristicPolicy) -> Step:
        if self.self_changing and self.state.split("~")[0] not in self.resting:
            self.state = self.state.split("~")[0] + f"~{len(self.steps)}"  # a new picture at every look
        now = len(self.steps) * self.seconds_per_step
        shown = self.state.split("~")[0] if self.scene_kept else self.state
        observation = Observation(step=len(self.steps) + 1, frame=frame_of(shown), frame_hash=self.state,
                                  elapsed=now, history=self.steps, vision=self.vision, launch=self.launch,
                                  stopped_at=self._stopped_at(), seen_text=self._seen_text(),
                                  text_read_at=self._read_at())
        decision = policy.decide(observation)
        action = decision.action
        before = self.state
        outcome = self.rule(before.split("~")[0], action)
        lines = 0
        if outcome is not None:
            self.state, lines = outcome
        changed = self.state != before
        step = Step(index=len(self.steps) + 1, action=action, before_hash=before, after_hash=self.state,
                    changed=changed, changed_fraction=0.3 if changed else 0.0,
                    new_lines=lines if self.coverage else None, launch=self.launch, note=decision.note,
                    started=now)
        self.steps.append(step)
        policy.record(step)
        return step

    def _read_at(self) -> int:
        """The step after which the frame last read was taken: ``text_lag`` steps ago, every ``text_every``."""
        read_at = max(len(self.steps) - self.text_lag, 0)
        return read_at - read_at % self.text_every

    def _seen_text(self) -> str:
        """What the screen said when the frame last read was taken."""
        read_at = self._read_at()
        shown = self.steps[read_at - 1].after_hash if read_at else self.steps[0].before_hash if self.steps \
            else self.state
        return self.texts.get(shown.split("~")[0], "")

    def _stopped_at(self) -> float | None:
        """As the loop's motion watch tells: when a self-changing app came to rest (half a step after the one
        that put it there: its next frame was due then)."""
        lately = [s.before_hash.split("~")[0] for s in self.steps[len(self.steps) - self.motion_lag:]]
        if not self.self_changing or self.state.split("~")[0] not in self.resting and \
                not any(state in self.resting for state in lately):
            return None
        rested = next(s for s in reversed(self.steps) if s.before_hash.split("~")[0] not in self.resting)
        return rested.started + self.seconds_per_step / 2


def context(vocabulary: Vocabulary | None = None, *, seed: int = 0, max_steps: int = 150, coverage: bool = False,
            strategy: str = "coverage", expectations: list[Expectation] | None = None) -> PolicyContext:
    return PolicyContext(strategy=strategy, goal="", expectations=expectations or [], seed=seed,
                         max_steps=max_steps, timeout=60.0, window=(160, 120), vocabulary=vocabulary,
                         coverage=coverage)


def keys_of(actions: list[Action]) -> list[str]:
    return [a.key or "" for a in actions if a.kind in ("press", "hold")]


def line_walk(length: int = 4) -> Rule:
    """A corridor of ``length + 1`` cells: left/right move along it and stop at its ends (nothing
    happens there); the first visit of a cell reaches one new line."""
    seen: set[int] = set()

    def rule(state: str, action: Action) -> tuple[str, int] | None:
        cell = 0 if state == "start" else int(state[1:])
        step = {"left": -1, "right": 1}.get(action.key or "", 0) if action.kind == "press" else 0
        target = cell + step
        if not step or not 0 <= target <= length:
            return None
        fresh = target not in seen
        seen.add(target)
        return f"c{target}", int(fresh)

    return rule


WASD = Vocabulary(keys=("w", "a", "s", "d", "r", "escape"), quit_keys=("escape",))


# -- the inputs it tries -----------------------------------------------------------------------------
def test_vocabulary_keys_are_tried_not_the_generic_ones() -> None:
    app = SimApp(lambda state, action: None)
    actions = app.play(HeuristicPolicy(context(WASD)), 60)
    assert set(keys_of(actions)) <= {"w", "a", "s", "d", "r"}
    assert {"w", "a", "s", "d", "r"} <= set(keys_of(actions))
    assert not app.vision.asked  # a keyboard-only app: vision is never asked for widgets


def test_without_a_vocabulary_the_generic_keys_are_tried() -> None:
    for vocabulary in (None, Vocabulary()):
        actions = SimApp(lambda state, action: None).play(HeuristicPolicy(context(vocabulary)), 30)
        assert set(GAME_KEYS) <= set(keys_of(actions))


def test_the_quit_key_is_pressed_once_and_only_late() -> None:
    app = SimApp(lambda state, action: None)
    actions = app.play(HeuristicPolicy(context(WASD, max_steps=150)), 150)
    quits = [i + 1 for i, a in enumerate(actions) if a.key == "escape"]
    assert len(quits) == 1 and quits[0] >= QUIT_AT * 150


def test_after_the_quit_and_a_relaunch_the_app_is_played_on_without_quitting_again() -> None:
    app = SimApp(line_walk(6))
    policy = HeuristicPolicy(context(Vocabulary(keys=("right", "left", "q"), quit_keys=("q",)), max_steps=60))
    while not any(s.action.key == "q" for s in app.steps):
        app.step(policy)
    app.launch, app.state = 2, "start"  # the quit key worked: the loop launched the app again
    keys = keys_of(app.play(policy, 60))
    assert keys.count("q") == 1 and policy.launch == 2
    assert policy.notebook.memory.stats["key:right"].tries > 1  # still played, with what it learned


def test_the_quit_key_is_left_alone_when_the_app_must_stay_alive() -> None:
    policy = HeuristicPolicy(context(WASD, expectations=[Expectation("alive")]))
    assert "escape" not in keys_of(SimApp(lambda state, action: None).play(policy, 150))


def test_hotkeys_right_clicks_drags_and_fields_come_from_the_vocabulary() -> None:
    vocabulary = Vocabulary(keys=("enter",), hotkeys=("ctrl+s", "ctrl+q"), quit_keys=("ctrl+q",),
                            buttons=("left", "right"), drags=True, typing=True, texts=("Add", "Quit"),
                            quit_texts=("Quit",))
    widgets = [Widget(Box(10, 10, 40, 20), "button", "Add"), Widget(Box(60, 10, 80, 20), "field"),
               Widget(Box(10, 60, 40, 20), "text", "Quit"), Widget(Box(60, 60, 40, 20), "text", "km")]
    app = SimApp(lambda state, action: None, vision=FakeVision(widgets))
    actions = app.play(HeuristicPolicy(context(vocabulary, max_steps=400)), 120)
    kinds = Counter(a.kind for a in actions)
    assert kinds["right_click"] and kinds["drag"] and kinds["type_text"]
    assert Action.hotkey("ctrl", "s") in actions and Action.hotkey("ctrl", "q") not in actions
    assert Action.click(30, 20) in actions  # the Add button
    assert Action.click(80, 70) in actions  # a text in an app with labelled controls: a radio button's label
    assert Action.click(30, 70) not in actions  # Quit
    typed = {a.text for a in actions if a.kind == "type_text"}
    assert {"hello", "12"} <= typed
    after_typing = [actions[i + 1] for i, a in enumerate(actions[:-1]) if a.kind == "type_text"]
    # the app handles Enter: a field submits with it, or the form with its button
    assert set(after_typing) == {Action.press("enter"), Action.click(30, 20)}


def test_a_form_is_sent_with_the_button_beside_its_field() -> None:
    # a to-do list: Add beside the field sends it; a row's Delete further down is not the form's
    field, add = Widget(Box(10, 10, 80, 20), "field"), Widget(Box(96, 10, 40, 20), "button", "Add")
    delete = Widget(Box(96, 60, 40, 20), "button", "Delete")
    vocabulary = Vocabulary(buttons=("left",), typing=True, texts=("Add", "Delete"))
    app = SimApp(lambda s, a: None, vision=FakeVision([field, add, delete]))
    actions = app.play(HeuristicPolicy(context(vocabulary)), 60)
    # what each attempt typed into the field ended with (the form's button, or nothing when the app takes no Enter)
    sent = {attempt[-1] for attempt in attempts(app.steps) if any(a.kind == "type_text" for a in attempt)}
    assert Action.click(*add.center) in sent and Action.click(*delete.center) not in sent
    assert Action.click(*delete.center) in actions  # still pressed on its own


def test_a_menu_entry_is_clicked_once_the_right_click_shows_it() -> None:
    # right-clicking the text opens a menu (a new picture over the same screen) holding "Sort lines"
    entry = Widget(Box(60, 60, 60, 16), "text", "Sort lines")

    def rule(state: str, action: Action) -> tuple[str, int] | None:
        if action.kind == "right_click":
            return "menu", 2
        if action.kind == "click" and state == "menu":
            return ("sorted" if action.target == entry.center else "start"), 3
        return None

    vocabulary = Vocabulary(buttons=("left", "right"), texts=("Sort lines",))
    app = SimApp(rule, vision=FakeVision(by_state={"menu": [entry]}))
    actions = app.play(HeuristicPolicy(context(vocabulary)), 12)
    opened = next(i for i, s in enumerate(app.steps) if s.after_hash == "menu")
    assert actions[opened + 1] == Action.click(*entry.center)


def test_buttons_of_a_toolkit_come_before_the_cells_of_a_drawn_board() -> None:
    cells = [Widget(Box(10 + 30 * i, 80, 24, 24), "button", str(i)) for i in range(4)]
    submit = Widget(Box(10, 10, 60, 20), "button", "Submit")
    toolkit = Vocabulary(buttons=("left",), texts=("Submit",))
    actions = SimApp(lambda s, a: None, vision=FakeVision([*cells, submit])).play(
        HeuristicPolicy(context(toolkit)), 1)
    assert actions == [Action.click(*submit.center)]
    # a pygame board: numbered cells are not the code's labels, and come in a seeded random order
    board = Vocabulary(buttons=("left", "right"), keys=("space",))
    first = [next(a for a in SimApp(lambda s, a: None, vision=FakeVision(cells)).play(
        HeuristicPolicy(context(board, seed=n)), 3) if a.kind == "click") for n in range(6)]
    assert len({a.target for a in first}) > 1


def filter_form(select: Widget, search: Widget, button: Widget) -> tuple[Rule, dict[str, str]]:
    """A filter form: a list of categories, a search field and a button that lists what both select (the
    field empty: every name matches); the state names what the list shows. Shift+Home selects the field's text
    (its caret is at the end), and BackSpace deletes the selection."""
    form = {"focus": "", "option": "0", "category": "0", "text": "", "selected": ""}

    def rule(state: str, action: Action) -> tuple[str, int] | None:
        if action.kind == "click":
            form["focus"] = {select.center: "select", search.center: "field"}.get(action.target or (0, 0), "")
            if action.target == button.center:
                return f"shows:{form['category']}:{form['text']}", 1
        elif form["focus"] == "select" and action.kind == "press":
            moved = {"home": 0, "down": int(form["option"]) + action.times}.get(action.key or "")
            form["option"] = str(moved) if moved is not None else form["option"]
            form["category"] = form["option"] if action.key == "enter" else form["category"]
        elif form["focus"] == "field" and action.kind == "hotkey" and action.keys == ("shift", "home"):
            form["selected"] = form["text"]
        elif form["focus"] == "field" and action.kind == "press" and action.key == "backspace":
            kept = 0 if form["selected"] else max(len(form["text"]) - action.times, 0)
            form["text"], form["selected"] = form["text"][:kept], ""
        elif form["focus"] == "field" and action.kind == "type_text":
            form["text"] += action.text or ""
        return None

    return rule, form


def attempts(steps: list[Step]) -> list[list[Action]]:
    """The actions of each attempt: a step the tester chose, and the follow-ups it performed with it."""
    found: list[list[Action]] = []
    for step in steps:
        if step.note == "follow-up" and found:
            found[-1].append(step.action)
        else:
            found.append([step.action])
    return found


def test_a_filter_form_is_sent_after_each_choice_with_its_field_empty() -> None:
    select = Widget(Box(10, 10, 60, 20), "choice", "All", options=("All", "Meat", "Soup"))
    search = Widget(Box(10, 40, 60, 20), "field")
    button = Widget(Box(10, 70, 60, 20), "button", "Filter")
    rule, _ = filter_form(select, search, button)
    vocabulary = Vocabulary(buttons=("left",), texts=("Filter",), typing=True)
    app = SimApp(rule, vision=FakeVision([select, search, button]))
    app.play(HeuristicPolicy(context(vocabulary)), 80)
    shown = {s.after_hash for s in app.steps}
    assert {"shows:1:", "shows:2:"} <= shown  # each category listed on its own, whatever was typed before
    assert any(state.startswith("shows:") and not state.endswith(":") for state in shown)  # and a search


# -- depth ---------------------------------------------------------------------------------------------
def pager(length: int) -> Rule:
    """``n`` turns a page until the last one (nothing happens there); each page reaches one new line."""

    def rule(state: str, action: Action) -> tuple[str, int] | None:
        page = 0 if state == "start" else int(state[1:])
        if action.kind != "press" or action.key != "n" or page == length:
            return None
        return f"p{page + 1}", 1

    return rule


def depths(steps: list[Step]) -> list[int]:
    """The repeat counts of the steps a streak repeated ("depth 2" is the second press in a row)."""
    return [int(s.note.split()[1].rstrip(":")) for s in steps if s.note.startswith("depth")]


def test_an_effective_key_is_repeated_until_its_effect_stops() -> None:
    app = SimApp(pager(4))
    keys = keys_of(app.play(HeuristicPolicy(context(Vocabulary(keys=("n", "x")))), 10))
    assert sorted(keys[:2]) == ["n", "x"]  # breadth first: every input once before any is repeated
    # then n, which worked, is pressed while it turns pages, and once more to see it stop at the last one
    repeats = [s.index for s in app.steps if s.note.startswith("depth")]
    assert repeats and repeats == list(range(repeats[0], repeats[-1] + 1)), repeats
    walk = app.steps[repeats[0] - 2:repeats[-1]]  # the press that began it and its repeats
    assert {s.action.key for s in walk} == {"n"} and walk[-1].before_hash == "p4"
    assert [s.changed for s in walk] == [True] * (len(walk) - 1) + [False]


def test_depth_is_bounded_where_the_effect_never_stops() -> None:
    app = SimApp(pager(1000))
    policy = HeuristicPolicy(context(Vocabulary(keys=("n", "x"))))
    while DEPTH not in depths(app.steps) and len(app.steps) < 10 * DEPTH:
        app.step(policy)
    app.play(policy, 2)
    # a walk went to the bound and none beyond it, though every press turned a page
    assert max(depths(app.steps)) == DEPTH, depths(app.steps)
    assert all(s.action.key == "n" and s.changed for s in app.steps if s.note.startswith("depth"))


def test_a_toggle_is_not_repeated_back_and_forth() -> None:
    def toggle(state: str, action: Action) -> tuple[str, int] | None:
        return ("on" if state != "on" else "start", 0) if action.key == "t" else None

    app = SimApp(toggle)
    app.play(HeuristicPolicy(context(Vocabulary(keys=("t", "x")))), 40)
    # on → start → on: the picture the streak began from came back, the streak ends at its second press
    assert depths(app.steps) and set(depths(app.steps)) == {2}, [(s.action.key, s.note) for s in app.steps]


def test_a_key_that_stopped_a_moving_picture_is_pressed_again_and_then_left_alone() -> None:
    """A game that moves by itself until P pauses it: P is pressed again at once, as by a person who saw the
    game stop, and once it showed itself a toggle (twice) it is not used again (a paused game tests nothing), also
    when the motion watch sees the game move again only two looks after P (a busy machine)."""
    def pausable(state: str, action: Action) -> tuple[str, int] | None:
        if action.kind == "press" and action.key == "p":
            return ("paused" if state == "play" else "play"), 0
        return None

    for keys, lag in ((("left", "right", "p"), 0), (("p", "left", "right"), 0), (("left", "right", "p"), 2)):
        app = SimApp(pausable, state="play", self_changing=True, resting=frozenset({"paused"}), seconds_per_step=1,
                     motion_lag=lag, scene_kept=True)
        app.play(HeuristicPolicy(context(Vocabulary(keys=keys), strategy="goal")), 60)
        presses = [s.index for s in app.steps if s.action.key == "p"]
        # each pause undone at the next step; after TOGGLE_EVIDENCE pauses and restarts P is used no more
        assert len(presses) == 2 * TOGGLE_EVIDENCE, (keys, presses)
        assert [s.index for s in app.steps if s.before_hash == "paused"] == presses[1::2], (keys, presses)


def test_the_key_that_starts_a_new_game_after_a_game_over_is_no_pause_key() -> None:
    """A shooter whose game ends by itself every eight steps (the picture stops), often just after Space, its
    fire key; Space on the game-over screen starts a level's intro, a new scene that moves. The stop is
    followed by Space once more, but a new scene is no game that went on where it was: Space stays in play."""
    played = iter(range(10_000))

    def shooter(state: str, action: Action) -> tuple[str, int] | None:
        if state == "play":
            return ("over", 0) if next(played) % 8 == 7 else None
        if state == "over" and action.kind == "press" and action.key == "space":
            return "intro", 0
        return ("play", 0) if state == "intro" else None

    app = SimApp(shooter, state="play", self_changing=True, resting=frozenset({"over"}), seconds_per_step=1,
                 scene_kept=True)
    app.play(HeuristicPolicy(context(Vocabulary(keys=("left", "right", "space")), strategy="goal", max_steps=300)), 300)
    overs_after_space = [s.index for s in app.steps[1:] if s.before_hash.startswith("over")
                         and app.steps[s.index - 2].action.key == "space"]
    assert len(overs_after_space) >= TOGGLE_EVIDENCE  # (the case this is about did come)
    assert any(s.action.key == "space" for s in app.steps[-20:] if s.before_hash.startswith("play"))


def test_a_key_after_which_the_screen_says_paused_is_pressed_again_and_then_left_alone() -> None:
    """Stars move behind the game whether it is paused or not (the motion rule cannot tell), but the screen
    says "PAUSED": the key is pressed again at once, and not used again once the word is gone."""
    def pausable(state: str, action: Action) -> tuple[str, int] | None:
        if action.kind == "press" and action.key == "p":
            return ("paused" if state == "play" else "play"), 0
        return None

    app = SimApp(pausable, state="play", self_changing=True, texts={"paused": "Score: 0\nPAUSED"})
    app.play(HeuristicPolicy(context(Vocabulary(keys=("left", "right", "p")), strategy="goal")), 60)
    presses = [s.index for s in app.steps if s.action.key == "p"]
    assert len(presses) == 2 and presses[1] == presses[0] + 1, presses


def test_a_pause_read_late_is_undone_with_the_key_pressed_before_the_reading() -> None:
    """The screen's text is read two steps late (P is pressed on meanwhile: the stars move either way), and at
    times only every six steps. The key pressed before the frame read says paused is pressed once more; the
    readings of frames from before that press, still paused, are old news; P is not pressed again."""
    def pausable(state: str, action: Action) -> tuple[str, int] | None:
        if action.kind == "press" and action.key == "p":
            return ("paused" if state == "play" else "play"), 0
        return None

    for lag, every in ((2, 1), (2, 6)):  # (read every six steps: the frame read may come long after P)
        app = SimApp(pausable, state="play", self_changing=True, texts={"paused": "Score: 0\nPAUSED"}, text_lag=lag,
                     text_every=every)
        app.play(HeuristicPolicy(context(Vocabulary(keys=("left", "right", "space", "p")), strategy="goal")), 60)
        again = [s.index for s in app.steps if s.note == "again: the screen says it is paused"]
        assert len(again) == 1, (every, [(s.index, s.action.key, s.note) for s in app.steps])
        assert not any(s.action.key == "p" for s in app.steps[again[0]:])
        assert app.state.split("~")[0] == "play"


def test_a_pause_key_is_pressed_again_while_the_screen_still_says_paused_and_else_played_again() -> None:
    """The game misses the first press that should resume it: P is pressed again, out of play meanwhile. A game
    that stays paused whatever is pressed (paused by something else) gets P twice, and P is played again."""
    def missed_once(state: str, action: Action) -> tuple[str, int] | None:
        if action.kind != "press" or action.key != "p":
            return None
        return {"play": ("paused", 0), "paused": ("paused-pressed", 0), "paused-pressed": ("play", 0)}[state]

    texts = {"paused": "PAUSED", "paused-pressed": "PAUSED", "stuck": "PAUSED"}
    app = SimApp(missed_once, state="play", self_changing=True, texts=texts)
    app.play(HeuristicPolicy(context(Vocabulary(keys=("left", "right", "p")), strategy="goal")), 60)
    again = [s.index for s in app.steps if s.note == "again: the screen says it is paused"]
    assert len(again) == 2 and app.state.split("~")[0] == "play", [(s.index, s.action.key, s.note) for s in app.steps]
    assert not any(s.action.key == "p" for s in app.steps[again[-1]:])

    def stuck(state: str, action: Action) -> tuple[str, int] | None:
        return ("stuck", 0) if action.kind == "press" and action.key == "p" else None

    app = SimApp(stuck, state="play", self_changing=True, texts=texts)
    app.play(HeuristicPolicy(context(Vocabulary(keys=("left", "right", "p")), strategy="goal")), 60)
    again = [s.index for s in app.steps if s.note == "again: the screen says it is paused"]
    assert len(again) == UNPAUSE_TRIES, [(s.index, s.action.key, s.note) for s in app.steps]
    assert any(s.action.key == "p" for s in app.steps[again[-1]:])


def test_a_restart_key_is_pressed_again_only_after_a_reading_taken_since() -> None:
    """A game over read late is still on screen at the next steps: one restart key, then play, until a reading
    taken after that key shows whether it worked."""
    def over_until_r(state: str, action: Action) -> tuple[str, int] | None:
        return ("play", 1) if state == "over" and action.key == "r" else None

    app = SimApp(over_until_r, state="over", texts={"over": "GAME OVER press R to restart"}, text_lag=3)
    app.play(HeuristicPolicy(context(WASD, strategy="goal")), 12)
    restarts = [s.index for s in app.steps if s.note == "restart after a loss"]
    assert restarts == [1], [(s.index, s.action.key, s.note) for s in app.steps]


class SlowVision(FakeVision):
    """Widget detection that takes ``seconds`` (an OCR pass on a busy machine); notes the steps it looked at."""

    def __init__(self, seconds: float) -> None:
        super().__init__([Widget(Box(10, 10, 40, 20), "button", "Fire")])
        self.seconds = seconds
        self.looked_at: list[int] = []

    def widgets(self, frame: np.ndarray, key: str | None = None) -> list[Widget]:
        time.sleep(self.seconds)
        self.looked_at.append(int((key or "~0").split("~")[1]))
        return super().widgets(frame, key)


def test_a_moving_game_is_looked_over_for_widgets_no_more_than_a_share_of_the_time() -> None:
    """Each look for widgets costs 0.75 s: the game goes on meanwhile, so once it is seen to move they are
    looked for every 3 s of its time (6 steps of 0.5 s, 7 when the look overran), not every WIDGET_PERIOD."""
    assert 0.75 / WIDGET_SHARE > WIDGET_PERIOD
    vision = SlowVision(0.75)
    app = SimApp(lambda state, action: None, self_changing=True, vision=vision, seconds_per_step=0.5)
    app.play(HeuristicPolicy(context(Vocabulary(keys=("left",), texts=("Fire",)))), 30)
    moving = vision.looked_at[2:]  # (the first two frames: not yet known to move, each a new screen)
    assert len(moving) >= 3 and all(6 <= b - a <= 7 for a, b in itertools.pairwise(moving)), vision.looked_at


def test_a_key_before_a_lull_of_a_moving_game_is_pressed_again_and_stays_in_use() -> None:
    """Every input does nothing for a while (a moving game's inputs look dead now and then): the key pressed
    before that is pressed again, as a pause would be undone; once may be chance, and it is used on."""
    calls = itertools.count()

    def lull(state: str, action: Action) -> tuple[str, int] | None:
        n = next(calls)
        return None if 14 <= n < 22 or action.kind not in ("press", "hold") else (f"s{n}", 0)

    app = SimApp(lull, self_changing=True)
    app.play(HeuristicPolicy(context(Vocabulary(keys=("space", "left", "right")), strategy="goal")), 60)
    undone = [s for s in app.steps if s.note.startswith("undo")]
    assert len(undone) == 1, [(s.index, s.action.key, s.note) for s in app.steps]
    assert any(s.action.key == undone[0].action.key for s in app.steps[undone[0].index + 5:])


def test_an_animating_app_repeats_only_to_a_small_bound() -> None:
    app = SimApp(line_walk(100), self_changing=True)
    app.play(HeuristicPolicy(context(Vocabulary(keys=("right", "left")))), 30)
    depths = [int(s.note.split()[1].rstrip(":")) for s in app.steps if s.note.startswith("depth")]
    assert depths and max(depths) == ANIMATED_DEPTH


def test_movement_keys_are_also_held() -> None:
    actions = SimApp(lambda state, action: None).play(HeuristicPolicy(context(WASD)), 40)
    assert {a.key for a in actions if a.kind == "hold"} == {"w", "a", "s", "d"}
    assert all(0 < a.seconds <= 1 for a in actions if a.kind == "hold")
    letters = Vocabulary(keys=tuple("abcdefghijklmnopqrstuvwxyz"))  # a typing game: w, a, s, d are letters
    typed = SimApp(lambda state, action: None).play(HeuristicPolicy(context(letters)), 60)
    assert not any(a.kind == "hold" for a in typed) and len({a.key for a in typed}) > 20


# -- keep playing --------------------------------------------------------------------------------------
def test_a_key_that_did_nothing_is_tried_again_in_another_state() -> None:
    # "x" works only after "n" (a new game); it is tried first at the start, where it does nothing
    def rule(state: str, action: Action) -> tuple[str, int] | None:
        if action.key == "n" and state == "start":
            return "game", 1
        if action.key == "x" and state.startswith("game"):
            return f"game{len(state)}", 1
        return None

    app = SimApp(rule)
    app.play(HeuristicPolicy(context(Vocabulary(keys=("x", "n")))), 40)
    tries = [(s.before_hash, s.changed) for s in app.steps if s.action.key == "x"]
    assert tries[0] == ("start", False)
    assert any(state.startswith("game") and changed for state, changed in tries[1:])


def test_after_a_walk_to_the_edge_of_a_still_app_the_way_back_is_taken_next() -> None:
    app = SimApp(line_walk(8))
    app.play(HeuristicPolicy(context(Vocabulary(keys=("left", "right", "x")))), 60)
    backs = [(app.steps[i - 1].action.key, s.action.key, s.before_hash) for i, s in enumerate(app.steps)
             if s.note.startswith("the way back")]
    assert backs and len(backs) <= 2 * TURN_BACKS  # each way back a few times a run
    opposite = {"left": "right", "right": "left"}
    assert all(key == opposite[walked] for walked, key, _ in backs)


def test_back_at_a_junction_of_a_still_app_the_ways_not_yet_taken_from_there_come_first() -> None:
    """From the start "w" leads up a long corridor and "r" restarts; "d" works only two cells up (a side way),
    where the first walks up pass without stopping. Back there, what was not tried from there comes first."""

    def rule(state: str, action: Action) -> tuple[str, int] | None:
        cell = 0 if state == "start" else int(state.split("-")[0][1:])
        if action.key == "r" and state != "start":
            return "start", 0
        if action.key == "w" and cell < 9 and "-" not in state:
            return f"c{cell + 1}", 0
        if action.key == "d" and state == "c2":
            return "c2-side", 1
        return None

    app = SimApp(rule)
    app.play(HeuristicPolicy(context(Vocabulary(keys=("w", "d", "r")))), 150)
    own, tried, judged = {"key:w", "key:d", "key:r"}, set[str](), 0
    for s in app.steps:
        if s.before_hash != "c2":
            continue
        name = s.note.rsplit(": ", 1)[-1]  # the input chosen (each of this app's inputs is one action)
        if s.note.startswith(("energy", "not yet")) and tried and own - tried:  # a free choice back there
            assert s.note.startswith("not yet tried from here") and name in own - tried, (s.index, s.note, tried)
            judged += 1
        tried.add(name)
    assert judged  # (the case did come)
    assert any(s.before_hash == "c2" and s.action.key == "d" and s.changed for s in app.steps)


def test_a_dead_key_keeps_a_little_weight() -> None:
    stats = InputStats()
    for _ in range(30):
        stats.update(effect=False, gain=0.0, state="s")
    assert 0 < stats.weight("s") < stats.weight("other") < InputStats().weight("s")


def test_after_a_relaunch_what_works_is_kept_and_the_streak_is_not() -> None:
    app = SimApp(pager(100))
    policy = HeuristicPolicy(context(Vocabulary(keys=("n", "x", "q"), quit_keys=("q",))))
    while not (app.steps and app.steps[-1].note.startswith("depth") and policy.notebook.now.streak is not None):
        assert len(app.steps) < 50, [s.note for s in app.steps]
        app.step(policy)  # until a walk is under way
    worked = policy.notebook.memory.stats["key:n"].effects
    app.launch, app.state = 2, "start"  # the app quit and was started again
    app.play(policy, 1)
    assert policy.launch == 2 and not app.steps[-1].note.startswith("depth")
    assert worked >= 2 and policy.notebook.memory.stats["key:n"].effects >= worked  # what works is remembered


def test_steps_the_loop_inserts_are_not_taken_for_the_policys() -> None:
    app = SimApp(line_walk(4))
    policy = HeuristicPolicy(context(Vocabulary(keys=("right", "left"))))
    app.play(policy, 1)
    foreign = Step(index=2, action=Action.click(5, 5), before_hash="c1", after_hash="c1")
    app.steps.append(foreign)
    policy.record(foreign)  # the loop retried a suspect click on its own
    now = policy.notebook.now
    assert now.streak is not None and now.streak.count == 1 and now.attempt is None


# -- coverage guidance -----------------------------------------------------------------------------------
def productive(key: str) -> Rule:
    """``key`` keeps reaching new code (a new level each time); the others do visible but fruitless things."""
    count = Counter[str]()

    def rule(state: str, action: Action) -> tuple[str, int] | None:
        if action.kind != "press" or not action.key:
            return None
        count[action.key] += 1
        return f"{action.key}{count[action.key] % 2}", (3 if action.key == key else 0)

    return rule


def test_new_lines_raise_an_inputs_weight() -> None:
    vocabulary = Vocabulary(keys=("a", "b", "c", "d"))
    app = SimApp(productive("c"), coverage=True)
    policy = HeuristicPolicy(context(vocabulary, coverage=True))
    keys = Counter(keys_of(app.play(policy, 120)))
    assert policy.notebook.memory.stats["key:c"].energy() > 2 * policy.notebook.memory.stats["key:a"].energy()
    assert keys["c"] > 2 * max(keys["a"], keys["b"], keys["d"]), keys


def test_without_coverage_new_pictures_guide_instead() -> None:
    # "c" shows a new picture every time, the others flip between two
    vocabulary = Vocabulary(keys=("a", "b", "c", "d"))
    count = Counter[str]()

    def rule(state: str, action: Action) -> tuple[str, int] | None:
        if not action.key or action.kind != "press":
            return None
        count[action.key] += 1
        return (f"c{count['c']}" if action.key == "c" else f"{action.key}{count[action.key] % 2}"), 0

    keys = Counter(keys_of(SimApp(rule).play(HeuristicPolicy(context(vocabulary)), 120)))
    assert keys["c"] > 2 * max(keys["a"], keys["b"], keys["d"]), keys


def test_sequences_that_reached_new_code_join_the_corpus_and_mutate() -> None:
    sequences = Sequences()
    sequences.add(["key:a", "key:b", "key:c"], 4)
    assert set(sequences.corpus) == {("key:b", "key:c"), ("key:a", "key:b", "key:c")}
    sequences.add(["key:c", "key:c"], 2)  # one input repeated is depth, not a sequence
    assert ("key:c", "key:c") not in sequences.corpus
    import random

    rng = random.Random(1)
    mutants = {mutate(("key:a", "key:b"), rng, ["key:x"]) for _ in range(30)}
    assert ("key:b", "key:a") in mutants and all(1 < len(m) <= 3 for m in mutants)


def test_effective_inputs_are_replayed_in_new_orders() -> None:
    def rule(state: str, action: Action) -> tuple[str, int] | None:
        return (state + (action.key or "?"))[-2:], 0  # a key pressed twice shows the same picture

    app = SimApp(rule)
    app.play(HeuristicPolicy(context(Vocabulary(keys=("a", "b", "c")))), 80)
    replays = [s.note for s in app.steps if s.note.startswith("sequence")]
    assert replays and any(" → " in note for note in replays)


def test_streaks_stop_when_the_picture_comes_back() -> None:
    streak = Streak(candidate=None, bound=12, seen={"a", "b"})  # type: ignore[arg-type]
    assert streak.goes_on(changed=True, after="c", lines=0, animating=False)
    assert not streak.goes_on(changed=True, after="a", lines=0, animating=False)


# -- reproducibility ----------------------------------------------------------------------------------
def test_the_same_seed_gives_the_same_decisions() -> None:
    def run(seed: int) -> list[Action]:
        return SimApp(productive("s"), coverage=True).play(HeuristicPolicy(context(WASD, seed=seed, coverage=True)),
                                                           100)

    assert run(3) == run(3)
    assert run(3) != run(4)


# -- goal play ---------------------------------------------------------------------------------------
def test_goal_play_uses_the_vocabulary_keys_and_restarts_after_a_loss() -> None:
    policy = HeuristicPolicy(context(WASD, strategy="goal"))
    app = SimApp(lambda state, action: None)
    keys = keys_of(app.play(policy, 60))
    assert set(keys) <= {"w", "a", "s", "d", "r"}
    lost = Observation(step=61, frame=frame_of("over"), frame_hash="over", elapsed=0.0, history=app.steps,
                       vision=app.vision, seen_text="GAME OVER press R to restart")  # type: ignore[arg-type]
    assert policy.decide(lost).action == Action.press("r")


def test_a_key_the_screen_says_to_press_to_play_again_is_pressed_once_each_time_the_line_appears() -> None:
    """A game over's "press R to play again" is followed when it appears, as a person does; a line that stays
    on screen (here R does nothing) is not pressed again and again."""
    def game(restarts: bool) -> Rule:
        def rule(state: str, action: Action) -> tuple[str, int] | None:
            if state == "start" and action.key == "d":
                return "over", 1
            if state == "over" and action.key == "r" and restarts:
                return "start", 0
            return None
        return rule

    texts = {"over": "GAME OVER  Press R to play again"}
    app = SimApp(game(restarts=True), texts=texts)
    app.play(HeuristicPolicy(context(WASD)), 40)
    overs = [s.index for s in app.steps[:-1] if s.after_hash == "over" and s.before_hash != "over"]
    assert len(overs) >= 2
    assert all(app.steps[i].action == Action.press("r") and "screen says" in app.steps[i].note for i in overs)
    stays = SimApp(game(restarts=False), texts=texts)
    stays.play(HeuristicPolicy(context(WASD)), 40)
    assert sum("screen says" in s.note for s in stays.steps) == 1


# -- real frames ----------------------------------------------------------------------------------------
def test_a_real_frame_with_a_button_is_clicked_there(vision: Vision) -> None:
    import cv2

    frame = np.full((200, 320, 3), 255, np.uint8)
    cv2.rectangle(frame, (100, 80), (220, 120), (200, 200, 200), -1)
    cv2.rectangle(frame, (100, 80), (220, 120), (0, 0, 0), 2)
    cv2.putText(frame, "Submit", (118, 108), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 2)
    vocabulary = Vocabulary(buttons=("left",), texts=("Submit",))
    policy = HeuristicPolicy(context(vocabulary))
    observation = Observation(step=1, frame=frame, frame_hash="f", elapsed=0.0, history=[], vision=vision)
    action = policy.decide(observation).action
    assert action.kind == "click" and 100 <= (action.x or 0) <= 220 and 80 <= (action.y or 0) <= 120


# -- end to end: the detection apps through the real loop -----------------------------------------------
#: a correct app that must pass, and bugs that need the vocabulary (WASD only, right click only) and depth
#: (the 4th Left, the 3rd Right in a row on an animating app)
E2E = [("slider", None), ("slider", "edge-index-error"), ("maze", "bottom-edge-index-error"),
       ("mines", "mines-left-plus"), ("dodger", "right-lane-overflow"),
       # a key that does what another key does (its arrow keys also held: the tiles a held key slides are not
       # the app moving by itself), and a crash in the game after the first ("press SPACE to play again")
       ("slider", "right-key-wrong-constant"), ("mines", "right-column-index-error"),
       # a right click its code no longer handles, which its screen says flags a cell
       ("mines", "flag-on-middle-button"),
       # a freeze on a side way of a maze (W, D, D), off the corridor its first walks take; and its correct
       # original, whose Left is a wall in its whole first column
       ("maze", "key-pickup-while"), ("maze", None)]


@pytest.fixture(scope="module")
def display() -> Iterator[Display]:
    screen = Display((800, 600))
    screen.start()
    yield screen
    screen.stop()


@pytest.mark.parametrize(("app", "bug"), E2E, ids=[f"{a}-{b or 'correct'}" for a, b in E2E])
def test_detection_app(display: Display, vision: Vision, tmp_path: Path, app: str, bug: str | None) -> None:
    detection = _detection_benchmark()
    case = detection.Case(app, bug or detection.CORRECT, "heuristic")
    verdict = detection.session(case, display, vision, tmp_path).verdict
    if bug is None:
        assert verdict.passed, verdict.summary()
    else:
        kind = next(b["kind"] for b in detection.manifest(app)["bugs"] if b["name"] == bug)
        assert kind in verdict.kinds(), verdict.summary()


def _detection_benchmark() -> ModuleType:
    """benchmarks/detection/run.py, whose apps, bug variants and runs the test shares."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "detection" / "run.py"
    spec = importlib.util.spec_from_file_location("detection_run", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_movement_key_of_a_moving_game_is_pushed_to_the_edge() -> None:
    """The game's own motion hides whether a lane change worked: the key is pressed on to the field's edge
    anyway, a few times a run, where off-by-one slips live."""
    app = SimApp(lambda state, action: None, self_changing=True)
    app.play(HeuristicPolicy(context(Vocabulary(keys=("right", "space")))), 40)
    # no press shows an effect: the walks are the pushes, each to the bound, EDGE_PUSHES of them, of Right only
    edges = [s.action for s in app.steps if s.note.startswith(f"depth {ANIMATED_DEPTH}:")]
    assert edges == [Action.press("right")] * EDGE_PUSHES, [(s.action.key, s.note) for s in app.steps]
    assert max(depths(app.steps)) == ANIMATED_DEPTH


class LettersShown(FakeVision):
    """A typing game's screen: falling letters read as one-letter words."""

    def __init__(self, letters: str) -> None:
        super().__init__()
        self.letters = letters

    def read(self, frame: np.ndarray, key: str | None = None) -> list[TextBox]:
        return [TextBox(letter, Box(10 + 20 * i, 10, 10, 14), 0.9) for i, letter in enumerate(self.letters)]


def test_a_typing_game_is_played_by_typing_the_letters_it_shows_and_not_a_misread_one() -> None:
    """x vanishes when typed (a new one falls); the q read on screen is a misreading: typed once to no
    effect, it is not typed again until the screen is read anew."""
    typed = Counter[str]()

    def rule(state: str, action: Action) -> tuple[str, int] | None:
        typed[action.key or ""] += 1
        return (f"x{typed['x']}", 0) if action.key == "x" else None

    app = SimApp(rule, vision=LettersShown("qx"))
    letters = Vocabulary(keys=tuple("abcdefghijklmnopqrstuvwxyz"))
    keys = Counter(keys_of(app.play(HeuristicPolicy(context(letters)), 60)))
    assert keys["x"] > 10, keys
    # typed because the screen shows it: only what it shows, and q at most once (the clock stands still: it is
    # never read anew)
    shown = [s.action.key for s in app.steps if s.note.startswith("a key the screen shows")]
    assert shown and set(shown) <= {"q", "x"} and shown.count("q") <= 1, shown
