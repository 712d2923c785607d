//! The browser build: the library's JSON service ([`crate::service`]) behind plain WebAssembly
//! exports, for the page's Web Worker (`src/web/assets/worker.js` loads it; `docs/web.md` says
//! why plain exports and not wasm-bindgen). `cathedral site` builds it (`cargo rustc --lib
//! --profile site --no-default-features --target wasm32-unknown-unknown --crate-type cdylib`,
//! with WebAssembly's SIMD).
//!
//! The protocol, one request at a time:
//! - the worker copies the path and the body into buffers from `cathedral_alloc` and calls
//!   `cathedral_call(method, path, path_len, body, body_len)` (method 0: GET, 1: POST);
//! - a live search calls the import `env.cathedral_event(name, name_len, data, data_len)` for
//!   each event (`started`, `progress`..., `result`) as it runs;
//! - every request ends with one call of `env.cathedral_answer(status, text, len)`: the JSON
//!   answer (status 200), the error as `{"error": ...}` (its status), or, after a live search's
//!   events, status 200 and no text;
//! - `env.cathedral_now_ms()` is the page's clock and `env.cathedral_stop_requested()` the
//!   page's Stop (a flag shared with the page where it is cross-origin isolated; see
//!   `boardgame::instant`).

use crate::boardgame::StopAfter;
use crate::service::{DEFAULT_TABLE_MB, Method, OneAtATime, Reply, Service, ServiceOptions};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

unsafe extern "C" {
    fn cathedral_answer(status: u32, text: *const u8, len: usize);
    fn cathedral_event(name: *const u8, name_len: usize, data: *const u8, data_len: usize);
}

/// The longest one search may take in the browser, in milliseconds: as the server's default.
const MAX_SEARCH_MS: u64 = 30_000;

/// The solver's largest table in MiB, as the page's setting asks (`cathedral_configure`).
static TABLE_MB: AtomicUsize = AtomicUsize::new(DEFAULT_TABLE_MB);

/// Sets the solver's largest table, in MiB (at least 4), before the first request: the page's
/// "Solver memory" setting. A worker keeps it for its life; the page starts a new worker to
/// change it.
#[unsafe(no_mangle)]
pub extern "C" fn cathedral_configure(table_mb: u32) {
    TABLE_MB.store((table_mb as usize).max(4), Ordering::Relaxed);
}

fn service() -> &'static Arc<Service> {
    static SERVICE: OnceLock<Arc<Service>> = OnceLock::new();
    SERVICE.get_or_init(|| {
        Arc::new(Service::new(
            ServiceOptions {
                max_searches: 1,
                max_search_ms: MAX_SEARCH_MS,
                puzzles: None,
                engine: "browser",
                table_mb: TABLE_MB.load(Ordering::Relaxed),
            },
            Box::new(OneAtATime),
        ))
    })
}

/// A buffer of `len` bytes for the worker to write a request into; give it back with
/// [`cathedral_free`].
#[unsafe(no_mangle)]
pub extern "C" fn cathedral_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let pointer = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    pointer
}

/// Gives back a buffer of `cathedral_alloc(len)`.
///
/// # Safety
/// `pointer` must come from `cathedral_alloc(len)` with the same `len`, given back once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cathedral_free(pointer: *mut u8, len: usize) {
    // SAFETY: the caller's promise: the buffer of `cathedral_alloc(len)`, whose capacity is
    // `len.max(1)`.
    drop(unsafe { Vec::from_raw_parts(pointer, 0, len.max(1)) });
}

/// Answers one request (see the module's protocol).
///
/// # Safety
/// `path` and `body` must point to `path_len` and `body_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cathedral_call(
    method: u32,
    path: *const u8,
    path_len: usize,
    body: *const u8,
    body_len: usize,
) {
    // SAFETY: the caller's promise.
    let path = unsafe { std::slice::from_raw_parts(path, path_len) };
    // SAFETY: the caller's promise.
    let body = unsafe { std::slice::from_raw_parts(body, body_len) };
    let path = String::from_utf8_lossy(path);
    let method = if method == 0 {
        Method::Get
    } else {
        Method::Post
    };
    let stop = Arc::new(AtomicBool::new(false));
    // The page's Stop, where it can reach a running worker, stops any search.
    let _page_stop = StopAfter::page_stop(Arc::clone(&stop));
    match service().call(method, &path, body, &stop) {
        Ok(Reply::Json(value)) => answer(200, &value.to_string()),
        Ok(Reply::Live(live)) => {
            let _live_stop = StopAfter::page_stop(live.running.stop_flag());
            send(&live.started);
            (live.work)(&mut |event| send(&event));
            drop(live.running);
            answer(200, "");
        }
        Err(error) => answer(u32::from(error.status()), &error.to_json().to_string()),
    }
}

fn answer(status: u32, text: &str) {
    // SAFETY: the loader provides this import; it copies the bytes before returning.
    unsafe { cathedral_answer(status, text.as_ptr(), text.len()) }
}

fn send(event: &crate::service::Event) {
    // SAFETY: the loader provides this import; it copies the bytes before returning.
    unsafe {
        cathedral_event(
            event.name.as_ptr(),
            event.name.len(),
            event.data.as_ptr(),
            event.data.len(),
        )
    }
}
