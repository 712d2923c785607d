"""Does the Lehmann-Woods change even the game? (docs/opening.md) Engine self-play under the
preset ``lehmann-woods``: Dark's first move on the empty board, then Light places the Cathedral
and its first building, as Ray tasks.

    python python/bench/lehmann_woods.py --out target/lehmann-woods        # a local Ray cluster
    python python/bench/lehmann_woods.py --report --out docs/opening/lehmann-woods

Dark's first moves are taken up to the board's symmetries that are the game's: the script checks
each rotation of the square on every first move (a rotation counts when it maps Dark's first
moves onto themselves and Light's Cathedral placements after each onto those after its image).

Stages (every game: the engine against itself at ``--nodes`` per move; the margin is Dark's:
Light's unplaced squares minus Dark's), the counterparts of opening.py's:

1. ``engine``: the engine's own game from the start.
2. ``all``: every class of Dark's first move, one game each, the engine choosing Light's Cathedral
   and all the rest.
3. ``replies``: for the ``--best`` best first moves of stage 2 (40: as many as opening.py's 10 in
   each of its 4 full classes), Light's ``--replies`` best-ranked
   Cathedral placements (``bestmove --candidates`` at ``--rank-nodes``), one game each: each first
   move's mean against them, with an interval.

``games.jsonl`` in ``--out`` keeps every finished game: a rerun plays only what it lacks.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cathedral

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opening import (  # noqa: E402
    ROTATIONS, canonical, games_player, interval, margin, ranked, transform, write_games,
)

RULES = "lehmann-woods"


def game_symmetries(start: cathedral.Position) -> dict:
    """The rotations that are the game's: checked on every first move and the Cathedral
    placements after it."""
    firsts = start.legal_moves()
    legal = {canonical(m) for m in firsts}
    good = {}
    for name, f in ROTATIONS.items():
        ok = all(transform(m, f) in legal for m in firsts)
        # Light's answers: the Cathedral placements after a first move map onto those after its
        # image (every first move; the placements are few).
        for move in firsts if ok else []:
            mapped = {transform(m, f) for m in start.after(move).legal_moves()}
            image = start.after(transform(move, f))
            if mapped != {canonical(m) for m in image.legal_moves()}:
                ok = False
                break
        if ok:
            good[name] = f
    return good


def classes(start: cathedral.Position, symmetries: dict) -> list[str]:
    """Dark's first moves up to the symmetries: each class's smallest image."""
    return sorted({min(transform(m, f) for f in symmetries.values()) for m in start.legal_moves()})


def summary(margins: list[int]) -> dict:
    mean, low, high = interval(margins)
    return {
        "games": len(margins), "mean": mean, "low": low, "high": high,
        "dark_wins": sum(m > 0 for m in margins), "draws": sum(m == 0 for m in margins),
        "dark_best": max(margins), "dark_worst": min(margins),
    }


def report(study: dict, classic: dict | None = None) -> str:
    """The study's tables in Markdown, as docs/opening.md shows them."""
    out = []
    e = study["engine"]
    out.append(
        f"The engine's own game under `{RULES}`: Dark opens `{e['first_move']}`, Light answers "
        f"`{e['cathedral']}` and `{e['light_first']}`; Dark's margin {e['margin']:+d}.\n"
    )
    a = study["all_summary"]
    out.append(
        f"Every class of Dark's first move ({a['games']} classes, one game each): Dark's margin "
        f"mean {a['mean']:+.2f}, 95 % interval {a['low']:+.2f} to {a['high']:+.2f}; Dark won "
        f"{a['dark_wins']}, drew {a['draws']}, lost {a['games'] - a['dark_wins'] - a['draws']}; "
        f"best {a['dark_best']:+d}, worst {a['dark_worst']:+d}.\n"
    )
    r = study["replies_summary"]
    out.append(
        f"The {study['best']} best first moves against Light's {study['replies']} best-ranked "
        f"Cathedral placements ({r['games']} games): mean {r['mean']:+.2f}, 95 % interval "
        f"{r['low']:+.2f} to {r['high']:+.2f}; Dark won {r['dark_wins']}, drew {r['draws']}, "
        f"lost {r['games'] - r['dark_wins'] - r['draws']}.\n"
    )
    out.append("| Dark's first move | its game | Light's Cathedral placements tried | mean over them | 95 % interval |")
    out.append("|---|---:|---:|---:|---|")
    for row in study["best_first_moves"]:
        o = row["over_replies"]
        out.append(
            f"| `{row['move'].removeprefix('dark:')}` | {row['margin']:+d} | {o['games']} | "
            f"{o['mean']:+.2f} | {o['low']:+.2f} to {o['high']:+.2f} |"
        )
    if classic is not None:
        out.append("\nDark's mean margin by the kind of its first building, over every first move played "
                   "(classic: the full classes of opening.py's study):\n")
        out.append("| first building | classic | lehmann-woods |")
        out.append("|---|---:|---:|")
        ours = by_kind(study["all"])
        theirs = by_kind([r for c in classic["classes"] if "all" in c for r in c["all"]])
        for kind in sorted(ours, key=lambda k: -theirs.get(k, 0)):
            out.append(f"| {kind.title()} | {theirs.get(kind, float('nan')):+.2f} | {ours[kind]:+.2f} |")
    return "\n".join(out) + "\n"


