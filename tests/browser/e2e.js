// End-to-end tests of the web board in headless Chromium, driven by playwright-core.
//
//   node tests/browser/e2e.js URL OUT_DIR
//
// Plays through the page as a person would (mouse, keyboard, file dialogs), checks what the page
// says, and takes screenshots into OUT_DIR. Pixel checks are written to OUT_DIR/pixels.json as
// {screenshot, x, y, expect, what}; tests/browser.rs reads the PNGs and checks each pixel, so the
// colours on screen are checked by code that does not come from the page.
"use strict";
const { chromium } = require("playwright-core");
const fs = require("fs");
const path = require("path");
const assert = require("assert");

const [url, out] = process.argv.slice(2);
if (!url || !out) { console.error("usage: node e2e.js URL OUT_DIR"); process.exit(2); }
const repo = path.resolve(__dirname, "..", "..");
const pixels = [];
const CELL = 40, MARGIN = 28, TOP = 8, FILES = "abcdefghij";

function cellsOf(move) {
  const part = move.split(":").slice(1).join(":").split("/")[0];
  return part.match(/[a-j](10|[1-9])/g) || [];
}
function pieceOf(move) { const p = move.split(":"); return p[0] === "light" || p[0] === "dark" ? p[1] : p[0]; }
const same = (a, b) => a.length === b.length && a.every(c => b.includes(c));

async function post(route, body) {
  const response = await fetch(url + route, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return response.json();
}

// Where a point of a cell is on screen: (dx, dy) from the cell's top-left corner, in board units.
async function at(page, cell, dx = CELL / 2, dy = CELL / 2) {
  return page.evaluate(([x, y]) => {
    const svg = document.querySelector("#board svg");
    const p = svg.createSVGPoint();
    p.x = x; p.y = y;
    const q = p.matrixTransform(svg.getScreenCTM());
    return { x: Math.round(q.x), y: Math.round(q.y) };
  }, [MARGIN + FILES.indexOf(cell[0]) * CELL + dx, TOP + (10 - parseInt(cell.slice(1), 10)) * CELL + dy]);
}

async function status(page) { return (await page.textContent("#status")).trim(); }

// Points at `cell` with the building picked and waits for the preview to say something of it
// (not of the cell pointed at before: "over a1;" is not "over a10;").
async function point(page, cell) {
  const p = await at(page, cell);
  await page.mouse.move(p.x, p.y);
  await page.waitForFunction(c => {
    const s = document.querySelector("#status").textContent;
    return s.includes(`over ${c};`) || s.includes(`cover ${c}:`) || s.includes(`on ${c}.`);
  }, cell);
  return p;
}

// Places a move with the mouse: picks the building, points at the move's first cell, rotates
// (R) until the preview shows the move, clicks.
async function placeByMouse(page, move) {
  const before = await page.locator("#history li:not(.future)").count();
  await page.click(`#pieces button[data-kind="${pieceOf(move)}"]`);
  const cell = cellsOf(move)[0];
  const p = await point(page, cell);
  for (let i = 0; i < 60; i++) {
    const s = await status(page);
    if (!s.startsWith("Refused") && same(cellsOf(s.split(" (")[0]), cellsOf(move))) {
      await page.mouse.click(p.x, p.y);
      await page.waitForFunction(n => document.querySelectorAll("#history li:not(.future)").length > n, before);
      return;
    }
    const old = s;
    await page.keyboard.press("r");
    await page.waitForFunction(o => document.querySelector("#status").textContent.trim() !== o, old).catch(() => {});
  }
  throw new Error(`the preview never showed ${move}; status: ${await status(page)}`);
}

// Opens a position file with the Open dialog and waits until the board shows it (a new board,
// no moves), so that nothing moves under the pointer afterwards.
async function openPosition(page, file) {
  await page.evaluate(() => { document.querySelector("#board svg").dataset.before = "open"; });
  await page.setInputFiles("#file", file);
  await page.waitForFunction(() => {
    const svg = document.querySelector("#board svg");
    return svg && !svg.dataset.before && document.querySelectorAll("#history li").length === 0;
  });
}

async function shot(page, name) {
  const file = path.join(out, name + ".png");
  await page.screenshot({ path: file });
  return name + ".png";
}

// A pixel that must be about `expect` (#rrggbb) in a screenshot.
function pixel(screenshot, p, expect, what) { pixels.push({ screenshot, x: p.x, y: p.y, expect, what }); }

async function test(name, body, browser) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 1 });
  const errors = [];
  page.on("pageerror", e => errors.push(e.message));
  page.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(url);
  await page.waitForSelector("#board svg");
  await page.waitForFunction(() => document.querySelectorAll("#puzzle option").length > 0);
  const started = Date.now();
  try {
    await body(page);
  } catch (e) {
    await page.screenshot({ path: path.join(out, `failed-${name}.png`) }).catch(() => {});
    throw new Error(`${name}: ${e.message}`);
  }
  const unexpected = errors.filter(e => !/status of 4\d\d/.test(e));
  assert.deepStrictEqual(unexpected, [], `${name}: errors on the page`);
  console.log(`ok ${name} (${Date.now() - started} ms)`);
  await page.close();
}

