// @ts-check
// What the engine and the solver think, on the board and beside it: the live solve, the
// engine's move with its ranked candidates and its line as ghosts, the evaluation bar, each
// move's value, the whole-game analysis streamed move by move, and the territory view.
// Exact values are marked exact; everything else is labelled an estimate.
import { S, update, request, gameKey, allMoves, lineNodes, graft } from "./state.js";
import { api, stream, ApiError, UNREACHABLE } from "./api.js";
import { valueText, playerOf, count } from "./words.js";
import { words, lineWords } from "./history.js";
import { say } from "./status.js";
import { play, jump, goToPath, letEngineMove, showTerritory } from "./actions.js";
import { live as onlineLive } from "./online.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));
const lightView = (value, mover) => (mover === "light" ? value : -value);
/** Bounds on the mover's value as bounds on Light's: [lower, upper]. */
const lightBounds = (lower, upper, mover) => (mover === "light" ? [lower, upper] : [-upper, -lower]);

// What runs and what the panels show are state (`S.engine`, state.js): the solve or analysis
// running (`running`: its kind, the position or game it was asked for), the requests in flight,
// a request that found no server with the state it was asked for (`outage`: asked again for that
// state when the server answers, or said not sent when the page has moved on, issue 75), and the
// position the panels beside the board are of (`panelKey`).
/** The part of the state this panel keeps, changed through `update`. */
const E = () => S.engine;
/** @param {Partial<import("./state.js").EngineState>} fields */
const set = fields => update(s => ({ engine: { ...s.engine, ...fields } }));

function busy(on) {
  $("stop").disabled = !on;
  for (const id of ["solve", "analyse"]) $(id).disabled = on;
}

/** Stops and forgets whatever runs for the last game, and empties the panels. */
export function reset() {
  const { running, evaluating, territoryCall } = E();
  if (running) { running.detached = true; running.controller.abort(); set({ running: null }); busy(false); }
  cancelEngine();
  if (evaluating) { evaluating.abort(); set({ evaluating: null }); }
  if (territoryCall) { territoryCall.abort(); set({ territoryCall: null }); }
  set({ outage: null });
  for (const id of ["progress", "line", "candidates", "rootmoves", "summary", "plot"]) $(id).innerHTML = "";
  $("answer").textContent = "";
  update({ analysis: null, hovered: null });
}

export function cancelEngine() {
  if (E().call) { E().call.abort(); set({ call: null }); }
}

/** Whether the engine's reply for its side is on its way. */
export const engineThinking = () => E().call !== null;

/**
 * A request of the panel found no server: the panel says so, and what happens when it answers.
 * `kind` is "engine", "solve" or "analyse"; `key` the state it was asked for.
 */
function unreachable(kind, key, run) {
  set({ outage: { kind, key, run } });
  const what = { engine: "Engine move is asked again", solve: "the solve starts again", analyse: "the analysis starts again" }[kind];
  $("answer").textContent = `The server cannot be reached: ${what} when it answers (for this ${kind === "analyse" ? "game" : "position"} only).`;
  $("progress").textContent = "";
}

/**
 * The server answers again (a position came): the panel's request that found no server is
 * asked again if the page still shows the state it was asked for, and said not sent otherwise.
 */
function afterOutage() {
  if (!E().outage) return;
  const { kind, key, run } = E().outage;
  set({ outage: null });
  if (key === (kind === "analyse" ? wholeGameKey() : gameKey())) { run(); return; }
  const what = { engine: "Engine move", solve: "Solve", analyse: "Analyse game" }[kind];
  $("answer").textContent = `${what} was pressed while the server could not be reached, for ${kind === "analyse" ? "another game" : "another position"}: it was not sent. Press ${what} again for this one.`;
  ownPanels(gameKey());
}

/** Keeps a value for the position of `key` (from Light's view). An exact value is never replaced by an estimate. */
function remember(key, value, exact, source) {
  const known = S.values[key];
  if (known && known.exact && !exact) return;
  update(s => ({ values: { ...s.values, [key]: { value, exact, source } } }));
}
const keyWith = (key, move) => { const [r, s, m] = JSON.parse(key); return JSON.stringify([r, s, [...m, move]]); };

