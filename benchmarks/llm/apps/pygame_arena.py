"""A pygame game at 1024x768 for the LLM-request benchmark: arrow keys move the player onto coins; a HUD counts."""

import os
import random
import sys

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

WIDTH, HEIGHT, HUD, STEP = 1024, 768, 48, 32
pygame.init()
screen = pygame.display.set_mode((WIDTH, HEIGHT))
pygame.display.set_caption("Coin arena")
font = pygame.font.Font(None, 36)
clock = pygame.time.Clock()
rng = random.Random(int(os.environ.get("PLAYTEST_SEED", "0")))
player = pygame.Rect(WIDTH // 2, HEIGHT // 2, STEP, STEP)
coins = [pygame.Rect(rng.randrange(0, WIDTH - 24), rng.randrange(HUD, HEIGHT - 24), 24, 24) for _ in range(8)]
score, level = 0, 1
moves = {pygame.K_LEFT: (-STEP, 0), pygame.K_RIGHT: (STEP, 0), pygame.K_UP: (0, -STEP), pygame.K_DOWN: (0, STEP)}
while True:
    for event in pygame.event.get():
        if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
            sys.exit(0)
        if event.type == pygame.KEYDOWN and event.key in moves:
            dx, dy = moves[event.key]
            player.x = min(max(player.x + dx, 0), WIDTH - STEP)
            player.y = min(max(player.y + dy, HUD), HEIGHT - STEP)
    for coin in [c for c in coins if c.colliderect(player)]:
        coins.remove(coin)
        score += 10
    if not coins:
        level += 1
        coins = [pygame.Rect(rng.randrange(0, WIDTH - 24), rng.randrange(HUD, HEIGHT - 24), 24, 24) for _ in range(8)]
    screen.fill((24, 28, 40))
    pygame.draw.rect(screen, (50, 56, 80), (0, 0, WIDTH, HUD))
    screen.blit(font.render(f"Score: {score}    Level: {level}    Coins left: {len(coins)}", True, (240, 240, 240)),
                (16, 12))
    for coin in coins:
        pygame.draw.ellipse(screen, (240, 200, 40), coin)
    pygame.draw.rect(screen, (80, 200, 120), player)
    pygame.display.flip()
    clock.tick(30)
