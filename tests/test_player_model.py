"""The avatar model of goal play (policies.player): found where inputs show their effect, followed as it
moves, and kept in play — on steps and moving things laid out the way a flapping game and a shooter lay them."""

from __future__ import annotations

from pytest_playtest.actions import Action
from pytest_playtest.geometry import Box
from pytest_playtest.policies.player import Player
from pytest_playtest.trajectory import Step
from pytest_playtest.vision.motion import Mover

SIZE = (400, 400)


def step(index: int, action: Action, effect: Box | None) -> Step:
    done = Step(index=index, action=action, before_hash="a", after_hash="b")
    done.changed = effect is not None
    done.changed_box = None if effect is None else (effect.x, effect.y, effect.w, effect.h)
    return done


def bird(y: float, falling: float = 100.0) -> Mover:
    return Mover(Box(195, int(y) - 5, 10, 15), (0.0, falling))


def test_a_falling_bird_is_flapped_when_low_and_let_fall_when_high() -> None:
    player = Player(SIZE, step=0.15)
    y = 200.0
    for index in range(1, 6):  # flaps: each shows its effect at the bird, which ends 15 px higher
        y -= 15
        player.look(step(index, Action.click(50, 50), Box(195, int(y) - 5, 10, 10)), "click", [bird(y)])
    assert player.responses["click"].seen >= 2 and player.responses["click"].move[1] < 0
    index, steered = 6, []
    for _ in range(12):  # left alone it falls 15 px a step; a flap when it gets low, none when high
        y += 15 if not steered or steered[-1] != "click" else -15
        player.look(step(index, Action.wait(0.15), None), None, [bird(y)])
        steered.append(player.steer(["click", "press space"]))
        index += 1
    assert steered[0] is None and "click" in steered  # it fell out of the middle, and was flapped back
    assert 120 <= y <= 300
    for _ in range(6):  # flapped too high: let fall
        y -= 30
        player.look(step(index, Action.click(50, 50), Box(195, int(y) - 5, 10, 10)), "click", [bird(y)])
        index += 1
    assert y < 120 and player.steer(["click"]) == ""


def test_a_ship_that_only_slides_at_the_bottom_is_not_steered_up() -> None:
    player = Player(SIZE, step=0.15)
    x = 200.0
    for index, key in enumerate(["right", "left", "right", "left", "right", "right", "right", "right", "right"],
                                start=1):
        x += 20 if key == "right" else -20
        effect = Box(int(x) - 10, 370, 20, 12)
        player.look(step(index, Action.hold(key, 0.15), effect), f"hold {key}", [Mover(effect, (0.0, 0.0))])
        if x < 280:
            assert player.steer(["hold left", "hold right"]) is None  # low, but nothing moves it up or down
    assert x > 280 and player.steer(["hold left", "hold right"]) == "hold left"  # near the right edge: back


def test_effects_all_over_the_window_are_no_avatar() -> None:
    """A typing game's letters vanish wherever they are: nothing there is steered."""
    player = Player(SIZE, step=0.15)
    for index, (x, y) in enumerate([(40, 60), (300, 300), (120, 340), (350, 40), (60, 380)], start=1):
        effect = Box(x, y, 12, 16)
        player.look(step(index, Action.press("a"), effect), "press a", [Mover(effect, (0.0, 10.0))])
    assert player.steer(["press a", "press b"]) is None


def test_a_fast_avatar_is_followed_where_its_velocity_took_it_and_not_at_the_place_it_left() -> None:
    """Between inputs the avatar is looked for a step's worth of its velocity on (a snake's head moves a cell a
    tick), never at a place something left (its tail's old cell, nearer to where the head was)."""
    player = Player(SIZE, step=0.5)
    player.look(step(1, Action.press("right"), Box(190, 190, 20, 20)), "press right",
                [Mover(Box(190, 190, 20, 20), (80.0, 0.0))])
    assert player.followed and player.avatar == (200, 200)
    head, tail = Mover(Box(230, 190, 20, 20), (80.0, 0.0)), Mover(Box(190, 190, 20, 20), (0.0, 0.0), vacated=True)
    player.look(step(2, Action.wait(0.5), None), None, [tail, head])
    assert player.followed and player.avatar == (240, 200)


def test_how_long_a_step_lasts_is_measured_between_looks() -> None:
    """Deciding, acting and looking take time too: where the avatar goes while nothing is done is its velocity
    times the time between looks, not the length of a step's input alone."""
    player = Player(SIZE, step=0.15)
    for index in range(12):
        player.look(None, None, [], now=0.6 * index)
    assert 0.55 < player.step < 0.6


