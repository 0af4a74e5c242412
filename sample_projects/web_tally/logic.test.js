// Unit tests of the rules: `node --test logic.test.js` after the build (logic.ts → logic.js; exit 0 = all passed).
import assert from "node:assert/strict";
import { test } from "node:test";

import { Tally } from "./logic.js";

test("entering counts inside and in the total", () => {
  const tally = new Tally();
  tally.enter();
  tally.enter();
  assert.deepEqual([tally.inside, tally.total], [2, 2]);
});

test("leaving lowers inside but not the total", () => {
  const tally = new Tally();
  tally.enter();
  assert.equal(tally.leave(), true);
  assert.deepEqual([tally.inside, tally.total], [0, 1]);
});

test("nobody leaves an empty room", () => {
  const tally = new Tally();
  assert.equal(tally.leave(), false);
  assert.equal(tally.inside, 0);
  assert.deepEqual(tally.events, []);
});

test("reset empties the room and the total", () => {
  const tally = new Tally();
  tally.enter();
  tally.reset();
  assert.deepEqual([tally.inside, tally.total, tally.events], [0, 0, []]);
});

test("recent gives the last events, oldest first", () => {
  const tally = new Tally();
  tally.enter();
  tally.enter();
  tally.leave();
  tally.enter();
  assert.deepEqual(tally.recent(3), ["in", "out", "in"]);
});
