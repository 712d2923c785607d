"""Cathedral as a PettingZoo AEC environment, on the exact rules engine.

Agents are ``"light"`` and ``"dark"``; whoever is to move acts (Light places the Cathedral
first under the classic rules, and a player who cannot place passes). Each observation is a
dict:

- ``"observation"``: int8 ``(10, 10, 5)``, ``[rank, file, plane]`` from the observing agent's
  view: its buildings, the opponent's, the Cathedral, its territory, the opponent's (1 where the
  cell is in the plane; rank 0 is rank 1, file 0 is file a);
- ``"hands"``: int8 ``(2, 11)``, the buildings in hand, its own row first, columns in
  :data:`cathedral.KINDS` order;
- ``"action_mask"``: int8 ``(ACTIONS,)``, 1 for each legal action of the agent to move (all 0 for
  the other agent).

Actions are :data:`cathedral.ACTIONS` integers, one per distinct placement of a kind of building
whoever owns it (identical buildings share their actions), then the pass
(:data:`cathedral.PASS_ACTION`); :func:`cathedral.action_info` says what an action is. The reward
comes at the end: the final difference of unplaced squares from the agent's view (the
opponent's minus its own; ``reward="wdl"`` gives +1, 0, -1 instead).
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._cathedral import ACTIONS, KINDS, PLANES, CathedralError, Position

AGENTS = ("light", "dark")
REWARDS = ("squares", "wdl")


def observation_space() -> spaces.Dict:
    """The observation space of either agent."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0, 1, (10, 10, PLANES), np.int8),
            "hands": spaces.Box(0, 2, (2, len(KINDS)), np.int8),
            "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
        }
    )


def observe(position: Position, agent: str) -> dict:
    """The observation of ``agent`` in ``position``."""
    if agent == position.to_move and not position.is_over:
        mask = position.action_mask()
    else:
        mask = np.zeros(ACTIONS, np.int8)
    return {
        "observation": position.planes(agent),
        "hands": position.hand_counts(agent),
        "action_mask": mask,
    }


def final_reward(position: Position, agent: str, reward: str) -> float:
    """What ``agent`` gets when the game in ``position`` is over."""
    unplaced = position.unplaced()
    other = "dark" if agent == "light" else "light"
    difference = unplaced[other] - unplaced[agent]
    if reward == "wdl":
        return float(np.sign(difference))
    return float(difference)


def check_options(rules: str, reward: str, render_mode: str | None, modes) -> Position:
    """The start under ``rules`` after checking the options; raises ``CathedralError``."""
    if reward not in REWARDS:
        raise CathedralError(f"reward={reward!r}: expected one of {', '.join(REWARDS)}")
    if render_mode is not None and render_mode not in modes:
        raise CathedralError(
            f"render_mode={render_mode!r}: expected None or one of {', '.join(modes)}"
        )
    start = Position(rules=rules)
    # Under optional capture a placement can be several moves: no action space for it.
    start.action_mask()
    return start


def start_position(options: dict | None, default: Position) -> Position:
    """The position ``reset(options={"position": p})`` asks for, else ``default``; it must be a
    Cathedral position under the environment's rules."""
    start = (options or {}).get("position", default)
    if not isinstance(start, Position) or start.game != "cathedral":
        raise CathedralError("options['position'] must be a Cathedral cathedral.Position")
    if start.rules != default.rules:
        raise CathedralError(
            f"options['position'] is under the rules {start.rules}, the environment under {default.rules}"
        )
    return start


def render_position(position: Position, mode: str | None):
    if mode is None:
        return None
    if mode == "rgb_array":
        return position.rgb()
    text = position.text()
    if mode == "human":
        print(text)
        return None
    return text


class CathedralEnv(AECEnv):
    """Cathedral for two agents, ``"light"`` and ``"dark"`` (see the module's docstring).

    ``rules`` names the variant (``"classic"``, or options such as ``"first-move=no-enclosure"``;
    optional capture has no action space and is refused). ``reset(options={"position": p})``
    starts from a position of your own.
    """

    metadata = {
        "name": "cathedral_v0",
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, rules: str = "classic", render_mode: str | None = None, reward: str = "squares"):
        super().__init__()
        self._start = check_options(rules, reward, render_mode, self.metadata["render_modes"])
        self.rules = rules
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.position = self._start

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Dict:
        return observation_space()

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Discrete:
        return spaces.Discrete(ACTIONS)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        start = start_position(options, self._start)
        self.position = start
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        if start.is_over:
            self._end_game()
        self.agent_selection = start.to_move

    def observe(self, agent: str) -> dict:
        return observe(self.position, agent)

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.position = self.position.play_action(int(action))
        self.rewards = {name: 0.0 for name in self.agents}
        if self.position.is_over:
            self._end_game()
            self.agent_selection = "dark" if agent == "light" else "light"
        else:
            self.agent_selection = self.position.to_move
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_game(self) -> None:
        for name in self.agents:
            self.rewards[name] = final_reward(self.position, name, self.reward_kind)
            self.terminations[name] = True
            self.infos[name] = {"result": self.position.result}

    def render(self):
        return render_position(self.position, self.render_mode)

    def close(self) -> None:
        pass


def raw_env(rules: str = "classic", render_mode: str | None = None, reward: str = "squares") -> CathedralEnv:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return CathedralEnv(rules=rules, render_mode=render_mode, reward=reward)


def env(rules: str = "classic", render_mode: str | None = None, reward: str = "squares"):
    """The environment as PettingZoo's games ship it: wrapped so that misuse (stepping before
    ``reset``) raises a clear error."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules=rules, render_mode=render_mode, reward=reward))
