"""Work across machines on Ray: exact solves split into subproblems, and engine matches played
pair by pair, each a Ray task with the Rust library doing the work inside it.

    >>> import ray, cathedral
    >>> from cathedral import distributed
    >>> ray.init()                                        # or ray.init(address="auto")
    >>> distributed.solve(cathedral.Position.load("puzzles/bench/t10-01.yaml"),
    ...                   knowledge="t10-01.jsonl")       # doctest: +SKIP

How it works (``docs/distributed.md``):

1. The position's tree is expanded ``split_depth`` plies (1 by default: the root moves). Every
   position at the frontier is a subproblem; a game already over is its own value.
2. Each subproblem is solved exactly by a Ray task (``cathedral.solve`` on the worker, the Rust
   solver without the GIL), with no window: its exact value, which the root's minimax and every
   root move's value need. (Splitting a slow subproblem further was tried and dropped: solving
   every child of a position exactly is a ply without the cut-offs one solve makes, and on t8-03
   it ran for minutes where the whole solve takes a second; ``docs/distributed.md``.)
3. Every proven subproblem is appended at once to the run's *knowledge file* (JSON lines,
   keyed by the position's key and checked against its file text). A rerun with the same file
   skips what it holds, so a finished subproblem is never lost; a task whose worker dies is
   retried by Ray.
4. The root's exact value and best line come from minimax over the proven values. The line
   (the best moves down to the subproblem, then its own best line) is replayed to the end of
   the game and must end at the value, or the solve raises.

Every root move gets its exact value, as ``cathedral solve`` reports them by default.

:func:`match` plays an engine match the way ``cathedral match`` does (the same pairs, seeds,
records, statistics and sequential test), each pair a Ray task: the same seeds give the same
games whatever the number of workers.
"""

from __future__ import annotations

import json
import os
import time
from time import perf_counter as _now
from dataclasses import dataclass, field
from pathlib import Path

from ._cathedral import (
    CathedralError,
    Position,
    Sprt,
    match_summary,
    play_game,
    play_pair,
    player_name,
)
from ._cathedral import bestmove
from ._options import check, check_list, check_pair
from ._cathedral import solve as _solve


@dataclass
class _Node:
    """A position of the expanded tree: its children, or the subproblem it stands for."""

    position: Position
    moves: list[str]
    children: list[tuple[str, "_Node"]] = field(default_factory=list)
    result: dict | None = None


def _key(position: Position) -> str:
    return f"{position.key:032x}"


def _remaining(deadline: float | None) -> float | None:
    """Seconds left before ``deadline`` (wall-clock time, so that tasks on other machines share
    it), or None without one."""
    return None if deadline is None else deadline - time.time()


def _out_of_time(position: Position, started: float) -> dict:
    """What a task reports when the deadline passed before it began: only the bounds every
    position has (a player's unplaced squares can only fall)."""
    unplaced = position.unplaced()
    mover = position.to_move
    other = "dark" if mover == "light" else "light"
    return {
        "key": _key(position),
        "value": None,
        "lower": -unplaced[mover],
        "upper": unplaced[other],
        "complete": False,
        "best_line": [],
        "nodes": 0,
        "seconds": time.perf_counter() - started,
    }


def _solve_subproblem(text: str, threads: int, tt_mb: int, crash_once: str | None, deadline: float | None = None) -> dict:
    """A Ray task: the exact solve of one subproblem, with what it cost; with a deadline, the
    proven bounds if it passes first."""
    if crash_once is not None and not os.path.exists(crash_once):
        # Test hook: the first attempt's worker dies in the middle of its task.
        Path(crash_once).touch()
        os._exit(1)
    position = Position.from_text(text)
    started = time.perf_counter()
    left = _remaining(deadline)
    if left is not None and left <= 0:
        return _out_of_time(position, started)
    report = _solve(position, threads=threads, tt_mb=tt_mb, root_values=False, time=left)
    if not report["complete"] and left is None:
        raise CathedralError(f"internal error: a solve without limits ended unproven: {report}")
    return {
        "key": _key(position),
        "value": report["value"] if report["complete"] else None,
        "lower": report["lower"],
        "upper": report["upper"],
        "complete": report["complete"],
        "best_line": (report.get("best_line") or []) if report["complete"] else [],
        "nodes": report["stats"]["nodes"],
        "seconds": time.perf_counter() - started,
    }


def _solve_windowed(text: str, root_to_move: str, threads: int, tt_mb: int, bound, crash_once: str | None,
                    deadline: float | None = None) -> dict:
    """A Ray task: a root move's subproblem decided against the best root value proven so far
    (read from the run's bound actor as the task starts): refuted (the move is worth at most
    that), or solved exactly; with a deadline, the proven bounds if it passes first."""
    import ray

    if crash_once is not None and not os.path.exists(crash_once):
        Path(crash_once).touch()
        os._exit(1)
    position = Position.from_text(text)
    started = time.perf_counter()
    left = _remaining(deadline)
    if left is not None and left <= 0:
        return dict(_out_of_time(position, started), window=None)
    alpha = ray.get(bound.get.remote())
    flip = position.to_move != root_to_move
    window = None
    if alpha is not None and not position.is_over:
        # The move is worth -v (or v after a pass): it matters only above alpha.
        window = (-1000, -alpha) if flip else (alpha, 1000)
    report = _solve(position, threads=threads, tt_mb=tt_mb, root_values=False, window=window, time=left)
    if not report["complete"] and left is None:
        raise CathedralError(f"internal error: a solve without limits ended undecided: {report}")
    exact = report["complete"] and report["lower"] == report["upper"]
    return {
        "key": _key(position),
        "value": report["lower"] if exact else None,
        "lower": report["lower"],
        "upper": report["upper"],
        "complete": report["complete"],
        "best_line": (report.get("best_line") or []) if exact else [],
        "window": window,
        "nodes": report["stats"]["nodes"],
        "seconds": time.perf_counter() - started,
    }


