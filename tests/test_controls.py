"""Dead controls judged over a whole run (loop.controls): one key among working inputs on a still app, every
key of a moving game against how often the game changes by itself, and clicks on a drawn UI."""

from __future__ import annotations

import pytest

from pytest_playtest.actions import Action
from pytest_playtest.geometry import Box
from pytest_playtest.keys import DIRECTION, VECTOR
from pytest_playtest.loop.controls import DeadControls
from pytest_playtest.source import Vocabulary
from pytest_playtest.trajectory import Step

WINDOW = (400, 420)
ARROWS = Vocabulary(keys=("left", "right", "up", "down"), sources=("game.py",))


def tried(controls: DeadControls, action: Action, *, effect: bool, moving: bool, times: int = 1,
          aimed: bool = False, where: Box | None = None) -> None:
    for _ in range(times):
        index = sum(r.tries for r in (*controls.still.values(), *controls.moving.values())) + 1
        step = Step(index=index, action=action, before_hash=f"screen {index}", aimed=aimed, window=WINDOW)
        step.changed = effect
        step.changed_box = None if where is None else (where.x, where.y, where.w, where.h)
        controls.observe(step, judged=True, moving=moving)


def step(index: int, key: str, before: str, after: str, *, launch: int = 1, new_lines: int = 0) -> Step:
    taken = Step(index=index, action=Action.press(key), before_hash=before, after_hash=after, launch=launch)
    taken.changed, taken.new_lines = before != after, new_lines
    return taken


def test_one_dead_key_among_working_inputs_on_a_still_app() -> None:
    controls = DeadControls(ARROWS)
    for key in ("up", "down"):
        tried(controls, Action.press(key), effect=True, moving=False, times=4)
    for n in range(8):  # Right tried where Left had just moved the app (twice), and elsewhere
        if n < 4:
            controls.observe(step(n, "left", f"before {n}", f"moved {n}"), judged=True, moving=False)
        where = f"moved {n}" if n < 2 else f"elsewhere {n}"
        controls.observe(step(n, "right", where, where), judged=True, moving=False)
    assert [f.message.split(":")[0] for f in controls.findings()] == ["key right never had an effect"]


@pytest.mark.parametrize(("found", "dead"), [({}, True), ({"restart_keys": ("space",)}, False),
                                             ({"option_keys": ("space",)}, False)])
def test_a_key_that_acts_only_sometimes_is_not_judged_by_its_tries_during_play(found: dict[str, tuple[str, ...]],
                                                                              dead: bool) -> None:
    """Space starts a new game once this one is over, or is handled only when the app is started with an option:
    pressed during play, it rightly does nothing."""
    board = Vocabulary(keys=("left", "right", "space"), sources=("game.py",), **found)
    controls = DeadControls(board)
    for key in ("left", "right"):
        tried(controls, Action.press(key), effect=True, moving=False, times=4)
    for n in range(8):
        controls.observe(step(n, "space", f"playing {n}", f"playing {n}"), judged=True, moving=False)
    assert [f.message.split(":")[0] for f in controls.findings()] == (["key space never had an effect"] if dead else [])


def test_an_implied_arrow_that_never_worked_is_named_as_a_player_presses_it() -> None:
    """The code handles Up, Right, Down and all of WASD; Left, which it lacks, did nothing where Right had just
    moved the board."""
    board = Vocabulary.of_keys(("up", "right", "down", "w", "a", "s", "d"), sources=("game.js",))
    controls = DeadControls(board)
    for key in ("up", "down", "a", "d", "w", "s"):
        tried(controls, Action.press(key), effect=True, moving=False, times=2)
    for n in range(8):
        if n < 4:
            controls.observe(step(n, "right", f"before {n}", f"moved {n}"), judged=True, moving=False)
        where = f"moved {n}" if n < 2 else f"elsewhere {n}"
        controls.observe(step(n, "left", where, where), judged=True, moving=False)
    [finding] = controls.findings()
    assert finding.message.startswith("key left (as a player presses it: the code handles the other arrows and "
                                      "moves left with a) never had an effect"), finding.message


