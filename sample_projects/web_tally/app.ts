// Tally: count people in and out of a room. The bug variant comes from <body data-bug="...">.
type Bug = "" | "throw" | "dead-reset" | "no-total";

const bug = (document.body.dataset.bug ?? "") as Bug;
const inside = document.getElementById("inside") as HTMLElement;
const total = document.getElementById("total") as HTMLElement;
const log = document.getElementById("log") as HTMLElement;

interface Tally {
  inside: number;
  total: number;
  events: string[];
}

const tally: Tally = { inside: 0, total: 0, events: [] };

function show(): void {
  inside.textContent = String(tally.inside);
  total.textContent = String(tally.total);
  log.textContent = tally.events.slice(-3).join(" · ");
}

function enter(): void {
  tally.inside += 1;
  if (bug !== "no-total") {
    tally.total += 1; // no-total forgets the running total
  }
  tally.events.push("in");
  show();
}

function leave(): void {
  if (tally.inside === 0) {
    if (bug === "throw") {
      const last: string | undefined = undefined;
      (last as unknown as string[]).pop(); // a TypeError when leaving an empty room
    }
    return;
  }
  tally.inside -= 1;
  tally.events.push("out");
  show();
}

function reset(): void {
  if (bug === "dead-reset") {
    return; // the button is there and does nothing
  }
  tally.inside = 0;
  tally.total = 0;
  tally.events = [];
  show();
}

(document.getElementById("enter") as HTMLButtonElement).addEventListener("click", enter);
(document.getElementById("leave") as HTMLButtonElement).addEventListener("click", leave);
(document.getElementById("reset") as HTMLButtonElement).addEventListener("click", reset);
document.addEventListener("keydown", (event: KeyboardEvent) => {
  if (event.key === "ArrowUp") enter();
  if (event.key === "ArrowDown") leave();
});
show();