class _Bound:
    """The best root value proven so far, shared by a run's tasks (a Ray actor)."""

    def __init__(self):
        self.best = None

    def get(self):
        return self.best

    def offer(self, value: int):
        if self.best is None or value > self.best:
            self.best = value
        return self.best


class Knowledge:
    """A run's proven subproblems, one JSON object a line, appended as each is proven (and
    flushed to disk), so that an interrupted or repeated run keeps them."""

    def __init__(self, path: str | os.PathLike | None):
        check("path", path, "path", none=True)
        self.path = Path(path) if path is not None else None
        self.known: dict[str, dict] = {}
        # Where each entry read from the file is (its line), so that one the replay contradicts
        # can be named; entries added by this run have none.
        self.lines: dict[str, int] = {}
        if self.path is not None and self.path.exists():
            if not self.path.is_file():
                raise CathedralError(f"knowledge={str(self.path)!r}: not a file; expected a JSON-lines file")
            for number, line in enumerate(self.path.read_text().splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    entry = json.loads(line)
                    self.known[entry["key"]] = entry
                    self.lines[entry["key"]] = number
                except (json.JSONDecodeError, KeyError, TypeError) as error:
                    raise CathedralError(
                        f"{self.path}:{number}: not a knowledge line ({error}); expected a JSON object with a key"
                    ) from None

    def get(self, position: Position) -> dict | None:
        entry = self.known.get(_key(position))
        # A key collision would need the same 128-bit key: the text settles it.
        if entry is not None and entry.get("text") == position.file_text():
            return entry
        return None

    def origin(self, position: Position) -> str | None:
        """``path:line: entry`` for an entry read from the file, else None."""
        key = _key(position)
        if key not in self.lines or self.path is None:
            return None
        entry = {k: v for k, v in self.known[key].items() if k != "text"}
        return f"{self.path}:{self.lines[key]}: the knowledge entry {json.dumps(entry)}"

    def add(self, position: Position, result: dict) -> None:
        entry = dict(result, text=position.file_text())
        self.known[entry["key"]] = entry
        self.lines.pop(entry["key"], None)
        if self.path is not None:
            with self.path.open("a") as out:
                out.write(json.dumps(entry) + "\n")
                out.flush()
                os.fsync(out.fileno())

    def check_replay(self, position: Position, entry: dict) -> None:
        """An entry read from the file must hold: its best line replays from its position to the
        end of the game at its value. Raises ``CathedralError`` naming the file, the line and the
        entry otherwise (a hand-edited or corrupted file, or one from another build's rules)."""
        where = self.origin(position)
        if where is None or entry.get("value") is None:
            return
        end = position
        try:
            for move in entry.get("best_line") or []:
                end = end.after(move)
        except CathedralError as error:
            raise CathedralError(f"{where} contradicts the replay: {error}; remove the line and solve again") from None
        if not end.is_over:
            raise CathedralError(
                f"{where} contradicts the replay: its best line does not reach the end of the game; "
                "remove the line and solve again"
            )
        unplaced = end.unplaced()
        mover = position.to_move
        other = "dark" if mover == "light" else "light"
        margin = unplaced[other] - unplaced[mover]
        if margin != entry["value"]:
            raise CathedralError(
                f"{where} contradicts the replay: its best line ends at {margin:+d} for {mover}, not at its "
                f"value {entry['value']:+d}; remove the line and solve again"
            )


def _expand(node: _Node, depth: int) -> list[_Node]:
    """Expands ``node`` ``depth`` plies; returns the frontier (the subproblems)."""
    if depth == 0 or node.position.is_over:
        return [node]
    frontier = []
    for move in node.position.legal_moves():
        child = _Node(node.position.after(move), node.moves + [_notation(node.position, move)])
        node.children.append((_notation(node.position, move), child))
        frontier.extend(_expand(child, depth - 1))
    return frontier


def _notation(position: Position, move: str) -> str:
    """``move`` with its player prefix, as ``cathedral.solve`` writes moves (``legal_moves``
    leaves the prefix out; the Cathedral, too, is written with the player who places it)."""
    if move.startswith(("light:", "dark:")):
        return move
    return f"{position.to_move}:{move}"


def _trivial(position: Position) -> tuple[int, int]:
    """The bounds every position has, from its side to move's view: a player's unplaced
    squares can only fall."""
    unplaced = position.unplaced()
    mover = position.to_move
    other = "dark" if mover == "light" else "light"
    return -unplaced[mover], unplaced[other]


def _bounds(node: _Node) -> tuple[int, int]:
    """The node's proven bounds from its side to move's view (equal when it is solved)."""
    if node.position.is_over:
        return node.position.value, node.position.value
    if not node.children:
        result = node.result
        if result is None:
            return _trivial(node.position)
        if result.get("value") is not None:
            return result["value"], result["value"]
        return result["lower"], result["upper"]
    lower = upper = None
    for _, child in node.children:
        low, high = _bounds(child)
        if child.position.to_move != node.position.to_move:
            low, high = -high, -low
        lower = low if lower is None else max(lower, low)
        upper = high if upper is None else max(upper, high)
    return lower, upper


def _value(node: _Node) -> int | None:
    """The node's exact value from its side to move's view, or None while it is not proven."""
    lower, upper = _bounds(node)
    return lower if lower == upper else None


def _replayed_to(position: Position, line: list[str], value: int) -> dict:
    """The proof's check: ``line`` replays from ``position`` to the end of the game and ends at
    ``value`` for the side to move; the unplaced squares at the end."""
    end = position
    for move in line:
        end = end.after(move)
    if not end.is_over:
        raise CathedralError("internal error: the best line does not reach the end of the game")
    unplaced = end.unplaced()
    mover = position.to_move
    other = "dark" if mover == "light" else "light"
    if unplaced[other] - unplaced[mover] != value:
        raise CathedralError("internal error: the best line does not end at the value")
    return unplaced


def _root_move(move: str, lower: int, upper: int) -> dict:
    """A root move as ``cathedral.solve`` lists it: ``move``, ``value`` (None until proven),
    ``lower``, ``upper``."""
    return {"move": move, "value": lower if lower == upper else None, "lower": lower, "upper": upper}


def _report(mover, lower, upper, line, root_moves, unplaced, solved, reused, subproblems, started,
            threads) -> dict:
    """A distributed solve's answer: the keys of ``cathedral.solve`` (``solve --json``), and the
    run's cost. Unfinished (a time limit), ``value`` is None and ``lower``/``upper`` are the
    proven bounds, as ``cathedral.solve`` reports them."""
    complete = lower == upper
    value = lower if complete else None
    nodes = sum(s.get("nodes", 0) for s in subproblems)
    seconds = time.perf_counter() - started
    best_so_far = line[0] if line else None
    if not complete and root_moves:
        # As cathedral.solve: the move with the best proven lower bound so far.
        best_so_far = max(root_moves, key=lambda m: m["lower"])["move"]
    return {
        "to_move": mover,
        "value": value,
        "lower": lower,
        "upper": upper,
        "complete": complete,
        "wdl": False,
        "best_move": line[0] if complete and line else None,
        "best_so_far": best_so_far,
        "best_line": line if complete else [],
        "solution": {"value": value, "best_move": line[0] if line else None, "best_line": line, "nodes": nodes}
        if complete
        else None,
        "root_moves": root_moves,
        "final_unplaced": unplaced,
        "stats": {"nodes": nodes, "seconds": seconds, "nodes_per_second": nodes / max(seconds, 1e-9),
                  "threads": threads},
        "tasks": solved,
        "reused": reused,
        "subproblems": subproblems,
        "seconds": seconds,
    }


def _line(node: _Node) -> tuple[list[str], _Node | None]:
    """The best line from a solved ``node``: the best child (the first of the best in move
    order), down to a subproblem, then its own best line; and that subproblem."""
    if node.position.is_over:
        return [], None
    if not node.children:
        return list(node.result["best_line"]), node
    target = _value(node)
    for move, child in node.children:
        value = _value(child)
        if value is None:
            continue
        if child.position.to_move != node.position.to_move:
            value = -value
        if value == target:
            rest, leaf = _line(child)
            return [move] + rest, leaf
    raise CathedralError("internal error: no child has the node's value")


def _is_integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_solve_options(position, knowledge, split_depth, threads_per_task, tt_mb, root_values, order_nodes,
                         time_limit, games=("cathedral",)) -> None:
    """Every option of :func:`solve` (and :func:`prove`), checked before Ray starts or any task
    runs."""
    name = "prove" if "corintho" in games else "solve"
    if not isinstance(position, Position):
        raise TypeError(f"distributed.{name}(position={position!r}): expected a cathedral.Position")
    if position.game not in games:
        raise CathedralError(f"distributed.{name} takes {' and '.join(games).title()} positions, not {position.game}")
    if knowledge is not None and not isinstance(knowledge, (str, os.PathLike)):
        raise CathedralError(f"knowledge={knowledge!r}: expected None or a file path")
    if not _is_integer(split_depth) or not 1 <= split_depth <= 3:
        raise CathedralError(f"split_depth={split_depth!r}: expected 1 to 3")
    if not _is_integer(threads_per_task) or not 0 <= threads_per_task <= 64:
        raise CathedralError(f"threads_per_task={threads_per_task!r}: expected 0 (all cores) to 64")
    if not _is_integer(tt_mb) or not 1 <= tt_mb <= 65536:
        raise CathedralError(f"tt_mb={tt_mb!r}: expected 1 to 65536 (MiB per task)")
    if not isinstance(root_values, bool):
        raise CathedralError(f"root_values={root_values!r}: expected True or False")
    if not _is_integer(order_nodes) or not 1 <= order_nodes <= 1_000_000_000:
        raise CathedralError(f"order_nodes={order_nodes!r}: expected 1 to 1000000000")
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 < time_limit < float("inf")
    ):
        raise CathedralError(f"time_limit={time_limit!r}: expected None (no limit) or seconds above 0")
    if not root_values and split_depth != 1:
        raise CathedralError("root_values=False splits at the root: split_depth must be 1")


