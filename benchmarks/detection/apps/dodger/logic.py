"""Dodge logic: rocks fall in five lanes, the player dodges by changing lanes. No pygame here.

Everything advances in frames (30 per second), never on wall-clock time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

LANES = 5
FIELD_H = 440  # height of the play area in pixels
ROCK_SIZE = 50
PLAYER_Y = FIELD_H - 60  # top of the player's box
PLAYER_H = 40
START_LIVES = 3
SPAWN_EVERY = 24  # frames between two rocks
BASE_SPEED = 7  # pixels per frame
INVULNERABLE_FRAMES = 45  # after a hit the player blinks and cannot be hit again


@dataclass
class Rock:
    lane: int
    y: int


class Dodger:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.reset()

    def reset(self) -> None:
        self.lane = LANES // 2
        self.rocks: list[Rock] = []
        self.score = 0
        self.lives = START_LIVES
        self.invulnerable = 0
        self.frame = 0
        self.over = False

    @property
    def speed(self) -> int:
        return BASE_SPEED + self.score // 10

    def move_left(self) -> None:
        self.lane = max(self.lane - 1, 0)

    def move_right(self) -> None:
        self.lane = min(self.lane + 1, LANES - 1)

    def step(self) -> None:
        if self.over:
            return
        self.frame += 1
        if self.invulnerable:
            self.invulnerable -= 1
        if self.frame % SPAWN_EVERY == 1:
            self.rocks.append(Rock(self.rng.randrange(LANES), -ROCK_SIZE))
        for rock in self.rocks:
            rock.y += self.speed
        kept = [rock for rock in self.rocks if rock.y < FIELD_H]
        self.score += len(self.rocks) - len(kept)
        self.rocks = kept
        hit = next((rock for rock in self.rocks if self.hits(rock)), None)
        if hit is not None and not self.invulnerable:
            self.rocks.remove(hit)
            self.lives -= 1
            self.invulnerable = INVULNERABLE_FRAMES
            if self.lives <= 0:
                self.over = True

    def hits(self, rock: Rock) -> bool:
        return rock.lane == self.lane and rock.y + ROCK_SIZE > PLAYER_Y and rock.y < PLAYER_Y + PLAYER_H