def test_a_direction_key_is_not_judged_before_it_was_tried_where_its_opposite_had_just_led() -> None:
    """A maze's Left does nothing in its whole first column (a wall): the way back after a Right is open."""
    controls = DeadControls(ARROWS)
    for key in ("up", "down"):
        tried(controls, Action.press(key), effect=True, moving=False, times=4)
    controls.observe(step(1, "right", "start", "one right"), judged=True, moving=False)
    for n in range(8):
        controls.observe(step(n, "left", f"first column {n}", f"first column {n}"), judged=True, moving=False)
    assert controls.findings() == []
    controls.observe(step(9, "left", "one right", "one right"), judged=True, moving=False)
    controls.observe(step(10, "left", "one right", "one right"), judged=True, moving=False)
    assert [f.message.split(":")[0] for f in controls.findings()] == ["key left never had an effect"]


def test_new_code_at_a_keys_first_try_after_a_relaunch_is_no_effect() -> None:
    """Coverage is reported per launch: a dead key's branch is reached anew after the app was launched again."""
    controls = DeadControls(Vocabulary(keys=("space", "n"), sources=("game.py",)))
    tried(controls, Action.press("space"), effect=True, moving=False, times=4)
    for n in range(8):
        controls.observe(step(n, "n", f"screen {n}", f"screen {n}", launch=1 + n // 4, new_lines=3 * (n % 4 == 0)),
                         judged=True, moving=False)
    assert [f.message.split(":")[0] for f in controls.findings()] == ["key n never had an effect"]


def test_a_still_app_that_plays_sound_may_answer_its_keys_with_sound_alone() -> None:
    player = Vocabulary(keys=("space", "up", "down"), sound=True, sources=("player.py",))
    controls = DeadControls(player)
    tried(controls, Action.click(10, 10), effect=True, moving=False, times=4)
    for key in player.keys:
        tried(controls, Action.press(key), effect=False, moving=False, times=8)
    assert controls.findings() == []
    silent = DeadControls(Vocabulary(keys=player.keys, sources=("player.py",)))
    for key in player.keys:
        tried(silent, Action.press(key), effect=False, moving=False, times=8)
    assert [f.message.split(" (")[0] for f in silent.findings()] == ["none of the app's keys"]


def test_keys_of_a_moving_game_that_never_beat_its_own_changes_are_dead() -> None:
    controls = DeadControls(ARROWS)
    for beat in range(20):  # the game looks changed by itself one beat in ten
        controls.observe_baseline(effect=beat % 10 == 0)
    for key in ARROWS.keys:
        tried(controls, Action.hold(key, 0.2), effect=False, moving=True, times=5)
        tried(controls, Action.hold(key, 0.2), effect=True, moving=True)  # as often as chance
    (finding,) = controls.findings()
    assert finding.message.startswith("none of the app's keys (left, right, up, down) had an effect")


def test_one_key_of_a_moving_game_that_never_beat_chance_while_the_others_did() -> None:
    paddles = Vocabulary(keys=("w", "s", "i", "k"), sources=("pong.py",))
    controls = DeadControls(paddles)
    for beat in range(20):
        controls.observe_baseline(effect=beat % 10 == 0)
    for key in ("w", "i", "k"):
        tried(controls, Action.press(key), effect=True, moving=True, times=6)
        tried(controls, Action.press(key), effect=False, moving=True, times=2)
    tried(controls, Action.press("s"), effect=False, moving=True, times=16)
    tried(controls, Action.press("s"), effect=True, moving=True, times=2)  # as often as chance
    (finding,) = controls.findings()
    assert finding.message.startswith("key s never had an effect while the app's other keys did (18 of 24 tries)")
    typing = DeadControls(Vocabulary(keys=tuple("abcdefghijkl"), sources=("typing.py",)))
    for beat in range(20):
        typing.observe_baseline(effect=beat % 10 == 0)
    for key in "abcdefghijk":
        tried(typing, Action.press(key), effect=True, moving=True, times=2, aimed=True)
    tried(typing, Action.press("l"), effect=False, moving=True, times=20, aimed=True)  # a letter never shown
    assert typing.findings() == []


def test_in_a_game_that_plays_sound_a_movement_key_whose_opposite_worked_is_judged_a_mute_key_never() -> None:
    """A ship's Left that never moves it while Right does is dead, sound or not; M, which may only mute the
    music, is not judged."""
    shooter = Vocabulary(keys=("left", "right", "up", "space", "m"), sound=True, sources=("shooter.py",))
    controls = DeadControls(shooter)
    for beat in range(20):
        controls.observe_baseline(effect=beat % 10 == 0)
    for key in ("right", "space", "up"):
        tried(controls, Action.press(key), effect=True, moving=True, times=12)
        tried(controls, Action.press(key), effect=False, moving=True, times=2)
    for key in ("left", "m"):
        tried(controls, Action.press(key), effect=False, moving=True, times=16)
        tried(controls, Action.press(key), effect=True, moving=True, times=2)  # as often as chance
    assert [f.message.split(" never")[0] for f in controls.findings()] == ["key left"]


def _falling_blocks(*, rotate_works: bool) -> DeadControls:
    """A falling-blocks game: its field changes by itself in half the beats watched (a piece falls, lands, the
    next one appears); Up and W rotate the piece (one comparison in the code), Q rotates it back, Space drops it
    only now and then (say, once the piece is clear of the stack). Up and W are tried 11 times each: too seldom
    to judge either alone."""
    blocks = Vocabulary(keys=("left", "right", "down", "up", "w", "q", "space"), sound=True, sources=("blocks.py",),
                        handlers=(("key left", "blocks.py", 10), ("key right", "blocks.py", 12),
                                  ("key down", "blocks.py", 14), ("key up", "blocks.py", 16),
                                  ("key w", "blocks.py", 16), ("key q", "blocks.py", 18),
                                  ("key space", "blocks.py", 20)))
    controls = DeadControls(blocks)
    for beat in range(24):
        controls.observe_baseline(effect=beat % 2 == 0)
    for key in ("left", "right", "down", "q"):
        tried(controls, Action.press(key), effect=True, moving=True, times=16)
        tried(controls, Action.press(key), effect=False, moving=True, times=3)
    tried(controls, Action.press("space"), effect=True, moving=True, times=9)
    tried(controls, Action.press("space"), effect=False, moving=True, times=9)
    for key in ("up", "w"):
        tried(controls, Action.press(key), effect=rotate_works, moving=True, times=9)
        tried(controls, Action.press(key), effect=not rotate_works, moving=True, times=2)
    return controls


@pytest.mark.parametrize("rotate_works", [False, True])
def test_a_rotate_key_and_its_alias_that_hardly_work_on_a_busy_field_are_dead_together(rotate_works: bool) -> None:
    """The field is too busy to measure chance by, yet every other key visibly does something far more often:
    Up and W, handled together, are one action judged as one; Space, which works only half as often as the
    others by design, is no dead key."""
    findings = _falling_blocks(rotate_works=rotate_works).findings()
    if rotate_works:
        assert findings == []
        return
    (finding,) = findings
    assert finding.message.startswith("key up (and key w, handled with it) never had an effect while the app's "
                                      "other keys did (73 of 94 tries): tried 22 times")


def test_a_dead_right_click_among_left_clicks_that_work_on_a_moving_board() -> None:
    """A minesweeper with a ticking clock: its left clicks reveal tiles, its right click never flags one."""
    board = Vocabulary(buttons=("left", "right"), sources=("minesweeper.py",))
    controls = DeadControls(board)
    for beat in range(20):
        controls.observe_baseline(effect=beat % 10 == 0)  # (the clock's second hand)
    tried(controls, Action.click(40, 40), effect=True, moving=True, times=14)
    tried(controls, Action.click(40, 40), effect=False, moving=True, times=4)
    tried(controls, Action.right_click(60, 60), effect=False, moving=True, times=17)
    tried(controls, Action.right_click(60, 60), effect=True, moving=True, times=1)
    (finding,) = controls.findings()
    assert finding.message.startswith("right click never had an effect while the app's other mouse buttons did "
                                      "(14 of 18 tries)")


@pytest.mark.parametrize(("where", "dead"), [(None, False), (Box(180, 4, 40, 16), True)])
def test_clicks_that_change_the_board_where_they_land_work_however_rarely_under_a_ticking_clock(
        where: Box | None, dead: bool) -> None:
    """A minesweeper whose first click opened most of the board: later clicks mostly land on revealed tiles and
    do nothing, no more often than its clock changes it by itself; but each change they made was the tile
    under the pointer, a spot the clock never touches. The same changes up at the clock are no click's."""
    board = Vocabulary(buttons=("left",), sources=("minesweeper.py",))
    controls = DeadControls(board)
    clock = Box(180, 4, 40, 16)
    for beat in range(20):
        controls.observe_baseline(effect=beat % 10 == 0, where=clock)
    for place in range(133):
        tried(controls, Action.click(20 + 25 * (place % 15), 60 + 25 * (place // 15)), effect=False, moving=True)
    for place in range(9):
        x, y = 30 + 40 * place, 300
        tried(controls, Action.click(x, y), effect=True, moving=True, where=where or Box(x - 10, y - 10, 20, 20))
    findings = controls.findings()
    assert bool(findings) == dead, findings
    if dead:
        assert findings[0].message.startswith("clicks had no effect: tried 142 times")


def opened_board(buttons: tuple[str, ...], opened: Box, *, later_clicks: int) -> DeadControls:
    """A minesweeper whose clock starts at its first click, which changed ``opened`` while the board stood still;
    the later clicks find nothing to open."""
    controls = DeadControls(Vocabulary(buttons=buttons, sources=("minesweeper.py",)))
    tried(controls, Action.click(40, 80), effect=True, moving=False, where=opened)
    for beat in range(20):
        controls.observe_baseline(effect=beat % 10 == 0, where=Box(180, 4, 40, 16))
    for place in range(later_clicks):
        tried(controls, Action.click(20 + 25 * (place % 15), 60 + 25 * (place // 15)), effect=False, moving=True)
    return controls


@pytest.mark.parametrize(("opened", "dead"), [(Box(10, 50, 200, 200), False), (Box(300, 380, 60, 30), True)])
def test_a_click_that_opened_a_still_board_has_worked_whatever_its_clock_does_after(opened: Box, dead: bool) -> None:
    """A minesweeper whose clock starts at the first click: that click, while the app stood still, opened most of
    the board around the point it landed on, and the later clicks find only opened tiles. Its clicks are alive.
    A first change away from the point clicked proves nothing (a still-looking app may move slowly)."""
    findings = opened_board(("left",), opened, later_clicks=120).findings()
    assert [f.message.split(":")[0] for f in findings] == (["clicks had no effect"] if dead else [])


@pytest.mark.parametrize(("opened", "dead"), [(Box(10, 50, 200, 200), False), (Box(300, 380, 60, 30), True)])
def test_a_left_click_that_opened_a_still_board_is_not_dead_beside_right_clicks_that_flag(opened: Box,
                                                                                       dead: bool) -> None:
    """The same board flags a tile on a right click: later left clicks land on opened tiles while right clicks
    keep flagging. The left click that opened the board while it stood still has worked."""
    controls = opened_board(("left", "right"), opened, later_clicks=40)
    for place in range(12):
        x, y = 30 + 25 * place, 330
        tried(controls, Action.right_click(x, y), effect=True, moving=True, where=Box(x - 10, y - 10, 20, 20))
    findings = controls.findings()
    assert [f.message.split(" never")[0] for f in findings] == (["left click"] if dead else [])


def test_a_key_that_works_a_little_less_often_than_the_others_is_not_dead() -> None:
    """A snake's direction key turns it only when it is not heading that way already: as measured on a correct
    snake game, 22 of its 62 presses were followed by a turn while the other keys had 54 of 120, and the game
    changed so by itself in 11 of 48 beats. Near chance, but not clearly behind the other keys."""
    controls = DeadControls(ARROWS)
    for beat in range(48):
        controls.observe_baseline(effect=beat % 48 < 11)
    tried(controls, Action.press("right"), effect=True, moving=True, times=22)
    tried(controls, Action.press("right"), effect=False, moving=True, times=40)
    for key, effects in (("left", 18), ("up", 18), ("down", 18)):
        tried(controls, Action.press(key), effect=True, moving=True, times=effects)
        tried(controls, Action.press(key), effect=False, moving=True, times=40 - effects + 2)
    assert controls.findings() == []


def test_a_typing_game_is_judged_on_the_letters_typed_while_shown() -> None:
    letters = Vocabulary(keys=tuple("abcdefghijkl"), sources=("typing.py",))
    working, ignoring = DeadControls(letters), DeadControls(letters)
    for controls in (working, ignoring):
        for beat in range(20):
            controls.observe_baseline(effect=beat % 10 == 0)
        for key in letters.keys:  # random letters, none on screen, pressed or held: nothing to judge
            tried(controls, Action.press(key), effect=False, moving=True, times=3)
            tried(controls, Action.hold(key, 0.6), effect=False, moving=True, times=2)
    for key in letters.keys[:8]:
        tried(working, Action.press(key), effect=True, moving=True, times=2, aimed=True)
        tried(ignoring, Action.press(key), effect=False, moving=True, times=2, aimed=True)
    assert working.findings() == []
    (finding,) = ignoring.findings()
    assert finding.message.startswith("none of the app's keys (a, b, c") and "tried 16 times" in finding.message


def test_keys_that_steer_a_moving_game_are_alive() -> None:
    controls = DeadControls(ARROWS)
    for _ in range(20):
        controls.observe_baseline(effect=False)
    for key in ARROWS.keys:
        tried(controls, Action.hold(key, 0.2), effect=False, moving=True, times=3)
        tried(controls, Action.hold(key, 0.2), effect=True, moving=True, times=3)
    assert controls.findings() == []


def test_a_game_that_changes_by_itself_too_often_gives_no_evidence() -> None:
    controls = DeadControls(ARROWS)
    for _ in range(20):
        controls.observe_baseline(effect=True)
    for key in ARROWS.keys:
        tried(controls, Action.hold(key, 0.2), effect=True, moving=True, times=6)
    assert controls.findings() == []


def test_clicks_on_a_drawn_board_that_never_change_anything() -> None:
    board = Vocabulary(buttons=("left",), sources=("board.py",))
    controls = DeadControls(board)
    for place in range(16):
        tried(controls, Action.click(20 + 25 * place, 40), effect=False, moving=False)
    (finding,) = controls.findings()
    assert finding.message.startswith("clicks had no effect: tried 16 times at 16 places")
    tried(controls, Action.click(300, 300), effect=True, moving=False)
    assert controls.findings() == []


def test_clicks_on_the_field_of_a_game_played_with_its_keys_are_not_judged() -> None:
    """The code binds a click (a menu, an option) but the real-time game is played with its keys, which work."""
    game = Vocabulary(keys=("left", "right"), buttons=("left",), sources=("game.py",))
    controls = DeadControls(game)
    for _ in range(20):
        controls.observe_baseline(effect=False)
    for place in range(16):
        tried(controls, Action.click(20 + 25 * place, 40), effect=False, moving=True)
    assert controls.findings() != []  # the keys were not tried: the clicks are all there is to judge
    for key in game.keys:
        tried(controls, Action.hold(key, 0.2), effect=True, moving=True, times=8)
    assert controls.findings() == []


def test_a_game_whose_things_appear_after_a_while_is_judged_against_chance_throughout() -> None:
    """A typing game looks still until its first letters fall: a letter appearing right after a key pressed
    then is chance, as it is later."""
    controls = DeadControls(Vocabulary(keys=tuple("abcd"), sources=("typing.py",)))
    tried(controls, Action.press("a"), effect=True, moving=False)  # a letter appeared as it was pressed
    for key in "abcd":
        tried(controls, Action.press(key), effect=False, moving=False)
        tried(controls, Action.press(key), effect=False, moving=True, times=4)
    for _ in range(20):
        controls.observe_baseline(effect=False)
    (finding,) = controls.findings()
    assert finding.message.startswith("none of the app's keys (a, b, c, d) had an effect")


def test_a_movement_key_that_never_worked_on_its_way_back_and_rarely_elsewhere_is_dead() -> None:
    """Left changed the window once (a focus ring drawn at its first press) in 12 tries, never right after Right
    had moved the token, while the other keys moved it most of the time: it is dead."""
    board = Vocabulary(keys=("left", "right", "up", "down"), sources=("board.py",))
    controls = DeadControls(board)
    index = 0
    for turn in range(12):
        index += 1
        controls.observe(step(index, "right", f"r{turn}", f"after-right-{turn}"), judged=True, moving=False)
        index += 1
        back = f"after-right-{turn}" if turn < 3 else f"l{turn}"
        left = step(index, "left", back, f"{back}-focus" if turn == 5 else back)
        left.changed = turn == 5
        controls.observe(left, judged=True, moving=False)
        for key in ("up", "down"):
            index += 1
            controls.observe(step(index, key, f"{key}{turn}", f"{key}{turn}+"), judged=True, moving=False)
    (finding,) = controls.findings()
    assert finding.message.startswith("key left never worked where its opposite had just moved the app (3 tries)")


def test_a_snakes_keys_along_its_heading_or_back_say_nothing_and_a_dead_turn_is_judged_across_it() -> None:
    """A snake refuses the key it already heads by and the key back: those tries are no evidence that the keys
    do nothing. Tried across its heading, every key turns it but Left, which never does."""
    snake = DeadControls(ARROWS)
    for beat in range(20):
        snake.observe_baseline(effect=beat % 10 == 0)
    for heading, keys in (("right", ("left", "right")), ("up", ("up", "down"))):
        for key in keys:
            for _ in range(10):
                refused = Step(index=1, action=Action.press(key), before_hash="field", window=WINDOW, heading=heading)
                snake.observe(refused, judged=True, moving=True)
    assert snake.findings() == [] and snake.moving == {}
    for key in ("up", "down", "right"):
        tried(snake, Action.press(key), effect=True, moving=True, times=8)
    tried(snake, Action.press("left"), effect=False, moving=True, times=18)
    assert [f.message.split(" (")[0] for f in snake.findings()] == [
        "key left never had an effect while the app's other keys did"]


SHIP = Box(180, 360, 40, 24)  # where a ship slides along the bottom


def meteor(n: int) -> Box:
    """A meteor that set off somewhere above (the n-th stray)."""
    return Box(100, 10 + (n * 37) % 300, 24, 24)


def given(controls: DeadControls, key: str, *, going: int, of: int, stray: int = 0, judged: bool = False,
          held: bool = False) -> None:
    """A sideways key given ``of`` times to a busy game (its other effects not to be told), pressed or ``held``:
    ``going`` of the tries set the ship going its way, ``stray`` more set off only a meteor somewhere above."""
    for n in range(of):
        action = Action.hold(key, 0.15) if held else Action.press(key)
        taken = Step(index=n + 1, action=action, before_hash=f"field {n}", window=WINDOW)
        taken.changed = True
        things = [SHIP] if n < going else [meteor(n)] if n < going + stray else []
        controls.observe(taken, judged=judged, moving=True, set_going={VECTOR[DIRECTION[key]]: things})


def busy(controls: DeadControls, *, alone: list[Box] | None = None) -> DeadControls:
    """A field of meteors: every beat changes beyond its own motion's prediction."""
    for _ in range(12):
        controls.observe_baseline(effect=True)
    return waits(controls, alone or [meteor(n) for n in range(10)])


def waits(controls: DeadControls, things: list[Box], *, beats: int = 30) -> DeadControls:
    """``beats`` steps that give no sideways key (waits), in each of the first of which one of ``things`` set off
    sideways by itself."""
    for n in range(beats):
        wait = Step(index=n + 1, action=Action.wait(0.2), before_hash=f"field {n}", window=WINDOW)
        going = [things[n]] if n < len(things) else []
        controls.observe(wait, judged=False, moving=True, set_going={(-1, 0): going, (1, 0): going})
    return controls


def test_a_sideways_key_that_sets_nothing_going_where_its_opposite_slides_the_ship_is_dead() -> None:
    """A busy field hides any key's other effects. Right set the ship going right 20 of 80 times (then it was
    pinned at the right edge), and a meteor 10 times; Left set off only meteors, 20 of 90 times."""
    controls = busy(DeadControls(ARROWS))
    given(controls, "right", going=20, of=80, stray=10)
    given(controls, "left", going=0, of=90, stray=20)
    assert [f.message for f in controls.findings()] == [
        "key left set nothing going left along the row where key right set a thing going right (y 372): 0 of 90 "
        "tries (press) did where the way back was open, while key right did so 20 of 80 times"]


def test_a_working_key_is_measured_where_the_ship_had_room_its_way() -> None:
    """With Left dead, Right slides the ship from the middle to the right edge in 18 tries and then, pinned,
    never again: 18 of 100 against Left's 0 of 40 is no clear difference. Where the ship stood farther than its
    own width from the right edge, Right slid it every time."""
    controls = busy(DeadControls(ARROWS))
    for n in range(100):
        taken = Step(index=n + 1, action=Action.press("right"), before_hash=f"field {n}", window=WINDOW)
        slid = Box(SHIP.x + 10 * n, SHIP.y, SHIP.w + 10, SHIP.h)
        going = [slid] if slid.right <= WINDOW[0] else []
        controls.observe(taken, judged=False, moving=True, set_going={VECTOR["right"]: going})
    given(controls, "left", going=0, of=40)
    assert [f.message.split(": ")[1] for f in controls.findings()] == [
        "0 of 40 tries (press) did where the way back was open, while key right did so 13 of 13 times"]


def test_a_working_key_never_tried_where_the_ship_had_room_tells_nothing() -> None:
    """The ship was seen at the right edge before Right was ever tried, and only ever twitched there."""
    controls = busy(DeadControls(ARROWS))
    edge = Box(WINDOW[0] - SHIP.w, SHIP.y, SHIP.w, SHIP.h)
    for n, key in enumerate(["", *["right"] * 20]):
        action = Action.press(key) if key else Action.wait(0.2)
        step = Step(index=n + 1, action=action, before_hash=f"field {n}", window=WINDOW)
        controls.observe(step, judged=False, moving=True, set_going={VECTOR["right"]: [edge]})
    given(controls, "left", going=0, of=40)
    assert controls.findings() == []


def test_a_sideways_key_is_judged_where_the_way_back_was_open_not_where_its_own_slides_pinned_the_ship() -> None:
    """A player who holds Right more often than Left keeps the ship pinned at the right edge: Right set it going
    only 12 of 100 times, Left 20 of 48. Right's tries right after Left slid the ship, where it surely had room,
    all slid it."""
    controls = busy(DeadControls(ARROWS))
    for _ in range(4):
        given(controls, "right", going=3, of=25)
        given(controls, "left", going=5, of=12)
    assert controls.findings() == []


@pytest.mark.parametrize(("slides", "found"), [(3, []), (0, [
    "key right set nothing going right along the row where key left set a thing going left (y 372): 0 of 20 tries "
    "(hold) did where the way back was open, while key left did so 20 of 25 times"])])
def test_a_sideways_key_is_judged_against_the_other_keys_tries_of_the_same_kind(slides: int, found: list[str]) -> None:
    """A game that polls its keys each frame misses most taps: Left held slides the ship, Left tapped does not,
    and Right is tapped far more often than held. Right's taps, all missed where the way back was open, say
    nothing; its holds do: they slide the ship as Left's do, or (dead) never."""
    controls = busy(DeadControls(ARROWS))
    for _ in range(5):
        given(controls, "left", going=4, of=5, held=True)
        given(controls, "right", going=0, of=11)
        given(controls, "right", going=slides, of=4, held=True)
        given(controls, "left", going=0, of=4)
    assert [f.message for f in controls.findings()] == found


def test_what_a_sideways_key_never_sets_going_the_other_way_tells_what_sets_off_so_by_itself() -> None:
    """A player who keeps steering among meteors leaves few steps without a sideways key (10 of 200): that
    nothing set off right along the ship's row by itself is told by Left's tries as well as by the waits."""
    controls = DeadControls(ARROWS)
    for _ in range(12):
        controls.observe_baseline(effect=True)
    waits(controls, [], beats=10)
    given(controls, "right", going=16, of=90, stray=10)
    given(controls, "left", going=0, of=100, stray=20)
    assert [f.message.split(" along")[0] for f in controls.findings()] == ["key left set nothing going left"]


@pytest.mark.parametrize(("left", "right", "keys"), [
    ((60, 80), (70, 90), ("left", "right")),  # both slide the ship
    ((4, 30), (20, 80), ("left", "right")),  # Left slides it now and then: rarely is not never
    ((0, 60), (5, 70), ("left", "right")),  # Right slid it too seldom to tell where the ship is
    ((0, 60), (50, 70), ("up", "down")),  # Up rotates or jumps, Down drops: up and down need not mirror
    ((0, 12), (50, 70), ("left", "right")),  # too few tries of Left
])
def test_sideways_keys_that_both_work_or_too_little_evidence_are_not_judged(
        left: tuple[int, int], right: tuple[int, int], keys: tuple[str, str]) -> None:
    controls = busy(DeadControls(ARROWS))
    given(controls, keys[0], going=left[0], of=left[1], stray=10)
    given(controls, keys[1], going=right[0], of=right[1], stray=10)
    assert controls.findings() == []


def test_a_row_of_things_that_sets_off_sideways_by_itself_is_no_ship() -> None:
    """A row of invaders marches sideways by itself, stopping between steps: that Right's tries often caught it
    setting off says nothing of Left."""
    controls = busy(DeadControls(ARROWS), alone=[SHIP] * 12)
    given(controls, "right", going=20, of=80, stray=10)
    given(controls, "left", going=0, of=90, stray=20)
    assert controls.findings() == []


@pytest.mark.parametrize(("told", "found"), [(True, []), (False, ["key left set nothing going left"])])
def test_a_sideways_key_whose_other_effects_beat_chance_is_no_dead_movement_key(told: bool, found: list[str]) -> None:
    """On a quiet field a Left that changes the game (it rotates a piece: its effects told from the game's own
    motion) but slides nothing is working."""
    controls = DeadControls(ARROWS)
    for beat in range(20):
        controls.observe_baseline(effect=beat % 10 == 0)
    waits(controls, [meteor(n) for n in range(3)])
    given(controls, "right", going=40, of=50, judged=True)
    given(controls, "left", going=0, of=40, judged=told)
    assert [f.message.split(" along")[0] for f in controls.findings()] == found
