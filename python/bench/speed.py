"""Speed of this package's environment beside cathedral-rl's, measured in one run.

    python python/bench/speed.py --rl-python /path/to/venv-with-cathedral-rl/bin/python

Runs rounds that alternate the two (so that a change in the machine's load hits both), each
round measuring for ``--seconds``: random games per second through each environment's own
PettingZoo AEC loop (agent_iter / last / a random legal action from the mask / step), and raw
rule-engine calls per second (a random game played through the lowest-level call that plays a
move: our ``Position.play_action``; cathedral-rl's ``Board.play_turn`` plus
``Board.check_territory``, see ``cathedral_rl_speed.py``). Prints a Markdown table of the
medians with the machine, the load and the versions, and (``--json``) the raw rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import numpy as np

import cathedral

HERE = Path(__file__).resolve().parent


def our_games(seconds: float, seed: int, loop: str = "index") -> dict:
    """Random games through the PettingZoo loop; the action is a random index of the mask's legal
    actions (`index`) or the action space's own draw from the mask (`sample`, the loop of
    cathedral-rl's README), since the ratio between the packages depends on which (issue 47)."""
    env = cathedral.env()
    env.reset(seed=seed)
    for agent in env.possible_agents:
        env.action_space(agent).seed(seed)
    rng = np.random.default_rng(seed)
    games = steps = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        env.reset(seed=seed + games)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                action = None
            elif loop == "sample":
                action = int(env.action_space(agent).sample(mask=obs["action_mask"].astype(np.int8)))
                steps += 1
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
                steps += 1
            env.step(action)
        games += 1
    elapsed = time.perf_counter() - started
    return {"games": games, "steps": steps, "seconds": elapsed}