def test_a_fast_avatar_is_followed_though_its_measured_speed_was_off_by_a_cell() -> None:
    """A snake moving a cell a frame goes ~100 px in a step, and its speed, measured over a few frames, may be
    off by a cell or two: it is still followed, while a slow avatar is not taken for a thing as far off."""
    player = Player(SIZE, step=0.25)
    player.look(step(1, Action.press("up"), Box(190, 290, 20, 20)), "press up",
                [Mover(Box(190, 290, 20, 20), (0.0, -600.0))])
    assert player.followed and player.avatar == (200, 300)
    ahead = Mover(Box(190, 190, 20, 20), (0.0, -400.0))  # 100 px on: 50 px short of where 600 px/s put it
    player.look(step(2, Action.wait(0.25), None), None, [ahead])
    assert player.followed and player.avatar == (200, 200)

    slow = Player(SIZE, step=0.25)
    slow.look(step(1, Action.press("up"), Box(190, 290, 20, 20)), "press up",
              [Mover(Box(190, 290, 20, 20), (0.0, -20.0))])
    slow.look(step(2, Action.wait(0.25), None), None, [Mover(Box(190, 220, 20, 20), (0.0, -20.0))])
    assert not slow.followed


def worm_turns(player: Player, start: tuple[float, float], rounds: int = 2) -> tuple[float, float]:
    """A worm turned round and round by the arrow keys, 40 px a step at 200 px/s: each key sets its heading."""
    headings = {"up": (0.0, -200.0), "left": (-200.0, 0.0), "down": (0.0, 200.0), "right": (200.0, 0.0)}
    x, y = start
    index = 1
    for _ in range(rounds):
        for key, (vx, vy) in headings.items():
            x, y = x + vx * 0.2, y + vy * 0.2
            head = Box(int(x) - 10, int(y) - 10, 20, 20)
            player.look(step(index, Action.press(key), head), f"press {key}", [Mover(head, (vx, vy))])
            index += 1
    return x, y


def test_a_worm_keeps_the_course_its_keys_set_and_is_turned_onto_the_apples_line_and_before_the_wall() -> None:
    """Each arrow turns the worm onto one heading, which it keeps: it goes on until the apple's column is within
    half a step ahead, then turns toward it; near the wall ahead it turns to the side with more room."""
    player = Player(SIZE, step=0.2)
    worm_turns(player, (200.0, 200.0), rounds=3)  # (its first look shows a course, no turn yet)
    keys = ["press up", "press left", "press down", "press right"]
    assert player.headings([*keys, "hold up"]) == {
        "press up": (0, -1), "press left": (-1, 0), "press down": (0, 1), "press right": (1, 0), "hold up": (0, -1)}

    def seen_at(x: float, y: float, velocity: tuple[float, float] = (200.0, 0.0)) -> None:
        head = Box(int(x) - 10, int(y) - 10, 20, 20)
        player.look(step(99, Action.wait(0.2), head), None, [Mover(head, velocity)])  # (found anew there)

    seen_at(100, 250)
    assert player.heading == "right"
    assert player.line_up(keys, (300.0, 100.0), (20, 20)) == ""  # the apple's column is far ahead: go on
    assert player.steer(keys) is None  # the middle of the window is no place to keep a worm in
    seen_at(285, 250)
    assert player.line_up(keys, (300.0, 100.0), (20, 20)) == "press up"  # its column within half a step
    assert player.line_up(keys, (300.0, 100.0), (20, 20)) == ""  # the turn is let show first
    seen_at(290, 230, (0.0, -200.0))
    assert player.heading == "up" and player.line_up(keys, (290.0, 100.0), (20, 20)) == ""  # straight ahead
    seen_at(330, 250)
    assert player.steer(keys) == "press up"  # the wall 70 px ahead: up has more room than down


def test_a_worm_whose_turns_land_late_is_turned_that_much_earlier_toward_the_apple_and_the_wall() -> None:
    """A turn decided at x 285 is seen to have landed at x 305: it lags the look by half a step (20 px at 200
    px/s). The next approach turns 20 px earlier, where the apple's column is still 38 px ahead, and the wall is
    turned from while 95 px away (without the lag: within 80)."""
    player = Player(SIZE, step=0.2)
    worm_turns(player, (200.0, 200.0), rounds=3)
    keys = ["press up", "press left", "press down", "press right"]

    def seen_at(x: float, y: float, velocity: tuple[float, float] = (200.0, 0.0)) -> None:
        head = Box(int(x) - 10, int(y) - 10, 20, 20)
        player.look(step(99, Action.wait(0.2), head), None, [Mover(head, velocity)])

    seen_at(262, 250)
    assert player.lag == 0.0 and player.line_up(keys, (300.0, 100.0), (20, 20)) == ""  # 38 px ahead: go on
    seen_at(285, 250)
    assert player.line_up(keys, (300.0, 100.0), (20, 20)) == "press up"
    seen_at(305, 230, (0.0, -200.0))  # it turned 20 px past where the look saw it
    assert abs(player.lag - 0.1) < 1e-6
    seen_at(100, 250)
    seen_at(262, 250)
    assert player.line_up(keys, (300.0, 100.0), (20, 20)) == "press up"  # 38 px ahead, 18 once it lags
    seen_at(100, 250)
    seen_at(305, 250)
    assert player.steer(keys) in ("press up", "press down")  # the wall 95 px ahead, 75 once it lags


