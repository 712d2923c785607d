"""The opening study (docs/opening.md): engine self-play from every class of Cathedral placement
and from Dark's first moves in it, as Ray tasks; the tables, the games and an opening book.

    python python/bench/opening.py --out target/opening            # a local Ray cluster
    python python/bench/opening.py --address auto --out study      # a running cluster

Classes are taken up to the board's symmetries that are symmetries of the game: the script
checks each of the square's eight on every Cathedral placement (a transformation counts when it
maps Dark's legal first moves after each placement onto those after its image); only the four
rotations pass, as the Abbey and the Academy are mirror images of each other's sets.

Stages (every game: the engine against itself at ``--nodes`` per move, from the opening given;
the side to move's margin at the end is Dark's: Light's unplaced squares minus Dark's):

1. ``engine``: each class, Dark's first move and the rest chosen by the engine.
2. ``ranked``: each class, the engine's ``--ranked`` best first moves for Dark (``bestmove
   --candidates`` at ``--rank-nodes``), one game each.
3. ``all``: the ``--full`` classes best for Light (lowest Dark margin over stages 1-2), every one
   of Dark's first moves, one game each.
4. ``replies``: for the ``--best`` best first moves of each full class, Light's ``--replies``
   best answers (ranked as in stage 2), one game each: the first move's mean with an interval.

A node budget makes each game the same on every machine, so a game from an opening is played
once (two engines alike would repeat it in a pair); intervals are over openings. ``games.jsonl``
in ``--out`` keeps every finished game: a rerun plays only what it lacks.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import statistics
import sys
import time
from pathlib import Path

import cathedral
from cathedral import distributed

ROTATIONS = {
    "identity": lambda x, y: (x, y),
    "rotate 90": lambda x, y: (y, 9 - x),
    "rotate 180": lambda x, y: (9 - x, 9 - y),
    "rotate 270": lambda x, y: (9 - y, x),
}
REFLECTIONS = {
    "mirror files": lambda x, y: (9 - x, y),
    "mirror ranks": lambda x, y: (x, 9 - y),
    "diagonal": lambda x, y: (y, x),
    "antidiagonal": lambda x, y: (9 - y, 9 - x),
}


def split(move: str) -> tuple[str, list[str]]:
    head, cells = move.rsplit(":", 1)
    return head, cells.split(",")


def transform(move: str, f) -> str:
    if "pass" in move.split(":"):
        return move
    head, cells = split(move)
    moved = []
    for cell in cells:
        x, y = f(ord(cell[0]) - 97, int(cell[1:]) - 1)
        moved.append(f"{chr(97 + x)}{y + 1}")
    return head + ":" + ",".join(sorted(moved, key=lambda c: (c[0], int(c[1:]))))


def canonical(move: str) -> str:
    return transform(move, ROTATIONS["identity"])


def game_symmetries(start: cathedral.Position) -> dict:
    """The square's symmetries that are the game's: checked on every Cathedral placement."""
    placements = start.legal_moves()
    good = {}
    for name, f in {**ROTATIONS, **REFLECTIONS}.items():
        ok = True
        for move in placements:
            image = transform(move, f)
            try:
                after_image = start.after(image)
            except cathedral.CathedralError:
                ok = False
                break
            mapped = {transform(m, f) for m in start.after(move).legal_moves()}
            if mapped != {canonical(m) for m in after_image.legal_moves()}:
                ok = False
                break
        if ok:
            good[name] = f
    return good


def classes(start: cathedral.Position, symmetries: dict) -> list[dict]:
    """The Cathedral placements up to the symmetries: each class's representative (the
    smallest image) and its members."""
    by_text = {canonical(m): m for m in start.legal_moves()}
    seen = {}
    for text, move in sorted(by_text.items()):
        images = sorted({transform(move, f) for f in symmetries.values()})
        rep = images[0]
        seen.setdefault(rep, {"cathedral": by_text[rep], "members": images})
    return sorted(seen.values(), key=lambda c: c["cathedral"])


def margin(game: dict) -> int:
    """Dark's margin at the end: Light's unplaced squares minus Dark's."""
    return game["light_unplaced"] - game["dark_unplaced"]


def interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and its normal 95 % interval (the interval is the mean itself for one value)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def ranked(positions: list[cathedral.Position], count: int, nodes: int) -> list[list[str]]:
    """The engine's ``count`` best moves in each position, as Ray tasks."""
    import ray

    task = ray.remote(num_cpus=1)(
        lambda text: [c["mv"] for c in cathedral.bestmove(
            cathedral.Position.from_text(text), nodes=nodes, candidates=count, book="none")["candidates"]]
    )
    return ray.get([task.remote(p.file_text()) for p in positions])


def games_player(results: Path, settings: dict, started: float, every: int):
    """``play(openings, label)``: one game from each opening as Ray tasks (kept in ``results``
    for reruns), with a progress line every ``every`` games; and the list of every game played."""
    played: list[dict] = []

    def play(openings: list[list[str]], label: str) -> list[dict]:
        done = [0]

        def tick(i, game):
            done[0] += 1
            if done[0] % every == 0:
                print(f"  {label}: {done[0]} of {len(openings)} games", flush=True)

        games = distributed.play_games(openings, "engine", results=results, on_game=tick, **settings)
        played.extend(games)
        print(f"{label}: {len(games)} games, {time.perf_counter() - started:.0f} s so far", flush=True)
        return games

    return play, played


def write_games(path: Path, played: list[dict]) -> int:
    """Every distinct game's moves and scores, gzipped JSON lines; returns how many."""
    everything = list({tuple(g["moves"]): g for g in played}.values())
    with gzip.open(path, "wt") as compact:
        for game in everything:
            row = {k: game[k] for k in ("moves", "light_unplaced", "dark_unplaced", "forfeit")}
            compact.write(json.dumps(row) + "\n")
    return len(everything)


