"""The distributed solve against the single-process solve, and its scaling on paper.

    python python/bench/distributed.py puzzles/bench/t10-01.yaml ... [--rounds 2] [--workers 2]

For each position, in alternating order within each round: the single-process solve
(``cathedral.solve``, one thread, every root move's value: what ``cathedral solve --threads 1``
reports) and ``distributed.solve`` on a local Ray cluster of ``--workers`` CPUs (one thread a
task, a fresh knowledge file each time). Prints the medians, their ratio and, from the measured
subproblem times, the time the model of ``distributed.simulate`` gives for 64 and 1,024 workers.

With ``--value-only`` both sides answer the value and the best line only: ``cathedral.solve(...,
root_values=False)`` (what ``cathedral solve --threads 1 --value-only`` reports) against
``distributed.solve(..., root_values=False)``, the windowed split (``docs/distributed.md``); the
table then also counts the root moves refuted rather than solved.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import ray

import cathedral
from cathedral import distributed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--value-only", action="store_true", help="value and best line only: the windowed split")
    args = parser.parse_args()
    if not 1 <= args.rounds <= 20:
        parser.error(f"--rounds {args.rounds}: expected 1 to 20")
    if not 1 <= args.workers <= 1024:
        parser.error(f"--workers {args.workers}: expected 1 to 1024")
    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
    root_values = not args.value_only
    print(
        "| position | value | root moves | single process (s) | distributed (s) | ratio | "
        "largest subproblem (s) | model, 64 workers (s) | model, 1,024 workers (s) |"
        + ("" if root_values else " refuted |")
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("" if root_values else "---:|"))
    loads = []
    for path in args.files:
        position = cathedral.Position.load(path)
        single, spread, sizes, values = [], [], [], set()
        for round_number in range(args.rounds):
            order = ["single", "distributed"] if round_number % 2 == 0 else ["distributed", "single"]
            for which in order:
                if which == "single":
                    started = time.perf_counter()
                    report = cathedral.solve(position, threads=1, root_values=root_values)
                    single.append(time.perf_counter() - started)
                    values.add(report["value"])
                else:
                    with tempfile.TemporaryDirectory() as work:
                        started = time.perf_counter()
                        ours = distributed.solve(
                            position, knowledge=os.path.join(work, "k.jsonl"), root_values=root_values
                        )
                        spread.append(time.perf_counter() - started)
                    sizes = [s["seconds"] for s in ours["subproblems"]]
                    values.add(ours["value"])
            loads.append(os.getloadavg()[0])
        if len(values) != 1:
            raise SystemExit(f"{path}: the solves disagree: {sorted(values)}")
        value = values.pop()
        one, many = statistics.median(single), statistics.median(spread)
        print(
            f"| {path.stem} | {value:+d} | {len(sizes)} | {one:.2f} | {many:.2f} | {many / one:.2f} | "
            f"{max(sizes):.2f} | {distributed.simulate(sizes, 64):.2f} | {distributed.simulate(sizes, 1024):.2f} |"
            + ("" if root_values else f" {sum('at_most' in m for m in ours['root_moves'])} |")
        )
    print(
        f"\nMedians of {args.rounds} rounds; Ray {ray.__version__} with {args.workers} worker CPUs on "
        f"{os.cpu_count()} cores; load average {statistics.median(loads):.2f} (1 min, median)."
    )
    ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
