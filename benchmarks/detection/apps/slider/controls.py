"""Key bindings of Slider, kept in one place so they can be remapped."""

import pygame

MOVE_UP = pygame.K_UP
MOVE_DOWN = pygame.K_DOWN
MOVE_LEFT = pygame.K_LEFT
MOVE_RIGHT = pygame.K_RIGHT
NEW_GAME = pygame.K_n
QUIT = pygame.K_q
