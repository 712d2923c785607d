"""Train MaskablePPO (sb3-contrib) against a weak opponent for a few minutes on a CPU, and write
its reward curve.

    pip install torch --index-url https://download.pytorch.org/whl/cpu   # CPU-only torch first
    pip install ./python sb3-contrib
    python python/examples/train_maskable_ppo.py --minutes 5 --opponent random --csv curve.csv

sb3-contrib needs torch. Left to fetch it, pip takes torch from PyPI with NVIDIA's CUDA
libraries: 5.4 GB and 9.5 minutes on the 2-core test machine (issue 76). On a machine without an
NVIDIA GPU install the CPU-only build first, from PyTorch's own index as above; sb3-contrib then
finds torch installed and fetches only itself and stable-baselines3.

The agent plays a random side (``play_as="random"``) in ``--envs`` games of
:class:`cathedral.SingleAgentVecEnv` against ``--opponent``: ``random`` (a uniformly random legal
move, the weakest there is), ``greedy`` or ``policy`` (the simple built-in players), or ``engine``
at ``--level`` of the ladder with ``--nodes`` per move (what level 10 searches; the levels below
have budgets of their own, which it caps), each mixed with random moves by ``--epsilon``. With
``--curriculum`` :class:`cathedral.Curriculum` moves the opponent up a stage each time the agent
scores 60 % over its last ``--window`` games: level ``--level`` with three quarters of its moves
random, then half, then a quarter, then the level alone, then each level above. The reward is
the final square difference from the agent's side (positive: the agent left fewer squares
unplaced). Every rollout the script prints and records the mean reward of the games finished
in it, and it stops after ``--minutes`` of training.

Torch's thread count matters on a small machine: with its default (every core, spinning) a
loaded 2-core machine trained 7k steps in 6 minutes, with one thread 178k in 9 minutes (issue
47). ``--torch-threads`` sets it (default 1).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time

import numpy as np

import cathedral


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="training time (default 5)")
    parser.add_argument("--envs", type=int, default=8, help="games stepped together (default 8)")
    parser.add_argument("--opponent", choices=["random", "greedy", "policy", "engine"], default="random")
    parser.add_argument("--level", type=int, default=1, help="the engine's level, 1 to 10 (default 1)")
    parser.add_argument("--epsilon", type=float, default=0.0, help="the opponent's share of random moves (default 0)")
    parser.add_argument("--curriculum", action="store_true", help="move the engine up the ladder as the agent wins")
    parser.add_argument("--window", type=int, default=200, help="games a curriculum level is judged on (default 200)")
    parser.add_argument("--nodes", type=int, default=200, help="the engine's nodes per move (default 200)")
    parser.add_argument("--torch-threads", type=int, default=1, help="torch's threads (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--csv", help="write the curve here: seconds, steps, games, mean reward")
    args = parser.parse_args()
    if not 0 < args.minutes <= 24 * 60:
        parser.error(f"--minutes {args.minutes}: expected more than 0, at most a day")
    if not 1 <= args.envs <= 256:
        parser.error(f"--envs {args.envs}: expected 1 to 256")
    if not 1 <= args.torch_threads <= 256:
        parser.error(f"--torch-threads {args.torch_threads}: expected 1 to 256")
    if args.curriculum and args.opponent != "engine":
        parser.error(f"--curriculum moves the engine's level: expected --opponent engine, not {args.opponent}")
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import BaseCallback
        from stable_baselines3.common.vec_env import VecMonitor
    except ImportError as missing:
        print(
            f"this example needs sb3-contrib (pip install sb3-contrib): {missing}\n"
            "sb3-contrib brings torch; from PyPI that is torch with the CUDA libraries (5.4 GB). Without an "
            "NVIDIA GPU, install the CPU-only torch first:\n"
            "    pip install torch --index-url https://download.pytorch.org/whl/cpu\n"
            "    pip install sb3-contrib",
            file=sys.stderr,
        )
        return 2
    torch.set_num_threads(args.torch_threads)

    venv = cathedral.SingleAgentVecEnv(
        args.envs, play_as="random", opponent=args.opponent, level=args.level, nodes=args.nodes,
        epsilon=args.epsilon,
    )
    course = cathedral.Curriculum(venv, start=args.level, window=args.window) if args.curriculum else None
    venv.seed(args.seed)
    venv = VecMonitor(venv)
    curve = []
    started = time.monotonic()
    limit = args.minutes * 60

    def stage(level: int, epsilon: float) -> str:
        return f"level {level}" + (f" with {epsilon:.0%} random moves" if epsilon else "")

    class Curve(BaseCallback):
        """Records the mean reward of the games finished in each rollout; stops at the limit."""

        def __init__(self):
            super().__init__()
            self.games = 0
            self.rewards = []

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                if "episode" in info:
                    self.rewards.append(info["episode"]["r"])
            if course is not None and course.update(self.locals["infos"]):
                step = course.promotions[-1]
                print(f"  {stage(step.level, step.epsilon)} beaten ({step.score:.0%} over {args.window} games): now {stage(course.level, course.epsilon)}", flush=True)
            return time.monotonic() - started < limit

        def _on_rollout_end(self) -> None:
            if not self.rewards:
                return
            self.games += len(self.rewards)
            if course is not None:
                level = stage(course.level, course.epsilon)
            else:
                level = stage(args.level, args.epsilon) if args.opponent == "engine" else ""
            row = (time.monotonic() - started, self.num_timesteps, self.games, float(np.mean(self.rewards)), level)
            curve.append(row)
            print(f"{row[0]:7.0f} s  {row[1]:8d} steps  {row[2]:6d} games  mean reward {row[3]:+7.2f}  {level}", flush=True)
            self.rewards = []

    model = MaskablePPO("MultiInputPolicy", venv, n_steps=256, batch_size=256, seed=args.seed, verbose=0)
    model.learn(total_timesteps=10**9, callback=Curve())
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["seconds", "steps", "games", "mean_reward", "opponent"])
            writer.writerows(curve)
    return 0


if __name__ == "__main__":
    sys.exit(main())
