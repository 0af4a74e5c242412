"""Unit tests for the snake logic (no pygame). Run: python unit_tests.py  (exit 0 = all passed)."""

from __future__ import annotations

import random
import sys
import traceback

from logic import DOWN, LEFT, RIGHT, UP, Snake, SnakeGame, place_pellet


def test_step_moves_head_and_tail():
    snake = Snake([(4, 7), (3, 7), (2, 7)], RIGHT)
    assert snake.step() == (5, 7)
    assert snake.body == [(5, 7), (4, 7), (3, 7)]
    assert snake.head == (5, 7)


def test_step_in_each_direction():
    for direction, expected in ((UP, (5, 4)), (DOWN, (5, 6)), (LEFT, (4, 5)), (RIGHT, (6, 5))):
        snake = Snake([(5, 5)], direction)
        assert snake.step() == expected, direction
        assert snake.body == [expected]


def test_turn_changes_the_next_step():
    snake = Snake([(4, 7), (3, 7), (2, 7)], RIGHT)
    assert snake.turn(UP) is True
    assert snake.step() == (4, 6)
    assert snake.body == [(4, 6), (4, 7), (3, 7)]
    assert snake.direction == UP


def test_turn_back_onto_the_neck_is_ignored():
    snake = Snake([(4, 7), (3, 7), (2, 7)], RIGHT)
    assert snake.turn(LEFT) is False
    assert snake.step() == (5, 7)


def test_two_quick_turns_cannot_reverse():
    # Moving right, "up" then "left" before the next step: "left" is checked against the last step (right).
    snake = Snake([(4, 7), (3, 7), (2, 7)], RIGHT)
    snake.turn(UP)
    assert snake.turn(LEFT) is False
    assert snake.step() == (4, 6)


def test_single_cell_snake_may_reverse():
    snake = Snake([(5, 5)], RIGHT)
    assert snake.turn(LEFT) is True
    assert snake.step() == (4, 5)


def test_turn_rejects_non_directions():
    snake = Snake([(5, 5)], RIGHT)
    try:
        snake.turn((1, 1))
    except ValueError:
        return
    raise AssertionError("turn((1, 1)) should raise ValueError")


def test_grow_keeps_the_tail_for_each_pending_cell():
    snake = Snake([(4, 7), (3, 7), (2, 7)], RIGHT)
    snake.grow(2)
    snake.step()
    assert snake.body == [(5, 7), (4, 7), (3, 7), (2, 7)]
    snake.step()
    assert len(snake.body) == 5
    snake.step()
    assert len(snake.body) == 5
    assert snake.body[-1] == (3, 7)
    assert snake.grow_pending == 0


def test_hits_self():
    snake = Snake([(4, 4), (5, 4), (5, 5), (4, 5), (3, 5)], LEFT)
    assert not snake.hits_self()
    snake.turn(DOWN)
    snake.step()  # head (4, 5) is still part of the body
    assert snake.hits_self()


def test_moving_into_the_old_tail_cell_is_safe():
    # A 4-cell square loop: the tail leaves the cell the head enters.
    snake = Snake([(4, 4), (5, 4), (5, 5), (4, 5)], LEFT)
    snake.turn(DOWN)
    snake.step()
    assert not snake.hits_self()


def test_place_pellet_avoids_occupied_and_is_deterministic():
    occupied = {(x, y) for x in range(4) for y in range(3)} - {(2, 1)}
    assert place_pellet(random.Random(1), 4, 3, occupied) == (2, 1)
    assert place_pellet(random.Random(1), 4, 3, occupied | {(2, 1)}) is None
    a = [place_pellet(random.Random(7), 10, 10, {(0, 0)}) for _ in range(3)]
    assert a[0] == a[1] == a[2]
    rng = random.Random(3)
    for _ in range(200):
        x, y = place_pellet(rng, 5, 4, {(0, 0), (1, 1)})
        assert 0 <= x < 5 and 0 <= y < 4 and (x, y) not in {(0, 0), (1, 1)}


def test_place_pellet_uses_row_major_choice():
    expected = random.Random(5).choice([(x, y) for y in range(3) for x in range(3) if (x, y) != (1, 1)])
    assert place_pellet(random.Random(5), 3, 3, {(1, 1)}) == expected


def test_new_game_layout():
    game = SnakeGame(20, 15, seed=0)
    assert game.snake.body == [(4, 7), (3, 7), (2, 7)]
    assert game.score == 0 and not game.game_over
    x, y = game.pellet
    assert y == 7 and 8 <= x <= 17


def test_same_seed_same_pellets():
    def pellets(seed):
        game = SnakeGame(20, 15, seed=seed)
        seen = [game.pellet]
        game.step()
        game.pellet = (game.snake.head[0] + 1, game.snake.head[1])
        game.step()
        seen.append(game.pellet)
        return seen

    assert pellets(3) == pellets(3)
    assert any(pellets(0) != pellets(s) for s in range(1, 6))


def test_eating_scores_grows_and_moves_the_pellet():
    game = SnakeGame(20, 15, seed=0)
    game.pellet = (5, 7)
    game.step()
    assert game.score == 1
    assert game.pellet != (5, 7) and game.pellet not in game.snake.body
    assert len(game.snake.body) == 3  # the growth shows on the next step
    game.step()
    assert len(game.snake.body) == 4
    assert not game.game_over


def test_no_input_eats_the_first_pellet_then_hits_the_wall():
    game = SnakeGame(20, 15, seed=0)
    steps = 0
    while not game.game_over and steps < 100:
        game.step()
        steps += 1
    assert game.score >= 1
    assert game.game_over
    assert game.snake.head == (20, 7)
    assert steps == 16


def test_walls_end_the_game_on_every_side():
    for direction, moves in (("up", 8), ("down", 8)):
        game = SnakeGame(20, 15, seed=0)
        game.pellet = None
        game.turn(direction)
        for _ in range(moves):
            game.step()
        assert game.game_over, direction
    game = SnakeGame(20, 15, seed=0)
    game.pellet = None
    game.turn("up")
    game.step()
    game.turn("left")
    for _ in range(4):
        game.step()
    assert not game.game_over
    game.step()
    assert game.game_over


def test_self_collision_ends_the_game():
    game = SnakeGame(20, 15, seed=0)
    game.pellet = None
    game.snake.grow(3)
    for _ in range(3):
        game.step()
    for direction in ("down", "left", "up"):
        game.turn(direction)
        game.step()
    assert game.game_over


def test_game_over_freezes_the_game_and_reset_restarts():
    game = SnakeGame(20, 15, seed=4)
    first_pellet = game.pellet
    while not game.game_over:
        game.step()
    body = list(game.snake.body)
    game.step()
    assert game.snake.body == body
    assert game.turn("up") is False
    game.reset()
    assert not game.game_over and game.score == 0
    assert game.snake.body == [(4, 7), (3, 7), (2, 7)]
    assert game.pellet == first_pellet


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
