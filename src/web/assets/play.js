// @ts-check
// The play server's lobby (`/play`, docs/play.md): who you are (a guest from the first visit,
// or an account), a new challenge (to a player, by link, or listed for anyone), the open
// challenges, the games (searchable by player, opponent and whether they are over) and a
// player's rating history. A game itself opens on the analysis board (`/?online=GAME`), the
// board the player knows. Every name is written as text, never as markup.

const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));

/** @type {{ user: any, csrf: string } | null} who is signed in */
let me = null;
/** @type {string|null} the challenge made here, waiting for its opponent */
let waiting = null;

/**
 * A request to the play server's API: its JSON, or an Error with the server's words.
 * @param {string} path
 * @param {any} [body] sent as a POST when given
 */
async function call(path, body) {
  /** @type {RequestInit} */
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": me ? me.csrf : "" },
    body: JSON.stringify(body),
  };
  let response;
  try { response = await fetch(path, init); } catch { throw new Error("The play server cannot be reached: is it running, and is the network there?"); }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
  return answer;
}

/** Says `text` in the status line (an error in red). */
function say(text, error = false) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("refused", error);
}

async function signIn() {
  try { me = await call("/play/api/me"); } catch { me = await call("/play/api/guest", {}); }
  showMe();
}

function showMe() {
  if (!me) return;
  const guest = me.user.kind === "guest";
  $("you").textContent = guest ? `You play as ${me.user.name}, a guest: create an account to keep your games and rating on any device.` : `Signed in as ${me.user.name}.`;
  $("account").hidden = !guest;
  $("sign-out").hidden = guest;
  $("new-rated").disabled = guest;
  if (guest) $("new-rated").checked = false;
}

async function account(register) {
  const name = $("account-name").value.trim(), password = $("account-password").value;
  try {
    me = await call(register ? "/play/api/register" : "/play/api/login", { name, password });
    $("account-password").value = "";
    showMe();
    say(register ? `Welcome, ${me.user.name}.` : `Signed in as ${me.user.name}.`);
    listGames();
  } catch (e) { say(e.message, true); }
}

/** The clock a challenge asks for, from the form. */
function timeOfForm() {
  const chosen = $("new-time").value;
  return chosen === "custom" ? $("new-custom").value.trim() : chosen;
}

async function challenge(event) {
  event.preventDefault();
  const first = $("new-first").value;
  const to = $("new-to").value.trim();
  const request = {
    game: $("new-game").value,
    rules: $("new-game").value === "cathedral" ? $("new-rules").value : undefined,
    time: timeOfForm(),
    rated: $("new-rated").checked,
    two_games: $("new-match").checked,
    to: to || undefined,
    open: !to && $("new-open").checked,
    first: first === "" ? undefined : first === "true",
  };
  try {
    const made = await call("/play/api/challenges", request);
    waiting = made.id;
    const link = new URL(made.link, location.href).href;
    $("made-link").textContent = link;
    $("made-link").href = link;
    $("made").hidden = false;
    say(to ? `Challenge sent to ${to}.` : "Challenge made: send the link, or wait for someone from the list.");
    listSeeks();
  } catch (e) { say(e.message, true); }
}

/** Opens game `id` on the board. */
function openGame(id) { location.href = `/?online=${encodeURIComponent(id)}`; }

/**
 * Accepts, declines or cancels a challenge.
 * @param {string} id
 * @param {string} verb
 */
async function answer(id, verb) {
  try {
    const done = await call(`/play/api/challenges/${encodeURIComponent(id)}/${verb}`, {});
    if (done.game) openGame(done.game);
    else { if (id === waiting) { waiting = null; $("made").hidden = true; } say(`Challenge ${done.status}.`); listSeeks(); }
  } catch (e) { say(e.message, true); }
}

/** Words for a challenge: who, what game, which clock. */
function challengeWords(c) {
  const what = `${c.spec.variant === "cathedral" ? `Cathedral (${c.spec.rules})` : "Corintho"}, ${c.two_games ? "a match of two games" : "one game"}, ${c.time_text}${c.spec.rated ? ", rated" : ""}`;
  return `${c.from}: ${what}`;
}

async function listSeeks() {
  let listed;
  try { listed = await call("/play/api/challenges"); } catch (e) { say(e.message, true); return; }
  const list = $("seeks");
  list.replaceChildren();
  for (const c of listed.challenges) {
    const item = document.createElement("li");
    item.append(challengeWords(c), " ");
    const mine = me && c.from === me.user.name;
    for (const verb of mine ? ["cancel"] : c.to ? ["accept", "decline"] : ["accept"]) {
      const button = document.createElement("button");
      button.textContent = verb[0].toUpperCase() + verb.slice(1);
      button.onclick = () => answer(c.id, verb);
      item.append(button, " ");
    }
    list.append(item);
  }
  if (!listed.challenges.length) list.append(Object.assign(document.createElement("li"), { textContent: "None at the moment: make one." }));
}

/** While a challenge of ours waits: its game opens as soon as someone accepts. */
async function watchMine() {
  if (!waiting) return;
  try {
    const c = await call(`/play/api/challenges/${encodeURIComponent(waiting)}`);
    if (c.game) openGame(c.game);
    else if (c.status !== "open") { say(`Your challenge was ${c.status}.`, true); waiting = null; $("made").hidden = true; }
  } catch { /* the next look tries again */ }
}

