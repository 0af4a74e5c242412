"""Unit tests for the flappy logic (no pygame). Run: python unit_tests.py  (exit 0 = all passed)."""

from __future__ import annotations

import random
import sys
import traceback

from logic import (
    BIRD_RADIUS,
    FIRST_PIPE_X,
    FLAP_VELOCITY,
    GAP_CENTER_MAX,
    GAP_CENTER_MIN,
    GRAVITY,
    GROUND_Y,
    MAX_FALL_SPEED,
    PIPE_SPACING,
    PIPE_SPEED,
    Bird,
    FlappyGame,
    Pipe,
    make_pipe,
)


def close(a, b):
    return abs(a - b) < 1e-9


def test_gravity_accelerates_the_fall():
    bird = Bird(y=100, vy=0)
    bird.update()
    assert close(bird.vy, GRAVITY) and close(bird.y, 100 + GRAVITY)
    bird.update()
    assert close(bird.vy, 2 * GRAVITY) and close(bird.y, 100 + 3 * GRAVITY)


def test_fall_speed_is_capped():
    bird = Bird(y=50, vy=MAX_FALL_SPEED - 0.1)
    bird.update()
    assert close(bird.vy, MAX_FALL_SPEED)
    bird.update()
    assert close(bird.vy, MAX_FALL_SPEED) and close(bird.y, 50 + 2 * MAX_FALL_SPEED)


def test_flap_sets_upward_speed():
    bird = Bird(y=200, vy=8)
    bird.flap()
    assert bird.vy == FLAP_VELOCITY
    bird.update()
    assert close(bird.y, 200 + FLAP_VELOCITY + GRAVITY)
    assert bird.y < 200


def test_ceiling_stops_the_bird():
    bird = Bird(y=BIRD_RADIUS + 2, vy=-5)
    bird.update()
    assert bird.y == BIRD_RADIUS and bird.vy == 0


def test_hits_ground():
    assert not Bird(y=GROUND_Y - BIRD_RADIUS - 0.5).hits_ground()
    assert Bird(y=GROUND_Y - BIRD_RADIUS).hits_ground()
    assert Bird(y=GROUND_Y + 3).hits_ground()


def test_pipe_geometry():
    pipe = Pipe(x=100, gap_center=200, gap=100, width=50)
    assert pipe.gap_top == 150 and pipe.gap_bottom == 250
    upper, lower = pipe.rects()
    assert upper == (100, 0.0, 50, 150)
    assert lower == (100, 250, 50, GROUND_Y - 250)


def test_collides_inside_the_gap_is_safe():
    pipe = Pipe(x=80, gap_center=200, gap=130, width=60)
    assert not Bird(x=90, y=200).collides(pipe)
    assert not Bird(x=110, y=200 - 65 + 15).collides(pipe)  # 1 px below the upper pipe
    assert not Bird(x=110, y=200 + 65 - 15).collides(pipe)


def test_collides_with_upper_and_lower_pipe():
    pipe = Pipe(x=80, gap_center=200, gap=130, width=60)
    assert Bird(x=110, y=30).collides(pipe)  # inside the upper pipe
    assert Bird(x=110, y=200 - 65 + 13).collides(pipe)  # overlapping its bottom edge by 1 px
    assert Bird(x=110, y=360).collides(pipe)  # inside the lower pipe
    assert Bird(x=110, y=200 + 65 - 13).collides(pipe)


def test_collides_from_the_side_and_touching():
    pipe = Pipe(x=100, gap_center=200, gap=130, width=60)
    assert Bird(x=100 - 13, y=50).collides(pipe)  # front edge, 1 px overlap
    assert not Bird(x=100 - 14, y=50).collides(pipe)  # exactly touching
    assert not Bird(x=100 - 30, y=50).collides(pipe)
    assert Bird(x=160 + 13, y=350).collides(pipe)  # back edge of the lower pipe
    assert not Bird(x=160 + 20, y=350).collides(pipe)


def test_collides_uses_the_circle_at_corners():
    pipe = Pipe(x=100, gap_center=200, gap=130, width=60)  # upper pipe's bottom-left corner: (100, 135)
    assert not Bird(x=90, y=145).collides(pipe)  # bounding boxes overlap, circle does not (dist 14.1)
    assert Bird(x=92, y=142).collides(pipe)  # dist 10.6


