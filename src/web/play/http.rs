//! The play server's HTTP API: JSON in and out, `{"error": "..."}` with a status on refusal.

use super::Hub;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use cathedral::play::{
    Action, ChallengeRequest, GameFilter, PlayError, Session, SignedIn, UserKind,
};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

/// The session cookie's name.
pub const COOKIE: &str = "cathedral_play";

/// A refusal as an HTTP answer.
pub struct Refused(pub u16, pub String);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.0).unwrap_or(StatusCode::BAD_REQUEST);
        (status, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<PlayError> for Refused {
    fn from(error: PlayError) -> Refused {
        let words = match &error {
            // The store's and the record's failures in words for the log, not the player.
            PlayError::Store(e) => {
                eprintln!("play server: {e}");
                "the server could not do that just now: try again".to_string()
            }
            PlayError::Corrupt(e) => {
                eprintln!("play server: {e}");
                "this game's record is damaged on the server".to_string()
            }
            other => other.to_string(),
        };
        Refused(error.status(), words)
    }
}

type Answer = Result<Response, Refused>;

/// Who is asking: their session, and whether it came by cookie (a browser: changes need the
/// CSRF token) or by a bearer token (a program).
pub struct Caller {
    pub session: Option<Session>,
    pub by_cookie: bool,
    pub token: Option<String>,
}

impl Caller {
    /// The signed-in player, or a refusal that says to sign in.
    pub fn user(&self) -> Result<&cathedral::play::User, Refused> {
        self.session
            .as_ref()
            .map(|s| &s.user)
            .ok_or_else(|| Refused(401, "sign in first (or play as a guest)".into()))
    }
}

fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == COOKIE).then(|| value.to_string())
        })
}

fn bearer_token(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    value.strip_prefix("Bearer ").map(|t| t.trim().to_string())
}

/// The caller of a request, from its cookie or bearer token (a forged or expired one is no
/// session at all).
pub async fn caller(hub: &Hub, headers: &HeaderMap) -> Result<Caller, Refused> {
    let (token, by_cookie) = match (bearer_token(headers), cookie_token(headers)) {
        (Some(token), _) => (Some(token), false),
        (None, Some(token)) => (Some(token), true),
        (None, None) => (None, false),
    };
    let session = match &token {
        Some(token) => hub.play.session(token).await?,
        None => None,
    };
    Ok(Caller {
        session,
        by_cookie,
        token,
    })
}

/// Whether the request comes from this server's own page (or from a program, which sends no
/// `Origin`): a page on another site is refused, whatever it carries.
pub fn same_origin(headers: &HeaderMap) -> Result<(), Refused> {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return Ok(());
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let origin_host = origin.split("://").nth(1).unwrap_or_default();
    if !host.is_empty() && origin_host == host {
        Ok(())
    } else {
        Err(Refused(
            403,
            "this request came from another site's page and was refused".into(),
        ))
    }
}

/// What every change needs: JSON, from this site, and from a cookie session the CSRF token.
fn check_change(headers: &HeaderMap, caller: &Caller) -> Result<(), Refused> {
    same_origin(headers)?;
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("application/json"));
    if !json {
        return Err(Refused(
            415,
            "send JSON with `Content-Type: application/json`".into(),
        ));
    }
    check_csrf(headers, caller)
}

/// A cookie session's change carries the session's CSRF token (a bearer token needs none: no
/// browser sends it by itself).
fn check_csrf(headers: &HeaderMap, caller: &Caller) -> Result<(), Refused> {
    if let (true, Some(session)) = (caller.by_cookie, &caller.session) {
        let sent = headers.get("x-csrf-token").and_then(|v| v.to_str().ok());
        if sent != Some(session.csrf.as_str()) {
            return Err(Refused(
                403,
                "this change lacks the page's token (CSRF): reload the page and try again".into(),
            ));
        }
    }
    Ok(())
}

/// The request's body as `T`, refused in words when it is not.
fn body<T: serde::de::DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, Refused> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            Refused(
                413,
                format!("a request is at most {} KiB", super::MAX_MESSAGE / 1024),
            )
        } else {
            Refused(
                400,
                format!(
                    "the request's body could not be read: {}",
                    rejection.body_text()
                ),
            )
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        Refused(
            400,
            format!("the request is not what this endpoint takes: {e}"),
        )
    })
}

/// The answer of a sign-in: the session cookie set, the player and CSRF token in the body.
fn signed_in(signed: SignedIn, headers: &HeaderMap) -> Response {
    let secure = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == "https");
    let cookie = format!(
        "{COOKIE}={}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}{}",
        signed.token,
        cathedral::play::SESSION_MS / 1000,
        if secure { "; Secure" } else { "" }
    );
    let mut response = Json(json!({ "user": signed.user, "csrf": signed.csrf })).into_response();
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    response
}

pub async fn page() -> Response {
    match crate::web::assets::embedded("play.html") {
        Some(html) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            crate::web::assets::with_version(html),
        )
            .into_response(),
        None => Refused(404, "the play page is missing from this build".into()).into_response(),
    }
}

