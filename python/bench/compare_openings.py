"""Replays the strongest openings of the two opening studies at a larger node budget, under their
own rules, so that classic and Lehmann-Woods are compared by the same games at the same strength
(docs/opening.md, "The Lehmann-Woods change").

    python python/bench/compare_openings.py --nodes 100000 --out target/compare-openings

The openings: opening.py's stage 4 (classic: the Cathedral, one of the 10 best first moves of a
fully played class, one of Light's 4 best-ranked answers) and lehmann_woods.py's stage 3 (one of
the best first moves, one of Light's 4 best-ranked Cathedral placements). Every game is the engine
against itself from the opening on, at ``--nodes`` per move; the result is Dark's margin.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from cathedral import distributed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opening import interval, margin  # noqa: E402


def classic_openings(study: dict) -> list[list[str]]:
    return [
        [c["cathedral"], r["move"], reply["move"]]
        for c in study["classes"] if "all" in c
        for r in c["all"] if "replies" in r
        for reply in r["replies"]
    ]


def lehmann_woods_openings(study: dict) -> list[list[str]]:
    return [[r["move"], reply["cathedral"]] for r in study["best_first_moves"] for reply in r["replies"]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--classic", default="docs/opening/study.json", help="opening.py's study.json")
    parser.add_argument("--lehmann-woods", default="docs/opening/lehmann-woods/study.json", help="lehmann_woods.py's study.json")
    parser.add_argument("--nodes", type=int, default=100_000, help="nodes per move")
    parser.add_argument("--out", default="target/compare-openings", help="folder for games.jsonl (kept for reruns) and comparison.json")
    parser.add_argument("--address", default=None, help="a Ray cluster's address (default: a local one)")
    args = parser.parse_args()
    if not 1 <= args.nodes <= 100_000_000:
        parser.error("--nodes: expected a positive number")

    import ray

    ray.init(address=args.address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    result = {"command": " ".join(["python", "python/bench/compare_openings.py", *sys.argv[1:]]), "nodes": args.nodes}
    for rules, path, openings_of in (
        ("classic", args.classic, classic_openings),
        ("lehmann-woods", args.lehmann_woods, lehmann_woods_openings),
    ):
        openings = openings_of(json.loads(Path(path).read_text()))
        games = distributed.play_games(openings, "engine", results=out / "games.jsonl",
                                       nodes=args.nodes, seed=1, rules=rules)
        margins = [margin(g) for g in games]
        mean, low, high = interval(margins)
        result[rules] = {
            "games": len(margins), "mean": mean, "low": low, "high": high,
            "dark_wins": sum(m > 0 for m in margins), "draws": sum(m == 0 for m in margins),
        }
        print(f"{rules}: {len(margins)} games at {args.nodes} nodes a move: Dark's margin mean {mean:+.2f} "
              f"(95 % interval {low:+.2f} to {high:+.2f}); Dark won {result[rules]['dark_wins']}, "
              f"drew {result[rules]['draws']}; {time.perf_counter() - started:.0f} s so far", flush=True)
    result["seconds"] = time.perf_counter() - started
    (out / "comparison.json").write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
