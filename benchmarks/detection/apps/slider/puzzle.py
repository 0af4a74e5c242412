"""Slider logic: the 15-puzzle on a 4x4 board. Pure Python, no pygame.

A direction names where a tile moves: "left" slides the tile right of the gap into the gap,
so the gap moves one cell to the right. A move towards an edge the gap already touches does nothing.
"""

from __future__ import annotations

import random

SIZE = 4
# (row, col) offset from the gap to the tile that moves into it
SOURCES = {"up": (1, 0), "down": (-1, 0), "left": (0, 1), "right": (0, -1)}
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


def solved_grid() -> list[list[int]]:
    grid = [[row * SIZE + col + 1 for col in range(SIZE)] for row in range(SIZE)]
    grid[SIZE - 1][SIZE - 1] = 0
    return grid


class Puzzle:
    def __init__(self, rng: random.Random, shuffle_moves: int = 40) -> None:
        self.rng = rng
        self.shuffle_moves = shuffle_moves
        self.new_game()

    def new_game(self) -> None:
        self.grid = solved_grid()
        self.gap = (SIZE - 1, SIZE - 1)
        last = ""
        done = 0
        while done < self.shuffle_moves or self.is_solved():
            choices = [d for d in self.legal_directions() if d != OPPOSITE.get(last)]
            last = self.rng.choice(choices)
            self.slide(last)
            done += 1
        self.moves = 0

    def legal_directions(self) -> list[str]:
        row, col = self.gap
        return [d for d, (dr, dc) in sorted(SOURCES.items()) if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE]

    def slide(self, direction: str) -> bool:
        """Move the tile next to the gap in `direction`; False if there is no such tile."""
        row, col = self.gap
        d_row, d_col = SOURCES[direction]
        src_row, src_col = row + d_row, col + d_col
        if not (0 <= src_row < SIZE and 0 <= src_col < SIZE):
            return False
        self.grid[row][col] = self.grid[src_row][src_col]
        self.grid[src_row][src_col] = 0
        self.gap = (src_row, src_col)
        return True

    def move(self, direction: str) -> bool:
        """A player's move: counted only when a tile moved; nothing moves once solved."""
        if self.is_solved() or not self.slide(direction):
            return False
        self.moves += 1
        return True

    def is_solved(self) -> bool:
        return self.grid == solved_grid()

