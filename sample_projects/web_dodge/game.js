// Dodge: move the blue square with the arrow keys (or A/D), dodge the falling red blocks.
// Each block that reaches the ground scores a point; a hit ends the game; Space restarts.
// Bug variants are chosen by the page that loads this file: <body data-bug="...">. The rules are in logic.js.
import { collides, movePlayer, random } from "./logic.js";

const bug = document.body.dataset.bug || "";
const canvas = document.getElementById("board");
const ctx = canvas.getContext("2d");
const scoreView = document.getElementById("score");
const statusView = document.getElementById("status");
const W = canvas.width, H = canvas.height, SIZE = 30, STEP = 30;

let game;
function reset() {
  game = { x: W / 2 - SIZE / 2, blocks: [], score: 0, over: false, frame: 0, moves: 0, next: random(7) };
  show();
}

function show() {
  scoreView.textContent = String(game.score);
  statusView.textContent = game.over ? "Game over" : "Playing";
}

function move(dx) {
  if (game.over) return;
  game.moves += 1;
  if (bug === "throw" && game.moves >= 3) {
    const history = undefined;
    history.push(dx); // a TypeError after a few moves
  }
  game.x = movePlayer(game.x, dx, W, SIZE);
}

document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowLeft" || event.key === "a") move(-STEP);
  if (event.key === "ArrowRight" || event.key === "d") move(STEP);
  if (event.key === " " && game.over) reset();
});

function tick() {
  game.frame += 1;
  if (!game.over && game.frame % 20 === 0) {
    game.blocks.push({ x: Math.floor(game.next() * (W - SIZE)), y: -SIZE });
  }
  for (const block of game.blocks) block.y += game.over ? 0 : 4;
  const landed = game.blocks.filter((b) => b.y > H);
  game.blocks = game.blocks.filter((b) => b.y <= H);
  if (landed.length && bug !== "no-score") game.score += landed.length; // no-score never counts
  const py = H - SIZE - 10;
  if (game.blocks.some((block) => collides(block, game.x, py, SIZE))) {
    game.over = true;
  }
  draw(py);
  show();
  requestAnimationFrame(tick);
}

function draw(py) {
  ctx.fillStyle = "#101018";
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = "#d33";
  for (const block of game.blocks) ctx.fillRect(block.x, block.y, SIZE, SIZE);
  ctx.fillStyle = "#39f";
  ctx.fillRect(game.x, py, SIZE, SIZE);
  if (game.over) {
    ctx.fillStyle = "white";
    ctx.font = "32px sans-serif";
    ctx.fillText("GAME OVER", W / 2 - 95, H / 2);
  }
}

reset();
requestAnimationFrame(tick);