function resultWords(game) {
  if (!game.ending) return "in play";
  const e = game.ending, names = game.names;
  switch (e.reason.kind) {
    case "finished": return e.winner === null ? `drawn (${e.scores.join(" - ")})` : `${names[e.winner]} wins (${e.scores.join(" - ")})`;
    case "resigned": return `${names[e.reason.seat]} resigned`;
    case "time": return `${names[e.reason.seat]} lost on time`;
    case "left": return `${names[e.reason.seat]} left`;
    case "agreed": return "drawn by agreement";
    default: return "aborted";
  }
}

async function listGames(event) {
  if (event) event.preventDefault();
  const query = new URLSearchParams();
  const player = $("search-player").value.trim() || (me && me.user.name) || "";
  if (player) query.set("player", player);
  if ($("search-opponent").value.trim()) query.set("opponent", $("search-opponent").value.trim());
  if ($("search-over").value) query.set("over", $("search-over").value);
  let listed;
  try { listed = await call(`/play/api/games?${query}`); } catch (e) { say(e.message, true); return; }
  const body = $("games").querySelector("tbody");
  body.replaceChildren();
  for (const game of listed.games) {
    const row = document.createElement("tr");
    const link = Object.assign(document.createElement("a"), { href: `/?online=${game.id}`, textContent: new Date(game.start_ms).toLocaleString() });
    const cells = [link, game.names[0], game.names[1], game.spec.time.kind === "live" ? `${game.spec.time.base_ms / 60000}+${game.spec.time.increment_ms / 1000}` : `${game.spec.time.days}d`, resultWords(game)];
    for (const cell of cells) {
      const td = document.createElement("td");
      if (typeof cell === "string") {
        const name = document.createElement("a");
        const isName = cell === game.names[0] || cell === game.names[1];
        if (isName) { name.href = `#p/${encodeURIComponent(cell)}`; name.textContent = cell; td.append(name); } else td.textContent = cell;
      } else td.append(cell);
      row.append(td);
    }
    body.append(row);
  }
  if (player) showPlayer(player);
}

async function showPlayer(name) {
  let player;
  try { player = await call(`/play/api/players/${encodeURIComponent(name)}`); } catch { $("player-box").hidden = true; return; }
  $("player-box").hidden = false;
  $("player-title").textContent = player.user.name;
  const r = player.rating;
  $("player-rating").textContent = r.results ? `Cathedral rating ${Math.round(r.rating)} \u00b1 ${Math.round(2 * r.deviation)}${player.provisional ? " (provisional)" : ""} after ${r.results} rated result${r.results === 1 ? "" : "s"} (Glicko-2).` : "No rated results yet.";
  const svg = $("player-graph");
  svg.replaceChildren();
  const points = [{ rating: 1500 }, ...player.history];
  if (points.length < 2) return;
  const low = Math.min(...points.map(p => p.rating)) - 20, high = Math.max(...points.map(p => p.rating)) + 20;
  const x = i => 10 + (580 * i) / (points.length - 1), y = v => 150 - (140 * (v - low)) / (high - low);
  const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
  line.setAttribute("points", points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
}

/** `#c/ID`: a challenge by link; `#p/NAME`: a player's page. */
async function followAddress() {
  const [kind, value] = location.hash.slice(1).split("/");
  $("challenge-box").hidden = true;
  if (kind === "c" && value) {
    try {
      const c = await call(`/play/api/challenges/${encodeURIComponent(value)}`);
      if (c.game) { openGame(c.game); return; }
      $("challenge-box").hidden = false;
      $("challenge-words").textContent = c.status === "open" ? challengeWords(c) : `This challenge is ${c.status}.`;
      const open = c.status === "open" && !(me && c.from === me.user.name);
      $("challenge-accept").hidden = !open;
      $("challenge-decline").hidden = !open || !c.to;
      $("challenge-accept").onclick = () => answer(c.id, "accept");
      $("challenge-decline").onclick = () => answer(c.id, "decline");
    } catch (e) { say(e.message, true); }
  } else if (kind === "p" && value) {
    $("search-player").value = decodeURIComponent(value);
    listGames();
  }
}

async function start() {
  $("account").onsubmit = e => { e.preventDefault(); account(false); };
  $("register").onclick = () => account(true);
  $("sign-out").onclick = async () => { try { await call("/play/api/logout", {}); } catch { /* signed out anyway */ } me = null; await signIn(); };
  $("new").onsubmit = challenge;
  $("new-time").onchange = () => { $("custom-time").hidden = $("new-time").value !== "custom"; };
  $("new-game").onchange = () => { $("new-rules").disabled = $("new-game").value !== "cathedral"; };
  $("made-cancel").onclick = () => { if (waiting) answer(waiting, "cancel"); };
  $("search").onsubmit = listGames;
  window.addEventListener("hashchange", followAddress);
  try { await signIn(); } catch (e) { say(e.message, true); return; }
  followAddress();
  listSeeks();
  listGames();
  setInterval(listSeeks, 3000);
  setInterval(watchMine, 1000);
}

start();
