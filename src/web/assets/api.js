// @ts-check
// The API client: JSON requests, a retry when every search slot is taken (503), and the
// server-sent event streams of the live solve and the live analysis. Two transports, one
// interface: HTTP to `cathedral serve`, or the same service in this browser's workers
// (local.js) when the page comes from the static site.

import { IN_BROWSER, call } from "./local.js";

/** An answer of the server that is not a success, with its status and the server's words. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
    /** @type {number} the seconds to wait before asking again (503) */
    this.retryAfter = undefined;
    /** @type {number|null} the number (from 1) of the game's move that cannot be played */
    this.refusedMove = undefined;
    /** @type {boolean} no server answered */
    this.unreachable = undefined;
  }
}

const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  if (signal) signal.addEventListener("abort", () => { clearTimeout(timer); reject(new DOMException("aborted", "AbortError")); }, { once: true });
});

/** What the page says when the server does not answer at all. */
export const UNREACHABLE = "The server cannot be reached (has `cathedral serve` stopped, or the network gone?). The page tries again and goes on by itself when it answers.";

// The page's wiring, not its state: what to run when no server answers (set once, at the start).
let unreachableHook = () => {};
/** `hook()` runs whenever a request finds no server: the page then waits for it to come back. */
export function onUnreachable(hook) { unreachableHook = hook; }

/** A request that reached no server: an `ApiError` with status 0 and the page's words. */
function unreachable(e) {
  if (e && e.name === "AbortError") return e;
  const error = new ApiError(0, UNREACHABLE);
  error.unreachable = true;
  unreachableHook();
  return error;
}

/** Fetches, turning "no server" (a `TypeError` from fetch) into the page's words. */
async function reach(path, init) {
  try {
    return await fetch(path, init);
  } catch (e) {
    throw unreachable(e);
  }
}

async function send(path, body, signal) {
  if (IN_BROWSER) {
    const { status, json } = await call(body === undefined ? "GET" : "POST", path, body, { signal });
    if (status === 200) return json;
    const error = new ApiError(status, (json && json.error) || `the engine answered ${status}`);
    error.retryAfter = 1;
    error.refusedMove = (json && json.refused_move) || null;
    throw error;
  }
  const response = await reach(path, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  let json = null;
  try { json = await response.json(); } catch (e) {
    // Aborted while the answer was read: the request is cancelled, not answered with nothing.
    if (e && e.name === "AbortError") throw e;
    /* an empty or non-JSON answer */
  }
  if (!response.ok) {
    const error = new ApiError(response.status, (json && json.error) || `${response.status} ${response.statusText}`);
    error.retryAfter = parseFloat(response.headers.get("Retry-After")) || 1;
    // The number (from 1) of the game's move that cannot be played, when that is what is wrong.
    error.refusedMove = (json && json.refused_move) || null;
    throw error;
  }
  return json;
}

/**
 * POST `body` to `path` (GET without a body). With `retries`, a 503 (every search slot taken) is
 * tried again after a growing pause, calling `waiting(seconds, attempt)` before each pause.
 * @param {string} path
 * @param {any} [body]
 * @param {{ signal?: AbortSignal, retries?: number, waiting?: (seconds: number, attempt: number) => void }} [options]
 * @returns {Promise<any>}
 */
export async function api(path, body, { signal, retries = 0, waiting } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(path, body, signal);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 503 || attempt > retries) throw e;
      const seconds = Math.min(8, e.retryAfter * attempt);
      if (waiting) waiting(seconds, attempt);
      await sleep(seconds * 1000, signal);
    }
  }
}

/**
 * POST `body` to a streaming endpoint and call `onEvent(name, data)` for each server-sent event
 * until the stream ends. Returns the data of the `result` event (or null if none came).
 */
export async function stream(path, body, onEvent, signal) {
  if (IN_BROWSER) {
    let result = null;
    const { status, json } = await call("POST", path, body, {
      signal,
      onEvent: (name, data) => { if (name === "result") result = data; onEvent(name, data); },
    });
    if (status !== 200) {
      const error = new ApiError(status, (json && json.error) || `the engine answered ${status}`);
      error.retryAfter = 1;
      throw error;
    }
    return result;
  }
  const response = await reach(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try { message = (await response.json()).error || message; } catch (_) { /* keep the status */ }
    const error = new ApiError(response.status, message);
    error.retryAfter = parseFloat(response.headers.get("Retry-After")) || 1;
    throw error;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "", result = null;
  for (;;) {
    let value, done;
    // The stream cut under the page (the server stopped mid-search): no server, in the page's
    // words, and the page waits for it to come back.
    try { ({ value, done } = await reader.read()); } catch (e) { throw unreachable(e); }
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = (block.match(/^event: ?(.*)$/m) || [])[1];
      const data = block.split("\n").filter(l => l.startsWith("data:")).map(l => l.replace(/^data: ?/, "")).join("\n");
      if (!name || !data) continue;
      const parsed = JSON.parse(data);
      if (name === "result") result = parsed;
      onEvent(name, parsed);
    }
  }
  return result;
}
