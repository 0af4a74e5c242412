"""Mines: minesweeper on a 9x9 board. Left click opens a cell, right click puts or removes a flag.

After BOOM or CLEARED, SPACE starts a new board.
Run: python main.py        (PLAYTEST_SEED=N picks the mines; default 0)
"""

from __future__ import annotations

import os
import random
import signal
import sys

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
from minefield import LOST, PLAYING, WON, Field  # noqa: E402

ROWS = COLS = 9
CELL = 44
MARGIN = 2
HUD_H = 64
WIDTH, HEIGHT = COLS * CELL + 2 * MARGIN, HUD_H + ROWS * CELL + 2 * MARGIN  # 400 x 464
FPS = 30

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
HIDDEN = (165, 165, 170)
HIDDEN_EDGE = (110, 110, 115)
OPEN = (245, 245, 245)
FLAG = (210, 30, 30)
NUMBER_COLOURS = {1: (20, 40, 200), 2: (20, 120, 20), 3: (200, 20, 20), 4: (20, 20, 120),
                  5: (120, 20, 20), 6: (20, 120, 120), 7: (0, 0, 0), 8: (90, 90, 90)}


class MinesApp:
    def __init__(self, screen: pygame.Surface, seed: int) -> None:
        self.screen = screen
        self.field = Field(random.Random(seed), ROWS, COLS, 10)
        self.hud_font = pygame.font.Font(None, 38)
        self.hint_font = pygame.font.Font(None, 30)
        self.cell_font = pygame.font.Font(None, 40)
        self.big_font = pygame.font.Font(None, 80)

    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        col, row = (x - MARGIN) // CELL, (y - HUD_H - MARGIN) // CELL
        if x < MARGIN or y < HUD_H + MARGIN or row >= ROWS or col >= COLS:
            return None
        return row, col

    def on_click(self, button: int, pos: tuple[int, int]) -> None:
        cell = self.cell_at(*pos)
        if cell is None:
            return
        if button == 1:
            self.field.reveal(*cell)
        elif button == 3:
            self.field.toggle_flag(*cell)

    def on_key(self, key: int) -> None:
        if key == pygame.K_SPACE and self.field.state != PLAYING:
            self.field.reset()

    def draw(self) -> None:
        field = self.field
        self.screen.fill(BLACK)
        hud = self.hud_font.render(f"Mines left: {field.mines_left()}", True, WHITE, BLACK)
        self.screen.blit(hud, (10, 6))
        hint = self.hint_font.render("Left click: open   Right click: flag", True, WHITE, BLACK)
        self.screen.blit(hint, (10, 38))
        for row in range(ROWS):
            for col in range(COLS):
                self.draw_cell(row, col)
        if field.state == LOST:
            self.draw_banner("BOOM")
        elif field.state == WON:
            self.draw_banner("CLEARED")

    def draw_cell(self, row: int, col: int) -> None:
        field = self.field
        rect = pygame.Rect(MARGIN + col * CELL, HUD_H + MARGIN + row * CELL, CELL, CELL)
        if not field.revealed[row][col]:
            pygame.draw.rect(self.screen, HIDDEN, rect)
            pygame.draw.rect(self.screen, HIDDEN_EDGE, rect, width=2)
            if field.flagged[row][col]:
                self.letter(rect, "F", FLAG, HIDDEN)
            elif field.state == LOST and field.mine[row][col]:
                pygame.draw.circle(self.screen, BLACK, rect.center, CELL // 4)
            return
        pygame.draw.rect(self.screen, OPEN, rect)
        pygame.draw.rect(self.screen, HIDDEN, rect, width=1)
        if field.mine[row][col]:
            pygame.draw.circle(self.screen, FLAG, rect.center, CELL // 3)
        elif field.counts[row][col]:
            number = field.counts[row][col]
            self.letter(rect, str(number), NUMBER_COLOURS[number], OPEN)

    def letter(self, rect: pygame.Rect, text: str, ink: tuple[int, int, int], paper: tuple[int, int, int]) -> None:
        label = self.cell_font.render(text, True, ink, paper)
        self.screen.blit(label, label.get_rect(center=rect.center))

    def draw_banner(self, text: str) -> None:
        title = self.big_font.render(text, True, WHITE, BLACK)
        hint = self.hint_font.render("Press SPACE to play again", True, WHITE, BLACK)
        box = pygame.Rect(0, 0, max(title.get_width(), hint.get_width()) + 50, 130)
        box.center = (WIDTH // 2, HUD_H + (HEIGHT - HUD_H) // 2)
        pygame.draw.rect(self.screen, BLACK, box)
        pygame.draw.rect(self.screen, WHITE, box, width=3)
        self.screen.blit(title, title.get_rect(center=(box.centerx, box.top + 45)))
        self.screen.blit(hint, hint.get_rect(center=(box.centerx, box.top + 100)))


def run(seed: int) -> int:
    screen = pygame.display.set_mode((WIDTH, HEIGHT))
    pygame.display.set_caption("Mines")
    clock = pygame.time.Clock()
    app = MinesApp(screen, seed)
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return 0
            if event.type == pygame.MOUSEBUTTONDOWN:
                app.on_click(event.button, event.pos)
            elif event.type == pygame.KEYDOWN:
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
