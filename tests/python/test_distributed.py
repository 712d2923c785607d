"""Exact solving on Ray (`cathedral.distributed`), on a local Ray cluster of 2 CPUs: the same
value and root values as the single-process solve, the best line replayed, reruns that skip
what is proven, and a worker killed in the middle of a task."""

import json
import os
import time

import pytest

import cathedral
from conftest import ROOT

if os.environ.get("CATHEDRAL_PYTHON_TESTS") == "1":
    import ray  # demanded: .ci/python-setup installs it
else:
    ray = pytest.importorskip("ray")

from cathedral import distributed  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def load(name):
    return cathedral.Position.load(ROOT / "puzzles" / "bench" / f"{name}.yaml")


def by_position(position, moves):
    """Root move values keyed by the position after the move (notations differ in form)."""
    return {position.after(m["move"]).key: m["value"] for m in moves}


def replayed_margin(position, line):
    end = position
    for move in line:
        end = end.after(move)
    assert end.is_over
    unplaced = end.unplaced()
    other = "dark" if position.to_move == "light" else "light"
    return unplaced[other] - unplaced[position.to_move]


@pytest.mark.parametrize("name", ["t8-03", "t8-05"])
def test_the_same_answer_as_the_single_process_solve(tmp_path, name):
    position = load(name)
    ours = distributed.solve(position, knowledge=tmp_path / "k.jsonl")
    single = cathedral.solve(position, threads=1)
    assert single["complete"] and ours["complete"]
    assert ours["value"] == single["value"]
    assert by_position(position, ours["root_moves"]) == by_position(position, single["root_moves"])
    assert replayed_margin(position, ours["best_line"]) == ours["value"]
    assert ours["tasks"] == len(position.legal_moves()) and ours["reused"] == 0


@pytest.mark.parametrize("name", ["t8-03", "t8-05", "t8-01"])
def test_windows_give_the_single_process_value_and_refute_the_rest(tmp_path, name):
    position = load(name)
    knowledge = tmp_path / "k.jsonl"
    ours = distributed.solve(position, knowledge=knowledge, root_values=False)
    single = cathedral.solve(position, threads=1)
    assert ours["complete"] and ours["value"] == single["value"]
    assert replayed_margin(position, ours["best_line"]) == ours["value"]
    exact = by_position(position, single["root_moves"])
    for move in ours["root_moves"]:
        true_value = exact[position.after(move["move"]).key]
        assert move["lower"] <= true_value <= move["upper"]  # the bounds are proven
        if move["value"] is not None:
            assert move["value"] == true_value == move["lower"] == move["upper"]
        else:
            # Refuted: proven no better than the root's value, and the proof holds.
            assert true_value <= move["at_most"] == move["upper"] <= ours["value"]
    assert any("at_most" in m for m in ours["root_moves"]), "windows refuted moves"
    # A rerun takes everything from the knowledge file.
    again = distributed.solve(position, knowledge=knowledge, root_values=False)
    assert again["tasks"] == 0 and again["value"] == ours["value"]
    assert again["best_line"] == ours["best_line"]


def test_windows_survive_a_worker_killed_in_a_task(tmp_path):
    position = load("t8-05")
    marker = tmp_path / "crashed"
    ours = distributed.solve(position, root_values=False, _crash_once=str(marker))
    assert marker.exists()
    assert ours["value"] == cathedral.solve(position, threads=1, root_values=False)["value"]
    assert replayed_margin(position, ours["best_line"]) == ours["value"]


def test_a_t10_position_gets_its_stored_value_and_a_line_that_replays_to_it():
    # About 40 s on 2 CPUs (the single-process solve with every root move's value takes about a
    # minute on one): compared with the value stored in the bench file.
    path = ROOT / "puzzles" / "bench" / "t10-01.yaml"
    position = cathedral.Position.load(path)
    ours = distributed.solve(position)
    assert f"value: {ours['value']}\n" in path.read_text()
    assert replayed_margin(position, ours["best_line"]) == ours["value"]
    assert len(ours["root_moves"]) == len(position.legal_moves())
    assert max(m["value"] for m in ours["root_moves"]) == ours["value"]


