"""Match throughput: the same match played by ``cathedral match --jobs N`` and by
``distributed.match`` on a local Ray cluster of N CPUs, interleaved round by round, with the
games per minute of each and whether their summaries are equal (docs/distributed.md).

    python python/bench/match_throughput.py --games 400 --nodes 20000 --rounds 1
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from cathedral import distributed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=80, help="games per match (even)")
    parser.add_argument("--nodes", type=int, default=20_000, help="nodes per move")
    parser.add_argument("--rounds", type=int, default=2, help="matches of each kind, interleaved")
    parser.add_argument("--workers", type=int, default=2, help="--jobs of the local runner and the Ray cluster's CPUs")
    parser.add_argument("--bin", default="target/release/cathedral", help="the command-line program")
    args = parser.parse_args()
    if args.games < 2 or args.games % 2 or not 1 <= args.nodes <= 100_000_000 or not 1 <= args.rounds <= 100 or not 1 <= args.workers <= 1024:
        parser.error("expected an even --games of at least 2, and positive --nodes, --rounds, --workers")

    import ray

    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
    for round_ in range(1, args.rounds + 1):
        match = ["--a", "engine", "--b", "engine:level=8", "--games", str(args.games), "--nodes", str(args.nodes), "--seed", str(round_)]
        started = time.perf_counter()
        out = subprocess.run([args.bin, "-q", "match", *match, "--jobs", str(args.workers), "--json"],
                             capture_output=True, text=True, check=True)
        local = time.perf_counter() - started
        started = time.perf_counter()
        on_ray = distributed.match("engine", "engine:level=8", games=args.games, nodes=args.nodes, seed=round_)
        remote = time.perf_counter() - started
        same = on_ray["summary"] == json.loads(out.stdout)["summary"]
        print(f"round {round_}: cathedral match --jobs {args.workers}: {local:.1f} s, {args.games / local * 60:.0f} games/min; "
              f"distributed.match: {remote:.1f} s, {args.games / remote * 60:.0f} games/min; the same summary: {same}; "
              f"load {os.getloadavg()[0]:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
