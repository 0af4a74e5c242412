"""Snake game logic on a grid, independent of pygame.

Coordinates are ``(x, y)`` grid cells, ``x`` growing to the right and ``y`` growing downwards.
"""

from __future__ import annotations

import random

UP = (0, -1)
DOWN = (0, 1)
LEFT = (-1, 0)
RIGHT = (1, 0)
DIRECTIONS = {"up": UP, "down": DOWN, "left": LEFT, "right": RIGHT}

Cell = tuple[int, int]


class Snake:
    """The snake: a list of cells, head first, moving one cell per ``step``."""

    def __init__(self, body: list[Cell], direction: Cell = RIGHT) -> None:
        if not body:
            raise ValueError("a snake needs at least one cell")
        self.body = list(body)
        self.direction = direction  # the direction of the last step
        self.next_direction = direction  # the direction the next step will take
        self.grow_pending = 0

    @property
    def head(self) -> Cell:
        return self.body[0]

    def turn(self, direction: Cell) -> bool:
        """Ask the snake to go ``direction`` on its next step.

        A turn straight back onto the snake's own neck (the opposite of the direction of the last step) is
        ignored when the snake is longer than one cell. Returns True if the turn was accepted.
        """
        if direction not in DIRECTIONS.values():
            raise ValueError(f"not a direction: {direction!r}")
        opposite = (-self.direction[0], -self.direction[1])
        if len(self.body) > 1 and direction == opposite:
            return False
        self.next_direction = direction
        return True

    def grow(self, cells: int = 1) -> None:
        """Make the snake longer by ``cells`` over its next steps (the tail stays put while growing)."""
        self.grow_pending += cells

    def step(self) -> Cell:
        """Move one cell in ``next_direction`` and return the new head.

        The head moves forward; the tail follows unless growth is pending, in which case the tail stays and
        one unit of pending growth is used up.
        """
        self.direction = self.next_direction
        x, y = self.head
        new_head = (x + self.direction[0], y + self.direction[1])
        self.body.insert(0, new_head)
        if self.grow_pending > 0:
            self.grow_pending -= 1
        else:
            self.body.pop()
        return new_head

    def hits_self(self) -> bool:
        """True if the head occupies the same cell as another part of the body."""
        return self.head in self.body[1:]


def place_pellet(rng: random.Random, width: int, height: int, occupied: set[Cell]) -> Cell | None:
    """Pick a free cell uniformly at random with ``rng``; None if the grid is full.

    The free cells are taken in row-major order (y, then x) before ``rng.choice`` so the result is
    deterministic for a given seed.
    """
    free = [(x, y) for y in range(height) for x in range(width) if (x, y) not in occupied]
    if not free:
        return None
    return rng.choice(free)


class SnakeGame:
    """A whole game: the snake, the pellet, the score and the game-over state.

    The snake starts with three cells in the middle row, heading right, and the first pellet lies on that
    row ahead of it (so it is eaten without steering); later pellets go on random free cells.
    """

    def __init__(self, width: int = 20, height: int = 15, seed: int = 0) -> None:
        if width < 12 or height < 3:
            raise ValueError("the grid must be at least 12x3")
        self.width = width
        self.height = height
        self.seed = seed
        self.reset()

    def reset(self) -> None:
        """Start a new game with the same seed (the same pellets in the same order)."""
        self.rng = random.Random(self.seed)
        row = self.height // 2
        self.snake = Snake([(4, row), (3, row), (2, row)], RIGHT)
        self.score = 0
        self.game_over = False
        self.pellet: Cell | None = (self.rng.randint(8, self.width - 3), row)

    def turn(self, name: str) -> bool:
        """Turn by direction name ("up", "down", "left", "right"); ignored once the game is over."""
        if self.game_over:
            return False
        return self.snake.turn(DIRECTIONS[name])

    def in_bounds(self, cell: Cell) -> bool:
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height

    def step(self) -> None:
        """Advance the game by one snake move.

        Moving out of the grid or onto the snake's own body ends the game. Moving onto the pellet adds one to
        the score, grows the snake by one cell and places a new pellet on a free cell.
        """
        if self.game_over:
            return
        head = self.snake.step()
        if not self.in_bounds(head) or self.snake.hits_self():
            self.game_over = True
            return
        if head == self.pellet:
            self.score += 1
            self.snake.grow()
            self.pellet = place_pellet(self.rng, self.width, self.height, set(self.snake.body))