def test_a_rerun_skips_what_is_proven(tmp_path):
    position = load("t8-03")
    knowledge = tmp_path / "k.jsonl"
    first = distributed.solve(position, knowledge=knowledge)
    lines = knowledge.read_text().splitlines()
    assert len(lines) == first["tasks"] and all("value" in json.loads(line) for line in lines)
    again = distributed.solve(position, knowledge=knowledge)
    assert again["tasks"] == 0 and again["reused"] == first["tasks"]
    assert again["value"] == first["value"] and again["best_line"] == first["best_line"]
    # Half the file lost: only the missing half is solved again.
    knowledge.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    third = distributed.solve(position, knowledge=knowledge)
    assert third["reused"] == len(lines) // 2 and third["tasks"] == len(lines) - len(lines) // 2
    assert third["value"] == first["value"]


def test_a_worker_killed_in_a_task_leaves_the_answer_exact(tmp_path):
    position = load("t8-03")
    marker = tmp_path / "crashed"
    ours = distributed.solve(position, _crash_once=str(marker))
    assert marker.exists()  # a worker did die in the middle of its task
    assert ours["value"] == cathedral.solve(position, threads=1)["value"]
    assert replayed_margin(position, ours["best_line"]) == ours["value"]


def test_bad_input(tmp_path):
    position = load("t8-03")
    with pytest.raises(cathedral.CathedralError):
        distributed.solve(position, split_depth=0)
    with pytest.raises(cathedral.CathedralError, match="split_depth"):
        distributed.solve(position, split_depth=2, root_values=False)
    with pytest.raises(cathedral.CathedralError, match="alpha below beta"):
        cathedral.solve(position, window=(3, 3))
    with pytest.raises(cathedral.CathedralError):
        distributed.solve(cathedral.Position(game="corintho"))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"key": "00"}\nnot json\n')
    with pytest.raises(cathedral.CathedralError, match="bad.jsonl:2"):
        distributed.solve(position, knowledge=bad)


def test_the_scaling_model():
    # Longest first to the worker free soonest: 3+2+2 and 3+2 (the best split, 3+3 and 2+2+2,
    # would take 6: the model is the greedy scheduler, not the optimum).
    assert distributed.simulate([3, 3, 2, 2, 2], 2) == 7
    assert distributed.simulate([1, 2, 3], 1) == 6
    assert distributed.simulate([1, 2, 3], 64) == 3


# Matches on Ray: the games, statistics, records and sequential test of `cathedral match`.

MATCH = dict(nodes=2000, seed=5)


def without_timing(report):
    return {k: v for k, v in report.items() if k not in ("seconds", "games_per_minute", "records")}


def test_a_match_on_ray_plays_the_games_of_cathedral_match_whatever_the_workers(cli, tmp_path):
    ours_serial = distributed.match("greedy", "engine", games=6, in_flight=1, output=tmp_path / "one", **MATCH)
    seen = []
    ours_wide = distributed.match(
        "greedy", "engine", games=6, in_flight=6, output=tmp_path / "six",
        on_pair=lambda pair, counted: seen.append((pair.pair, len(counted))), **MATCH,
    )
    assert seen == [(1, 1), (2, 2), (3, 3)]  # counted in order, whatever order they ended in
    theirs = cli.json(
        "match", "--a", "greedy", "--b", "engine", "--games", "6", "--nodes", "2000", "--seed", "5",
        "--jobs", "2", "--output", str(tmp_path / "cli"),
    )
    assert without_timing(ours_serial) == without_timing(ours_wide) == without_timing(theirs)
    assert len(ours_serial["pairs"]) == 3 and not ours_serial["interrupted"]
    for name in ("pair-0001.yaml", "pair-0002.yaml", "pair-0003.yaml"):
        cli_text = (tmp_path / "cli" / name).read_text()
        assert (tmp_path / "one" / name).read_text() == cli_text == (tmp_path / "six" / name).read_text()
    # The records replay: the last position of each is the end of its game.
    for record in cathedral.read_records(tmp_path / "one" / "pair-0002.yaml"):
        assert record.end.is_over


def test_a_sequential_test_on_ray_stops_where_the_local_runner_does(cli):
    ours = distributed.match("engine", "random", games=40, sprt=(0, 200), in_flight=4, nodes=200, seed=5)
    theirs = cli.json(
        "match", "--a", "engine", "--b", "random", "--games", "40", "--nodes", "200", "--seed", "5",
        "--sprt", "0,200", "--jobs", "1",
    )
    assert ours["sprt"]["verdict"] == "accept-h1"
    assert without_timing(ours) == without_timing(theirs)
    assert len(ours["pairs"]) < 20  # the pairs after the verdict were not counted


