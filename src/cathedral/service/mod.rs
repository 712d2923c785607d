//! The board's JSON service, free of any transport: a request (a method, a path such as
//! `/api/position` and a JSON body) in, a JSON answer or a stream of events out. The web server
//! (`cathedral serve`, axum) and the browser build (`src/wasm/`, the engine in a Web Worker) both
//! call [`Service::call`], so that no endpoint is written twice and both answer in the same
//! words. `docs/web.md` lists the endpoints.
//!
//! The service keeps no game: every request carries its game. It keeps only the searches under
//! way (for their Stop) and hands out search slots through [`Slots`], which the transport
//! provides (the server's semaphores; one search at a time in a worker).

mod analyse_live;
mod api;
mod book;
mod engine;
mod live;
mod placements;
mod rating;
mod records;
mod study;
mod territory;
mod trainer;

pub use api::{ApiError, not_found, too_large};
pub use engine::QUICK_MS;
pub use live::{Event, LiveSearch, Running};

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The largest request body accepted: a game record of a long game is a few kilobytes.
pub const MAX_BODY: usize = 256 * 1024;

/// The largest record file the page may open (`/api/record/read`): a tournament's or a match's
/// record of several hundred games is a few hundred kilobytes.
pub const MAX_RECORD: usize = 16 * 1024 * 1024;

/// What the service allows.
#[derive(Clone, Debug)]
pub struct ServiceOptions {
    /// At most this many solves or engine searches at once (the transport enforces it through
    /// its [`Slots`]; the service says it in `/api/health` and in the busy answer).
    pub max_searches: usize,
    /// The longest time one search may take, in milliseconds.
    pub max_search_ms: u64,
    /// The trainer's puzzles as (name, position file text); `None`: the shipped collection.
    pub puzzles: Option<Vec<(String, String)>>,
    /// Where the searches run, as `/api/health` says it: `server` or `browser`.
    pub engine: &'static str,
    /// The most memory a solve's transposition table may take, in MiB (it starts at 4 and grows
    /// as the solve needs): 64 by default, a phone's share; more proves larger positions.
    pub table_mb: usize,
}

/// The solver's table by default, in MiB: small enough for a phone.
pub const DEFAULT_TABLE_MB: usize = 64;

/// The search slots a transport hands out. A slot is held (the returned value kept) for the
/// whole search.
pub trait Slots: Send + Sync {
    /// A slot for a search that will take at most `time` (`None`: no bound known), or `None`
    /// when every slot is taken.
    fn take(&self, time: Option<Duration>) -> Option<Box<dyn Send>>;
}

/// One search at a time, always granted: for a transport that runs one request after the other
/// (the browser's worker).
pub struct OneAtATime;

impl Slots for OneAtATime {
    fn take(&self, _time: Option<Duration>) -> Option<Box<dyn Send>> {
        Some(Box::new(()))
    }
}

/// What a request gets.
pub enum Reply {
    /// A JSON answer.
    Json(serde_json::Value),
    /// A search that reports while it works: its events then its result.
    Live(LiveSearch),
}

/// The service: the endpoints, the searches running and the trainer's puzzles.
pub struct Service {
    options: ServiceOptions,
    slots: Box<dyn Slots>,
    /// The trainer's puzzles: (name, position file text).
    puzzles: Vec<(String, String)>,
    /// The live searches running, by id, with their stop flags.
    running: Mutex<HashMap<u64, Arc<AtomicBool>>>,
    next_id: AtomicU64,
}

/// A request's method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Reads: no body.
    Get,
    /// Everything else: a JSON body.
    Post,
}

impl Service {
    /// A service with `options`, taking its search slots from `slots`.
    pub fn new(options: ServiceOptions, slots: Box<dyn Slots>) -> Service {
        let puzzles = options.puzzles.clone().unwrap_or_else(|| {
            trainer::TEACHING
                .iter()
                .map(|(name, text)| (name.to_string(), text.to_string()))
                .collect()
        });
        Service {
            options,
            slots,
            puzzles,
            running: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
        }
    }

    /// What the service allows.
    pub fn options(&self) -> &ServiceOptions {
        &self.options
    }

    /// Answers one request: `path` as `/api/...`, `body` the request's JSON (empty for a GET).
    /// `stop` is set by the transport when the requester goes away; a search then stops.
    pub fn call(
        self: &Arc<Service>,
        method: Method,
        path: &str,
        body: &[u8],
        stop: &Arc<AtomicBool>,
    ) -> Result<Reply, ApiError> {
        let segments: Vec<&str> = path
            .trim_start_matches("/api")
            .trim_matches('/')
            .split('/')
            .collect();
        let limit = match segments.as_slice() {
            ["record", "read"] => MAX_RECORD,
            _ => MAX_BODY,
        };
        if body.len() > limit {
            return Err(api::too_large(limit));
        }
        if let Some(answer) = self.route(method, &segments, body, stop) {
            return answer();
        }
        // A known endpoint asked with the other method: say which it takes.
        let (asked, other) = match method {
            Method::Get => ("GET", Method::Post),
            Method::Post => ("POST", Method::Get),
        };
        if self.route(other, &segments, body, stop).is_some() {
            let instead = match other {
                Method::Get => "GET",
                Method::Post => "POST with a JSON body",
            };
            return Err(ApiError::new(
                405,
                format!("{path} does not take a {asked}: use {instead}"),
            ));
        }
        Err(api::not_found())
    }

