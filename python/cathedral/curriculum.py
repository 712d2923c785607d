"""A curriculum up the engine's ladder of levels: the agent's opponent moves one level up each time
the agent scores well enough against the current one.

The ladder (:func:`cathedral.ladder`) has ten levels of measured strength, from a beginner that
misses captures to full strength; the greedy player sits near levels 1 and 2. Training against
one fixed level either learns nothing (too strong) or stops learning (too weak):
:class:`Curriculum` keeps the opponent just above the agent.

It needs no RL library: feed it each finished game, from the ``info`` dicts the environments
return (:meth:`Curriculum.update`) or as scores (:meth:`Curriculum.record`), and it sets the
level of the environments it was given. With Stable-Baselines3, call ``update(infos)`` from a
callback's ``_on_step`` (``self.locals["infos"]``); ``docs/python.md`` has the full run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from ._cathedral import CathedralError


@dataclass
class Promotion:
    """One step up: after ``games`` games in all, the agent scored ``score`` over the last
    ``window`` games against ``level`` mixed with ``epsilon`` random moves, and moved on."""

    games: int
    level: int
    epsilon: float
    score: float


def _number(name: str, value, low: float, high: float, integer: bool = False):
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or not low <= value <= high:
        what = "an integer" if integer else "a number"
        bounds = f"{low} to {high}" if integer else f"{low:g} to {high:g}"
        raise CathedralError(f"{name}={value!r}: expected {what} from {bounds}")
    return value


@dataclass
class Curriculum:
    """Moves the opponent from level ``start`` up to ``top`` of the ladder: once the agent has
    scored at least ``promote`` (a win 1, a draw a half, a loss 0) over its last ``window``
    games at a stage, the opponent goes one stage up, and the count starts again.

    The first stages are level ``start`` mixed with random moves, at each chance of
    ``epsilons`` in turn (default 0.75, 0.5, 0.25: a quarter of the opponent's moves its own,
    then half, then three quarters), so that an agent that begins at random has an opponent
    it can beat; then level ``start`` itself, and each level above it up to ``top``.
    ``epsilons=()`` starts at level ``start`` at once.

    ``envs`` (a :class:`cathedral.SingleAgentEnv`, a :class:`cathedral.SingleAgentVecEnv`, or a
    list of them) get each new stage's ``level`` and ``epsilon``: ``set_attr`` on a vector
    environment, the attributes of ``env.unwrapped`` on a single one. Their opponent must be
    ``"engine"``.
    """

    envs: Any = None
    start: int = 1
    top: int = 10
    promote: float = 0.6
    window: int = 100
    epsilons: tuple = (0.75, 0.5, 0.25)
    level: int = field(init=False)
    epsilon: float = field(init=False, default=0.0)
    games: int = field(init=False, default=0)
    promotions: list = field(init=False, default_factory=list)
    _recent: list = field(init=False, default_factory=list, repr=False)

    def __post_init__(self):
        _number("start", self.start, 1, 10, integer=True)
        _number("top", self.top, self.start, 10, integer=True)
        _number("promote", self.promote, 0.0, 1.0)
        _number("window", self.window, 1, 10**6, integer=True)
        if isinstance(self.epsilons, (str, bytes)) or not hasattr(self.epsilons, "__iter__"):
            raise CathedralError(f"epsilons={self.epsilons!r}: expected a sequence of numbers from 0 to 1")
        self.epsilons = tuple(self.epsilons)
        for value in self.epsilons:
            _number("epsilons", value, 0.0, 1.0)
        # Every stage: the warm-up mixtures, then each level alone.
        self._stages = [(self.start, float(e)) for e in self.epsilons]
        self._stages += [(level, 0.0) for level in range(self.start, self.top + 1)]
        self._stage = 0
        self.level, self.epsilon = self._stages[0]
        for env in self._targets():
            opponent = getattr(getattr(env, "unwrapped", env), "opponent", None)
            if hasattr(env, "get_attr"):
                opponent = env.get_attr("opponent")[0]
            if opponent != "engine":
                raise CathedralError(
                    f"envs={env!r}: a curriculum moves the engine's level; this environment's opponent is {opponent!r}, expected 'engine'"
                )
        self._apply()

    def _targets(self) -> list:
        if self.envs is None:
            return []
        if isinstance(self.envs, (list, tuple)):
            return list(self.envs)
        return [self.envs]

    def _apply(self) -> None:
        for env in self._targets():
            for name, value in (("level", self.level), ("epsilon", self.epsilon)):
                if hasattr(env, "set_attr"):
                    env.set_attr(name, value)
                else:
                    setattr(getattr(env, "unwrapped", env), name, value)

    def record(self, score: float) -> bool:
        """Counts one finished game scored ``score`` (1 won, 0.5 drawn, 0 lost); returns whether
        the opponent moved up."""
        if isinstance(score, bool) or score not in (0, 0.5, 1):
            raise CathedralError(f"score={score!r}: expected 1 (won), 0.5 (drawn) or 0 (lost)")
        self.games += 1
        self._recent.append(float(score))
        if len(self._recent) > self.window:
            self._recent.pop(0)
        if self._stage + 1 < len(self._stages) and len(self._recent) == self.window:
            mean = sum(self._recent) / self.window
            if mean >= self.promote:
                self.promotions.append(Promotion(self.games, self.level, self.epsilon, mean))
                self._stage += 1
                self.level, self.epsilon = self._stages[self._stage]
                self._recent.clear()
                self._apply()
                return True
        return False

    def update(self, infos: Iterable[Optional[dict]]) -> bool:
        """Counts the games that ended in a step, from the ``info`` dicts of the environments (one
        dict, or a vector environment's list): those with ``"result"``, scored from their
        ``"agent"``'s side. Returns whether the opponent moved up."""
        if isinstance(infos, dict):
            infos = [infos]
        moved = False
        for info in infos:
            if not info or "result" not in info:
                continue
            result, agent = info["result"], info.get("agent")
            score = 0.5 if result in ("draw", None) else (1.0 if result == agent else 0.0)
            moved |= self.record(score)
        return moved

    @property
    def recent_score(self) -> Optional[float]:
        """The agent's mean score over the games counted at this level so far (at most
        ``window``), or ``None`` before the first."""
        return sum(self._recent) / len(self._recent) if self._recent else None
