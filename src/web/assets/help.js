// @ts-check
// The help panel: the rules in a few lines with a picture of a claim and of a capture, what
// "unplaced squares" means, and the keys. Opened by Help or the ? key.
import { S } from "./state.js";
import { THEMES } from "./words.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));

// A corner of a board, 5x5 cells: `cells` maps "fr" (file 0-4, rank 0-4 from the bottom) to a fill.
function corner(label, cells, marks = []) {
  const u = 24, size = 5 * u;
  let body = `<rect width="${size}" height="${size}" fill="#ffffff" stroke="#222" stroke-width="2"/>`;
  for (let i = 1; i < 5; i++) body += `<path d="M${i * u},0v${size}M0,${i * u}h${size}" stroke="#c8c8c8"/>`;
  for (const [at, fill] of Object.entries(cells)) {
    const f = +at[0], r = +at[1];
    body += `<rect x="${f * u + 1}" y="${(4 - r) * u + 1}" width="${u - 2}" height="${u - 2}" fill="${fill}" stroke="#222"/>`;
  }
  for (const m of marks) body += m(u);
  return `<svg viewBox="-2 -2 ${size + 4} ${size + 4}" role="img" aria-label="${label}">${body}</svg>`;
}

// One mark of the board as it is drawn there, on a cell-sized swatch, for the legend.
function swatch(label, body) {
  return `<svg class="swatch" viewBox="0 0 30 30" width="30" height="30" role="img" aria-label="${label}"><rect width="30" height="30" fill="#ffffff" stroke="#c8c8c8"/>${body}</svg>`;
}
const css = name => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

function legend() {
  const rows = [
    [swatch("the last move", `<rect x="3" y="3" width="24" height="24" fill="#f3dfa2" stroke="#ff4500" stroke-width="4"/>`), "The last move: its building outlined."],
    [swatch("a claim", `<rect x="5" y="5" width="20" height="20" fill="none" stroke="${css("--claim-dark")}" stroke-width="4"/>`), "A claim the last move made: its cells framed in the claimer's colour."],
    [swatch("a capture", `<path d="M7,7L23,23M23,7L7,23" stroke="${css("--capture")}" stroke-width="4"/>`), "A capture: a cross on the building removed."],
    [swatch("a near miss", `<rect x="8" y="8" width="14" height="14" fill="none" stroke="${css("--near-miss")}" stroke-width="2" stroke-dasharray="4 3"/><circle cx="8" cy="8" r="4" fill="${css("--near-miss")}"/>`), "A near miss: an area the move almost walled in, and the diagonal gap that left it open."],
    [swatch("a legal placement", `<rect x="1" y="1" width="28" height="28" fill="${css("--legal")}" fill-opacity="0.45" stroke="${css("--legal")}" stroke-width="2"/>`), "The building under the pointer where it may go (tap it again or click to place)."],
    [swatch("a refused placement", `<rect x="1" y="1" width="28" height="28" fill="${css("--refused")}" fill-opacity="0.35" stroke="${css("--refused")}" stroke-width="3" stroke-dasharray="6 3"/>`), "Where it may not go; the line under the board says why."],
    [swatch("a ghost building", `<rect x="3" y="3" width="24" height="24" fill="#6b3e26" fill-opacity="0.45" stroke="${css("--ghost-outline")}" stroke-width="2" stroke-dasharray="4 2"/><text x="15" y="20" text-anchor="middle" font-size="13" fill="#fff">1</text>`), "A move of the engine's or the solver's line, numbered in the order it would be played."],
    [swatch("a shape drawn", `<circle cx="15" cy="15" r="11" fill="none" stroke="#000" stroke-opacity="0.35" stroke-width="5"/><circle cx="15" cy="15" r="11" fill="none" stroke="${css("--shape-green")}" stroke-width="3"/>`), "A circle (or an arrow) drawn with a right-click or a long-press: green, red, blue or yellow."],
    [swatch("territory", `<rect x="8" y="8" width="14" height="14" rx="3" fill="${css("--own-dark")}" fill-opacity="0.6"/>`), "The territory view: who is likely to own or fill the cell at the end (bigger is surer)."],
  ];
  return `<table class="legend">${rows.map(([picture, words]) => `<tr><td>${picture}</td><td>${words}</td></tr>`).join("")}</table>
<p>In the hand, the number after a building is how many legal placements it has now; a building with none is greyed.</p>`;
}