def _wait_all(pending: dict, deadline: float | None):
    """Yields ``(key, result)`` as the tasks end. Past the deadline every task stops by itself;
    one that has not ended a minute later (a lost machine, say) is cancelled and yields None."""
    import ray

    while pending:
        timeout = None if deadline is None else max(0.0, deadline - time.time()) + 60.0
        done, _ = ray.wait(list(pending), num_returns=1, timeout=timeout)
        if not done:
            for ref in list(pending):
                ray.cancel(ref, force=True)
                yield pending.pop(ref), None
            return
        key = pending.pop(done[0])
        yield key, ray.get(done[0])


def solve(
    position: Position,
    *,
    knowledge: str | os.PathLike | None = None,
    split_depth: int = 1,
    threads_per_task: int = 1,
    tt_mb: int = 256,
    root_values: bool = True,
    order_nodes: int = 200_000,
    time_limit: float | None = None,
    _crash_once: str | None = None,
) -> dict:
    """Solves a Cathedral position exactly on the Ray cluster ``ray.init`` joined (a local one
    of all cores if none): the value from the side to move's view, the best move and line, every
    root move's value, and what the run cost (see the module's docstring). The answer has the
    keys and the notation of :func:`cathedral.solve`.

    ``knowledge`` is the run's file of proven subproblems (read first, appended to as the solve
    goes); ``split_depth`` (1 to 3) the plies expanded before the tasks (each position there is
    one task); ``threads_per_task`` the solver's threads in each task (0: all of a machine's
    cores), which is also the CPUs a task asks Ray for; ``tt_mb`` each task's table.

    ``time_limit`` (seconds, wall-clock time from the call) stops the solve: every task stops at
    the deadline with its proven bounds, and the answer is then ``complete: False`` with
    ``value`` None and the root's proven ``lower`` and ``upper`` bounds (each root move's too),
    as ``cathedral.solve(time=...)`` reports them. Only proven subproblems go to the knowledge
    file, so a rerun with the same file goes on from there.

    ``root_values=False`` asks for the value and the best line only, as ``cathedral solve
    --value-only`` does: the root moves, ordered by the engine (``order_nodes`` each),
    become tasks that read the best root value proven so far from a Ray actor as they start and
    only decide their move against it (refuted: worth at most that; or solved exactly), the
    windows of an alpha-beta search shared across the cluster. A refuted move has ``value``
    None and its bounds, its ``upper`` also as ``at_most``.

    Every option is checked before Ray starts; an entry of the knowledge file that the replay
    contradicts raises ``CathedralError`` naming the file, its line and the entry.
    """
    _check_solve_options(position, knowledge, split_depth, threads_per_task, tt_mb, root_values, order_nodes,
                         time_limit)
    store = Knowledge(knowledge)
    import ray

    deadline = None if time_limit is None else time.time() + time_limit
    if not ray.is_initialized():
        ray.init()
    if not root_values:
        return _solve_with_windows(position, store, threads_per_task, tt_mb, order_nodes, _crash_once, deadline)
    started = time.perf_counter()
    task = ray.remote(num_cpus=max(1, threads_per_task), max_retries=3)(_solve_subproblem)
    root = _Node(position, [])
    pending: dict = {}
    reused = solved = 0
    subproblems: list[dict] = []

    def submit(node: _Node) -> None:
        nonlocal reused
        if node.position.is_over:
            return
        known = store.get(node.position)
        # An entry of a windowed run may hold only bounds: such a one is solved again.
        if known is not None and known.get("value") is not None:
            node.result = known
            reused += 1
            return
        ref = task.remote(node.position.file_text(), threads_per_task, tt_mb, _crash_once, deadline)
        pending[ref] = node

    for node in _expand(root, split_depth):
        submit(node)
    for node, result in _wait_all(pending, deadline):
        if result is None:
            continue
        solved += 1
        node.result = result
        if result.get("value") is not None:
            store.add(node.position, result)
        subproblems.append(
            {"moves": node.moves, "value": result["value"], "lower": result.get("lower", result["value"]),
             "upper": result.get("upper", result["value"]), "nodes": result["nodes"], "seconds": result["seconds"]}
        )

    lower, upper = _bounds(root)
    root_moves = []
    for move, child in root.children:
        low, high = _bounds(child)
        if child.position.to_move != position.to_move:
            low, high = -high, -low
        root_moves.append(_root_move(move, low, high))
    root_moves.sort(key=lambda m: (-m["lower"], -m["upper"]))
    line, unplaced = [], None
    if lower == upper:
        line, leaf = _line(root)
        if leaf is not None:
            store.check_replay(leaf.position, leaf.result)
        unplaced = _replayed_to(position, line, lower)
    return _report(position.to_move, lower, upper, line, root_moves, unplaced, solved, reused, subproblems,
                   started, threads_per_task)


