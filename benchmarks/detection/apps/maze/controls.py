"""Key bindings of Maze: WASD moves (the arrow keys are not used), R restarts the level, Esc quits."""

import pygame

MOVE_UP = pygame.K_w
MOVE_DOWN = pygame.K_s
MOVE_LEFT = pygame.K_a
MOVE_RIGHT = pygame.K_d
RESTART = pygame.K_r
QUIT = pygame.K_ESCAPE
