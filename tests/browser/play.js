// The play server (`serve --play`) in headless Chromium with two players, each in a browser
// context of their own: Alice on a laptop, Bob on a phone with touch.
//
//   node tests/browser/play.js URL OUT_DIR
//
// Both arrive as guests and make accounts; Alice challenges Bob by name to a rated match of two
// games; Bob accepts from the list; both games open on the analysis board, no engine help shown.
// Alice moves with the mouse, Bob with taps; Bob reloads in the middle and finds the game; Alice's
// network is cut and comes back; the clocks run; a name with markup is refused; Alice resigns both
// games; the match's result and both ratings move; the finished game is on the
// analysis board with Analyse game. Screenshots of the lobby and the game at both sizes, and
// axe-core on the lobby and the game.
"use strict";
const { chromium } = require("playwright-core");
const fs = require("fs");
const path = require("path");
const assert = require("assert");
const e2e = require("./e2e.js");

const [url, out] = process.argv.slice(2);
if (!url || !out) { console.error("usage: node play.js URL OUT_DIR"); process.exit(2); }

async function post(route, body) {
  const response = await fetch(url + route, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return response.json();
}

async function lobby(page) {
  await page.goto(`${url}/play`);
  await page.waitForFunction(() => /You play as guest-|Signed in as/.test(document.querySelector("#you").textContent));
}

async function register(page, name) {
  await page.fill("#account-name", name);
  await page.fill("#account-password", "a long password");
  await page.click("#register");
  await page.waitForFunction(n => document.querySelector("#you").textContent === `Signed in as ${n}.`, name);
}

/** Waits until the board shows `n` moves of the online game. */
async function movesShown(page, n) {
  await page.waitForFunction(count => document.querySelectorAll("#history li[title]:not(.future):not(.aside)").length === count, n, { timeout: 20000 });
}

async function onBoard(page) {
  await page.waitForURL(/\/\?online=/, { timeout: 20000 });
  await page.waitForSelector("#online:not([hidden]) .online-seat .clock");
  await page.waitForFunction(() => /move|Over/.test(document.querySelector("#online-turn").textContent));
}

(async () => {
  fs.mkdirSync(out, { recursive: true });
  e2e.configure(url, url, out);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const alice = await e2e.newPage(browser, e2e.LAPTOP);
  const bob = await e2e.newPage(browser, e2e.PHONE, { hasTouch: true, isMobile: true });
  let step = "start";
  try {
    step = "guests";
    await lobby(alice);
    await lobby(bob);
    await e2e.axeScan(alice, "the lobby");
    await e2e.shot(alice, "play-lobby-laptop");
    step = "accounts";
    await bob.fill("#account-name", "<b>Bob</b>");
    await bob.fill("#account-password", "a long password");
    await bob.click("#register");
    await bob.waitForFunction(() => document.querySelector("#status").textContent.includes("a name has only letters"));
    await register(alice, "Alice");
    await register(bob, "Bob");

    step = "challenge";
    await alice.fill("#new-to", "Bob");
    await alice.check("#new-rated");
    await alice.selectOption("#new-time", "10+5");
    await alice.selectOption("#new-first", "true");
    await alice.click("#new button[type=submit]");
    await alice.waitForSelector("#made:not([hidden])");
    const link = await alice.textContent("#made-link");
    assert.match(link, /\/play\/#c\/[a-z0-9]+$/);
    await bob.reload();
    await bob.waitForFunction(() => [...document.querySelectorAll("#seeks li")].some(li => li.textContent.startsWith("Alice:")));
    await e2e.shot(bob, "play-lobby-phone");
    await bob.goto(link);
    await bob.waitForSelector("#challenge-box:not([hidden]) #challenge-accept:not([hidden])");
    await bob.click("#challenge-accept");

    step = "the first game opens for both";
    await onBoard(bob);
    await onBoard(alice);
    assert.strictEqual(await alice.isVisible("#solve"), false, "no Solve in a running game");
    assert.strictEqual(await alice.isVisible("#opponent"), false, "no engine side in a running game");
    assert.match(await alice.textContent("#online-turn"), /Your move/);
    assert.match(await bob.textContent("#online-turn"), /Alice to move/);

    step = "Alice moves with the mouse";
    const start = await post("/api/position", { rules: "classic", moves: [] });
    const first = start.moves.moves.find(m => !m.includes("cathedral")) || start.moves.moves[0];
    await e2e.placeByMouse(alice, first);
    await movesShown(bob, 1);
    const afterFirst = await post("/api/position", { rules: "classic", moves: [first] });

    step = "Bob reloads and moves with taps";
    await bob.reload();
    await onBoard(bob);
    await movesShown(bob, 1);
    assert.match(await bob.textContent("#online-turn"), /Your move/);
    // Dark sees the board from Dark's side; the test's taps aim at the board seen from Light's.
    assert.strictEqual(await bob.evaluate(() => document.querySelector("#board").classList.contains("flipped")), true);
    await bob.click("#flip");
    // A one-square building: the tap's preview is the move itself.
    const taverns = afterFirst.moves.moves.filter(m => m.split(":").includes("tavern"));
    const second = taverns[Math.floor(taverns.length / 2)];
    await e2e.placeByTap(bob, second);
    await movesShown(alice, 2);
    await e2e.axeScan(bob, "the game on a phone");
    await e2e.shot(bob, "play-game-phone");
    await e2e.shot(alice, "play-game-laptop");

    step = "Alice's network cut and back";
    await alice.context().setOffline(true);
    await alice.waitForFunction(() => document.querySelector("#online-status").textContent.includes("connection to the play server is lost"), null, { timeout: 20000 });
    await alice.context().setOffline(false);
    await alice.waitForFunction(() => document.querySelector("#online-status").textContent === "", null, { timeout: 20000 });

    step = "the clocks run";
    const before = await alice.textContent("#online-seat-0 .clock");
    await alice.waitForFunction(b => document.querySelector("#online-seat-0 .clock").textContent !== b, before, { timeout: 5000 });

    step = "Alice resigns game one";
    await alice.click("#online-resign");
    await alice.waitForSelector("#online-after:not([hidden]) #online-next:not([hidden])");
    assert.strictEqual(await alice.isVisible("#analyse"), true, "the analysis is back once the game is over");
    await bob.waitForSelector("#online-after:not([hidden]) #online-next:not([hidden])");

    step = "game two, colours swapped; Alice resigns again";
    await bob.click("#online-next");
    await onBoard(bob);
    assert.match(await bob.textContent("#online-turn"), /Your move. Game 2 of a match/);
    await alice.click("#online-next");
    await onBoard(alice);
    await alice.click("#online-resign");
    await alice.waitForFunction(() => document.querySelector("#online-match").textContent.startsWith("The match:"), null, { timeout: 20000 });
    const match = await alice.textContent("#online-match");
    console.log(`match: ${match}`);

    step = "ratings";
    await alice.goto(`${url}/play#p/Alice`);
    await alice.waitForFunction(() => /rating \d+/.test(document.querySelector("#player-rating").textContent), null, { timeout: 20000 });
    const rating = await alice.textContent("#player-rating");
    assert.match(rating, /after 1 rated result/);
    assert.match(match, /Bob wins/);
    const value = parseInt(rating.match(/rating (\d+)/)[1], 10);
    assert.ok(value < 1500, `Alice lost the match: her rating falls (${rating})`);
    console.log(`Alice: ${rating}`);
    await e2e.shot(alice, "play-player-laptop");
    const unexpected = [...alice.errors, ...bob.errors].filter(e => !/status of (4\d\d|503)/.test(e) && !/ERR_INTERNET_DISCONNECTED|WebSocket/.test(e));
    assert.deepStrictEqual(unexpected, [], "errors on the pages");
    console.log("ok play");
  } catch (e) {
    await alice.screenshot({ path: path.join(out, "failed-play-alice.png") }).catch(() => {});
    await bob.screenshot({ path: path.join(out, "failed-play-bob.png") }).catch(() => {});
    console.log(`FAILED play, at ${step}: ${e.message}`);
    await browser.close();
    process.exit(1);
  }
  await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
