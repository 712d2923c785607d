// @ts-check
// Studies on the board (docs/study-format.md): a lesson of the course or a study opened from a
// file, a paste or a link, shown chapter by chapter: the chapter's position on the board with
// its arrows and highlighted cells, its words beside the board, and its question asked there.
// "Find the move": the learner places a building; the service proves it (the exact solver), as
// the trainer does. "Which cells does this player own after this move?": the move is drawn as a
// ghost, the learner marks cells on the board and checks; the rules engine says which are owned.
// Verdicts come from the service, never from the file, so a study nobody checked cannot teach a
// wrong answer here.
//
// The study is one state (S.study): its chapters, the chapter shown, what was answered. Every
// answer carries the chapter and the position it was asked for and is dropped if the page has
// moved on. Progress (the chapters done, the chapter last open) is kept in the browser, and the
// address names the study and the chapter (`#study=NAME&chapter=N` for a lesson of the course,
// `#studyz=...` for a study carried in the link itself), so a reload or a link opens it there.
import { S, update, newGameState, goTo, graft } from "./state.js";
import { api } from "./api.js";
import { Side, moveWords, located, failure, count } from "./words.js";
import { say } from "./status.js";
import { refresh, startGame, mayDiscard } from "./actions.js";
import { saveAddress } from "./address.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));
const PROGRESS = "cathedral-studies";
/** The longest study a link carries (the encoded text); a longer one is shared as a file. */
const MAX_LINK = 24000;

// The course's lessons, which study was asked for last (`S.studyTicket`: an older one arriving
// later is dropped) and how many are being fetched (`S.studyLoads`) are state (state.js).
const ticketTaken = () => { update(s => ({ studyTicket: s.studyTicket + 1 })); return S.studyTicket; };
const loads = by => update(s => ({ studyLoads: s.studyLoads + by }));

/** Whether a study is on its way (the page is not settled until it has come or failed). */
export const loading = () => S.studyLoads > 0;

// ---- Progress, kept in the browser ----------------------------------------------------------

function progressAll() {
  try {
    const p = JSON.parse(localStorage.getItem(PROGRESS) || "{}");
    return p && typeof p === "object" && !Array.isArray(p) ? p : {};
  } catch (_) { return {}; }
}

function progressOf(id) {
  const p = progressAll()[id];
  return p && Array.isArray(p.done) ? p : { done: [], at: 0 };
}

function storeProgress(study) {
  const all = progressAll();
  all[study.id] = { done: [...study.done].sort((a, b) => a - b), at: study.chapter, title: study.view.title, chapters: study.view.chapters.length };
  try { localStorage.setItem(PROGRESS, JSON.stringify(all)); } catch (_) { /* private mode: progress lasts the visit */ }
}

/** A short, stable name for a study's text (FNV-1a), to file its progress under. */
function hashOf(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h.toString(16).padStart(8, "0");
}

// ---- Links: a study carried in the address ---------------------------------------------------

const toBase64 = bytes => { let s = ""; for (const b of bytes) s += String.fromCharCode(b); return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""); };
const fromBase64 = text => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), c => c.charCodeAt(0));

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** The study's text for a link: deflated where the browser can (`studyz=`), plain otherwise. */
async function encodeText(text) {
  const bytes = new TextEncoder().encode(text);
  if (typeof CompressionStream === "function") return `studyz=${toBase64(await pipe(bytes, new CompressionStream("deflate-raw")))}`;
  return `studytext=${toBase64(bytes)}`;
}

async function decodeText(kind, code) {
  const bytes = fromBase64(code);
  if (kind === "studyz") {
    if (typeof DecompressionStream !== "function") throw new Error("this browser cannot read a compressed study link");
    return new TextDecoder().decode(await pipe(bytes, new DecompressionStream("deflate-raw")));
  }
  return new TextDecoder().decode(bytes);
}

/** The address of the study at its chapter, or null when none is open. */
export function link() {
  const s = S.study;
  if (!s) return null;
  const chapter = `chapter=${s.chapter + 1}`;
  if (s.name) return `study=${encodeURIComponent(s.name)}&${chapter}`;
  return s.encoded ? `${s.encoded}&${chapter}` : null;
}

