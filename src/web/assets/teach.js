// @ts-check
// Teaching mode ("Teach me"): after each move the player makes, the engine judges it against
// the best move from the same search (exact where the solver proves it). A move that loses at
// least the chosen number of squares, or turns the result, is flagged at once: the board draws
// the answer it allows, the panel names the better move with its value and offers to take the
// move back. The engine waits until the player has read it. At the end, the moves that cost most.
import { S, update, renderNow, gameKey, request, atEnd } from "./state.js";
import { api } from "./api.js";
import { moveWords, nths, valueText, playerOf, Side, breakable } from "./words.js";
import { say } from "./status.js";
import { undoOne, jump, enginePlays as resume } from "./actions.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));

export const enabled = () => $("teach").checked && !S.puzzle && !S.editor;
/** Whether the engine must wait: a move is being judged, or its lesson is on the board. */
export const holding = () => enabled() && (S.teaching !== null || (S.lesson && S.lesson.key === gameKey() && !S.lesson.dismissed));

const outcome = v => (v > 0.5 ? 1 : v < -0.5 ? -1 : 0);

/** Judges the move just played (the last of the game), if teaching is on and the player made it. */
export async function judge(move) {
  if (S.online) return; // the teaching mode never judges a game between players
  if (!enabled() || (S.engineSide && playerOf(move) === S.engineSide)) return;
  if (S.teaching) S.teaching.abort();
  const controller = new AbortController();
  update({ teaching: controller });
  const key = gameKey();
  const before = S.game.moves.slice(0, -1);
  say("Teaching: the engine looks at your move...");
  try {
    const body = request({ moves: before, also: move, time_ms: 1000, level: 10 });
    const r = await api("/api/bestmove", body, { signal: controller.signal, retries: 10, waiting: s => say(`Teaching: the server is busy, trying again in ${s} s...`) });
    if (key !== gameKey() || !r.also || !r.best_move) return;
    const exact = r.judgement === "exact";
    const loss = r.also.loss;
    const turned = outcome(r.value) !== outcome(r.also.value);
    const threshold = parseInt($("teach-threshold").value, 10);
    const ply = before.length + 1;
    const mover = r.mover;
    const lesson = { key, ply, move, mover, best: r.best_move, bestValue: r.value, playedValue: r.also.value, loss, exact, turned, reply: r.also.line[1] || null, dismissed: false, replyText: "" };
    // The value after the move, for Light, joins the move list.
    const light = v => (mover === "light" ? v : -v);
    const known = S.values[key];
    if (!(known && known.exact && !exact)) update(s => ({ values: { ...s.values, [key]: { value: light(r.also.value), exact, source: "teaching" } } }));
    update(s => ({ lessons: [...(s.lessons || []).filter(l => l.ply !== ply), ...(loss > 0.05 ? [lesson] : [])] }));
    if (loss + 1e-9 < threshold && !turned) { say(loss > 0.05 ? `Teaching: fine; the best move was ${valueText(loss, exact).replace(/^~?\u2009?[+]?/, "")} square${loss === 1 ? "" : "s"} better.` : "Teaching: a good move."); return; }
    if (lesson.reply) {
      try {
        const after = await api("/api/position", request({ moves: [...S.game.moves, lesson.reply] }), { signal: controller.signal });
        lesson.replyText = after.last_move ? after.last_move.text : ""; // (shown once the lesson is kept)
      } catch (_) { /* the reply stays unexplained */ }
    }
    if (key !== gameKey()) return;
    update({ lesson, line: lesson.reply ? { key, moves: [lesson.reply], title: "What your move allows" } : null });
    say("");
  } catch (e) {
    if (e.name !== "AbortError" && key === gameKey()) say(`Teaching: the move could not be judged: ${e.message}`, true);
  } finally {
    if (S.teaching === controller) { update({ teaching: null }); resume(); }
  }
}

/** Forgets a judgement in flight (the game moved on). */
export function cancel() {
  if (S.teaching) { S.teaching.abort(); update({ teaching: null }); }
}

function wordsOf(move, ply) {
  const all = [...S.game.moves.slice(0, ply - 1), move];
  return moveWords(move, S.theme, null, nths(all)[all.length - 1]);
}

