"""A random agent against the engine, through the PettingZoo environment.

    python python/examples/random_vs_engine.py [--games N] [--nodes N] [--level 1..10] [--seed S]

Each game, the random agent and the engine swap sides; the engine answers through
``cathedral.bestmove`` with a node budget (the same moves on every machine). Prints every move,
the final board of the first game and the score.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import cathedral


def play(game: int, engine_side: str, nodes: int, level: int, rng, show: bool) -> float:
    """One game; returns the engine's final margin in squares."""
    env = cathedral.env(render_mode="ansi")
    env.reset(seed=game)
    margin = 0.0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            if agent == engine_side:
                margin = reward
            env.step(None)
            continue
        position = env.unwrapped.position
        if agent == engine_side:
            choice = cathedral.bestmove(position, nodes=nodes, level=level, seed=game)
            action = position.move_action(choice["best_move"])
            note = f"engine, {choice['judgement']} {choice['value']:+.2f}"
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(rng.choice(legal))
            note = "random"
        if show:
            print(f"  {position.action_move(action):<40} ({agent}, {note})")
        env.step(action)
    if show:
        print(env.render())
    return margin


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--level", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 1 <= args.games <= 1000:
        parser.error(f"--games {args.games}: expected 1 to 1000")
    if not 1 <= args.nodes <= 10**9:
        parser.error(f"--nodes {args.nodes}: expected 1 to 1000000000")
    if not 1 <= args.level <= 10:
        parser.error(f"--level {args.level}: expected 1 to 10")
    rng = np.random.default_rng(args.seed)
    margins = []
    for game in range(args.games):
        engine_side = "light" if game % 2 == 0 else "dark"
        print(f"Game {game + 1}: the engine plays {engine_side}")
        margin = play(game, engine_side, args.nodes, args.level, rng, show=game == 0)
        margins.append(margin)
        print(f"Game {game + 1}: the engine {'won' if margin > 0 else 'drew' if margin == 0 else 'lost'} by {abs(margin):g} squares")
    wins = sum(m > 0 for m in margins)
    print(f"The engine won {wins} of {len(margins)} games, by {np.mean(margins):+.1f} squares on average.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