/** Whether an address names a study (opened by `init`, not by the game's restore). */
export const isStudyLink = fragment => /^(study|studyz|studytext)=/.test(fragment);

// ---- Opening -------------------------------------------------------------------------------

/**
 * Opens a study: `source` is { name } (a lesson of the course) or { text, label }. `ticket` is
 * the request's place in line when the caller took it earlier (a link decoded first).
 */
async function open(source, chapter = null, { replace = false, ticket = ticketTaken() } = {}) {
  loads(1);
  try {
    const view = source.name
      ? await api(`/api/studies/${encodeURIComponent(source.name)}`)
      : await api("/api/studies/read", { text: source.text });
    if (ticket !== S.studyTicket) return false;
    if (!view.chapters.length) throw new Error("the study has no chapter");
    if (!S.study && !mayDiscard("Opening a study")) return false;
    const id = source.name ? `course:${source.name}` : `text:${hashOf(source.text)}`;
    const saved = progressOf(id);
    const encoded = source.name ? null : await encodeText(source.text);
    if (ticket !== S.studyTicket) return false;
    update({ study: {
      id, name: source.name || null, view,
      encoded: encoded && encoded.length <= MAX_LINK ? encoded : null,
      tooLong: !!encoded && encoded.length > MAX_LINK,
      done: new Set(saved.done.filter(i => Number.isInteger(i) && i >= 0 && i < view.chapters.length)),
      chapter: 0, answer: null,
    } });
    const at = chapter !== null ? chapter : saved.at;
    showChapter(Number.isInteger(at) && at >= 0 && at < view.chapters.length ? at : 0, { replace });
    return true;
  } catch (e) {
    if (ticket !== S.studyTicket) return false;
    const label = source.label || source.name || "The study";
    if (source.report) source.report(e.unreachable ? { text: e.message, unreachable: true, line: null, column: null } : failure(label, e.message));
    else if (!e.unreachable) say(`${label}: ${located(e.message)}`, true);
    return false;
  } finally { loads(-1); }
}

/**
 * Opens a study from its text (a file opened, a paste): true if it opened. `report` takes what
 * went wrong instead of the status line (the paste dialog shows it itself).
 */
export function openText(label, text, report = null) { return open({ text, label, report }); }

/** Opens the first lesson of the course not done yet (the whole course done: the first). */
export function openCourse() {
  const next = S.course.find(l => progressOf(`course:${l.name}`).done.length < l.chapters) || S.course[0];
  if (next) return open({ name: next.name });
  say("The course could not be listed.", true);
  return false;
}

/** Closes the study: the board keeps the position, as a game of its own. */
export function close() {
  if (!S.study) return;
  update(s => ({ study: null, studyTicket: s.studyTicket + 1 }));
  // The address holds the game from now on (at once: the board does not change).
  saveAddress();
  refresh();
}

/** The study goes when another game replaces its chapter (New game, Open, a puzzle...). */
export function leave() {
  if (!S.study) return;
  update(s => ({ study: null, studyTicket: s.studyTicket + 1 }));
  showBox();
}

// ---- Chapters -----------------------------------------------------------------------------

const chapterOf = (s = S.study) => s && s.view.chapters[s.chapter];

/** Whether the board is at the chapter's own position (its arrows and question belong there). */
function atChapter(s = S.study) {
  const c = chapterOf(s);
  return !!c && !S.editor && JSON.stringify(S.game.moves) === JSON.stringify(c.moves) && S.game.start === c.start;
}

function showChapter(i, { replace = false } = {}) {
  // The chapter asked for now: a study still on its way, asked for earlier, is dropped.
  const s = S.study;
  update(st => { s.chapter = i; s.answer = null; return { studyTicket: st.studyTicket + 1, hovered: null }; });
  const c = chapterOf(s);
  startGame(newGameState({ start: c.start, moves: c.moves }), { keepStudy: true });
  goTo(c.moves);
  update({ engineSide: "" });
  $("opponent").value = "";
  // A chapter with no question is done once seen.
  update(() => { if (!c.question) s.done.add(i); s.marks = new Set(); });
  storeProgress(s);
  $("study-verdict").textContent = "";
  showBox();
  // The address names the chapter at once (a reload from here opens it), before its board comes:
  // a new entry of the browser's history, or, when the address itself brought the chapter (Back,
  // Forward, a link opened), that same entry.
  saveAddress(replace);
  refresh();
  boardInView();
}

