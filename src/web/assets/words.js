// @ts-check
// Moves and buildings in words: the notation taken apart, moves as players read them
// ("Dark Castle b2-d2, b3, d3"), and the two display themes (classic names, or the Cathedral World
// edition's landmarks; docs/rules.md, "Display themes"). A theme changes names and colours only.

export const FILES = "abcdefghij";
export const KINDS = ["tavern", "stable", "inn", "bridge", "square", "manor", "abbey", "infirmary", "castle", "tower", "academy"];
export const SIZE = { tavern: 1, stable: 2, inn: 3, bridge: 3, square: 4, manor: 4, abbey: 4, infirmary: 5, castle: 5, tower: 5, academy: 5, cathedral: 6 };

/** The player of a move written with one ("light:inn:a1,a2,b2"), else null. */
export function playerOf(move) {
  const first = move.split(":")[0];
  return first === "light" || first === "dark" ? first : null;
}
/** The building a move places ("inn"), or "pass". */
export function pieceOf(move) {
  const parts = move.split(":");
  return playerOf(move) ? parts[1] : parts[0];
}
/** The cells a move covers: "inn:a1,a2,b2" or, declining a capture, "bridge:c3,c4,c5/spare:f4". */
export function cellsOf(move) {
  const part = move.split(":").slice(1).join(":").split("/")[0];
  return part.match(/[a-j](10|[1-9])/g) || [];
}
export const sameCells = (a, b) => a.length === b.length && a.every(c => b.includes(c));
/** A cell as [file 0-9, rank 1-10]. */
export const coords = c => [FILES.indexOf(c[0]), parseInt(c.slice(1), 10)];
export const cellName = (f, r) => FILES[f] + r;
export const other = player => (player === "light" ? "dark" : "light");
export const Side = player => (player === "light" ? "Light" : "Dark");

/** The corners of the cells' bounding box: "b2-d3", or one cell. */
export function span(cells) {
  if (!cells.length) return "";
  const cs = cells.map(coords);
  const f0 = Math.min(...cs.map(c => c[0])), f1 = Math.max(...cs.map(c => c[0]));
  const r0 = Math.min(...cs.map(c => c[1])), r1 = Math.max(...cs.map(c => c[1]));
  const a = cellName(f0, r0), b = cellName(f1, r1);
  return a === b ? a : `${a}-${b}`;
}

/**
 * The squares a building covers, as every part of the page names them: the corners where it
 * fills its bounding box ("b2-d3", "a1"), else its straight runs of three or more squares, the
 * longest first, then the other squares ("f3-f6, e4, g4" for a Cathedral). Every square named,
 * and every square between a run's ends, is covered; no two placements read the same.
 */
export function squares(cells) {
  if (!cells.length) return "";
  const cs = cells.map(coords);
  const w = Math.max(...cs.map(c => c[0])) - Math.min(...cs.map(c => c[0])) + 1;
  const h = Math.max(...cs.map(c => c[1])) - Math.min(...cs.map(c => c[1])) + 1;
  if (w * h === cells.length) return span(cells);
  const left = new Set(cells);
  const byFile = (a, b) => a[0] - b[0] || a[1] - b[1];
  const parts = [];
  for (;;) {
    // The longest run of squares still unnamed, along a file or a rank (the first by file, then
    // rank, among equals; along a file first).
    let best = null;
    for (const [f, r] of [...left].map(coords).sort(byFile)) {
      for (const [df, dr] of [[0, 1], [1, 0]]) {
        let n = 1;
        while (left.has(cellName(f + df * n, r + dr * n))) n++;
        if (n >= 3 && (!best || n > best.n)) best = { f, r, df, dr, n };
      }
    }
    if (!best) break;
    const { f, r, df, dr, n } = best;
    for (let i = 0; i < n; i++) left.delete(cellName(f + df * i, r + dr * i));
    parts.push(`${cellName(f, r)}-${cellName(f + df * (n - 1), r + dr * (n - 1))}`);
  }
  return [...parts, ...[...left].map(coords).sort(byFile).map(([f, r]) => cellName(f, r))].join(", ");
}

const TITLES = { tavern: "Tavern", stable: "Stable", inn: "Inn", bridge: "Bridge", square: "Square", manor: "Manor", abbey: "Abbey", infirmary: "Infirmary", castle: "Castle", tower: "Tower", academy: "Academy", cathedral: "Cathedral" };