def _solve_with_windows(position, store, threads_per_task, tt_mb, order_nodes, crash_once, deadline) -> dict:
    import ray

    started = time.perf_counter()
    mover = position.to_move
    moves = position.legal_moves()
    # The engine's order: likely best first, so that the first tasks set a high bound early.
    ranked = bestmove(position, nodes=order_nodes, candidates=min(100, len(moves)), book="none")["candidates"]
    first = []
    for candidate in ranked:
        for move in moves:
            if move not in first and position.after(move) == position.after(candidate["mv"]):
                first.append(move)
                break
    order = first + [m for m in moves if m not in first]
    children = {m: position.after(m) for m in order}
    flip = {m: children[m].to_move != mover for m in order}

    def move_bounds(m, lower, upper):
        return (-upper, -lower) if flip[m] else (lower, upper)

    results: dict[str, dict] = {}
    best = None
    # What the knowledge file holds: exact values first (they set the bound), then refutations
    # that the bound still covers.
    for m in order:
        child = children[m]
        if child.is_over:
            v = child.value
            results[m] = {"lower": v, "upper": v, "best_line": [], "reused": False}
            continue
        entry = store.get(child)
        if entry is not None:
            lower, upper = entry.get("lower", entry.get("value")), entry.get("upper", entry.get("value"))
            if lower is not None and lower == upper:
                results[m] = dict(entry, lower=lower, upper=upper, reused=True)
    for m, r in results.items():
        if r["lower"] == r["upper"]:
            value = move_bounds(m, r["lower"], r["upper"])[0]
            best = value if best is None else max(best, value)
    for m in order:
        entry = store.get(children[m]) if m not in results else None
        if entry is not None and "upper" in entry and best is not None:
            if move_bounds(m, entry["lower"], entry["upper"])[1] <= best:
                results[m] = dict(entry, reused=True)
    bound = ray.remote(num_cpus=0)(_Bound).remote()
    if best is not None:
        ray.get(bound.offer.remote(best))
    task = ray.remote(num_cpus=max(1, threads_per_task), max_retries=3)(_solve_windowed)
    pending = {
        task.remote(children[m].file_text(), mover, threads_per_task, tt_mb, bound, crash_once, deadline): m
        for m in order
        if m not in results
    }
    solved = len(pending)
    subproblems = []
    for m, r in _wait_all(pending, deadline):
        if r is None:
            continue
        results[m] = dict(r, reused=False)
        if r.get("complete", True):
            store.add(children[m], r)
        lower, upper = move_bounds(m, r["lower"], r["upper"])
        if lower == upper:
            best = ray.get(bound.offer.remote(lower))
        subproblems.append({"move": _notation(position, m), "window": r["window"], "lower": lower, "upper": upper,
                            "nodes": r["nodes"], "seconds": r["seconds"]})
    root_moves = []
    for m in order:
        # A window's edge (±1000) is no bound of the game: the trivial bounds are tighter.
        low, high = _trivial(children[m]) if not children[m].is_over else (children[m].value,) * 2
        if m in results:
            low, high = max(low, results[m]["lower"]), min(high, results[m]["upper"])
        lower, upper = move_bounds(m, low, high)
        entry = _root_move(_notation(position, m), lower, upper)
        if lower != upper:
            entry["at_most"] = upper
        root_moves.append(entry)
    root_moves.sort(key=lambda r: (-(r["value"] if r["value"] is not None else r["upper"]), -r["lower"]))
    # Every move is exact or refuted under a bound no higher than the best exact value: the
    # best exact value is the root's. A time limit may leave moves undecided: then the root has
    # bounds only.
    exact = {m["move"]: m["value"] for m in root_moves if m["value"] is not None}
    root_lower = max(m["lower"] for m in root_moves)
    root_upper = max(m["upper"] for m in root_moves)
    reused = sum(1 for r in results.values() if r.get("reused"))
    if root_lower != root_upper:
        if deadline is None:
            raise CathedralError("internal error: a root move is neither refuted nor solved")
        return _report(mover, root_lower, root_upper, [], root_moves, None, solved, reused, subproblems, started,
                       threads_per_task)
    value = root_lower
    best_move = next(m for m in order if exact.get(_notation(position, m)) == value)
    result = results[best_move]
    if result.get("reused"):
        store.check_replay(children[best_move], result)
    line = [_notation(position, best_move)] + list(result.get("best_line") or [])
    unplaced = _replayed_to(position, line, value)
    return _report(mover, value, value, line, root_moves, unplaced, solved, reused, subproblems, started,
                   threads_per_task)