/**
 * The whole board in view again after a button far down the page (the chapter list, Try again
 * under a long text): the board is where the chapter is read and answered.
 */
function boardInView() {
  const board = $("board").getBoundingClientRect();
  if (board.top < 0 || board.bottom > window.innerHeight) $("board-area").scrollIntoView({ block: "start" });
}

function step(by) {
  const s = S.study;
  if (!s) return;
  const i = s.chapter + by;
  if (i >= 0 && i < s.view.chapters.length) showChapter(i);
  else if (i >= s.view.chapters.length) nextLesson();
}

/** After a lesson's last chapter: the next lesson of the course, if this is one. */
function nextLesson() {
  const s = S.study;
  const k = s && s.name ? S.course.findIndex(l => l.name === s.name) : -1;
  if (k >= 0 && k + 1 < S.course.length) open({ name: S.course[k + 1].name }, 0);
}

// ---- The box beside the board -------------------------------------------------------------

function question(c) {
  const q = c.question;
  if (!q) return "";
  if (q.find === "move") return `Find the best move for ${Side(q.mover)}: place the building on the board.`;
  if (q.find === "legal") return "Which of these moves may be played now? Tick the legal ones, then Check (point at a move to see it on the board).";
  if (q.find === "result") return "Who won, and by how many squares? Choose, then Check.";
  return `After ${moveWords(q.after, S.theme)} (drawn on the board), which empty cells does ${Side(q.player)} own? Mark them on the board (a click or a tap; again to unmark), then Check.`;
}

const playerOfMove = move => move.split(":")[0];

/** Draws the study's panel from the state. */
export function showBox() {
  const s = S.study;
  $("study-box").hidden = !s;
  $("course").querySelectorAll("option").forEach(o => { o.textContent = lessonLabel(S.course.find(l => l.name === o.value)); });
  if (!s) return;
  const c = chapterOf(s);
  $("study-title").textContent = s.view.title;
  $("study-about").textContent = [s.view.description, s.view.author ? `by ${s.view.author}` : ""].filter(Boolean).join(" ");
  const list = $("chapters");
  // Rebuilt only when it changes (the board redraws often; a focused button must stay).
  const listKey = JSON.stringify([s.id, s.chapter, [...s.done]]);
  if (list.dataset.key !== listKey) {
  list.dataset.key = listKey;
  list.innerHTML = "";
  s.view.chapters.forEach((ch, i) => {
    const item = document.createElement("li");
    const button = Object.assign(document.createElement("button"), { type: "button", className: "chapter" });
    button.textContent = `${s.done.has(i) ? "\u2713 " : ""}${ch.title}${ch.question ? " ?" : ""}`;
    button.title = ch.question ? (s.done.has(i) ? "Answered" : "A question") : "Words and the board";
    if (i === s.chapter) button.setAttribute("aria-current", "step");
    button.onclick = () => { if (S.study === s) showChapter(i); };
    item.appendChild(button);
    list.appendChild(item);
  });
  }
  $("study-progress").textContent = `Chapter ${s.chapter + 1} of ${s.view.chapters.length} (${s.done.size} done${s.done.size === s.view.chapters.length ? ": the whole study" : ""})`;
  $("chapter-title").textContent = c.title;
  $("chapter-text").textContent = c.text;
  const here = atChapter(s);
  const a = s.answer;
  $("study-question").textContent = c.question
    ? (here || (a && a.verdict) ? question(c) : "The question is asked at the chapter's position: Back to the chapter.")
    : "";
  const kind = c.question ? c.question.find : null;
  const open = here && (!a || (!a.verdict && !a.busy));
  // A question answered with the page's own inputs (not by placing a building).
  const form = kind === "owned" || kind === "legal" || kind === "result";
  $("study-check").hidden = !(form && (open || (a && a.busy)));
  $("study-check").disabled = !!(a && a.busy);
  $("owned-clear").hidden = !(kind === "owned" && open);
  answerForm(s, c, open);
  const wrong = !!(a && a.verdict && (!a.verdict.correct || a.shown));
  $("study-retry").hidden = !wrong;
  $("study-show").hidden = !(c.question && (!a || (wrong && !a.shown)) && !(a && a.busy));
  $("chapter-back").hidden = here || !!(a && a.verdict);
  $("chapter-prev").disabled = s.chapter === 0;
  const last = s.chapter === s.view.chapters.length - 1;
  const k = s.name ? S.course.findIndex(l => l.name === s.name) : -1;
  $("chapter-next").textContent = last && k >= 0 && k + 1 < S.course.length ? "Next lesson" : "Next chapter";
  $("chapter-next").disabled = last && !(k >= 0 && k + 1 < S.course.length);
  $("study-link-note").textContent = s.tooLong ? "This study is too long to carry in a link: share its file." : "";
}