def report(study: dict) -> str:
    """The study's tables in Markdown, as docs/opening.md shows them."""
    out = []
    e = study["engine_first_move"]
    out.append(
        f"Dark's margin when the engine plays both sides from each of the {e['games']} classes "
        f"(Light's unplaced squares minus Dark's): mean {e['mean']:+.2f}, 95 % interval "
        f"{e['low']:+.2f} to {e['high']:+.2f}; Dark won {e['dark_wins']}, drew {e['draws']}, "
        f"lost {e['games'] - e['dark_wins'] - e['draws']}.\n"
    )
    out.append("| Cathedral (class) | Dark's first move by the engine | its result | ranked first moves: mean | Dark's best found |")
    out.append("|---|---|---:|---:|---:|")
    for c in sorted(study["classes"], key=lambda c: (c["dark_best_found"], c["mean_found"])):
        ranked_mean = statistics.fmean(r["margin"] for r in c["ranked"])
        out.append(
            f"| `{c['cathedral'].split(':', 1)[1]}` | `{c['engine_first_move'].split(':', 1)[1]}` | "
            f"{c['engine_margin']:+d} | {ranked_mean:+.2f} | {c['dark_best_found']:+d} |"
        )
    for c in study["classes"]:
        if "all" not in c:
            continue
        a = c["all_summary"]
        out.append(
            f"\n**Every first move after `{c['cathedral']}`** ({a['first_moves']} moves, one game "
            f"each): Dark's best {a['dark_best']:+d}, mean {a['mean']:+.2f}, Dark wins "
            f"{100 * a['dark_wins']:.0f} %, draws {100 * a['draws']:.0f} %.\n"
        )
        out.append("| Dark's first move | its game | Light's replies tried | mean over them | 95 % interval |")
        out.append("|---|---:|---:|---:|---|")
        for r in c["all"]:
            if "over_replies" not in r:
                continue
            o = r["over_replies"]
            out.append(
                f"| `{r['move'].split(':', 1)[1] if r['move'].count(':') > 1 else r['move']}` | "
                f"{r['margin']:+d} | {o['games']} | {o['mean']:+.2f} | {o['low']:+.2f} to {o['high']:+.2f} |"
            )
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="target/opening", help="folder for games.jsonl (every game, kept for reruns), games.jsonl.gz (their moves and scores), study.json, book.yaml")
    parser.add_argument("--address", default=None, help="a Ray cluster's address (default: a local one)")
    parser.add_argument("--nodes", type=int, default=10_000, help="nodes per move in every game")
    parser.add_argument("--rank-nodes", type=int, default=200_000, help="nodes to rank first moves and replies")
    parser.add_argument("--ranked", type=int, default=8, help="Dark's ranked first moves per class")
    parser.add_argument("--full", type=int, default=4, help="classes with every first move played")
    parser.add_argument("--best", type=int, default=10, help="first moves per full class given replies")
    parser.add_argument("--replies", type=int, default=4, help="Light's replies per such first move")
    parser.add_argument("--report", action="store_true", help="print the tables of --out's study.json and stop")
    args = parser.parse_args()
    if args.report:
        print(report(json.loads((Path(args.out) / "study.json").read_text())), end="")
        return 0
    for name in ("nodes", "rank_nodes", "ranked", "replies"):
        if not 1 <= getattr(args, name) <= 100_000_000:
            parser.error(f"--{name.replace('_', '-')}: expected a positive number")
    if not 0 <= args.full <= 56 or not 0 <= args.best <= 2000:
        parser.error("--full: 0 to 56 classes; --best: 0 to 2000")

    import ray

    ray.init(address=args.address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results = out / "games.jsonl"
    started = time.perf_counter()
    start = cathedral.Position()
    symmetries = game_symmetries(start)
    cats = classes(start, symmetries)
    print(f"symmetries of the game: {', '.join(symmetries)}; {len(start.legal_moves())} Cathedral "
          f"placements in {len(cats)} classes", flush=True)
    play, played = games_player(results, dict(nodes=args.nodes, seed=1), started, every=200)

    # 1. The engine's own first move in each class.
    engine_games = play([[c["cathedral"]] for c in cats], "engine")
    for c, game in zip(cats, engine_games):
        c["engine_first_move"] = game["moves"][1]
        c["engine_margin"] = margin(game)
    # 2. Its ranked first moves.
    afters = [start.after(c["cathedral"]) for c in cats]
    rank_lists = ranked(afters, args.ranked, args.rank_nodes)
    openings = [[c["cathedral"], m] for c, moves in zip(cats, rank_lists) for m in moves]
    ranked_games = play(openings, "ranked")
    by_opening = {}
    for opening, game in zip(openings, ranked_games):
        by_opening[tuple(opening)] = margin(game)
    for c, moves in zip(cats, rank_lists):
        c["ranked"] = [{"move": m, "margin": by_opening[(c["cathedral"], m)]} for m in moves]
        found = [c["engine_margin"]] + [r["margin"] for r in c["ranked"]]
        c["dark_best_found"] = max(found)
        c["mean_found"] = statistics.fmean(found)
    # 3. Every first move in the classes best for Light.
    full = sorted(cats, key=lambda c: (c["dark_best_found"], c["mean_found"]))[: args.full]
    for c in full:
        moves = start.after(c["cathedral"]).legal_moves()
        games = play([[c["cathedral"], m] for m in moves], f"all of {c['cathedral']}")
        c["all"] = sorted(
            ({"move": m, "margin": margin(g)} for m, g in zip(moves, games)),
            key=lambda r: -r["margin"],
        )
        margins = [r["margin"] for r in c["all"]]
        c["all_summary"] = {
            "first_moves": len(margins),
            "dark_best": max(margins),
            "mean": statistics.fmean(margins),
            "dark_wins": sum(m > 0 for m in margins) / len(margins),
            "draws": sum(m == 0 for m in margins) / len(margins),
        }
    # 4. Light's best replies to the best first moves of the full classes.
    for c in full:
        best = c["all"][: args.best]
        positions = [start.after(c["cathedral"]).after(r["move"]) for r in best]
        replies = ranked(positions, args.replies, args.rank_nodes)
        openings = [[c["cathedral"], r["move"], reply] for r, rs in zip(best, replies) for reply in rs]
        games = play(openings, f"replies in {c['cathedral']}")
        margins = {tuple(o): margin(g) for o, g in zip(openings, games)}
        for r, rs in zip(best, replies):
            values = [margins[(c["cathedral"], r["move"], reply)] for reply in rs]
            mean, low, high = interval(values)
            r["replies"] = [{"move": reply, "margin": margins[(c["cathedral"], r["move"], reply)]} for reply in rs]
            r["over_replies"] = {"games": len(values), "mean": mean, "low": low, "high": high}
    overall = [c["engine_margin"] for c in cats]
    mean, low, high = interval(overall)
    study = {
        "command": " ".join(["python", "python/bench/opening.py", *sys.argv[1:]]),
        "nodes": args.nodes,
        "rank_nodes": args.rank_nodes,
        "symmetries": list(symmetries),
        "classes": cats,
        "engine_first_move": {
            "games": len(overall), "mean": mean, "low": low, "high": high,
            "dark_wins": sum(m > 0 for m in overall), "draws": sum(m == 0 for m in overall),
        },
        "seconds": time.perf_counter() - started,
    }
    everything = list({tuple(g["moves"]): g for g in played}.values())
    (out / "book.yaml").write_text(book_of(everything, study["command"], args.nodes, {"identity": ROTATIONS["identity"]}, study))
    study["distinct_games"] = write_games(out / "games.jsonl.gz", played)
    (out / "study.json").write_text(json.dumps(study, indent=1) + "\n")
    print(f"done in {study['seconds']:.0f} s: {out / 'study.json'}, {out / 'book.yaml'}")
    return 0


def bare(move: str) -> str:
    """A move without its player, its cells in order: ``cathedral:a3,b1,...``."""
    head = move.split(":", 1)
    return canonical(head[1] if head[0] in ("light", "dark") else move)


def book_of(games: list[dict], command: str, nodes: int, symmetries: dict, study: dict) -> str:
    """The opening book: for each position of the study's first three plies, every move played
    from it in the study's games, with the number of games, the mean final margin for the side
    that plays it and its worst result (the best the opponent found). Written in the rotation
    the study played (``symmetries``: the identity); the program adds the other rotations.

    The Cathedral placements are compared on the same games for every class: those where Dark's
    first move was the engine's or one of its ranked moves (stages 1 and 2). The games of the
    classes played out in full (stage 3, most of them weak first moves) count only from Dark's
    first move on, where they say what each first move does."""
    compared = set()
    for c in study["classes"]:
        for move in [c["engine_first_move"]] + [r["move"] for r in c["ranked"]]:
            compared.add((bare(c["cathedral"]), bare(move)))
    stats: dict[tuple, dict[str, dict[tuple, int]]] = {}
    for game in games:
        moves = game["moves"]
        dark = margin(game)
        for name, f in symmetries.items():
            turned = [transform(m, f) for m in moves[:3]]
            for ply in range(len(turned)):
                if ply == 0 and (bare(moves[0]), bare(moves[1])) not in compared:
                    continue
                mover_margin = dark if ply % 2 == 1 else -dark
                entry = stats.setdefault(tuple(turned[:ply]), {})
                # Keyed by the whole game: a game reached by two stages counts once.
                entry.setdefault(turned[ply], {})[(name, *moves)] = mover_margin
    lines = [
        "# An opening book from the opening study (docs/opening.md): for each position, the moves",
        "# played from it in the study's games, the games behind each, the mean final margin in",
        "# squares for the side that plays the move (positive: it won by that many) and its worst",
        "# result. Engine self-play at a fixed node budget: estimates, not exact values.",
        f"# Made by: {command}",
        "book: cathedral opening study",
        "rules: classic",
        f"nodes_per_move: {nodes}",
        "positions:",
    ]
    for line, moves in sorted(stats.items(), key=lambda kv: (len(kv[0]), kv[0])):
        # After Dark's first move, only the positions where the study tried several answers:
        # elsewhere the one game is the engine's own continuation, which it finds by itself.
        if len(line) >= 2 and sum(len(by_game) for by_game in moves.values()) < 2:
            continue
        lines.append(f"- line: [{', '.join(json.dumps(m) for m in line)}]")
        lines.append("  moves:")
        rows = []
        for move, by_game in moves.items():
            values = list(by_game.values())
            rows.append((statistics.fmean(values), move, len(values), min(values)))
        for mean, move, count, worst in sorted(rows, key=lambda r: (-r[0], r[1])):
            lines.append(f"  - {{move: {json.dumps(move)}, games: {count}, margin: {mean:.2f}, worst: {worst}}}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
