"""Cathedral as a single-agent Gymnasium environment: the agent plays one side, an opponent the
other: the engine at a level of its ladder (:func:`cathedral.ladder`), the greedy or policy
player, a uniformly random legal move, any of them mixed with random moves (``epsilon``), or any
callable (a frozen policy, for self-play).

Observations, actions and rewards are those of the PettingZoo environment
(:mod:`cathedral.aec`) from the agent's side. ``action_masks()`` returns the legal actions, as
sb3-contrib's MaskablePPO asks for them.
"""

from __future__ import annotations

from typing import Any, Callable, Union

import gymnasium as gym
import numpy as np

from ._cathedral import ACTIONS, CathedralError, Position, action_info, bestmove, builtin_move
from ._options import check
from .aec import (
    AGENTS,
    check_options,
    final_reward,
    observation_space,
    observe,
    render_position,
    start_position,
)

SIDES = ("light", "dark", "random")
OPPONENTS = ("engine", "random", "greedy", "policy")
ILLEGAL = ("raise", "lose")

#: A callable opponent: ``(observation, action_mask) -> action``. The observation is the dict of
#: the PettingZoo environment from the opponent's own side; the mask is a boolean array of its
#: legal actions (MaskablePPO's convention); the answer is an int action index.
Opponent = Union[str, Callable[[dict, np.ndarray], Any]]


def _is_integer(value) -> bool:
    # bool is an int subclass, but level=True is a mistake, not level 1.
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def opponent_name(opponent: Opponent) -> str:
    """How errors name an opponent: its string, or the callable's qualified name."""
    if isinstance(opponent, str):
        return repr(opponent)
    return getattr(opponent, "__qualname__", None) or getattr(opponent, "__name__", None) or repr(opponent)


def check_single_options(play_as, opponent, level, nodes, epsilon=0.0) -> None:
    """Raises ``CathedralError`` naming the option and its range for a bad single-agent option.

    Every option is checked, whichever opponent is chosen, so that a typo in an option the
    opponent does not use is still caught.
    """
    if not isinstance(play_as, str) or play_as not in SIDES:
        raise CathedralError(f"play_as={play_as!r}: expected one of {', '.join(SIDES)}")
    if not (isinstance(opponent, str) and opponent in OPPONENTS) and not (
        not isinstance(opponent, str) and callable(opponent)
    ):
        raise CathedralError(
            f"opponent={opponent!r}: expected 'engine', 'greedy', 'policy', 'random' or a callable "
            "(observation, action_mask) -> action"
        )
    if not _is_integer(level) or not 1 <= level <= 10:
        raise CathedralError(f"level={level!r}: expected an integer from 1 (weakest) to 10 (full strength)")
    if not _is_integer(nodes) or not 1 <= nodes <= 10**9:
        raise CathedralError(f"nodes={nodes!r}: expected an integer from 1 to 1000000000")
    if isinstance(epsilon, (bool, np.bool_)) or not isinstance(epsilon, (int, float, np.integer, np.floating)) or not 0.0 <= float(epsilon) <= 1.0:
        raise CathedralError(f"epsilon={epsilon!r}: expected a number from 0 (never) to 1 (always a random move)")


def _checked_answer(opponent, answer, position: Position, mask: np.ndarray) -> int:
    """The callable opponent's answer as an action, or a ``CathedralError`` naming both."""
    if not _is_integer(answer):
        raise CathedralError(
            f"opponent {opponent_name(opponent)} answered {answer!r}: expected an int action index "
            f"from 0 to {ACTIONS - 1}"
        )
    action = int(answer)
    if not 0 <= action < ACTIONS:
        raise CathedralError(
            f"opponent {opponent_name(opponent)} answered action {action}: out of range, expected 0 to {ACTIONS - 1}"
        )
    if not mask[action]:
        kind, cells = action_info(action)
        where = f" on {','.join(cells)}" if cells else ""
        raise CathedralError(
            f"opponent {opponent_name(opponent)} answered action {action} ({kind}{where}), which is not "
            f"legal for {position.to_move} here"
        )
    return action


