"""Cathedral as a single-agent Gymnasium environment: the agent plays one side, the engine the
other, at a chosen level and node budget.

Observations, actions and rewards are those of the PettingZoo environment
(:mod:`cathedral.aec`) from the agent's side. ``action_masks()`` returns the legal actions, as
sb3-contrib's MaskablePPO asks for them.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from ._cathedral import CathedralError, bestmove
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


class SingleAgentEnv(gym.Env):
    """The agent plays ``play_as`` (``"light"``, ``"dark"`` or ``"random"``: drawn at each reset)
    against the engine at ``level`` (1 weakest to 10 full strength) with a budget of ``nodes``
    per move (the same moves on every machine for the same seed).
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
    ):
        super().__init__()
        if play_as not in SIDES:
            raise CathedralError(f"play_as={play_as!r}: expected one of {', '.join(SIDES)}")
        if not 1 <= level <= 10:
            raise CathedralError(f"level={level}: expected 1 (weakest) to 10 (full strength)")
        if not 1 <= nodes <= 10**9:
            raise CathedralError(f"nodes={nodes}: expected 1 to 1000000000")
        self._start = check_options(rules, reward, render_mode, self.metadata["render_modes"])
        self.play_as = play_as
        self.level = level
        self.nodes = nodes
        self.reward_kind = reward
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = gym.spaces.Discrete(self.observation_space["action_mask"].shape[0])
        self.position = self._start
        self.agent = "light"

    def _engine_moves(self) -> None:
        while not self.position.is_over and self.position.to_move != self.agent:
            seed = int(self.np_random.integers(2**63))
            choice = bestmove(self.position, nodes=self.nodes, level=self.level, seed=seed)
            self.position = self.position.after(choice["best_move"])

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.position = start_position(options, self._start)
        if self.play_as == "random":
            self.agent = AGENTS[int(self.np_random.integers(2))]
        else:
            self.agent = self.play_as
        self._engine_moves()
        return observe(self.position, self.agent), {"agent": self.agent}

    def step(self, action):
        if self.position.is_over:
            raise CathedralError("the game is over: call reset()")
        self.position = self.position.play_action(int(action))
        self._engine_moves()
        over = self.position.is_over
        reward = final_reward(self.position, self.agent, self.reward_kind) if over else 0.0
        info = {"agent": self.agent}
        if over:
            info["result"] = self.position.result
        if self.render_mode == "human":
            self.render()
        return observe(self.position, self.agent), reward, over, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent, as a boolean array (MaskablePPO's convention)."""
        return observe(self.position, self.agent)["action_mask"].astype(bool)

    def render(self):
        return render_position(self.position, self.render_mode)
