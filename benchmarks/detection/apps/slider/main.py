"""Slider: the 15-puzzle. Arrow keys slide a tile into the gap; N starts a new game; Q quits.

Run: python main.py        (PLAYTEST_SEED=N picks the shuffle; default 0)
"""

from __future__ import annotations

import os
import random
import signal
import sys

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import controls  # noqa: E402
import pygame  # noqa: E402
from puzzle import SIZE, Puzzle  # noqa: E402

TILE = 90
GAP = 10
HUD_H = 50
BOARD_PX = SIZE * TILE + (SIZE + 1) * GAP  # 410
WIDTH, HEIGHT = BOARD_PX, HUD_H + BOARD_PX  # 410 x 460
FPS = 30

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
BOARD_BG = (60, 60, 70)
TILE_BG = (240, 240, 230)
HOLE = (35, 35, 40)


def direction_for(key: int) -> str | None:
    if key == controls.MOVE_UP:
        return "up"
    if key == controls.MOVE_DOWN:
        return "down"
    if key == controls.MOVE_LEFT:
        return "left"
    if key == controls.MOVE_RIGHT:
        return "right"
    return None


class SliderApp:
    def __init__(self, screen: pygame.Surface, seed: int) -> None:
        self.screen = screen
        self.puzzle = Puzzle(random.Random(seed))
        self.hud_font = pygame.font.Font(None, 40)
        self.tile_font = pygame.font.Font(None, 64)
        self.big_font = pygame.font.Font(None, 72)
        self.small_font = pygame.font.Font(None, 30)

    def on_key(self, key: int) -> None:
        direction = direction_for(key)
        if direction is not None:
            self.puzzle.move(direction)
        elif key == controls.NEW_GAME:
            self.puzzle.new_game()

    def draw(self) -> None:
        self.screen.fill(BLACK, pygame.Rect(0, 0, WIDTH, HUD_H))
        moves = self.hud_font.render(f"Moves: {self.puzzle.moves}", True, WHITE, BLACK)
        self.screen.blit(moves, moves.get_rect(midleft=(GAP, HUD_H // 2)))
        hint = self.small_font.render("N new   Q quit", True, WHITE, BLACK)
        self.screen.blit(hint, hint.get_rect(midright=(WIDTH - GAP, HUD_H // 2)))
        self.screen.fill(BOARD_BG, pygame.Rect(0, HUD_H, WIDTH, BOARD_PX))
        for row in range(SIZE):
            for col in range(SIZE):
                self.draw_tile(row, col, self.puzzle.grid[row][col])
        if self.puzzle.is_solved():
            self.draw_banner()

    def draw_tile(self, row: int, col: int, value: int) -> None:
        rect = pygame.Rect(GAP + col * (TILE + GAP), HUD_H + GAP + row * (TILE + GAP), TILE, TILE)
        if value == 0:
            pygame.draw.rect(self.screen, HOLE, rect)
            return
        pygame.draw.rect(self.screen, TILE_BG, rect, border_radius=8)
        label = self.tile_font.render(str(value), True, BLACK, TILE_BG)
        self.screen.blit(label, label.get_rect(center=rect.center))

    def draw_banner(self) -> None:
        title = self.big_font.render("SOLVED", True, WHITE, BLACK)
        hint = self.small_font.render("Press N for a new game", True, WHITE, BLACK)
        box = pygame.Rect(0, 0, max(title.get_width(), hint.get_width()) + 50, 140)
        box.center = (WIDTH // 2, HUD_H + BOARD_PX // 2)
        pygame.draw.rect(self.screen, BLACK, box)
        pygame.draw.rect(self.screen, WHITE, box, width=3)
        self.screen.blit(title, title.get_rect(center=(box.centerx, box.top + 48)))
        self.screen.blit(hint, hint.get_rect(center=(box.centerx, box.top + 105)))


def run(seed: int) -> int:
    screen = pygame.display.set_mode((WIDTH, HEIGHT))
    pygame.display.set_caption("Slider")
    clock = pygame.time.Clock()
    app = SliderApp(screen, seed)
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return 0
            if event.type == pygame.KEYDOWN:
                if event.key == controls.QUIT:
                    return 0
                app.on_key(event.key)
        app.draw()
        pygame.display.flip()
        clock.tick(FPS)


def _exit_on_sigterm(_signum: int, _frame: object) -> None:
    raise SystemExit(0)


def main() -> int:
    seed = int(os.environ.get("PLAYTEST_SEED", "0"))
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    pygame.display.init()
    pygame.font.init()
    try:
        return run(seed)
    finally:
        pygame.quit()


if __name__ == "__main__":
    sys.exit(main())
