"""Unit tests for the 2048 logic (no pygame). Run: python unit_tests.py  (exit 0 = all passed)."""

from __future__ import annotations

import random
import sys
import traceback

from logic import Board, merge_line


def test_merge_line_slides_over_gaps():
    assert merge_line([0, 0, 0, 2]) == ([2, 0, 0, 0], 0)
    assert merge_line([0, 2, 0, 4]) == ([2, 4, 0, 0], 0)
    assert merge_line([0, 0, 0, 0]) == ([0, 0, 0, 0], 0)
    assert merge_line([2, 4, 8, 16]) == ([2, 4, 8, 16], 0)


def test_merge_line_merges_pairs():
    assert merge_line([2, 2, 0, 0]) == ([4, 0, 0, 0], 4)
    assert merge_line([2, 0, 0, 2]) == ([4, 0, 0, 0], 4)
    assert merge_line([4, 4, 8, 8]) == ([8, 16, 0, 0], 24)
    assert merge_line([2, 2, 2, 2]) == ([4, 4, 0, 0], 8)
    assert merge_line([1024, 1024, 0, 0]) == ([2048, 0, 0, 0], 2048)


def test_merge_line_merged_tiles_do_not_merge_again():
    assert merge_line([2, 2, 4, 0]) == ([4, 4, 0, 0], 4)
    assert merge_line([4, 2, 2, 0]) == ([4, 4, 0, 0], 4)
    assert merge_line([8, 4, 4, 0]) == ([8, 8, 0, 0], 8)


def test_merge_line_three_equal_tiles_merge_nearest_first():
    assert merge_line([2, 2, 2, 0]) == ([4, 2, 0, 0], 4)
    assert merge_line([0, 2, 2, 2]) == ([4, 2, 0, 0], 4)


def test_merge_line_other_lengths_and_no_mutation():
    line = [2, 0, 2, 4, 4, 0]
    assert merge_line(line) == ([4, 8, 0, 0, 0, 0], 12)
    assert line == [2, 0, 2, 4, 4, 0]
    assert merge_line([]) == ([], 0)
    assert merge_line([8]) == ([8], 0)


def test_merge_line_random_invariants():
    rng = random.Random(42)
    for _ in range(500):
        line = [rng.choice([0, 0, 2, 4, 8]) for _ in range(4)]
        new, gained = merge_line(line)
        assert len(new) == 4
        assert sum(new) == sum(line)
        nonzero = [v for v in new if v]
        assert new[: len(nonzero)] == nonzero, (line, new)
        assert gained % 2 == 0 and gained <= sum(line)
        merges = len([v for v in line if v]) - len(nonzero)
        assert merges >= 0 and (merges == 0) == (gained == 0), (line, new, gained)


def board(rows):
    return Board(4, seed=0, grid=rows)


def test_slide_in_every_direction():
    start = [[2, 0, 2, 0], [0, 4, 0, 4], [2, 2, 4, 4], [0, 0, 0, 8]]
    b = board(start)
    assert b.slide("left") == (True, 4 + 8 + 4 + 8)
    assert b.grid == [[4, 0, 0, 0], [8, 0, 0, 0], [4, 8, 0, 0], [8, 0, 0, 0]]
    b = board(start)
    assert b.slide("right") == (True, 24)
    assert b.grid == [[0, 0, 0, 4], [0, 0, 0, 8], [0, 0, 4, 8], [0, 0, 0, 8]]
    b = board(start)
    assert b.slide("up") == (True, 12)
    assert b.grid == [[4, 4, 2, 8], [0, 2, 4, 8], [0, 0, 0, 0], [0, 0, 0, 0]]
    b = board(start)
    assert b.slide("down") == (True, 12)
    assert b.grid == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 4, 2, 8], [4, 2, 4, 8]]