    /// The endpoint `method` and `segments` name, ready to answer, or `None`: the one list of
    /// the endpoints.
    #[allow(clippy::type_complexity)]
    fn route<'a>(
        self: &'a Arc<Service>,
        method: Method,
        segments: &[&'a str],
        body: &'a [u8],
        stop: &'a Arc<AtomicBool>,
    ) -> Option<Box<dyn FnOnce() -> Result<Reply, ApiError> + 'a>> {
        fn json(value: Result<serde_json::Value, ApiError>) -> Result<Reply, ApiError> {
            value.map(Reply::Json)
        }
        use Method::{Get, Post};
        Some(match (method, segments) {
            (Get, ["health"]) => Box::new(move || json(Ok(self.health()))),
            (Post, ["position"]) => Box::new(move || json(api::position(body))),
            (Post, ["placements"]) => Box::new(move || json(placements::placements(body))),
            (Post, ["solve"]) => Box::new(move || json(engine::solve(self, body, stop))),
            (Post, ["solve", "live"]) => {
                Box::new(move || live::solve_live(self, body).map(Reply::Live))
            }
            (Post, ["solve", "live", id, "stop"]) => {
                let id = *id;
                Box::new(move || json(self.stop(id, "solve")))
            }
            (Post, ["bestmove"]) => Box::new(move || json(engine::bestmove(self, body, stop))),
            (Post, ["book"]) => Box::new(move || json(book::book(body))),
            (Post, ["analyse"]) => Box::new(move || json(analyse_live::analyse(self, body, stop))),
            (Post, ["analyse", "live"]) => {
                Box::new(move || analyse_live::analyse_live(self, body).map(Reply::Live))
            }
            (Post, ["analyse", "live", id, "stop"]) => {
                let id = *id;
                Box::new(move || json(self.stop(id, "analysis")))
            }
            (Post, ["territory"]) => Box::new(move || json(territory::territory(self, body, stop))),
            (Post, ["rating"]) => Box::new(move || json(rating::rating(body))),
            (Post, ["record", "read"]) => Box::new(move || json(records::read_record(body))),
            (Post, ["record", "write"]) => Box::new(move || json(records::write_record(body))),
            (Get, ["puzzles"]) => Box::new(move || json(trainer::list(self))),
            (Post, ["puzzles", "from-game"]) => {
                Box::new(move || json(trainer::from_game(self, body, stop)))
            }
            (Post, ["puzzles", "answer"]) => {
                Box::new(move || json(trainer::answer_start(self, body, stop)))
            }
            (Get, ["puzzles", name]) => {
                let name = *name;
                Box::new(move || json(trainer::one(self, name)))
            }
            (Post, ["puzzles", name, "answer"]) => {
                let name = *name;
                Box::new(move || json(trainer::answer(self, name, body, stop)))
            }
            (Get, ["studies"]) => Box::new(|| json(study::list())),
            (Post, ["studies", "read"]) => Box::new(move || json(study::read_text(body))),
            (Post, ["studies", "answer"]) => {
                Box::new(move || json(study::answer(self, body, stop)))
            }
            (Get, ["studies", name]) => {
                let name = *name;
                Box::new(move || json(study::one(name)))
            }
            _ => return None,
        })
    }

    fn health(&self) -> serde_json::Value {
        serde_json::json!({
            "ok": true,
            "version": env!("CARGO_PKG_VERSION"),
            "commit": env!("CATHEDRAL_COMMIT"),
            "engine": self.options.engine,
            "max_searches": self.options.max_searches,
            "max_search_ms": self.options.max_search_ms,
            "table_mb": self.options.table_mb,
        })
    }

    /// A search slot for a search of at most `time`, or the busy answer.
    fn slot(&self, time: Option<Duration>) -> Result<Box<dyn Send>, ApiError> {
        self.slots.take(time).ok_or_else(|| engine::busy(self))
    }

    /// Sets the stop flag of live search `id` (a `what`: "solve", "analysis"), or 404.
    fn stop(&self, id: &str, what: &str) -> Result<serde_json::Value, ApiError> {
        let flag = id.parse::<u64>().ok().and_then(|id| {
            let running = self.running.lock().ok()?;
            running.get(&id).map(|flag| (id, Arc::clone(flag)))
        });
        match flag {
            Some((id, flag)) => {
                flag.store(true, std::sync::atomic::Ordering::Relaxed);
                Ok(serde_json::json!({"stopping": id}))
            }
            None => Err(ApiError::new(
                404,
                format!("no {what} {id} is running: it has finished, or it never started"),
            )),
        }
    }
}