def test_make_pipe_is_seeded_and_in_range():
    a = [make_pipe(random.Random(4), 100).gap_center for _ in range(3)]
    assert a[0] == a[1] == a[2]
    rng = random.Random(9)
    for _ in range(300):
        pipe = make_pipe(rng, 50)
        assert pipe.x == 50 and GAP_CENTER_MIN <= pipe.gap_center <= GAP_CENTER_MAX
        assert pipe.gap_top > 2 * BIRD_RADIUS  # the ceiling is always blocked
        assert pipe.gap_bottom < GROUND_Y


def test_new_game():
    game = FlappyGame(seed=0)
    assert game.score == 0 and not game.game_over
    assert len(game.pipes) == 1 and game.pipes[0].x == FIRST_PIPE_X
    assert game.pipes[0].gap_center == make_pipe(random.Random(0), 0).gap_center


def test_pipes_scroll_and_spawn_at_fixed_spacing():
    game = FlappyGame(seed=0)
    game.step()
    assert game.pipes[0].x == FIRST_PIPE_X - PIPE_SPEED
    for _ in range(60):
        game.bird.y, game.bird.vy = game.pipes[0].gap_center, 0
        game.step()
    assert len(game.pipes) >= 2
    for a, b in zip(game.pipes, game.pipes[1:], strict=False):
        assert b.x - a.x == PIPE_SPACING


def test_flying_through_the_gaps_scores_once_per_pipe():
    # Pipe i starts at x = 380 + 170 i and scores when its right edge (x + 60) is left of the bird's left edge
    # (90 - 14 = 76): on frames 122, 179, 235, 292 and 349.
    game = FlappyGame(seed=0)
    scores = {}
    for frame in range(1, 401):
        ahead = [p for p in game.pipes if p.x + p.width >= game.bird.x - game.bird.radius]
        game.bird.y, game.bird.vy = ahead[0].gap_center, -GRAVITY  # hover in the next gap
        game.step()
        assert not game.game_over, frame
        scores[frame] = game.score
    assert scores[121] == 0 and scores[122] == 1
    assert scores[178] == 1 and scores[179] == 2
    assert scores[234] == 2 and scores[235] == 3
    assert scores[400] == 5
    assert all(p.x + p.width > 0 for p in game.pipes)


def test_doing_nothing_hits_the_ground():
    game = FlappyGame(seed=0)
    frames = 0
    while not game.game_over and frames < 300:
        game.step()
        frames += 1
    assert game.game_over and game.score == 0
    assert frames < 40
    assert game.bird.y == GROUND_Y - game.bird.radius


def test_flapping_steadily_hits_the_first_pipe():
    # The ceiling is always blocked, so flapping every 6-18 frames ends on the first pipe, for any seed.
    for seed in range(5):
        for period in (6, 9, 12, 18):
            game = FlappyGame(seed=seed)
            for frame in range(1, 300):
                if frame % period == 0:
                    game.flap()
                game.step()
                if game.game_over:
                    break
            assert game.game_over and game.score == 0, (seed, period)
            assert not game.bird.hits_ground(), (seed, period)
            assert 80 <= game.frames <= 110, (seed, period, game.frames)


def test_game_over_freezes_and_reset_replays_the_same_level():
    game = FlappyGame(seed=2)
    first = game.pipes[0].gap_center
    while not game.game_over:
        game.step()
    y, pipes = game.bird.y, [p.x for p in game.pipes]
    game.flap()
    game.step()
    assert game.bird.y == y and [p.x for p in game.pipes] == pipes
    game.reset()
    assert not game.game_over and game.score == 0 and game.frames == 0
    assert game.pipes[0].gap_center == first and game.pipes[0].x == FIRST_PIPE_X


def run_all() -> int:
    tests = [(name, obj) for name, obj in globals().items() if name.startswith("test_") and callable(obj)]
    failures = 0
    for name, test in tests:
        try:
            test()
        except Exception:
            failures += 1
            print(f"FAIL {name}")
            traceback.print_exc()
        else:
            print(f"ok   {name}")
    print(f"{len(tests) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(run_all())
