// Dodge's rules, without the page: pure functions the game calls and node's test runner checks.

/** A small seeded generator: the same game every run. Returns numbers in [0, 1). */
export function random(seed) {
  let state = seed >>> 0;
  return () => (state = (state * 1664525 + 1013904223) >>> 0) / 4294967296;
}

/** The player's new x after a move of dx, kept inside a field of the given width. */
export function movePlayer(x, dx, width, size) {
  return Math.max(0, Math.min(width - size, x + dx));
}

/** Whether a falling block overlaps the player (both squares of the given size; py is the player's top). */
export const collides = (block, x, py, size) =>
  block.x < x + size && block.x + size > x && block.y + size > py && block.y < py + size;