def simulate(seconds: list[float], workers: int) -> float:
    """The time ``workers`` would take for subproblems that took ``seconds`` each, handed out
    longest first to the worker free soonest (what a dynamic scheduler approaches, with no
    overhead): a model for scaling, from measured sizes."""
    import heapq

    check_list("seconds", seconds, "number")
    check("workers", workers, "whole")
    if workers < 1:
        raise CathedralError(f"workers={workers}: expected at least 1")
    loads = [0.0] * workers
    for duration in sorted(seconds, reverse=True):
        heapq.heapreplace(loads, loads[0] + duration)
    return max(loads)


def _play_pair_task(a: str, b: str, pair: int, settings: dict, opening: list[str] | None):
    """A Ray task: one pair of the match (the `Pair` pickles as its moves, replayed on arrival)."""
    return play_pair(a, b, pair, opening=opening, **settings)


def _write_atomically(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".partial")
    with partial.open("w") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)


def match(
    a: str,
    b: str,
    *,
    games: int = 20,
    seed: int = 1,
    opening_plies: int = 2,
    openings: list[list[str]] | None = None,
    nodes: int | None = None,
    time: float | None = None,
    clock: tuple[float, float] | None = None,
    rules: str = "classic",
    game: str = "cathedral",
    tt_mb: int = 16,
    output: str | os.PathLike | None = None,
    force: bool = False,
    sprt: tuple[float, float] | None = None,
    sprt_on: str = "games",
    alpha: float = 0.05,
    beta: float = 0.05,
    in_flight: int | None = None,
    on_pair=None,
) -> dict:
    """Plays an engine match on the Ray cluster ``ray.init`` joined, each pair of games a task,
    and returns what ``cathedral match --json`` prints: ``summary``, ``seconds``,
    ``games_per_minute``, ``interrupted``, ``records``, ``sprt`` (with ``sprt``) and ``pairs``.

    ``a`` and ``b`` are built-in players as ``cathedral match --a`` names them (``engine``,
    ``engine:level=5``, ``greedy``, ``policy``, ``random``); ``games`` is even (with ``sprt``,
    the most to play); ``nodes``, ``time`` or ``clock`` is each move's budget (nodes make the
    games the same on every machine); ``seed`` and ``opening_plies`` the seeded openings, or
    ``openings`` the moves each pair starts from (pair ``i`` plays ``openings[i - 1]``; ``games``
    is then twice their number). ``output`` is a folder for the records, ``pair-NNNN.yaml`` as
    ``match --output`` writes them (it must hold no files unless ``force``).

    ``sprt=(elo0, elo1)`` stops at the verdict of the sequential test, fed with the pairs in
    order (``sprt_on``: ``"games"`` or ``"pairs"``, as ``--sprt-on``); the pairs after the
    deciding one are cancelled and not counted, so the result does not depend on the number of
    workers. ``in_flight`` is how many pairs run at once (default: twice the cluster's CPUs);
    ``on_pair(pair, counted)`` is called as each pair is counted, with the pairs counted so far
    (``match_summary`` gives their statistics). Ctrl-C stops the match and
    returns what was counted, with ``interrupted`` true.
    """
    import ray

    # Every option's type first, in words that name it, before anything runs.
    check("a", a, "str")
    check("b", b, "str")
    for name, value in (("games", games), ("seed", seed), ("opening_plies", opening_plies), ("tt_mb", tt_mb)):
        check(name, value, "whole")
    check_list("openings", openings, "str", none=True, depth=2)
    check("nodes", nodes, "whole", none=True)
    check("time", time, "number", none=True)
    check_pair("clock", clock, none=True)
    check("rules", rules, "str")
    check("game", game, "str")
    check("output", output, "path", none=True)
    check("force", force, "bool")
    check_pair("sprt", sprt, none=True)
    check("sprt_on", sprt_on, "str")
    check("alpha", alpha, "number")
    check("beta", beta, "number")
    check("in_flight", in_flight, "whole", none=True)
    check("on_pair", on_pair, "callable", none=True)
    if openings is not None:
        if not openings:
            raise CathedralError("openings=[]: expected at least one opening")
        games = 2 * len(openings)
    if not (isinstance(games, int) and 2 <= games <= 10_000_000 and games % 2 == 0):
        raise CathedralError(
            f"games={games}: expected an even number from 2 (games are played in pairs with colours swapped)"
        )
    if sprt_on not in ("games", "pairs"):
        raise CathedralError(f"sprt_on={sprt_on!r}: expected 'games' or 'pairs'")
    if in_flight is not None and not 1 <= in_flight <= 100_000:
        raise CathedralError(f"in_flight={in_flight}: expected 1 to 100000")
    test = Sprt(sprt[0], sprt[1], alpha, beta) if sprt is not None else None
    budget = {"nodes": nodes, "time": time, "clock": clock}
    names = [player_name(a, **budget), player_name(b, **budget)]
    settings = dict(
        game=game, rules=rules, seed=seed, opening_plies=opening_plies, tt_mb=tt_mb, **budget
    )
    # The settings are checked here, before any task starts (the players and the budget by
    # naming them above): a bad match fails on the driver with the library's message.
    if not 1 <= tt_mb <= 65536:
        raise CathedralError(f"tt_mb={tt_mb}: expected 1 to 65536 (MiB)")
    start = Position(rules, game=game) if game == "cathedral" else Position(game=game)
    for number, opening in enumerate(openings or [], 1):
        position = start
        for text in opening:
            try:
                position = position.after(text)
            except CathedralError as error:
                raise CathedralError(f"openings[{number - 1}]: {error}") from None
    folder = Path(output) if output is not None else None
    if folder is not None:
        if folder.exists():
            if not folder.is_dir():
                raise CathedralError(f"{folder}: not a folder")
            if any(folder.iterdir()) and not force:
                raise CathedralError(f"{folder} holds files: give force=True to write into it")
        else:
            folder.mkdir(parents=True)
    if not ray.is_initialized():
        ray.init()
    if in_flight is None:
        in_flight = max(1, 2 * int(ray.cluster_resources().get("CPU", 1)))
    task = ray.remote(num_cpus=1, max_retries=3)(_play_pair_task)
    pairs = games // 2
    started = _now()
    pending: dict = {}
    finished: dict[int, object] = {}
    counted: list = []
    next_pair = 1
    interrupted = False

    def submit() -> None:
        nonlocal next_pair
        while len(pending) < in_flight and next_pair <= pairs:
            opening = openings[next_pair - 1] if openings is not None else None
            pending[task.remote(a, b, next_pair, settings, opening)] = next_pair
            next_pair += 1

    try:
        submit()
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            pending.pop(done[0])
            result = ray.get(done[0])
            finished[result.pair] = result
            # Count the pairs in order, whatever order they finish in.
            while len(counted) + 1 in finished:
                pair = finished.pop(len(counted) + 1)
                counted.append(pair)
                if folder is not None:
                    _write_atomically(folder / f"pair-{pair.pair:04}.yaml", pair.records_text())
                if test is not None:
                    points = pair.a_half_points if sprt_on == "games" else round(4 * pair.a_score)
                    test.add_pair(points)
                if on_pair is not None:
                    on_pair(pair, counted)
                if test is not None and test.verdict != "continue":
                    break
            if test is not None and test.verdict != "continue":
                break
            submit()
    except KeyboardInterrupt:
        interrupted = True
    for ref in pending:
        ray.cancel(ref)
    elapsed = _now() - started
    report = {
        "summary": match_summary(names[0], names[1], counted),
        "seconds": elapsed,
        "games_per_minute": 2 * len(counted) / max(elapsed, 1e-9) * 60,
        "interrupted": interrupted,
        "records": str(folder) if folder is not None else None,
    }
    if test is not None:
        report["sprt"] = test.to_dict()
    report["pairs"] = [pair.to_dict() for pair in counted]
    return report


