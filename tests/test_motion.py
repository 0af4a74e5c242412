"""An input's effect on an app that moves by itself: the part of its next frames its own motion does not
explain (vision.motion), on frames drawn the way a snake game, a typing game and a shooter draw them."""

from __future__ import annotations

import numpy as np

from pytest_playtest.geometry import Box
from pytest_playtest.vision.motion import MotionWatch, Surprise

CELL = 9  # a square of a grid game: 9 px on a 10 px grid


def picture(cells: list[tuple[int, int]], size: int = 200) -> np.ndarray:
    frame = np.full((size, size, 3), 255, np.uint8)
    for x, y in cells:
        frame[y : y + CELL, x : x + CELL] = 0
    return frame


def watched(frames: list[np.ndarray], input_at: int) -> Surprise | None:
    """The surprise after an input given between frame ``input_at - 1`` and ``input_at`` (a tick each 0.1 s)."""
    watch = MotionWatch()
    for index, frame in enumerate(frames):
        watch.add(frame, index * 0.1)
    return watch.surprise(input_at * 0.1 - 0.05)


def snake(heads: list[tuple[int, int]], length: int = 3) -> list[np.ndarray]:
    return [picture(heads[max(0, i - length + 1) : i + 1]) for i in range(len(heads))]


def test_a_snake_that_keeps_its_course_holds_no_surprise() -> None:
    straight = [(100, 20 + 10 * i) for i in range(9)]
    surprise = watched(snake(straight), input_at=6)
    assert surprise is not None and not surprise.effect and surprise.pixels == 0


def test_a_snake_that_turns_after_the_input_is_its_effect() -> None:
    turning = [(100, 20 + 10 * i) for i in range(6)] + [(100 - 10 * j, 70) for j in range(1, 4)]
    surprise = watched(snake(turning), input_at=6)
    assert surprise is not None and surprise.effect
    assert surprise.box is not None and surprise.box.contains(92, 74)  # where the head went instead


def test_a_snakes_tail_is_a_place_vacated_and_its_head_is_not() -> None:
    """A snake moving down shows two changed places a tick: the cell its head entered and the one its tail left
    (the background again): a player follows the head."""
    watch = MotionWatch()
    for index, frame in enumerate(snake([(100, 20 + 10 * i) for i in range(6)], length=3)):
        watch.add(frame, index * 0.1)
    movers = sorted(watch.movers(), key=lambda mover: mover.box.center[1])
    assert [mover.vacated for mover in movers] == [True, False], movers  # the tail above, the head below
    assert movers[1].velocity[1] > 0


def test_a_letter_that_vanishes_is_an_effect_and_falling_letters_are_not() -> None:
    def letters(vanish_at: int | None) -> list[np.ndarray]:
        frames = []
        for tick in range(9):
            shown = [(40, 30 + tick), (120, 60 + tick)]  # glyph-sized blocks falling 1 px a tick
            if vanish_at is not None and tick >= vanish_at:
                shown = shown[:1]
            frame = np.full((200, 200, 3), 255, np.uint8)
            for x, y in shown:
                frame[y : y + 14, x : x + 10] = 0
            frames.append(frame)
        return frames

    assert not watched(letters(None), input_at=6).effect
    assert watched(letters(6), input_at=6).effect


def test_too_few_ticks_tell_nothing() -> None:
    assert watched(snake([(100, 20 + 10 * i) for i in range(4)]), input_at=2) is None


def test_a_field_of_single_pixel_stars_hides_any_effect() -> None:
    """Stars too small to follow surprise the prediction every tick: no input there can be judged, even one
    that moved a sprite's worth."""
    rng = np.random.default_rng(0)
    frames = []
    for tick in range(9):
        frame = np.zeros((200, 200, 3), np.uint8)
        frame[rng.integers(0, 200, 120), rng.integers(0, 200, 120)] = 255  # each tick its stars elsewhere
        if tick >= 6:
            frame[100:108, 100:108] = 255  # what the input did
        frames.append(frame)
    surprise = watched(frames, input_at=6)
    assert surprise is not None and surprise.before >= 100
    assert not surprise.effect and not surprise.telling
    quiet = watched(snake([(100, 20 + 10 * i) for i in range(9)]), input_at=6)
    assert quiet is not None and quiet.telling


