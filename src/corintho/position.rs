//! A Corintho position: the stacks, each player's sections, the locks of building code 5, and
//! the row claim in progress; its legal moves and how a move changes it.

use super::board::{Board, LINES, Level, Square, Stack};
use super::moves::CorinthoMove;
use super::refusal::{CorinthoMoveError, IllegalCorinthoMove};
use super::rules::{CorinthoRules, Placement};

const NONE: u8 = u8::MAX;

/// The top section's bit of a stack, by the stack's bits (base 1, column 2, capital 4; 0 empty).
const TOP: [u8; 8] = [0, 1, 2, 2, 4, 4, 4, 4];

/// For each platform, the lines of [`LINES`] through it, as bits.
const THROUGH: [u32; 16] = through();

const fn through() -> [u32; 16] {
    let mut out = [0u32; 16];
    let mut i = 0;
    while i < LINES.len() {
        let mut k = 0;
        while k < 3 {
            out[LINES[i][k] as usize] |= 1 << i;
            k += 1;
        }
        i += 1;
    }
    out
}

/// The platforms topped by a base, a column, a capital (bits of [`Square::index`]).
fn top_masks(board: &Board) -> [u16; 3] {
    let mut masks = [0u16; 3];
    for sq in Square::all() {
        let top = TOP[board.get(sq).bits() as usize];
        if top != 0 {
            masks[top.trailing_zeros() as usize] |= 1 << sq.index();
        }
    }
    masks
}

/// Each line of [`LINES`] as a mask of its three platforms.
const LINE_MASK: [u16; 24] = line_masks();

const fn line_masks() -> [u16; 24] {
    let mut out = [0u16; 24];
    let mut i = 0;
    while i < LINES.len() {
        out[i] = 1 << LINES[i][0] | 1 << LINES[i][1] | 1 << LINES[i][2];
        i += 1;
    }
    out
}

/// The square's 8 symmetries (0..8: `s & 4` mirrors the files, then `s & 3` quarter turns):
/// `SYMMETRY[s][i]` is the image of platform `i`. Lines, adjacency and so the rules are the same
/// under each.
pub const SYMMETRY: [[u8; 16]; 8] = symmetries();

const fn symmetries() -> [[u8; 16]; 8] {
    let mut out = [[0u8; 16]; 8];
    let mut s = 0;
    while s < 8 {
        let mut i = 0;
        while i < 16 {
            let (mut f, mut r) = (i % 4, i / 4);
            if s & 4 != 0 {
                f = 3 - f;
            }
            let mut t = 0;
            while t < s & 3 {
                let nf = r;
                r = 3 - f;
                f = nf;
                t += 1;
            }
            out[s][i] = (r * 4 + f) as u8;
            i += 1;
        }
        s += 1;
    }
    out
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Someone is to move.
    Ongoing,
    /// This player (0-based) won.
    Won(u8),
    /// Every player in turn could not move: a draw by exhaustion.
    Drawn,
}

/// A position: copy-make, 64 bytes.
///
/// Invariant of every position reached by legal moves: when rows stand on the board, the player
/// who moved last made them (a claim), and the side to move must modify them: every listed move
/// breaks or extends each of them into a row of four (or, variant `answer: new_row`, breaks
/// all of them or makes a new row); with no such move the claimant has won.
///
/// ```
/// use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules, Outcome};
/// let mut position = CorinthoPosition::new(CorinthoRules::for_players(2).unwrap());
/// assert_eq!(position.legal_moves().len(), 48);
/// for mv in ["C@b1", "K@a4", "C@c2", "B@d1", "C@d3"] {
///     position.play(CorinthoMove::parse(mv).unwrap());
/// }
/// // Three columns on the diagonal b1-d3: nothing can break them and no new row can be made,
/// // so the first player has won.
/// assert_eq!(position.outcome(), Outcome::Won(0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CorinthoPosition {
    board: Board,
    rules: CorinthoRules,
    to_move: u8,
    /// Each player's own sections left, per level.
    supply: [[u8; 3]; 4],
    /// The shared extras left (three players).
    shared: [u8; 3],
    /// Destinations of the last moves, most recent first (`NONE` for a pass); only the first
    /// `rules.locked_moves()` are kept.
    locks: [u8; 3],
    /// Consecutive passes just played.
    passes: u8,
    /// Set when a player left a claimed row standing: the claimant.
    winner: u8,
    /// The rows standing (derived from the board).
    rows: u32,
    /// The platforms topped by a base, a column, a capital (derived from the board).
    tops: [u16; 3],
}