def _play_game_task(first: str, second: str, opening: list[str], settings: dict) -> dict:
    """A Ray task: one game from an opening."""
    return play_game(first, second, opening=opening, **settings)


def play_games(
    openings: list[list[str]],
    first: str = "engine",
    second: str | None = None,
    *,
    results: str | os.PathLike | None = None,
    in_flight: int | None = None,
    on_game=None,
    **settings,
) -> list[dict]:
    """Plays one game from each opening (moves in the notation) on the Ray cluster, ``first``
    in the first seat and ``second`` (default: the same player) in the second, each game a task;
    returns the games in the openings' order, as :func:`cathedral.play_game` gives them.

    ``settings`` go to :func:`cathedral.play_game` (``nodes``, ``rules``, ``seed``, ...). A node
    budget makes every game the same on every machine; with the same player in both seats a
    pair would repeat one game, so an opening study plays one. ``results`` is a JSON-lines file
    of finished games, appended and flushed as each ends, keyed by the players, the settings and
    the opening: a rerun with the same file plays only what it lacks, so an interrupted study
    keeps what it found. ``on_game(index, game)`` is called as each game ends.
    """
    import ray

    check_list("openings", openings, "str", depth=2)
    check("first", first, "str")
    check("second", second, "str", none=True)
    check("results", results, "path", none=True)
    check("in_flight", in_flight, "whole", none=True)
    check("on_game", on_game, "callable", none=True)
    second = first if second is None else second
    player_name(first, nodes=settings.get("nodes"), time=settings.get("time"))
    player_name(second, nodes=settings.get("nodes"), time=settings.get("time"))
    if in_flight is not None and not 1 <= in_flight <= 100_000:
        raise CathedralError(f"in_flight={in_flight}: expected 1 to 100000")
    context = json.dumps({"first": first, "second": second, **settings}, sort_keys=True)

    def key(opening: list[str]) -> str:
        return context + "|" + " ".join(opening)

    store: dict[str, dict] = {}
    path = Path(results) if results is not None else None
    if path is not None and path.exists():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                store[entry["key"]] = entry["game"]
            except (json.JSONDecodeError, KeyError, TypeError) as error:
                raise CathedralError(
                    f"{path}:{number}: not a game line ({error}); expected a JSON object with key and game"
                ) from None
    games: list[dict | None] = [store.get(key(opening)) for opening in openings]
    if not ray.is_initialized():
        ray.init()
    if in_flight is None:
        in_flight = max(1, 2 * int(ray.cluster_resources().get("CPU", 1)))
    task = ray.remote(num_cpus=1, max_retries=3)(_play_game_task)
    todo = [i for i, game in enumerate(games) if game is None]
    pending: dict = {}
    out = path.open("a") if path is not None else None
    try:
        while todo or pending:
            while todo and len(pending) < in_flight:
                i = todo.pop(0)
                pending[task.remote(first, second, openings[i], settings)] = i
            done, _ = ray.wait(list(pending), num_returns=1)
            i = pending.pop(done[0])
            game = ray.get(done[0])
            games[i] = game
            if out is not None:
                out.write(json.dumps({"key": key(openings[i]), "game": game}) + "\n")
                out.flush()
                os.fsync(out.fileno())
            if on_game is not None:
                on_game(i, game)
    finally:
        for ref in pending:
            ray.cancel(ref)
        if out is not None:
            out.close()
    return games


