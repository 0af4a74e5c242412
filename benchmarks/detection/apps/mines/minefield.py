"""Mines logic: a 9x9 minefield with 10 mines. No pygame here.

Mines are placed on the first opened cell, never on it or next to it, so the first click always opens an area.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

Cell = tuple[int, int]
PLAYING, LOST, WON = "playing", "lost", "won"


class Field:
    def __init__(self, rng: random.Random, rows: int = 9, cols: int = 9, mines: int = 10) -> None:
        self.rng = rng
        self.rows, self.cols, self.mines = rows, cols, mines
        self.reset()

    def reset(self) -> None:
        self.mine = [[False] * self.cols for _ in range(self.rows)]
        self.revealed = [[False] * self.cols for _ in range(self.rows)]
        self.flagged = [[False] * self.cols for _ in range(self.rows)]
        self.counts = [[0] * self.cols for _ in range(self.rows)]
        self.placed = False
        self.state = PLAYING

    def neighbours(self, row: int, col: int) -> Iterator[Cell]:
        for d_row in (-1, 0, 1):
            for d_col in (-1, 0, 1):
                r, c = row + d_row, col + d_col
                if (d_row or d_col) and 0 <= r < self.rows and 0 <= c < self.cols:
                    yield r, c

    def place_mines(self, safe_row: int, safe_col: int) -> None:
        safe = {(safe_row, safe_col), *self.neighbours(safe_row, safe_col)}
        cells = [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in safe]
        for r, c in self.rng.sample(cells, self.mines):
            self.mine[r][c] = True
        self.placed = True

    def count(self, row: int, col: int) -> int:
        return sum(self.mine[r][c] for r, c in self.neighbours(row, col))

    def reveal(self, row: int, col: int) -> None:
        if self.state != PLAYING or self.flagged[row][col] or self.revealed[row][col]:
            return
        if not self.placed:
            self.place_mines(row, col)
        if self.mine[row][col]:
            self.revealed[row][col] = True
            self.state = LOST
            return
        stack = [(row, col)]
        while stack:
            r, c = stack.pop()
            if self.revealed[r][c] or self.flagged[r][c]:
                continue
            self.revealed[r][c] = True
            self.counts[r][c] = self.count(r, c)
            if self.counts[r][c] == 0:
                stack.extend(self.neighbours(r, c))
        if self.hidden_safe_cells() == 0:
            self.state = WON

    def toggle_flag(self, row: int, col: int) -> None:
        if self.state == PLAYING and not self.revealed[row][col]:
            self.flagged[row][col] = not self.flagged[row][col]

    def hidden_safe_cells(self) -> int:
        return sum(not self.mine[r][c] and not self.revealed[r][c]
                   for r in range(self.rows) for c in range(self.cols))

    def flags(self) -> int:
        return sum(map(sum, self.flagged))

    def mines_left(self) -> int:
        return self.mines - self.flags()