/**
 * The inputs of a "legal" question (a box for each move; pointing at one shows it on the
 * board) or a "result" question (the winner and the margin), made once per chapter shown and
 * disabled while they cannot be answered.
 */
function answerForm(s, c, open) {
  const box = $("study-answer");
  const q = c.question;
  const key = JSON.stringify([s.id, s.chapter, q && q.find]);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.innerHTML = "";
    if (q && q.find === "legal") {
      for (const move of q.moves) {
        const label = document.createElement("label");
        label.className = "candidate";
        const input = Object.assign(document.createElement("input"), { type: "checkbox", value: move });
        const show = on => update({ hovered: on && move.split(":")[1] !== "pass" ? move : null });
        for (const target of [label, input]) {
          target.addEventListener(target === input ? "focus" : "pointerenter", () => show(true));
          target.addEventListener(target === input ? "blur" : "pointerleave", () => show(false));
        }
        const code = Object.assign(document.createElement("code"), { textContent: move });
        label.append(input, " ", moveWords(move, S.theme), " ", code);
        box.appendChild(label);
      }
    } else if (q && q.find === "result") {
      const winner = document.createElement("label");
      winner.append("Result ");
      const select = Object.assign(document.createElement("select"), { id: "result-winner" });
      for (const [value, text] of [["", "choose..."], ["light", "Light wins"], ["dark", "Dark wins"], ["draw", "a draw"]]) select.appendChild(Object.assign(document.createElement("option"), { value, textContent: text }));
      winner.appendChild(select);
      const margin = document.createElement("label");
      margin.append(" by ");
      const number = Object.assign(document.createElement("input"), { id: "result-margin", type: "number", min: "0", max: "47", value: "1", inputMode: "numeric" });
      margin.append(number, " squares");
      select.onchange = () => { number.disabled = select.value === "draw"; };
      box.append(winner, margin);
    }
  }
  for (const input of box.querySelectorAll("input, select")) input.disabled = !open || (input.id === "result-margin" && $("result-winner").value === "draw");
  box.hidden = !box.firstChild;
}

function lessonLabel(l) {
  if (!l) return "";
  const p = progressOf(`course:${l.name}`);
  const done = p.done.length >= l.chapters ? " \u2713" : p.done.length ? ` (${p.done.length} of ${l.chapters})` : "";
  return `${l.title}${done}`;
}

// ---- Drawing on the board ---------------------------------------------------------------------

/**
 * What the study draws over the board at the chapter's position: its arrows and highlighted
 * cells, its shapes, the move an "owned" question asks about (a ghost), the cells the learner marked.
 */
export function drawn() {
  const s = S.study;
  if (!s || !atChapter(s)) return null;
  const c = chapterOf(s);
  const q = c.question;
  return {
    arrows: c.arrows,
    highlights: c.highlights,
    shapes: c.shapes || [], // circles and arrows in the drawing's colours (shapes.js), a record's
    ghost: q && q.find === "owned" ? q.after : null,
    marked: q && q.find === "owned" ? [...(s.marks || [])] : [],
    player: q && q.player,
  };
}

// ---- Answers -------------------------------------------------------------------------------

