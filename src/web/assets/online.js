// @ts-check
// A game on the play server (`cathedral serve --play`, docs/play.md) on the board the player
// knows: `/?online=GAME` opens it. The server is the game's truth: its socket sends the game's
// whole view after every change (each carrying its number of events: an older one is dropped),
// the page's game follows it, and a move the player makes is sent and waits for the server's
// answer (input waits meanwhile). While the game runs, no engine help is reachable: the analysis,
// the book, the teaching mode and the engine's side are off until it ends; then the whole game
// is on the analysis board, one click from "Analyse game" and "Puzzles from this game".
import { S, update, newGameState, graft, goTo } from "./state.js";
import { say } from "./status.js";
import { startGame, refresh } from "./actions.js";

const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));

/** The side of a seat in a Cathedral game. */
const SIDES = ["light", "dark"];

/** Whether a game on the server is open and still running: no engine help then. */
export const live = () => Boolean(S.online && S.online.view && !S.online.view.ending);

/** Whether a move of the player's goes to the server (an online game running). */
export const takesMove = () => live();

/** @type {WebSocket|null} the open socket (not page state: the connection itself) */
let socket = null;
let retryMs = 500;

/** Opens the game of the address's `?online=ID`, if any. */
export function init() {
  const id = new URLSearchParams(location.search).get("online");
  if (!id) return;
  if (!/^[a-z0-9]{4,40}$/.test(id)) { say("This address names no game of the play server.", true); return; }
  update({ online: { id, view: null, sent: null, connected: false, error: "", received: 0 } });
  $("online-resign").onclick = () => act({ action: "resign" }, "Resign this game?");
  $("online-draw").onclick = () => act({ action: S.online && S.online.view && S.online.view.offer !== null ? "accept_draw" : "offer_draw" });
  $("online-decline").onclick = () => act({ action: "decline_draw" });
  $("online-abort").onclick = () => act({ action: "abort" }, "Abort this game? It will have no result.");
  $("online-claim").onclick = () => act({ action: "claim_win", away_ms: 0 });
  setInterval(() => { if (live()) update({}); }, 250); // the clocks run down between views
  // The network gone (the browser knows) or silent (no answer to a ping within five seconds):
  // the socket is closed and opened again, and the game asked for afresh.
  window.addEventListener("offline", () => { if (socket) socket.close(); });
  window.addEventListener("online", () => { retryMs = 500; if (!socket) connect(); });
  setInterval(() => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    if (Date.now() - lastHeard > 15000) { socket.close(); return; }
    socket.send(JSON.stringify({ type: "ping" }));
  }, 5000);
  connect();
}

/** When the server last said anything on the socket. */
let lastHeard = Date.now();

function connect() {
  const online = S.online;
  if (!online) return;
  const address = new URL("/play/socket", location.href);
  address.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const opened = new WebSocket(address.href);
  socket = opened;
  opened.onopen = () => {
    retryMs = 500;
    lastHeard = Date.now();
    update(s => ({ online: s.online && { ...s.online, connected: true, error: "" } }));
    opened.send(JSON.stringify({ type: "watch", game: online.id }));
  };
  opened.onmessage = event => {
    lastHeard = Date.now();
    /** @type {any} */
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message.type === "game") follow(message.game);
    else if (message.type === "refused") refused(message.error);
  };
  opened.onclose = () => {
    if (socket !== opened) return;
    socket = null;
    if (!navigator.onLine) retryMs = 8000; // the "online" event reconnects sooner
    // The network cut or the server restarting: the game is asked for again once it answers;
    // a move sent meanwhile is shown as not sent.
    update(s => ({ online: s.online && { ...s.online, connected: false, sent: null, error: "The connection to the play server is lost: reconnecting..." } }));
    setTimeout(() => { if (!socket) connect(); }, retryMs);
    retryMs = Math.min(retryMs * 2, 8000);
  };
}

/** The server's answer to a move or an action: nothing changed, and why. */
function refused(error) {
  update(s => ({ online: s.online && { ...s.online, sent: null } }));
  say(`Refused by the server: ${error}`, true, true);
}

/**
 * The server's view of the game: the page's game becomes its moves (a newer view only).
 * @param {any} view
 */
function follow(view) {
  const online = S.online;
  if (!online || view.id !== online.id) return;
  if (online.view && view.events < online.view.events) return;
  const first = !online.view;
  update({ online: { ...online, view, sent: null, received: Date.now() } });
  if (view.spec.variant !== "cathedral") {
    say(`This is a game of ${view.spec.variant}: the board plays Cathedral; play it through the socket API (docs/play.md).`, true);
    return;
  }
  const moves = view.moves.map(m => `${SIDES[m.seat]}:${m.text}`);
  if (first) {
    const meta = { light: view.seats[0].name, dark: view.seats[1].name, event: "cathedral play server", round: view.in_match ? `${view.in_match.round + 1} of 2` : "single game" };
    startGame(newGameState({ rules: view.spec.rules, moves, meta }));
    update({ engineSide: "", autoplay: false, welcomed: true, flipped: view.you === 1 });
  } else graft([], moves);
  goTo(moves);
  refresh();
  if (view.ending) say(`The game is over: ${view.result_text}. The whole game is on the analysis board.`);
}

