// @ts-check
// Shapes drawn on the board, as on lichess: a right-click on a cell circles it, a right-drag
// from a cell to another draws an arrow (on touch: a long-press, then a drag). Shift or Ctrl
// draws in red, Alt in blue, Shift and Alt in yellow, no key in green. Drawing a shape again
// removes it; in another colour it takes that colour. Shapes belong to the node of the game
// tree they were drawn on (its `shapes`, state.js), so each position shows its own, and they go
// into the game record (`shapes:`, docs/game-record.md) and the link.
//
// A shape is written as records write it: "e4" a green circle, "e4-g7" a green arrow, and a
// colour other than green in front: "red:c3", "blue:e4-g7".
import { centre, colour } from "./board.js";

export const COLOURS = ["green", "red", "blue", "yellow"];
const CELL_RE = /^[a-j](?:10|[1-9])$/;

/** The colour a pointer event draws in (lichess's brushes): Shift or Ctrl red, Alt blue, both yellow. */
export function colourOf(e) {
  const a = e.shiftKey || e.ctrlKey, b = e.altKey || e.metaKey;
  return COLOURS[(a ? 1 : 0) + (b ? 2 : 0)];
}

/** A shape's text: "e4", "e4-g7", "red:c3". */
export function shapeText({ from, to, colour: c }) {
  return (c && c !== "green" ? `${c}:` : "") + (to && to !== from ? `${from}-${to}` : from);
}

/** The shape a text writes: { from, to, colour } (a circle has to === from); throws with the reason. */
export function parseShape(text) {
  const written = String(text).trim().toLowerCase();
  const [c, cells] = written.includes(":") ? written.split(/:(.*)/s) : ["green", written];
  const bad = why => new Error(`"${text}" is not a shape: ${why}`);
  if (!COLOURS.includes(c)) throw bad(`"${c}" is not a colour (green, red, blue or yellow)`);
  const [from, to = from, ...more] = cells.split("-");
  if (more.length || !CELL_RE.test(from) || !CELL_RE.test(to)) throw bad("expected a cell (a circle, e4) or two cells joined by - (an arrow, e4-g7)");
  if (cells.includes("-") && from === to) throw bad("an arrow goes from a cell to another");
  return { from, to, colour: c };
}

/** A list of shape texts, checked (none twice on the same cells) and written the canonical way; throws with the reason. */
export function checkShapes(list) {
  if (!Array.isArray(list)) throw new Error("the shapes are not a list");
  const shapes = list.map(parseShape);
  shapes.forEach((s, i) => {
    if (shapes.slice(0, i).some(t => t.from === s.from && t.to === s.to)) throw new Error(`"${list[i]}" is drawn twice`);
  });
  return shapes.map(shapeText);
}

/**
 * `shapes` (texts) with `shape` drawn once more, as lichess does: a shape on the same cells is
 * removed, and the new one stays only when its colour differs. Returns the new list.
 */
export function toggle(shapes, shape) {
  const same = t => { const s = parseShape(t); return s.from === shape.from && s.to === shape.to; };
  const before = shapes.find(same);
  const kept = shapes.filter(t => !same(t));
  if (!before || parseShape(before).colour !== shape.colour) kept.push(shapeText(shape));
  return kept;
}

const SVGNS = "http://www.w3.org/2000/svg";
function element(name, attributes = {}) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  return e;
}

/** One shape as SVG: a ring, or an arrow with its head short of the cell's middle; a dark halo keeps it readable on any cell. */
function drawOne(shape, attributes) {
  const fill = colour(`--shape-${shape.colour}`);
  const a = centre(shape.from);
  const group = element("g", Object.assign({ class: "shape", "data-shape": shapeText(shape), "data-colour": shape.colour }, attributes));
  if (shape.to === shape.from) {
    for (const [stroke, width, opacity] of [["#000000", 6.5, 0.35], [fill, 3.5, 0.95]]) {
      group.appendChild(element("circle", { cx: a.x, cy: a.y, r: 16.5, fill: "none", stroke, "stroke-width": width, "stroke-opacity": opacity }));
    }
    return group;
  }
  const b = centre(shape.to);
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  const ux = (b.x - a.x) / length, uy = (b.y - a.y) / length;
  const tip = { x: b.x - ux * 4, y: b.y - uy * 4 };
  const base = { x: tip.x - ux * 15, y: tip.y - uy * 15 };
  const head = `M${tip.x},${tip.y}L${base.x - uy * 10},${base.y + ux * 10}L${base.x + uy * 10},${base.y - ux * 10}Z`;
  group.appendChild(element("line", { x1: a.x, y1: a.y, x2: base.x, y2: base.y, stroke: "#000000", "stroke-opacity": 0.35, "stroke-width": 9.5, "stroke-linecap": "round" }));
  group.appendChild(element("path", { d: head, fill: "none", stroke: "#000000", "stroke-opacity": 0.35, "stroke-width": 3, "stroke-linejoin": "round" }));
  group.appendChild(element("line", { x1: a.x, y1: a.y, x2: base.x + ux, y2: base.y + uy, stroke: fill, "stroke-opacity": 0.9, "stroke-width": 6.5, "stroke-linecap": "round" }));
  group.appendChild(element("path", { d: head, fill, "fill-opacity": 0.9 }));
  return group;
}

/**
 * The shapes layer: the study's shapes and the current node's (texts), then the shape being
 * drawn (S.drawing), paler, with its destination under the pointer.
 */
export function drawShapes(svg, { study = [], node = [], drawing = null } = {}) {
  let g = svg.querySelector("#shapes");
  if (g) g.remove();
  g = element("g", { id: "shapes", "pointer-events": "none" });
  svg.appendChild(g);
  const add = (texts, of) => {
    for (const t of texts) {
      try { g.appendChild(drawOne(parseShape(t), { "data-of": of })); } catch (_) { /* checked where read */ }
    }
  };
  add(study, "study");
  add(node, "node");
  if (drawing && drawing.to) g.appendChild(drawOne(drawing, { "data-of": "drawing", opacity: 0.6 }));
}
