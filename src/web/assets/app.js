// @ts-check
// The page's entry: the buttons, menus and keys wired to the actions (actions.js, files.js), the
// settings read back, each panel started, and the game of the address restored. The state is
// state.js's; every change goes through its `update`, and render.js draws every view from it.
import { S, drawWith } from "./state.js";
import { onUnreachable } from "./api.js";
import { LADDER } from "./ladder.js";
import { IN_BROWSER, ENGINE_WHERE, tableMb, setTableMb } from "./local.js";
import { attach } from "./input.js";
import { render } from "./render.js";
import { undo, redo, place, turn, flip, welcome, makeMainLine, deleteMove, mayDiscard, newGame, setLevel, setEngineSide, setTheme, refresh, waitForServer } from "./actions.js";
import { openFile, openGame, openPasted, saveRecord, savePosition, share } from "./files.js";
import { restore, followAddress, saveSettings, loadSettings } from "./address.js";
import * as analysis from "./analysis.js";
import * as online from "./online.js";
import * as history from "./history.js";
import * as trainer from "./trainer.js";
import * as study from "./study.js";
import * as editor from "./editor.js";
import * as help from "./help.js";
import * as teach from "./teach.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));

function wire() {
  attach();
  $("rotate").onclick = () => turn("rotate");
  $("mirror").onclick = () => turn("mirror");
  $("place").onclick = () => place();
  $("undo").onclick = () => undo();
  $("redo").onclick = () => redo();
  // The first screen's two ways in; either choice (or a first move) puts the question away.
  $("welcome-play").onclick = () => welcome("dark");
  $("welcome-analyse").onclick = () => welcome("");
  $("flip").onclick = flip;
  $("promote").onclick = makeMainLine;
  $("delete-move").onclick = deleteMove;
  $("rules").onchange = e => {
    if (!mayDiscard("Changing the rules")) { e.target.value = S.game.rules; return; }
    newGame(e.target.value);
  };
  $("new").onclick = () => {
    if (!mayDiscard("A new game")) return;
    newGame($("rules").value);
  };
  for (const rung of LADDER.slice().reverse()) {
    const option = document.createElement("option");
    option.value = String(rung.level);
    option.textContent = `${rung.level} · ${rung.name}`;
    option.title = `${rung.summary} (${rung.elo >= 0 ? "+" : "−"}${Math.abs(rung.elo)} Elo over the greedy player)`;
    $("level").appendChild(option);
  }
  $("level").value = String(S.level);
  $("level").onchange = e => setLevel(parseInt(e.target.value, 10));
  $("opponent").onchange = e => setEngineSide(e.target.value);
  $("open").onclick = () => $("file").click();
  $("paste").onclick = () => $("paste-dialog").showModal();
  $("paste-text").addEventListener("input", () => { $("paste-said").textContent = ""; $("paste-said").className = ""; });
  $("paste-open").onclick = e => { e.preventDefault(); openPasted(); };
  $("file").onchange = async () => {
    const file = $("file").files[0];
    $("file").value = "";
    if (file) await openFile(file);
  };
  $("games").onchange = e => {
    const i = parseInt(e.target.value, 10);
    if (!mayDiscard("Another game of the record")) { e.target.value = String(S.record.games.indexOf(S.record.games[i])); return; }
    openGame(i);
  };
  $("save").onclick = saveRecord;
  $("savepos").onclick = savePosition;
  $("share").onclick = share;
  $("theme").onchange = e => setTheme(e.target.value);
  window.addEventListener("hashchange", followAddress);
}

function start() {
  drawWith(render);
  onUnreachable(() => waitForServer());
  $("engine-where").textContent = `The engine and the solver run in ${ENGINE_WHERE}${IN_BROWSER ? ": everything works offline once the page has loaded" : ""}.`;
  // The static site keeps its files for offline use (sw.js, written by `cathedral site`).
  if (IN_BROWSER && "serviceWorker" in navigator) navigator.serviceWorker.register(new URL("../sw.js", import.meta.url)).catch(() => {});
  if (IN_BROWSER) {
    $("table-mb-label").hidden = false;
    $("table-mb").value = String(tableMb());
    $("table-mb").addEventListener("change", () => setTableMb(parseInt($("table-mb").value, 10)));
  }
  wire();
  loadSettings();
  for (const id of ["opponent", "level", "theme", "evaluate", "show-territory", "show-line", "teach", "teach-threshold", "auto-next"]) $(id).addEventListener("change", saveSettings);
  analysis.init();
  history.init();
  trainer.init();
  study.init();
  editor.init();
  help.init();
  teach.init();
  restore();
  refresh();
  online.init();
}

start();
