"""Dodge: an arcade game. Rocks fall in five lanes; change lanes to dodge them. Three hits and it is over.

Title screen: SPACE starts. Arrows or A/D change lanes. Esc quits (exit 0).
Run: python main.py        (PLAYTEST_SEED=N picks the rock sequence; default 0)
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
from logic import FIELD_H, LANES, PLAYER_H, PLAYER_Y, ROCK_SIZE, Dodger  # noqa: E402

LANE_W = 80
HUD_H = 40
WIDTH, HEIGHT = LANES * LANE_W, HUD_H + FIELD_H  # 400 x 480
LANE_X = [i * LANE_W + LANE_W // 2 for i in range(LANES)]  # centre of each lane
FPS = 30

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
LANE_LINE = (40, 40, 40)
ROCK = (150, 150, 150)
PLAYER = (60, 200, 90)
PLAYER_BLINK = (20, 70, 30)

TITLE, PLAY, OVER = "title", "play", "over"


class DodgeApp:
    def __init__(self, screen: pygame.Surface, seed: int) -> None:
        self.screen = screen
        self.game = Dodger(random.Random(seed))
        self.state = TITLE
        self.hud_font = pygame.font.Font(None, 36)
        self.big_font = pygame.font.Font(None, 84)
        self.text_font = pygame.font.Font(None, 32)

    def on_key(self, key: int) -> None:
        if self.state == PLAY:
            if key in controls.MOVE_LEFT:
                self.game.move_left()
            elif key in controls.MOVE_RIGHT:
                self.game.move_right()
        elif key == controls.START:
            self.game.reset()
            self.state = PLAY

    def update(self) -> None:
        if self.state != PLAY:
            return
        self.game.step()
        if self.game.over:
            self.state = OVER

    def draw(self) -> None:
        self.screen.fill(BLACK)
        if self.state == TITLE:
            self.draw_lines([("DODGE", self.big_font), ("Press SPACE to start", self.text_font),
                             ("Arrows or A/D move", self.text_font), ("Esc quits", self.text_font)])
        elif self.state == OVER:
            self.draw_lines([("GAME OVER", self.big_font), (f"Score: {self.game.score}", self.text_font),
                             ("Press SPACE to play again", self.text_font)])
        else:
            self.draw_field()

    def draw_lines(self, lines: list[tuple[str, pygame.font.Font]]) -> None:
        y = HEIGHT // 2 - 40 * len(lines)
        for text, font in lines:
            label = font.render(text, True, WHITE, BLACK)
            self.screen.blit(label, label.get_rect(midtop=(WIDTH // 2, y)))
            y += label.get_height() + 30

    def draw_field(self) -> None:
        game = self.game
        score = self.hud_font.render(f"Score: {game.score}", True, WHITE, BLACK)
        self.screen.blit(score, score.get_rect(midleft=(10, HUD_H // 2)))
        lives = self.hud_font.render(f"Lives: {game.lives}", True, WHITE, BLACK)
        self.screen.blit(lives, lives.get_rect(midright=(WIDTH - 10, HUD_H // 2)))
        pygame.draw.line(self.screen, WHITE, (0, HUD_H - 1), (WIDTH, HUD_H - 1))
        for lane in range(1, LANES):
            pygame.draw.line(self.screen, LANE_LINE, (lane * LANE_W, HUD_H), (lane * LANE_W, HEIGHT))
        for rock in game.rocks:
            rect = pygame.Rect(0, 0, ROCK_SIZE, ROCK_SIZE)
            rect.midtop = (LANE_X[rock.lane], HUD_H + rock.y)
            pygame.draw.rect(self.screen, ROCK, rect.clip(pygame.Rect(0, HUD_H, WIDTH, FIELD_H)))
        colour = PLAYER
        if game.invulnerable % 8 >= 4:
            colour = PLAYER_BLINK
        player = pygame.Rect(0, HUD_H + PLAYER_Y, LANE_W - 20, PLAYER_H)
        player.centerx = LANE_X[game.lane]
        pygame.draw.rect(self.screen, colour, player, border_radius=6)


def run(seed: int) -> int:
    screen = pygame.display.set_mode((WIDTH, HEIGHT))
    pygame.display.set_caption("Dodge")
    clock = pygame.time.Clock()
    app = DodgeApp(screen, seed)
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return 0
            if event.type == pygame.KEYDOWN:
                if event.key == controls.QUIT:
                    return 0
                app.on_key(event.key)
        app.update()
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
