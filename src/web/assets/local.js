// @ts-check
// The service in this browser: when the page comes from the static site (`cathedral site`,
// `<html data-engine="browser">`), every API request goes to Web Workers running the library's
// JSON service compiled to WebAssembly (worker.js), not to a server. Same paths, same bodies,
// same answers as `cathedral serve`.
//
// Two lanes, each a worker with its own instance: one for searches (solve, engine, analysis,
// territory, the trainer's checks), one for everything quick (positions, placements, records,
// the book), so that walking through a game never waits for the engine. Each lane runs one
// request at a time and queues the rest. A request aborted while queued leaves the queue; one
// aborted while running ends its worker, which the lane starts again (the compiled module is
// kept, so that costs an instantiation, not a download).
//
// Stop of a live solve or analysis: where the page is cross-origin isolated (on any host once
// the site's service worker serves it: sw.js adds the headers), a flag shared with the worker
// stops the search, which answers with what it proved, as the server does. Elsewhere (a first
// visit to a host that sends no headers) the worker is ended and the answer is made from the
// last progress it sent: the solve's proven bounds, the moves the analysis judged.

/** Whether this page runs its engine in the browser. */
export const IN_BROWSER = document.documentElement.dataset.engine === "browser";

/** How the page names where its engine runs. */
export const ENGINE_WHERE = IN_BROWSER
  ? "this browser (WebAssembly, one thread)"
  : "the server (cathedral serve)";

const SEARCHES = /^\/api\/(solve|bestmove|analyse|territory|puzzles\/(from-game|answer|[^/]+\/answer))(\/|$)/;

const aborted = () => new DOMException("aborted", "AbortError");

/** A worker with its queue. */
class Lane {
  constructor(name, module, shared, tableMb) {
    this.name = name;
    this.tableMb = tableMb;
    this.module = module;
    this.shared = shared;
    this.queue = [];
    this.job = null;
    this.nextId = 1;
    this.start();
  }

  start() {
    this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module", name: `cathedral-${this.name}` });
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = ({ data }) => {
        if (data.ready) resolve();
        else if (data.failed) reject(new Error(`the engine could not start in this browser: ${data.failed}`));
        else this.answer(data);
      };
      this.worker.onerror = e => { e.preventDefault(); reject(new Error(`the engine could not start in this browser: ${e.message || "no detail"}`)); };
    });
    this.module.then(module => this.worker.postMessage({ module, stop: this.shared, tableMb: this.tableMb }), () => {});
    this.ready.catch(() => {});
  }

  /** Ends the worker and starts a fresh one (its queue goes on). */
  restart() {
    this.worker.terminate();
    this.start();
  }

  /** Runs `job` after those before it; resolves with { status, json }. */
  run(job) {
    return new Promise((resolve, reject) => {
      job.resolve = resolve;
      job.reject = reject;
      if (job.signal) {
        if (job.signal.aborted) { reject(aborted()); return; }
        job.signal.addEventListener("abort", () => this.abort(job), { once: true });
      }
      this.queue.push(job);
      this.next();
    });
  }

  async next() {
    if (this.job || !this.queue.length) return;
    const job = this.job = this.queue.shift();
    job.id = this.nextId++;
    try {
      await this.ready;
    } catch (e) {
      this.job = null;
      job.reject(e);
      this.restart();
      this.next();
      return;
    }
    if (this.job !== job) return;
    this.worker.postMessage({ id: job.id, method: job.method, path: job.path, body: job.body });
  }

  /** Takes a new table size: at once when idle, else once the running request ends. */
  configure(tableMb) {
    this.tableMb = tableMb;
    if (this.job) this.restartWhenIdle = true;
    else this.restart();
  }

  answer(data) {
    const job = this.job;
    if (!job || data.id !== job.id) return;
    if (data.event) {
      const parsed = JSON.parse(data.data);
      job.last[data.event] = parsed;
      if (job.onEvent) job.onEvent(data.event, parsed);
      return;
    }
    this.job = null;
    if (data.crashed || this.restartWhenIdle) { this.restartWhenIdle = false; this.restart(); }
    let json = null;
    try { json = data.text ? JSON.parse(data.text) : null; } catch (_) { /* not JSON */ }
    job.resolve({ status: data.status, json });
    this.next();
  }

  abort(job) {
    const at = this.queue.indexOf(job);
    if (at >= 0) { this.queue.splice(at, 1); job.reject(aborted()); return; }
    if (this.job !== job) return;
    this.job = null;
    job.reject(aborted());
    this.restart();
    this.next();
  }

  /** Ends the running job with `answer(job)` as its last event: the Stop without a shared flag. */
  cut(job, answer) {
    if (this.job !== job) return;
    this.job = null;
    const result = answer(job);
    if (job.onEvent) job.onEvent("result", result);
    job.resolve({ status: 200, json: null });
    this.restart();
    this.next();
  }
}

