//! `cathedral.Position`: one position of either game, immutable, with what every front end
//! offers (moves, playing with explanations, drawings, files) and, for Cathedral, the integer
//! actions and board planes of the reinforcement-learning environment.

use super::actions::{self, Actions};
use super::args::name;
use super::games::{AnyPosition, PythonGame, with_game};
use super::{CathedralError, IllegalMoveError, file_error, to_python};
use crate::boardgame::Game;
use crate::corintho::CorinthoPosition;
use crate::frontend::{Bundled, Loaded, Playable, SvgRequest, TextStyle};
use crate::{MoveList, Piece, Player, Position};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Arc;

fn illegal(text: &str, why: &str) -> PyErr {
    IllegalMoveError::new_err(format!("`{text}` cannot be played here: {why}"))
}

/// Reads a move and checks it is legal.
fn parse<G: Playable>(position: &G, text: &str) -> PyResult<G::Move> {
    if position.is_over() {
        return Err(illegal(text, "the game is over"));
    }
    position
        .parse_move(text)
        .map_err(|why| illegal(text, &why.to_string()))
}

/// The Cathedral position, or an error naming what only Cathedral offers.
fn cathedral(position: &AnyPosition, what: &str) -> PyResult<Position> {
    match position {
        AnyPosition::Cathedral(p) => Ok(*p),
        AnyPosition::Corintho(_) => Err(CathedralError::new_err(format!(
            "{what} is Cathedral's: this is a Corintho position"
        ))),
    }
}

/// A position of Cathedral or Corintho. Immutable: `play` returns a new position.
///
/// `Position()` is the start of a Cathedral game under the classic rules;
/// `Position(rules="moore1978")`, `Position(rules="lehmann-woods")`, `Position(rules="sheets")`
/// (claims at once, as the sheets say) or `Position(rules="capture=optional claims=at-once")`
/// another variant; `Position(game="corintho")` the start of a Corintho game. Files are read by
/// `Position.load(path)` and `Position.from_text(text)`.
#[pyclass(name = "Position", module = "cathedral", frozen)]
#[derive(Clone)]
pub struct PyPosition {
    pub(crate) inner: AnyPosition,
    /// The file's title, for a position read from a file (not part of its identity).
    title: Option<Arc<str>>,
}

impl PyPosition {
    pub(crate) fn of(inner: AnyPosition) -> PyPosition {
        PyPosition { inner, title: None }
    }
}

fn from_loaded<G: PythonGame>(
    loaded: Result<Loaded<G>, crate::file::FileError>,
) -> Result<PyPosition, crate::file::FileError> {
    loaded.map(|l| PyPosition {
        inner: l.position.wrap(),
        title: l.title.map(Arc::from),
    })
}

