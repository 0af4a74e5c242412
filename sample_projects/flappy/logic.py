"""Flappy-bird style game logic, independent of pygame.

World coordinates are pixels of the play area: ``x`` grows to the right, ``y`` grows downwards, ``y = 0`` is
the ceiling and ``y = GROUND_Y`` the ground. The game advances in fixed frames (30 per second), so a run is
fully determined by the seed and the frames on which the player flaps.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

PLAY_W = 360
GROUND_Y = 380  # height of the play area
GRAVITY = 0.6  # px/frame^2
FLAP_VELOCITY = -7.5  # px/frame, upwards
MAX_FALL_SPEED = 10.0
BIRD_X = 90
BIRD_RADIUS = 14
PIPE_WIDTH = 60
PIPE_GAP = 130  # vertical opening between the upper and the lower pipe
PIPE_SPACING = 170  # horizontal distance between the left edges of consecutive pipes
PIPE_SPEED = 3  # px/frame
FIRST_PIPE_X = 380
GAP_CENTER_MIN = 150  # the opening never reaches the top 85 px: the ceiling is always blocked
GAP_CENTER_MAX = 300


@dataclass
class Pipe:
    """A pair of pipes: the upper one from the ceiling down to ``gap_top``, the lower one from
    ``gap_bottom`` down to the ground."""

    x: float
    gap_center: float
    gap: float = PIPE_GAP
    width: float = PIPE_WIDTH
    scored: bool = False

    @property
    def gap_top(self) -> float:
        return self.gap_center - self.gap / 2

    @property
    def gap_bottom(self) -> float:
        return self.gap_center + self.gap / 2

    def rects(self) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
        """``(upper, lower)`` as ``(left, top, width, height)`` rectangles in world coordinates."""
        upper = (self.x, 0.0, self.width, self.gap_top)
        lower = (self.x, self.gap_bottom, self.width, GROUND_Y - self.gap_bottom)
        return upper, lower


@dataclass
class Bird:
    """The bird: a circle of ``radius`` centred on ``(x, y)`` with vertical speed ``vy``."""

    x: float = BIRD_X
    y: float = GROUND_Y / 2
    vy: float = 0.0
    radius: float = BIRD_RADIUS

    def flap(self) -> None:
        """Jump: the vertical speed becomes ``FLAP_VELOCITY`` whatever it was."""
        self.vy = FLAP_VELOCITY

    def update(self) -> None:
        """Advance one frame: add ``GRAVITY`` to ``vy`` (capped at ``MAX_FALL_SPEED``), then move by ``vy``.

        The ceiling is not deadly: if the top of the bird would go above ``y = 0`` it is put back at
        ``y = radius`` and ``vy`` becomes 0.
        """
        self.vy = min(self.vy + GRAVITY, MAX_FALL_SPEED)
        self.y += self.vy
        if self.y - self.radius < 0:
            self.y = self.radius
            self.vy = 0.0

    def collides(self, pipe: Pipe) -> bool:
        """True if the bird's circle overlaps the upper or the lower pipe rectangle.

        Overlap means the distance from the circle's centre to the nearest point of the rectangle is less than
        ``radius`` (merely touching is not a collision).
        """
        for left, top, width, height in pipe.rects():
            nearest_x = min(max(self.x, left), left + width)
            nearest_y = min(max(self.y, top), top + height)
            if (self.x - nearest_x) ** 2 + (self.y - nearest_y) ** 2 < self.radius ** 2:
                return True
        return False

    def hits_ground(self) -> bool:
        """True once the bottom of the bird reaches the ground (``y + radius >= GROUND_Y``)."""
        return self.y + self.radius >= GROUND_Y


def make_pipe(rng: random.Random, x: float) -> Pipe:
    """A new pipe at ``x`` whose opening is centred at ``rng.randint(GAP_CENTER_MIN, GAP_CENTER_MAX)``."""
    return Pipe(x=x, gap_center=rng.randint(GAP_CENTER_MIN, GAP_CENTER_MAX))


class FlappyGame:
    """The whole game: the bird, the pipes, the score and the game-over state."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.reset()

    def reset(self) -> None:
        """Start again with the same seed: the same pipes in the same places."""
        self.rng = random.Random(self.seed)
        self.bird = Bird()
        self.pipes = [make_pipe(self.rng, FIRST_PIPE_X)]
        self.score = 0
        self.game_over = False
        self.frames = 0

    def flap(self) -> None:
        if not self.game_over:
            self.bird.flap()

    def step(self) -> None:
        """Advance one frame (nothing happens once the game is over).

        The bird moves, the pipes move left by ``PIPE_SPEED``; a pipe that has left the screen is dropped and a
        new one is added ``PIPE_SPACING`` after the last one when that spot is within ``PLAY_W + PIPE_WIDTH``.
        A pipe scores one point, once, when its right edge is left of the bird's left edge. Touching the ground
        (the bird then rests on it) or colliding with a pipe ends the game.
        """
        if self.game_over:
            return
        self.frames += 1
        self.bird.update()
        for pipe in self.pipes:
            pipe.x -= PIPE_SPEED
        self.pipes = [pipe for pipe in self.pipes if pipe.x + pipe.width > 0]
        last_x = self.pipes[-1].x if self.pipes else PLAY_W
        if last_x + PIPE_SPACING <= PLAY_W + PIPE_WIDTH:
            self.pipes.append(make_pipe(self.rng, last_x + PIPE_SPACING))
        for pipe in self.pipes:
            if not pipe.scored and pipe.x + pipe.width < self.bird.x - self.bird.radius:
                pipe.scored = True
                self.score += 1
        if self.bird.hits_ground():
            self.bird.y = GROUND_Y - self.bird.radius
            self.game_over = True
        elif any(self.bird.collides(pipe) for pipe in self.pipes):
            self.game_over = True