/** Whether the next move placed answers the chapter's "find the move" question. */
export function takesAnswer() {
  const s = S.study;
  if (!s || !atChapter(s)) return false;
  const q = chapterOf(s).question;
  return !!q && q.find === "move" && !(s.answer && (s.answer.busy || s.answer.verdict));
}

/**
 * The kind of the chapter's question ("legal", "result" or "owned") while it waits for its
 * answer at the chapter's position, where it is answered with the page's own inputs (the
 * tick-boxes, the result, the cells marked) and not by placing a building: the hand is put away
 * meanwhile. Null for anything else.
 */
export function answeredByForm() {
  const s = S.study;
  if (!s || !atChapter(s)) return null;
  const q = chapterOf(s).question;
  if (!q || !["legal", "result", "owned"].includes(q.find) || (s.answer && s.answer.verdict)) return null;
  return q.find;
}

/** Whether a click on the board marks a cell (an "owned" question waits for its answer). */
export function marking() {
  const s = S.study;
  if (!s || !atChapter(s)) return false;
  const q = chapterOf(s).question;
  return !!q && q.find === "owned" && !(s.answer && (s.answer.busy || s.answer.verdict));
}

/** Marks or unmarks a cell as part of an "owned" answer. */
export function mark(cell) {
  const s = S.study;
  if (!cell || !marking()) return;
  update(() => {
    s.marks = s.marks || new Set();
    if (s.marks.has(cell)) s.marks.delete(cell); else s.marks.add(cell);
  });
  $("study-verdict").textContent = s.marks.size ? `Marked: ${[...s.marks].sort(byCell).join(", ")}.` : "No cell marked: Check answers that the player owns none.";
}

const byCell = (a, b) => a.slice(1) - b.slice(1) || a.localeCompare(b);

/** The verdict under the question: its first words in bold, green when right. */
function verdict(correct, head, rest) {
  const out = $("study-verdict");
  out.innerHTML = "";
  out.append(Object.assign(document.createElement("b"), { className: correct ? "right" : "wrong", textContent: head }), rest);
}

/** The answer to a "find the move" question, proven by the service. */
export function answer(move, { shown = false } = {}) {
  const c = chapterOf();
  const q = c.question;
  return checkWith({ find: "move", answers: q.answers, move }, r => {
    // The answer and best play after it (or the refutation) join the game: Redo steps on.
    graft(c.moves, [move, ...r.reply_moves]);
    goTo([...c.moves, move]);
    update({ cell: null });
    say("");
    const line = r.reply_line.join("; ") || "the game ends";
    if (!r.correct) return [false, `Not the best: it gives up ${r.loss} square${r.loss === 1 ? "" : "s"}. `, `${r.played}\nThe refutation: ${line}. (Redo plays it out.)`];
    const as = r.accepted || shown ? "" : ` As good as the lesson's answer (${q.answers.join(" or ")}).`;
    return [true, "Right! ", `${r.played}${as}\nBest play goes on: ${line}. (Redo steps through it.)`];
  }, { shown, checking: "Checking the answer exactly..." });
}

/** Checks the answer of the page's inputs ("owned", "legal", "result") with the rules engine. */
function checkForm(options = {}) {
  const s = S.study;
  const q = s && chapterOf(s).question;
  if (!q || !atChapter(s) || (s.answer && (s.answer.busy || s.answer.verdict))) return;
  if (q.find === "owned") return checkOwned(options);
  if (q.find === "legal") return checkLegal(options);
  if (q.find === "result") return checkResult(options);
}

/**
 * Sends an answer and shows the verdict: `body` the request (the chapter's position is added),
 * `say(r)` the verdict's parts ([correct, head, rest]), after it has put on the board what the
 * answer played. The answer is dropped if the page moved on meanwhile; a right one (not one
 * shown) marks the chapter done.
 */