/// Reads a position file's text of whichever game its `game:` key declares.
pub(crate) fn parse_any(name: &str, text: &str) -> Result<PyPosition, crate::file::FileError> {
    match crate::frontend::declared_game(text).as_deref() {
        None | Some("cathedral") => from_loaded(Position::parse_file(name, text)),
        Some("corintho") => from_loaded(CorinthoPosition::parse_file(name, text)),
        Some(other) => Err(crate::file::FileError::new(
            name,
            format!(
                "`game: {other}` is not a game this module knows: expected one of {}",
                crate::frontend::GAMES.join(", ")
            ),
        )),
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(
        signature = (rules = None, game = String::from("cathedral")),
        text_signature = "(rules=None, game='cathedral')"
    )]
    fn new(
        #[pyo3(from_py_with = name::rules)] rules: Option<String>,
        #[pyo3(from_py_with = name::game)] game: String,
    ) -> PyResult<PyPosition> {
        let inner = match game.as_str() {
            "cathedral" => {
                let words: Vec<&str> = rules
                    .as_deref()
                    .unwrap_or("classic")
                    .split_whitespace()
                    .collect();
                AnyPosition::Cathedral(
                    Position::start_with_rules(&words).map_err(CathedralError::new_err)?,
                )
            }
            "corintho" => {
                if let Some(rules) = rules {
                    return Err(CathedralError::new_err(format!(
                        "rules={rules:?}: a Corintho game takes its rules from its position file (Position.load)"
                    )));
                }
                AnyPosition::Corintho(CorinthoPosition::bundled(Bundled::Start).position)
            }
            other => {
                return Err(CathedralError::new_err(format!(
                    "game={other:?} is not a game this module knows: expected one of {}",
                    crate::frontend::GAMES.join(", ")
                )));
            }
        };
        Ok(PyPosition::of(inner))
    }

    /// Reads a position file's text (YAML; its `game:` key picks the game). `name` labels
    /// errors, which give the line and column.
    #[staticmethod]
    #[pyo3(
        signature = (text, name = String::from("<string>")),
        text_signature = "(text, name='<string>')"
    )]
    fn from_text(
        py: Python<'_>,
        #[pyo3(from_py_with = name::text)] text: String,
        #[pyo3(from_py_with = name::name)] name: String,
    ) -> PyResult<PyPosition> {
        parse_any(&name, &text).map_err(|e| file_error(py, &e))
    }

    /// Reads a position file (at most 1 MiB of UTF-8).
    #[staticmethod]
    fn load(
        py: Python<'_>,
        #[pyo3(from_py_with = name::path)] path: std::path::PathBuf,
    ) -> PyResult<PyPosition> {
        let (name, text) = crate::file::read_file(&path).map_err(|e| file_error(py, &e))?;
        parse_any(&name, &text).map_err(|e| file_error(py, &e))
    }

    /// A bundled position: `"start"`, `"example"` (a middle game to look at) or `"endgame"` (a
    /// position to solve).
    #[staticmethod]
    #[pyo3(
        signature = (which, game = String::from("cathedral")),
        text_signature = "(which, game='cathedral')"
    )]
    fn bundled(
        #[pyo3(from_py_with = name::which)] which: String,
        #[pyo3(from_py_with = name::game)] game: String,
    ) -> PyResult<PyPosition> {
        let which = match which.as_str() {
            "start" => Bundled::Start,
            "example" => Bundled::Example,
            "endgame" => Bundled::Endgame,
            other => {
                return Err(CathedralError::new_err(format!(
                    "bundled({other:?}): expected \"start\", \"example\" or \"endgame\""
                )));
            }
        };
        match game.as_str() {
            "cathedral" => Ok(PyPosition::of(Position::bundled(which).position.wrap())),
            "corintho" => Ok(PyPosition::of(
                CorinthoPosition::bundled(which).position.wrap(),
            )),
            other => Err(CathedralError::new_err(format!(
                "game={other:?} is not a game this module knows: expected one of {}",
                crate::frontend::GAMES.join(", ")
            ))),
        }
    }

    /// The title of the file the position was read from, if it has one.
    #[getter]
    fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The game: `"cathedral"` or `"corintho"`.
    #[getter]
    fn game(&self) -> &'static str {
        with_game!(&self.inner, p => game_name(p))
    }

    /// The side to move as the game names it (`"light"`, `"dark"`; Corintho's players 1 to 4).
    #[getter(to_move)]
    fn mover<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        with_game!(&self.inner, p => to_python(py, &p.side_to_move().0))
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        with_game!(&self.inner, p => p.is_over())
    }

    /// `None` while the game goes on; then the winner (`"light"`, `"dark"`, a Corintho player's
    /// number) or `"draw"`.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        with_game!(&self.inner, p => to_python(py, &p.result()))
    }

    /// The winner once the game is over (`"light"`, `"dark"`, a Corintho player's number);
    /// `None` for a draw or while the game goes on.
    #[getter]
    fn winner<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let result = with_game!(&self.inner, p => p.result());
        let winner = if result == "draw" {
            serde_json::Value::Null
        } else {
            result
        };
        to_python(py, &winner)
    }

    /// The final value from the side to move's view once the game is over (Cathedral: the
    /// opponent's unplaced squares minus the mover's; Corintho: +1, 0, -1), else `None`.
    #[getter]
    fn value(&self) -> Option<i32> {
        with_game!(&self.inner, p => p.is_over().then(|| p.terminal_value()))
    }

    /// Every legal move in the game's notation, in the order `cathedral moves` lists them.
    fn legal_moves(&self) -> Vec<String> {
        with_game!(&self.inner, p => Playable::legal_moves(p).into_iter().map(|m| p.move_text(m)).collect())
    }

    /// The number of legal moves.
    fn count_moves(&self) -> usize {
        with_game!(&self.inner, p => Game::count_moves(p))
    }

    /// Plays a move (in the game's notation) and returns the new position and what the move
    /// did, as `cathedral play --json` reports it (claims, captures, near misses).
    /// Raises `IllegalMoveError` with the reason when the move cannot be played.
    fn play<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = name::text)] text: String,
    ) -> PyResult<(PyPosition, Bound<'py, PyAny>)> {
        with_game!(&self.inner, p => play_explained(py, p, &text))
    }

    /// The position after a move (in the game's notation), without the explanation: faster
    /// than `play`.
    fn after(&self, #[pyo3(from_py_with = name::text)] text: String) -> PyResult<PyPosition> {
        with_game!(&self.inner, p => {
            let mv = parse(p, &text)?;
            let mut next = *p;
            next.play(mv);
            Ok(PyPosition::of(next.wrap()))
        })
    }

    /// The position as data, as `cathedral show --json` prints it.
    fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let title = self.title.as_deref().map(str::to_string);
        with_game!(&self.inner, p => to_python(py, &p.view(title)))
    }

    /// The board drawn as text: ASCII, or (`unicode=True`) with box-drawing lines; `color=True`
    /// adds ANSI colours for a terminal.
    #[pyo3(signature = (unicode = false, color = false))]
    fn text(
        &self,
        #[pyo3(from_py_with = name::unicode)] unicode: bool,
        #[pyo3(from_py_with = name::color)] color: bool,
    ) -> String {
        self.drawn(unicode, color)
    }

    /// The board as an SVG document; `highlight` outlines a legal move, `caption` is a line of
    /// text under the board, `hands` draws what each player has left.
    #[pyo3(signature = (highlight = None, caption = None, hands = false))]
    fn svg(
        &self,
        #[pyo3(from_py_with = name::highlight)] highlight: Option<String>,
        #[pyo3(from_py_with = name::caption)] caption: Option<String>,
        #[pyo3(from_py_with = name::hands)] hands: bool,
    ) -> PyResult<String> {
        with_game!(&self.inner, p => {
            let highlight = highlight.map(|text| parse(p, &text)).transpose()?;
            Ok(p.draw_svg(&SvgRequest { highlight, caption, hands }))
        })
    }

    /// The board as an RGB image, a numpy array of shape (height, width, 3) and dtype uint8,
    /// rendered from the SVG drawing (`scale` times its size in SVG pixels, 0.1 to 8).
    #[pyo3(signature = (scale = 1.0, hands = false))]
    fn rgb<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = name::scale)] scale: f64,
        #[pyo3(from_py_with = name::hands)] hands: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        if !(0.1..=8.0).contains(&scale) {
            return Err(CathedralError::new_err(format!(
                "scale={scale}: expected 0.1 to 8"
            )));
        }
        let svg = with_game!(&self.inner, p => p.draw_svg(&SvgRequest { highlight: None, caption: None, hands }));
        let (width, height, pixels) = py
            .detach(|| super::render::rgb(&svg, scale as f32))
            .map_err(CathedralError::new_err)?;
        let bytes = PyBytes::new(py, &pixels);
        actions::numpy_array(py, &bytes, "uint8", &[height as usize, width as usize, 3])
    }

    /// The position file's text (YAML) for this position.
    #[pyo3(signature = (title = None, source = None))]
    fn file_text(
        &self,
        #[pyo3(from_py_with = name::title)] title: Option<String>,
        #[pyo3(from_py_with = name::source)] source: Option<String>,
    ) -> String {
        self.file(title.as_deref(), source.as_deref())
    }

    /// The position's hash key (the same for equal positions).
    #[getter]
    fn key(&self) -> u128 {
        let (high, low) = with_game!(&self.inner, p => Game::key(p));
        u128::from(high) << 64 | u128::from(low)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyPosition>()
            .is_ok_and(|other| other.get().inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        let (high, low) = with_game!(&self.inner, p => Game::key(p));
        high ^ low.rotate_left(17)
    }

    fn __str__(&self) -> String {
        self.drawn(false, false)
    }

    fn __repr__(&self) -> String {
        with_game!(&self.inner, p => format!(
            "<cathedral.Position {}: {} to move, {} legal moves{}>",
            game_name(p),
            p.side_to_move().1,
            Game::count_moves(p),
            if p.is_over() { ", game over" } else { "" }
        ))
    }

    fn __copy__(&self) -> PyPosition {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.clone()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_text = py.get_type::<PyPosition>().getattr("from_text")?;
        Ok((from_text, (self.file(self.title(), None),)))
    }

    // ---- Cathedral only: the reinforcement-learning view -------------------------------------

    /// Cathedral: the rules as a position file names them (`classic`, `moore1978`,
    /// `lehmann-woods`, `sheets`, or the options).
    #[getter]
    fn rules(&self) -> PyResult<String> {
        let position = cathedral(&self.inner, "rules")?;
        let rules = position.rules();
        Ok(rules
            .preset_name()
            .map_or_else(|| rules.to_string(), str::to_string))
    }

    /// Cathedral: the score, each player's squares not yet on the board (the fewer the
    /// better), `{"light": n, "dark": m}`; the same as `unplaced()`.
    #[getter]
    fn score<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.unplaced(py)
    }

    /// Cathedral: each player's squares not yet on the board, `{"light": n, "dark": m}`.
    fn unplaced<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let position = cathedral(&self.inner, "unplaced")?;
        let map: std::collections::BTreeMap<String, u32> = [Player::Light, Player::Dark]
            .into_iter()
            .map(|player| (player_name(player), position.unplaced_squares(player)))
            .collect();
        to_python(py, &map)
    }

    /// Cathedral: each player's buildings in hand, `{"light": {"tavern": 2, ...}, "dark": ...}`.
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let position = cathedral(&self.inner, "hands")?;
        let map: std::collections::BTreeMap<String, std::collections::BTreeMap<&str, u8>> =
            [Player::Light, Player::Dark]
                .into_iter()
                .map(|player| {
                    let hand = position.side(player).hand;
                    let kinds = Piece::PLAYER_KINDS
                        .into_iter()
                        .map(|piece| (piece.name(), hand.count(piece)))
                        .collect();
                    (player_name(player), kinds)
                })
                .collect();
        to_python(py, &map)
    }

    /// Cathedral: the board planes from `player`'s view (the side to move's by default), a
    /// read-only numpy array of shape (10, 10, 5) and dtype int8: `[rank, file, plane]` with
    /// rank 0 = rank 1 and file 0 = file a; planes 0 the player's buildings, 1 the opponent's, 2
    /// the Cathedral, 3 the player's territory, 4 the opponent's; 1 where the cell is in the
    /// plane.
    #[pyo3(signature = (player = None))]
    fn planes<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = name::player)] player: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let position = cathedral(&self.inner, "planes")?;
        let player = player_arg(&position, player.as_deref())?;
        let bytes = PyBytes::new(py, &actions::planes(&position, player));
        actions::numpy_array(py, &bytes, "int8", &[10, 10, crate::engine::inputs::PLANES])
    }

    /// Cathedral: the buildings in hand from `player`'s view (the side to move's by default), a
    /// numpy array of shape (2, 11) and dtype int8: row 0 the player's, row 1 the opponent's,
    /// columns the kinds in `cathedral.KINDS` order.
    #[pyo3(signature = (player = None))]
    fn hand_counts<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = name::player)] player: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let position = cathedral(&self.inner, "hand_counts")?;
        let player = player_arg(&position, player.as_deref())?;
        let bytes = PyBytes::new(py, &actions::hand_counts(&position, player));
        actions::numpy_array(py, &bytes, "int8", &[2, Piece::PLAYER_KINDS.len()])
    }

    /// Cathedral: the legal moves as actions of the compact action space (see `ACTIONS`).
    fn legal_actions(&self) -> PyResult<Vec<u32>> {
        let position = cathedral(&self.inner, "legal_actions")?;
        let table = Actions::get();
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        list.iter()
            .map(|&mv| table.action_of(&position, mv))
            .collect()
    }

    /// Cathedral: a numpy int8 array of length `ACTIONS`, 1 for each legal action.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let position = cathedral(&self.inner, "action_mask")?;
        let mask = Actions::get().mask(&position)?;
        let bytes = PyBytes::new(py, &mask);
        actions::numpy_array(py, &bytes, "int8", &[mask.len()])
    }

    /// Cathedral: the position after an action of the compact action space. Raises
    /// `IllegalMoveError` for an action that is not legal here.
    fn play_action(
        &self,
        #[pyo3(from_py_with = name::action)] action: i128,
    ) -> PyResult<PyPosition> {
        let position = cathedral(&self.inner, "play_action")?;
        let mv = Actions::get().legal_move(&position, action)?;
        let mut next = position;
        next.play(mv);
        Ok(PyPosition::of(next.wrap()))
    }

    /// Cathedral: the move an action stands for here, in the notation.
    fn action_move(&self, #[pyo3(from_py_with = name::action)] action: i128) -> PyResult<String> {
        let position = cathedral(&self.inner, "action_move")?;
        let mv = Actions::get().legal_move(&position, action)?;
        Ok(crate::notation::format_move(&position, mv))
    }

    /// Cathedral: the action of a legal move given in the notation.
    fn move_action(&self, #[pyo3(from_py_with = name::text)] text: String) -> PyResult<u32> {
        let position = cathedral(&self.inner, "move_action")?;
        let mv = parse(&position, &text)?;
        Actions::get().action_of(&position, mv)
    }
}