# ---------------------------------------------------------------------------------------------
# Win, draw or loss by proof-number search, split over the cluster (issue 48).


def _prove_subproblem(text: str, threads: int, tt_mb: int, deadline: float | None) -> dict:
    """A Ray task: win, draw or loss of one position by proof-number search, with what it cost;
    with a deadline, the proven sign bounds if it passes first."""
    position = Position.from_text(text)
    started = time.perf_counter()
    left = _remaining(deadline)
    if left is not None and left <= 0:
        return {"key": _key(position), "value": None, "lower": -1, "upper": 1, "complete": False,
                "best_line": [], "nodes": 0, "seconds": 0.0}
    report = _solve(position, threads=threads, tt_mb=tt_mb, root_values=False, wdl=True, method="proof-number",
                    time=left)
    exact = report["lower"] == report["upper"]
    return {
        "key": _key(position),
        "value": report["lower"] if exact else None,
        "lower": report["lower"],
        "upper": report["upper"],
        "complete": exact,
        "best_line": (report.get("best_line") or []) if exact else [],
        # Cathedral's report keeps its figures under `stats`, Corintho's at the top.
        "nodes": report.get("stats", report)["nodes"],
        "seconds": time.perf_counter() - started,
    }


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _sign_bounds(node: _Node) -> tuple[int, int]:
    """The node's proven win/draw/loss bounds (-1..1) from its side to move's view."""
    if node.position.is_over:
        return _sign(node.position.value), _sign(node.position.value)
    if not node.children:
        result = node.result
        return (-1, 1) if result is None else (result["lower"], result["upper"])
    lower = upper = -1
    for _, child in node.children:
        low, high = _sign_bounds(child)
        if child.position.to_move != node.position.to_move:
            low, high = -high, -low
        lower, upper = max(lower, low), max(upper, high)
    return lower, upper