/** The live solve's answer from its last progress: the bounds proven, nothing claimed beyond. */
function solveSoFar(job) {
  const started = job.last.started || {}, progress = job.last.progress;
  const lower = progress ? progress.lower : -Infinity, upper = progress ? progress.upper : Infinity;
  return {
    value: null, lower, upper, to_move: started.to_move, complete: false, nodes: progress ? progress.nodes : 0,
    root_moves: [], best_line: [], line: [], best_so_far: null,
    verdict: `Stopped: the value lies between ${lower} and ${upper}.`,
  };
}

/** The live analysis's answer from its progress: the moves judged, without the summary. */
function analysisSoFar(job) {
  const plies = job.plies.slice();
  const started = job.last.started || {};
  return {
    analysis: plies.length ? { plies } : null, plot_svg: null, complete: false,
    judged: job.last.progress ? job.last.progress.judged : 0, total: started.total || 0, stopped_reason: "stopped",
  };
}

// The workers and their queues, started at the first request: this transport's resources, not
// the page's state (nothing drawn depends on them).
let lanes = null;

function lanesNow() {
  if (lanes) return lanes;
  const url = new URL("../cathedral.wasm", import.meta.url);
  // Compiled once, shared by every worker and every restart.
  const module = (WebAssembly.compileStreaming
    ? WebAssembly.compileStreaming(fetch(url)).catch(() => fetch(url).then(r => r.arrayBuffer()).then(b => WebAssembly.compile(b)))
    : fetch(url).then(r => r.arrayBuffer()).then(b => WebAssembly.compile(b)));
  module.catch(() => {});
  const shared = self.crossOriginIsolated && typeof SharedArrayBuffer === "function" ? new SharedArrayBuffer(4) : null;
  lanes = { search: new Lane("search", module, shared, tableMb()), quick: new Lane("quick", module, null, 0), shared };
  return lanes;
}

/** The solver's largest table, in MiB, as the page's setting keeps it (64: a phone's share). */
export function tableMb() {
  const mb = parseInt(localStorage.getItem("cathedral-table-mb"), 10);
  return [64, 256, 1024].includes(mb) ? mb : 64;
}

/** Sets the solver's largest table for the searches to come. */
export function setTableMb(mb) {
  localStorage.setItem("cathedral-table-mb", String(mb));
  if (lanes) lanes.search.configure(tableMb());
}

/**
 * One request to the service in this browser: resolves with { status, json } (json null after a
 * live search's events, which go to `onEvent(name, data)` as they come).
 * @param {string} method
 * @param {string} path
 * @param {any} body
 * @param {{ signal?: AbortSignal, onEvent?: (name: string, data: any) => void }} [options]
 * @returns {Promise<{ status: number, json: any }>}
 */
export function call(method, path, body, { signal, onEvent } = {}) {
  const { search, quick, shared } = lanesNow();
  const stop = path.match(/^\/api\/(solve|analyse)\/live\/(\d+)\/stop$/);
  if (stop) {
    const job = search.job;
    if (!job || !job.live || String(job.last.started && job.last.started.id) !== stop[2]) {
      const what = stop[1] === "solve" ? "solve" : "analysis";
      return Promise.resolve({ status: 404, json: { error: `no ${what} ${stop[2]} is running: it has finished, or it never started` } });
    }
    if (shared) Atomics.store(new Int32Array(shared), 0, 1);
    else search.cut(job, stop[1] === "solve" ? solveSoFar : analysisSoFar);
    return Promise.resolve({ status: 200, json: { stopping: Number(stop[2]) } });
  }
  const lane = SEARCHES.test(path) ? search : quick;
  const job = { method, path, body, signal, last: {}, plies: [], live: /\/live$/.test(path) };
  job.onEvent = (name, data) => {
    if (name === "progress" && data.ply) job.plies.push(data.ply);
    if (onEvent) onEvent(name, data);
  };
  return lane.run(job);
}
