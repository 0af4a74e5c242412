"""2048 game logic, independent of pygame.

The board is a list of rows (``grid[row][col]``), 0 meaning an empty cell.
"""

from __future__ import annotations

import random

DIRECTIONS = ("left", "right", "up", "down")


def merge_line(line: list[int]) -> tuple[list[int], int]:
    """Slide one line of tiles towards index 0 and merge equal neighbours.

    Zeros are empty cells. Tiles slide over empty cells; two equal tiles that meet merge into one tile of
    twice the value, and a tile produced by a merge does not merge again in the same move
    (``[2, 2, 4, 0]`` gives ``[4, 4, 0, 0]``). When three equal tiles meet, the two nearest index 0 merge
    (``[2, 2, 2, 0]`` gives ``[4, 2, 0, 0]``). Returns ``(new_line, gained)``: the new line, padded with
    zeros to the input's length, and the sum of the values of the merged tiles (the points scored).
    The input list is not modified.
    """
    tiles = [value for value in line if value]
    merged: list[int] = []
    gained = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            merged.append(tiles[i] * 2)
            gained += tiles[i] * 2
            i += 2
        else:
            merged.append(tiles[i])
            i += 1
    return merged + [0] * (len(line) - len(merged)), gained


class Board:
    """A 2048 board with its score and a seeded random generator for new tiles."""

    def __init__(self, size: int = 4, seed: int = 0, target: int = 2048,
                 grid: list[list[int]] | None = None) -> None:
        self.size = size
        self.target = target
        self.rng = random.Random(seed)
        self.score = 0
        self.moves = 0
        if grid is None:
            self.grid = [[0] * size for _ in range(size)]
            self.spawn_tile()
            self.spawn_tile()
        else:
            if len(grid) != size or any(len(row) != size for row in grid):
                raise ValueError(f"grid must be {size}x{size}")
            self.grid = [list(row) for row in grid]

    def empty_cells(self) -> list[tuple[int, int]]:
        """The ``(row, col)`` of every empty cell, in row-major order."""
        return [(r, c) for r in range(self.size) for c in range(self.size) if self.grid[r][c] == 0]

    def spawn_tile(self) -> tuple[int, int] | None:
        """Put a new tile on a random empty cell and return its ``(row, col)``; None if the board is full.

        The cell is ``rng.choice(self.empty_cells())``; then the value is 4 if ``rng.random() < 0.1``,
        else 2.
        """
        empty = self.empty_cells()
        if not empty:
            return None
        row, col = self.rng.choice(empty)
        self.grid[row][col] = 4 if self.rng.random() < 0.1 else 2
        return row, col

    def _line_cells(self, direction: str, index: int) -> list[tuple[int, int]]:
        """The cells of one row/column, ordered from the edge the tiles slide towards."""
        n = self.size
        if direction == "left":
            return [(index, c) for c in range(n)]
        if direction == "right":
            return [(index, c) for c in reversed(range(n))]
        if direction == "up":
            return [(r, index) for r in range(n)]
        if direction == "down":
            return [(r, index) for r in reversed(range(n))]
        raise ValueError(f"unknown direction {direction!r}; expected one of {DIRECTIONS}")

    def slide(self, direction: str) -> tuple[bool, int]:
        """Slide and merge every row or column towards ``direction`` (no new tile, no score change).

        Each line is read starting at the edge the tiles move to (e.g. for "right" a row is read from the
        right end) and passed through ``merge_line``. Returns ``(changed, gained)``: whether any cell
        changed, and the points the merges produced. Raises ValueError for an unknown direction.
        """
        changed = False
        gained = 0
        for index in range(self.size):
            cells = self._line_cells(direction, index)
            line = [self.grid[r][c] for r, c in cells]
            new_line, points = merge_line(line)
            gained += points
            if new_line != line:
                changed = True
                for (r, c), value in zip(cells, new_line, strict=True):
                    self.grid[r][c] = value
        return changed, gained

    def move(self, direction: str) -> bool:
        """Play one move: slide towards ``direction``; if anything changed, add the points to ``score``,
        count the move in ``moves`` and spawn one new tile. Returns whether the board changed.

        A move that changes nothing does not spawn a tile and does not count. Raises ValueError for an
        unknown direction.
        """
        changed, gained = self.slide(direction)
        if changed:
            self.score += gained
            self.moves += 1
            self.spawn_tile()
        return changed

    def can_move(self) -> bool:
        """True if some move would change the board: an empty cell, or two equal neighbours in a row or
        column."""
        n = self.size
        for r in range(n):
            for c in range(n):
                value = self.grid[r][c]
                if value == 0:
                    return True
                if c + 1 < n and self.grid[r][c + 1] == value:
                    return True
                if r + 1 < n and self.grid[r + 1][c] == value:
                    return True
        return False

    def max_tile(self) -> int:
        return max(max(row) for row in self.grid)

    def has_won(self) -> bool:
        """True once a tile reaches ``target``."""
        return self.max_tile() >= self.target

    def is_over(self) -> bool:
        """True when no move can change the board."""
        return not self.can_move()
