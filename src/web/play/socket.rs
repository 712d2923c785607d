//! The play server's socket (`/play/socket`, a WebSocket): one per page or bot, signed in by
//! the session cookie or a bearer token. A client watches games and acts in them; every change
//! to a watched game, made here or by another server sharing the database, comes as the
//! game's whole view, which carries its number of events so that a client keeps only the
//! newest (docs/play.md, "The socket").
//!
//! In: `{"type":"watch","game":ID}`, `{"type":"unwatch","game":ID}`,
//! `{"type":"act","game":ID,"action":{...},"ref":N}`, `{"type":"challenges","ref":N}`,
//! `{"type":"challenge","request":{...},"ref":N}`,
//! `{"type":"answer","challenge":ID,"verb":"accept"|"decline"|"cancel","ref":N}`,
//! `{"type":"ping"}`.
//! Out: `{"type":"game","game":VIEW}`, `{"type":"done","ref":N,...}` (with `challenges`, the
//! new `challenge` or the accepted challenge's `game`),
//! `{"type":"refused","ref":N,"status":S,"error":WORDS}`, `{"type":"pong"}`,
//! `{"type":"error","error":WORDS}` for a message that is not one of these.

use super::Hub;
use super::http::{Refused, act_for, caller, same_origin, view_json};
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use cathedral::play::{ClientMessage as Incoming, Store, User};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::collections::HashSet;
use std::sync::Arc;
use tokio::sync::mpsc;

/// The most games one socket watches.
const MAX_WATCHED: usize = 64;

pub async fn upgrade(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    socket: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Response {
    // A page of another site may open a socket to us with our cookie: refused by its Origin.
    if let Err(refused) = same_origin(&headers) {
        return refused.into_response();
    }
    let socket = match socket {
        Ok(socket) => socket,
        Err(rejection) => {
            return Refused(
                400,
                format!("this address takes a WebSocket: {}", rejection.body_text()),
            )
            .into_response();
        }
    };
    let user = match caller(&hub, &headers).await {
        Ok(caller) => caller.session.map(|s| s.user),
        Err(refused) => return refused.into_response(),
    };
    socket
        .max_message_size(super::MAX_MESSAGE)
        .on_upgrade(move |socket| serve(hub, user, socket))
}

async fn serve(hub: Arc<Hub>, user: Option<User>, socket: WebSocket) {
    let (mut sender, mut receiver) = socket.split();
    let (out, mut outgoing) = mpsc::unbounded_channel::<String>();
    let writer = tokio::spawn(async move {
        while let Some(text) = outgoing.recv().await {
            if sender.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
    });
    let mut changes = hub.play.store().subscribe();
    let mut watched: HashSet<String> = HashSet::new();
    let send = |value: serde_json::Value| {
        let _ = out.send(value.to_string());
    };
    loop {
        tokio::select! {
            message = receiver.next() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text.to_string(),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                let incoming = match Incoming::parse(&text) {
                    Ok(incoming) => incoming,
                    Err(error) => {
                        send(json!({"type": "error", "error": error}));
                        continue;
                    }
                };
                match incoming {
                    Incoming::Ping { .. } => send(json!({"type": "pong"})),
                    Incoming::Watch { game, .. } => {
                        if watched.len() >= MAX_WATCHED && !watched.contains(&game) {
                            send(json!({"type": "error", "error": format!("a socket watches at most {MAX_WATCHED} games")}));
                            continue;
                        }
                        // Joined before the view is made, so that it shows the watcher
                        // connected; a game that cannot be watched is left again.
                        let new = watched.insert(game.clone());
                        if new && let Some(user) = &user {
                            hub.joined(&game, &user.id);
                        }
                        match view_json(&hub, &game, user.as_ref()).await {
                            Ok(view) => send(json!({"type": "game", "game": view})),
                            Err(Refused(status, error)) => {
                                if new {
                                    watched.remove(&game);
                                    if let Some(user) = &user {
                                        hub.left(&game, &user.id);
                                    }
                                }
                                send(json!({"type": "refused", "status": status, "error": error, "game": game}));
                            }
                        }
                    }
                    Incoming::Unwatch { game, .. } => {
                        if watched.remove(&game)
                            && let Some(user) = &user
                        {
                            hub.left(&game, &user.id);
                        }
                    }
                    Incoming::Challenges { reference } => {
                        match super::http::challenge_list(&hub, user.as_ref()).await {
                            Ok(list) => send(json!({"type": "done", "ref": reference, "challenges": list})),
                            Err(Refused(status, error)) => send(json!({"type": "refused", "ref": reference, "status": status, "error": error})),
                        }
                    }
                    Incoming::Challenge { request, reference } => {
                        let Some(user) = &user else {
                            send(json!({"type": "refused", "ref": reference, "status": 401, "error": "sign in first (or play as a guest)"}));
                            continue;
                        };
                        match hub.play.challenge(user, request).await {
                            Ok(made) => send(json!({"type": "done", "ref": reference, "challenge": super::http::challenge_json(&made, &user.name)})),
                            Err(e) => {
                                let Refused(status, error) = Refused::from(e);
                                send(json!({"type": "refused", "ref": reference, "status": status, "error": error}));
                            }
                        }
                    }
                    Incoming::Answer { challenge, verb, reference } => {
                        let Some(user) = &user else {
                            send(json!({"type": "refused", "ref": reference, "status": 401, "error": "sign in first (or play as a guest)"}));
                            continue;
                        };
                        match super::http::answer_for(&hub, user, &challenge, &verb).await {
                            Ok(value) => {
                                let mut done = json!({"type": "done", "ref": reference});
                                if let (Some(done), Some(value)) = (done.as_object_mut(), value.as_object()) {
                                    done.extend(value.clone());
                                }
                                send(done);
                            }
                            Err(Refused(status, error)) => send(json!({"type": "refused", "ref": reference, "status": status, "error": error})),
                        }
                    }
                    Incoming::Act { game, action, reference } => {
                        let Some(user) = &user else {
                            send(json!({"type": "refused", "ref": reference, "status": 401, "error": "sign in first (or play as a guest)"}));
                            continue;
                        };
                        match act_for(&hub, user, &game, action).await {
                            Ok(_) => send(json!({"type": "done", "ref": reference, "game": game})),
                            Err(Refused(status, error)) => send(json!({"type": "refused", "ref": reference, "status": status, "error": error, "game": game})),
                        }
                    }
                }
            }
            changed = changes.recv() => {
                let id = match changed {
                    Ok(id) => id,
                    // Fell behind: every watched game is sent again.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        for game in watched.clone() {
                            if let Ok(view) = view_json(&hub, &game, user.as_ref()).await {
                                send(json!({"type": "game", "game": view}));
                            }
                        }
                        continue;
                    }
                    Err(_) => break,
                };
                if watched.contains(&id)
                    && let Ok(view) = view_json(&hub, &id, user.as_ref()).await
                {
                    send(json!({"type": "game", "game": view}));
                }
            }
        }
    }
    if let Some(user) = &user {
        for game in &watched {
            hub.left(game, &user.id);
        }
    }
    drop(out);
    let _ = writer.await;
}