/// Plays a move given in notation: the position after it and the explanation as data.
fn play_explained<'py, G: PythonGame>(
    py: Python<'py>,
    position: &G,
    text: &str,
) -> PyResult<(PyPosition, Bound<'py, PyAny>)> {
    let mv = parse(position, text)?;
    let explanation = position.explain(mv);
    let view = to_python(py, &G::explanation_view(&explanation))?;
    Ok((PyPosition::of(G::after(&explanation).wrap()), view))
}

fn game_name<G: Playable>(_: &G) -> &'static str {
    G::NAME
}

/// A Cathedral player named in an argument (`"light"`, `"dark"`), the side to move by default.
fn player_arg(position: &Position, name: Option<&str>) -> PyResult<Player> {
    match name {
        None => Ok(position.to_move()),
        Some("light") => Ok(Player::Light),
        Some("dark") => Ok(Player::Dark),
        Some(other) => Err(CathedralError::new_err(format!(
            "player={other:?}: expected \"light\" or \"dark\""
        ))),
    }
}

pub(crate) fn player_name(player: Player) -> String {
    match player {
        Player::Light => "light",
        Player::Dark => "dark",
    }
    .to_string()
}

impl PyPosition {
    /// The board drawn as text (`text()`, `str()`).
    fn drawn(&self, unicode: bool, color: bool) -> String {
        let style = TextStyle { unicode, color };
        with_game!(&self.inner, p => p.draw_text(style))
    }

    /// The position file's text (`file_text()`, pickling).
    fn file(&self, title: Option<&str>, source: Option<&str>) -> String {
        with_game!(&self.inner, p => p.file_text(title, source))
    }
}

// A position argument (the `Arg` of args.rs), here where the Python class is.
impl<'py> super::args::Arg<'py> for AnyPosition {
    fn expected() -> String {
        "a cathedral.Position".into()
    }
    fn many() -> String {
        "cathedral.Position objects".into()
    }
    fn get(obj: &Bound<'py, PyAny>) -> Result<AnyPosition, String> {
        obj.cast::<PyPosition>()
            .map(|p| p.get().inner)
            .map_err(|_| super::args::type_name(obj))
    }
}