def _expand_moves(node: _Node, depth: int, written) -> list[_Node]:
    """Expands ``node`` ``depth`` plies (moves written by ``written``); returns the frontier."""
    if depth == 0 or node.position.is_over:
        return [node]
    frontier = []
    for move in node.position.legal_moves():
        child = _Node(node.position.after(move), node.moves + [written(node.position, move)])
        node.children.append((written(node.position, move), child))
        frontier.extend(_expand_moves(child, depth - 1, written))
    return frontier


def prove(
    position: Position,
    *,
    knowledge: str | os.PathLike | None = None,
    split_depth: int = 1,
    threads_per_task: int = 1,
    tt_mb: int = 256,
    time_limit: float | None = None,
) -> dict:
    """Win, draw or loss of a Cathedral or two-player Corintho position, proven on the Ray cluster
    ``ray.init`` joined (a local one of all cores if none) by proof-number search: the tree is
    expanded ``split_depth`` plies (1 to 3) and each position there is a task
    (``cathedral.solve(wdl=True, method="proof-number")``); their results are backed up by
    minimax on the sign. Once the root's result, or a root move's, is decided, the tasks that
    can no longer change it are cancelled.

    ``knowledge`` is the run's file of proven positions, one JSON object a line (read first,
    appended to as tasks prove their positions), so that a rerun goes on from there; an entry
    is used only for the very position it was written for (its key and its file text).
    ``time_limit`` stops every task at the deadline with what it proved.

    The answer: ``value`` (+1 win, 0 draw, -1 loss for the side to move; None unless proven),
    ``lower`` and ``upper``, ``complete``, ``root_moves`` (each with its sign bounds), and the
    cost: ``tasks`` run, ``reused`` from the knowledge file, ``cancelled``, ``nodes``,
    ``task_seconds`` (their sum) and ``seconds`` (wall-clock time).
    """
    _check_solve_options(position, knowledge, split_depth, threads_per_task, tt_mb, True, 1, time_limit,
                         games=("cathedral", "corintho"))
    # The solver's own refusal (a three- or four-player Corintho game) before any task.
    _solve(position, nodes=1, wdl=True, root_values=False, method="proof-number")
    store = Knowledge(knowledge)
    import ray

    deadline = None if time_limit is None else time.time() + time_limit
    if not ray.is_initialized():
        ray.init()
    started = time.perf_counter()
    task = ray.remote(num_cpus=max(1, threads_per_task), max_retries=3)(_prove_subproblem)
    written = _notation if position.game == "cathedral" else (lambda _, move: move)
    root = _Node(position, [])
    pending: dict = {}
    tasks = reused = cancelled = nodes = 0
    task_seconds = 0.0
    def decided(node: _Node) -> bool:
        low, high = _sign_bounds(node)
        return low == high

    open_nodes = []
    for node in _expand_moves(root, split_depth, written):
        if node.position.is_over:
            continue
        known = store.get(node.position)
        if known is not None and known.get("value") is not None and known.get("wdl"):
            node.result = known
            reused += 1
        else:
            open_nodes.append(node)
    # What the knowledge file settles needs no task: the root, or a root move, decided by it.
    settled = [] if decided(root) else [child for _, child in root.children if decided(child)]
    for node in open_nodes:
        if not decided(root) and not any(_descends(node, s) for s in settled):
            pending[task.remote(node.position.file_text(), threads_per_task, tt_mb, deadline)] = node

    for node, result in _wait_all(pending, deadline):
        if result is None:
            continue
        tasks += 1
        nodes += result["nodes"]
        task_seconds += result["seconds"]
        node.result = result
        if result["value"] is not None:
            store.add(node.position, dict(result, wdl=True))
        # A task whose root move (or the root) is decided can change nothing any more.
        if decided(root):
            doomed = list(pending)
        else:
            settled = [child for _, child in root.children if decided(child)]
            doomed = [ref for ref, n in pending.items() if any(_descends(n, s) for s in settled)]
        for ref in doomed:
            ray.cancel(ref, force=True)
            pending.pop(ref)
            cancelled += 1

    lower, upper = _sign_bounds(root)
    root_moves = []
    for move, child in root.children:
        low, high = _sign_bounds(child)
        if child.position.to_move != position.to_move:
            low, high = -high, -low
        root_moves.append(_root_move(move, low, high))
    root_moves.sort(key=lambda m: (-m["lower"], -m["upper"]))
    return {
        "game": position.game,
        "to_move": position.to_move,
        "wdl": True,
        "method": "proof-number",
        "value": lower if lower == upper else None,
        "lower": lower,
        "upper": upper,
        "complete": lower == upper,
        "root_moves": root_moves,
        "tasks": tasks,
        "reused": reused,
        "cancelled": cancelled,
        "nodes": nodes,
        "task_seconds": task_seconds,
        "seconds": time.perf_counter() - started,
    }


def _descends(node: _Node, ancestor: _Node) -> bool:
    """Whether ``node`` lies in ``ancestor``'s subtree (its moves start with the ancestor's)."""
    return node.moves[: len(ancestor.moves)] == ancestor.moves
