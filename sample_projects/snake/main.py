"""Snake: a pygame snake steered with the arrow keys or WASD.

Run: python main.py [--bug NAME]      (PLAYTEST_SEED=N picks the pellet sequence; default 0)
"""

from __future__ import annotations

import argparse
import faulthandler
import math
import os
import signal
import sys

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
from logic import SnakeGame  # noqa: E402

# Seeded bug variants, selected with --bug. The default (no --bug) is the correct app.
BUGS = {
    "score-not-updated": "the score text is drawn once and never redrawn: it stays 'Score: 0' while the "
    "snake eats",
}

CELL = 24
GRID_W, GRID_H = 20, 15
HUD_H = 50
WIDTH, HEIGHT = GRID_W * CELL, HUD_H + GRID_H * CELL  # 480 x 410
FPS = 30
FRAMES_PER_MOVE = 5  # the snake moves 6 cells per second

KEYS = {
    pygame.K_UP: "up", pygame.K_w: "up",
    pygame.K_DOWN: "down", pygame.K_s: "down",
    pygame.K_LEFT: "left", pygame.K_a: "left",
    pygame.K_RIGHT: "right", pygame.K_d: "right",
}
RESTART_KEYS = (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER)

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
FIELD = (24, 24, 32)
GRID_LINE = (34, 34, 44)
SNAKE = (60, 200, 90)
SNAKE_HEAD = (140, 240, 150)


def read_seed() -> int:
    raw = os.environ.get("PLAYTEST_SEED", "0")
    try:
        return int(raw)
    except ValueError:
        print(f"PLAYTEST_SEED must be an integer, got {raw!r}", file=sys.stderr)
        sys.exit(2)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="pygame snake sample app")
    parser.add_argument("--bug", choices=sorted(BUGS), help="run a seeded bug variant")
    return parser.parse_args(argv)


def _exit_on_sigterm(_signum, _frame) -> None:
    raise SystemExit(0)


class SnakeView:
    def __init__(self, screen: pygame.Surface, bug: str | None) -> None:
        self.screen = screen
        self.bug = bug
        self.hud_font = pygame.font.Font(None, 44)
        self.big_font = pygame.font.Font(None, 80)
        self.small_font = pygame.font.Font(None, 32)
        self.frozen_score: pygame.Surface | None = None

    def cell_rect(self, cell: tuple[int, int]) -> pygame.Rect:
        x, y = cell
        return pygame.Rect(x * CELL, HUD_H + y * CELL, CELL, CELL)

    def score_surface(self, score: int) -> pygame.Surface:
        if self.bug == "score-not-updated":
            if self.frozen_score is None:
                self.frozen_score = self.hud_font.render(f"Score: {score}", True, WHITE, BLACK)
            return self.frozen_score
        return self.hud_font.render(f"Score: {score}", True, WHITE, BLACK)

    def draw(self, game: SnakeGame, frame: int) -> None:
        screen = self.screen
        screen.fill(BLACK, pygame.Rect(0, 0, WIDTH, HUD_H))
        screen.blit(self.score_surface(game.score), (14, 12))
        screen.fill(FIELD, pygame.Rect(0, HUD_H, WIDTH, HEIGHT - HUD_H))
        for x in range(1, GRID_W):
            pygame.draw.line(screen, GRID_LINE, (x * CELL, HUD_H), (x * CELL, HEIGHT))
        for y in range(1, GRID_H):
            pygame.draw.line(screen, GRID_LINE, (0, HUD_H + y * CELL), (WIDTH, HUD_H + y * CELL))

        if game.pellet is not None:
            # The pellet pulses every frame, so a healthy game never shows two identical frames in a row.
            phase = abs(frame % 30 - 15) / 15  # 1 -> 0 -> 1 over a second, a new value every frame
            colour = (150 + round(105 * phase), 40, 40)
            radius = CELL / 2 - 3 + 2.5 * math.sin(frame * 2 * math.pi / 15)
            pygame.draw.circle(screen, colour, self.cell_rect(game.pellet).center, radius)
        for i, cell in enumerate(game.snake.body):
            if game.in_bounds(cell):
                rect = self.cell_rect(cell).inflate(-2, -2)
                pygame.draw.rect(screen, SNAKE_HEAD if i == 0 else SNAKE, rect, border_radius=5)

        if game.game_over:
            self.draw_game_over()

    def draw_game_over(self) -> None:
        title = self.big_font.render("GAME OVER", True, WHITE, BLACK)
        hint = self.small_font.render("Press SPACE to restart", True, WHITE, BLACK)
        box = pygame.Rect(0, 0, max(title.get_width(), hint.get_width()) + 60, 150)
        box.center = (WIDTH // 2, HUD_H + (HEIGHT - HUD_H) // 2)
        pygame.draw.rect(self.screen, BLACK, box)
        pygame.draw.rect(self.screen, WHITE, box, width=3)
        self.screen.blit(title, title.get_rect(center=(box.centerx, box.top + 52)))
        self.screen.blit(hint, hint.get_rect(center=(box.centerx, box.top + 112)))


def run(bug: str | None, seed: int) -> int:
    screen = pygame.display.set_mode((WIDTH, HEIGHT))
    pygame.display.set_caption("Snake")
    clock = pygame.time.Clock()
    game = SnakeGame(GRID_W, GRID_H, seed=seed)
    view = SnakeView(screen, bug)
    frame = 0
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return 0
            if event.type == pygame.KEYDOWN:
                if event.key in KEYS:
                    game.turn(KEYS[event.key])
                elif event.key in RESTART_KEYS and game.game_over:
                    game.reset()
                    frame = 0
        frame += 1
        if frame % FRAMES_PER_MOVE == 0:
            game.step()
        view.draw(game, frame)
        pygame.display.flip()
        clock.tick(FPS)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    seed = read_seed()
    faulthandler.register(signal.SIGUSR1)  # `kill -USR1 PID` prints where the app is stuck
    signal.signal(signal.SIGTERM, _exit_on_sigterm)  # installed before SDL, which then keeps it
    pygame.display.init()
    pygame.font.init()
    try:
        return run(args.bug, seed)
    finally:
        pygame.quit()


if __name__ == "__main__":
    sys.exit(main())