/// A reason a position cannot be built from its parts.
pub type SetupError = String;

impl CorinthoPosition {
    /// The start: an empty foundation, every player's supply full, the first player to move.
    pub fn new(rules: CorinthoRules) -> CorinthoPosition {
        let mut supply = [[0; 3]; 4];
        for s in supply.iter_mut().take(rules.players as usize) {
            *s = rules.start_supply();
        }
        CorinthoPosition {
            board: Board::default(),
            rules,
            to_move: 0,
            supply,
            shared: rules.start_shared(),
            locks: [NONE; 3],
            passes: 0,
            winner: NONE,
            rows: 0,
            tops: [0; 3],
        }
    }

    /// A position from its parts, checked: sections on the board and in the supplies never
    /// exceed the game's, the locked squares hold stacks.
    ///
    /// `locked` is the lock history (building code 5): the destinations of the last moves,
    /// most recent first, `None` for a turn passed, at most `rules.locked_moves()` of them.
    /// The last `passes` turns were passes: where the history does not begin with that many
    /// `None`s they are put in front (so `[d4]` after one pass means the pass came after the
    /// move to d4), and what that pushes past the locks' reach has expired and is dropped.
    pub fn from_parts(
        rules: CorinthoRules,
        board: Board,
        to_move: u8,
        supply: &[[u8; 3]],
        shared: [u8; 3],
        locked: &[Option<Square>],
        passes: u8,
    ) -> Result<CorinthoPosition, SetupError> {
        let n = rules.players as usize;
        if to_move as usize >= n {
            return Err(format!("player {} does not play: 1 to {n}", to_move + 1));
        }
        if supply.len() != n {
            return Err(format!(
                "{} given for {n} players: one per player",
                match supply.len() {
                    1 => "1 supply".to_string(),
                    n => format!("{n} supplies"),
                }
            ));
        }
        let start = rules.start_supply();
        let mut all = [[0; 3]; 4];
        for (p, s) in supply.iter().enumerate() {
            for l in 0..3 {
                if s[l] > start[l] {
                    return Err(format!(
                        "player {} has {} {}s: at most {} with {n} players",
                        p + 1,
                        s[l],
                        Level::ALL[l].name(),
                        start[l]
                    ));
                }
            }
            all[p] = *s;
        }
        let start_shared = rules.start_shared();
        if (0..3).any(|l| shared[l] > start_shared[l]) {
            return Err(format!(
                "the shared extras are at most {start_shared:?} (base, column, capital) with {n} players"
            ));
        }
        let on_board = board.counts();
        let total = rules.total();
        for l in 0..3 {
            let used = on_board[l] as u32
                + all.iter().map(|s| s[l] as u32).sum::<u32>()
                + shared[l] as u32;
            if used > total[l] as u32 {
                return Err(format!(
                    "{used} {}s on the board and in the supplies: the game has {}",
                    Level::ALL[l].name(),
                    total[l]
                ));
            }
        }
        if passes as usize >= n {
            return Err(format!("{passes} passes in a row: the game would be over"));
        }
        // Each pass at the head of the history pushes one older entry past the lock's reach,
        // so a history may name as many more entries as it starts with passes (they lock
        // nothing, but a hand-written history of the last turns is right to list them).
        let leading = locked.iter().take_while(|l| l.is_none()).count();
        let reach = rules.locked_moves() + leading;
        if locked.len() > reach {
            return Err(format!(
                "{}: at most {} with these rules{}",
                crate::present::words::count(locked.len() as i64, "locked platform"),
                reach,
                if leading > 0 {
                    format!(
                        " ({} and one more for each pass before them)",
                        rules.locked_moves()
                    )
                } else {
                    String::new()
                }
            ));
        }
        let history = std::iter::repeat_n(None, (passes as usize).saturating_sub(leading))
            .chain(locked.iter().copied())
            .take(rules.locked_moves());
        let mut locks = [NONE; 3];
        for (i, sq) in history.enumerate() {
            if let Some(sq) = sq {
                if board.get(sq).is_empty() {
                    return Err(format!("the locked platform {sq} is empty"));
                }
                locks[i] = sq.index() as u8;
            }
        }
        Ok(CorinthoPosition {
            board,
            rules,
            to_move,
            supply: all,
            shared,
            locks,
            passes,
            winner: NONE,
            rows: board.rows(rules.base_rows),
            tops: top_masks(&board),
        })
    }