pub async fn me(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Answer {
    let caller = caller(&hub, &headers).await?;
    let session = caller
        .session
        .ok_or_else(|| Refused(401, "not signed in".into()))?;
    Ok(Json(json!({ "user": session.user, "csrf": session.csrf })).into_response())
}

pub async fn guest(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Answer {
    same_origin(&headers)?;
    let caller = caller(&hub, &headers).await?;
    if let Some(session) = caller.session {
        // Already someone: the same player again, not a new guest for each click.
        return Ok(Json(json!({ "user": session.user, "csrf": session.csrf })).into_response());
    }
    Ok(signed_in(hub.play.guest().await?, &headers))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

pub async fn register(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let caller = caller(&hub, &headers).await?;
    check_change(&headers, &caller)?;
    let credentials: Credentials = body(raw)?;
    let guest = caller.session.as_ref().map(|s| &s.user);
    let signed = hub
        .play
        .register(&credentials.name, &credentials.password, guest)
        .await?;
    if let Some(token) = &caller.token {
        // The guest's old session ends: the account has a new one.
        let _ = hub.play.logout(token).await;
    }
    Ok(signed_in(signed, &headers))
}

/// Signs in with a name and password: people here, bots at `bots/login` (each refused the
/// other's door, so that a bot's token never lands in a page's cookie and a person's session is
/// never a token in a body).
async fn sign_in_with(
    hub: &Hub,
    headers: &HeaderMap,
    raw: Result<Bytes, BytesRejection>,
    bot: bool,
) -> Result<SignedIn, Refused> {
    let caller = caller(hub, headers).await?;
    check_change(headers, &caller)?;
    let credentials: Credentials = body(raw)?;
    let signed = hub
        .play
        .login(&credentials.name, &credentials.password)
        .await?;
    if (signed.user.kind == UserKind::Bot) != bot {
        let _ = hub.play.logout(&signed.token).await;
        let door = if bot {
            "this is a person's account: sign in at /play/api/login"
        } else {
            "a bot signs in at /play/api/bots/login"
        };
        return Err(Refused(403, door.into()));
    }
    Ok(signed)
}

pub async fn login(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let signed = sign_in_with(&hub, &headers, raw, false).await?;
    Ok(signed_in(signed, &headers))
}

pub async fn logout(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Answer {
    let caller = caller(&hub, &headers).await?;
    same_origin(&headers)?;
    check_csrf(&headers, &caller)?;
    if let Some(token) = &caller.token {
        hub.play.logout(token).await?;
    }
    let mut response = Json(json!({ "ok": true })).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("cathedral_play=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0"),
    );
    Ok(response)
}

/// A bot's session token in the body: a program keeps it and sends it as a bearer token.
fn bot_token(signed: SignedIn) -> Response {
    Json(json!({ "user": signed.user, "token": signed.token })).into_response()
}

pub async fn register_bot(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let caller = caller(&hub, &headers).await?;
    check_change(&headers, &caller)?;
    let credentials: Credentials = body(raw)?;
    Ok(bot_token(
        hub.play
            .register_bot(&credentials.name, &credentials.password)
            .await?,
    ))
}

pub async fn bot_login(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    Ok(bot_token(sign_in_with(&hub, &headers, raw, true).await?))
}

pub fn challenge_json(challenge: &cathedral::play::Challenge, from: &str) -> serde_json::Value {
    json!({
        "id": challenge.id,
        "from": from,
        "to": challenge.to,
        "open": challenge.open,
        "spec": challenge.spec,
        "time_text": challenge.spec.time.to_string(),
        "two_games": challenge.two_games,
        "first": challenge.first,
        "status": challenge.status,
        "game": challenge.game,
        "link": format!("/play/#c/{}", challenge.id),
    })
}

/// The open challenges `viewer` may see, as JSON.
pub async fn challenge_list(
    hub: &Hub,
    viewer: Option<&cathedral::play::User>,
) -> Result<Vec<serde_json::Value>, Refused> {
    Ok(hub
        .play
        .challenges(viewer)
        .await?
        .iter()
        .map(|(c, from)| challenge_json(c, from))
        .collect())
}

pub async fn challenges(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Answer {
    let caller = caller(&hub, &headers).await?;
    let viewer = caller.session.as_ref().map(|s| &s.user);
    let listed = challenge_list(&hub, viewer).await?;
    Ok(Json(json!({ "challenges": listed })).into_response())
}

pub async fn challenge(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let caller = caller(&hub, &headers).await?;
    check_change(&headers, &caller)?;
    let user = caller.user()?;
    let request: ChallengeRequest = body(raw)?;
    let made = hub.play.challenge(user, request).await?;
    Ok((StatusCode::CREATED, Json(challenge_json(&made, &user.name))).into_response())
}

pub async fn challenge_of(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Answer {
    let found = hub
        .play
        .store_challenge(&id)
        .await?
        .ok_or(Refused(404, "no such challenge".into()))?;
    Ok(Json(challenge_json(&found.0, &found.1)).into_response())
}

pub async fn answer(
    State(hub): State<Arc<Hub>>,
    Path((id, verb)): Path<(String, String)>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let caller = caller(&hub, &headers).await?;
    check_change(&headers, &caller)?;
    let _: serde_json::Value = body(raw)?;
    let user = caller.user()?;
    Ok(Json(answer_for(&hub, user, &id, &verb).await?).into_response())
}

/// `user` accepts (`{"game": ID}`), declines or cancels (`{"status": ...}`) challenge `id`.
pub async fn answer_for(
    hub: &Hub,
    user: &cathedral::play::User,
    id: &str,
    verb: &str,
) -> Result<serde_json::Value, Refused> {
    match verb {
        "accept" => {
            let game = hub.play.accept(user, id).await?;
            if let Ok(view) = hub.play.view(&game, None).await {
                hub.note_deadline(&game, view.flag_at_ms);
            }
            Ok(json!({ "game": game }))
        }
        // Declining your own challenge is cancelling it, and the other way round: the
        // server knows which it is.
        "decline" | "cancel" => {
            let status = hub.play.close(user, id).await?;
            Ok(json!({ "status": status }))
        }
        other => Err(Refused(
            404,
            format!("a challenge is answered by `accept`, `decline` or `cancel`, not `{other}`"),
        )),
    }
}

/// The view of a game with who of its players is connected here.
pub async fn view_json(
    hub: &Hub,
    id: &str,
    viewer: Option<&cathedral::play::User>,
) -> Result<serde_json::Value, Refused> {
    let view = hub.play.view(id, viewer).await?;
    hub.note_deadline(id, view.flag_at_ms);
    let present: Vec<bool> = view.seats.iter().map(|p| hub.present(id, &p.id)).collect();
    let mut value = serde_json::to_value(&view).map_err(|e| Refused(500, e.to_string()))?;
    value["present"] = json!(present);
    Ok(value)
}

pub async fn game(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer {
    let caller = caller(&hub, &headers).await?;
    let viewer = caller.session.as_ref().map(|s| &s.user);
    Ok(Json(view_json(&hub, &id, viewer).await?).into_response())
}

/// Does `action` for `user` in game `id`: a claim's absence is measured here, never taken from
/// the request.
pub async fn act_for(
    hub: &Hub,
    user: &cathedral::play::User,
    id: &str,
    action: Action,
) -> Result<serde_json::Value, Refused> {
    let action = match action {
        Action::ClaimWin { .. } => {
            let view = hub.play.view(id, Some(user)).await?;
            let opponent = view
                .to_move
                .and_then(|seat| view.seats.get(seat))
                .map(|p| p.id.clone())
                .unwrap_or_default();
            let since = view.moves.last().map_or(view.now_ms, |m| m.at_ms);
            Action::ClaimWin {
                away_ms: hub.away_ms(id, &opponent, since),
            }
        }
        other => other,
    };
    hub.play.act(user, id, &action).await?;
    view_json(hub, id, Some(user)).await
}

pub async fn act(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let caller = caller(&hub, &headers).await?;
    check_change(&headers, &caller)?;
    let user = caller.user()?;
    let action: Action = body(raw)?;
    Ok(Json(act_for(&hub, user, &id, action).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamesQuery {
    player: Option<String>,
    opponent: Option<String>,
    over: Option<bool>,
    since_ms: Option<u64>,
    until_ms: Option<u64>,
    limit: Option<usize>,
}

pub async fn games(
    State(hub): State<Arc<Hub>>,
    query: Result<Query<GamesQuery>, axum::extract::rejection::QueryRejection>,
) -> Answer {
    let Query(query) = query.map_err(|e| {
        Refused(
            400,
            format!("the search is not understood: {}", e.body_text()),
        )
    })?;
    let player = match &query.player {
        Some(name) => Some(
            hub.play
                .player(name, "cathedral")
                .await
                .map_err(Refused::from)?
                .0
                .id,
        ),
        None => None,
    };
    let filter = GameFilter {
        player,
        opponent: query.opponent,
        over: query.over,
        since_ms: query.since_ms,
        until_ms: query.until_ms,
        limit: query.limit.unwrap_or(50),
    };
    let games = hub.play.games(&filter).await?;
    Ok(Json(json!({ "games": games })).into_response())
}

pub async fn record(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Answer {
    let text = hub.play.record(&id).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/yaml; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"cathedral-{id}.yaml\""),
            ),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerQuery {
    game: Option<String>,
}

pub async fn player(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
    query: Result<Query<PlayerQuery>, axum::extract::rejection::QueryRejection>,
) -> Answer {
    let Query(query) = query.map_err(|e| Refused(400, e.body_text()))?;
    let game = query.game.unwrap_or_else(|| "cathedral".into());
    hub.play.offered().get(&game).map_err(|e| Refused(404, e))?;
    let (user, rating, history) = hub.play.player(&name, &game).await?;
    Ok(Json(json!({
        "user": user,
        "game": game,
        "rating": rating,
        "provisional": rating.provisional(),
        "history": history,
    }))
    .into_response())
}
