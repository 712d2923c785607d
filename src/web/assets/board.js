// @ts-check
// The board: the server's drawing of the position (as `cathedral render` draws it), cut to the
// board, with the page's layers over it: the territory view, what the last move did, the
// engine's or the solver's line as numbered ghost buildings, the placement under the pointer
// and the keyboard cursor. Each layer is a function of the state (state.js).
import { FILES, coords, cellsOf, pieceOf, playerOf, Side, buildingName, nths, squares, count, THEMES } from "./words.js";

export const CELL = 40, MARGIN = 28, TOP = 8;
export const WIDTH = 440, HEIGHT = 436; // the board and its coordinates, without the hands
const SVGNS = "http://www.w3.org/2000/svg";
export const colour = name => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

// The board's colours as src/cathedral/draw/svg.rs writes them, and what the World theme shows instead.
const BOARD_COLOURS = { light: "#f3dfa2", dark: "#6b3e26", cathedral: "#8c7bb8", lightTerritory: "#f7ecc8", darkTerritory: "#d9c2b4" };

export function centre(c) {
  const [file, rank] = coords(c);
  return { x: MARGIN + file * CELL + CELL / 2, y: TOP + (10 - rank) * CELL + CELL / 2 };
}

function element(name, attributes = {}, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function square(c, inset, attributes) {
  const p = centre(c);
  return element("rect", Object.assign({ x: p.x - CELL / 2 + inset, y: p.y - CELL / 2 + inset, width: CELL - 2 * inset, height: CELL - 2 * inset }, attributes));
}

function cross(c, stroke) {
  const p = centre(c), d = CELL / 2 - 8;
  return element("path", { d: `M${p.x - d},${p.y - d}L${p.x + d},${p.y + d}M${p.x + d},${p.y - d}L${p.x - d},${p.y + d}`, stroke, "stroke-width": 4 });
}

/** The outline of a set of cells (the edges that no other cell of the set shares). */
function outline(cells) {
  const set = new Set(cells);
  const parts = [];
  for (const c of cells) {
    const [f, r] = coords(c);
    const x = MARGIN + f * CELL, y = TOP + (10 - r) * CELL;
    const has = (df, dr) => set.has(FILES[f + df] + (r + dr));
    if (!has(0, 1)) parts.push(`M${x},${y}h${CELL}`);
    if (!has(0, -1)) parts.push(`M${x},${y + CELL}h${CELL}`);
    if (!has(-1, 0)) parts.push(`M${x},${y}v${CELL}`);
    if (!has(1, 0)) parts.push(`M${x + CELL},${y}v${CELL}`);
  }
  return parts.join("");
}

/** The cell of the board under a point of the screen, or null. */
export function cellAt(svg, clientX, clientY) {
  const point = svg.createSVGPoint();
  point.x = clientX; point.y = clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  const file = Math.floor((p.x - MARGIN) / CELL), row = Math.floor((p.y - TOP) / CELL);
  return file >= 0 && file < 10 && row >= 0 && row < 10 ? FILES[file] + (10 - row) : null;
}

/** The server's drawing, cut to the board, in the theme's colours. */
export function boardSvg(svgText, theme) {
  let text = svgText;
  if (theme === "world") {
    const map = { light: "--world-light", dark: "--world-dark", cathedral: "--world-people", lightTerritory: "--world-light-territory", darkTerritory: "--world-dark-territory" };
    for (const [key, variable] of Object.entries(map)) text = text.split(BOARD_COLOURS[key]).join(colour(variable));
    text = text.replace(/>CA</g, ">PE<");
  }
  const holder = document.createElement("div");
  holder.innerHTML = text;
  const svg = holder.querySelector("svg");
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  return svg;
}

/**
 * The World theme names every building after a landmark: the board's two-letter codes (the
 * classic "Br", "Mn") become the landmark's initials ("SL" for the Statue of Liberty), so that no
 * classic name stays beside the World's.
 */
export function relabel(svg, position, theme) {
  if (theme !== "world") return;
  const initials = name => name.split(/\s+/).filter(w => /^[A-Z]/.test(w)).map(w => w[0]).join("").slice(0, 3);
  const owners = {};
  for (const owner of ["light", "dark"]) {
    const counts = {};
    for (const b of position[owner].buildings) {
      const nth = counts[b.piece] = (counts[b.piece] || 0) + 1;
      for (const c of b.cells) owners[c] = initials(buildingName(theme, b.piece, owner, nth - 1));
    }
  }
  for (const text of svg.querySelectorAll("text")) {
    if (!/^[A-Z][a-z]$/.test(text.textContent)) continue;
    const x = parseFloat(text.getAttribute("x")), y = parseFloat(text.getAttribute("y"));
    const file = Math.floor((x - MARGIN) / CELL), row = Math.floor((y - TOP) / CELL);
    const cell = file >= 0 && file < 10 && row >= 0 && row < 10 ? FILES[file] + (10 - row) : null;
    if (cell && owners[cell]) text.textContent = owners[cell];
  }
}

function layer(svg, id) {
  let g = svg.querySelector("#" + id);
  if (g) g.remove();
  g = element("g", { id, "pointer-events": "none" });
  svg.appendChild(g);
  return g;
}

/** What the last move did: claims outlined in the mover's colour, captures crossed, near misses dotted. */
export function drawMarks(svg, report, theme = "classic") {
  const g = layer(svg, "marks");
  if (!report) return;
  const claim = colour(`--${theme === "world" ? "world-" : ""}claim-${report.mover === "light" ? "light" : "dark"}`);
  // Each mark says what it is when pointed at (the legend is in Help).
  const titled = (e, text) => { e.appendChild(element("title", {}, text)); return e; };
  for (const c of report.claims) {
    for (const x of c.cells) g.appendChild(titled(square(x, 5, { fill: "none", stroke: claim, "stroke-width": 4 }), `${x}: claimed by ${Side(report.mover)}'s move`));
    if (c.captured) for (const x of c.captured.cells) g.appendChild(titled(cross(x, colour("--capture")), `${x}: captured, the building goes back to its owner's hand`));
  }
  for (const m of report.near_misses) {
    for (const x of m.cells) g.appendChild(titled(square(x, 8, { fill: "none", stroke: colour("--near-miss"), "stroke-width": 2, "stroke-dasharray": "4 3" }), `${x}: almost walled in (a near miss)`));
    if (m.corner) {
      const [a, b] = m.corner.map(centre);
      g.appendChild(element("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: colour("--near-miss"), "stroke-width": 4 }));
      for (const p of [a, b]) g.appendChild(element("circle", { cx: p.x, cy: p.y, r: 7, fill: colour("--near-miss") }));
    }
  }
}

/** The territory view: each empty cell shaded by who is likely to own or fill it at the end. */
export function drawTerritory(svg, cells, covered = new Set()) {
  const g = layer(svg, "territory");
  if (!cells) return;
  const light = colour("--own-light"), dark = colour("--own-dark");
  for (const c of cells) {
    if (c.settled || covered.has(c.cell)) continue;
    const lead = c.light - c.dark;
    if (Math.abs(lead) < 0.05) continue;
    const size = Math.round(6 + 24 * Math.min(1, Math.abs(lead)));
    const p = centre(c.cell);
    g.appendChild(element("rect", {
      x: p.x - size / 2, y: p.y - size / 2, width: size, height: size, rx: 3,
      fill: lead > 0 ? light : dark, "fill-opacity": 0.35 + 0.5 * Math.abs(lead),
      stroke: lead > 0 ? dark : light, "stroke-width": 1,
      "data-cell": c.cell, "data-owner": lead > 0 ? "light" : "dark",
    }));
  }
}

/** A line of moves as ghost buildings, numbered in the order they would be played. */
export function drawGhosts(svg, moves, theme) {
  const g = layer(svg, "ghosts");
  if (!moves || !moves.length) return;
  moves.slice(0, 9).forEach((move, i) => {
    const cells = cellsOf(move);
    if (!cells.length) return;
    const player = playerOf(move);
    const fill = colour(player === "dark" ? "--ghost-dark" : "--ghost-light");
    const group = element("g", { class: "ghost", "data-move": move });
    for (const c of cells) group.appendChild(square(c, 2, { fill, "fill-opacity": 0.55 }));
    group.appendChild(element("path", { d: outline(cells), fill: "none", stroke: colour("--ghost-outline"), "stroke-width": 2.5, "stroke-dasharray": "5 3" }));
    const p = centre(cells[0]);
    group.appendChild(element("circle", { cx: p.x, cy: p.y, r: 11, fill: colour("--ghost-outline") }));
    group.appendChild(element("text", { x: p.x, y: p.y + 5, "text-anchor": "middle", "font-size": 14, "font-weight": "bold", fill: "#ffffff" }, String(i + 1)));
    g.appendChild(group);
  });
  void theme;
}

/**
 * A study's drawing (study.js): its highlighted cells (a ring), its arrows (from the middle of
 * a cell to the middle of another, with a head), and the cells the learner marked as an answer
 * (a dot in a ring). `drawn` is null when the board is not at the chapter's position.
 */
export function drawStudy(svg, drawn) {
  const g = layer(svg, "study");
  if (!drawn) return;
  const highlight = colour("--study-highlight"), arrow = colour("--study-arrow"), mark = colour("--study-mark");
  for (const c of drawn.highlights || []) {
    const e = square(c, 3, { fill: highlight, "fill-opacity": 0.25, stroke: highlight, "stroke-width": 4, rx: 4, class: "highlight", "data-cell": c });
    e.appendChild(element("title", {}, `${c}: highlighted by the study`));
    g.appendChild(e);
  }
  for (const [from, to] of drawn.arrows || []) {
    const a = centre(from), b = centre(to);
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    if (!length) continue;
    const ux = (b.x - a.x) / length, uy = (b.y - a.y) / length;
    // The head ends short of the cell's middle, so the cell's label stays readable.
    const tip = { x: b.x - ux * 6, y: b.y - uy * 6 };
    const base = { x: tip.x - ux * 16, y: tip.y - uy * 16 };
    const group = element("g", { class: "arrow", "data-from": from, "data-to": to, opacity: 0.85 });
    group.appendChild(element("line", { x1: a.x, y1: a.y, x2: base.x, y2: base.y, stroke: arrow, "stroke-width": 7, "stroke-linecap": "round" }));
    group.appendChild(element("path", { d: `M${tip.x},${tip.y}L${base.x - uy * 11},${base.y + ux * 11}L${base.x + uy * 11},${base.y - ux * 11}Z`, fill: arrow }));
    g.appendChild(group);
  }
  for (const c of drawn.marked || []) {
    const p = centre(c);
    const group = element("g", { class: "marked", "data-cell": c });
    group.appendChild(element("circle", { cx: p.x, cy: p.y, r: 13, fill: "none", stroke: mark, "stroke-width": 3 }));
    group.appendChild(element("circle", { cx: p.x, cy: p.y, r: 6, fill: mark }));
    g.appendChild(group);
  }
}

/** The placement under the pointer (legal in blue, refused in orange and dashed) and the cursor. */
export function drawPreview(svg, cell, shown, armed) {
  const g = layer(svg, "preview");
  if (!cell) return;
  if (shown && shown.cells) {
    const stroke = colour(shown.reason ? "--refused" : "--legal");
    for (const c of shown.cells) {
      g.appendChild(square(c, 3, shown.reason
        ? { fill: stroke, "fill-opacity": 0.35, stroke, "stroke-width": 3, "stroke-dasharray": "6 3" }
        : { fill: stroke, "fill-opacity": armed ? 0.6 : 0.45, stroke, "stroke-width": armed ? 4 : 2 }));
    }
  }
  g.appendChild(square(cell, 1, { id: "cursor", fill: "none", stroke: colour("--cursor"), "stroke-width": 2, "stroke-dasharray": "2 2" }));
}

/** What is on one cell, and whose territory it is, in words (a screen reader's question). */
export function cellWords(view, cell, theme) {
  const p = view.position;
  const neutral = THEMES[theme].neutral;
  if (p.cathedral.cells.includes(cell)) return `${cell}: the ${neutral}.`;
  for (const owner of ["light", "dark"]) {
    const counts = {};
    for (const b of p[owner].buildings) {
      const nth = counts[b.piece] = (counts[b.piece] || 0) + 1;
      if (b.cells.includes(cell)) return `${cell}: ${Side(owner)}'s ${buildingName(theme, b.piece, owner, nth - 1)} (${squares(b.cells)}).`;
    }
  }
  for (const owner of ["light", "dark"]) if ((p[owner].territory || []).includes(cell)) return `${cell}: empty, ${Side(owner)}'s territory.`;
  return `${cell}: empty.`;
}

/** The position in words, for screen readers (buildings apart by semicolons: their squares have commas). */
export function describe(view, theme) {
  const p = view.position;
  const parts = [];
  const neutral = THEMES[theme].neutral;
  parts.push(p.game_over ? "The game is over." : `${Side(p.to_move)} to move.`);
  parts.push(p.cathedral.cells.length ? `The ${neutral} covers ${squares(p.cathedral.cells)}.` : p.cathedral.status === "to-place" ? `The ${neutral} is still to be placed.` : `The ${neutral} has been captured.`);
  for (const owner of ["light", "dark"]) {
    const v = p[owner];
    const counts = {};
    const list = v.buildings.map(b => {
      const nth = counts[b.piece] = (counts[b.piece] || 0) + 1;
      return `${buildingName(theme, b.piece, owner, nth - 1)} ${squares(b.cells)}`;
    });
    parts.push(`${Side(owner)}: ${list.length ? list.join("; ") : "no buildings"}; territory ${count(v.territory_size, "square")}; ${count(v.unplaced_squares, "square")} unplaced.`);
  }
  return parts.join(" ");
}

export { pieceOf, nths };