    /// This position with the game won by `player` (0-based): how a file stores a game that
    /// ended by a concession (a claimed row left standing).
    pub fn with_winner(mut self, player: u8) -> CorinthoPosition {
        if player < self.rules.players {
            self.winner = player;
        }
        self
    }

    /// The winner by concession, if the game ended so.
    pub fn conceded_to(&self) -> Option<u8> {
        (self.winner != NONE).then_some(self.winner)
    }

    /// The stacks.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules.
    pub fn rules(&self) -> CorinthoRules {
        self.rules
    }

    /// The player to move, 0-based.
    pub fn to_move(&self) -> u8 {
        self.to_move
    }

    /// The player who moved last, 0-based.
    pub fn previous(&self) -> u8 {
        (self.to_move + self.rules.players - 1) % self.rules.players
    }

    /// A player's own sections left, per level.
    pub fn supply(&self, player: u8) -> [u8; 3] {
        self.supply[player as usize]
    }

    /// The shared extras left.
    pub fn shared(&self) -> [u8; 3] {
        self.shared
    }

    /// Consecutive passes just played.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The rows standing, as bits of [`super::LINES`].
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// The platforms the side to move may neither move nor stack onto (building code 5).
    pub fn locked(&self) -> Vec<Square> {
        self.locks
            .iter()
            .filter(|&&l| l != NONE)
            .filter_map(|&l| Square::new(l as usize))
            .collect()
    }

    /// The destinations of the last `rules.locked_moves()` moves, most recent first (`None` for
    /// a pass or before the first move).
    pub fn lock_history(&self) -> Vec<Option<Square>> {
        self.locks[..self.rules.locked_moves()]
            .iter()
            .map(|&l| Square::new(l as usize))
            .collect()
    }

    fn is_locked(&self, square: usize) -> bool {
        self.locks.contains(&(square as u8))
    }

    /// The player whose rows stand and must be modified now, if any.
    pub fn claimant(&self) -> Option<u8> {
        (self.rows != 0 && self.winner == NONE).then(|| self.previous())
    }

    /// Which level's section the side to move may take from where: its own while it has any,
    /// then (three players) the shared extras.
    fn available(&self) -> [u8; 3] {
        let own = self.supply[self.to_move as usize];
        if own.iter().any(|&n| n > 0) {
            own
        } else {
            self.shared
        }
    }

    /// Every move the rules allow, a claim aside (no pass).
    fn rule_moves(&self, out: &mut Vec<CorinthoMove>) {
        out.clear();
        self.visit_rule_moves(|mv| {
            out.push(mv);
            true
        });
    }