/** A cancelled or stale engine reply: its "thinking" (or "busy") line goes with it. */
function forgetThinking() {
  if (/^The engine \(level \d+\) is thinking|^The server is busy \(every search slot/.test(S.message.text)) say("");
}

/**
 * The engine's reply for its side at the chosen level, or null. Tries again while the server is
 * busy; drops an answer for a position that is no longer current.
 */
export async function engineReply(key) {
  cancelEngine();
  const controller = new AbortController();
  set({ call: controller });
  say(`The engine (level ${S.level}) is thinking...`);
  try {
    const r = await api("/api/bestmove", request({ time_ms: 1000, level: S.level, seed: S.engineSeed }), {
      signal: controller.signal, retries: 20,
      waiting: seconds => { if (key === gameKey()) say(`The server is busy (every search slot is taken): the engine tries again in ${seconds} s.`); },
    });
    if (key !== gameKey() || controller.signal.aborted) { forgetThinking(); return null; }
    if (r.best_move) {
      const value = lightView(r.value, r.mover);
      remember(key, value, r.judgement === "exact", "engine");
      remember(keyWith(key, r.best_move), value, r.judgement === "exact", "engine");
    }
    say(r.best_move ? "" : "The engine has no move.");
    return r.best_move;
  } catch (e) {
    // No server: the status line says so, and the engine is asked again when it answers.
    if (e.unreachable) { if (key === gameKey()) say(UNREACHABLE, true); }
    else if (e.name !== "AbortError" && key === gameKey()) say(`The engine could not move: ${e.message}`, true);
    // Cancelled (the page went elsewhere): its "thinking" goes with it.
    else if (e.name === "AbortError") forgetThinking();
    return null;
  } finally {
    if (E().call === controller) set({ call: null });
  }
}

/** The key of the whole game, every move taken back included: what an analysis is of. */
const wholeGameKey = () => JSON.stringify([S.game.rules, S.game.start, allMoves()]);

/**
 * A solve asked for another position, or an analysis for another game, stops: the server keeps
 * what it proved, the page files a proven value under the position it was asked for, and
 * nothing says "Solving..." for a position that is not on the board (issue 45).
 */
function detachStale() {
  const old = E().running;
  if (!old) return;
  const current = old.kind === "solve" ? gameKey() : wholeGameKey();
  if (old.key === current) return;
  old.detached = true;
  set({ running: null });
  busy(false);
  if (old.stopPath) api(old.stopPath, {}).catch(() => old.controller.abort());
  else old.controller.abort();
  $("answer").textContent = "";
  $("progress").textContent = "";
}

// The position the answer, the line and the tables beside the board are of (`panelKey`): they
// go when the page goes to another node (an old engine move never stands beside a new position).
function ownPanels(key) { set({ panelKey: key }); }

/** After each new position: the evaluation and the territory view, when they are switched on. */
/**
 * The panels of another position (a solve's verdict, line, root moves and progress line, the
 * engine's candidates) go as soon as the board shows a new one: `refresh` calls this before it
 * draws the new position, so that no line of the old one is ever seen beside it.
 */
export function clearStalePanels() {
  const { panelKey, running } = E();
  if (panelKey !== null && panelKey !== gameKey() && !(running && running.kind === "analyse")) {
    for (const id of ["line", "candidates", "rootmoves"]) $(id).innerHTML = "";
    $("answer").textContent = "";
    // The progress line of a finished solve is of the old position too.
    $("progress").textContent = "";
    set({ panelKey: null });
  }
}

export function onPosition() {
  detachStale();
  clearStalePanels();
  update({ hovered: null });
  if ($("evaluate").checked) evaluate();
  if ($("show-territory").checked) territory();
  renderEval();
  afterOutage();
}

// The live engine (lichess's local analysis): searches of the position shown, each longer than
// the last, the five best lines replaced as each comes; it follows the player through the game
// (a new node starts again; an answer for an old one is dropped) and stops at the last budget,
// at an exact value, or when switched off.
const LIVE_BUDGETS_MS = [400, 1200, 3000, 8000];

async function evaluate() {
  if (onlineLive()) return; // no engine help in a running game between players
  const key = gameKey();
  if (!S.view || S.view.position.game_over) return;
  if (E().evaluating) E().evaluating.abort();
  const controller = new AbortController();
  set({ evaluating: controller });
  try {
    for (const [i, time] of LIVE_BUDGETS_MS.entries()) {
      const r = await api("/api/bestmove", request({ time_ms: time, candidates: 5 }), { signal: controller.signal, retries: 3 });
      if (key !== gameKey() || controller.signal.aborted || !$("evaluate").checked) return;
      remember(key, lightView(r.value, r.mover), r.judgement === "exact", "evaluation");
      ownPanels(key);
      // The live engine answers again (after the server was away): its error line goes.
      if (/^Live engine: /.test($("progress").textContent)) $("progress").textContent = "";
      const last = i === LIVE_BUDGETS_MS.length - 1 || r.judgement === "exact" || !!r.book;
      showCandidates(r, key, { live: true, deeper: !last });
      if (last) break;
    }
  } catch (e) {
    if (e.name !== "AbortError" && key === gameKey()) $("progress").textContent = e.unreachable ? "Live engine: the server cannot be reached; it goes on when the server answers." : `Live engine: ${e.message}`;
  } finally { if (E().evaluating === controller) set({ evaluating: null }); }
}

async function territory() {
  const key = gameKey();
  if (S.territory && S.territory.key === key) { update({}); return; }
  if (E().territoryCall) E().territoryCall.abort();
  const controller = new AbortController();
  set({ territoryCall: controller });
  $("progress").textContent = "Territory: playing the game out...";
  try {
    const r = await api("/api/territory", request({}), { signal: controller.signal, retries: 5 });
    if (key !== gameKey()) return;
    update({ territory: { key, cells: r.cells, answer: r } });
    $("progress").textContent = `Territory (estimate, ${count(r.playouts, "game")} played out): Light is expected to own or fill ${r.light_expected.toFixed(1)} squares, Dark ${r.dark_expected.toFixed(1)}.`;
  } catch (e) {
    if (e.name !== "AbortError" && key === gameKey()) $("progress").textContent = e.unreachable ? "Territory: the server cannot be reached; it is asked again when the server answers." : `Territory: ${e.message}`;
  } finally { if (E().territoryCall === controller) set({ territoryCall: null }); }
}

/** The evaluation bar: the value of the current position for Light, exact or estimated. */
export function renderEval() {
  const bar = $("eval");
  const known = S.values[gameKey()];
  const over = S.view && S.view.position.game_over && !S.editor;
  if (over) {
    const p = S.view.position;
    const value = p.dark.unplaced_squares - p.light.unplaced_squares;
    show(bar, value, true, "final");
  } else if (known && !S.editor) show(bar, known.value, known.exact, known.source);
  else bar.hidden = true;
}

function show(bar, value, exact, source) {
  bar.hidden = false;
  const share = 0.5 + Math.max(-1, Math.min(1, value / 20)) / 2;
  bar.style.setProperty("--share", share.toFixed(3));
  bar.classList.toggle("exact", exact);
  const text = valueText(value, exact);
  $("eval-text").textContent = text;
  bar.title = `${exact ? "Exact" : "Estimated"} value for Light: ${text} squares (${source})`;
  bar.setAttribute("role", "meter");
  bar.setAttribute("aria-label", `Evaluation for Light, ${exact ? "exact" : "estimate"}`);
  bar.setAttribute("aria-valuemin", "-20");
  bar.setAttribute("aria-valuemax", "20");
  bar.setAttribute("aria-valuenow", String(Math.max(-20, Math.min(20, Math.round(value)))));
  bar.setAttribute("aria-valuetext", `${text} for Light${exact ? ", exact" : ", estimate"}`);
}

/** A line of moves from the current position: links that play it up to that move, and ghosts on the board. */
function showLine(title, line, key) {
  const box = $("line");
  box.innerHTML = "";
  update({ line: line.length ? { key, moves: line, title } : null });
  if (!line.length) return;
  box.append(title);
  const base = S.game.moves.slice();
  const said = lineWords(line);
  line.forEach((move, i) => {
    const link = Object.assign(document.createElement("a"), { textContent: `${base.length + i + 1}. ${said[i]}`, title: move, href: "#" });
    link.onclick = e => {
      e.preventDefault();
      if (gameKey() !== key) return;
      // The line joins the tree (a variation where the game went on otherwise): nothing is lost.
      graft(base, line);
      goToPath([...base, ...line.slice(0, i + 1)]);
    };
    box.append(" ", link);
  });
}

/**
 * A link that plays `move` (in the position of `key`) when chosen, and shows it on the board
 * while its table row is pointed at or the link focused.
 */
export function moveLink(row, move, text, key) {
  const link = Object.assign(document.createElement("a"), { textContent: text, title: move, href: "#" });
  link.onclick = e => { e.preventDefault(); if (gameKey() === key) play(move); };
  const showIt = on => { update({ hovered: on ? move : null }); row.classList.toggle("shown", on); };
  for (const target of [row, link]) {
    target.addEventListener("pointerenter", () => showIt(true));
    target.addEventListener("pointerleave", () => showIt(false));
  }
  link.addEventListener("focus", () => showIt(true));
  link.addEventListener("blur", () => showIt(false));
  return link;
}

function showCandidates(r, key, { live = false, deeper = false } = {}) {
  const box = $("candidates");
  box.innerHTML = "";
  update({ candidates: { key, list: r.candidates } });
  if (!r.candidates || r.candidates.length < (live ? 1 : 2)) return;
  const table = document.createElement("table");
  const exact = r.judgement === "exact";
  const how = r.book ? "from the opening book" : exact ? "exact" : `estimates, depth ${r.depth}, ${Math.round(r.nodes).toLocaleString("en")} nodes in ${r.seconds.toFixed(1)} s`;
  const title = live ? `Live engine (${how})${deeper ? ", searching deeper..." : ""}` : `The engine's candidates (${how})`;
  // Numbers are Light's, everywhere on the page (as lichess gives White's): + is good for Light.
  table.innerHTML = `<caption class="note"></caption><tr><th>move</th><th>value for Light</th>${live ? "<th>line</th>" : ""}</tr>`;
  table.caption.textContent = `${title}; values for Light; point at a move to see it`;
  for (const c of r.candidates) {
    const row = table.insertRow();
    const link = moveLink(row, c.mv, words(c.mv, null), key);
    row.insertCell().append(link);
    row.insertCell().textContent = valueText(lightView(c.value, r.mover), exact);
    if (live) row.insertCell().textContent = lineWords(c.line || []).slice(1, 4).join(", ") + ((c.line || []).length > 4 ? ", ..." : "");
  }
  box.append(table);
}

function showRootMoves(r, key) {
  const box = $("rootmoves");
  box.innerHTML = "";
  if (!r.root_moves || !r.root_moves.length) return;
  const table = document.createElement("table");
  table.innerHTML = `<tr><th>move</th><th>value for Light</th></tr>`;
  const shown = r.root_moves.slice(0, 12);
  for (const m of shown) {
    const row = table.insertRow();
    const link = Object.assign(document.createElement("a"), { textContent: words(playerOf(m.move) ? m.move : `${r.to_move}:${m.move}`, null), title: m.move, href: "#" });
    link.onclick = e => { e.preventDefault(); if (gameKey() === key) play(m.move); };
    row.insertCell().append(link);
    const [lower, upper] = lightBounds(m.lower, m.upper, r.to_move);
    row.insertCell().textContent = m.value !== null && m.value !== undefined ? valueText(lightView(m.value, r.to_move), true) : `${valueText(lower, true)} to ${valueText(upper, true)}`;
  }
  box.append(table);
  if (r.root_moves.length > shown.length) box.append(`and ${count(r.root_moves.length - shown.length, "more move")}`);
}

/**
 * A running solve's progress line, its bounds Light's (the server's text gives the mover's):
 * "For Light the value lies between −18 and −7 squares so far (value: 1,234 nodes, 1.0 M/s, 3 s)".
 */
export function solveProgress(d, mover) {
  const [lower, upper] = lightBounds(d.lower, d.upper, mover);
  const rest = String(d.text || "").replace(/,? ?value in [^,]*/, "");
  return `For Light the value lies between ${valueText(lower, true)} and ${valueText(upper, true)} squares so far${rest ? ` (${rest})` : ""}.`;
}

/** "Searched 563,658 nodes in 0.2 s": what a finished solve did, for the progress line. */
function searchSummary(stats) {
  if (!stats) return "";
  const questions = stats.questions ? ` (${stats.questions.toLocaleString("en")} proof-number questions)` : "";
  return `Searched ${stats.nodes.toLocaleString("en")} nodes in ${stats.seconds.toFixed(1)} s${questions}.`;
}

async function solve() {
  if (onlineLive()) return; // no engine help in a running game between players
  if (E().running) return;
  const key = gameKey();
  const controller = new AbortController();
  // The bounds of the progress are the mover's: the page shows them as Light's.
  /** @type {import("./state.js").Running} */
  const mine = { kind: "solve", key, controller, id: null, mover: S.view && S.view.position.to_move };
  set({ running: mine });
  ownPanels(key);
  busy(true);
  for (const id of ["line", "rootmoves", "candidates"]) $(id).innerHTML = "";
  $("answer").textContent = "Solving...";
  $("progress").textContent = "";
  try {
    const result = await stream("/api/solve/live", request({ time_ms: 600000 }), (name, d) => {
      if (name === "started") {
        mine.id = d.id;
        if (d.to_move) mine.mover = d.to_move;
        mine.stopPath = `/api/solve/live/${d.id}/stop`;
        // Stopped before the server said where to stop it: stop it now.
        if (mine.detached) { api(mine.stopPath, {}).catch(() => controller.abort()); return; }
        $("answer").textContent = `Solving (at most ${Math.round(d.time_ms / 1000)} s; Stop keeps what is proven)...`;
      }
      if (name === "progress" && !mine.detached) $("progress").textContent = solveProgress(d, mine.mover);
    }, controller.signal);
    if (!result) throw new Error("the solve ended without an answer");
    const proven = result.value !== null && result.value !== undefined;
    // A late answer is filed under the position it was asked for, not shown.
    if (proven) remember(key, lightView(result.value, result.to_move), true, "solver");
    if (mine.detached || key !== gameKey()) {
      // The page has moved on: the answer is filed, and nothing says it still runs.
      if (!mine.detached) { $("answer").textContent = ""; $("progress").textContent = ""; }
      return;
    }
    if (proven) {
      const line = (result.best_line || []).map((m, i) => (playerOf(m) ? m : `${result.line[i] ? String(result.line[i].mover).toLowerCase() : ""}:${m}`));
      const said = lineWords(line);
      $("answer").textContent = result.verdict + "\n" + result.line.map((s, i) => `${S.game.moves.length + i + 1}. ${said[i] || s.move}${s.effect ? ": " + s.effect : ""}`).join("\n");
      showLine("The best line (exact), on the board:", line, key);
    } else {
      const [lower, upper] = lightBounds(result.lower, result.upper, result.to_move);
      const best = result.best_so_far ? ` Best so far, unproven: ${words(playerOf(result.best_so_far) ? result.best_so_far : `${result.to_move}:${result.best_so_far}`, null)}.` : "";
      $("answer").textContent = `Not proven${result.complete ? "" : " (stopped)"}: for Light the value lies between ${valueText(lower, true)} and ${valueText(upper, true)} squares.${best}`;
    }
    showRootMoves(result, key);
    // The last progress report ("root moves 24/63: ...") is replaced by what the whole search did.
    $("progress").textContent = searchSummary(result.stats);
  } catch (e) {
    // Stopped before the server answered (or its stop could not be reached): nothing is said
    // to be running any more.
    if (e.name === "AbortError" && !mine.detached) $("answer").textContent = "Stopped before anything was proven.";
    else if (e.unreachable && !mine.detached && key === gameKey()) unreachable("solve", key, () => solve());
    else if (!mine.detached) $("answer").textContent = e instanceof ApiError && e.status === 503 ? `${e.message}.` : e.message;
  } finally {
    if (E().running === mine) { set({ running: null }); busy(false); }
    if (!mine.detached) $("progress").textContent = $("progress").textContent.replace(" (stopping...)", "");
  }
}

async function engineMove() {
  if (onlineLive()) return; // no engine help in a running game between players
  const key = gameKey();
  ownPanels(key);
  $("answer").textContent = "The engine is thinking (2 s)...";
  for (const id of ["line", "rootmoves", "candidates"]) $(id).innerHTML = "";
  try {
    const r = await api("/api/bestmove", request({ time_ms: 2000, candidates: 5 }), { retries: 3, waiting: s => { $("answer").textContent = `The server is busy: trying again in ${s} s...`; } });
    if (key !== gameKey()) return;
    if (!r.best_move) { $("answer").textContent = "The game is over."; return; }
    const value = lightView(r.value, r.mover);
    remember(key, value, r.judgement === "exact", "engine");
    $("answer").textContent = `${words(r.best_move, null)}: ${r.verdict}`;
    showLine(`The engine's line (${r.judgement === "exact" ? "exact" : "estimate"}), on the board:`, r.line, key);
    showCandidates(r, key);
  } catch (e) {
    if (key !== gameKey()) return;
    if (e.unreachable) unreachable("engine", key, () => engineMove());
    else $("answer").textContent = e.message;
  }
}

/** The plot: larger targets around its dots, and a marker at the current move. */
export function renderPlot() {
  const svg = $("plot").querySelector("svg");
  if (!svg) return;
  for (const old of svg.querySelectorAll(".marker")) old.remove();
  const links = [...svg.querySelectorAll("a")];
  const dot = links.map(a => a.querySelector("circle")).find(c => c && c.parentNode.getAttribute("href").endsWith(`-${S.game.moves.length}`));
  if (dot) {
    const x = dot.getAttribute("cx");
    const marker = document.createElementNS("http://www.w3.org/2000/svg", "line");
    for (const [k, v] of Object.entries({ class: "marker", x1: x, x2: x, y1: 0, y2: 1000, "pointer-events": "none" })) marker.setAttribute(k, v);
    svg.insertBefore(marker, svg.firstChild.nextSibling);
  }
}

function showPlot(plotSvg) {
  $("plot").innerHTML = plotSvg;
  // The plot holds links (its dots): a group of them, not one picture, for screen readers.
  const svg = $("plot").querySelector("svg");
  if (svg) {
    svg.setAttribute("role", "group");
    // The server draws the plot for a report 760 units wide; on the page it is as wide as the
    // board, so its words are set to a readable size for that width, with room made for them.
    svg.setAttribute("viewBox", "-26 0 786 282");
    for (const text of svg.querySelectorAll("text")) {
      if (text.textContent === "move") text.setAttribute("y", "278");
      if (text.getAttribute("transform")) { text.setAttribute("x", "-10"); text.setAttribute("transform", "rotate(-90 -10 130)"); }
    }
    const scale = $("plot").getBoundingClientRect().width / 786;
    if (scale > 0) svg.setAttribute("font-size", String(Math.min(22, Math.max(11, Math.round(11.5 / scale)))));
  }
  for (const link of $("plot").querySelectorAll("a")) {
    const title = link.querySelector("title");
    if (title) link.setAttribute("aria-label", title.textContent);
    const dot = link.querySelector("circle");
    if (dot && !link.querySelector(".target")) {
      const target = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      for (const [k, v] of Object.entries({ class: "target", cx: dot.getAttribute("cx"), cy: dot.getAttribute("cy"), r: 11, fill: "transparent" })) target.setAttribute(k, v);
      link.appendChild(target);
    }
    link.addEventListener("click", e => {
      e.preventDefault();
      const n = parseInt((link.getAttribute("href") || "").replace(/^#(move|row)-/, ""), 10);
      if (!isNaN(n)) jump(n);
    });
  }
  renderPlot();
}

/** The analysis in a few lines: empty when no move was judged (the progress line says so). */
function summary(a, complete, total) {
  if (!a || !a.plies.length) return "";
  // Stopped in a browser that had to end its worker: the moves judged, without the totals.
  if (!a.light) return `Stopped after ${a.plies.length} of ${total} moves; what was judged is kept beside the moves.`;
  const side = (name, s) => s.moves
    ? `${name}: average loss ${s.average_loss.toFixed(2)} squares over ${s.moves} move${s.moves === 1 ? "" : "s"}, ${s.inaccuracies} ?!, ${s.mistakes} ?, ${s.blunders} ??`
    : `${name}: no move judged yet`;
  const head = complete ? "" : `Stopped after ${a.plies.length} of ${total} moves; what was judged is kept.\n`;
  const headlines = (a.headlines || []).map(line => `${line}\n`).join("");
  return `${head}${side("Light", a.light)}\n${side("Dark", a.dark)}\n${headlines}The marks and values are beside the moves; click a dot of the plot to go to that move.`;
}

async function analyse() {
  if (onlineLive()) return; // no engine help in a running game between players
  if (E().running) return;
  const moves = allMoves();
  if (!moves.length) { $("answer").textContent = "No moves to analyse yet."; return; }
  const key = wholeGameKey();
  const controller = new AbortController();
  /** @type {import("./state.js").Running} */
  const mine = { kind: "analyse", key, controller, id: null };
  set({ running: mine });
  const sameGame = () => !mine.detached && wholeGameKey() === key;
  busy(true);
  $("plot").innerHTML = ""; $("summary").textContent = "";
  $("answer").textContent = `Analysing ${count(moves.length, "move")} (50,000 nodes a position)...`;
  // Each judgement is filed on the node of the move it judged, whatever the page shows meanwhile.
  const nodes = lineNodes();
  update(() => { for (const node of nodes) node.judged = null; });
  const body = S.game.start ? { start: S.game.start, moves } : { rules: S.game.rules, moves };
  try {
    const result = await stream("/api/analyse/live", Object.assign(body, { nodes_per_move: 50000 }), (name, d) => {
      if (name === "started") {
        mine.id = d.id;
        mine.stopPath = `/api/analyse/live/${d.id}/stop`;
        if (mine.detached) api(mine.stopPath, {}).catch(() => controller.abort());
      }
      if (name !== "progress") return;
      // A judgement is the move's, wherever the page has gone: filed on its node.
      if (d.ply && nodes[d.ply.ply - 1]) update(() => { nodes[d.ply.ply - 1].judged = d.ply; });
      if (sameGame()) {
        $("progress").textContent = `Analysing: move ${Math.min(d.judged, d.total)} of ${d.total} judged (${(d.elapsed_ms / 1000).toFixed(1)} s; Stop keeps what is judged)`;
      }
    }, controller.signal);
    if (!result) throw new Error("the analysis ended without an answer");
    // Stopped before a move was judged, the answer has no analysis: nothing to sum up or plot.
    const plies = result.analysis ? result.analysis.plies : [];
    update(() => { for (const p of plies) if (nodes[p.ply - 1]) nodes[p.ply - 1].judged = p; });
    if (!sameGame()) return;
    update({ analysis: plies.length ? result : null });
    $("answer").textContent = "";
    $("summary").textContent = summary(result.analysis, result.complete, moves.length);
    const ended = result.stopped_reason === "time" ? "reached the server's time limit" : "stopped";
    $("progress").textContent = result.complete ? `Analysed ${count(moves.length, "move")}.`
      : plies.length ? `Analysis ${ended}: ${plies.length} of ${count(moves.length, "move")} judged.`
      : `Analysis ${ended} before any move was judged.`;
    if (plies.length && result.plot_svg) showPlot(result.plot_svg);
  } catch (e) {
    if (e.name === "AbortError" && !mine.detached) { $("answer").textContent = "Stopped before any move was judged."; $("progress").textContent = ""; }
    else if (e.unreachable && sameGame()) unreachable("analyse", key, () => analyse());
    else if (!mine.detached) $("answer").textContent = e.message;
  } finally {
    if (E().running === mine) { set({ running: null }); busy(false); }
  }
}

async function stop() {
  const running = E().running;
  if (!running) return;
  if (!running.stopPath) { running.controller.abort(); return; }
  $("progress").textContent += " (stopping...)";
  try { await api(running.stopPath, {}); } catch (_) { if (E().running) E().running.controller.abort(); }
}

export function init() {
  $("solve").onclick = () => solve();
  $("stop").onclick = () => stop();
  // At the engine's side's turn, where it waits (a game opened), Engine move lets it play.
  $("engine").onclick = () => { if (!letEngineMove()) engineMove(); };
  $("analyse").onclick = () => analyse();
  $("evaluate").onchange = e => { if (e.target.checked) evaluate(); else { $("candidates").innerHTML = ""; } };
  $("show-territory").onchange = e => { showTerritory(e.target.checked); if (e.target.checked) territory(); };
  // (the line is drawn or not as the box says: drawn again now)
  $("show-line").onchange = () => update({});
}
