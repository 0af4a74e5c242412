"""Key bindings of Dodge. Each action lists the keys that trigger it."""

import pygame

MOVE_LEFT = (pygame.K_LEFT, pygame.K_a)
MOVE_RIGHT = (pygame.K_RIGHT, pygame.K_d)
START = pygame.K_SPACE
QUIT = pygame.K_ESCAPE