def ball(xs: list[int], size: int = 12) -> list[np.ndarray]:
    frames = []
    for x in xs:
        frame = np.full((200, 360, 3), 255, np.uint8)
        frame[90 : 90 + size, x : x + size] = 0
        frames.append(frame)
    return frames


def surprises(frames: list[np.ndarray], times: list[float]) -> list[int]:
    """Each tick's surprise when the ticks were seen at ``times`` (an input given just before each)."""
    found = []
    for index in range(4, len(frames)):
        watch = MotionWatch()
        for frame, at in zip(frames[: index + 1], times, strict=False):
            watch.add(frame, at)
        surprise = watch.surprise((times[index - 1] + times[index]) / 2)
        assert surprise is not None
        found.append(surprise.pixels)
    return found


def test_a_ball_faster_than_its_size_keeps_its_course() -> None:
    """Moving 20 px a tick, a 12 px ball's old and new places are two blobs apart: where it came from is found
    by its picture."""
    xs = [20 + 20 * i for i in range(10)]
    assert surprises(ball(xs), [0.1 * i for i in range(10)]) == [0] * 6


def test_frames_gone_unseen_are_no_surprise() -> None:
    """The app draws a frame each 80 ms; the tester, busy deciding, saw the 5th late and missed the 6th and
    the 10th: a thing moving on as the intervals say is its own motion."""
    shown = [0, 1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13]
    times = [0.08 * i + (0.03 if i == 4 else 0.0) for i in shown]
    frames = ball([60 + 12 * i for i in shown])
    assert surprises(frames, times) == [0] * 8
    turned = ball([60 + 12 * i for i in shown[:6]] + [132 - 12 * j for j in range(1, 7)])
    assert surprises(turned, times)[2] > 0  # the ball turned back at the 7th: that is no motion of its own


def test_a_change_the_app_made_by_itself_before_is_no_effect_when_it_comes_again() -> None:
    """A ball wraps at the window's edge every 18 ticks. Seen once without input, the next wrap after an
    input is the app's own doing; a turn there still is the input's."""
    xs = [(12 + 20 * i) % 360 for i in range(60)]
    frames = ball(xs)
    watch = MotionWatch()
    wraps = [i for i in range(1, 60) if xs[i] < xs[i - 1]]
    for index, frame in enumerate(frames[: wraps[1] + 3]):
        watch.add(frame, index * 0.1)
        if index == wraps[0] + 2:
            first = watch.surprise((wraps[0] - 0.5) * 0.1, learn=True)  # watched without input
            assert first is not None and first.effect
    again = watch.surprise((wraps[1] - 0.5) * 0.1)
    assert again is not None and not again.effect
    other = MotionWatch(own=watch.own)  # the next launch
    turned = [*xs[:30], *[xs[29] - 20 * j for j in range(1, 6)]]
    for index, frame in enumerate(ball(turned)):
        other.add(frame, index * 0.1)
    surprise = other.surprise(29.5 * 0.1)
    assert surprise is not None and surprise.effect


def test_a_picture_that_stopped_moving_says_when() -> None:
    """A snake moving a cell every 0.1 s, then paused: once seen unchanged for four frame periods, the stop is
    placed where its next frame was due; before that, and while it moves, there is no stop."""
    watch = MotionWatch()
    frames = snake([(100, 20 + 10 * i) for i in range(8)])
    for index, frame in enumerate(frames):
        watch.add(frame, index * 0.1)
        assert watch.stopped() is None
    watch.add(frames[-1], 0.95)  # the same picture, three periods on: a slow frame, maybe
    assert watch.stopped() is None
    watch.add(frames[-1], 1.15)
    stopped = watch.stopped()
    assert stopped is not None and abs(stopped - 0.8) < 1e-9


def test_a_few_ticks_tell_no_pace_and_no_stop() -> None:
    watch = MotionWatch()
    for index, frame in enumerate(snake([(100, 20 + 10 * i) for i in range(3)])):
        watch.add(frame, index * 0.1)
    watch.add(picture([]), 0.3)
    watch.add(picture([]), 5.0)
    assert watch.stopped() is None


