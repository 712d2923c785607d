//! `cathedral bot`: the engine as a bot on a play server (`serve --play`, docs/play.md): it
//! signs in (registering the bot the first time), opens the socket, accepts the challenges
//! addressed to it (and open ones with `--accept-open`) or challenges a player itself, and
//! moves whenever a game it plays is its turn. What it does is what any program may do through
//! the socket API; this is the engine's client of it.

use super::shared::exit::{Exit, Failure};
use super::shared::limits;
use cathedral::arena::{Budget, BuiltIn, MatchGame};
use cathedral::boardgame::{Clock, Rng};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[derive(clap::Args, Debug)]
pub struct BotArgs {
    /// The play server's address: http://HOST:PORT.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The bot's name (3 to 20 letters, digits, - and _); registered the first time.
    #[arg(long)]
    pub name: String,
    /// The bot's password (8 or more characters); CATHEDRAL_BOT_PASSWORD when not given.
    #[arg(long)]
    pub password: Option<String>,
    /// The engine's level: 1 (weakest) to 10 (full strength), the ladder's levels.
    #[arg(long, default_value = "5", value_parser = limits::level)]
    pub level: u8,
    /// Think this many nodes a move (the same moves on any machine) instead of sharing out the
    /// game's clock.
    #[arg(long, value_name = "N", value_parser = limits::budget)]
    pub nodes: Option<u64>,
    /// Challenge this player instead of waiting to be challenged (again after each match,
    /// until --games are played).
    #[arg(long, value_name = "NAME")]
    pub challenge: Option<String>,
    /// The game of the bot's own challenges.
    #[arg(long, value_enum, default_value = "cathedral")]
    pub game: super::GameName,
    /// The rules of its challenges (the game's default when not given).
    #[arg(long)]
    pub rules: Option<String>,
    /// The clock of its challenges: minutes+seconds (5+3) or days (2d).
    #[arg(long, default_value = "2+1", value_name = "CLOCK")]
    pub time: String,
    /// Its challenges are rated.
    #[arg(long)]
    pub rated: bool,
    /// Its challenges are single games instead of matches of two.
    #[arg(long)]
    pub single: bool,
    /// Also accept open challenges (seeks) of games the bot plays.
    #[arg(long)]
    pub accept_open: bool,
    /// Stop once this many games have ended (0: play until stopped).
    #[arg(long, default_value = "0", value_name = "N")]
    pub games: usize,
}

fn failure(message: String) -> miette::Report {
    Failure::new(Exit::Failure, message).into()
}

/// `host:port` of an `http://` address.
fn authority(server: &str) -> miette::Result<String> {
    let rest = server.strip_prefix("http://").ok_or_else(|| {
        failure(format!(
            "`{server}` is not a play server's address: expected http://HOST:PORT (the bot speaks plain HTTP; run it beside the server or behind a local proxy)"
        ))
    })?;
    let authority = rest.trim_end_matches('/');
    if authority.is_empty() || authority.contains('/') {
        return Err(failure(format!("`{server}` is not http://HOST:PORT")));
    }
    Ok(if authority.contains(':') {
        authority.to_string()
    } else {
        format!("{authority}:80")
    })
}

/// One JSON request over plain HTTP/1.1 (std's socket, as `cathedral health`): the status and
/// the body as JSON.
fn http_json(authority: &str, path: &str, body: &Value) -> miette::Result<(u16, Value)> {
    use std::io::{Read, Write};
    let unreachable =
        |e: std::io::Error| failure(format!("no play server at http://{authority}/: {e}"));
    let mut stream = std::net::TcpStream::connect(authority).map_err(unreachable)?;
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let text = body.to_string();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    )
    .map_err(unreachable)?;
    let mut answer = Vec::new();
    stream
        .take(1 << 20)
        .read_to_end(&mut answer)
        .map_err(unreachable)?;
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .lines()
        .next()
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let value = serde_json::from_str(body.trim()).unwrap_or(Value::Null);
    Ok((status, value))
}

