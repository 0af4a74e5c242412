"""Maze: walk out of two mazes. WASD moves, R restarts the level, Esc quits (exit 0).

Pick up the key (K) to open the door (D) in front of the exit (E).
Run: python main.py
"""

from __future__ import annotations

import os
import signal
import sys

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import controls  # noqa: E402
import pygame  # noqa: E402
from maze import DOOR, EXIT, WALL, Maze  # noqa: E402

CELL = 32
HUD_H = 64
COLS, ROWS = 15, 13
WIDTH, HEIGHT = COLS * CELL, HUD_H + ROWS * CELL  # 480 x 480
FPS = 30

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
WALL_COLOUR = (70, 70, 90)
KEY_COLOUR = (240, 200, 40)
DOOR_COLOUR = (150, 90, 40)
EXIT_COLOUR = (40, 170, 70)
PLAYER_COLOUR = (220, 40, 40)

MOVES = {
    controls.MOVE_UP: (-1, 0),
    controls.MOVE_DOWN: (1, 0),
    controls.MOVE_LEFT: (0, -1),
    controls.MOVE_RIGHT: (0, 1),
}


class MazeApp:
    def __init__(self, screen: pygame.Surface) -> None:
        self.screen = screen
        self.game = Maze()
        self.hud_font = pygame.font.Font(None, 32)
        self.hint_font = pygame.font.Font(None, 30)
        self.cell_font = pygame.font.Font(None, 30)
        self.big_font = pygame.font.Font(None, 64)

    def draw(self) -> None:
        game = self.game
        self.screen.fill(BLACK)
        if game.escaped:
            self.draw_centered([("YOU ESCAPED", self.big_font), (f"Steps: {game.steps}", self.hud_font),
                                ("Press R to play again", self.hud_font)])
            return
        status = f"Level {game.level + 1}   Steps: {game.steps}   Key: {'yes' if game.has_key else 'no'}"
        self.blit(self.hud_font.render(status, True, WHITE, BLACK), 10, 8)
        self.blit(self.hint_font.render("WASD move   R restart   Esc quit", True, WHITE, BLACK), 10, 38)
        for row in range(game.rows):
            for col in range(game.cols):
                self.draw_cell(row, col, game.grid[row][col])
        centre = (game.pos[1] * CELL + CELL // 2, HUD_H + game.pos[0] * CELL + CELL // 2)
        pygame.draw.circle(self.screen, PLAYER_COLOUR, centre, CELL // 2 - 4)

    def draw_cell(self, row: int, col: int, cell: str) -> None:
        rect = pygame.Rect(col * CELL, HUD_H + row * CELL, CELL, CELL)
        game = self.game
        if cell == WALL:
            pygame.draw.rect(self.screen, WALL_COLOUR, rect)
        elif (row, col) == game.key_cell and not game.has_key:
            self.letter(rect, "K", KEY_COLOUR)
        elif cell == DOOR and not game.has_key:
            self.letter(rect, "D", DOOR_COLOUR)
        elif cell == EXIT:
            self.letter(rect, "E", EXIT_COLOUR)
        else:
            pygame.draw.rect(self.screen, WHITE, rect)

    def letter(self, rect: pygame.Rect, text: str, colour: tuple[int, int, int]) -> None:
        pygame.draw.rect(self.screen, colour, rect)
        label = self.cell_font.render(text, True, BLACK, colour)
        self.screen.blit(label, label.get_rect(center=rect.center))

    def blit(self, surface: pygame.Surface, x: int, y: int) -> None:
        self.screen.blit(surface, (x, y))

    def draw_centered(self, lines: list[tuple[str, pygame.font.Font]]) -> None:
        y = HEIGHT // 2 - 40 * len(lines)
        for text, font in lines:
            label = font.render(text, True, WHITE, BLACK)
            self.screen.blit(label, label.get_rect(midtop=(WIDTH // 2, y)))
            y += label.get_height() + 30


def run() -> int:
    screen = pygame.display.set_mode((WIDTH, HEIGHT))
    pygame.display.set_caption("Maze")
    clock = pygame.time.Clock()
    app = MazeApp(screen)
    game = app.game
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return 0
            if event.type != pygame.KEYDOWN:
                continue
            if event.key == controls.QUIT:
                return 0
            if event.key in MOVES:
                game.move(*MOVES[event.key])
            elif event.key == controls.RESTART:
                if game.escaped:
                    game.new_game()
                else:
                    game.restart_level()
        app.draw()
        pygame.display.flip()
        clock.tick(FPS)


def _exit_on_sigterm(_signum: int, _frame: object) -> None:
    raise SystemExit(0)


def main() -> int:
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    pygame.display.init()
    pygame.font.init()
    try:
        return run()
    finally:
        pygame.quit()


if __name__ == "__main__":
    sys.exit(main())
