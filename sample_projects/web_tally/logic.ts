// Tally's rules, without the page: a room's count, which app.ts shows and node's test runner checks.

export type Event = "in" | "out";

export class Tally {
  inside = 0;
  total = 0;
  events: Event[] = [];

  /** Someone comes in: one more inside, one more in the running total. */
  enter(): void {
    this.inside += 1;
    this.total += 1;
    this.events.push("in");
  }

  /** Someone leaves; nobody can leave an empty room. Returns whether someone left. */
  leave(): boolean {
    if (this.inside === 0) {
      return false;
    }
    this.inside -= 1;
    this.events.push("out");
    return true;
  }

  /** Back to an empty room and a zero total. */
  reset(): void {
    this.inside = 0;
    this.total = 0;
    this.events = [];
  }

  /** The last few events, oldest first. */
  recent(count: number): Event[] {
    return this.events.slice(-count);
  }
}