def our_play(seconds: float, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    calls = games = 0
    in_calls = 0.0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        position = cathedral.Position()
        while not position.is_over:
            legal = position.legal_actions()
            action = legal[rng.integers(len(legal))]
            before = time.perf_counter()
            position = position.play_action(action)
            in_calls += time.perf_counter() - before
            calls += 1
        games += 1
    elapsed = time.perf_counter() - started
    return {"calls": calls, "games": games, "call_seconds": in_calls, "seconds": elapsed}


def our_batch(seconds: float, seed: int, size: int = 256) -> dict:
    """Random games through ``Batch``: the numpy agent picks a uniformly random legal action in
    every game at once (the largest of a random number per legal action)."""
    batch = cathedral.Batch(size)
    rng = np.random.default_rng(seed)
    games = moves = 0
    in_env = 0.0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        before = time.perf_counter()
        mask = batch.observe()["action_mask"]
        in_env += time.perf_counter() - before
        # 1 to 2 on the legal actions, 0 elsewhere (a random 0.0 on a lone legal action would
        # tie with the illegal ones).
        actions = np.argmax((rng.random(mask.shape, dtype=np.float32) + 1) * mask, axis=1)
        before = time.perf_counter()
        _, done = batch.step(actions)
        in_env += time.perf_counter() - before
        games += sum(done)
        moves += size
    elapsed = time.perf_counter() - started
    return {"games": games, "moves": moves, "env_seconds": in_env, "seconds": elapsed, "size": size}


def theirs(python: str, seconds: float, seed: int) -> dict:
    done = subprocess.run(
        [python, str(HERE / "cathedral_rl_speed.py"), "--seconds", str(seconds), "--seed", str(seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rl-python", help="the Python interpreter that has cathedral-rl installed")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0, help="per measurement and round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="also print the rounds as JSON")
    args = parser.parse_args()
    if not 1 <= args.rounds <= 100:
        parser.error(f"--rounds {args.rounds}: expected 1 to 100")
    if not 0.1 <= args.seconds <= 3600:
        parser.error(f"--seconds {args.seconds}: expected 0.1 to 3600")
    if args.rl_python and not Path(args.rl_python).exists():
        parser.error(f"--rl-python {args.rl_python}: no such interpreter")

    rounds = []
    loads = []
    for number in range(args.rounds):
        seed = args.seed + 1000 * number
        row = {
            "ours_games": our_games(args.seconds, seed),
            "ours_sample": our_games(args.seconds, seed, loop="sample"),
            "ours_play": our_play(args.seconds, seed),
            "ours_batch": our_batch(args.seconds, seed),
        }
        if args.rl_python:
            row["theirs"] = theirs(args.rl_python, args.seconds, seed)
        loads.append(os.getloadavg()[0])
        rounds.append(row)
        print(f"round {number + 1} of {args.rounds} done (load {loads[-1]:.2f})", file=sys.stderr)

    def median(values):
        return statistics.median(values)

    ours_gps = median([r["ours_games"]["games"] / r["ours_games"]["seconds"] for r in rounds])
    ours_sps = median([r["ours_games"]["steps"] / r["ours_games"]["seconds"] for r in rounds])
    ours_calls = median([r["ours_play"]["calls"] / r["ours_play"]["call_seconds"] for r in rounds])
    ours_loop = median([r["ours_play"]["calls"] / r["ours_play"]["seconds"] for r in rounds])
    ours_moves = median([r["ours_games"]["steps"] / r["ours_games"]["games"] for r in rounds])
    batch_gps = median([r["ours_batch"]["games"] / r["ours_batch"]["seconds"] for r in rounds])
    batch_env = median([r["ours_batch"]["moves"] / r["ours_batch"]["env_seconds"] for r in rounds])
    table = [
        "| measurement | this package | cathedral-rl | ratio |",
        "|---|---:|---:|---:|",
    ]
    if args.rl_python:
        t_gps = median([r["theirs"]["games_per_second"] for r in rounds])
        t_sps = median([r["theirs"]["steps_per_second"] for r in rounds])
        t_calls = median([r["theirs"]["play_per_second"] for r in rounds])
        t_loop = median([r["theirs"]["play_loop_calls_per_second"] for r in rounds])
        t_moves = median([r["theirs"]["mean_moves_per_game"] for r in rounds])
        t_sample = median([r["theirs"]["sample_games_per_second"] for r in rounds])
        ours_sample = median([r["ours_sample"]["games"] / r["ours_sample"]["seconds"] for r in rounds])

        def spread(ours_of, theirs_of):
            ratios = [ours_of(r) / theirs_of(r) for r in rounds]
            return f"{min(ratios):,.0f}x-{max(ratios):,.0f}x"

        rows = [
            ("random games per second, PettingZoo loop, a random index of the mask", ours_gps, t_gps),
            ("random games per second, PettingZoo loop, `action_space(agent).sample(mask=...)`", ours_sample, t_sample),
            ("moves per second, PettingZoo loop (a random index)", ours_sps, t_sps),
            ("raw play calls per second (the call alone)", ours_calls, t_calls),
            ("raw play calls per second (with finding the legal moves)", ours_loop, t_loop),
            ("moves per random game", ours_moves, t_moves),
        ]
        for name, ours, their in rows:
            ratio = "" if name.startswith("moves per random") else f"{ours / their:,.0f}x"
            table.append(f"| {name} | {ours:,.1f} | {their:,.2f} | {ratio} |")
        # The ratio round by round: its range says how far one figure can be trusted.
        table.append(
            "| ratio of random games per second, each round (index loop; sample loop) | | | "
            + spread(lambda r: r["ours_games"]["games"] / r["ours_games"]["seconds"], lambda r: r["theirs"]["games_per_second"])
            + "; "
            + spread(lambda r: r["ours_sample"]["games"] / r["ours_sample"]["seconds"], lambda r: r["theirs"]["sample_games_per_second"])
            + " |"
        )
        versions = f"cathedral-rl {rounds[0]['theirs']['version']} on Python {rounds[0]['theirs']['python']} with PettingZoo {rounds[0]['theirs']['pettingzoo']}"
    else:
        for name, ours in (
            ("random games per second, PettingZoo loop", ours_gps),
            ("moves per second, PettingZoo loop", ours_sps),
            ("raw play calls per second (the call alone)", ours_calls),
            ("raw play calls per second (with finding the legal moves)", ours_loop),
            ("moves per random game", ours_moves),
        ):
            table.append(f"| {name} | {ours:,.1f} | | |")
        versions = "cathedral-rl not measured (no --rl-python)"
    table.append(f"| random games per second, `Batch` of 256 with a numpy random agent | {batch_gps:,.1f} | | |")
    table.append(f"| moves per second, `Batch` of 256, its own time (observe + step) | {batch_env:,.1f} | | |")
    print("\n".join(table))
    print()
    print(
        f"Medians of {args.rounds} rounds of {args.seconds:g} s each, alternating; "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"load average {median(loads):.2f} (1 min, median over the rounds; {min(loads):.2f} to {max(loads):.2f}); "
        f"this package {metadata.version('cathedral-toolkit')} on Python {platform.python_version()} with "
        f"PettingZoo {metadata.version('pettingzoo')}; {versions}."
    )
    if args.json:
        print(json.dumps(rounds, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