/** The lesson of the move on the board, if any, and the summary at the end (render draws it). */
export function show() {
  const box = $("lesson");
  const lesson = S.lesson;
  // Drawn again only when it changes: a hover redraws the board, not the panel under the pointer.
  const signature = JSON.stringify([lesson, gameKey(), enabled(), S.theme, (S.lessons || []).length, S.view && S.view.position.game_over, atEnd()]);
  if (signature === box.dataset.signature) return;
  box.dataset.signature = signature;
  box.innerHTML = "";
  if (!lesson || lesson.key !== gameKey() || lesson.dismissed || !enabled()) {
    box.hidden = true;
  } else {
    box.hidden = false;
    const sign = v => valueText(v, lesson.exact).replace("~\u2009", lesson.exact ? "" : "about ");
    const head = document.createElement("p");
    const what = lesson.turned ? `turns the result (from ${sign(lesson.bestValue)} to ${sign(lesson.playedValue)} for ${Side(lesson.mover)})` : `gives up ${lesson.loss.toFixed(lesson.exact ? 0 : 1)} square${lesson.loss === 1 ? "" : "s"}`;
    head.append(Object.assign(document.createElement("b"), { textContent: `${wordsOf(lesson.move, lesson.ply)} ${what}` }), lesson.exact ? " (exact)." : " (the engine's estimate).");
    const better = document.createElement("p");
    const link = Object.assign(document.createElement("a"), { href: "#", textContent: wordsOf(lesson.best, lesson.ply), title: lesson.best });
    link.onclick = e => { e.preventDefault(); takeBack(); };
    const hover = on => update({ hovered: on ? lesson.best : null });
    link.addEventListener("pointerenter", () => hover(true));
    link.addEventListener("pointerleave", () => hover(false));
    link.addEventListener("focus", () => hover(true));
    link.addEventListener("blur", () => hover(false));
    better.append("Better was ", link, ` (${sign(lesson.bestValue)} for ${Side(lesson.mover)}); point at it to see it on the board.`);
    box.append(head, better);
    if (lesson.reply) {
      const allows = document.createElement("p");
      allows.textContent = `Your move allows ${wordsOf(lesson.reply, lesson.ply + 1)} (drawn as 1 on the board)${lesson.replyText ? `: ${breakable(lesson.replyText.split("\n").map(l => l.trim()).join("; "))}` : ""}.`;
      box.append(allows);
    }
    const bar = document.createElement("div");
    bar.className = "bar";
    const back = Object.assign(document.createElement("button"), { id: "lesson-back", textContent: "Take the move back" });
    back.onclick = () => takeBack();
    const on = Object.assign(document.createElement("button"), { id: "lesson-on", textContent: "Play on" });
    on.onclick = () => {
      update({ lesson: { ...lesson, dismissed: true }, line: null });
      // Drawn at once: the panel with the button just pressed goes in the same task, so that
      // nothing presses a button of a lesson already put away.
      renderNow();
      resume();
    };
    bar.append(back, on);
    box.append(bar);
  }
  summary();
}

function takeBack() {
  const lesson = S.lesson;
  if (!lesson || lesson.key !== gameKey()) return;
  update({ lesson: { ...lesson, dismissed: true } });
  undoOne();
  // On the position before the move: the better move, drawn on the board.
  const before = JSON.stringify([S.game.rules, S.game.start, S.game.moves]);
  update({ line: { key: before, moves: [lesson.best], title: "The better move" } });
  say(`The better move is drawn on the board: ${wordsOf(lesson.best, lesson.ply)}.`);
}

/** At the end of a game played with teaching on: the moves that cost the most, as links. */
function summary() {
  const box = $("lessons");
  box.innerHTML = "";
  const over = S.view && S.view.position.game_over && atEnd();
  const lessons = (S.lessons || []).filter(l => l.ply <= S.game.moves.length && S.game.moves[l.ply - 1] === l.move);
  if (!over || !enabled() || !lessons.length) { box.hidden = true; return; }
  box.hidden = false;
  box.append(Object.assign(document.createElement("h3"), { textContent: "The moves that cost the most" }));
  const list = document.createElement("ol");
  for (const l of lessons.slice().sort((a, b) => b.loss - a.loss).slice(0, 5)) {
    const item = document.createElement("li");
    const link = Object.assign(document.createElement("a"), { href: "#", textContent: `move ${l.ply}, ${wordsOf(l.move, l.ply)}` });
    link.onclick = e => { e.preventDefault(); jump(l.ply - 1); update({ line: { key: JSON.stringify([S.game.rules, S.game.start, S.game.moves.slice(0, l.ply - 1)]), moves: [l.best], title: "The better move" } }); };
    item.append(link, `: gave up ${l.loss.toFixed(l.exact ? 0 : 1)} square${l.loss === 1 ? "" : "s"}${l.exact ? " (exact)" : ""}; better was ${wordsOf(l.best, l.ply)}.`);
    list.append(item);
  }
  box.append(list);
}

export function init() {
  $("teach").onchange = () => { if (!$("teach").checked) { cancel(); update({ lesson: null }); } else update({}); resume(); };
}