// The World edition (seed 003) lists its 28 landmarks as three groups of four and eight pairs:
// the kinds of which each player has two (Tavern, Stable, Inn) and the eight of which each has
// one, in size order. Read here: the first half of each group or pair is Light's.
const WORLD = {
  tavern: [["Statue of Liberty", "Christ the Redeemer"], ["CN Tower", "Sky Tower"]],
  stable: [["Eiffel Tower", "Tower of Pisa"], ["Odawara Temple", "Petronas Towers"]],
  inn: [["Temple of the Inscriptions", "Agha Mosque"], ["Moai", "Stave Church"]],
  bridge: [["Big Ben"], ["Parthenon"]],
  square: [["Shwezigon Pagoda"], ["Budapest Parliament"]],
  manor: [["Pyramid of Giza"], ["Taj Mahal"]],
  abbey: [["San Bernardo Convent"], ["Angkor Wat"]],
  infirmary: [["St Basil's Cathedral"], ["Sydney Opera House"]],
  castle: [["Al Deir Monastery"], ["Mud Mosque of Mali"]],
  tower: [["Sagrada Familia"], ["Machu Picchu"]],
  academy: [["Neuschwanstein Castle"], ["Lalibela"]],
};

export const THEMES = {
  classic: { label: "Classic", neutral: "Cathedral" },
  world: { label: "World edition", neutral: "People" },
};

/**
 * A building's name under a theme. `nth` (0 or 1) picks which of a player's two buildings of a
 * kind, for the World theme's two landmarks; the classic names do not depend on it.
 */
export function buildingName(theme, piece, owner, nth = 0) {
  if (piece === "cathedral") return THEMES[theme].neutral;
  if (theme === "world" && WORLD[piece]) {
    const names = WORLD[piece][owner === "dark" ? 1 : 0];
    return names[nth % names.length];
  }
  return TITLES[piece] || piece;
}

/** Every name a player's building of a kind has under a theme ("Statue of Liberty / Christ the Redeemer"). */
export function kindName(theme, piece, owner) {
  if (theme === "world" && WORLD[piece]) return WORLD[piece][owner === "dark" ? 1 : 0].join(" / ");
  return buildingName(theme, piece, owner);
}

/**
 * A move in words: "Dark Castle b2-d2, b3, d3", "Light passes". `mover` is used when the move
 * does not name its player; `nth` is which of the mover's buildings of that kind it is (World
 * names). `who`: false leaves the player out ("Castle b2-d2, b3, d3", where a caption says it).
 */
export function moveWords(move, theme = "classic", mover = null, nth = 0, who = true) {
  const player = playerOf(move) || mover;
  const piece = pieceOf(move);
  const side = player && who ? Side(player) + " " : "";
  if (piece === "pass") return `${side}passes`;
  const spare = move.includes("/spare:") ? ", sparing the enclosed building" : "";
  return `${side}${buildingName(theme, piece, player, nth)} ${squares(cellsOf(move))}${spare}`;
}

/** For each move of a list, which of its mover's buildings of that kind it is (0, 1...). */
export function nths(moves) {
  const seen = {};
  return moves.map(m => {
    const key = `${playerOf(m)}:${pieceOf(m)}`;
    seen[key] = (seen[key] || 0) + 1;
    return seen[key] - 1;
  });
}

/** A text with a place to break a line after each comma of a cell list ("a1,a2,b2"): a long one wraps. */
export const breakable = text => text.replace(/,(?=[a-j](?:10|[1-9])\b)/g, ",\u200b");

/** A number with its noun, singular for one: "1 move", "3 moves", "1 square". */
export const count = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;

/** A value in squares from Light's view, as the move list and the bar show it. */
export function valueText(value, exact) {
  if (value === null || value === undefined || Number.isNaN(value)) return "";
  const rounded = exact ? Math.round(value) : Math.round(value * 10) / 10;
  const text = (rounded > 0 ? "+" : rounded < 0 ? "\u2212" : "") + Math.abs(rounded).toFixed(exact ? 0 : 1);
  // A thin space after the tilde: glued to a minus sign it read as a doubled tilde ("~~-7.3").
  return exact ? text : `~\u2009${text}`;
}

/** A file's or a pasted text's error in the page's words: "line 4, column 3: ..." for a location. */
export const located = message => message.replace(/^[\w.-]+:(\d+):(\d+): /, "line $1, column $2: ");

/**
 * What went wrong with a text opened (a file, a paste): the page's words, and the line and column
 * the server's (or the browser's engine's) message names ("paste:3:5: ..."), if any.
 */
export function failure(name, message) {
  const at = /^[\w.-]+:(\d+):(\d+): /.exec(message);
  return { text: `${name}: ${located(message)}`, line: at ? parseInt(at[1], 10) : null, column: at ? parseInt(at[2], 10) : null };
}
