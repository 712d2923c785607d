"""A vectorised single-agent environment with Stable-Baselines3's ``VecEnv`` interface.

:class:`SingleAgentVecEnv` holds ``num_envs`` games, each the setting of
:class:`cathedral.SingleAgentEnv` (the agent plays one side against the engine, a random
opponent or a callable), and steps them all with one call, as SB3 and sb3-contrib's
MaskablePPO expect: ``reset()`` returns the stacked observations, ``step_wait()`` returns
``(observations, rewards, dones, infos)`` with each finished game restarted at once and its last
observation in ``infos[i]["terminal_observation"]``, and ``action_masks()`` returns an
``(num_envs, ACTIONS)`` boolean array.

It subclasses ``stable_baselines3.common.vec_env.VecEnv`` when SB3 can be imported, and
otherwise a base class of its own with the same methods, so the package never requires SB3 (nor
the torch it brings).

Game ``i`` is seeded as ``SingleAgentEnv`` is by ``reset(seed=s + i)`` after ``seed(s)`` (SB3's
convention), and makes the same draws in the same order, so it plays exactly the games of a
``SingleAgentEnv`` reset with that seed and given the same actions, with the engine as well as
with the random opponent (``tests/python/test_env.py`` checks it move by move).

Why the games are not held in a :class:`cathedral.Batch`: ``Batch.step`` plays one ply in
*every* game, and ``Batch.reset`` restarts every game from one position. Here the games do not
stay in step: after the agent's moves, a game that just ended and restarted with the agent to
move needs no opponent move while the others need one, and under ``play_as="random"`` a
restarted game may need the opponent to move first. Stepping a chosen subset of the games, or
setting one game's position, would let the games live in a ``Batch``; until it offers one of
them, each game is a :class:`SingleAgentEnv` stepped directly (no wrappers, observations written
into preallocated arrays), and the engine's moves, which run without the GIL, are searched in a
thread pool, one game per thread.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from ._cathedral import CathedralError, IllegalMoveError
from .aec import observe
from .single import Opponent, SingleAgentEnv, check_single_options

try:  # SB3 is optional: its VecEnv when it is there (isinstance checks in SB3 need it).
    from stable_baselines3.common.vec_env import VecEnv as _Base

    HAVE_SB3 = True
except ImportError:
    HAVE_SB3 = False

    class _Base:
        """The methods of SB3's ``VecEnv`` that do not depend on the games, for when SB3 is not
        installed (the same names and behaviour, so code written for SB3 runs on it)."""

        def __init__(self, num_envs: int, observation_space, action_space):
            self.num_envs = num_envs
            self.observation_space = observation_space
            self.action_space = action_space
            self.reset_infos: list[dict[str, Any]] = [{} for _ in range(num_envs)]
            self._seeds: list[Optional[int]] = [None for _ in range(num_envs)]
            self.render_mode = self.get_attr("render_mode")[0]
            self.metadata = {"render_modes": [] if self.render_mode is None else [self.render_mode]}

        def _reset_seeds(self) -> None:
            self._seeds = [None for _ in range(self.num_envs)]

        def step(self, actions):
            self.step_async(actions)
            return self.step_wait()

        def seed(self, seed: Optional[int] = None) -> Sequence[Optional[int]]:
            if seed is None:
                seed = int(np.random.randint(0, 2**32 - 1))
            self._seeds = [seed + i for i in range(self.num_envs)]
            return self._seeds

        @property
        def unwrapped(self):
            return self

        def getattr_depth_check(self, name: str, already_found: bool) -> Optional[str]:
            if hasattr(self, name) and already_found:
                return f"{type(self).__module__}.{type(self).__name__}"
            return None

        def _get_indices(self, indices) -> Iterable[int]:
            if indices is None:
                return range(self.num_envs)
            if isinstance(indices, int):
                return [indices]
            return indices

        def render(self, mode: Optional[str] = None):
            if self.render_mode is None:
                return None
            if self.render_mode == "rgb_array":
                return _tile(self.get_images())
            self.env_method("render")
            return None


def _tile(images: Sequence[np.ndarray]) -> np.ndarray:
    """The images in a near-square grid (SB3's ``tile_images``), for ``render()`` without SB3."""
    images = np.asarray(images)
    n, height, width, channels = images.shape
    rows = int(np.ceil(np.sqrt(n)))
    columns = int(np.ceil(n / rows))
    grid = np.zeros((rows * columns, height, width, channels), images.dtype)
    grid[:n] = images
    grid = grid.reshape(rows, columns, height, width, channels).transpose(0, 2, 1, 3, 4)
    return grid.reshape(rows * height, columns * width, channels)


class SingleAgentVecEnv(_Base):
    """``num_envs`` games of :class:`cathedral.SingleAgentEnv` (same options, same meaning),
    stepped together with SB3's ``VecEnv`` interface (see the module's docstring).

    ``threads`` is how many engine searches run at once (default: the machine's cores, at most
    ``num_envs``); it changes nothing but the speed. Only the engine opponent uses it: a random
    opponent is cheaper than a thread's hand-off, and a callable may not be thread-safe.
    """

    def __init__(
        self,
        num_envs: int = 8,
        rules: str = "classic",
        play_as: str = "light",
        level: int = 10,
        nodes: int = 2000,
        reward: str = "squares",
        render_mode: str | None = None,
        opponent: Opponent = "engine",
        threads: int | None = None,
        epsilon: float = 0.0,
    ):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or not 1 <= num_envs <= 65536:
            raise CathedralError(f"num_envs={num_envs!r}: expected an integer from 1 to 65536")
        if threads is not None and (
            isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= 256
        ):
            raise CathedralError(f"threads={threads!r}: expected None (the machine's cores) or 1 to 256")
        check_single_options(play_as, opponent, level, nodes, epsilon)
        self.envs = [
            SingleAgentEnv(rules=rules, play_as=play_as, level=level, nodes=nodes, reward=reward,
                           render_mode=render_mode, opponent=opponent, epsilon=epsilon)
            for _ in range(int(num_envs))
        ]
        first = self.envs[0]
        self._options: list[dict] = [{} for _ in self.envs]
        self._actions: Optional[np.ndarray] = None
        self._started = False
        if threads is None:
            threads = min(int(num_envs), os.cpu_count() or 1)
        self._pool = ThreadPoolExecutor(threads) if opponent == "engine" and threads > 1 else None
        super().__init__(int(num_envs), first.observation_space, first.action_space)
        spaces = first.observation_space.spaces
        self._keys = list(spaces)
        self._obs = {key: np.zeros((self.num_envs, *spaces[key].shape), spaces[key].dtype) for key in self._keys}

    # The observations, written in place and copied out, as SB3's DummyVecEnv does.

    def _save(self, i: int, observation: dict) -> None:
        for key in self._keys:
            self._obs[key][i] = observation[key]

    def _observations(self) -> dict[str, np.ndarray]:
        return {key: array.copy() for key, array in self._obs.items()}

    def reset(self):
        """Restarts every game: with the seeds given by :meth:`seed` (once), and the options
        given by :meth:`set_options` (``{"position": p}`` to start from ``p``)."""
        for i, env in enumerate(self.envs):
            observation, self.reset_infos[i] = env.reset(seed=self._seeds[i], options=self._options[i] or None)
            if env.position.is_over:
                raise CathedralError(f"env {i}: the start position's game is over; expected a game to play")
            self._save(i, observation)
        self._reset_seeds()
        self._started = True
        return self._observations()

    def set_options(self, options: dict | list[dict] | None = None) -> None:
        """Options for every game's next resets (one dict, or one per game), as SB3's
        ``VecEnv.set_options``; they stay until changed, so that auto-resets use them too."""
        if options is None:
            options = {}
        if isinstance(options, dict):
            options = [dict(options) for _ in self.envs]
        if len(options) != self.num_envs:
            raise CathedralError(f"set_options: {len(options)} dicts for {self.num_envs} envs; expected one per env")
        self._options = list(options)

    def step_async(self, actions) -> None:
        actions = np.asarray(actions).reshape(-1)
        if actions.shape[0] != self.num_envs:
            raise CathedralError(f"{actions.shape[0]} actions for {self.num_envs} envs: expected one per env")
        if not np.issubdtype(actions.dtype, np.integer):
            raise CathedralError(f"actions of dtype {actions.dtype}: expected integer action indices")
        self._actions = actions

    def _finish(self, i: int) -> tuple[float, bool, dict, dict]:
        """Game ``i`` after the agent's move: the opponent's answer, the outcome, and a restart
        (with the opponent's first moves) if the game ended."""
        env = self.envs[i]
        env._opponent_moves()
        reward, over, info = env._outcome()
        observation = observe(env.position, env.agent)
        info["TimeLimit.truncated"] = False
        if over:
            info["terminal_observation"] = observation
            observation, self.reset_infos[i] = env.reset(options=self._options[i] or None)
        return reward, over, info, observation

    def step_wait(self):
        if not self._started:
            raise CathedralError("step before reset(): call reset() first")
        if self._actions is None:
            raise CathedralError("step_wait() without step_async(actions)")
        actions, self._actions = self._actions, None
        # Every agent move is checked before any game moves, so a bad action leaves all as they were.
        played = []
        for i, (env, action) in enumerate(zip(self.envs, actions)):
            try:
                played.append(env._play(int(action)))
            except IllegalMoveError as error:
                raise IllegalMoveError(f"env {i}: {error}") from None
            except CathedralError as error:
                raise CathedralError(f"env {i}: {error}") from None
        for env, position in zip(self.envs, played):
            env.position = position
        if self._pool is not None:
            results = list(self._pool.map(self._finish, range(self.num_envs)))
        else:
            results = [self._finish(i) for i in range(self.num_envs)]
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, bool)
        infos = []
        for i, (reward, over, info, observation) in enumerate(results):
            rewards[i], dones[i] = reward, over
            infos.append(info)
            self._save(i, observation)
        if self.render_mode == "human":
            self.env_method("render")
        return self._observations(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """``(num_envs, ACTIONS)`` booleans: each game's legal actions for the agent (MaskablePPO's
        convention; ``env_method("action_masks")`` gives the same rows)."""
        return self._obs["action_mask"].astype(bool)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        for env in self.envs:
            env.close()

    def get_images(self) -> Sequence[Optional[np.ndarray]]:
        if self.render_mode != "rgb_array":
            return [None for _ in self.envs]
        return [env.render() for env in self.envs]

    def _targets(self, indices) -> list[SingleAgentEnv]:
        return [self.envs[i] for i in self._get_indices(indices)]

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(env, attr_name) for env in self._targets(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        for env in self._targets(indices):
            setattr(env, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        return [getattr(env, method_name)(*method_args, **method_kwargs) for env in self._targets(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        # The games are bare SingleAgentEnv instances: never wrapped.
        return [False for _ in self._targets(indices)]