/**
 * Sends the player's move (as the page writes it, with its player) to the server.
 * @param {string} move
 */
export function send(move) {
  const online = S.online;
  if (!online || !online.view) return;
  const view = online.view;
  if (online.sent) return; // one at a time: the answer comes first
  if (view.you === null || view.you === undefined) { say("You are watching this game.", true, true); return; }
  if (view.to_move !== view.you) { say("It is not your turn.", true, true); return; }
  if (!socket || socket.readyState !== WebSocket.OPEN) { say("Not connected to the play server: the move was not sent.", true, true); return; }
  const text = move.replace(/^(light|dark):/, "");
  update({ online: { ...online, sent: move } });
  socket.send(JSON.stringify({ type: "act", game: online.id, action: { action: "move", text, ply: view.moves.length } }));
}

/**
 * An action other than a move (resign, draw, abort, claim), asking first where it says.
 * @param {object} action
 * @param {string} [confirmFirst]
 */
function act(action, confirmFirst) {
  const online = S.online;
  if (!online || !online.view || online.sent || !socket || socket.readyState !== WebSocket.OPEN) return;
  if (confirmFirst && !window.confirm(confirmFirst)) return;
  update({ online: { ...online, sent: "action" } });
  socket.send(JSON.stringify({ type: "act", game: online.id, action }));
}

/** A time in minutes and seconds (hours past an hour, days past a day). */
function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds >= 86400) return `${Math.floor(seconds / 86400)} d ${Math.floor((seconds % 86400) / 3600)} h`;
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  const two = n => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** Draws the online game's panel from the state (render.js calls it). */
export function render() {
  const online = S.online;
  document.body.classList.toggle("online-live", live());
  const box = $("online");
  box.hidden = !online;
  if (!online) return;
  const view = online.view;
  $("online-status").textContent = online.error || (view ? "" : "Opening the game...");
  if (!view) return;
  const now = Date.now();
  const elapsed = view.ending || view.to_move === null ? 0 : Math.max(0, now - online.received);
  for (const seat of [0, 1]) {
    const player = view.seats[seat];
    const row = $(`online-seat-${seat}`);
    const left = view.clocks_ms[seat] - (seat === view.to_move ? elapsed : 0);
    row.querySelector(".who").textContent = `${seat === 0 ? "Light" : "Dark"}: ${player.name}${player.rating ? ` (${Math.round(player.rating)}${player.provisional ? "?" : ""})` : ""}${seat === view.you ? " - you" : ""}`;
    row.querySelector(".away").textContent = view.present && !view.present[seat] && !view.ending ? "not connected" : "";
    const clock = row.querySelector(".clock");
    clock.textContent = clockText(left);
    clock.classList.toggle("running", seat === view.to_move && !view.ending);
    clock.classList.toggle("low", left < 20000 && view.spec.time.kind === "live");
  }
  const match = view.in_match ? ` Game ${view.in_match.round + 1} of a match of two, colours swapped.` : "";
  const turn = view.ending ? `Over: ${view.result_text}.` : view.to_move === view.you ? "Your move." : `${view.seats[view.to_move].name} to move.`;
  $("online-turn").textContent = `${turn}${match} ${view.time_text}${view.spec.rated ? ", rated" : ", unrated"}.`;
  const playing = view.you !== null && view.you !== undefined && !view.ending;
  const offerFromOpponent = view.offer !== null && view.offer !== view.you;
  $("online-resign").hidden = !playing;
  $("online-abort").hidden = !playing || !view.may_abort;
  $("online-draw").hidden = !playing || !view.can_draw || view.offer === view.you;
  $("online-draw").textContent = offerFromOpponent ? "Accept the draw" : "Offer a draw";
  $("online-decline").hidden = !playing || !offerFromOpponent;
  const opponent = view.you === 0 ? 1 : 0;
  $("online-claim").hidden = !playing || view.spec.time.kind !== "live" || view.to_move !== opponent || !view.present || view.present[opponent];
  $("online-offer").textContent = playing && offerFromOpponent ? `${view.seats[opponent].name} offers a draw.` : playing && view.offer === view.you ? "You offered a draw." : "";
  const after = $("online-after");
  after.hidden = !view.ending;
  if (view.ending) {
    $("online-record").href = `/play/api/games/${view.id}/record`;
    const next = view.in_match && view.in_match.games[1] && view.in_match.games[1] !== view.id ? view.in_match.games[1] : null;
    $("online-next").hidden = !next;
    if (next) $("online-next").href = `?online=${next}`;
    $("online-match").textContent = view.in_match && view.in_match.result ? `The match: ${view.in_match.players[0]} ${view.in_match.result.totals[0]}, ${view.in_match.players[1]} ${view.in_match.result.totals[1]} (lower wins): ${view.in_match.result.winner === null ? "drawn" : `${view.in_match.players[view.in_match.result.winner]} wins`}.` : "";
  }
}
