export class Tally {
  inside = 0;
  total = 0;
  events = [];
  /** Someone comes in: one more inside, one more in the running total. */
  enter() {
    this.inside += 1;
    this.total += 1;
    this.events.push("in");
  }
  /** Someone leaves; nobody can leave an empty room. Returns whether someone left. */
  leave() {
    if (this.inside === 0) {
      return false;
    }
    this.inside -= 1;
    this.events.push("out");
    return true;
  }
  /** Back to an empty room and a zero total. */
  reset() {
    this.inside = 0;
    this.total = 0;
    this.events = [];
  }
  /** The last few events, oldest first. */
  recent(count) {
    return this.events.slice(-count);
  }
}