/// Signs the bot in, registering it first if the name is free: its bearer token.
fn sign_in(authority: &str, name: &str, password: &str) -> miette::Result<String> {
    let credentials = json!({ "name": name, "password": password });
    let (status, answer) = http_json(authority, "/play/api/bots/login", &credentials)?;
    let (status, answer) = if status == 401 {
        let (registered, created) = http_json(authority, "/play/api/bots", &credentials)?;
        if registered == 200 {
            (registered, created)
        } else {
            // The name exists (a wrong password) or cannot be a name: say what the server said.
            (
                status,
                if created["error"].is_string() {
                    created
                } else {
                    answer
                },
            )
        }
    } else {
        (status, answer)
    };
    match answer["token"].as_str() {
        Some(token) if status == 200 => Ok(token.to_string()),
        _ => Err(failure(format!(
            "the play server refused the bot `{name}`: {}",
            answer["error"].as_str().unwrap_or("no answer")
        ))),
    }
}

/// The engine's move in a game of `G` under `rules` after `moves`.
fn engine_move<G: MatchGame>(
    rules: &str,
    moves: &[String],
    level: u8,
    budget: Budget,
    seed: u64,
) -> Result<String, String> {
    let rules = G::match_rules(rules)?;
    let mut position = G::start_under(rules);
    for text in moves {
        let mv = position
            .parse_move(text)
            .map_err(|e| format!("the server's move `{text}`: {e}"))?;
        position.play(mv);
    }
    let mut rng = Rng::new(seed);
    let kind = BuiltIn::engine(level);
    G::plays(&kind)?;
    let chosen = position
        .builtin_move(&kind, budget, 16, &mut rng, seed)
        .or_else(|| {
            let legal = position.legal_moves();
            (!legal.is_empty()).then(|| legal[rng.below(legal.len() as u64) as usize])
        });
    chosen
        .map(|mv| position.move_text(mv))
        .ok_or_else(|| "no legal move".to_string())
}

/// What the bot's move should spend: its clock, a fixed number of nodes, or (correspondence) a
/// few seconds.
fn budget(view: &Value, seat: usize, nodes: Option<u64>) -> Budget {
    if let Some(nodes) = nodes {
        return Budget::Nodes(nodes);
    }
    let time = &view["spec"]["time"];
    let left = view["clocks_ms"][seat].as_u64().unwrap_or(10_000);
    match time["kind"].as_str() {
        Some("live") => Budget::Clock(Clock::new(
            // A margin for the round trip, so that the clock the server keeps does not fall
            // while the move travels.
            Duration::from_millis(left.saturating_sub(300).max(50)),
            Duration::from_millis(time["increment_ms"].as_u64().unwrap_or(0)),
        )),
        _ => Budget::Time(Duration::from_secs(3)),
    }
}

