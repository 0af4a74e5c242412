"""Maze logic: walk from S to E; the door D opens only once the key K is picked up. No pygame here."""

from __future__ import annotations

WALL, FLOOR, START, KEY, DOOR, EXIT = "#", ".", "S", "K", "D", "E"

LEVELS = [
    [
        "###############",
        "#.......#...#E#",
        "#.#####.#.###D#",
        "#.#...#...#...#",
        "#.#.#.#####.###",
        "#...#.....#...#",
        "###.#####.###.#",
        "#...#.....#...#",
        "#.###.###.#.#.#",
        "#.#...#...#.#.#",
        "#.#.###.###.#.#",
        "#..K#.........#",
        "#S#############",
    ],
    [
        "###############",
        "#E..#.........#",
        "###.#.#####.#.#",
        "#...#.#...#.#.#",
        "#D###.#.#.#.#.#",
        "#.....#.#...#.#",
        "#.#####.#####.#",
        "#.#.....#...#.#",
        "#.#.###.#.#.#.#",
        "#...#...#.#...#",
        "#####.###.#####",
        "#.K.....#.....#",
        "#############S#",
    ],
]

Cell = tuple[int, int]


def locate(rows: list[str], mark: str) -> Cell:
    for r, line in enumerate(rows):
        c = line.find(mark)
        if c >= 0:
            return (r, c)
    raise ValueError(f"level has no {mark!r}")


class Maze:
    def __init__(self, levels: list[list[str]] = LEVELS) -> None:
        self.levels = levels
        self.level = 0
        self.escaped = False
        self.restart_level()

    def restart_level(self) -> None:
        rows = self.levels[self.level]
        self.grid = [list(line) for line in rows]
        self.rows, self.cols = len(rows), len(rows[0])
        self.pos = locate(rows, START)
        self.key_cell = locate(rows, KEY)
        self.exit_cell = locate(rows, EXIT)
        self.has_key = False
        self.steps = 0

    def blocked(self, row: int, col: int) -> bool:
        cell = self.grid[row][col]
        return cell == WALL or (cell == DOOR and not self.has_key)

    def move(self, d_row: int, d_col: int) -> bool:
        """One step; False (and nothing changes) into a wall, a locked door, out of the maze or after the end."""
        if self.escaped:
            return False
        row, col = self.pos[0] + d_row, self.pos[1] + d_col
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            return False
        if self.blocked(row, col):
            return False
        self.pos = (row, col)
        self.steps += 1
        if self.pos == self.key_cell:
            self.has_key = True
        if self.pos == self.exit_cell:
            self.next_level()
        return True

    def next_level(self) -> None:
        if self.level + 1 < len(self.levels):
            self.level += 1
            self.restart_level()
        else:
            self.escaped = True

    def new_game(self) -> None:
        self.level = 0
        self.escaped = False
        self.restart_level()
