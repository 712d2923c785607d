"""Bad input raises clear Python exceptions, never a crash, and Ctrl-C stops a solve."""

import inspect
import os
import signal
import threading
import time

import numpy as np
import pytest

import cathedral
from conftest import ROOT


def test_illegal_moves_say_why():
    start = cathedral.Position()
    with pytest.raises(cathedral.IllegalMoveError, match="cannot be played"):
        start.play("dark:tavern:a1")
    with pytest.raises(cathedral.IllegalMoveError):
        start.after("not a move")
    with pytest.raises(cathedral.IllegalMoveError, match="not legal here"):
        start.play_action(cathedral.PASS_ACTION)
    with pytest.raises(cathedral.CathedralError, match="out of range"):
        start.play_action(cathedral.ACTIONS)
    with pytest.raises(cathedral.CathedralError, match="out of range"):
        start.play_action(-1)
    assert issubclass(cathedral.IllegalMoveError, ValueError)


def test_bad_files_are_located(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("to_move: light\nlight:\n  buildings: [nonsense]\n")
    with pytest.raises(cathedral.FileFormatError) as caught:
        cathedral.Position.load(bad)
    assert caught.value.path == str(bad) and caught.value.line is not None
    assert str(bad) in str(caught.value)
    with pytest.raises(cathedral.FileFormatError):
        cathedral.Position.load(tmp_path / "missing.yaml")
    with pytest.raises(cathedral.FileFormatError, match="game"):
        cathedral.Position.from_text("game: chess\n")
    with pytest.raises(cathedral.FileFormatError):
        cathedral.parse_records("moves:\n- 1. light:nowhere\n")
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(bytes(range(256)))
    with pytest.raises(cathedral.FileFormatError):
        cathedral.Position.load(binary)


def test_options_are_range_checked():
    position = cathedral.Position.bundled("endgame")
    for bad in (dict(threads=65), dict(tt_mb=0), dict(nodes=0), dict(time=-1.0)):
        with pytest.raises(cathedral.CathedralError):
            cathedral.solve(position, **bad)
    for bad in (dict(level=0), dict(level=11), dict(time=0.0), dict(candidates=0)):
        with pytest.raises(cathedral.CathedralError):
            cathedral.bestmove(position, **bad)
    with pytest.raises(TypeError):
        cathedral.solve("not a position")
    with pytest.raises(cathedral.CathedralError):
        cathedral.Position(rules="no-such-rules")
    with pytest.raises(cathedral.CathedralError):
        cathedral.Position(game="chess")
    with pytest.raises(cathedral.CathedralError):
        cathedral.Position.bundled("middle")
    with pytest.raises(cathedral.CathedralError):
        cathedral.Position().planes("green")
    with pytest.raises(cathedral.CathedralError):
        cathedral.env(reward="points")
    with pytest.raises(cathedral.CathedralError):
        cathedral.env(render_mode="movie")
    with pytest.raises(cathedral.CathedralError):
        cathedral.SingleAgentEnv(level=11)


def test_every_whole_number_option_names_itself_and_its_range():
    # A negative or huge number is refused in words naming the option and its range, never a
    # bare OverflowError; a number of the wrong type names the option too.
    position = cathedral.Position.bundled("endgame")
    record = cathedral.Record(cathedral.Position(), ["light:cathedral:e5,f4,f5,f6,f7,g5"])
    cases = [
        (lambda: cathedral.solve(position, threads=-1), "threads=-1: expected 0 (all cores) to"),
        (lambda: cathedral.solve(position, tt_mb=-5), "tt_mb=-5: expected 1 to"),
        (lambda: cathedral.solve(position, nodes=-1), "nodes=-1: expected 1 to"),
        (lambda: cathedral.solve(position, nodes=2**70), "nodes=a number beyond 64 bits"),
        (lambda: cathedral.bestmove(position, seed=-1), "seed=-1: expected a whole number from 0 up"),
        (lambda: cathedral.bestmove(position, level=-3), "level=-3: expected 1 (weakest) to 10"),
        (lambda: cathedral.bestmove(position, candidates=-1), "candidates=-1: expected 1 to 100"),
        (lambda: cathedral.Batch(-1), "n=-1: expected 1 to"),
        (lambda: cathedral.Batch(2).position(-1), "i=-1: expected a game from 0 to 1"),
        (lambda: cathedral.Sprt(0, 5).add_pair(-1), "half_points=-1: expected 0 to 4"),
        (lambda: cathedral.play_pair("random", "random", -1), "pair=-1: expected 1 or more"),
        (lambda: cathedral.play_pair("random", "random", 1, seed=-2), "seed=-2"),
        (lambda: cathedral.play_game("random", "random", game_number=3), "game_number=3: expected 1 or 2"),
        (lambda: cathedral.analyse(record, nodes_per_move=0), "nodes_per_move=0: expected 1 to"),
        (lambda: cathedral.analyse(record, time_per_move=0.0), "time_per_move=0"),
        (lambda: cathedral.analyse(record, threads=-1), "threads=-1: expected 0 (all cores) to"),
        (lambda: cathedral.analyse(record, recheck_factor=1), "recheck_factor=1: expected a whole number from 2 to 1000"),
        (lambda: cathedral.analyse(record, recheck_from=-1.0), "recheck_from=-1: expected a number from 0 to 100"),
        (lambda: cathedral.analyse(record, recheck_unstable=101.0), "recheck_unstable=101: expected a number from 0 to 100"),
        (lambda: cathedral.analyse(record, recheck_turns=-0.5), "recheck_turns=-0.5: expected a number from 0 to 100"),
        (lambda: cathedral.analyse(record, single_stage=True, recheck_factor=4), "single_stage=True judges each position once"),
    ]
    for call, words in cases:
        with pytest.raises(cathedral.CathedralError) as caught:
            call()
        assert words in str(caught.value)
    # A seed of the full 64 bits is still a seed.
    assert cathedral.bestmove(position, seed=2**64 - 1, nodes=100)["best_move"]
    with pytest.raises(TypeError, match="level"):
        cathedral.bestmove(position, level="3")
    with pytest.raises(TypeError, match="threads"):
        cathedral.solve(position, threads=True)


@pytest.fixture
def python_sigint():
    """Python's own Ctrl-C handler for the test, as a user's interpreter has it: a test before
    (one that starts Ray, or a library it imports) may have left another handler in place, and
    then SIGINT raises nothing."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_an_interrupted_solve_keeps_what_it_proved(python_sigint):
    # Ctrl-C in the middle of a long solve: KeyboardInterrupt, with the report of what was
    # proven by then (bounds, nodes) as `partial`, as the command line prints it.
    position = cathedral.Position.load(ROOT / "puzzles" / "bench" / "t10-01.yaml")
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt) as caught:
        cathedral.solve(position, threads=1)
    timer.join()
    partial = caught.value.partial
    assert partial["complete"] is False
    assert partial["lower"] <= partial["upper"]
    assert partial["stats"]["nodes"] > 0


def test_a_solve_stopped_after_its_value_still_gives_the_best_move_and_line():
    # The best line is found right after the value, before the root moves' values: a solve cut
    # during the root moves (here by a node budget) still says the best move and its line.
    position = cathedral.Position.load(ROOT / "puzzles" / "bench" / "t8-01.yaml")
    value_only = cathedral.solve(position, root_values=False)
    assert value_only["complete"] and value_only["best_move"]
    budget = value_only["stats"]["nodes"] + 1000
    cut = cathedral.solve(position, nodes=budget)
    assert cut["complete"] is False, "the root moves take more than the budget"
    assert cut["value"] == value_only["value"]
    assert cut["best_move"] and cut["best_line"]
    # The best move's own value is the root's, though the root moves were cut.
    best = [m for m in cut["root_moves"] if m["move"] == cut["best_move"]]
    assert best and best[0]["lower"] == best[0]["upper"] == cut["value"]
    replay = position
    for move in cut["best_line"]:
        replay = replay.after(move)


def test_optional_capture_has_no_action_space_but_plays_in_notation():
    with pytest.raises(cathedral.CathedralError, match="optional capture"):
        cathedral.env(rules="moore1978")
    start = cathedral.Position(rules="moore1978")
    assert start.rules == "moore1978"
    assert start.after(start.legal_moves()[0]).to_move == "dark"


def test_stepping_a_finished_game_is_refused():
    position = cathedral.Position()
    rng = np.random.default_rng(0)
    while not position.is_over:
        legal = position.legal_actions()
        position = position.play_action(legal[rng.integers(len(legal))])
    with pytest.raises(cathedral.IllegalMoveError, match="game is over"):
        position.play(cathedral.Position().legal_moves()[0])
    assert position.legal_moves() == [] and position.value is not None


def test_ctrl_c_stops_a_solve(python_sigint):
    # A position with 10 buildings a side: far more than a few seconds to solve.
    position = cathedral.Position.load(ROOT / "puzzles" / "bench" / "t10-01.yaml")
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        cathedral.solve(position, threads=1)
    timer.join()
    # Stopped soon after the signal, not at the end of the solve (a guard against a hang, not a
    # speed target).
    assert time.monotonic() - started < 60
    # The module still works afterwards.
    assert cathedral.solve(cathedral.Position.load(ROOT / "puzzles" / "bench" / "t3-01.yaml"))["complete"]


def test_the_gil_is_released_while_solving():
    # Far from solved in the second it is given.
    position = cathedral.Position.load(ROOT / "puzzles" / "bench" / "t10-01.yaml")
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.01)

    ticker = threading.Thread(target=tick)
    ticker.start()
    cathedral.solve(position, time=1.0, threads=1)
    done.set()
    ticker.join()
    assert len(ticks) > 10  # the other thread ran during the solve


class Wrong:
    """A value of a type no option takes, with a fixed repr to look for in the messages."""

    def __repr__(self) -> str:
        return "<wrong>"


def _instances():
    """One instance of each class whose methods take arguments, for the walk below."""
    return {
        cathedral.Position: cathedral.Position(),
        cathedral.Batch: cathedral.Batch(1),
        cathedral.Record: cathedral.Record(cathedral.Position()),
        cathedral.Sprt: cathedral.Sprt(0, 5),
    }


def _callables():
    """Every public function and class of the package (cathedral, cathedral.distributed) and
    every public method of the classes the extension defines, with the arguments it needs
    besides the one under test: (label, callable, required arguments)."""
    from cathedral import distributed

    start = cathedral.Position()
    endgame = cathedral.Position.bundled("endgame")
    required = {
        "solve": (endgame,),
        "bestmove": (endgame,),
        "play_pair": ("random", "random", 1),
        "play_game": ("random", "random"),
        "match_summary": ("a", "b", []),
        "player_name": ("random",),
        "read_records": (ROOT / "puzzles" / "games" / "example.yaml",),
        "parse_records": ("",),
        "records_text": ([],),
        "action_info": (0,),
        "builtin_move": (start, "greedy"),
        "Batch": (1,),
        "Sprt": (0, 5),
        "Record": (start,),
        "analyse": (cathedral.Record(start),),
        "policy_opponent": (lambda observation, **options: 0,),
        "distributed.solve": (endgame,),
        "distributed.prove": (endgame,),
        "distributed.match": ("random", "random"),
        "distributed.play_games": ([[]],),
        "distributed.simulate": ([1.0], 1),
        "distributed.Knowledge": (None,),
        "Position.play": ("light:cathedral:e5,f4,f5,f6,f7,g5",),
        "Position.after": ("light:cathedral:e5,f4,f5,f6,f7,g5",),
        "Position.play_action": (0,),
        "Position.action_move": (0,),
        "Position.move_action": ("light:cathedral:e5,f4,f5,f6,f7,g5",),
        "Position.from_text": ("",),
        "Position.load": (ROOT / "puzzles" / "bench" / "t3-01.yaml",),
        "Position.bundled": ("start",),
        "Batch.step": ([0],),
        "Batch.position": (0,),
        "Record.extended": ([],),
        "Sprt.add_pair": (2,),
    }
    found = []
    for name in cathedral.__all__:
        value = getattr(cathedral, name)
        exception = isinstance(value, type) and issubclass(value, BaseException)
        # A Pair comes from play_pair: it has no constructor.
        if callable(value) and not exception and value is not cathedral.Pair:
            found.append((name, value))
    for name in ("solve", "prove", "match", "play_games", "simulate", "Knowledge"):
        found.append((f"distributed.{name}", getattr(distributed, name)))
    for cls, instance in _instances().items():
        for name, member in vars(cls).items():
            if not name.startswith("_") and callable(member):
                found.append((f"{cls.__name__}.{name}", getattr(instance, name)))
    return [(label, fn, required.get(label, ())) for label, fn in found]


def _option_cases():
    cases = []
    for label, fn, required in _callables():
        parameters = [
            p
            for p in inspect.signature(fn).parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and not p.name.startswith("_")
        ]
        for index, parameter in enumerate(parameters):
            cases.append(pytest.param(fn, required, index, parameter, id=f"{label}({parameter.name})"))
    return cases


@pytest.mark.parametrize("fn, required, index, parameter", _option_cases())
def test_every_option_of_a_wrong_type_names_itself_in_the_message(fn, required, index, parameter):
    # Every argument of every function, class and method, given a value of a type none takes,
    # raises an error whose message (not only a note) names the argument and the value:
    # `tt_mb=<wrong>: expected a whole number, not Wrong`.
    args = list(required)
    kwargs = {}
    if parameter.kind == parameter.POSITIONAL_ONLY or (
        parameter.kind == parameter.POSITIONAL_OR_KEYWORD and index < len(args)
    ):
        args[index] = Wrong()
    else:
        kwargs[parameter.name] = Wrong()
    with pytest.raises((TypeError, cathedral.CathedralError)) as caught:
        fn(*args, **kwargs)
    assert f"{parameter.name}=<wrong>" in str(caught.value), str(caught.value)


def test_wrong_types_are_refused_in_words_that_name_the_option():
    position = cathedral.Position.bundled("endgame")
    cases = [
        (lambda: cathedral.solve(position, tt_mb="256"), "tt_mb='256': expected a whole number, not str"),
        (lambda: cathedral.bestmove(position, level="3"), "level='3': expected a whole number, not str"),
        (lambda: cathedral.solve(position, threads=True), "threads=True: expected a whole number, not bool"),
        (lambda: cathedral.solve(position, time="1"), "time='1': expected a number or None, not str"),
        (lambda: cathedral.solve(position, method=3), "method=3: expected a string, not int"),
        (lambda: cathedral.solve(position, wdl=1), "wdl=1: expected True or False, not int"),
        (lambda: cathedral.solve(position, window=(1, "2")), "window=(1, '2'): expected a pair"),
        (lambda: cathedral.solve("endgame"), "position='endgame': expected a cathedral.Position, not str"),
        (lambda: cathedral.Record(position, moves="a1"), "moves='a1': expected a list of strings or None, not str"),
        (lambda: cathedral.Record(position, moves=["a", 3]), "expected a list of strings or None, not int at index 1"),
        (lambda: cathedral.play_pair("random", "random", 1, clock=60), "clock=60: expected a pair"),
        (lambda: cathedral.Batch(2).step([True, False]), "actions=[True, False]: expected a list of whole numbers, not bool at index 0"),
    ]
    for call, words in cases:
        with pytest.raises(TypeError) as caught:
            call()
        assert words in str(caught.value)
    # numpy's integers are whole numbers; numpy's booleans are not.
    assert cathedral.bestmove(position, nodes=np.int64(100), seed=np.uint8(3))["best_move"]
    with pytest.raises(TypeError, match=r"actions=array\(\[ True, False\]\): expected a list of whole numbers, not bool at index 0"):
        cathedral.Batch(2).step(np.array([True, False]))


def test_batch_steps_take_numpy_actions_but_not_booleans():
    batch = cathedral.Batch(2)
    actions = np.flatnonzero(batch.observe()["action_mask"][0])[:1].repeat(2)
    rewards, done = batch.step(actions)
    assert rewards == [0.0, 0.0] and done == [False, False]
    assert batch.position(0) == cathedral.Position().play_action(int(actions[0]))
    # Booleans were taken as actions 1 and 0 before: now refused, and no game has moved.
    before = [batch.position(i) for i in range(2)]
    with pytest.raises(TypeError, match="not bool at index 0"):
        batch.step([True, False])
    assert [batch.position(i) for i in range(2)] == before
