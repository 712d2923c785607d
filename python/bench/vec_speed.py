"""Steps per second of ``cathedral.SingleAgentVecEnv`` beside Gymnasium's ``SyncVectorEnv``
and ``AsyncVectorEnv`` of ``cathedral.SingleAgentEnv``, with a random agent.

    python python/bench/vec_speed.py --envs 8 --rounds 3

Every vectorised environment holds ``--envs`` games of the same setting: the agent plays Light
against the random opponent (``--random-steps`` steps of all games), and then against the
engine at level 1 (``--nodes`` per move, ``--engine-steps`` steps). The agent draws a uniformly
random legal action from each game's mask. Gymnasium's vector environments restart a finished
game in the same step (``AutoresetMode.SAME_STEP``), as SB3's ``VecEnv`` does, so every step
is an agent move in every game. All are seeded alike (game ``i`` with seed ``i``) and the agent
draws from one seeded generator, so every environment plays the same games, the same work: the
script checks that their rewards and finished games agree. The rounds alternate the
environments, so that a change in the machine's load hits all of them; the table gives the
medians of the agent moves per second (all games together), with the load average.

Where Stable-Baselines3 is installed (it brings torch), its ``DummyVecEnv`` and
``SubprocVecEnv`` are measured too; without it they are left out.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

import gymnasium as gym
import numpy as np

import cathedral


def random_actions(masks: np.ndarray, rng) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


def ours(envs: int, options: dict, threads: int | None):
    venv = cathedral.SingleAgentVecEnv(envs, threads=threads, **options)
    venv.seed(0)
    venv.reset()

    def step(rng):
        _, rewards, dones, _ = venv.step(random_actions(venv.action_masks(), rng))
        return float(rewards.sum()), int(dones.sum())

    return step, venv.close


def gymnasium_vector(kind, envs: int, options: dict):
    fns = [lambda: cathedral.SingleAgentEnv(**options) for _ in range(envs)]
    venv = kind(fns, autoreset_mode=gym.vector.AutoresetMode.SAME_STEP)
    obs, _ = venv.reset(seed=0)
    state = {"masks": obs["action_mask"].astype(bool)}

    def step(rng):
        obs, rewards, terminated, truncated, _ = venv.step(random_actions(state["masks"], rng))
        state["masks"] = obs["action_mask"].astype(bool)
        return float(rewards.sum()), int((terminated | truncated).sum())

    return step, venv.close


def sb3_vector(kind, envs: int, options: dict):
    """SB3's own vector environments of SingleAgentEnv, masks asked as MaskablePPO asks them."""
    venv = kind([lambda: cathedral.SingleAgentEnv(**options) for _ in range(envs)])
    venv.seed(0)
    venv.reset()
    state = {"masks": np.stack(venv.env_method("action_masks"))}

    def step(rng):
        _, rewards, dones, _ = venv.step(random_actions(state["masks"], rng))
        state["masks"] = np.stack(venv.env_method("action_masks"))
        return float(rewards.sum()), int(dones.sum())

    return step, venv.close


def measure(make, steps: int, seed: int) -> tuple[float, tuple[float, int]]:
    """Vector steps per second over ``steps`` steps, and the games' total reward and number of
    finished games (the same for every environment, or they did not play the same games)."""
    step, close = make()
    rng = np.random.default_rng(seed)
    total, finished = 0.0, 0
    try:
        started = time.perf_counter()
        for _ in range(steps):
            reward, done = step(rng)
            total += reward
            finished += done
        return steps / (time.perf_counter() - started), (total, finished)
    finally:
        close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--random-steps", type=int, default=3000, help="steps against the random opponent")
    parser.add_argument("--engine-steps", type=int, default=300, help="steps against the engine")
    parser.add_argument("--nodes", type=int, default=2000, help="the engine's nodes per move")
    args = parser.parse_args()
    n = args.envs
    settings = {
        "random opponent": (dict(opponent="random"), args.random_steps),
        "engine, level 1": (dict(opponent="engine", level=1, nodes=args.nodes), args.engine_steps),
    }
    contenders = {
        "SingleAgentVecEnv": lambda o: ours(n, o, None),
        "SingleAgentVecEnv, threads=1": lambda o: ours(n, o, 1),
        "gymnasium SyncVectorEnv": lambda o: gymnasium_vector(gym.vector.SyncVectorEnv, n, o),
        "gymnasium AsyncVectorEnv": lambda o: gymnasium_vector(gym.vector.AsyncVectorEnv, n, o),
    }
    try:  # SB3's vector environments where it is installed (it brings torch).
        from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

        contenders["SB3 DummyVecEnv"] = lambda o: sb3_vector(DummyVecEnv, n, o)
        contenders["SB3 SubprocVecEnv"] = lambda o: sb3_vector(SubprocVecEnv, n, o)
    except ImportError:
        print("stable-baselines3 is not installed: its vector environments are left out", file=sys.stderr)
    rates = {(s, c): [] for s in settings for c in contenders}
    loads = []
    for round_ in range(args.rounds):
        for setting, (options, steps) in settings.items():
            outcomes = set()
            for name, make in contenders.items():
                vector_steps, outcome = measure(lambda: make(options), steps, round_)
                outcomes.add(outcome)
                rates[(setting, name)].append(vector_steps * n)
                loads.append(os.getloadavg()[0])
                print(f"round {round_ + 1} {setting:16} {name:30} {vector_steps * n:10.1f} moves/s "
                      f"(reward {outcome[0]:+.0f}, {outcome[1]} games ended)", file=sys.stderr)
            if len(outcomes) != 1:
                raise SystemExit(f"the environments played different games: {sorted(outcomes)}")
    print(f"| opponent | environment ({n} games) | agent moves per second | vs SyncVectorEnv |")
    print("|---|---|---:|---:|")
    for setting in settings:
        base = statistics.median(rates[(setting, "gymnasium SyncVectorEnv")])
        for name in contenders:
            rate = statistics.median(rates[(setting, name)])
            print(f"| {setting} | {name} | {rate:,.0f} | {rate / base:.2f}x |")
    print()
    print(
        f"Medians of {args.rounds} rounds, alternating ({args.random_steps} steps of the {n} games against "
        f"the random opponent, {args.engine_steps} against the engine); {platform.machine()}, "
        f"{os.cpu_count()} cores, load average {statistics.median(loads):.2f} (1 min, median over the "
        f"measurements; {min(loads):.2f} to {max(loads):.2f}); Python {platform.python_version()}, "
        f"Gymnasium {gym.__version__}, engine nodes {args.nodes} per move."
    )


if __name__ == "__main__":
    main()