def starfield(tick: int, things: list[tuple[int, int]], size: int = 200) -> np.ndarray:
    """Black sky with 2x2 stars falling 3 px a tick, and 12x12 green things where ``things`` say."""
    frame = np.zeros((size, size, 3), np.uint8)
    for star in range(40):
        x, y = (star * 37) % size, (star * 53 + 3 * tick) % size
        frame[y : y + 2, x : x + 2] = 255
    for x, y in things:
        frame[y : y + 12, x : x + 12] = (0, 200, 0)
    return frame


def test_things_that_stop_while_a_starfield_moves_on_are_a_stop() -> None:
    """A formation marching right a pixel a tick in front of falling stars (seen so while nothing was pressed),
    then gone (a pause screen): the window never stops changing, but its things did, and the stop is placed
    where their next step was due. The stars alone are no things that move, so a starfield with nothing in
    front of it never stops."""
    watch = MotionWatch()
    for tick in range(10):
        watch.add(starfield(tick, [(20 + 14 * i + tick, 50) for i in range(4)]), tick * 0.1)
        assert watch.stopped() is None
    watch.watched_alone(0.5)  # (the last five ticks were a watch without input)
    for tick in range(10, 16):
        watch.add(starfield(tick, []), tick * 0.1)
    stopped = watch.stopped()
    assert stopped is not None and abs(stopped - 1.1) < 1e-9
    watch.add(starfield(16, [(60, 50)]), 1.6)  # the things back: moving again
    assert watch.stopped() is None

    sky = MotionWatch()
    for tick in range(30):
        sky.add(starfield(tick, []), tick * 0.1)
        if tick % 5 == 4:
            sky.watched_alone(tick * 0.1 - 0.4)
    assert not sky.moved and sky.stopped() is None


def test_things_that_move_only_after_inputs_never_stop() -> None:
    """A page whose list changes after each input (a thing's worth of pixels), three looks apart, watched without
    input now and then (nothing moves then), and then left alone for two seconds, behind falling stars: its
    things did not move by themselves, so their standing still is no stop."""
    watch = MotionWatch()
    for look in range(44):
        change = min(look // 3, 8)
        watch.add(starfield(look, [(20 + 14 * (change % 2), 50)]), look * 0.1)
        if look % 3 == 2:  # the look before the next input: a short watch without input
            watch.watched_alone(look * 0.1 - 0.05)
        assert watch.stopped() is None


def test_a_game_that_went_on_is_the_same_scene_and_a_new_screen_is_not() -> None:
    """A formation a few pixels on, under other stars, is the scene it was; the same sky without it is not."""
    from pytest_playtest.vision import same_scene, scene

    formation = [(60 + 24 * col, 80 + 24 * row) for col in range(11) for row in range(5)]
    playing = scene(starfield(0, formation, size=480))
    moved_on = scene(starfield(9, [(x + 3, y) for x, y in formation], size=480))
    emptied = scene(starfield(9, [], size=480))
    assert same_scene(playing, moved_on)
    assert not same_scene(playing, emptied)


def field(ship_xs: list[int], size: int = 200) -> list[np.ndarray]:
    """A meteor flying left across the top every tick, and a ship at the bottom at these places."""
    frames = []
    for tick, ship in enumerate(ship_xs):
        frame = np.full((size, size, 3), 255, np.uint8)
        frame[30:42, 180 - 5 * tick : 192 - 5 * tick] = 0
        frame[170:182, ship : ship + 20] = 0
        frames.append(frame)
    return frames


def going_after(frames: list[np.ndarray], input_at: int) -> dict[tuple[int, int], list[Box]] | None:
    watch = MotionWatch()
    for index, frame in enumerate(frames):
        watch.add(frame, index * 0.1)
    return watch.set_going(input_at * 0.1 - 0.05)


def test_a_ship_that_stood_still_and_slid_after_the_input_was_set_going_and_a_flying_meteor_was_not() -> None:
    slid = going_after(field([100] * 6 + [94, 88, 82]), input_at=6)
    assert slid is not None and set(slid) == {(-1, 0)}
    assert all(box.y >= 160 for box in slid[(-1, 0)]), slid  # the ship's row, not the meteor's
    still = going_after(field([100] * 9), input_at=6)
    assert still == {}


def test_too_few_ticks_before_the_input_tell_nothing_of_what_it_set_going() -> None:
    assert going_after(field([100, 100, 94, 88]), input_at=2) is None