def test_a_match_from_given_openings_and_of_corintho(tmp_path):
    start = cathedral.Position()
    cathedral_move = start.legal_moves()[0]
    dark_move = start.after(cathedral_move).legal_moves()[-1]
    report = distributed.match("greedy", "greedy", openings=[[cathedral_move, dark_move]], nodes=1)
    (pair,) = report["pairs"]
    for game in pair["games"]:
        assert game["opening_plies"] == 2
        played = start.after(game["moves"][0]).after(game["moves"][1])
        assert played == start.after(cathedral_move).after(dark_move)
    corintho = distributed.match("engine:level=3", "random", games=2, game="corintho", nodes=20000)
    assert corintho["summary"]["pairs"] == 1
    assert "player_1_dropped" in corintho["pairs"][0]["games"][0]


def test_bad_match_settings(tmp_path):
    with pytest.raises(cathedral.CathedralError, match="even"):
        distributed.match("engine", "random", games=3)
    with pytest.raises(cathedral.CathedralError, match="cmd:"):
        distributed.match("cmd:./my-engine", "random")
    with pytest.raises(cathedral.CathedralError, match="nodes"):
        distributed.match("engine", "random", nodes=0)
    with pytest.raises(cathedral.CathedralError, match=r"openings\[0\]"):
        distributed.match("engine", "random", openings=[["dark:tavern:a1"]], nodes=10)
    with pytest.raises(cathedral.CathedralError):
        distributed.match("engine", "random", rules="nonsense", nodes=10)
    (tmp_path / "kept.yaml").write_text("mine\n")
    with pytest.raises(cathedral.CathedralError, match="holds files"):
        distributed.match("engine", "random", nodes=10, output=tmp_path)
    assert (tmp_path / "kept.yaml").read_text() == "mine\n"
    with pytest.raises(cathedral.CathedralError, match="half_points"):
        cathedral.Sprt(0, 10).add_pair(5)
    with pytest.raises(cathedral.CathedralError):
        cathedral.Sprt(10, 0)


def test_a_pair_pickles_as_its_moves():
    import pickle

    pair = cathedral.play_pair("policy", "greedy", 2, nodes=1, seed=9)
    again = pickle.loads(pickle.dumps(pair))
    assert again.to_dict() == pair.to_dict() and again.records_text() == pair.records_text()
    with pytest.raises(cathedral.CathedralError):
        cathedral._cathedral._pair_from_state("cathedral", "classic", '{"pair": 1, "games": []}')


def test_games_from_openings_in_order_kept_in_a_results_file(tmp_path):
    start = cathedral.Position()
    openings = [[m] for m in start.legal_moves()[:3]]
    results = tmp_path / "games.jsonl"
    games = distributed.play_games(openings, "greedy", nodes=1, results=results)
    assert len(games) == 3 and len(results.read_text().splitlines()) == 3
    for opening, game in zip(openings, games):
        assert start.after(game["moves"][0]) == start.after(opening[0])
        assert game["opening_plies"] == 1 and "record" in game
        alone = cathedral.play_game("greedy", "greedy", opening=opening, nodes=1)
        assert alone["moves"] == game["moves"]  # a game is a function of its opening
    # A rerun plays only what the file lacks.
    more = openings + [[start.legal_moves()[3]]]
    again = distributed.play_games(more, "greedy", nodes=1, results=results)
    assert again[:3] == games and len(results.read_text().splitlines()) == 4
    with pytest.raises(cathedral.CathedralError):
        distributed.play_games(openings, "cmd:x", nodes=1)


# Issue 47: options checked before any task, a time limit with proven bounds, the keys and
# notation of cathedral.solve, and a knowledge entry that the replay contradicts named.