async function checkWith(body, verdictOf, { shown = false, checking = "Checking with the rules engine..." } = {}) {
  const s = S.study;
  const c = chapterOf(s);
  const pending = { busy: true, shown, chapter: s.chapter };
  update(() => { s.answer = pending; });
  $("study-verdict").textContent = checking;
  showBox();
  const still = () => S.study === s && chapterOf(s) === c && s.answer === pending;
  try {
    const r = await api("/api/studies/answer", { start: c.start, moves: c.moves, ...body }, { retries: 3 });
    if (!still()) return;
    update(() => { pending.busy = false; pending.verdict = r; });
    const [correct, head, rest] = verdictOf(r);
    if (shown) verdict(true, "The answer: ", `${rest}\n(Try again to answer yourself.)`);
    else {
      if (r.correct) { update(() => { s.done.add(s.chapter); }); storeProgress(s); }
      verdict(correct, head, `${rest}${r.correct ? "" : "\n(Try again to answer again.)"}`);
    }
    reveal();
  } catch (e) {
    if (!still()) return;
    update(() => { s.answer = null; });
    $("study-verdict").textContent = e.message;
  }
  showBox();
  refresh();
}

function checkLegal(options) {
  const q = chapterOf().question;
  const chosen = options.shown ? [] : [...$("study-answer").querySelectorAll("input:checked")].map(i => i.value);
  return checkWith({ find: "legal", candidates: q.moves, chosen }, r => {
    const lines = r.moves.map(m => `${m.legal ? "\u2713 legal" : "\u2717 refused"}: ${moveWords(m.move, S.theme)}${m.reason ? ` (${m.reason})` : ""}${!options.shown && m.legal !== m.chosen ? (m.chosen ? " \u2014 you ticked it" : " \u2014 you left it out") : ""}`);
    return [r.correct, r.correct ? "Right! " : "Not quite. ", lines.join("\n")];
  }, options);
}

function checkResult(options) {
  const winner = options.shown ? "draw" : $("result-winner").value;
  if (!winner) { $("study-verdict").textContent = "Choose the result first."; return; }
  const margin = winner === "draw" ? 0 : parseInt($("result-margin").value, 10);
  if (!options.shown && winner !== "draw" && !(margin >= 1 && margin <= 47)) { $("study-verdict").textContent = "A win is by 1 to 47 squares."; return; }
  return checkWith({ find: "result", winner, margin: options.shown ? 0 : margin }, r => [r.correct, r.correct ? "Right! " : "Not quite. ", `${r.words}: Light has ${count(r.light_unplaced, "square")} unplaced, Dark ${r.dark_unplaced}.`], options);
}

/** Checks the cells marked for an "owned" question with the rules engine. */
function checkOwned({ shown = false } = {}) {
  const s = S.study;
  const c = chapterOf(s);
  const q = c.question;
  const cells = shown ? [] : [...(s.marks || [])].sort(byCell);
  return checkWith({ find: "owned", after: q.after, player: q.player, cells }, r => {
    update(() => { s.marks = new Set(); });
    // The move is played: the board outlines what it claimed and crosses what it captured.
    graft(c.moves, [q.after]);
    goTo([...c.moves, q.after]);
    const parts = [`${Side(q.player)} owns ${r.owned.length ? r.owned.join(", ") : "no cell"}.`];
    if (r.wrong.length) parts.push(`Not ${Side(q.player)}'s: ${r.wrong.join(", ")}.`);
    if (r.missing.length) parts.push(`Left out: ${r.missing.join(", ")}.`);
    return [r.correct, r.correct ? "Right! " : "Not quite. ", `${(shown ? parts.slice(0, 1) : parts).join(" ")}\n${r.explained}`];
  }, { shown });
}

/** The verdict in view (on a phone, or under a long text, it may lie below the screen). */
function reveal() { $("study-verdict").scrollIntoView({ block: "nearest" }); }

/** Back to the chapter's position to answer again (after a wrong answer). */
function retry() {
  const s = S.study;
  if (!s || !s.answer || !s.answer.verdict || (s.answer.verdict.correct && !s.answer.shown)) return;
  update(() => { s.answer = null; s.marks = new Set(); });
  goTo(chapterOf(s).moves);
  $("study-verdict").textContent = "Try again.";
  showBox();
  refresh();
  boardInView();
}

