// Unit tests of logic.js: `node --test logic.test.js` (exit 0 = all passed).
import assert from "node:assert/strict";
import { test } from "node:test";

import { collides, movePlayer, random } from "./logic.js";

test("a move goes by dx inside the field", () => {
  assert.equal(movePlayer(100, 30, 420, 30), 130);
  assert.equal(movePlayer(100, -30, 420, 30), 70);
});

test("the player stays inside the field", () => {
  assert.equal(movePlayer(10, -30, 420, 30), 0);
  assert.equal(movePlayer(380, 30, 420, 30), 390);
  assert.equal(movePlayer(390, 30, 420, 30), 390);
});

test("a block collides only when the squares overlap", () => {
  assert.equal(collides({ x: 100, y: 370 }, 110, 380, 30), true);
  assert.equal(collides({ x: 100, y: 300 }, 110, 380, 30), false);
  assert.equal(collides({ x: 140, y: 380 }, 110, 380, 30), false);
});

test("the generator is seeded", () => {
  const a = random(7), b = random(7);
  const first = a();
  assert.equal(first, b());
  assert.ok(first >= 0 && first < 1);
});