function content() {
  const L = "#f3dfa2", D = "#6b3e26", T = "#d9c2b4";
  const neutral = THEMES[S.theme].neutral;
  // Dark walls in the corner a1-b2 with its buildings and the board's edges: a claim.
  const claim = corner("A claim: Dark's buildings wall in the corner a1 to b2", { "20": D, "21": D, "22": D, "12": D, "02": D, "00": T, "10": T, "01": T, "11": T },
    [u => `<rect x="1" y="${3 * u + 1}" width="${2 * u - 2}" height="${2 * u - 2}" fill="none" stroke="#5a2d0c" stroke-width="3"/>`]);
  // A lone Light building walled in by Dark: captured, it goes back to Light's hand.
  const capture = corner("A capture: a single Light building walled in by Dark", { "20": D, "21": D, "22": D, "12": D, "02": D, "00": L, "10": T, "01": T, "11": T },
    [u => `<path d="M6,${4 * u + 6}l${u - 12},${u - 12}M${u - 6},${4 * u + 6}l-${u - 12},${u - 12}" stroke="#ff4500" stroke-width="3"/>`]);
  return `
<p>Two players, Light and Dark, take turns placing their buildings on the 10x10 city. Light
first places the neutral <b>${neutral}</b>, then Dark moves first. A building may go on any free
cells that are not the opponent's territory.</p>
<figure>${claim}<figcaption>A claim: Dark's buildings and the board's edges wall in a1-b2, which becomes Dark's territory.</figcaption></figure>
<figure>${capture}<figcaption>A capture: a single Light building walled in alone is removed and goes back to Light's hand.</figcaption></figure>
<p><b>Claims.</b> Walling off an area with your buildings (and the board's edges) makes it your
territory: only you may build there. A diagonal contact does not close a wall, and the ${neutral}
is never part of one. No claim on a player's first move.</p>
<p><b>Captures.</b> An area that holds exactly one opposing building (or the ${neutral}) is
claimed and that building removed; two or more buildings inside are never captured.</p>
<p><b>The end.</b> When neither player can place, the one with fewer <b>unplaced squares</b>
(the squares of the buildings still in hand) wins, by the difference.</p>
<p><b>Placing.</b> Pick a building in the hand, turn it with <kbd>R</kbd> (Rotate) and
<kbd>M</kbd> (Mirror), then point at the board: it shows legal in blue, refused in orange with
the reason. Click to place. On a touch screen, tap to show it, tap it again to place.</p>
<h3>The board's marks</h3>
${legend()}
<h3>Moves and variations</h3>
<p>The game is a tree: a move played in the middle of a game opens a <b>variation</b> and the
game's own moves are kept. The move list shows each variation after the move it replaces; a
click on a move goes there. <kbd>&larr;</kbd> <kbd>&rarr;</kbd> step back and on, <kbd>Home</kbd>
<kbd>End</kbd> go to the start and the end, <kbd>Shift</kbd>+<kbd>&uarr;</kbd>
<kbd>Shift</kbd>+<kbd>&darr;</kbd> switch to the other variations at this move. <b>Make main
line</b> promotes a variation; <b>Annotate this move</b> adds a mark (<b>!</b> good, <b>?</b>
mistake, <b>!!</b> brilliant, <b>??</b> blunder, <b>!?</b> interesting, <b>?!</b> dubious) and a
comment, saved in the game record and in the link. The mouse wheel over the board steps back
(up) and on (down) too.</p>
<h3>Drawing on the board</h3>
<p>As on lichess: a <b>right-click</b> on a cell circles it, a <b>right-drag</b> from a cell to
another draws an arrow; on a touch screen, <b>press and hold</b> a cell, then drag (lift without
dragging for a circle). Green without a key, red with <kbd>Shift</kbd> (or <kbd>Ctrl</kbd>), blue
with <kbd>Alt</kbd>, yellow with <kbd>Shift</kbd>+<kbd>Alt</kbd>. Drawing a shape again removes
it; a left click (or a tap) on the board that places no building clears them all. The shapes
belong to the move shown: each move keeps its own, in the game record and in the link.</p>
<p><b>Keys</b> with the board focused: <kbd>&larr;</kbd><kbd>&uarr;</kbd><kbd>&rarr;</kbd><kbd>&darr;</kbd>
cursor, <kbd>R</kbd> rotate, <kbd>M</kbd> mirror (<kbd>F</kbd> too: it does not flip the board, as on
lichess), <kbd>V</kbd> flip the board, <kbd>Enter</kbd> place, <kbd>[</kbd> <kbd>]</kbd>
building, <kbd>C</kbd> capture or spare (when both are legal), <kbd>Backspace</kbd> undo,
<kbd>Shift</kbd>+<kbd>Backspace</kbd> redo (against the engine, undo and redo take back and bring
back your move with its answer), <kbd>Esc</kbd> hide the preview, <kbd>?</kbd> this help.</p>
<p><b>Values</b> are squares for Light, everywhere on the page (+ Light ahead, &minus; Dark
ahead): <b>+5</b> in bold is exact (proven by the solver), <b>~&thinsp;+2.3</b> is the engine's estimate.
Verdicts are said in words ("Dark wins by 5"). Copy link puts the game and its move in a link;
the page also keeps the game in its address, so a reload loses nothing.</p>`;
}

export function open() {
  $("help-body").innerHTML = content();
  const dialog = $("help");
  if (!dialog.open) dialog.showModal();
  // Start reading at the top (showModal focuses the Close button at the bottom).
  $("help-title").focus();
  dialog.scrollTop = 0;
}

export function init() {
  $("help-open").onclick = open;
}