BAD_SOLVE_OPTIONS = [
    (dict(tt_mb=0), r"tt_mb=0: expected 1 to 65536"),
    (dict(tt_mb="256"), r"tt_mb='256': expected"),
    (dict(threads_per_task=-1), r"threads_per_task=-1: expected 0 \(all cores\) to 64"),
    (dict(threads_per_task=1.5), r"threads_per_task=1.5: expected"),
    (dict(split_depth="1"), r"split_depth='1': expected 1 to 3"),
    (dict(split_depth=4), r"split_depth=4: expected 1 to 3"),
    (dict(order_nodes=0), r"order_nodes=0: expected 1 to 1000000000"),
    (dict(time_limit=0), r"time_limit=0: expected None \(no limit\) or seconds above 0"),
    (dict(time_limit=-1.0), r"time_limit=-1.0: expected"),
    (dict(time_limit="5"), r"time_limit='5': expected"),
    (dict(root_values="no"), r"root_values='no': expected True or False"),
    (dict(knowledge=5), r"knowledge=5: expected None or a file path"),
    (dict(root_values=False, split_depth=2), r"split_depth must be 1"),
]


@pytest.mark.parametrize("options, words", BAD_SOLVE_OPTIONS)
def test_every_bad_solve_option_raises_naming_it_before_any_task(tmp_path, options, words):
    marker = tmp_path / "a task started"  # the test hook touches it as the first task starts
    with pytest.raises(cathedral.CathedralError, match=words):
        distributed.solve(load("t8-03"), _crash_once=str(marker), **options)
    assert not marker.exists()


def test_a_solve_of_no_position_is_a_type_error_naming_it(tmp_path):
    with pytest.raises(TypeError, match=r"solve\(position=None\): expected a cathedral\.Position"):
        distributed.solve(None)
    with pytest.raises(TypeError, match=r"position='puzzles/bench/t5-01.yaml'\)"):
        distributed.solve("puzzles/bench/t5-01.yaml")
    with pytest.raises(cathedral.CathedralError, match="not a file"):
        distributed.solve(load("t8-03"), knowledge=tmp_path)


def test_the_keys_and_notation_of_cathedral_solve():
    position = load("t5-01")
    single = cathedral.solve(position, threads=1)
    for ours in (distributed.solve(position), distributed.solve(position, root_values=False)):
        assert set(single) <= set(ours), set(single) - set(ours)
        assert set(ours["stats"]) >= {"nodes", "seconds", "nodes_per_second", "threads"}
        assert ours["complete"] and ours["value"] == ours["lower"] == ours["upper"] == single["value"]
        assert ours["to_move"] == single["to_move"] and ours["wdl"] is False
        # The root moves: the same moves written the same way, with the same keys.
        assert {m["move"] for m in ours["root_moves"]} == {m["move"] for m in single["root_moves"]}
        for move in ours["root_moves"]:
            assert set(single["root_moves"][0]) <= set(move)
            assert move["move"].startswith(position.to_move + ":")
        assert ours["best_move"] == ours["best_line"][0] and ours["best_move"].startswith(position.to_move + ":")
        assert ours["solution"]["value"] == ours["value"] and ours["solution"]["best_line"] == ours["best_line"]
        assert replayed_margin(position, ours["best_line"]) == ours["value"]


def test_a_time_limit_stops_the_solve_with_proven_bounds(tmp_path):
    # t10-01 takes about 40 s on 2 CPUs with every root move's value: 3 s leaves it unfinished.
    path = ROOT / "puzzles" / "bench" / "t10-01.yaml"
    position = cathedral.Position.load(path)
    stored = int(next(line for line in path.read_text().splitlines() if line.strip().startswith("value: ")).split()[1])
    knowledge = tmp_path / "k.jsonl"
    started = time.perf_counter()
    ours = distributed.solve(position, time_limit=3, knowledge=knowledge)
    assert time.perf_counter() - started < 20  # the tasks stop at the deadline
    assert not ours["complete"] and ours["value"] is None and ours["best_move"] is None
    assert ours["lower"] <= stored <= ours["upper"]
    assert ours["lower"] == max(m["lower"] for m in ours["root_moves"])
    assert ours["upper"] == max(m["upper"] for m in ours["root_moves"])
    assert len(ours["root_moves"]) == len(position.legal_moves())
    proven = [m for m in ours["root_moves"] if m["value"] is not None]
    assert proven, "some root moves were proven in 3 s"
    assert all(m["lower"] <= m["upper"] for m in ours["root_moves"])
    assert ours["best_so_far"] == max(ours["root_moves"], key=lambda m: m["lower"])["move"]
    # Only proven subproblems are kept, so a rerun goes on from them.
    kept = [json.loads(line) for line in knowledge.read_text().splitlines()]
    assert len(kept) == len(proven) and all(entry["value"] is not None for entry in kept)
    # With windows too: bounds that hold the stored value.
    windows = distributed.solve(position, time_limit=0.5, root_values=False, order_nodes=1000)
    assert windows["lower"] <= stored <= windows["upper"]
    # A generous limit changes nothing.
    small = load("t8-03")
    assert distributed.solve(small, time_limit=120)["value"] == cathedral.solve(small, threads=1)["value"]