const tests = {
  // The board stays put when the puzzle list arrives (after the board is drawn) and when the
  // status line under the pointer changes from one line to two.
  async steadyBoard(page) {
    const top = () => page.evaluate(() => document.querySelector("#board svg").getBoundingClientRect().top);
    const loaded = await top();
    await page.evaluate(() => {
      document.querySelector("#puzzle").innerHTML = "";
      for (const option of [...document.querySelectorAll("#theme option")].slice(1)) option.remove();
    });
    assert.strictEqual(await top(), loaded, "the board moved when the puzzle list was emptied");
    await page.evaluate(() => {
      const status = document.querySelector("#status");
      status.className = "refused";
      status.textContent = "Refused: a1,a2,b2,c2 is already covered by Dark Castle and Cathedral (12 of 14 over b2; R for the next)";
    });
    assert.ok((await page.evaluate(() => document.querySelector("#status").getBoundingClientRect().height)) > 30, "the status took two lines");
    assert.strictEqual(await top(), loaded, "the board moved when the status took two lines");
  },

  // Place buildings with the mouse; the claim of the last one is explained and drawn.
  async claim(page) {
    await placeByMouse(page, "cathedral:e5,f4,f5,f6,f7,g5");
    await placeByMouse(page, "inn:a2,b2,b3");
    await placeByMouse(page, "inn:i9,i10,j9");
    await placeByMouse(page, "tavern:b1");
    const explain = await page.textContent("#explain");
    assert.match(explain, /claims 1 square \(a1\), walled in by Dark Tavern \(b1\), Dark Inn \(a2,b2,b3\) and the south and west edges/);
    const file = await shot(page, "claim");
    pixel(file, await at(page, "f6", 20, 6), "#8c7bb8", "the Cathedral on f6");
    pixel(file, await at(page, "a1", 5, 20), "#5a2d0c", "Dark's claim outlined on a1");
    pixel(file, await at(page, "i10", 8, 33), "#f3dfa2", "Light's Inn on i10");
  },

  // A near miss: a diagonal contact keeps a wall open, drawn as its two cells joined.
  async nearMiss(page) {
    await openPosition(page, path.join(repo, "puzzles/rules/01-diagonal-contact-leaks.yaml"));
    await placeByMouse(page, "stable:c1,c2");
    assert.match(await page.textContent("#explain"), /diagonal/);
    await page.mouse.move(1, 1);
    await page.waitForFunction(() => !document.querySelector("#board svg #preview"));
    const file = await shot(page, "near-miss");
    pixel(file, await at(page, "b3", 20, 20), "#0072b2", "the diagonal contact's dot on b3");
    pixel(file, await at(page, "c2", 20, 20), "#0072b2", "the diagonal contact's dot on c2");
    pixel(file, await at(page, "c2", 0, 0), "#0072b2", "the line through the corner b3 and c2 share");
  },

  // A refused placement is shown with its reason in words and cannot be played.
  async refused(page) {
    for (const move of ["cathedral:e5,f4,f5,f6,f7,g5", "inn:a2,b2,b3", "inn:i9,i10,j9", "tavern:b1"]) await placeByMouse(page, move);
    await page.click('#pieces button[data-kind="tavern"]');
    await point(page, "a1");
    // The preview may name the cell before the reason is in (a loaded machine): wait for it.
    await page.waitForFunction(() => document.querySelector("#status").textContent.trim().startsWith("Refused"));
    assert.strictEqual(await status(page), "Refused: a1 is Dark's territory: Light may not build there (1 of 1 over a1; R for the next)");
    const file = await shot(page, "refused");
    // The refused Tavern: the page's orange at 35 % over Dark's territory.
    pixel(file, await at(page, "a1", 20, 20), "#e0a67b", "the refused Tavern on a1, drawn in orange");
    const p = await at(page, "a1");
    await page.mouse.click(p.x, p.y);
    assert.match(await status(page), /^Refused: a1 is Dark's territory/);
    assert.strictEqual(await page.locator("#history li").count(), 4, "the refused placement was not played");
    await point(page, "b1");
    assert.match(await status(page), /^Refused: b1 is already covered by Dark Tavern \(/);
  },

  // The keyboard alone: pick with ], move the cursor with the arrows, rotate, place with Enter.
  async keyboard(page) {
    await page.focus("#board");
    await page.keyboard.press("ArrowUp"); // the cursor appears on e5
    await page.waitForFunction(() => document.querySelector("#status").textContent.includes("over e5"));
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => document.querySelector("#status").textContent.includes("over f5"));
    await page.keyboard.press("r");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#history li").length === 1);
    assert.match(await page.textContent("#history li"), /^light:cathedral:/);
    await page.keyboard.press("]");
    const chosen = await page.getAttribute("#pieces button.chosen", "data-kind");
    assert.ok(chosen && chosen !== "tavern", `] picks the next building, not ${chosen}`);
    for (const key of ["ArrowDown", "ArrowDown", "ArrowDown", "ArrowLeft", "ArrowLeft", "ArrowLeft"]) await page.keyboard.press(key);
    await page.waitForFunction(() => /over c2/.test(document.querySelector("#status").textContent));
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#history li").length === 2);
    assert.match(await page.textContent("#history li:nth-child(2)"), /^dark:/);
    await page.keyboard.press("Backspace");
    await page.waitForFunction(() => document.querySelectorAll("#history li.future").length === 1);
  },

  // Open a bench position, solve it with live progress and see the stored value.
  async solve(page) {
    const file = path.join(repo, "puzzles/bench/t5-01.yaml");
    const value = parseInt(fs.readFileSync(file, "utf8").match(/^  value: (-?\d+)/m)[1], 10);
    await openPosition(page, file);
    await page.click("#solve");
    await page.waitForFunction(() => /wins by|draw/.test(document.querySelector("#answer").textContent), null, { timeout: 60000 });
    const verdict = await page.textContent("#answer");
    if (value === 0) assert.match(verdict, /draw/);
    else assert.match(verdict, new RegExp(`wins by ${Math.abs(value)}\\b`));
    assert.ok((await page.locator("#line a").count()) > 0, "the best line is shown");
    assert.ok((await page.locator("#rootmoves tr").count()) > 1, "the root moves are listed");
    await shot(page, "solve");
    // Step through the best line: its second move plays two moves.
    await page.click("#line a:nth-of-type(2)");
    await page.waitForFunction(() => document.querySelectorAll("#history li:not(.future)").length === 2);
  },

  // A long solve shows its progress and stops on Stop, keeping what it proved.
  async stop(page) {
    await openPosition(page, path.join(repo, "puzzles/bench/t8-03.yaml"));
    await page.click("#solve");
    await page.waitForFunction(() => /nodes/.test(document.querySelector("#progress").textContent), null, { timeout: 20000 });
    await page.click("#stop");
    await page.waitForFunction(() => !document.querySelector("#solve").disabled, null, { timeout: 20000 });
    assert.match(await page.textContent("#answer"), /stopped|wins by|draw/);
  },

  // The trainer: a wrong answer is refuted, the right one confirmed.
  async trainer(page) {
    const text = fs.readFileSync(path.join(repo, "puzzles/teaching/puzzle-001.yaml"), "utf8");
    const best = text.match(/^  best_move: (\S+)/m)[1];
    const legal = (await post("/api/position", { start: text, moves: [] })).moves.moves;
    const wrong = legal.find(m => pieceOf(m) !== pieceOf(best));
    await page.waitForFunction(() => document.querySelectorAll("#puzzle option").length > 10);
    await page.selectOption("#puzzle", "puzzle-001");
    await page.click("#load");
    await page.waitForFunction(() => document.querySelector("#answer").textContent.startsWith("Place the building"));
    await placeByMouse(page, wrong);
    await page.waitForFunction(() => /Not the best|Right!/.test(document.querySelector("#answer").textContent), null, { timeout: 30000 });
    assert.match(await page.textContent("#answer"), /Not the best: it gives up \d+ squares?\. [\s\S]*The refutation: /);
    await shot(page, "trainer-wrong");
    await page.click("#redo"); // the refutation played on the board
    await page.waitForFunction(() => document.querySelectorAll("#history li:not(.future)").length === 2);
    await page.click("#undo");
    await page.click("#undo");
    await page.waitForFunction(() => document.querySelectorAll("#history li:not(.future)").length === 0);
    await placeByMouse(page, best.replace(/^(light|dark):/, ""));
    await page.waitForFunction(() => /Right!/.test(document.querySelector("#answer").textContent), null, { timeout: 30000 });
    const progress = await page.evaluate(() => localStorage.getItem("cathedral-solved"));
    assert.ok(JSON.parse(progress).includes("puzzle-001"), "progress kept in the browser");
    await shot(page, "trainer-right");
  },

  // Open a game record of several games, choose one, step through it, analyse it.
  async record(page) {
    const file = path.join(repo, "docs/analysis/engine-games.yaml");
    const games = fs.readFileSync(file, "utf8").split(/^---$/m).filter(g => /moves:/.test(g));
    const second = games[1].split("moves:")[1].split("\n").filter(l => l.startsWith("- ")).length;
    await page.setInputFiles("#file", file);
    await page.waitForFunction(() => !document.querySelector("#games").hidden);
    await page.selectOption("#games", "1");
    await page.waitForFunction(n => document.querySelectorAll("#history li.future").length === n, second);
    await page.click("#history li:nth-child(10)");
    await page.waitForFunction(() => document.querySelectorAll("#history li:not(.future)").length === 10);
    assert.match(await page.textContent("#explain"), /places/);
    await page.click("#analyse");
    await page.waitForFunction(() => document.querySelector("#plot svg"), null, { timeout: 120000 });
    assert.match(await page.textContent("#answer"), /Light: average loss [\d.]+ squares/);
    await shot(page, "record");
    const dot = page.locator("#plot a").nth(4);
    await dot.click();
    await page.waitForFunction(() => document.querySelectorAll("#history li:not(.future)").length !== 10);
  },

  // The editor: clear the board, set down buildings of both sides, and play on from there.
  async editor(page) {
    await page.click("#edit");
    await page.click("#edit-clear");
    await page.selectOption("#edit-cathedral-status", "gone");
    await page.click('#pieces button[data-kind="castle"]');
    await point(page, "c3");
    await page.mouse.click(...Object.values(await at(page, "c3")));
    await page.waitForFunction(() => document.querySelectorAll("#board svg text").length > 0);
    await page.selectOption("#edit-owner", "dark");
    await page.click('#pieces button[data-kind="square"]');
    await point(page, "h8");
    await page.mouse.click(...Object.values(await at(page, "h8")));
    await page.waitForFunction(() => [...document.querySelectorAll("#board svg text")].some(t => t.textContent === "Sq"));
    await page.selectOption("#edit-to-move", "light");
    await page.mouse.move(1, 1);
    await page.waitForFunction(() => !document.querySelector("#board svg #preview"));
    const file = await shot(page, "editor");
    pixel(file, await at(page, "h8", 20, 6), "#6b3e26", "Dark's Square set down on h8");
    await page.click("#edit-done");
    await page.waitForFunction(() => !document.body.classList.contains("editing"));
    // The position is fetched after the editor closes: wait for the hand with its move counts.
    await page.waitForFunction(() => /\(\d+\)/.test(document.querySelector("#pieces").textContent));
    const legal = await page.textContent("#pieces");
    assert.match(legal, /tavern \(\d+\)/, "Light plays on from the edited position");
    // A building on another's cells is refused by the editor too.
    await page.click("#edit");
    await page.click('#pieces button[data-kind="tower"]');
    await point(page, "h8");
    assert.strictEqual(await status(page), "Click to remove Dark's square on h8.");
    await page.click("#edit-cancel");
  },
};

(async () => {
  fs.mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const only = process.env.E2E_ONLY;
  let failed = 0;
  for (const [name, body] of Object.entries(tests)) {
    if (only && only !== name) continue;
    try { await test(name, body, browser); } catch (e) { failed++; console.log(`FAILED ${e.message}`); }
  }
  await browser.close();
  fs.writeFileSync(path.join(out, "pixels.json"), JSON.stringify(pixels, null, 1));
  process.exit(failed ? 1 : 0);
})().catch(e => { console.error(e); process.exit(1); });
