// The puzzle trainer: the shipped collection (or `serve --puzzles DIR`), filtered by theme and
// level; a puzzle's first move is the answer, checked exactly by the server; hints give more
// each time; solved puzzles are remembered in the browser.
import { S, newGameState } from "./state.js";
import { api } from "./api.js";

const $ = id => document.getElementById(id);
let puzzles = [];
const solved = new Set(JSON.parse(localStorage.getItem("cathedral-solved") || "[]"));

/** Whether the next move played is a puzzle's answer. */
export const takesAnswer = () => S.puzzle && !S.puzzle.answered && S.game.moves.length === 0;

export function onUndo() {
  if (S.puzzle && S.game.moves.length === 1) S.puzzle.answered = false;
}

export function leave() {
  S.puzzle = null;
  $("question").textContent = "";
}

function list() {
  const theme = $("puzzle-theme").value, level = $("difficulty").value;
  const select = $("puzzle");
  select.innerHTML = "";
  for (const p of puzzles) {
    if ((theme && !p.themes.includes(theme)) || (level && p.difficulty !== level)) continue;
    const option = document.createElement("option");
    option.value = p.name;
    option.textContent = `${solved.has(p.name) ? "\u2713 " : ""}${p.name}: ${p.question} (${p.difficulty})`;
    select.appendChild(option);
  }
}

async function load(ctx) {
  const name = $("puzzle").value;
  if (!name) return;
  if (!ctx.mayDiscard("Loading a puzzle")) return;
  try {
    const r = await api(`/api/puzzles/${encodeURIComponent(name)}`);
    ctx.startGame(newGameState({ start: r.start }));
    S.puzzle = { name, question: r.question, themes: r.themes, hints: r.hints, hinted: 0, answered: false };
    S.engineSide = "";
    $("opponent").value = "";
    $("question").textContent = `${r.title || name}: ${r.question}`;
    $("answer").textContent = "Place the building you would play.";
    await ctx.refresh();
  } catch (e) { ctx.say(e.message, true); }
}

export async function answer(ctx, move) {
  $("answer").textContent = "Checking the answer exactly...";
  const puzzle = S.puzzle;
  try {
    const r = await api(`/api/puzzles/${encodeURIComponent(puzzle.name)}/answer`, { move }, { retries: 3 });
    if (S.puzzle !== puzzle) return;
    const out = $("answer");
    out.innerHTML = "";
    if (r.correct) {
      solved.add(puzzle.name);
      localStorage.setItem("cathedral-solved", JSON.stringify([...solved]));
      out.append(Object.assign(document.createElement("b"), { className: "right", textContent: "Right! " }), `${r.played}\nBest play goes on: ${r.reply_line.join("; ")}\n(Redo steps through it.)`);
      list();
    } else {
      out.append(Object.assign(document.createElement("b"), { className: "wrong", textContent: `Not the best: it gives up ${r.loss} square${r.loss === 1 ? "" : "s"}. ` }), `${r.played}\nThe refutation: ${r.reply_line.join("; ")}\n(Redo plays it out on the board; Undo to try again.)`);
    }
    puzzle.answered = true;
    S.game.moves.push(move);
    S.game.future = r.reply_moves.slice().reverse();
    S.cell = null;
    ctx.say("");
    ctx.refresh();
  } catch (e) { $("answer").textContent = e.message; }
}

function hint() {
  const puzzle = S.puzzle;
  if (!puzzle || !puzzle.hints.length) { $("answer").textContent = "Load a puzzle first: hints are for puzzles."; return; }
  puzzle.hinted = Math.min(puzzle.hinted + 1, puzzle.hints.length);
  $("answer").textContent = "Hint: " + puzzle.hints.slice(0, puzzle.hinted).join(" ") + (puzzle.hinted < puzzle.hints.length ? " (Hint again for more.)" : "");
}

export async function init(ctx) {
  $("puzzle-theme").onchange = list;
  $("difficulty").onchange = list;
  $("load").onclick = () => load(ctx);
  $("hint").onclick = hint;
  try {
    puzzles = await api("/api/puzzles");
  } catch (e) { ctx.say(`The puzzles could not be listed: ${e.message}`, true); return; }
  for (const theme of [...new Set(puzzles.flatMap(p => p.themes))].sort()) {
    const option = document.createElement("option");
    option.textContent = theme;
    $("puzzle-theme").appendChild(option);
  }
  list();
}