    /// Calls `visit` with every move the rules allow, a claim aside (no pass), in the order of
    /// [`CorinthoPosition::generate`], until it returns false. Whether it stopped early.
    fn visit_rule_moves(&self, mut visit: impl FnMut(CorinthoMove) -> bool) -> bool {
        let available = self.available();
        for level in Level::ALL {
            if available[level as usize] == 0 {
                continue;
            }
            let piece = Stack::single(level);
            for sq in Square::all() {
                let stack = self.board.get(sq);
                let ok = match self.rules.placement {
                    Placement::Free => stack.is_empty(),
                    Placement::Ordered => {
                        if level == Level::Base {
                            stack.is_empty()
                        } else {
                            !self.is_locked(sq.index()) && stack.accepts(piece)
                        }
                    }
                };
                if ok && !visit(CorinthoMove::Place { level, to: sq }) {
                    return true;
                }
            }
        }
        for from in Square::all() {
            let moving = self.board.get(from);
            if moving.is_empty()
                || moving.bottom() == Some(Level::Base)
                || self.is_locked(from.index())
            {
                continue;
            }
            for to in from.neighbours() {
                if !self.is_locked(to.index())
                    && self.board.get(to).accepts(moving)
                    && !visit(CorinthoMove::Stack { from, to })
                {
                    return true;
                }
            }
        }
        false
    }

