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
- :func:`solve` (exact values, proven) and :func:`bestmove` (the engine's choice, exact when the
  solver proves it, an estimate otherwise, labelled) return what ``--json`` prints.
- :class:`Record`, :func:`read_records`, :func:`parse_records`, :func:`records_text`: game
  records.
- :func:`env` / :class:`CathedralEnv`: a PettingZoo AEC environment;
  :class:`SingleAgentEnv`: a Gymnasium environment against the engine, a random player or a
  callable (:func:`policy_opponent` wraps a frozen policy for self-play);
  :class:`SingleAgentVecEnv` (:mod:`cathedral.vec`): many of those games behind
  Stable-Baselines3's ``VecEnv`` interface; :class:`Batch`: many games stepped by one call, with
  the observations as stacked numpy arrays, for training loops.
- :func:`play_pair`, :func:`play_game`, :func:`match_summary`, :class:`Sprt`: engine matches one pair at a time,
  exactly as ``cathedral match`` plays and counts them.
- :mod:`cathedral.distributed`: exact solves split into Ray tasks across a cluster, and matches
  played as Ray tasks (``pip install "./python[distributed]"``).

The guide is ``docs/python.md`` in the repository.
"""

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
    bestmove,
    match_summary,
    parse_records,
    play_game,
    play_pair,
    player_name,
    read_records,
    records_text,
    solve,
)

__all__ = [
    "ACTIONS",
    "GAMES",
    "KINDS",
    "PASS_ACTION",
    "PLANES",
    "Batch",
    "CathedralEnv",
    "CathedralError",
    "FileFormatError",
    "IllegalMoveError",
    "Pair",
    "Position",
    "Record",
    "SingleAgentEnv",
    "SingleAgentVecEnv",
    "Sprt",
    "action_info",
    "bestmove",
    "env",
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
]


def __getattr__(name):
    # The environments import PettingZoo and Gymnasium: only when they are asked for, so that
    # `import cathedral` stays light for solving and analysis.
    if name in ("CathedralEnv", "env", "raw_env"):
        from . import aec

        return getattr(aec, name)
    if name in ("SingleAgentEnv", "policy_opponent"):
        from . import single

        return getattr(single, name)
    if name == "SingleAgentVecEnv":
        from .vec import SingleAgentVecEnv

        return SingleAgentVecEnv
    raise AttributeError(f"module 'cathedral' has no attribute {name!r}")
