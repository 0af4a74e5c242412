// Tally: count people in and out of a room. The bug variant comes from <body data-bug="...">.
// The counting rules are in logic.ts; this file wires them to the page.
import { Tally } from "./logic.js";

type Bug = "" | "throw" | "dead-reset" | "no-total";

const bug = (document.body.dataset.bug ?? "") as Bug;
const inside = document.getElementById("inside") as HTMLElement;
const total = document.getElementById("total") as HTMLElement;
const log = document.getElementById("log") as HTMLElement;

const tally = new Tally();

const render = (room: Tally): void => {
  inside.textContent = String(room.inside);
  total.textContent = String(room.total);
  log.textContent = room.recent(3).join(" · ");
};

function enter(): void {
  tally.enter();
  if (bug === "no-total") {
    tally.total -= 1; // no-total forgets the running total
  }
  render(tally);
}

function leave(): void {
  if (tally.inside === 0 && bug === "throw") {
    const last: string | undefined = undefined;
    (last as unknown as string[]).pop(); // a TypeError when leaving an empty room
  }
  if (tally.leave()) {
    render(tally);
  }
}

function reset(): void {
  if (bug === "dead-reset") {
    return; // the button is there and does nothing
  }
  tally.reset();
  render(tally);
}

(document.getElementById("enter") as HTMLButtonElement).addEventListener("click", enter);
(document.getElementById("leave") as HTMLButtonElement).addEventListener("click", leave);
(document.getElementById("reset") as HTMLButtonElement).addEventListener("click", reset);
document.addEventListener("keydown", (event: KeyboardEvent) => {
  if (event.key === "ArrowUp") enter();
  if (event.key === "ArrowDown") leave();
});
render(tally);
