"""Flappy: keep the bird in the air and fly through the gaps between the pipes.

Space, Up, W or a left click flaps. Run: python main.py [--bug NAME]   (PLAYTEST_SEED=N picks the level)
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import signal
import sys

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import logic  # noqa: E402
import pygame  # noqa: E402
from logic import GROUND_Y, PLAY_W, FlappyGame  # noqa: E402

# Seeded bug variants, selected with --bug. The default (no --bug) is the correct app.
BUGS = {
    "no-pipe-collision": "the bird flies through pipes: only the ground ends the game",
}

HUD_H = 50
GROUND_H = 50
WIDTH, HEIGHT = PLAY_W, HUD_H + GROUND_Y + GROUND_H  # 360 x 480
FPS = 30
RESTART_DELAY_FRAMES = 45  # after a crash, restart keys are ignored for 1.5 seconds

FLAP_KEYS = (pygame.K_SPACE, pygame.K_UP, pygame.K_w)
RESTART_KEYS = (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER)

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
HUD_BG = (20, 30, 50)
SKY = (120, 190, 235)
CLOUD = (235, 245, 252)
PIPE = (70, 170, 60)
PIPE_EDGE = (30, 90, 30)
GROUND = (200, 170, 100)
GRASS = (90, 160, 60)
BIRD = (250, 210, 40)
BEAK = (240, 120, 30)


def read_seed() -> int:
    raw = os.environ.get("PLAYTEST_SEED", "0")
    try:
        return int(raw)
    except ValueError:
        print(f"PLAYTEST_SEED must be an integer, got {raw!r}", file=sys.stderr)
        sys.exit(2)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="pygame flappy-bird style sample app")
    parser.add_argument("--bug", choices=sorted(BUGS), help="run a seeded bug variant")
    return parser.parse_args(argv)


def apply_bug(name: str | None) -> None:
    if name == "no-pipe-collision":
        # Seeded bug: the pipe collision test never reports a hit.
        def collides(self: logic.Bird, pipe: logic.Pipe) -> bool:
            return False

        logic.Bird.collides = collides


def _exit_on_sigterm(_signum, _frame) -> None:
    raise SystemExit(0)


class FlappyView:
    def __init__(self, screen: pygame.Surface) -> None:
        self.screen = screen
        self.hud_font = pygame.font.Font(None, 44)
        self.big_font = pygame.font.Font(None, 72)
        self.small_font = pygame.font.Font(None, 30)
        self.clouds = [(40, 70, 70), (200, 40, 90), (310, 150, 60), (120, 230, 80)]

    def draw(self, game: FlappyGame, frame: int) -> None:
        screen = self.screen
        play = pygame.Rect(0, HUD_H, WIDTH, GROUND_Y)
        screen.fill(SKY, play)
        # Clouds drift one pixel per frame even after a crash, so a running app never shows a still picture.
        span = WIDTH + 120
        for x, y, size in self.clouds:
            cx = (x - frame) % span - 60
            pygame.draw.ellipse(screen, CLOUD, pygame.Rect(cx, HUD_H + y, size, size // 2))
        for pipe in game.pipes:
            for left, top, width, height in pipe.rects():
                rect = pygame.Rect(round(left), HUD_H + round(top), round(width), round(height))
                pygame.draw.rect(screen, PIPE, rect)
                pygame.draw.rect(screen, PIPE_EDGE, rect, width=3)
        self.draw_bird(game, frame)
        screen.fill(GROUND, pygame.Rect(0, HUD_H + GROUND_Y, WIDTH, GROUND_H))
        screen.fill(GRASS, pygame.Rect(0, HUD_H + GROUND_Y, WIDTH, 8))
        screen.fill(HUD_BG, pygame.Rect(0, 0, WIDTH, HUD_H))
        score = self.hud_font.render(f"Score: {game.score}", True, WHITE, HUD_BG)
        screen.blit(score, score.get_rect(midleft=(14, HUD_H // 2)))
        if game.game_over:
            self.draw_game_over()

    def draw_bird(self, game: FlappyGame, frame: int) -> None:
        bird = game.bird
        cx, cy, r = round(bird.x), HUD_H + round(bird.y), round(bird.radius)
        pygame.draw.circle(self.screen, BIRD, (cx, cy), r)
        pygame.draw.circle(self.screen, BLACK, (cx, cy), r, width=2)
        wing_up = not game.game_over and (frame // 4) % 2 == 0
        wing = pygame.Rect(cx - r + 2, cy - 6 if wing_up else cy, 14, 8)
        pygame.draw.ellipse(self.screen, WHITE, wing)
        pygame.draw.circle(self.screen, WHITE, (cx + 6, cy - 5), 5)
        pygame.draw.circle(self.screen, BLACK, (cx + 7, cy - 5), 2)
        pygame.draw.polygon(self.screen, BEAK, [(cx + r - 2, cy - 2), (cx + r + 8, cy + 2), (cx + r - 2, cy + 6)])

    def draw_game_over(self) -> None:
        title = self.big_font.render("GAME OVER", True, WHITE, BLACK)
        hint = self.small_font.render("Press SPACE to restart", True, WHITE, BLACK)
        box = pygame.Rect(0, 0, max(title.get_width(), hint.get_width()) + 40, 140)
        box.center = (WIDTH // 2, HUD_H + GROUND_Y // 2)
        pygame.draw.rect(self.screen, BLACK, box)
        pygame.draw.rect(self.screen, WHITE, box, width=3)
        self.screen.blit(title, title.get_rect(center=(box.centerx, box.top + 48)))
        self.screen.blit(hint, hint.get_rect(center=(box.centerx, box.top + 104)))


def run(seed: int) -> int:
    screen = pygame.display.set_mode((WIDTH, HEIGHT))
    pygame.display.set_caption("Flappy")
    clock = pygame.time.Clock()
    game = FlappyGame(seed)
    view = FlappyView(screen)
    frame = 0
    over_frames = 0  # frames since the game ended
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return 0
            if event.type == pygame.KEYDOWN:
                if game.game_over:
                    if event.key in RESTART_KEYS and over_frames >= RESTART_DELAY_FRAMES:
                        game.reset()
                elif event.key in FLAP_KEYS:
                    game.flap()
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                game.flap()
        game.step()
        over_frames = over_frames + 1 if game.game_over else 0
        frame += 1
        view.draw(game, frame)
        pygame.display.flip()
        clock.tick(FPS)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    seed = read_seed()
    apply_bug(args.bug)
    faulthandler.register(signal.SIGUSR1)  # `kill -USR1 PID` prints where the app is stuck
    signal.signal(signal.SIGTERM, _exit_on_sigterm)  # installed before SDL, which then keeps it
    pygame.display.init()
    pygame.font.init()
    try:
        return run(seed)
    finally:
        pygame.quit()


if __name__ == "__main__":
    sys.exit(main())