def test_a_worm_goes_for_an_apple_straight_ahead_by_the_wall_and_turns_from_the_wall_once_it_is_eaten() -> None:
    """The apple lies on the worm's row, 25 px from the wall it heads for: the worm is not turned aside in the
    band along the wall, where it could never reach the apple; with the apple gone, it is."""
    player = Player(SIZE, step=0.2)
    worm_turns(player, (200.0, 200.0), rounds=3)
    keys = ["press up", "press left", "press down", "press right"]
    head = Box(310, 240, 20, 20)
    player.look(step(99, Action.wait(0.2), head), None, [Mover(head, (200.0, 0.0))])
    assert player.line_up(keys, (375.0, 250.0), (20, 20)) == ""  # on its line, ahead
    assert player.steer(keys) is None
    player.aim(None)
    assert player.steer(keys) in ("press up", "press down")


def test_an_avatar_whose_course_no_key_sets_is_not_steered_by_course() -> None:
    """A bird flapped up and falling down again: no key is seen to turn it onto a heading along both axes."""
    player = Player(SIZE, step=0.15)
    y = 200.0
    for index in range(1, 8):
        y += -15 if index % 2 else 15
        box = Box(195, int(y) - 5, 10, 10)
        velocity = (0.0, -100.0 if index % 2 else 100.0)
        player.look(step(index, Action.click(50, 50), box), "click", [Mover(box, velocity)])
    assert player.heading == "" and player.line_up(["click"], (300.0, 100.0), (20, 20)) is None


def test_a_shot_followed_for_the_avatar_sets_no_course() -> None:
    """A ship that slides left and right fires up with Space: a shot taken for the avatar flies up after Space
    each time, but Space names no way, so no key is known to turn the ship up."""
    player = Player(SIZE, step=0.2)
    x = 200.0
    for index, (key, velocity) in enumerate([("left", (-200.0, 0.0)), ("space", (0.0, -300.0)),
                                             ("right", (200.0, 0.0)), ("space", (0.0, -300.0)),
                                             ("left", (-200.0, 0.0)), ("space", (0.0, -300.0))], start=1):
        x += velocity[0] * 0.2
        box = Box(int(x) - 10, 360, 20, 20)
        player.look(step(index, Action.press(key), box), f"press {key}", [Mover(box, velocity)])
    assert player.turns["space"][(0, -1)] >= 2
    assert player.headings(["press space"]) == {} and player.heading == ""


def test_a_worm_seen_turned_by_two_arrows_is_expected_to_turn_by_the_other_two() -> None:
    """A fast worm dies before each key was seen twice: Down and Right seen to steer it the ways they name make
    Up and Left expected to, as a player expects; a spelling with a key seen turning it another way does not."""
    player = Player(SIZE, step=0.2)
    worm_turns(player, (100.0, 100.0), rounds=1)
    player.turns = {key: turns for key, turns in player.turns.items() if key in ("down", "right")}
    assert sum(turns.total() for turns in player.turns.values()) == 2
    keys = ["press up", "press left", "press down", "press right"]
    assert player.headings(keys) == {
        "press up": (0, -1), "press left": (-1, 0), "press down": (0, 1), "press right": (1, 0)}
    assert player.headings(["press w"]) == {}  # WASD was never seen to steer it
    player.turns["left"] = player.turns["down"].copy() + player.turns["down"].copy()  # Left seen turning it down
    assert player.headings(keys) == {}


def test_a_fast_worm_turned_is_found_on_its_new_heading_and_steered_whatever_keys_a_step_offers() -> None:
    """A worm going right at 500 px/s is turned up: the next look finds it up there, not where going on right
    would have put it (over 100 px off), and, once lost, farther away the longer it went unseen. Near the top
    wall it is turned aside though this step offers only Up and Down: it is still a worm, no ship to re-centre."""
    player = Player(SIZE, step=0.2)
    worm_turns(player, (200.0, 200.0), rounds=3)
    keys = ["press up", "press left", "press down", "press right"]
    head = Box(190, 290, 20, 20)
    player.look(step(20, Action.press("right"), head), "press right", [Mover(head, (500.0, 0.0))])
    player.look(step(21, Action.wait(0.2), None), None, [Mover(Box(290, 290, 20, 20), (500.0, 0.0))])
    assert player.followed and player.avatar == (300, 300)
    turned = Mover(Box(290, 190, 20, 20), (0.0, 0.0))  # up by a step; its velocity not measured yet
    player.look(step(22, Action.press("up"), None), "press up", [turned])
    assert player.followed and player.avatar == (300, 200)
    player.look(step(23, Action.wait(0.2), None), None, [])
    player.look(step(24, Action.wait(0.2), None), None, [Mover(Box(290, 0, 20, 20), (0.0, -500.0))])
    assert player.followed and player.avatar == (300, 10)  # two steps' travel on, after a look without it
    assert player.steer(["press up", "press down"]) is None  # no known key turns it aside this step
    assert player.steer(keys) in ("press left", "press right")
