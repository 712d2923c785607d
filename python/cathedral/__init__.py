"""Cathedral's exact rules engine, solver and playing engine, from Python.

The work is done by the Rust library (the same code as the ``cathedral`` command line); this
package hands its data to Python::

    >>> import cathedral
    >>> start = cathedral.Position()                    # classic rules, the Cathedral to place
    >>> after, what = start.play(start.legal_moves()[0])
    >>> cathedral.solve(cathedral.Position.bundled("endgame"))["value"]   # doctest: +SKIP

- :class:`Position`: positions of Cathedral and Corintho, their legal moves, playing with the
  explanation of each move (claims, captures, near misses), drawings (text, SVG, RGB), files;
  for Cathedral the integer actions and the board planes of the learning environment.
- :func:`analyse` reviews a recorded game as ``cathedral analyse --json`` does (the same marks
  for the same game and budget as the command line and the board).
- :func:`solve` (exact values, proven) and :func:`bestmove` (the engine's choice, exact when the
  solver proves it, an estimate otherwise, labelled) return what ``--json`` prints.
- :class:`Record`, :func:`read_records`, :func:`parse_records`, :func:`records_text`: game
  records.
- :func:`env` / :class:`CathedralEnv`: a PettingZoo AEC environment;
  :class:`SingleAgentEnv`: a Gymnasium environment against the engine, a random player or a
  callable (:func:`policy_opponent` wraps a frozen policy for self-play);
  :func:`ladder` lists the engine's levels with their measured Elo, :func:`builtin_move` plays
  the greedy and policy players, and :class:`Curriculum` moves an agent's opponent up the
  ladder as it wins; :class:`SingleAgentVecEnv` (:mod:`cathedral.vec`): many of those games behind
  Stable-Baselines3's ``VecEnv`` interface; :class:`Batch`: many games stepped by one call, with
  the observations as stacked numpy arrays, for training loops.
- :func:`play_pair`, :func:`play_game`, :func:`match_summary`, :class:`Sprt`: engine matches one pair at a time,
  exactly as ``cathedral match`` plays and counts them.
- :mod:`cathedral.distributed`: exact solves split into Ray tasks across a cluster, and matches
  played as Ray tasks (``pip install "./python[distributed]"``).
- Gymnasium ids, registered once Gymnasium is imported (before or after this package):
  ``gymnasium.make("cathedral/Cathedral-v0")`` is :class:`SingleAgentEnv` against the engine,
  ``"cathedral/CathedralRandom-v0"`` against a random player (see :data:`GYMNASIUM_IDS`).

The guide is ``docs/python.md`` in the repository.
"""

import sys

try:
    from ._cathedral import (
        ACTIONS,
        GAMES,
        KINDS,
        PASS_ACTION,
        PLANES,
        Batch,
        CathedralError,
        FileFormatError,
        IllegalMoveError,
        Pair,
        Position,
        Record,
        Sprt,
        action_info,
        analyse,
        bestmove,
        builtin_move,
        ladder,
        match_summary,
        parse_records,
        play_game,
        play_pair,
        player_name,
        read_records,
        records_text,
        solve,
        __version__,
    )
except ModuleNotFoundError as missing:
    if missing.name != f"{__name__}._cathedral":
        raise
    raise ModuleNotFoundError(
        f"{missing.name} (the compiled extension) is not in {__path__[0]}: this is the package's "
        "source folder, found first because Python is running in python/ or PYTHONPATH names it. "
        "Run from another folder to import the installed package (pip install ./python), or build "
        "the extension into the source folder with `cd python && maturin develop`",
        name=missing.name,
    ) from None

__all__ = [
    "ACTIONS",
    "GAMES",
    "KINDS",
    "PASS_ACTION",
    "PLANES",
    "Batch",
    "CathedralEnv",
    "CathedralError",
    "GYMNASIUM_IDS",
    "FileFormatError",
    "IllegalMoveError",
    "Pair",
    "Position",
    "Record",
    "SingleAgentEnv",
    "SingleAgentVecEnv",
    "Sprt",
    "action_info",
    "analyse",
    "bestmove",
    "builtin_move",
    "Curriculum",
    "env",
    "ladder",
    "match_summary",
    "parse_records",
    "play_game",
    "play_pair",
    "policy_opponent",
    "player_name",
    "raw_env",
    "read_records",
    "records_text",
    "solve",
    "__version__",
]

#: The Gymnasium ids of :class:`SingleAgentEnv`, with their options (``gymnasium.make`` takes
#: others as keywords: ``gymnasium.make("cathedral/Cathedral-v0", level=3, nodes=500)``). An
#: action that is not legal loses the game (``illegal="lose"``) rather than raising, as
#: Gymnasium asks of an environment whose action space is every action.
GYMNASIUM_IDS = {
    "cathedral/Cathedral-v0": {"opponent": "engine", "illegal": "lose"},
    "cathedral/CathedralRandom-v0": {"opponent": "random", "illegal": "lose"},
}


def _register(gymnasium) -> None:
    """Registers :data:`GYMNASIUM_IDS` with Gymnasium (once)."""
    for env_id, kwargs in GYMNASIUM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="cathedral.single:SingleAgentEnv", kwargs=dict(kwargs))


class _RegisterAfterGymnasium:
    """A finder on ``sys.meta_path`` that registers the ids as soon as Gymnasium is imported,
    so that ``import cathedral`` does not import Gymnasium (a second or more under load) and
    the ids are there whichever of the two is imported first. It steps aside after that one
    import; without Gymnasium installed it never acts."""

    def find_spec(self, name, path=None, target=None):
        if name != "gymnasium":
            return None
        sys.meta_path.remove(self)
        import importlib.util

        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            _register(module)

        spec.loader.exec_module = exec_module
        return spec


if "gymnasium" in sys.modules:
    _register(sys.modules["gymnasium"])
elif not any(isinstance(finder, _RegisterAfterGymnasium) for finder in sys.meta_path):
    sys.meta_path.insert(0, _RegisterAfterGymnasium())


def __getattr__(name):
    # The environments import PettingZoo and Gymnasium: only when they are asked for, so that
    # `import cathedral` stays light for solving and analysis.
    if name in ("CathedralEnv", "env", "raw_env"):
        from . import aec

        return getattr(aec, name)
    if name in ("SingleAgentEnv", "policy_opponent"):
        from . import single

        return getattr(single, name)
    if name == "Curriculum":
        from .curriculum import Curriculum

        return Curriculum
    if name == "SingleAgentVecEnv":
        from .vec import SingleAgentVecEnv

        return SingleAgentVecEnv
    raise AttributeError(f"module 'cathedral' has no attribute {name!r}")
