// @ts-check
// Games in and out: a record, a position file or a link opened (from a file or pasted), the
// record's games one by one, the game saved as a record or a position file, and the link to it.
import { S, update, request, goTo, lineOf, newGameState, decodeGame, encodeGame } from "./state.js";
import { api } from "./api.js";
import { failure, count as counted } from "./words.js";
import { say } from "./status.js";
import { refresh, startGame, mayDiscard } from "./actions.js";
import { save } from "./address.js";
import * as trainer from "./trainer.js";
import * as study from "./study.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));

/** Opens game `i` of the record opened, which waits for Redo or a click on a move. */
export function openGame(i) {
  const g = S.record.games[i];
  startGame(newGameState({ rules: g.rules || "classic", start: g.start, moves: g.moves, comments: g.comments || [], marks: g.marks || [], shapes: g.shapes || [], startShapes: g.start_shapes || [], variations: g.variations || [] }), { keepRecord: true,
    meta: g.meta || { light: g.light, dark: g.dark, event: g.event } });
  update({ autoplay: false });
  $("games").value = String(i);
  refresh().then(() => say(`Game ${i + 1} of ${S.record.games.length}, ${counted(g.moves.length, "move")}: Redo or a click on a move steps through it.`));
}

/** A text that cannot be opened is said in the status line (a file); the paste dialog says it itself. */
const sayFailure = f => { if (!f.unreachable) say(f.text, true); };

export async function openFile(file) {
  return openText(file.name, await file.text());
}

/**
 * Opens a game record, a position file or a link to a game (from a file or pasted): the record's
 * games in the Game list, the position as a new game, the link's game at its move.
 */
export async function openText(name, text, report = sayFailure) {
  if (/^study:/m.test(text)) return study.openText(name, text, report);
  const studyLink = /#((?:study|studyz|studytext)=\S*)/.exec(text.trim());
  if (studyLink) return study.openLink(studyLink[1], { report });
  const link = /#(?:rules|start)=\S*/.exec(text.trim());
  if (link && !/^moves:/m.test(text)) {
    let g;
    try { g = decodeGame(link[0]); } catch (e) { report({ text: `${name}: ${e.message}.`, line: null, column: null }); return false; }
    if (!mayDiscard("Opening the link")) return false;
    startGame({ rules: g.rules, start: g.start, root: g.root, moves: [], meta: g.meta });
    goTo(g.path);
    refresh();
    return true;
  }
  try {
    if (/^moves:/m.test(text)) {
      const record = await api("/api/record/read", { text });
      if (!mayDiscard("Opening " + name)) return false;
      update({ record });
      const games = $("games");
      games.innerHTML = "";
      record.games.forEach((g, i) => {
        const option = document.createElement("option");
        option.value = i;
        option.textContent = `${i + 1}${g.light || g.dark ? `: ${g.light || "?"} - ${g.dark || "?"}` : ""}`;
        games.appendChild(option);
      });
      $("games-label").hidden = record.games.length < 2;
      openGame(0);
    } else {
      await api("/api/position", { start: text, moves: [] });
      if (!mayDiscard("Opening " + name)) return false;
      startGame(newGameState({ start: text }));
      refresh();
    }
    return true;
  } catch (e) {
    report(e.unreachable ? { text: e.message, unreachable: true, line: null, column: null } : failure(name, e.message));
    return false;
  }
}

function download(text, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/yaml" }));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Save game: the whole tree (the main line and every variation), with the record's metadata, comments and marks. */
export async function saveRecord() {
  /** @type {any} */
  const extra = lineOf(S.game.root);
  if (S.game.root.shapes.length) extra.start_shapes = S.game.root.shapes;
  if (S.game.meta && Object.values(S.game.meta).some(Boolean)) extra.meta = S.game.meta;
  try { download((await api("/api/record/write", request(extra))).text, "game.yaml"); update({ dirty: false }); save(); } catch (e) { say(e.message, true); }
}

/** Save position: the position shown as a position file. */
export function savePosition() { if (S.view) download(S.view.position_file, "position.yaml"); }

/** Copy link: the puzzle, the study's chapter or the game, copied where the browser lets it. */
export async function share() {
  const url = `${location.origin}${location.pathname}#${trainer.puzzleLink() || study.link() || encodeGame()}`;
  $("link-box").hidden = false;
  $("link").value = url;
  $("link").select();
  try {
    await navigator.clipboard.writeText(url);
    $("link-said").textContent = "Copied.";
  } catch (_) {
    $("link-said").textContent = "Select the link and copy it.";
  }
}

/**
 * A pasted text that cannot be read: the dialog stays open with it, says why, and selects the
 * line the error names (scrolled into view), so that it can be mended there.
 */
function pasteFailed(f) {
  const box = $("paste-text");
  const lines = box.value.split("\n");
  const line = f.line && f.line <= lines.length ? f.line : null;
  $("paste-said").textContent = f.text.replace(/\.?$/, ".") + (line ? ` Line ${line} is selected above.` : "");
  $("paste-said").className = "refused";
  if (!$("paste-dialog").open) return;
  box.focus();
  if (!line) return;
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  box.setSelectionRange(start, start + lines[line - 1].length);
  const height = parseFloat(getComputedStyle(box).lineHeight) || 18;
  box.scrollTop = Math.max(0, (line - 2) * height);
}

/**
 * Open in the paste dialog. The text pasted stays in the box until it opens: one that cannot be
 * read keeps the dialog open with the error and its line selected, and is still there when the
 * dialog is opened again.
 */
export async function openPasted() {
  const text = $("paste-text").value;
  if (!text.trim()) { $("paste-said").textContent = "Paste a game record, a position file or a link first."; return; }
  if ($("paste-open").disabled) return;
  let failed = null;
  $("paste-said").textContent = "Opening...";
  $("paste-said").className = "";
  $("paste-open").disabled = true;
  let opened = false;
  try { opened = await openText("The pasted text", text, f => { failed = f; }); } finally { $("paste-open").disabled = false; }
  if (failed) { pasteFailed(failed); return; }
  $("paste-said").textContent = "";
  if (opened) $("paste-text").value = "";
  if ($("paste-dialog").open) $("paste-dialog").close();
}
