// @ts-check
// What the page keeps outside itself: the game in the address (a reload restores it, a link
// shares it) and in the browser, the values and marks of its moves, and the player's settings.
// A game that replaces another (New game, Open, other rules) gets an address of its own, so
// that Back brings the last one back; moves within a game only change the current address.
import { S, update, goTo, atEnd, nodeAt, encodeGame, decodeGame } from "./state.js";
import { say } from "./status.js";
import { refresh } from "./actions.js";
import * as analysis from "./analysis.js";
import * as study from "./study.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));

/**
 * Writes the game (or the study at its chapter) into the address and the browser. An address
 * that differs from the one the page last wrote or read (`S.address.seen`) was changed under
 * the page (Back, Forward, a link typed in) and its hashchange has not been handled yet: the
 * page writes nothing over it, for that event brings the state the address names. (Written
 * over, the entry the browser went back to was lost: an answer arriving between Back and its
 * event put the study's chapter where the game had been.)
 */
export function save() {
  if (location.hash !== S.address.seen) return;
  // A study open: the address names it at its chapter (the moves tried there are not kept).
  const fragment = study.link() || encodeGame();
  if (location.hash.slice(1) !== fragment) {
    if (S.address.fresh && location.hash.length > 1) window.history.pushState(null, "", "#" + fragment);
    else window.history.replaceState(null, "", "#" + fragment);
  }
  update(s => ({ address: { ...s.address, fresh: false, seen: location.hash } }));
  try {
    localStorage.setItem("cathedral-game", fragment);
    // Whether the autosaved game has moves not saved to a file: after a reload the page still
    // asks before discarding it. A puzzle's moves (an answer, its refutation, the solution
    // played out) are the trainer's, not a game of the player's: never unsaved.
    localStorage.setItem("cathedral-game-unsaved", S.dirty && !S.puzzle ? "1" : "");
    // Whether the engine may move in it by itself: a reload plays on against the engine, and a
    // game opened, where the engine waits for Engine move, still waits after a reload.
    localStorage.setItem("cathedral-game-autoplay", S.autoplay ? "1" : "");
  } catch (_) { /* private mode: the address still has it */ }
  keepJudgements();
}

/** The address written now; `replace`: the address itself brought the change, so no new entry of the history. */
export function saveAddress(replace = false) {
  if (replace) update(s => ({ address: { ...s.address, fresh: false } }));
  save();
}

// The values and the analysis's marks of the move list are kept in the browser with the game, each
// by the moves that reach its position, so that a reload shows them at the same moves again.
const JUDGED = "cathedral-game-judged";

/** Keeps the values and marks of the game's positions in the browser (when they changed). */
export function keepJudgements() {
  const game = S.game;
  // (by the moves alone: the rules and the start, a whole position file, are written once)
  const position = key => { try { return JSON.parse(key); } catch (_) { return []; } };
  const values = Object.entries(S.values).map(([key, value]) => [position(key), value])
    .filter(([[r, s, moves]]) => r === game.rules && s === game.start && Array.isArray(moves)).map(([[, , moves], value]) => [moves, value]);
  const judged = [];
  const walk = (node, path) => {
    for (const child of node.children) {
      const p = [...path, child.move];
      const j = child.judged;
      if (j) judged.push([p, { mover: j.mover, after_value: j.after_value, after_judgement: j.after_judgement, mark: j.mark || null, loss: j.loss, before: { best: j.before ? j.before.best : null } }]);
      walk(child, p);
    }
  };
  walk(game.root, []);
  const text = JSON.stringify({ rules: game.rules, start: game.start, values, judged });
  // (compared with what the browser holds: render calls this, and writes only a change)
  try { if (localStorage.getItem(JUDGED) !== text) localStorage.setItem(JUDGED, text); } catch (_) { /* not kept */ }
}

/** The kept values and marks of the game's positions (the same rules and start), after a reload. */
function restoreJudgements() {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(JUDGED) || "null"); } catch (_) { kept = null; }
  if (!kept || kept.rules !== S.game.rules || kept.start !== S.game.start) return;
  update(s => {
    for (const [moves, value] of kept.values || []) {
      const key = JSON.stringify([s.game.rules, s.game.start, moves]);
      if (!s.values[key]) s.values[key] = value;
    }
    for (const [path, judged] of kept.judged || []) {
      const node = path.length ? nodeAt(path) : null;
      if (node && !node.judged) node.judged = judged;
    }
  });
}

