// Compiled from app.ts (types removed; the code is the same statement for statement).
// Tally: count people in and out of a room. The bug variant comes from <body data-bug="...">.
const bug = (document.body.dataset.bug ?? "");
const inside = document.getElementById("inside");
const total = document.getElementById("total");
const log = document.getElementById("log");
const tally = { inside: 0, total: 0, events: [] };
function show() {
  inside.textContent = String(tally.inside);
  total.textContent = String(tally.total);
  log.textContent = tally.events.slice(-3).join(" · ");
}
function enter() {
  tally.inside += 1;
  if (bug !== "no-total") {
    tally.total += 1; // no-total forgets the running total
  }
  tally.events.push("in");
  show();
}
function leave() {
  if (tally.inside === 0) {
    if (bug === "throw") {
      const last = undefined;
      last.pop(); // a TypeError when leaving an empty room
    }
    return;
  }
  tally.inside -= 1;
  tally.events.push("out");
  show();
}
function reset() {
  if (bug === "dead-reset") {
    return; // the button is there and does nothing
  }
  tally.inside = 0;
  tally.total = 0;
  tally.events = [];
  show();
}
document.getElementById("enter").addEventListener("click", enter);
document.getElementById("leave").addEventListener("click", leave);
document.getElementById("reset").addEventListener("click", reset);
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowUp") enter();
  if (event.key === "ArrowDown") leave();
});
show();
