"""2048: slide numbered tiles with the arrow keys or WASD; equal tiles merge.

Run: python main.py [--bug NAME] [--target N]      (PLAYTEST_SEED=N picks the tile sequence; default 0)
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import signal
import sys
import time

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
from logic import Board  # noqa: E402

# Seeded bug variants, selected with --bug. The default (no --bug) is the correct app.
BUGS = {
    "invisible-tiles": "tile numbers are drawn in their tile's colour, so no number can be read",
    "crash-after-moves": "the 6th arrow/WASD key press raises IndexError: the app exits 1 with a traceback",
    "hang-on-key": "Down (or S) pressed after 3 or more arrow/WASD presses hangs the app: the window stops "
    "changing and no input is processed",
}

SIZE = 4
TILE = 90
GAP = 12
HUD_H = 60
BOARD_PX = SIZE * TILE + (SIZE + 1) * GAP  # 420
WIDTH, HEIGHT = BOARD_PX, HUD_H + BOARD_PX  # 420 x 480
FPS = 30

KEYS = {
    pygame.K_UP: "up", pygame.K_w: "up",
    pygame.K_DOWN: "down", pygame.K_s: "down",
    pygame.K_LEFT: "left", pygame.K_a: "left",
    pygame.K_RIGHT: "right", pygame.K_d: "right",
}
RESTART_KEYS = (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER)

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
HUD_BG = (50, 48, 44)
BOARD_BG = (187, 173, 160)
EMPTY = (205, 193, 180)
DARK_TEXT = (40, 36, 32)
TILE_COLOURS = {
    2: (238, 228, 218), 4: (237, 224, 200), 8: (242, 177, 121), 16: (245, 149, 99),
    32: (246, 124, 95), 64: (246, 94, 59), 128: (170, 130, 20), 256: (160, 115, 10),
    512: (150, 100, 0), 1024: (130, 85, 0), 2048: (110, 70, 0),
}
BIG_TILE = (60, 58, 50)


def read_seed() -> int:
    raw = os.environ.get("PLAYTEST_SEED", "0")
    try:
        return int(raw)
    except ValueError:
        print(f"PLAYTEST_SEED must be an integer, got {raw!r}", file=sys.stderr)
        sys.exit(2)


def power_of_two(text: str) -> int:
    value = int(text)
    if value < 4 or value & (value - 1):
        raise argparse.ArgumentTypeError(f"{text} is not a power of two >= 4")
    return value


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="pygame 2048 sample app")
    parser.add_argument("--bug", choices=sorted(BUGS), help="run a seeded bug variant")
    parser.add_argument("--target", type=power_of_two, default=2048,
                        help="tile value that wins the game (default 2048; e.g. 16 for a quick win)")
    return parser.parse_args(argv)


def _exit_on_sigterm(_signum, _frame) -> None:
    raise SystemExit(0)


def tile_colour(value: int) -> tuple[int, int, int]:
    return TILE_COLOURS.get(value, BIG_TILE)


def text_colour(value: int) -> tuple[int, int, int]:
    return DARK_TEXT if value <= 64 else WHITE


class Game2048App:
    def __init__(self, screen: pygame.Surface, bug: str | None, seed: int, target: int) -> None:
        self.screen = screen
        self.bug = bug
        self.seed = seed
        self.target = target
        self.hud_font = pygame.font.Font(None, 48)
        self.big_font = pygame.font.Font(None, 80)
        self.small_font = pygame.font.Font(None, 32)
        self.tile_fonts = {digits: pygame.font.Font(None, size)
                           for digits, size in ((1, 64), (2, 64), (3, 54), (4, 42), (5, 34))}
        self.restart()

    def restart(self) -> None:
        self.board = Board(SIZE, seed=self.seed, target=self.target)
        self.key_moves = 0  # arrow/WASD presses handled since the start of the game
        if self.bug == "crash-after-moves":
            self.undo_buffer: list[list[list[int]] | None] = [None] * 5

    def finished(self) -> bool:
        return self.board.has_won() or self.board.is_over()

    def on_direction(self, direction: str) -> None:
        if self.finished():
            return
        if self.bug == "crash-after-moves":
            # Seeded bug: the undo buffer holds 5 snapshots and is indexed past its end on the 6th press.
            self.undo_buffer[self.key_moves] = [list(row) for row in self.board.grid]
        if self.bug == "hang-on-key" and direction == "down" and self.key_moves >= 3:
            # Seeded bug: waits for a slide animation that only the (no longer running) main loop would end.
            animating = True
            while animating:
                time.sleep(0.01)
        self.key_moves += 1
        self.board.move(direction)

    def draw(self) -> None:
        screen = self.screen
        screen.fill(HUD_BG, pygame.Rect(0, 0, WIDTH, HUD_H))
        score = self.hud_font.render(f"Score: {self.board.score}", True, WHITE, HUD_BG)
        screen.blit(score, score.get_rect(midleft=(GAP, HUD_H // 2)))
        screen.fill(BOARD_BG, pygame.Rect(0, HUD_H, WIDTH, BOARD_PX))
        for r in range(SIZE):
            for c in range(SIZE):
                self.draw_tile(r, c, self.board.grid[r][c])
        if self.board.has_won():
            self.draw_banner("YOU WIN")
        elif self.board.is_over():
            self.draw_banner("GAME OVER")

    def draw_tile(self, row: int, col: int, value: int) -> None:
        rect = pygame.Rect(GAP + col * (TILE + GAP), HUD_H + GAP + row * (TILE + GAP), TILE, TILE)
        if value == 0:
            pygame.draw.rect(self.screen, EMPTY, rect, border_radius=6)
            return
        colour = tile_colour(value)
        pygame.draw.rect(self.screen, colour, rect, border_radius=6)
        ink = colour if self.bug == "invisible-tiles" else text_colour(value)
        font = self.tile_fonts[min(len(str(value)), 5)]
        label = font.render(str(value), True, ink, colour)
        self.screen.blit(label, label.get_rect(center=rect.center))

    def draw_banner(self, text: str) -> None:
        title = self.big_font.render(text, True, WHITE, BLACK)
        hint = self.small_font.render("Press SPACE to restart", True, WHITE, BLACK)
        box = pygame.Rect(0, 0, max(title.get_width(), hint.get_width()) + 50, 150)
        box.center = (WIDTH // 2, HUD_H + BOARD_PX // 2)
        pygame.draw.rect(self.screen, BLACK, box)
        pygame.draw.rect(self.screen, WHITE, box, width=3)
        self.screen.blit(title, title.get_rect(center=(box.centerx, box.top + 52)))
        self.screen.blit(hint, hint.get_rect(center=(box.centerx, box.top + 112)))


def run(bug: str | None, seed: int, target: int) -> int:
    screen = pygame.display.set_mode((WIDTH, HEIGHT))
    pygame.display.set_caption("2048")
    clock = pygame.time.Clock()
    app = Game2048App(screen, bug, seed, target)
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return 0
            if event.type == pygame.KEYDOWN:
                if event.key in KEYS:
                    app.on_direction(KEYS[event.key])
                elif event.key in RESTART_KEYS and app.finished():
                    app.restart()
        app.draw()
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
        return run(args.bug, seed, args.target)
    finally:
        pygame.quit()


if __name__ == "__main__":
    sys.exit(main())