/// A value as the JSON answer, or a 500 saying it could not be written.
fn to_json(value: &impl serde::Serialize) -> Result<serde_json::Value, ApiError> {
    serde_json::to_value(value)
        .map_err(|e| ApiError::new(500, format!("the answer could not be written: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn service() -> Arc<Service> {
        Arc::new(Service::new(
            ServiceOptions {
                max_searches: 1,
                max_search_ms: 1000,
                puzzles: None,
                engine: "test",
                table_mb: DEFAULT_TABLE_MB,
            },
            Box::new(OneAtATime),
        ))
    }

    fn call(method: Method, path: &str, body: &str) -> Result<serde_json::Value, ApiError> {
        let stop = Arc::new(AtomicBool::new(false));
        match service().call(method, path, body.as_bytes(), &stop)? {
            Reply::Json(value) => Ok(value),
            Reply::Live(_) => panic!("{path} answered with a live search"),
        }
    }

    #[test]
    fn every_transport_gets_the_same_answers_and_the_same_words() {
        let health = call(Method::Get, "/api/health", "").unwrap();
        assert_eq!(health["engine"], "test");
        assert_eq!(health["table_mb"], 64);
        let position = call(Method::Post, "/api/position", r#"{"moves": []}"#).unwrap();
        assert_eq!(position["position"]["to_move"], "light");
        // A path that is no endpoint, a known one with the other method, a body too large.
        let missing = call(Method::Get, "/api/nothing", "").unwrap_err();
        assert_eq!(missing.status(), 404);
        assert!(missing.message().contains("/api/position"), "{missing}");
        let wrong = call(Method::Get, "/api/position", "").unwrap_err();
        assert_eq!(wrong.status(), 405);
        assert!(wrong.message().contains("use POST"), "{wrong}");
        let big = format!(r#"{{"moves": [], "rules": "{}"}}"#, "x".repeat(MAX_BODY));
        let large = call(Method::Post, "/api/position", &big).unwrap_err();
        assert_eq!(large.status(), 413);
        assert!(large.message().contains("256 KiB"), "{large}");
        // Not JSON, and JSON of the wrong shape.
        let broken = call(Method::Post, "/api/position", r#"{"moves": ["#).unwrap_err();
        assert_eq!(broken.status(), 400);
        assert!(broken.message().contains("not a game"), "{broken}");
        let shape = call(Method::Post, "/api/position", "[1]").unwrap_err();
        assert_eq!(shape.status(), 422);
        // A Stop of nothing running.
        let stop = call(Method::Post, "/api/solve/live/7/stop", "{}").unwrap_err();
        assert_eq!(stop.status(), 404);
        assert!(stop.message().contains("no solve 7 is running"), "{stop}");
        assert_eq!(stop.to_json()["error"], stop.message());
    }

    #[test]
    fn a_live_search_sends_its_events_and_stops_when_its_guard_goes() {
        let service = service();
        let stop = Arc::new(AtomicBool::new(false));
        let body = br#"{"moves": ["light:cathedral:e5,f4,f5,f6,f7,g5"], "time_ms": 200}"#;
        let Ok(Reply::Live(live)) = service.call(Method::Post, "/api/solve/live", body, &stop)
        else {
            panic!("a live solve");
        };
        assert_eq!(live.started.name, "started");
        let started: serde_json::Value = serde_json::from_str(&live.started.data).unwrap();
        assert_eq!(started["to_move"], "dark");
        // Stopped by its id before it runs: it ends at once with what it proved (nothing).
        let id = live.running.id();
        let stopped = service
            .call(
                Method::Post,
                &format!("/api/solve/live/{id}/stop"),
                b"{}",
                &stop,
            )
            .is_ok();
        assert!(stopped);
        let (sender, receiver) = std::sync::mpsc::channel();
        (live.work)(&mut move |event| {
            let _ = sender.send(event);
        });
        let events: Vec<Event> = receiver.try_iter().collect();
        let last = events.last().expect("a result");
        assert_eq!(last.name, "result");
        let result: serde_json::Value = serde_json::from_str(&last.data).unwrap();
        assert!(result["value"].is_null(), "{result}");
        drop(live.running);
        // Gone from the running searches with its guard.
        let again = service.call(
            Method::Post,
            &format!("/api/solve/live/{id}/stop"),
            b"{}",
            &stop,
        );
        assert!(matches!(again, Err(e) if e.status() == 404));
    }
}