def test_slide_without_change():
    b = board([[2, 4, 0, 0], [4, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert b.slide("left") == (False, 0)
    assert b.slide("up") == (False, 0)
    assert b.grid[0] == [2, 4, 0, 0]


def test_slide_rejects_unknown_direction():
    try:
        board([[0] * 4 for _ in range(4)]).slide("sideways")
    except ValueError:
        return
    raise AssertionError("slide('sideways') should raise ValueError")


def test_move_scores_counts_and_spawns_one_tile():
    b = board([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
    assert b.move("left") is True
    assert b.score == 4 and b.moves == 1
    assert b.grid[0][0] == 4 and b.grid[3][0] == 4
    tiles = sorted(v for row in b.grid for v in row if v)
    assert len(tiles) == 3 and tiles.count(4) >= 2
    assert len(b.empty_cells()) == 13


def test_move_that_changes_nothing_does_not_spawn_or_count():
    b = board([[2, 0, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    before = [list(row) for row in b.grid]
    assert b.move("left") is False
    assert b.grid == before and b.moves == 0 and b.score == 0


def test_move_score_accumulates():
    b = board([[2, 2, 4, 4], [8, 8, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    b.move("left")
    assert b.score == 4 + 8 + 16
    assert b.grid[0][:2] == [4, 8] and b.grid[1][0] == 16


def test_spawn_tile_is_seeded_and_uses_empty_cells():
    def spawns(seed):
        b = Board(4, seed=seed, grid=[[0] * 4 for _ in range(4)])
        return [(b.spawn_tile(), b.max_tile()) for _ in range(16)], b

    first, b = spawns(7)
    second, _ = spawns(7)
    assert first == second
    assert len({cell for cell, _ in first}) == 16
    assert all(v in (2, 4) for row in b.grid for v in row)
    assert b.spawn_tile() is None


def test_spawn_tile_follows_rng_protocol():
    rng = random.Random(3)
    cell = rng.choice([(r, c) for r in range(4) for c in range(4) if (r, c) != (0, 0)])
    value = 4 if rng.random() < 0.1 else 2
    b = Board(4, seed=3, grid=[[2, 0, 0, 0]] + [[0] * 4 for _ in range(3)])
    assert b.spawn_tile() == cell
    assert b.grid[cell[0]][cell[1]] == value


def test_spawn_values_are_mostly_twos():
    b = Board(4, seed=11, grid=[[0] * 4 for _ in range(4)])
    values = []
    for _ in range(400):
        b.grid = [[0] * 4 for _ in range(4)]
        r, c = b.spawn_tile()
        values.append(b.grid[r][c])
    fours = values.count(4)
    assert set(values) == {2, 4}
    assert 10 <= fours <= 80, fours


def test_new_board_has_two_tiles_and_is_deterministic():
    a, b = Board(seed=5), Board(seed=5)
    assert a.grid == b.grid
    assert len(a.empty_cells()) == 14
    assert a.score == 0 and a.moves == 0
    assert any(Board(seed=s).grid != a.grid for s in range(6, 12))


def test_can_move_and_is_over():
    full_stuck = [[2, 4, 8, 16], [32, 64, 128, 256], [2, 4, 8, 16], [32, 64, 128, 256]]
    assert not board(full_stuck).can_move()
    assert board(full_stuck).is_over()
    horizontal_pair = [row[:] for row in full_stuck]
    horizontal_pair[1][1] = 32  # equal to its left neighbour only
    assert board(horizontal_pair).can_move()
    vertical_pair = [row[:] for row in full_stuck]
    vertical_pair[1][3] = 16  # equal to the tiles above and below only
    assert board(vertical_pair).can_move()
    last_column_pair = [row[:] for row in full_stuck]
    last_column_pair[3][3] = 16
    assert board(last_column_pair).can_move()
    bottom_row_pair = [row[:] for row in full_stuck]
    bottom_row_pair[3][2] = 256
    assert board(bottom_row_pair).can_move()
    with_gap = [row[:] for row in full_stuck]
    with_gap[1][1] = 0
    assert board(with_gap).can_move() and not board(with_gap).is_over()


def test_has_won_with_target():
    b = Board(4, seed=0, target=16, grid=[[8, 8, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    assert not b.has_won()
    b.move("left")
    assert b.has_won()
    assert not board([[1024, 512, 0, 0], [0] * 4, [0] * 4, [0] * 4]).has_won()
    assert board([[2048, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]).has_won()


def test_grid_size_is_checked():
    try:
        Board(4, grid=[[0, 0, 0]])
    except ValueError:
        return
    raise AssertionError("a 1x3 grid should be rejected")


def test_random_game_keeps_invariants():
    b = Board(seed=1)
    rng = random.Random(1)
    for _ in range(300):
        if b.is_over():
            break
        total = sum(map(sum, b.grid))
        changed = b.move(rng.choice(["left", "right", "up", "down"]))
        new_total = sum(map(sum, b.grid))
        assert new_total - total in ((2, 4) if changed else (0,))
    assert b.score > 0 and b.moves > 10


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
