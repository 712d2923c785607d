"""Type stubs of the Rust extension (``src/python/`` in the repository)."""

from os import PathLike
from typing import Any, Literal, Optional, Union

import numpy as np
import numpy.typing as npt

#: The games the module plays.
__version__: str
GAMES: list[str]
#: Number of actions of Cathedral's compact action space (the pass included).
ACTIONS: int
#: The pass's action (the last).
PASS_ACTION: int
#: Board planes of an observation.
PLANES: int
#: The kinds of building in the order of the hand counts' columns.
KINDS: list[str]

class CathedralError(ValueError):
    """Bad input: the message says what was expected."""

class IllegalMoveError(CathedralError):
    """A move or action that cannot be played in the position; the message says why."""

class FileFormatError(CathedralError):
    """A file that cannot be read; the message, ``path``, ``line`` and ``column`` locate it."""

    path: str
    line: Optional[int]
    column: Optional[int]
    reason: str

Player = Union[str, int]

class Position:
    """A position of Cathedral or Corintho, immutable: ``play`` returns a new one.

    ``Position()`` is the start of a Cathedral game under the classic rules; ``rules`` names
    another variant (``"moore1978"``, ``"capture=optional pass=voluntary"``);
    ``Position(game="corintho")`` is the start of a Corintho game.
    """

    def __init__(self, rules: Optional[str] = None, game: Literal["cathedral", "corintho"] = "cathedral") -> None: ...
    @staticmethod
    def from_text(text: str, name: str = "<string>") -> Position:
        """Reads a position file's text (YAML; its ``game:`` key picks the game)."""
    @staticmethod
    def load(path: Union[str, PathLike[str]]) -> Position:
        """Reads a position file."""
    @staticmethod
    def bundled(which: Literal["start", "example", "endgame"], game: Literal["cathedral", "corintho"] = "cathedral") -> Position:
        """A bundled position: the start, a middle game to look at, an endgame to solve."""
    @property
    def game(self) -> str: ...
    @property
    def to_move(self) -> Player:
        """``"light"``/``"dark"``; Corintho's players 1 to 4."""
    @property
    def is_over(self) -> bool: ...
    @property
    def result(self) -> Optional[Player]:
        """``None`` while the game goes on; the winner, or ``"draw"``."""
    @property
    def winner(self) -> Optional[Player]:
        """The winner once the game is over; ``None`` for a draw or while it goes on."""
    @property
    def score(self) -> dict[str, int]:
        """Cathedral: each player's unplaced squares (the fewer the better)."""
    @property
    def value(self) -> Optional[int]:
        """The final value from the side to move's view once the game is over."""
    @property
    def key(self) -> int: ...
    @property
    def rules(self) -> str:
        """Cathedral: the rules' name (``classic``) or options."""
    def legal_moves(self) -> list[str]: ...
    def count_moves(self) -> int: ...
    def play(self, move: str) -> tuple[Position, dict[str, Any]]:
        """The position after ``move`` and what it did (as ``cathedral play --json``)."""
    def after(self, move: str) -> Position:
        """The position after ``move``, without the explanation (faster)."""
    def view(self) -> dict[str, Any]:
        """The position as data (as ``cathedral show --json``)."""
    def text(self, unicode: bool = False, color: bool = False) -> str: ...
    def svg(self, highlight: Optional[str] = None, caption: Optional[str] = None, hands: bool = False) -> str: ...
    def rgb(self, scale: float = 1.0, hands: bool = False) -> npt.NDArray[np.uint8]:
        """The drawing as an RGB image of shape (height, width, 3)."""
    def file_text(self, title: Optional[str] = None, source: Optional[str] = None) -> str: ...
    def unplaced(self) -> dict[str, int]:
        """Cathedral: each player's squares not on the board."""
    def hands(self) -> dict[str, dict[str, int]]:
        """Cathedral: each player's buildings in hand by kind."""
    def planes(self, player: Optional[str] = None) -> npt.NDArray[np.int8]:
        """Cathedral: the (10, 10, 5) board planes from ``player``'s view (the mover's by default)."""
    def hand_counts(self, player: Optional[str] = None) -> npt.NDArray[np.int8]:
        """Cathedral: the (2, 11) buildings in hand, ``player``'s row first."""
    def legal_actions(self) -> list[int]: ...
    def action_mask(self) -> npt.NDArray[np.int8]: ...
    def play_action(self, action: int) -> Position: ...
    def action_move(self, action: int) -> str: ...
    def move_action(self, move: str) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Record:
    """One recorded game: its start, its moves, who played and what was said."""

    def __init__(self, start: Position, moves: Optional[list[str]] = None) -> None: ...
    @property
    def game(self) -> str: ...
    @property
    def start(self) -> Position: ...
    @property
    def end(self) -> Position: ...
    @property
    def moves(self) -> list[str]: ...
    @property
    def meta(self) -> dict[str, Any]: ...
    @property
    def comments(self) -> list[Optional[str]]: ...
    @property
    def comment(self) -> Optional[str]: ...
    def positions(self) -> list[Position]: ...
    def heading(self, number: int = 1) -> str: ...
    def extended(self, moves: list[str]) -> Record: ...
    def text(self) -> str: ...
    def __len__(self) -> int: ...

