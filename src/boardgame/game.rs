//! The interface between a game and the search: what the solver needs to know about a game.

/// A two-player, zero-sum, perfect-information game whose final score is a small integer.
///
/// Positions never repeat: the game is acyclic, so a position's value does not depend on the
/// path to it and the solvers share it through their tables.
///
/// Values are always from the side to move's point of view. A move normally hands the turn to the
/// other side (a pass is a move), so a child's value is the negation of its parent's contribution;
/// a move after which the same side moves again ([`Game::keeps_turn`]) contributes its child's
/// value as it is. [`from_child`] and [`child_window`] turn one into the other.
pub trait Game: Copy + Send + Sync {
    /// A move, small and cheap to copy; a pass, where the game has one, is a move too.
    type Move: Copy + PartialEq + Send + Sync + std::fmt::Debug;
    /// A reusable move buffer, one per search ply.
    type Buffer: Default + Send;

    /// Smallest value any position can have; must fit in `i8`.
    const MIN_VALUE: i32;
    /// Largest value any position can have; must fit in `i8`.
    const MAX_VALUE: i32;

    /// A 128-bit key identifying the position completely (everything that decides its future).
    /// Its bits must be well mixed (Zobrist hashing, or an invertible mix of a packed position):
    /// the transposition table takes the bucket from the high bits of the second half, so a
    /// key whose high bits hardly vary puts most positions in a few buckets.
    fn key(&self) -> (u64, u64);

    /// Fills `buffer` with every legal move; empty exactly when the game is over.
    fn generate(&self, buffer: &mut Self::Buffer);

    /// The moves generated last into `buffer`.
    fn moves(buffer: &mut Self::Buffer) -> &mut [Self::Move];

    /// Plays a legal move (copy-make: the caller copies the position first).
    fn play(&mut self, mv: Self::Move);

    /// A cheap guess at [`Game::key`] after the legal move `mv`, used only to start loading the
    /// table's entry early: a wrong guess wastes that load and changes nothing else. `None`:
    /// no guess.
    #[inline]
    fn key_guess(&self, _mv: Self::Move) -> Option<(u64, u64)> {
        None
    }

    /// Whether the side to move moves again after the legal move `mv` (Cathedral under the
    /// Lehmann-Woods opening: Light places the Cathedral and then its first building). The
    /// default: every move hands the turn over.
    #[inline]
    fn keeps_turn(&self, _mv: Self::Move) -> bool {
        false
    }

    /// The final value of a finished game, from the side to move's view.
    fn terminal_value(&self) -> i32;

    /// Whether the game is over: no legal move is left. The default generates the moves; a game
    /// with a cheaper test overrides it.
    fn is_over(&self) -> bool {
        self.count_moves() == 0
    }

    /// The number of legal moves. The default generates them; a game that can count without
    /// generating (perft's last ply) overrides it.
    fn count_moves(&self) -> usize {
        let mut buffer = Self::Buffer::default();
        self.generate(&mut buffer);
        Self::moves(&mut buffer).len()
    }

    /// Bounds `(lower, upper)` that the exact value is proven to lie within.
    fn bounds(&self) -> (i32, i32) {
        (Self::MIN_VALUE, Self::MAX_VALUE)
    }

    /// Bounds as [`Game::bounds`], but they need only be as tight as deciding the window
    /// `(alpha, beta)`: an implementation may skip costly work that provably could neither raise
    /// the lower bound to `beta` nor lower the upper bound to `alpha`. Always true bounds.
    fn window_bounds(&self, _alpha: i32, _beta: i32) -> (i32, i32) {
        self.bounds()
    }

    /// Ordering score of a move: higher is searched earlier. The table's move always goes first.
    fn move_score(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// The exact value if it can be found without search (a solved special case).
    fn solved(&self) -> Option<i32> {
        None
    }

    /// Initial proof and disproof numbers of an unexplored position for proof-number search
    /// ([`crate::boardgame::ProofSearch`]): how many leaves a proof that the side to move
    /// reaches its target, and a disproof, are guessed to need (a position with many replies
    /// is hard to disprove, one with a threat easy to prove). Only the order of the search
    /// depends on them. The default: 1 and 1.
    fn proof_numbers(&self) -> (u32, u32) {
        (1, 1)
    }

    /// Packs a move into 31 bits for the transposition table.
    fn encode(mv: Self::Move) -> u32;

    /// The inverse of [`Game::encode`].
    fn decode(code: u32) -> Self::Move;
}

/// The value of a child for its parent: negated, unless the mover kept the turn.
#[inline]
pub fn from_child(keeps_turn: bool, value: i32) -> i32 {
    if keeps_turn { value } else { -value }
}

/// The window `(alpha, beta)` of a parent as its child must be searched: negated and swapped,
/// unless the mover kept the turn.
#[inline]
pub fn child_window(keeps_turn: bool, alpha: i32, beta: i32) -> (i32, i32) {
    if keeps_turn {
        (alpha, beta)
    } else {
        (-beta, -alpha)
    }
}