def test_a_knowledge_entry_the_replay_contradicts_names_itself(tmp_path):
    position = load("t8-03")
    knowledge = tmp_path / "k.jsonl"
    first = distributed.solve(position, knowledge=knowledge)
    child = position.after(first["best_move"])
    key = f"{child.key:032x}"
    lines = knowledge.read_text().splitlines()
    (number,) = [i for i, line in enumerate(lines, 1) if json.loads(line)["key"] == key]
    entry = json.loads(lines[number - 1])
    # One more square for the root's side: still the best move, but its line does not end there.
    entry["value"] += -1 if child.to_move != position.to_move else 1
    lines[number - 1] = json.dumps(entry)
    knowledge.write_text("\n".join(lines) + "\n")
    with pytest.raises(cathedral.CathedralError, match=rf"k.jsonl:{number}: the knowledge entry .*\"key\": \"{key}\".* contradicts the replay"):
        distributed.solve(position, knowledge=knowledge)


# ---------------------------------------------------------------------------------------------
# distributed.prove: win/draw/loss by proof-number search, for both games.


def single_sign(position):
    report = cathedral.solve(position, wdl=True, method="proof-number", root_values=True)
    assert report["complete"]
    return report


@pytest.mark.parametrize(
    "path", [ROOT / "puzzles" / "bench" / "t7-02.yaml", ROOT / "puzzles" / "corintho" / "30-small-endgame-solved.yaml"]
)
def test_prove_gives_the_single_process_result_and_a_rerun_reuses_it(tmp_path, path):
    position = cathedral.Position.load(path)
    knowledge = tmp_path / "k.jsonl"
    ours = distributed.prove(position, knowledge=knowledge)
    single = single_sign(position)
    assert ours["complete"] and ours["value"] == single["value"]
    # Every root move whose result the run proved has the single solve's sign.
    # (Corintho's root moves carry only their bounds.)
    signs = {position.after(m["move"]).key: m["lower"] for m in single["root_moves"] if m["lower"] == m["upper"]}
    for move in ours["root_moves"]:
        if move["value"] is not None:
            assert move["value"] == signs[position.after(move["move"]).key]
    assert ours["tasks"] + ours["reused"] + ours["cancelled"] <= len(position.legal_moves())
    again = distributed.prove(position, knowledge=knowledge)
    assert again["value"] == ours["value"] and again["tasks"] == 0
    assert again["reused"] == sum(1 for line in knowledge.read_text().splitlines() if line.strip())


def test_prove_splits_two_plies_deep_with_the_same_result():
    position = cathedral.Position.load(ROOT / "puzzles" / "corintho" / "30-small-endgame-solved.yaml")
    assert distributed.prove(position, split_depth=2)["value"] == single_sign(position)["value"]


def test_prove_stopped_by_its_time_limit_keeps_true_bounds():
    position = load("t12-01")
    report = distributed.prove(position, time_limit=1.0)
    assert not report["complete"] and report["value"] is None
    assert -1 <= report["lower"] <= report["upper"] <= 1


def test_prove_refuses_what_the_solver_cannot_answer_before_any_task(tmp_path):
    three = cathedral.Position.from_text("game: corintho\nplayers: 3\nboard: ['. . . .', '. . . .', '. . . .', '. . . .']\n")
    with pytest.raises(cathedral.CathedralError, match="two-player"):
        distributed.prove(three)
    with pytest.raises(TypeError):
        distributed.prove("t7-02")
    with pytest.raises(cathedral.CathedralError, match="split_depth"):
        distributed.prove(load("t7-02"), split_depth=4)