def by_kind(rows: list[dict]) -> dict[str, float]:
    """The mean margin of the first moves in ``rows`` by the kind of building they place."""
    kinds: dict[str, list[int]] = {}
    for row in rows:
        kinds.setdefault(row["move"].removeprefix("dark:").split(":")[0], []).append(row["margin"])
    return {kind: statistics.fmean(margins) for kind, margins in kinds.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="target/lehmann-woods", help="folder for games.jsonl (kept for reruns), games.jsonl.gz and study.json")
    parser.add_argument("--address", default=None, help="a Ray cluster's address (default: a local one)")
    parser.add_argument("--nodes", type=int, default=10_000, help="nodes per move in every game")
    parser.add_argument("--rank-nodes", type=int, default=1_000_000, help="nodes to rank Light's Cathedral placements")
    parser.add_argument("--best", type=int, default=40, help="best first moves given Light's ranked answers")
    parser.add_argument("--replies", type=int, default=4, help="Light's Cathedral placements per such first move")
    parser.add_argument("--report", action="store_true", help="print the tables of --out's study.json and stop")
    parser.add_argument("--classic", default="docs/opening/study.json", help="opening.py's study.json, for --report's table by kind of first building")
    args = parser.parse_args()
    if args.report:
        classic = Path(args.classic)
        print(report(json.loads((Path(args.out) / "study.json").read_text()),
                     json.loads(classic.read_text()) if classic.exists() else None), end="")
        return 0
    for name in ("nodes", "rank_nodes", "replies"):
        if not 1 <= getattr(args, name) <= 100_000_000:
            parser.error(f"--{name.replace('_', '-')}: expected a positive number")
    if not 0 <= args.best <= 2000:
        parser.error("--best: 0 to 2000")

    import ray

    ray.init(address=args.address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results = out / "games.jsonl"
    started = time.perf_counter()
    start = cathedral.Position(rules=RULES)
    symmetries = game_symmetries(start)
    firsts = classes(start, symmetries)
    print(f"symmetries of the game: {', '.join(symmetries)}; {len(start.legal_moves())} first moves "
          f"in {len(firsts)} classes", flush=True)
    play, played = games_player(results, dict(nodes=args.nodes, seed=1, rules=RULES), started, every=100)

    # 1. The engine's own game.
    (engine_game,) = play([[]], "engine")
    engine = {
        "first_move": engine_game["moves"][0], "cathedral": engine_game["moves"][1],
        "light_first": engine_game["moves"][2], "margin": margin(engine_game),
    }
    # 2. Every class of first move.
    games = play([[m] for m in firsts], "all")
    rows = sorted(({"move": m, "margin": margin(g), "moves": g["moves"][:3]} for m, g in zip(firsts, games)),
                  key=lambda r: -r["margin"])
    # 3. Light's best-ranked Cathedral placements against the best first moves.
    best = rows[: args.best]
    answers = ranked([start.after(r["move"]) for r in best], args.replies, args.rank_nodes)
    openings = [[r["move"], cathedral_move] for r, cs in zip(best, answers) for cathedral_move in cs]
    reply_games = play(openings, "replies")
    by_opening = {tuple(o): margin(g) for o, g in zip(openings, reply_games)}
    for r, cs in zip(best, answers):
        values = [by_opening[(r["move"], c)] for c in cs]
        mean, low, high = interval(values)
        r["replies"] = [{"cathedral": c, "margin": by_opening[(r["move"], c)]} for c in cs]
        r["over_replies"] = {"games": len(values), "mean": mean, "low": low, "high": high}
    study = {
        "command": " ".join(["python", "python/bench/lehmann_woods.py", *sys.argv[1:]]),
        "rules": RULES,
        "nodes": args.nodes,
        "rank_nodes": args.rank_nodes,
        "best": args.best,
        "replies": args.replies,
        "symmetries": list(symmetries),
        "engine": engine,
        "all_summary": summary([r["margin"] for r in rows]),
        "all": rows,
        "best_first_moves": best,
        "replies_summary": summary(list(by_opening.values())),
        "seconds": time.perf_counter() - started,
    }
    study["distinct_games"] = write_games(out / "games.jsonl.gz", played)
    (out / "study.json").write_text(json.dumps(study, indent=1) + "\n")
    print(f"done in {study['seconds']:.0f} s: {out / 'study.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