/** Shows the answer: the lesson's move played (and proven), or the rules engine's answer. */
async function showAnswer() {
  const s = S.study;
  if (!s) return;
  const c = chapterOf(s);
  const q = c.question;
  if (!q) return;
  if (s.answer && s.answer.busy) return;
  goTo(c.moves);
  update(() => { s.answer = null; });
  // The lesson's move, proven; or the rules engine's answer (its verdict names it all).
  if (q.find === "move") await answer(q.answers[0], { shown: true });
  else await checkForm({ shown: true });
}

function backToChapter() {
  const s = S.study;
  if (!s) return;
  goTo(chapterOf(s).moves);
  refresh();
}

// ---- Wiring ----------------------------------------------------------------------------------

export async function init() {
  // Three columns (a laptop, a desktop): the lesson at the top of the right-hand column, beside
  // the board, with the hand at the top of the middle one. Two (a tablet): under the hand,
  // beside the board. One (a phone): right under the board, where the hand would push it far.
  const wide = window.matchMedia("(min-width: 1100px)"), narrow = window.matchMedia("(max-width: 699.98px)");
  const dock = () => {
    if (wide.matches) $("side").prepend($("study-box"));
    else if (narrow.matches) $("play-area").prepend($("study-box"));
    else $("status").after($("study-box"));
  };
  wide.addEventListener("change", dock);
  narrow.addEventListener("change", dock);
  dock();
  // A study's link (or the study open at the last visit) opens it at its chapter. Read now: the
  // page writes its game into the address while the course is being listed.
  const fragment = location.hash.length > 1 ? location.hash.slice(1) : (() => { try { return localStorage.getItem("cathedral-game") || ""; } catch (_) { return ""; } })();
  $("chapter-prev").onclick = () => step(-1);
  $("chapter-next").onclick = () => step(1);
  $("chapter-back").onclick = () => backToChapter();
  $("study-close").onclick = () => close();
  $("study-check").onclick = () => checkForm();
  $("owned-clear").onclick = () => { if (S.study) { update(s => { s.study.marks = new Set(); }); $("study-verdict").textContent = ""; } };
  $("study-retry").onclick = () => retry();
  $("study-show").onclick = () => showAnswer();
  $("course-open").onclick = () => { const name = $("course").value; if (name) open({ name }); };
  $("welcome-learn").onclick = () => openCourse();
  try {
    update({ course: await api("/api/studies") });
  } catch (e) { say(`The course could not be listed: ${e.message}`, true); return; }
  const select = $("course");
  select.innerHTML = "";
  for (const l of S.course) {
    const option = Object.assign(document.createElement("option"), { value: l.name });
    select.appendChild(option);
  }
  showBox();
  if (isStudyLink(fragment)) await openLink(fragment, { replace: true });
}

/**
 * Opens the study an address names (`study=NAME&chapter=N`, or the study itself), at its
 * chapter: at the page's start, and when the address changes under the page (Back and
 * Forward, a link pasted into the address bar). The study already open goes to the chapter.
 */
export async function openLink(fragment, { replace = false, report = null } = {}) {
  const params = new URLSearchParams(fragment);
  const chapter = parseInt(params.get("chapter") || "1", 10) - 1;
  const kind = params.has("studyz") ? "studyz" : "studytext";
  // The study open already (a lesson by its name, one's own by its code): only the chapter moves.
  const alreadyOpen = S.study && (params.get("study") ? S.study.name === params.get("study") : !S.study.name && S.study.encoded === `${kind}=${params.get(kind)}`);
  if (alreadyOpen && chapter >= 0 && chapter < S.study.view.chapters.length) { showChapter(chapter, { replace }); return true; }
  // Its place in line is taken now, before the link is decoded: Forward twice in quick
  // succession decodes two links, and the first one decoded need not be the first one asked.
  const ticket = ticketTaken();
  if (params.get("study")) return open({ name: params.get("study"), report }, chapter, { replace, ticket });
  loads(1);
  let text;
  try {
    text = await decodeText(kind, params.get(kind) || "");
  } catch (e) {
    const said = `The link's study could not be read: ${e.message}.`;
    if (ticket === S.studyTicket) { if (report) report({ text: said, line: null, column: null }); else say(said, true); }
    return false;
  } finally { loads(-1); }
  return ticket === S.studyTicket ? open({ text, label: "The linked study", report }, chapter, { replace, ticket }) : false;
}
