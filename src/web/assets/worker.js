// @ts-check
// The engine in a Web Worker: the library's JSON service compiled to WebAssembly (src/wasm/,
// plain exports, no generated glue), one request at a time. The page (local.js) sends the
// compiled module once, then requests; the worker answers each with its status and JSON text,
// and a live search's events as they come. A search blocks this worker, never the page.

// The worker's own instance, not the page's state: the module's exports and memory, once sent.
/** @type {any} */
let exports = null;
/** @type {WebAssembly.Memory} */
let memory = null;
/** The page's Stop, where the page is cross-origin isolated: a shared Int32Array, else null. */
let stopFlag = null;
/** The request under way: its id and, once given, its answer. */
let current = null;

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const text = (pointer, length) => decoder.decode(new Uint8Array(memory.buffer, pointer, length));

const imports = {
  env: {
    cathedral_now_ms: () => performance.now(),
    cathedral_stop_requested: () => (stopFlag && Atomics.load(stopFlag, 0) ? 1 : 0),
    cathedral_answer: (status, pointer, length) => { current.answer = { status, text: text(pointer, length) }; },
    cathedral_event: (name, nameLength, data, dataLength) =>
      postMessage({ id: current.id, event: text(name, nameLength), data: text(data, dataLength) }),
  },
};

/** Copies `bytes` into the module's memory: [pointer, length], to give back with `free`. */
function copyIn(bytes) {
  const pointer = exports.cathedral_alloc(bytes.length);
  new Uint8Array(memory.buffer, pointer, bytes.length).set(bytes);
  return [pointer, bytes.length];
}

function call({ id, method, path, body }) {
  current = { id, answer: null };
  if (stopFlag) Atomics.store(stopFlag, 0, 0);
  const [pathPointer, pathLength] = copyIn(encoder.encode(path));
  const [bodyPointer, bodyLength] = copyIn(encoder.encode(body === undefined ? "" : JSON.stringify(body)));
  try {
    exports.cathedral_call(method === "GET" ? 0 : 1, pathPointer, pathLength, bodyPointer, bodyLength);
  } catch (e) {
    // A trap (a bug, or memory exhausted): the instance cannot be trusted any more; the page
    // starts a fresh worker.
    postMessage({ id, status: 500, text: JSON.stringify({ error: `the engine in this page stopped (${e.message}); it restarts by itself` }), crashed: true });
    return;
  }
  exports.cathedral_free(pathPointer, pathLength);
  exports.cathedral_free(bodyPointer, bodyLength);
  const answer = current.answer || { status: 500, text: JSON.stringify({ error: "the engine gave no answer" }) };
  postMessage({ id, status: answer.status, text: answer.text });
}

onmessage = async ({ data }) => {
  if (data.module) {
    try {
      const instance = await WebAssembly.instantiate(/** @type {WebAssembly.Module} */ (data.module), imports);
      exports = instance.exports;
      memory = exports.memory;
      if (data.tableMb) exports.cathedral_configure(data.tableMb);
      stopFlag = data.stop ? new Int32Array(data.stop) : null;
      postMessage({ ready: true });
    } catch (e) {
      postMessage({ failed: String(e && e.message || e) });
    }
    return;
  }
  call(data);
};