    /// The top bit of the stack on platform `i` (0 when empty).
    #[expect(
        clippy::expect_used,
        reason = "four bits always name one of the 16 squares"
    )]
    #[inline]
    fn top_at(&self, i: usize) -> u8 {
        TOP[self.board.get(Square::new(i & 15).expect("0..16")).bits() as usize]
    }

    /// The rows standing after the move `mv`, which the rules allow, without playing it: only
    /// the lines through its platforms can change.
    #[inline]
    pub fn rows_after(&self, mv: CorinthoMove) -> u32 {
        let (from, to, top) = match mv {
            CorinthoMove::Place { level, to } => (None, to.index(), level as usize),
            CorinthoMove::Stack { from, to } => (
                Some(from.index()),
                to.index(),
                self.top_at(from.index()).trailing_zeros() as usize,
            ),
            CorinthoMove::Pass => return self.rows,
        };
        let (from_lines, from_bit) = from.map_or((0, 0), |f| (THROUGH[f], 1u16 << f));
        // Lines through the emptied platform are rows no more; those through the destination
        // are rows exactly when their other two platforms carry its new top.
        let mut rows = self.rows & !(from_lines | THROUGH[to]);
        if top == 0 && !self.rules.base_rows {
            return rows;
        }
        let mask = (self.tops[top] & !from_bit) | 1 << to;
        let mut lines = THROUGH[to];
        while lines != 0 {
            let i = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            if mask & LINE_MASK[i] == LINE_MASK[i] {
                rows |= 1 << i;
            }
        }
        rows
    }

    /// Whether the move `mv`, which the rules allow, makes a new row (a claim).
    #[inline]
    pub fn makes_row(&self, mv: CorinthoMove) -> bool {
        let (from, to, top) = match mv {
            CorinthoMove::Place { level, to } => (0u16, to.index(), level as usize),
            CorinthoMove::Stack { from, to } => (
                1 << from.index(),
                to.index(),
                self.top_at(from.index()).trailing_zeros() as usize,
            ),
            CorinthoMove::Pass => return false,
        };
        if top == 0 && !self.rules.base_rows {
            return false;
        }
        let mask = self.tops[top] & !from;
        let mut lines = THROUGH[to];
        while lines != 0 {
            let i = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            let pair = LINE_MASK[i] & !(1 << to);
            if mask & pair == pair {
                return true;
            }
        }
        false
    }

    /// Whether some move the rules allow answers the claimed rows (see
    /// [`CorinthoRules::answers`]): whether [`CorinthoPosition::generate`] lists a move.
    fn can_answer(&self) -> bool {
        let claimed = self.rows;
        let mut extensions = 0u32;
        let mut c = claimed;
        while c != 0 {
            let i = c.trailing_zeros() as usize;
            c &= c - 1;
            extensions |= super::board::EXTENSIONS[i];
        }
        let modify = self.rules.answer == super::rules::Answer::Modify;
        self.visit_rule_moves(|reply| {
            if modify {
                // Under `modify` a reply answers only if it touches a claimed row (to break
                // it) or makes a row on an extension line (to extend it).
                let (from, to) = match reply {
                    CorinthoMove::Place { to, .. } => (None, to.index()),
                    CorinthoMove::Stack { from, to } => (Some(from.index()), to.index()),
                    CorinthoMove::Pass => return true,
                };
                let touched = THROUGH[to] | from.map_or(0, |f| THROUGH[f]);
                if touched & claimed == 0 && THROUGH[to] & extensions == 0 {
                    return true;
                }
            }
            !self.rules.answers(claimed, self.rows_after(reply))
        })
    }

    /// Whether the side to move wins at once: it has a legal move after which the opponent has
    /// none (a claim it cannot modify). Exact: such a move's child is a loss for its mover.
    pub fn wins_at_once(&self) -> bool {
        self.winning_move().is_some()
    }

    /// A random legal move that leaves the opponent no move that wins at once, if there is one
    /// (any legal move otherwise; `None` when there is none): the moves of sampled games, which
    /// would otherwise be decided by their first blunder and prove in no time.
    pub fn sensible_random_move(&self, rng: &mut crate::boardgame::Rng) -> Option<CorinthoMove> {
        let moves = self.legal_moves();
        let safe: Vec<CorinthoMove> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                let mut child = *self;
                child.play(mv);
                !child.wins_at_once()
            })
            .collect();
        let pool = if safe.is_empty() {
            &moves[..]
        } else {
            &safe[..]
        };
        if pool.is_empty() {
            return None;
        }
        pool.get(rng.below(pool.len() as u64) as usize).copied()
    }

    /// The first legal move (in the order of [`CorinthoPosition::generate`]) after which the
    /// opponent has none, a claim it cannot modify: a move that wins at once.
    #[expect(clippy::expect_used, reason = "the bits come from a 16-square mask")]
    pub fn winning_move(&self) -> Option<CorinthoMove> {
        if self.winner != NONE || self.rules.players != 2 {
            return None;
        }
        let facing = self.rows != 0;
        // The platforms where a section of each level would complete a line: a placement makes
        // a row exactly there.
        let mut threats = [0u16; 3];
        for (level, threat) in threats.iter_mut().enumerate() {
            let mask = self.tops[level];
            if level == 0 && !self.rules.base_rows {
                continue;
            }
            for line in LINE_MASK {
                // Two of the line's three platforms (no `count_ones`: the default target has
                // no popcount instruction, and its software version was most of this test).
                let on = mask & line;
                if on != line && on & on.wrapping_sub(1) != 0 {
                    *threat |= line & !mask;
                }
            }
        }
        // A stacking move's destination is not topped by the moved stack's top (it rests on
        // a lower level), so it makes a row only on a platform of that level's threats too.
        if !facing && threats == [0; 3] {
            return None;
        }
        let wins = |mv: CorinthoMove| {
            let mut child = *self;
            child.apply(mv);
            !child.can_answer()
        };
        if !facing && self.rules.placement == Placement::Free {
            // The moves that make a row, straight from the threats, in the order of
            // `visit_rule_moves`: placements on empty threatened platforms, then stacks moved
            // onto a platform threatened for their top.
            let occupied = self.tops[0] | self.tops[1] | self.tops[2];
            let available = self.available();
            for level in Level::ALL {
                if available[level as usize] == 0 {
                    continue;
                }
                let mut squares = threats[level as usize] & !occupied;
                while squares != 0 {
                    let i = squares.trailing_zeros() as usize;
                    squares &= squares - 1;
                    let to = Square::new(i).expect("0..16");
                    let mv = CorinthoMove::Place { level, to };
                    if wins(mv) {
                        return Some(mv);
                    }
                }
            }
            for from in Square::all() {
                let moving = self.board.get(from);
                if moving.is_empty()
                    || moving.bottom() == Some(Level::Base)
                    || self.is_locked(from.index())
                {
                    continue;
                }
                let targets = threats[TOP[moving.bits() as usize].trailing_zeros() as usize];
                if targets == 0 {
                    continue;
                }
                for to in from.neighbours() {
                    let mv = CorinthoMove::Stack { from, to };
                    if targets & 1 << to.index() != 0
                        && !self.is_locked(to.index())
                        && self.board.get(to).accepts(moving)
                        && self.makes_row(mv)
                        && wins(mv)
                    {
                        return Some(mv);
                    }
                }
            }
            return None;
        }
        let mut winning = None;
        self.visit_rule_moves(|mv| {
            // Only a move leaving rows standing can leave the opponent without a move (else a
            // pass is left, or the game is drawn, not won). Not facing a claim, those are the
            // moves that make a row.
            if facing {
                let after = self.rows_after(mv);
                if after == 0 || !self.rules.answers(self.rows, after) {
                    return true;
                }
            } else {
                let claim = match mv {
                    CorinthoMove::Place { level, to } => {
                        threats[level as usize] & 1 << to.index() != 0
                    }
                    CorinthoMove::Stack { from, to } => {
                        let top = self.top_at(from.index()).trailing_zeros() as usize;
                        threats[top] & 1 << to.index() != 0 && self.makes_row(mv)
                    }
                    CorinthoMove::Pass => false,
                };
                if !claim {
                    return true;
                }
            }
            // No reply answers: the claim wins; stop looking.
            if !wins(mv) {
                return true;
            }
            winning = Some(mv);
            false
        });
        winning
    }

    /// Whether `mv` answers the claimed rows (see [`CorinthoRules::answers`]).
    fn modifies(&self, mv: CorinthoMove) -> bool {
        self.rules.answers(self.rows, self.rows_after(mv))
    }

    /// Whether `mv`, which the rules allow, leaves the claimed rows standing and so hands the
    /// claimant the win.
    pub fn concedes(&self, mv: CorinthoMove) -> bool {
        self.rows != 0 && self.winner == NONE && !self.modifies(mv)
    }

    /// Fills `out` with the legal moves: empty exactly when the game is over. While a claim
    /// stands, only the moves that modify it (a move that leaves it standing concedes at once:
    /// the game tree leaves those out).
    pub fn generate(&self, out: &mut Vec<CorinthoMove>) {
        out.clear();
        if self.winner != NONE {
            return;
        }
        self.rule_moves(out);
        if self.rows != 0 {
            out.retain(|&mv| self.modifies(mv));
            return;
        }
        if out.is_empty() && self.passes + 1 < self.rules.players {
            out.push(CorinthoMove::Pass);
        }
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<CorinthoMove> {
        let mut out = Vec::new();
        self.generate(&mut out);
        out
    }

    /// Whether the rules allow `mv` here, or why not (in words). A move that leaves a claimed
    /// row standing is allowed (it concedes the win: see [`CorinthoPosition::concedes`]) though
    /// [`CorinthoPosition::generate`] leaves it out.
    ///
    /// ```
    /// use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules};
    ///
    /// let position = CorinthoPosition::new(CorinthoRules::for_players(2).unwrap());
    /// for mv in position.legal_moves() {
    ///     assert!(position.check(mv).is_ok(), "{mv}");
    /// }
    /// // Nothing stands on the board yet: there is no piece to move.
    /// let refused = position.check(CorinthoMove::parse("b2-c2").unwrap());
    /// assert!(refused.is_err());
    /// println!("{}", refused.unwrap_err());
    /// ```
    pub fn check(&self, mv: CorinthoMove) -> Result<(), IllegalCorinthoMove> {
        if let Outcome::Won(_) | Outcome::Drawn = self.outcome() {
            return Err(IllegalCorinthoMove::GameOver);
        }
        let mut rule = Vec::new();
        self.rule_moves(&mut rule);
        if rule.contains(&mv) {
            return Ok(());
        }
        if mv == CorinthoMove::Pass {
            return if rule.is_empty() {
                Ok(())
            } else {
                Err(IllegalCorinthoMove::PassWithMoves)
            };
        }
        Err(self.why_not(mv))
    }

    /// A written move read and checked against this position: the move, or why it is not one
    /// ([`CorinthoMove::parse`]) or not allowed here ([`CorinthoPosition::check`]).
    pub fn read_move(&self, text: &str) -> Result<CorinthoMove, CorinthoMoveError> {
        let mv = CorinthoMove::parse(text)?;
        self.check(mv)?;
        Ok(mv)
    }

    fn why_not(&self, mv: CorinthoMove) -> IllegalCorinthoMove {
        match mv {
            CorinthoMove::Place { level, to } => {
                let available = self.available();
                if available[level as usize] == 0 {
                    return IllegalCorinthoMove::NoneLeft {
                        player: self.to_move,
                        level,
                    };
                }
                let stack = self.board.get(to);
                match self.rules.placement {
                    Placement::Free => IllegalCorinthoMove::Occupied { to, stack },
                    Placement::Ordered if self.is_locked(to.index()) => {
                        IllegalCorinthoMove::PlaceLocked { to }
                    }
                    Placement::Ordered => IllegalCorinthoMove::PlaceCannotRest { level, stack, to },
                }
            }
            CorinthoMove::Stack { from, to } => {
                let (moving, target) = (self.board.get(from), self.board.get(to));
                if !from.neighbours().any(|n| n == to) {
                    IllegalCorinthoMove::NotNext { from, to }
                } else if moving.is_empty() {
                    IllegalCorinthoMove::NothingToMove { from }
                } else if moving.bottom() == Some(Level::Base) {
                    IllegalCorinthoMove::OnBase { from }
                } else if self.is_locked(from.index()) || self.is_locked(to.index()) {
                    let square = if self.is_locked(from.index()) {
                        from
                    } else {
                        to
                    };
                    IllegalCorinthoMove::StackLocked { square }
                } else if target.is_empty() {
                    IllegalCorinthoMove::OntoEmpty { to }
                } else {
                    IllegalCorinthoMove::CannotRest { moving, target }
                }
            }
            CorinthoMove::Pass => IllegalCorinthoMove::PassWithMoves,
        }
    }

    /// Plays a move the rules allow (see [`CorinthoPosition::check`]).
    pub fn play(&mut self, mv: CorinthoMove) {
        let before = self.rows;
        let claimant = self.claimant();
        self.apply(mv);
        if let Some(claimant) = claimant
            && !self.rules.answers(before, self.rows)
        {
            self.winner = claimant;
        }
    }

    /// Notes the new stack on platform `i` in the top masks.
    #[inline]
    fn set_top(&mut self, i: usize, stack: Stack) {
        for mask in self.tops.iter_mut() {
            *mask &= !(1 << i);
        }
        let top = TOP[stack.bits() as usize];
        if top != 0 {
            self.tops[top.trailing_zeros() as usize] |= 1 << i;
        }
    }

    fn apply(&mut self, mv: CorinthoMove) {
        let rows = self.rows_after(mv);
        let mut destination = NONE;
        match mv {
            CorinthoMove::Place { level, to } => {
                let own = &mut self.supply[self.to_move as usize];
                let pool = if own.iter().any(|&n| n > 0) {
                    own
                } else {
                    &mut self.shared
                };
                pool[level as usize] = pool[level as usize].saturating_sub(1);
                let stack = self.board.get(to).with(Stack::single(level));
                self.board.set(to, stack);
                self.set_top(to.index(), stack);
                destination = to.index() as u8;
                self.passes = 0;
            }
            CorinthoMove::Stack { from, to } => {
                let stack = self.board.get(to).with(self.board.get(from));
                self.board.set(to, stack);
                self.board.set(from, Stack::EMPTY);
                self.set_top(to.index(), stack);
                self.set_top(from.index(), Stack::EMPTY);
                destination = to.index() as u8;
                self.passes = 0;
            }
            CorinthoMove::Pass => self.passes += 1,
        }
        let keep = self.rules.locked_moves();
        self.locks = [destination, self.locks[0], self.locks[1]];
        for lock in self.locks.iter_mut().skip(keep) {
            *lock = NONE;
        }
        debug_assert_eq!(rows, self.board.rows(self.rules.base_rows));
        debug_assert_eq!(self.tops, top_masks(&self.board));
        self.rows = rows;
        self.to_move = (self.to_move + 1) % self.rules.players;
    }

    /// The position under the square's symmetry `s` (see [`SYMMETRY`]): the same game, turned
    /// or mirrored.
    #[expect(
        clippy::expect_used,
        reason = "the symmetry tables map the 16 squares onto themselves"
    )]
    pub fn image(&self, s: usize) -> CorinthoPosition {
        let map = &SYMMETRY[s & 7];
        let mut out = *self;
        for sq in Square::all() {
            let to = Square::new(map[sq.index()] as usize).expect("0..16");
            out.board.set(to, self.board.get(sq));
        }
        for lock in out.locks.iter_mut() {
            if *lock != NONE {
                *lock = map[*lock as usize];
            }
        }
        out.rows = out.board.rows(out.rules.base_rows);
        out.tops = top_masks(&out.board);
        out
    }

    /// The least of the position's 8 images (by the packed board, then the locks): the same for
    /// every image, so positions equal up to symmetry share it. Also the symmetry that gives it.
    #[expect(clippy::expect_used, reason = "from_fn runs over the 16 squares")]
    pub fn canonical(&self) -> (CorinthoPosition, usize) {
        let cells: [u64; 16] =
            std::array::from_fn(|i| self.board.get(Square::new(i).expect("0..16")).bits() as u64);
        let mut best = (u64::MAX, [NONE; 3]);
        let mut best_s = 0;
        for (s, map) in SYMMETRY.iter().enumerate() {
            let mut packed = 0u64;
            for (i, &c) in cells.iter().enumerate() {
                packed |= c << (3 * map[i]);
            }
            if packed > best.0 {
                continue;
            }
            let locks = self
                .locks
                .map(|l| if l == NONE { NONE } else { map[l as usize] });
            if (packed, locks) < best {
                best = (packed, locks);
                best_s = s;
            }
        }
        if best_s == 0 {
            return (*self, 0);
        }
        (self.image(best_s), best_s)
    }

    /// Where the game stands (generates the moves to find out).
    pub fn outcome(&self) -> Outcome {
        if self.winner != NONE {
            return Outcome::Won(self.winner);
        }
        let mut moves = Vec::new();
        self.generate(&mut moves);
        match (moves.is_empty(), self.claimant()) {
            (false, _) => Outcome::Ongoing,
            (true, Some(claimant)) => Outcome::Won(claimant),
            (true, None) => Outcome::Drawn,
        }
    }

    /// 128 bits identifying the position completely.
    pub fn key(&self) -> (u64, u64) {
        let winner = if self.winner == NONE {
            0
        } else {
            self.winner + 1
        };
        let k0 = self.board.packed()
            | (self.to_move as u64) << 48
            | (self.passes as u64) << 50
            | (winner as u64) << 53;
        let mut k1 = 0u64;
        for (p, s) in self.supply.iter().enumerate() {
            for (l, &n) in s.iter().enumerate() {
                k1 |= (n as u64) << (3 * (3 * p + l));
            }
        }
        for (l, &n) in self.shared.iter().enumerate() {
            k1 |= (n as u64) << (36 + 2 * l);
        }
        for (i, &lock) in self.locks.iter().enumerate() {
            let v = if lock == NONE { 0 } else { lock as u64 + 1 };
            k1 |= v << (42 + 5 * i);
        }
        let r = self.rules;
        k1 |= (r.players as u64 - 2) << 57
            | (r.placement as u64) << 59
            | (r.lock as u64) << 60
            | (r.base_rows as u64) << 61
            | (r.answer as u64) << 62;
        (k0, k1)
    }

    /// Number of sections on the board and still to place: a measure that every move but a
    /// pass lowers (a placement adds a stack but uses a section, counted twice; a stacking move
    /// removes a stack), so the game is finite and never repeats a position.
    pub fn potential(&self) -> u32 {
        let stacks = Square::all()
            .filter(|&s| !self.board.get(s).is_empty())
            .count() as u32;
        let supply: u32 = self.supply.iter().flatten().map(|&n| n as u32).sum::<u32>()
            + self.shared.iter().map(|&n| n as u32).sum::<u32>();
        2 * supply + stacks
    }
}