/** The game of the address (or of the browser's autosave); false when there is none to read. */
export function restore() {
  const fragment = location.hash.length > 1 ? location.hash.slice(1) : localStorage.getItem("cathedral-game");
  if (!fragment) return false;
  // A puzzle's link: the trainer opens it once the puzzles are listed.
  if (/^puzzle=/.test(fragment)) return false;
  // A study's link: opened once the course is listed.
  if (study.isStudyLink(fragment)) return false;
  try {
    const g = decodeGame(fragment);
    // The autosaved game keeps its unsaved moves unsaved; a link someone shared has none.
    let stored = null, unsaved = false, autoplay = false;
    try {
      stored = localStorage.getItem("cathedral-game");
      unsaved = localStorage.getItem("cathedral-game-unsaved") === "1";
      autoplay = localStorage.getItem("cathedral-game-autoplay") === "1";
    } catch (_) { /* private mode */ }
    update({ game: { rules: g.rules, start: g.start, root: g.root, moves: [], meta: g.meta }, dirty: unsaved && stored === fragment });
    goTo(g.path);
    restoreJudgements();
    // A reload in the middle of a game against the engine: it plays on if it is its turn at the
    // end of the game (never over moves that were taken back). A link opened (one this browser
    // did not keep, or Back to another game) never starts the engine: it waits for Engine move.
    update({ autoplay: atEnd() && stored === fragment && autoplay });
    $("rules").value = g.rules;
    return true;
  } catch (e) {
    say(`The link's game could not be read: ${e.message}. A new game starts.`, true);
    return false;
  }
}

/** The address changed under the page (Back, Forward, a link typed in): the page follows it. */
export function followAddress() {
  // The address brought this state: it is no new entry.
  update(s => ({ address: { ...s.address, seen: location.hash, fresh: false } }));
  const fragment = location.hash.slice(1);
  if (fragment === (study.link() || encodeGame())) return;
  // Back to a study's chapter (or a study's link typed in): the study opens there.
  if (study.isStudyLink(fragment)) { study.openLink(fragment, { replace: true }); return; }
  // Back to a game from a study: the study goes with the game it showed.
  if (restore()) { study.leave(); analysis.reset(); refresh(); }
}

// ---- The player's settings ------------------------------------------------------------------

// The player's settings (the engine's side and level, the switches, the display) are kept in
// the browser; the game itself is in the address.
const SETTINGS = "cathedral-settings";

export function saveSettings() {
  const settings = { flipped: S.flipped, engineSide: S.engineSide, level: S.level, theme: S.theme, evaluate: $("evaluate").checked, territory: $("show-territory").checked, line: $("show-line").checked, teach: $("teach").checked, teachThreshold: $("teach-threshold").value, autoNext: $("auto-next").checked };
  try { localStorage.setItem(SETTINGS, JSON.stringify(settings)); } catch (_) { /* not kept */ }
}

export function loadSettings() {
  let settings = {};
  try { settings = JSON.parse(localStorage.getItem(SETTINGS) || "{}") || {}; } catch (_) { settings = {}; }
  if (["", "light", "dark"].includes(settings.engineSide)) { update({ engineSide: settings.engineSide }); $("opponent").value = settings.engineSide; }
  if (Number.isInteger(settings.level) && settings.level >= 1 && settings.level <= 10) { update({ level: settings.level }); $("level").value = String(settings.level); }
  if (settings.theme === "world" || settings.theme === "classic") { update({ theme: settings.theme }); $("theme").value = settings.theme; }
  if (typeof settings.evaluate === "boolean") $("evaluate").checked = settings.evaluate;
  if (typeof settings.flipped === "boolean") update({ flipped: settings.flipped });
  if (typeof settings.territory === "boolean") { $("show-territory").checked = settings.territory; update({ showTerritory: settings.territory }); }
  if (typeof settings.line === "boolean") $("show-line").checked = settings.line;
  if (typeof settings.teach === "boolean") $("teach").checked = settings.teach;
  if (["1", "2", "3", "5", "8"].includes(settings.teachThreshold)) $("teach-threshold").value = settings.teachThreshold;
  if (typeof settings.autoNext === "boolean") $("auto-next").checked = settings.autoNext;
}