def opponent_moves(
    position: Position, agent: str, opponent: Opponent, level: int, nodes: int, rng, epsilon: float = 0.0
) -> Position:
    """The position after the opponent of ``agent`` has moved until ``agent`` is to move or the
    game is over. Every draw comes from ``rng`` (the environment's generator), so a seeded run
    repeats: the engine's seed for each move, the random opponent's choice. With ``epsilon``
    above 0, each move is a uniformly random legal one with that chance."""
    while not position.is_over and position.to_move != agent:
        if epsilon > 0.0 and rng.random() < epsilon:
            legal = np.flatnonzero(position.action_mask())
            position = position.play_action(int(legal[rng.integers(len(legal))]))
        elif opponent == "engine":
            seed = int(rng.integers(2**63))
            choice = bestmove(position, nodes=nodes, level=level, seed=seed)
            position = position.after(choice["best_move"])
        elif opponent in ("greedy", "policy"):
            position = position.after(builtin_move(position, opponent, seed=int(rng.integers(2**63))))
        elif opponent == "random":
            # The mask's order is the action order, fixed: the same draw gives the same move.
            legal = np.flatnonzero(position.action_mask())
            position = position.play_action(int(legal[rng.integers(len(legal))]))
        else:
            seen = observe(position, position.to_move)
            mask = seen["action_mask"].astype(bool)
            answer = opponent(seen, mask)
            position = position.play_action(_checked_answer(opponent, answer, position, mask))
    return position


def policy_opponent(predict: Callable, *, deterministic: bool = True, masked: bool = True):
    """A callable opponent from a policy's ``predict``, for self-play against a frozen copy.

    ``predict`` is called as Stable-Baselines3 models are, ``predict(observation,
    action_masks=mask, deterministic=True)`` (``masked=False`` leaves ``action_masks`` out, for
    policies that do not take it), and may return the action alone or ``(action, state)`` as
    SB3 does; the action may be an int or a numpy array of one element. Pass the ``predict`` of
    a model loaded from a checkpoint (``MaskablePPO.load(path).predict``), not of the model
    being trained, so that the opponent stays frozen while the agent learns.
    """
    if not callable(predict):
        raise CathedralError(f"policy_opponent(predict={predict!r}): expected a callable such as model.predict")
    check("deterministic", deterministic, "bool")
    check("masked", masked, "bool")

    def opponent(observation: dict, action_mask: np.ndarray):
        options = {"deterministic": deterministic}
        if masked:
            options["action_masks"] = action_mask
        answer = predict(observation, **options)
        action = answer[0] if isinstance(answer, tuple) else answer
        array = np.asarray(action)
        if array.size == 1 and np.issubdtype(array.dtype, np.integer):
            return int(array.reshape(-1)[0])
        # Anything else goes to the environment's own check, which names it.
        return action

    opponent.__qualname__ = f"policy_opponent({getattr(predict, '__qualname__', repr(predict))})"
    return opponent


