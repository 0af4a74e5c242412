"""The heuristic tester's skills one by one (policies/modes.py, restarts.py, prompts.py, depth.py, shown.py,
steering.py, pairing.py, tools.py): each asked directly with a notebook, an observation of a synthetic frame and a turn,
the way HeuristicPolicy asks it. tests/test_heuristic.py plays the skills together on simulated apps.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from pytest_playtest.actions import Action
from pytest_playtest.geometry import Box
from pytest_playtest.policies.base import Decision, Observation
from pytest_playtest.policies.depth import Depth
from pytest_playtest.policies.exploration import WAIT, Candidate, InputStats, Rank
from pytest_playtest.policies.inputs import InputCatalog, key_candidate
from pytest_playtest.policies.modes import Modes
from pytest_playtest.policies.notebook import Attempt, Notebook, ScreenMemory, Tried
from pytest_playtest.policies.pairing import Pairing
from pytest_playtest.policies.prompts import ANY_KEY, PromptFollower
from pytest_playtest.policies.restarts import FALLBACK_RESTART_KEYS, RESTART_KEYS, Restarts
from pytest_playtest.policies.shown import ShownKeys
from pytest_playtest.policies.skill import Choice, Turn
from pytest_playtest.policies.steering import Steering
from pytest_playtest.policies.suspects import Suspects
from pytest_playtest.policies.thresholds import (
    ALIKE,
    ANIMATED_DEPTH,
    DECK,
    DEPTH,
    EDGE_PUSHES,
    MARGIN,
    MIN_MOVE,
    MODE_PROBE,
    POINTER_DEPTH,
    REACH,
    READ_SOONER,
    RESTART_LOOKS,
    SCORE_GAIN,
    SELF_CHANGE_LOOKS,
    SELF_CHANGED,
    SHORT_WALKS,
    SUSPECT_AFTER,
    SUSPECT_SHARE,
    SUSPECT_TRIES,
    TOGGLE_EVIDENCE,
    TOOL_ROUNDS,
    TURN_BACKS,
    TURNING_WAITS,
    UNPAUSE_TRIES,
    WIDGET_PERIOD,
    WORKED_BEFORE,
)
from pytest_playtest.policies.tools import USING, Tools
from pytest_playtest.source import Vocabulary
from pytest_playtest.trajectory import Step
from pytest_playtest.vision import Widget
from pytest_playtest.vision.motion import Mover
from pytest_playtest.vision.ocr import TextBox


# -- what a skill is asked with ----------------------------------------------------------------------------
def frame_of(state: str, size: tuple[int, int] = (160, 120)) -> np.ndarray:
    """A picture of its own for each state: coloured blocks seeded by the state's name."""
    rng = np.random.default_rng(zlib.crc32(state.encode()))
    blocks = rng.integers(0, 256, size=(8, 9, 3), dtype=np.uint8)
    return np.kron(blocks, np.ones((size[1] // 8, size[0] // 9 + 1, 1), dtype=np.uint8))[:size[1], :size[0]]


def blank(size: tuple[int, int] = (160, 120)) -> np.ndarray:
    """A window of one colour (a video mode the display cannot show)."""
    return np.zeros((size[1], size[0], 3), np.uint8)


class Words:
    """A vision whose OCR reads the given words, one text box each (no widgets)."""

    def __init__(self, *words: str) -> None:
        self.words = list(words)

    def read(self, frame: np.ndarray, key: str | None = None) -> list[TextBox]:
        return [TextBox(word, Box(10 + 30 * i, 10, 20, 14), 0.9) for i, word in enumerate(self.words)]

    def widgets(self, frame: np.ndarray, key: str | None = None) -> list[Widget]:
        return []


def look(step: int, history: list[Step], frame: np.ndarray | None = None, vision: Any = None,
         **seen: Any) -> Observation:
    """The window before step ``step`` (``history`` holds the steps done before it)."""
    screen: Any = vision or Words()
    return Observation(step=step, frame=frame_of("play") if frame is None else frame, frame_hash=f"f{step}",
                       elapsed=seen.pop("elapsed", 0.0), history=history, vision=screen, **seen)


def pressed(index: int, key: str) -> Step:
    """Step ``index`` pressed ``key`` (it started ``index`` seconds into the run)."""
    return Step(index=index, action=Action.press(key), started=float(index))


def notebook(*keys: str, moving: bool = False) -> Notebook:
    """A fresh notebook that knows the inputs pressing ``keys``; ``moving``: the picture is seen to change by
    itself (a real-time game)."""
    book = Notebook(random.Random(0))
    for key in keys:
        candidate = key_candidate(key, Rank.KEY)
        book.memory.known[candidate.name] = candidate
    if moving:
        book.self_changes.extend([True] * SELF_CHANGE_LOOKS)
        assert book.animating and SELF_CHANGE_LOOKS >= SELF_CHANGED
    return book


def action_of(move: Decision | Choice | None) -> Action | None:
    if move is None:
        return None
    return move.action if isinstance(move, Decision) else move.candidate.actions[0]


# -- modes: a blanked window, a pause the screen names, a stopped picture, a mode after which nothing works -----
def test_a_key_that_blanked_the_window_is_pressed_once_more_and_retired() -> None:
    book = notebook("f", "left")
    modes = Modes(book)
    history = [pressed(1, "left")]
    assert modes.propose(Turn(look(2, history))) is None  # a picture: nothing to undo
    history.append(pressed(2, "f"))
    book.now.finished = "key:f"
    book.memory.stats["key:f"] = InputStats(tries=1, effects=1)
    undo = modes.propose(Turn(look(3, history, blank())))
    assert action_of(undo) == Action.press("f")
    assert "key:f" in book.memory.disruptive and "key:f" not in book.memory.effective()
    history.append(pressed(3, "f"))
    assert modes.propose(Turn(look(4, history, blank()))) is None  # still blank: not pressed on and on


def test_a_window_blank_from_the_start_or_blanked_by_a_click_is_not_undone_with_a_key() -> None:
    book = notebook("f")
    modes = Modes(book)
    book.now.finished = "key:f"
    history = [pressed(1, "f")]
    assert modes.propose(Turn(look(2, history, blank()))) is None  # it never showed a picture
    history.append(pressed(2, "left"))
    assert modes.propose(Turn(look(3, history))) is None  # now it shows one
    history.append(Step(index=3, action=Action.click(10, 10)))
    book.now.finished = "click@10,10"
    assert modes.propose(Turn(look(4, history, blank()))) is None
    assert not book.memory.disruptive


def test_a_key_after_which_the_screen_says_paused_is_pressed_again_then_the_suspect_before_it() -> None:
    """The frame read after step 3 says PAUSED: of the keys pressed before it, the last that is no movement key
    (P) is pressed again and kept out of play. While readings taken after that still say paused it is pressed
    again, UNPAUSE_TRIES times in all; then P was no pause key: it is played again and X, before it, is tried."""
    book = notebook("x", "p", "left")
    modes = Modes(book)
    history = [pressed(1, "x"), pressed(2, "p"), pressed(3, "left")]
    presses = [action_of(modes.propose(Turn(look(4, history, seen_text="Score 3\nPAUSED", text_read_at=3))))]
    assert presses == [Action.press("p")] and "key:p" in book.memory.disruptive
    while len(presses) < UNPAUSE_TRIES + 1:
        history.append(Step(index=len(history) + 1, action=presses[-1] or Action.wait(0.1),
                            started=len(history) + 1.0))
        paused = look(len(history) + 1, history, seen_text="PAUSED", text_read_at=len(history))
        presses.append(action_of(modes.propose(Turn(paused))))
    assert presses == [Action.press("p")] * UNPAUSE_TRIES + [Action.press("x")]
    assert "key:p" not in book.memory.disruptive and "key:x" in book.memory.disruptive


def test_a_paused_reading_is_judged_once_and_a_movement_key_is_no_pause_key() -> None:
    book = notebook("p", "left", "up")
    modes = Modes(book)
    history = [pressed(1, "left"), pressed(2, "p")]
    assert action_of(modes.propose(Turn(look(3, history, seen_text="PAUSED", text_read_at=2)))) == Action.press("p")
    history.append(pressed(3, "p"))
    # the same reading again (the OCR lags): old news, P is not pressed once more for it
    assert modes.propose(Turn(look(4, history, seen_text="PAUSED", text_read_at=2))) is None
    # a reading that no longer says paused: the pause is over
    assert modes.propose(Turn(look(5, history, seen_text="Score 3", text_read_at=3))) is None
    assert modes.unpausing is None
    moved = Modes(notebook("left", "up"))
    only_moves = [pressed(1, "left"), pressed(2, "up")]
    assert moved.propose(Turn(look(3, only_moves, seen_text="PAUSED", text_read_at=2))) is None


def stop_and_go(modes: Modes, history: list[Step], after: np.ndarray, key: str = "p") -> Decision | None:
    """One pause of a moving game: a look at it, ``key`` pressed, the picture stops at the next look and the
    skill answers; its answer is performed, the next look shows ``after``, and the game is played a step.
    The answer to the stop."""
    def asked(observation: Observation) -> Decision | None:
        modes.notice(observation)
        return modes.propose(Turn(observation))

    step = len(history) + 1
    assert asked(look(step, history, frame_of("play"))) is None
    history.append(pressed(step, key))
    answer = asked(look(step + 1, history, frame_of("play"), stopped_at=step + 0.5))
    history.append(Step(index=step + 1, action=action_of(answer) or Action.wait(0.1), started=step + 1.0))
    assert asked(look(step + 2, history, after)) is None
    history.append(pressed(step + 2, "left"))
    return answer


def test_a_key_that_stopped_a_moving_picture_is_pressed_again_and_retired_once_the_game_went_on_twice() -> None:
    book = notebook("p", "left")
    modes = Modes(book)
    history = [pressed(1, "left")]
    for _ in range(TOGGLE_EVIDENCE):
        assert "key:p" not in book.memory.disruptive  # (once may be chance)
        assert action_of(stop_and_go(modes, history, after=frame_of("play"))) == Action.press("p")
    assert "key:p" in book.memory.disruptive


def test_a_key_after_which_a_new_scene_moves_is_no_pause_key() -> None:
    """Space on a game-over screen starts a level's intro: the picture moves again, but not where it was."""
    book = notebook("space", "left")
    modes = Modes(book)
    history = [pressed(1, "left")]
    for _ in range(TOGGLE_EVIDENCE + 1):
        assert action_of(stop_and_go(modes, history, after=frame_of("intro"), key="space")) == Action.press("space")
    assert "key:space" not in book.memory.disruptive


def test_after_a_stop_is_undone_the_picture_is_waited_for_restart_looks_at_most_and_the_key_not_pressed_on() -> None:
    modes = Modes(notebook("p", "left"))
    history = [pressed(1, "left"), pressed(2, "p")]
    assert action_of(modes.propose(Turn(look(3, history, stopped_at=2.5)))) == Action.press("p")
    history.append(pressed(3, "p"))
    answers = []
    for step in range(4, 4 + RESTART_LOOKS + 2):  # the picture never moves again
        answer = modes.propose(Turn(look(step, history, stopped_at=2.5)))
        answers.append(action_of(answer))
        history.append(Step(index=step, action=action_of(answer) or Action.wait(0.1), started=float(step)))
    assert answers == [WAIT.actions[0]] * RESTART_LOOKS + [None, None]


class Lull:
    """Attempts logged into a notebook, each at a look of its own showing a scene (``play``, ``paused``...)."""

    def __init__(self, book: Notebook, modes: Modes) -> None:
        self.book, self.modes, self.step = book, modes, 0

    def tried(self, name: str, effect: bool, scene: str = "play") -> None:
        self.step += 1
        self.modes.notice(look(self.step, [], frame_of(scene)))
        self.book.memory.log.append(Tried(name, effect, "press", self.step))

    def propose(self) -> Decision | None:
        move = self.modes.propose(Turn(look(self.step + 1, [])))
        assert move is None or isinstance(move, Decision)
        return move


def _pause_and_undo(lull: Lull, *, after: str) -> None:
    """The game works, P is pressed, nothing works (paused), P is pressed again, and inputs work in ``after``."""
    for _ in range(WORKED_BEFORE):
        lull.tried("key:left", True)
        lull.tried("key:right", True)
    lull.tried("key:p", True)
    for _ in range(MODE_PROBE - 1):
        lull.tried("key:left", False, "paused")
    assert lull.propose() is None  # not yet MODE_PROBE attempts in vain
    lull.tried("key:right", False, "paused")
    assert action_of(lull.propose()) == Action.press("p")
    lull.tried("key:left", True, after)
    assert lull.propose() is None


def test_a_key_after_which_nothing_works_in_a_moving_game_is_pressed_again_and_retired_the_second_time() -> None:
    book = notebook("p", "left", "right", moving=True)
    lull = Lull(book, Modes(book))
    for _ in range(TOGGLE_EVIDENCE):
        assert "key:p" not in book.memory.disruptive
        _pause_and_undo(lull, after="play")  # the game went on where it was: P seemed a toggle
    assert "key:p" in book.memory.disruptive


def test_a_key_after_which_inputs_work_again_in_a_new_scene_is_no_toggle() -> None:
    book = notebook("p", "left", "right", moving=True)
    lull = Lull(book, Modes(book))
    for round_ in range(TOGGLE_EVIDENCE + 1):
        _pause_and_undo(lull, after=f"new game {round_}")  # (a game over, then a new game: no going on)
    assert "key:p" not in book.memory.disruptive


def test_a_key_before_a_lull_is_pressed_again_and_stays_in_play_when_nothing_works_after_that_either() -> None:
    book = notebook("space", "left", moving=True)
    modes = Modes(book)
    lull = Lull(book, modes)
    for _ in range(WORKED_BEFORE):
        lull.tried("key:left", True)
    lull.tried("key:space", True)
    for _ in range(MODE_PROBE):
        lull.tried("key:left", False, "over")
    assert action_of(lull.propose()) == Action.press("space")
    for _ in range(MODE_PROBE):  # nothing works after it either (a game over): it was no toggle
        lull.tried("key:left", False, "over")
        assert lull.propose() is None
    assert "key:space" not in book.memory.disruptive and modes.toggled is None


def test_in_a_still_app_a_key_after_which_little_works_is_not_undone() -> None:
    book = notebook("enter", "left")
    lull = Lull(book, Modes(book))
    for _ in range(WORKED_BEFORE):
        lull.tried("key:left", True)
    lull.tried("key:enter", True)
    for _ in range(MODE_PROBE):
        lull.tried("key:left", False, "form")  # (a screen where little works)
    assert lull.propose() is None


# -- restarts: goal play after a loss, and a score that rose -------------------------------------------------
def restarts(*keys: str) -> tuple[Notebook, Restarts]:
    book = notebook(*keys)
    return book, Restarts(book, InputCatalog(Vocabulary(keys=keys)))


def test_a_loss_on_screen_gives_a_restart_key_once_per_reading_since_the_last_restart() -> None:
    _, skill = restarts("left", "right", "r")
    lost = "GAME OVER"
    assert action_of(skill.propose(Turn(look(5, [], seen_text=lost, text_read_at=4)))) == Action.press("r")
    # readings of frames taken before that key still show the loss: whether it worked is not known yet
    assert skill.propose(Turn(look(6, [], seen_text=lost, text_read_at=4))) is None
    assert skill.propose(Turn(look(7, [], seen_text=lost, text_read_at=4))) is None
    # a reading taken after it still shows the loss: once more, and once only for that reading
    assert action_of(skill.propose(Turn(look(8, [], seen_text=lost, text_read_at=5)))) == Action.press("r")
    assert skill.propose(Turn(look(9, [], seen_text=lost, text_read_at=5))) is None
    assert skill.propose(Turn(look(10, [], seen_text="Score: 0", text_read_at=9))) is None  # playing again


@pytest.mark.parametrize("keys", [("left", "space"), ("left", "enter", "r"), ("left", "right")])
def test_the_restart_key_is_one_the_app_reads_else_one_games_commonly_use(keys: tuple[str, ...]) -> None:
    _, skill = restarts(*keys)
    action = action_of(skill.propose(Turn(look(1, [], seen_text="You lose!"))))
    assert action is not None and action.kind == "press"
    assert action.key in ([k for k in RESTART_KEYS if k in keys] or FALLBACK_RESTART_KEYS)


def test_a_rising_score_credits_the_recent_inputs_and_no_others() -> None:
    book, skill = restarts("left", "right", "space")
    stats = {name: book.memory.stats.setdefault(name, InputStats()) for name in ("key:left", "key:right", "key:space")}
    book.now.recent = ["key:left", "key:right"]

    def gains(text: str) -> dict[str, float]:
        assert skill.propose(Turn(look(1, [], seen_text=text))) is None
        return {name: s.gain for name, s in stats.items()}

    nothing = {name: 0.0 for name in stats}
    assert gains("Score: 10") == nothing  # the first reading: nothing to compare with
    assert gains("Score: 10") == nothing  # the same score
    assert gains("Score: 30") == {"key:left": SCORE_GAIN, "key:right": SCORE_GAIN, "key:space": 0.0}
    assert gains("Score: 5")["key:left"] == SCORE_GAIN  # a score that fell (a new game) credits nothing


# -- prompts: the key a line on screen says to press to play ---------------------------------------------------
def prompted(follower: PromptFollower, text: str, widgets: Sequence[Widget] = ()) -> Action | None:
    turn = Turn(look(1, [], seen_text=text), screen=ScreenMemory(signature=0, index=0, widgets=list(widgets)))
    return action_of(follower.propose(turn))


def test_a_prompt_is_followed_once_when_it_appears_not_while_it_stays() -> None:
    book = notebook("left", "right", "space")
    follower = PromptFollower(book, InputCatalog(Vocabulary(keys=("left", "right", "space"))))
    over = "GAME OVER\nPress SPACE to play again"
    assert prompted(follower, "Score 3") is None
    assert prompted(follower, over) == Action.press("space")
    assert prompted(follower, over) is None  # it stays (the key did nothing yet): not pressed on and on
    assert prompted(follower, "Score 0") is None
    assert prompted(follower, over) == Action.press("space")  # it appears again
    follower.forget()  # the app was launched again: its title screen's prompt is new
    assert prompted(follower, over) == Action.press("space")


def test_a_prompt_is_read_on_widgets_too_and_any_key_is_one_the_app_reads() -> None:
    keys = ("left", "enter")
    follower = PromptFollower(notebook(*keys), InputCatalog(Vocabulary(keys=keys)))
    title = Widget(Box(10, 10, 120, 20), "text", "Hit ENTER to start")
    assert prompted(follower, "", [title]) == Action.press("enter")
    anykey = PromptFollower(notebook(*keys), InputCatalog(Vocabulary(keys=keys)))
    assert prompted(anykey, "press any key to begin") == Action.press(next(k for k in ANY_KEY if k in keys))


@pytest.mark.parametrize(("text", "key"), [("Press [ENTER] To Begin", "enter"), ("press <R> to restart", "r"),
                                           ("Hit '1' to start", "1"), ("Press 1 for a single player game.", "1"),
                                           ("Press 0 to watch the computer play itself.", "0")])
def test_a_prompt_may_frame_its_key_in_brackets_or_quotes(text: str, key: str) -> None:
    follower = PromptFollower(notebook("enter"), InputCatalog(Vocabulary(keys=("enter", "r", "1", "0"))))
    assert prompted(follower, text) == Action.press(key)


@pytest.mark.parametrize("text", ["Q to quit", "Press P to pause", "Arrows: move  Space: fire", "press space",
                                  "or [Q] To Quit", "press q to quit the game", "Press M to mute the game"])
def test_a_line_that_names_no_start_is_no_prompt(text: str) -> None:
    follower = PromptFollower(notebook("space"), InputCatalog(Vocabulary(keys=("space", "p", "q"))))
    assert prompted(follower, text) is None


def test_a_prompted_key_that_disrupted_the_app_is_not_pressed() -> None:
    book = notebook("space")
    book.memory.disruptive.add("key:space")
    follower = PromptFollower(book, InputCatalog(Vocabulary(keys=("space",))))
    assert prompted(follower, "Press SPACE to play") is None


# -- depth: repeat what worked to its edge, the way back, edge pushes --------------------------------------------
def new_pictures(n: int) -> str:
    return f"s{n}"


def nothing(n: int) -> str:
    return "s0"


def in_a_row(depth: Depth, candidate: Candidate, pictures: Callable[[int], str] = new_pictures,
             cards: frozenset[str] = frozenset()) -> int:
    """How often ``candidate`` is performed in a row: once, then while a streak of it is under way, as the tester
    does. Its ``n``-th performance (from 1) leaves the picture ``pictures(n)``; the first starts from
    ``pictures(0)``."""
    count = 0
    while True:
        count += 1
        state, after = pictures(count - 1), pictures(count)
        changed = after != state
        depth.deepen(Attempt(candidate, state, 0, changed=changed, after=after), changed, cards=set(cards))
        streak = depth.notebook.now.streak
        if streak is None or streak.candidate != candidate:
            return count
        assert count < 10 * DEPTH


def depth(*keys: str, moving: bool = False, types_characters: bool = False) -> Depth:
    return Depth(notebook(*keys, moving=moving), coverage=False, types_characters=types_characters)


def test_an_effective_key_is_repeated_to_its_bound_and_an_ineffective_one_not_at_all() -> None:
    assert in_a_row(depth("right"), key_candidate("right", Rank.KEY)) == DEPTH
    assert in_a_row(depth("x"), key_candidate("x", Rank.KEY), nothing) == 1
    click = Candidate("click@20,20", (Action.click(20, 20),), rank=Rank.DRAWN)
    assert in_a_row(depth(), click) == POINTER_DEPTH  # a button's third press is enough
    field = Candidate("field@20,20:'hello'", (Action.click(20, 20), Action.type_text("hello")), repeatable=False)
    assert in_a_row(depth(), field) == 1  # typing into a field again goes no deeper


def test_a_repeat_stops_where_the_effect_stops_or_the_picture_comes_back_and_a_card_is_not_clicked_again() -> None:
    edge = 3  # presses that move on before the wall
    assert in_a_row(depth("right"), key_candidate("right", Rank.KEY), lambda n: f"s{min(n, edge)}") == edge + 1
    toggle = key_candidate("t", Rank.KEY)  # on, off: the picture the walk began from came back
    assert in_a_row(depth("t"), toggle, lambda n: f"s{n % 2}") == 2
    card = Candidate("click@20,20", (Action.click(20, 20),), rank=Rank.DRAWN)
    assert in_a_row(depth(), card, cards=frozenset({card.name})) == 1


def test_once_its_edge_is_known_a_walk_stops_on_the_way_or_at_the_full_bound() -> None:
    walker = depth("right")
    right = key_candidate("right", Rank.KEY)
    assert in_a_row(walker, right) == DEPTH
    walks = [in_a_row(walker, right) for _ in range(40)]
    assert set(walks) <= {*SHORT_WALKS, DEPTH} and min(walks) < DEPTH  # mostly a side path, now and then the edge


def test_after_a_walk_on_a_still_app_the_way_back_is_taken_turn_backs_times_a_run() -> None:
    walker = depth("right", "left")
    right = key_candidate("right", Rank.KEY)
    backs: list[str | None] = []
    for _ in range(20 * TURN_BACKS):  # (a walk of one press, drawn once its edge is known, is no walk)
        if len(backs) == TURN_BACKS + 2:
            break
        if in_a_row(walker, right, lambda n: f"s{min(n, 2)}") > 1:
            backs.append(walker.notebook.now.way_back)
            walker.notebook.now.way_back = None  # (taken)
    assert backs == ["key:left"] * TURN_BACKS + [None, None]


def test_in_a_moving_game_only_movement_keys_are_repeated_and_each_is_pushed_to_the_edge_edge_pushes_times() -> None:
    assert in_a_row(depth("space", moving=True), key_candidate("space", Rank.KEY)) == 1  # a pause key undoes itself
    runner = depth("right", moving=True)
    assert in_a_row(runner, key_candidate("right", Rank.KEY)) == ANIMATED_DEPTH
    assert runner.notebook.now.way_back is None  # (a moving game comes back to no state)
    pusher = depth("left", moving=True)
    left = key_candidate("left", Rank.KEY)
    pushes = [in_a_row(pusher, left, nothing) for _ in range(EDGE_PUSHES + 2)]
    assert pushes == [ANIMATED_DEPTH] * EDGE_PUSHES + [1, 1]  # no effect seen, pushed on anyway, a few times a run
    assert in_a_row(depth("a", moving=True), key_candidate("a", Rank.KEY), nothing) == ANIMATED_DEPTH
    typist = depth("a", moving=True, types_characters=True)  # in a typing game "a" is a letter, no direction
    assert in_a_row(typist, key_candidate("a", Rank.KEY), nothing) == 1


# -- shown keys: type the characters a typing game shows ------------------------------------------------------
LETTERS = [*(key_candidate(ch, Rank.KEY) for ch in "abcdefghijklmnopqrstuvwxyz"), key_candidate("space", Rank.KEY),
           Candidate("hold:a", (Action.hold("a", 0.3),), rank=Rank.REST)]


def offered(shown: ShownKeys, screen: Words, elapsed: float) -> set[str]:
    return {c.name for c in shown.keys(look(1, [], vision=screen, elapsed=elapsed), LETTERS)}


def test_only_the_characters_on_screen_are_offered_and_only_in_a_typing_game() -> None:
    screen = Words("q", "x", "go", "7")  # ("go" is a word, not a character to type)
    assert offered(ShownKeys(types_characters=True), screen, 0.0) == {"key:q", "key:x"}
    assert offered(ShownKeys(types_characters=False), screen, 0.0) == set()


def test_a_typed_character_is_dropped_until_the_next_reading() -> None:
    shown, screen = ShownKeys(types_characters=True), Words("q", "x")
    assert offered(shown, screen, 0.0) == {"key:q", "key:x"}
    shown.typed(key_candidate("x", Rank.KEY))
    assert offered(shown, screen, 0.1) == {"key:q"}
    assert offered(shown, screen, WIDGET_PERIOD) == {"key:q", "key:x"}  # read again


def test_once_every_character_read_was_typed_the_screen_is_read_sooner() -> None:
    sooner = WIDGET_PERIOD * READ_SOONER
    assert sooner < WIDGET_PERIOD
    for typed, expected in ((("x",), {"key:q"}), (("x", "q"), {"key:z"})):  # (a character left: not read yet)
        shown, screen = ShownKeys(types_characters=True), Words("q", "x")
        assert offered(shown, screen, 0.0) == {"key:q", "key:x"}
        for key in typed:
            shown.typed(key_candidate(key, Rank.KEY))
        screen.words = ["z"]  # a new letter fell
        assert offered(shown, screen, sooner) == expected, typed


# -- steering: keep a real-time game's avatar in play ------------------------------------------------------
STRIDE = 20  # px a held arrow moves the ship in a step
BEAT = 0.15  # s a step lasts
WIDTH = 400


def steer(*, goal: bool = True, moving: bool = True) -> tuple[list[Choice | None], dict[str, Candidate]]:
    """A ship in the middle of a WIDTH-wide window, moved STRIDE px a step by held arrows (learned while it is
    moved right, left, right, left, right, right, right), then left alone while it drifts right, headed out of
    the middle. What Steering proposes at each look, and the inputs offered."""
    offers = {name: Candidate(name, (action,), rank=Rank.REST) for name, action in
              (("hold:left", Action.hold("left", BEAT)), ("hold:right", Action.hold("right", BEAT)),
               ("key:space", Action.press("space")))}
    skill = Steering(notebook(moving=moving), goal=goal, beat=BEAT)
    history: list[Step] = []
    proposals: list[Choice | None] = []
    x = WIDTH // 2

    def asked(step: Step, velocity: float) -> None:
        history.append(step)
        ship = Box(x - 10, WIDTH // 2 - 6, 20, 12)
        observation = look(len(history) + 1, history, frame_of("sky", (WIDTH, WIDTH)),
                           movers=[Mover(ship, (velocity, 0.0))])
        proposals.append(skill.propose(Turn(observation, candidates=list(offers.values()))))

    for key in ("right", "left", "right", "left", "right", "right", "right"):
        x += STRIDE if key == "right" else -STRIDE
        moved = Step(index=len(history) + 1, action=Action.hold(key, BEAT), changed=True,
                     changed_box=(x - 10, WIDTH // 2 - 6, 20, 12))
        asked(moved, 0.0)
    x += STRIDE // 2  # left alone, it drifts right fast enough to leave the middle within a step
    asked(Step(index=len(history) + 1, action=Action.wait(BEAT)), 2 * STRIDE / BEAT)
    return proposals, offers


def test_an_avatar_headed_out_of_the_middle_is_kept_in_with_the_learned_input() -> None:
    assert MIN_MOVE <= STRIDE <= REACH  # (a stride is a move, and the ship is followed from look to look)
    end = WIDTH // 2 + 3 * STRIDE + STRIDE // 2  # where the ship is at the last look
    assert end + STRIDE > (1 - MARGIN) * WIDTH >= end - STRIDE >= MARGIN * WIDTH  # (there only left keeps it in)
    proposals, offers = steer()
    assert proposals[:-1] == [None] * (len(proposals) - 1)  # in the middle: played freely
    assert proposals[-1] is not None and proposals[-1].candidate is offers["hold:left"]


def test_only_goal_play_on_a_moving_game_steers() -> None:
    assert all(p is None for p in steer(goal=False)[0])
    assert all(p is None for p in steer(moving=False)[0])


# -- pairing: a memory game's cards -------------------------------------------------------------------------
PAGE, BACK = (255, 255, 255), (90, 90, 160)
FACES = [(200, 30, 30), (30, 30, 200), (30, 200, 30), (200, 200, 30), (200, 30, 200), (30, 200, 200)]
DEALT = DECK + DECK % 2  # the cards turned before the pair is known: whole turns of two, enough for a deck
NAMES = "abcdefghijklmnop"[:DEALT + 2]
CARDS = {name: Box(50 * i, 0, 40, 40) for i, name in enumerate(NAMES)}
CLICKS = {name: Candidate(f"click@{box.center[0]},{box.center[1]}", (Action.click(*box.center),), rank=Rank.DRAWN,
                          box=box) for name, box in CARDS.items()}


def table(**shown: tuple[int, int, int]) -> np.ndarray:
    """The cards on a white page, each showing its back unless ``shown`` gives its colour."""
    picture = np.full((40, 50 * len(CARDS), 3), PAGE, dtype=np.uint8)
    for name, box in CARDS.items():
        picture[box.y:box.bottom, box.x:box.right] = shown.get(name, BACK)
    return picture


def turn_up(pairing: Pairing, card: str, face: tuple[int, int, int], **up: tuple[int, int, int]) -> None:
    """``card`` clicked: seen edge-on (the page shows through it), then its face at two looks."""
    pairing.clicked(CLICKS[card], table(**up))
    for seen in (PAGE, face, face):
        pairing.see(table(**up, **{card: seen}))


def dealt() -> Pairing:
    """The first DEALT cards turned two by two, all faces different but the last's, which is the first's; every
    card hidden again."""
    assert DEALT - 1 <= len(FACES)
    pairing = Pairing()
    faces = [*FACES[:DEALT - 1], FACES[0]]
    for first, second in zip(range(0, DEALT, 2), range(1, DEALT, 2), strict=True):
        turn_up(pairing, NAMES[first], faces[first])
        turn_up(pairing, NAMES[second], faces[second], **{NAMES[first]: faces[first]})
        pairing.see(table())
    return pairing


def proposed(pairing: Pairing, frame: np.ndarray) -> Choice | None:
    return pairing.propose(Turn(look(1, [], frame), candidates=list(CLICKS.values())))


def test_a_pair_seen_before_is_turned_one_card_after_the_other_once() -> None:
    assert all(abs(np.subtract(a, b)).mean() >= ALIKE for i, a in enumerate([*FACES, BACK, PAGE])
               for b in [*FACES, BACK, PAGE][i + 1:])  # (no two looks alike)
    pairing = dealt()
    first, twin = NAMES[0], NAMES[DEALT - 1]
    choice = proposed(pairing, table())
    assert choice is not None and len(choice.candidate.actions) == 2  # both cards, one right after the other
    assert set(choice.candidate.actions) == {*CLICKS[first].actions, *CLICKS[twin].actions}
    assert proposed(pairing, table()) is None  # once: a pair that did not stay uncovered only looked alike
    assert pairing.unturned(look(1, [], table()), list(CLICKS.values())) in (CLICKS[NAMES[DEALT]],
                                                                                CLICKS[NAMES[DEALT + 1]])


def test_after_a_turns_first_card_its_twin_seen_before_is_turned_once() -> None:
    pairing = dealt()
    new, twin = NAMES[DEALT], NAMES[1]
    turn_up(pairing, new, FACES[1])  # a card never seen shows the face the second card showed
    choice = proposed(pairing, table(**{new: FACES[1]}))
    assert choice is not None and choice.candidate is CLICKS[twin]
    assert proposed(pairing, table(**{new: FACES[1]})) is None


def test_a_card_that_turns_is_waited_for_turning_waits_looks_at_most() -> None:
    pairing = dealt()
    new = NAMES[DEALT]
    pairing.clicked(CLICKS[new], table())
    moves = []
    for grey in range(TURNING_WAITS + 1):  # a slow turn: another look at every look, never its face
        turning = table(**{new: (20 + 40 * grey,) * 3})
        pairing.see(turning)
        moves.append(proposed(pairing, turning))
    assert [m.candidate if m else None for m in moves] == [WAIT] * TURNING_WAITS + [None]


# -- suspects: a moving game's key that seems dead while the others work --------------------------------------
def _stats(book: Notebook, name: str, tries: int, effects: int) -> None:
    stats = book.memory.stats.setdefault(name, InputStats())
    for index in range(tries):
        stats.update(effect=index < effects, gain=0.0, state=f"s{index}")


def _up_suspected() -> tuple[Notebook, list[Candidate]]:
    """A moving game whose Left and Right work while Up has done nothing yet."""
    book = notebook("left", "right", "up", moving=True)
    _stats(book, "key:left", 10, 6)
    _stats(book, "key:right", 10, 5)
    _stats(book, "key:up", SUSPECT_AFTER, 0)
    return book, [book.memory.known[name] for name in ("key:left", "key:right", "key:up")]


def test_a_key_that_seems_dead_while_its_siblings_work_is_pressed_on_purpose_until_it_can_be_judged() -> None:
    book, candidates = _up_suspected()
    suspects = Suspects(book)
    picks = [suspects.pick(candidates, "now") for _ in range(200)]
    assert {p.candidate.name for p in picks if p is not None} == {"key:up"}
    assert 0.5 * SUSPECT_SHARE < sum(p is not None for p in picks) / len(picks) < 1.5 * SUSPECT_SHARE
    _stats(book, "key:up", SUSPECT_TRIES - SUSPECT_AFTER, 0)  # tried enough to be judged: play on
    assert not any(suspects.pick(candidates, "now") for _ in range(50))


def test_a_suspect_movement_key_is_pressed_across_a_snakes_heading_only() -> None:
    """A snake refuses Up while it heads up or down: the suspect is pressed while it heads left or right."""
    book, candidates = _up_suspected()
    suspects = Suspects(book)
    assert not any(suspects.pick(candidates, "now", heading=way) for way in ("up", "down") for _ in range(50))
    assert any(suspects.pick(candidates, "now", heading="left") for _ in range(50))


def test_in_a_still_app_a_suspect_is_tried_again_on_screens_where_it_was_not_tried() -> None:
    still = notebook("left", "up")
    candidates = [still.memory.known["key:left"], still.memory.known["key:up"]]
    _stats(still, "key:left", 10, 6)
    _stats(still, "key:up", 5, 0)  # tried in states s0..s4
    suspects = Suspects(still)
    assert not any(suspects.pick(candidates, "s3") for _ in range(50))  # tried there already: a wall, maybe
    assert {p.candidate.name for _ in range(50) if (p := suspects.pick(candidates, "s9"))} == {"key:up"}


def test_in_a_still_app_a_suspect_movement_key_is_tried_where_its_opposite_just_moved_the_app() -> None:
    still = notebook("left", "right", "up")
    candidates = [still.memory.known[name] for name in ("key:left", "key:right", "key:up")]
    _stats(still, "key:right", 10, 6)  # worked in s0..s5, did nothing in s6..s9 (a wall)
    _stats(still, "key:up", 10, 6)
    _stats(still, "key:left", 5, 0)
    suspects = Suspects(still)
    firsts = {p.candidate.name for _ in range(50) if (p := suspects.pick(candidates, "s20"))}
    assert firsts == {"key:right"}  # the way there first
    # where Right did nothing (the app at its right edge) Left is pressed straight away
    assert {p.candidate.name for _ in range(50) if (p := suspects.pick(candidates, "s7"))} == {"key:left"}
    still.memory.log.append(Tried("key:right", True, "press", 30))  # Right just moved the app: Left, every time
    assert [p.candidate.name if p else None for p in (suspects.pick(candidates, "s7") for _ in range(20))] == [
        "key:left"] * 20


def test_no_key_is_a_suspect_when_no_other_key_works() -> None:
    moving = notebook("left", "up", moving=True)
    _stats(moving, "key:left", 10, 0)
    _stats(moving, "key:up", 5, 0)
    assert not any(Suspects(moving).pick([moving.memory.known["key:left"], moving.memory.known["key:up"]], "now")
                   for _ in range(50))


# -- tools: a drawing app's tool, used on its canvas once chosen ----------------------------------------------
SURFACE = (640, 480)
DRAGS = [Candidate(f"drag→{end}", (Action.drag(320, 240, *end),), rank=Rank.REST) for end in ((480, 240), (160, 240))]


def tool_button(name: str) -> Candidate:
    return Candidate(f"click@{name}", (Action.click(40, 12),), rank=Rank.OWN, label=name, box=Box(10, 2, 60, 20))


def after_click(tools: Tools, control: Candidate, *, changed: bool, drags: Sequence[Candidate] = DRAGS,
                index: int = 1) -> Choice | None:
    """Ask the skill right after ``control`` was clicked (it ``changed`` the window or not)."""
    tools.chosen(control)
    step = Step(index=index, action=control.actions[0])
    step.changed = changed
    return tools.propose(Turn(look(index + 1, [step], frame=blank(SURFACE)), candidates=[control, *drags]))


def test_a_control_whose_click_changed_the_app_is_followed_by_a_click_a_drag_and_a_long_drag() -> None:
    tools = Tools()
    first = after_click(tools, tool_button("Ring"), changed=True)
    uses = [first, tools.propose(Turn(look(3, []))), tools.propose(Turn(look(4, [])))]
    assert all(use is not None and use.why == USING for use in uses)
    kinds = [use.candidate.actions[0] for use in uses if use is not None]
    assert [a.kind for a in kinds] == ["click", "drag", "drag"]
    assert kinds[1] == DRAGS[0].actions[0]
    long, short = kinds[2], kinds[1]
    assert abs((long.x2 or 0) - (long.x or 0)) > abs((short.x2 or 0) - (short.x or 0))
    assert tools.propose(Turn(look(5, []))) is None  # then the tester goes on: the next tool


def test_a_click_that_changed_nothing_or_an_app_that_takes_no_drags_chooses_no_tool() -> None:
    assert after_click(Tools(), tool_button("Ring"), changed=False) is None
    assert after_click(Tools(), tool_button("="), changed=True, drags=[]) is None  # a calculator's button


def test_a_tool_is_used_twice_at_most_and_the_short_drags_take_turns() -> None:
    tools = Tools()
    shorts = []
    for round_ in range(TOOL_ROUNDS + 1):
        first = after_click(tools, tool_button("Pen"), changed=True, index=10 * round_ + 1)
        if round_ == TOOL_ROUNDS:
            assert first is None
            break
        second = tools.propose(Turn(look(10 * round_ + 3, [])))
        tools.propose(Turn(look(10 * round_ + 4, [])))
        assert second is not None
        shorts.append(second.candidate.name)
    assert shorts == [DRAGS[0].name, DRAGS[1].name]
