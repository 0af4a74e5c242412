import { Tally } from "./logic.js";
const bug = document.body.dataset.bug ?? "";
const inside = document.getElementById("inside");
const total = document.getElementById("total");
const log = document.getElementById("log");
const tally = new Tally();
const render = (room) => {
  inside.textContent = String(room.inside);
  total.textContent = String(room.total);
  log.textContent = room.recent(3).join(" \xB7 ");
};
function enter() {
  tally.enter();
  if (bug === "no-total") {
    tally.total -= 1;
  }
  render(tally);
}
function leave() {
  if (tally.inside === 0 && bug === "throw") {
    const last = void 0;
    last.pop();
  }
  if (tally.leave()) {
    render(tally);
  }
}
function reset() {
  if (bug === "dead-reset") {
    return;
  }
  tally.reset();
  render(tally);
}
document.getElementById("enter").addEventListener("click", enter);
document.getElementById("leave").addEventListener("click", leave);
document.getElementById("reset").addEventListener("click", reset);
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowUp") enter();
  if (event.key === "ArrowDown") leave();
});
render(tally);