class SingleAgentEnv(gym.Env):
    """The agent plays ``play_as`` (``"light"``, ``"dark"`` or ``"random"``: drawn at each reset)
    against ``opponent``:

    - ``"engine"`` (the default): the engine at ``level`` of its ladder (1 weakest to 10 full
      strength; :func:`cathedral.ladder` lists them with their measured Elo). Levels 1 to 9 have
      budgets of their own, which ``nodes`` only caps; level 10 searches ``nodes`` per move. The
      same seed gives the same moves on every machine;
    - ``"greedy"``: its biggest building where it claims the most (between random and level 1
      to 2 in strength), ``"policy"``: the sampling policy (big buildings, claims first, a
      little noise);
    - ``"random"``: a uniformly random legal move, drawn from the environment's generator;
    - a callable ``(observation, action_mask) -> action``, given the observation from its own
      side and its legal actions as booleans (:func:`policy_opponent` makes one from a model's
      ``predict``). An answer that is not an int or not legal raises ``CathedralError``.

    ``epsilon`` (0 to 1, default 0) mixes in random moves: each of the opponent's moves is a
    uniformly random legal one with that chance, whatever the opponent (an epsilon-mixture,
    for opponents between the random player and the others). :class:`cathedral.Curriculum`
    moves ``level`` up as the agent wins.

    ``illegal`` is what an action that is not legal does: ``"raise"`` (the default) raises
    ``IllegalMoveError``; ``"lose"`` ends the game at once, lost by the widest margin (reward
    -47 squares, or -1 with ``reward="wdl"``; ``info["illegal"]`` says why), as Gymnasium's
    ``check_env`` and the registered ids (``cathedral/Cathedral-v0``) expect of an environment
    whose action space is every action.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        rules: str = "classic",
        play_as: str = "light",
        level: int = 10,
        nodes: int = 2000,
        reward: str = "squares",
        render_mode: str | None = None,
        opponent: Opponent = "engine",
        illegal: str = "raise",
        epsilon: float = 0.0,
    ):
        super().__init__()
        check_single_options(play_as, opponent, level, nodes, epsilon)
        if not isinstance(illegal, str) or illegal not in ILLEGAL:
            raise CathedralError(f"illegal={illegal!r}: expected 'raise' or 'lose'")
        self._start = check_options(rules, reward, render_mode, self.metadata["render_modes"])
        self.play_as = play_as
        self.opponent = opponent
        self.level = level
        self.nodes = nodes
        self.epsilon = float(epsilon)
        self.reward_kind = reward
        self.illegal = illegal
        self.render_mode = render_mode
        # Why the game was lost by an illegal action (illegal="lose"), until the next reset.
        self._forfeit: str | None = None
        self.observation_space = observation_space()
        self.action_space = gym.spaces.Discrete(self.observation_space["action_mask"].shape[0])
        self.position = self._start
        self.agent = "light"

    def _opponent_moves(self) -> None:
        self.position = opponent_moves(
            self.position, self.agent, self.opponent, self.level, self.nodes, self.np_random, self.epsilon
        )

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.position = start_position(options, self._start)
        self._forfeit = None
        if self.play_as == "random":
            self.agent = AGENTS[int(self.np_random.integers(2))]
        else:
            self.agent = self.play_as
        self._opponent_moves()
        return observe(self.position, self.agent), {"agent": self.agent}

    def _play(self, action) -> Position:
        """The position after the agent's ``action`` (not yet the opponent's answer)."""
        if self.position.is_over or self._forfeit is not None:
            raise CathedralError("the game is over: call reset()")
        return self.position.play_action(int(action))

    def _forfeited(self, why: str):
        """The step's answer for a game lost by an illegal action (``illegal="lose"``)."""
        self._forfeit = why
        if self.reward_kind == "wdl":
            reward = -1.0
        else:
            # The widest loss: none of the agent's squares placed, all of the opponent's.
            reward = -float(self._start.unplaced()[self.agent])
        opponent = "dark" if self.agent == "light" else "light"
        info = {"agent": self.agent, "result": opponent, "illegal": why}
        return observe(self.position, self.agent), reward, True, False, info

    def _outcome(self) -> tuple[float, bool, dict]:
        over = self.position.is_over
        reward = final_reward(self.position, self.agent, self.reward_kind) if over else 0.0
        info = {"agent": self.agent}
        if over:
            info["result"] = self.position.result
        return reward, over, info

    def step(self, action):
        if self.illegal == "lose" and self._forfeit is None and not self.position.is_over:
            try:
                self.position = self._play(action)
            except CathedralError as error:
                return self._forfeited(str(error))
        else:
            self.position = self._play(action)
        self._opponent_moves()
        reward, over, info = self._outcome()
        if self.render_mode == "human":
            self.render()
        return observe(self.position, self.agent), reward, over, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent, as a boolean array (MaskablePPO's convention)."""
        return observe(self.position, self.agent)["action_mask"].astype(bool)

    def render(self):
        return render_position(self.position, self.render_mode)