class Batch:
    """``n`` Cathedral games stepped together, each restarted when it ends."""

    def __init__(self, n: int, rules: str = "classic") -> None: ...
    def __len__(self) -> int: ...
    def observe(self) -> dict[str, npt.NDArray[np.int8]]:
        """``observation`` (n, 10, 10, 5), ``hands`` (n, 2, 11), ``action_mask`` (n, ACTIONS),
        ``to_move`` (n,): 0 Light, 1 Dark; each from its side to move's view."""
    def step(self, actions: Union[list[int], npt.NDArray[np.integer]]) -> tuple[list[float], list[bool]]:
        """One action per game: the final reward for the mover of each game that ended (then
        restarted), and which ended."""
    def position(self, i: int) -> Position: ...
    def reset(self, position: Optional[Position] = None) -> None: ...

def analyse(
    record: Record,
    *,
    nodes_per_move: Optional[int] = None,
    time_per_move: float = 1.0,
    threads: int = 0,
    tt_mb: int = 32,
    single_stage: bool = False,
    recheck_factor: Optional[int] = None,
    recheck_from: Optional[float] = None,
    recheck_unstable: Optional[float] = None,
    recheck_turns: Optional[float] = None,
) -> dict[str, Any]:
    """The whole-game review, as ``cathedral analyse --json`` reports it: each move's loss,
    exact or estimate, its mark and notes, the turning points and each player's summary."""

def solve(
    position: Position,
    *,
    time: Optional[float] = None,
    nodes: Optional[int] = None,
    threads: int = 1,
    tt_mb: int = 256,
    root_values: bool = True,
    wdl: bool = False,
    window: Optional[tuple[int, int]] = None,
    method: str = "auto",
) -> dict[str, Any]:
    """The exact solve, as ``cathedral solve --json`` reports it; ``method`` is ``"auto"``,
    ``"alpha-beta"`` or ``"proof-number"``."""

def bestmove(
    position: Position,
    *,
    time: float = 1.0,
    nodes: Optional[int] = None,
    threads: int = 1,
    level: int = 10,
    seed: int = 0,
    tt_mb: int = 64,
    candidates: int = 1,
    book: str = "bundled",
) -> dict[str, Any]:
    """The engine's move, as ``cathedral bestmove --json`` reports it."""

def builtin_move(position: Position, player: Literal["greedy", "policy", "random"], *, seed: int = 0) -> Optional[str]:
    """The move of a built-in player without a search; ``None`` when the game is over."""

def ladder() -> list[dict[str, Any]]:
    """The engine's ladder of levels, weakest first, with each level's measured Elo."""

def read_records(path: Union[str, PathLike[str]]) -> list[Record]: ...
def parse_records(text: str, name: str = "<string>") -> list[Record]: ...
def records_text(records: list[Record]) -> str: ...
def action_info(action: int) -> tuple[str, list[str]]:
    """What an action is: ``(kind, cells)``, or ``("pass", [])``."""

class Pair:
    """A pair of match games with colours swapped (picklable)."""
    @property
    def pair(self) -> int: ...
    @property
    def game(self) -> str: ...
    @property
    def a_squares(self) -> int: ...
    @property
    def b_squares(self) -> int: ...
    @property
    def a_half_points(self) -> int: ...
    @property
    def a_score(self) -> float: ...
    def to_dict(self) -> dict[str, Any]: ...
    def records_text(self) -> str: ...

class Sprt:
    """The sequential probability ratio test of ``cathedral match --sprt``."""
    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> None: ...
    def add_pair(self, half_points: int) -> None: ...
    @property
    def verdict(self) -> str: ...
    @property
    def pairs(self) -> int: ...
    @property
    def llr(self) -> float: ...
    def text(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

def play_pair(
    a: str,
    b: str,
    pair: int,
    *,
    game: str = "cathedral",
    rules: str = "classic",
    seed: int = 1,
    opening_plies: int = 2,
    opening: Optional[list[str]] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    clock: Optional[tuple[float, float]] = None,
    tt_mb: int = 16,
) -> Pair: ...
def play_game(
    first: str,
    second: str,
    *,
    pair: int = 1,
    game_number: int = 1,
    game: str = "cathedral",
    rules: str = "classic",
    seed: int = 1,
    opening_plies: int = 2,
    opening: Optional[list[str]] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    clock: Optional[tuple[float, float]] = None,
    tt_mb: int = 16,
) -> dict[str, Any]: ...
def match_summary(a: str, b: str, pairs: list[Pair]) -> dict[str, Any]: ...
def player_name(
    spec: str,
    *,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    clock: Optional[tuple[float, float]] = None,
) -> str: ...