fn choose(view: &Value, level: u8, nodes: Option<u64>) -> Result<String, String> {
    let seat = view["you"].as_u64().unwrap_or(0) as usize;
    let rules = view["spec"]["rules"].as_str().unwrap_or_default();
    let moves: Vec<String> = view["moves"]
        .as_array()
        .map(|moves| {
            moves
                .iter()
                .filter_map(|m| m["text"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let seed = moves.len() as u64 ^ 0x5eed;
    let budget = budget(view, seat, nodes);
    match view["spec"]["variant"].as_str() {
        Some("cathedral") => engine_move::<cathedral::Position>(rules, &moves, level, budget, seed),
        Some("corintho") => {
            engine_move::<cathedral::corintho::CorinthoPosition>(rules, &moves, level, budget, seed)
        }
        other => Err(format!("the bot does not play {other:?}")),
    }
}

fn game_name(game: super::GameName) -> &'static str {
    match game {
        super::GameName::Cathedral => "cathedral",
        super::GameName::Corintho => "corintho",
    }
}

pub fn run(args: &BotArgs) -> miette::Result<()> {
    let authority = authority(&args.server)?;
    let password = match &args.password {
        Some(password) => password.clone(),
        None => std::env::var("CATHEDRAL_BOT_PASSWORD").map_err(|_| {
            failure("the bot needs a password: --password or CATHEDRAL_BOT_PASSWORD".into())
        })?,
    };
    let token = sign_in(&authority, &args.name, &password)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| failure(format!("cannot start: {e}")))?;
    runtime.block_on(play(args, &authority, &token))
}

async fn play(args: &BotArgs, authority: &str, token: &str) -> miette::Result<()> {
    let mut request = format!("ws://{authority}/play/socket")
        .into_client_request()
        .map_err(|e| failure(e.to_string()))?;
    if let Ok(value) = format!("Bearer {token}").parse() {
        request.headers_mut().insert("Authorization", value);
    }
    let (socket, _) = tokio_tungstenite::connect_async(request)
        .await
        .map_err(|e| {
            failure(format!(
                "cannot open the play socket at ws://{authority}/play/socket: {e}"
            ))
        })?;
    let (mut sender, mut receiver) = socket.split();
    let (moves_out, mut moves_in) = tokio::sync::mpsc::unbounded_channel::<Value>();
    let mut ticker = tokio::time::interval(Duration::from_millis(500));
    let mut reference = 0u64;
    let mut next = |value: Value| {
        reference += 1;
        let mut value = value;
        value["ref"] = json!(reference);
        Message::Text(value.to_string().into())
    };
    let mut watched: HashSet<String> = HashSet::new();
    let mut finished: HashSet<String> = HashSet::new();
    let mut thinking: HashMap<String, u64> = HashMap::new();
    let mut in_play: HashSet<String> = HashSet::new();
    let mut waiting_for_answer = false;
    let mut out = std::io::stdout();
    let say = |out: &mut std::io::Stdout, line: String| {
        use std::io::Write;
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    say(
        &mut out,
        format!(
            "bot {} (level {}) on http://{authority}/play",
            args.name, args.level
        ),
    );
    loop {
        if args.games > 0 && finished.len() >= args.games {
            break;
        }
        tokio::select! {
            _ = ticker.tick() => {
                if !in_play.is_empty() || waiting_for_answer {
                    continue;
                }
                let message = match &args.challenge {
                    Some(opponent) => json!({"type": "challenge", "request": {
                        "game": game_name(args.game), "rules": args.rules, "time": args.time,
                        "rated": args.rated, "two_games": !args.single, "to": opponent,
                    }}),
                    None => json!({"type": "challenges"}),
                };
                waiting_for_answer = true;
                if sender.send(next(message)).await.is_err() {
                    break;
                }
            }
            chosen = moves_in.recv() => {
                let Some(mut action) = chosen else { continue };
                if let Some(challenge) = action.get("challenge").and_then(Value::as_str).map(str::to_string) {
                    // Our challenge was accepted: watch its game.
                    in_play.remove(&format!("challenge:{challenge}"));
                    if let Some(object) = action.as_object_mut() {
                        object.remove("challenge");
                    }
                    let game = action["game"].as_str().unwrap_or_default().to_string();
                    if !watched.insert(game.clone()) {
                        continue;
                    }
                    in_play.insert(game);
                }
                if sender.send(next(action)).await.is_err() {
                    break;
                }
            }
            message = receiver.next() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text.to_string(),
                    Some(Ok(Message::Close(_))) | None => return Err(failure("the play server closed the socket".into())),
                    Some(Err(e)) => return Err(failure(format!("the play socket failed: {e}"))),
                    Some(Ok(_)) => continue,
                };
                let Ok(message) = serde_json::from_str::<Value>(&text) else { continue };
                match message["type"].as_str() {
                    Some("done") if message["challenges"].is_array() => {
                        waiting_for_answer = false;
                        let me = &args.name;
                        let acceptable = message["challenges"].as_array().into_iter().flatten().find(|c| {
                            let to_me = c["to"].is_string() && c["from"].as_str() != Some(me);
                            let open = args.accept_open && c["open"] == json!(true) && c["from"].as_str() != Some(me);
                            let plays = matches!(c["spec"]["variant"].as_str(), Some("cathedral" | "corintho"));
                            (to_me || open) && plays
                        });
                        if let Some(challenge) = acceptable {
                            waiting_for_answer = true;
                            let id = challenge["id"].as_str().unwrap_or_default();
                            if sender.send(next(json!({"type": "answer", "challenge": id, "verb": "accept"}))).await.is_err() {
                                break;
                            }
                        }
                    }
                    Some("done") if message["game"].is_string() && message["status"].is_null() && !message["ref"].is_null() && message.get("challenge").is_none() => {
                        // An accepted challenge's first game, or an action done.
                        waiting_for_answer = false;
                        let game = message["game"].as_str().unwrap_or_default().to_string();
                        if watched.insert(game.clone()) {
                            in_play.insert(game.clone());
                            if sender.send(next(json!({"type": "watch", "game": game}))).await.is_err() {
                                break;
                            }
                        }
                    }
                    Some("done") if message["challenge"].is_object() => {
                        // Our challenge waits: look for its game at each tick.
                        let id = message["challenge"]["id"].as_str().unwrap_or_default().to_string();
                        say(&mut out, format!("challenged {}: {}", args.challenge.as_deref().unwrap_or("?"), id));
                        in_play.insert(format!("challenge:{id}"));
                        let authority = authority.to_string();
                        let token = token.to_string();
                        let found = moves_out.clone();
                        // Polled over HTTP beside the socket until it is accepted.
                        tokio::task::spawn_blocking(move || {
                            for _ in 0..1200 {
                                std::thread::sleep(Duration::from_millis(250));
                                if let Ok(Some(game)) = challenge_game(&authority, &token, &id) {
                                    let _ = found.send(json!({"type": "watch", "game": game, "challenge": id}));
                                    return;
                                }
                            }
                        });
                    }
                    Some("done") => {}
                    Some("game") => {
                        let view = &message["game"];
                        let id = view["id"].as_str().unwrap_or_default().to_string();
                        if view["ending"].is_object() {
                            in_play.remove(&id);
                            if finished.insert(id.clone()) {
                                say(&mut out, format!("game {id}: {}", view["result_text"].as_str().unwrap_or("over")));
                            }
                            // The match's next game, once it starts.
                            for next_game in view["in_match"]["games"].as_array().into_iter().flatten() {
                                if let Some(next_id) = next_game.as_str()
                                    && watched.insert(next_id.to_string())
                                {
                                    in_play.insert(next_id.to_string());
                                    if sender.send(next(json!({"type": "watch", "game": next_id}))).await.is_err() {
                                        break;
                                    }
                                }
                            }
                            waiting_for_answer = false;
                            continue;
                        }
                        in_play.insert(id.clone());
                        let events = view["events"].as_u64().unwrap_or(0);
                        let my_turn = view["you"].is_u64() && view["you"] == view["to_move"];
                        if my_turn && thinking.get(&id) != Some(&events) {
                            thinking.insert(id.clone(), events);
                            let view = view.clone();
                            let (level, nodes) = (args.level, args.nodes);
                            let send = moves_out.clone();
                            tokio::task::spawn_blocking(move || {
                                let ply = view["moves"].as_array().map_or(0, Vec::len);
                                let action = match choose(&view, level, nodes) {
                                    Ok(text) => json!({"action": "move", "text": text, "ply": ply}),
                                    Err(why) => {
                                        eprintln!("bot: no move in game {}: {why}; resigning", view["id"]);
                                        json!({"action": "resign"})
                                    }
                                };
                                let _ = send.send(json!({"type": "act", "game": view["id"], "action": action}));
                            });
                        }
                    }
                    Some("refused") => {
                        waiting_for_answer = false;
                        eprintln!("bot: refused: {}", message["error"].as_str().unwrap_or("?"));
                        if message["ref"].is_null() {
                            continue;
                        }
                        // Refused while the game moved on: ask for it again and think afresh.
                        if let Some(game) = message["game"].as_str() {
                            thinking.remove(game);
                            if sender.send(next(json!({"type": "watch", "game": game}))).await.is_err() {
                                break;
                            }
                        } else if args.challenge.is_some() {
                            return Err(failure(format!("the challenge was refused: {}", message["error"].as_str().unwrap_or("?"))));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let _ = sender.send(Message::Close(None)).await;
    say(
        &mut out,
        format!("bot {}: {} games played", args.name, finished.len()),
    );
    Ok(())
}

/// The game a challenge started, once accepted (`GET /play/api/challenges/ID`).
fn challenge_game(authority: &str, token: &str, id: &str) -> miette::Result<Option<String>> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(authority).map_err(|e| failure(e.to_string()))?;
    write!(
        stream,
        "GET /play/api/challenges/{id} HTTP/1.1\r\nHost: {authority}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| failure(e.to_string()))?;
    let mut answer = String::new();
    stream
        .take(1 << 20)
        .read_to_string(&mut answer)
        .map_err(|e| failure(e.to_string()))?;
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let value: Value = serde_json::from_str(body.trim()).unwrap_or(Value::Null);
    if value["status"] == json!("declined") || value["status"] == json!("cancelled") {
        return Err(failure(format!(
            "the challenge {id} was {}",
            value["status"]
        )));
    }
    Ok(value["game"].as_str().map(str::to_string))
}
