"""The module's data against the command line's `--json` on the shipped positions."""

import inspect
import re
from pathlib import Path

import pytest

import cathedral
from conftest import ROOT

SHIPPED = sorted((ROOT / "puzzles" / "examples").glob("*.yaml")) + [
    ROOT / "puzzles" / "bench" / f"t{tier}-0{n}.yaml" for tier in (3, 5, 7) for n in (1, 2)
] + sorted((ROOT / "puzzles" / "corintho").glob("*.yaml"))[:6]


def ids(paths):
    return [str(p.relative_to(ROOT)) for p in paths]


@pytest.mark.parametrize("path", SHIPPED, ids=ids(SHIPPED))
def test_show_and_moves_match_the_command_line(cli, path: Path):
    position = cathedral.Position.load(path)
    assert position.view() == cli.json("show", str(path))
    assert position.legal_moves() == cli.json("moves", str(path))["moves"]
    assert position.count_moves() == len(position.legal_moves())


@pytest.mark.parametrize("path", SHIPPED, ids=ids(SHIPPED))
def test_every_move_explained_as_the_command_line_plays_it(cli, path: Path):
    position = cathedral.Position.load(path)
    moves = position.legal_moves()[:3]
    if not moves:
        pytest.skip("the game is over in this position")
    played = cli.json("play", str(path), moves[0])
    after, explanation = position.play(moves[0])
    assert explanation == played["moves"][0]
    assert after.view() == cathedral.Position.from_text(after.file_text()).view()
    assert after == position.after(moves[0])


@pytest.mark.parametrize("tier", [3, 5])
def test_solve_matches_the_command_line_and_the_stored_value(cli, tier: int):
    path = ROOT / "puzzles" / "bench" / f"t{tier}-01.yaml"
    ours = cathedral.solve(cathedral.Position.load(path), threads=1)
    theirs = cli.json("solve", str(path), "--threads", "1")
    timing = ("seconds", "nodes_per_second")
    for stats in (ours["stats"], theirs["stats"]):
        for key in timing:
            assert stats.pop(key) >= 0
    assert ours == theirs
    assert ours["complete"] and ours["lower"] == ours["upper"] == ours["value"]
    stored = path.read_text()
    assert f"value: {ours['value']}" in stored or f"value: +{ours['value']}" in stored
    # The best line replays, and ends where the value says.
    position = cathedral.Position.load(path)
    mover = position.to_move
    for move in ours["best_line"]:
        position = position.after(move)
    assert position.is_over
    unplaced = position.unplaced()
    other = "light" if mover == "dark" else "dark"
    assert unplaced[other] - unplaced[mover] == ours["value"]


def test_bestmove_with_a_node_budget_matches_the_command_line(cli):
    path = ROOT / "puzzles" / "examples" / "midgame.yaml"
    ours = cathedral.bestmove(cathedral.Position.load(path), nodes=20000)
    theirs = cli.json("bestmove", str(path), "--nodes", "20000")
    timing = {"seconds", "nodes_per_second"}
    assert {k: v for k, v in ours.items() if k not in timing} == {
        k: v for k, v in theirs.items() if k not in timing
    }
    assert ours["judgement"] in ("exact", "estimate")


def test_the_opening_book_answers_as_on_the_command_line(cli, tmp_path):
    start_file = tmp_path / "start.yaml"
    start_file.write_text("rules: classic\n")
    ours = cathedral.bestmove(cathedral.Position())
    assert ours == cli.json("bestmove", str(start_file))
    assert ours["book"]["moves"] and ours["best_move"] == ours["line"][0]
    assert "opening book" in ours["verdict"]
    searched = cathedral.bestmove(cathedral.Position(), nodes=2000, book="none")
    assert "book" not in searched
    with pytest.raises(cathedral.CathedralError, match="cannot read the opening book"):
        cathedral.bestmove(cathedral.Position(), book=str(tmp_path / "missing.yaml"))
    bad = tmp_path / "bad.yaml"
    bad.write_text("book: x\nrules: classic\nnodes_per_move: 1\npositions:\n- line: [\"dark:tavern:a1\"]\n  moves: []\n")
    with pytest.raises(cathedral.FileFormatError) as error:
        cathedral.bestmove(cathedral.Position(), book=str(bad))
    assert error.value.line == 5


def test_a_solve_with_a_window_decides_against_it():
    position = cathedral.Position.load(ROOT / "puzzles" / "bench" / "t5-01.yaml")
    value = cathedral.solve(position)["value"]
    below = cathedral.solve(position, window=(value + 1, value + 3))
    # Decided: at most alpha (a fail-soft probe may prove the value itself).
    assert below["complete"] and below["upper"] <= value + 1 and below["value"] in (None, value)
    above = cathedral.solve(position, window=(value - 4, value - 1))
    assert above["complete"] and above["lower"] >= value - 1
    inside = cathedral.solve(position, window=(value - 1, value + 1))
    assert inside["value"] == value


@pytest.mark.parametrize("name", ["t5-01", "t7-02"])
def test_both_methods_give_the_same_value(name):
    position = cathedral.Position.load(ROOT / "puzzles" / "bench" / f"{name}.yaml")
    by_proofs = cathedral.solve(position, method="proof-number", root_values=False)
    by_alpha_beta = cathedral.solve(position, method="alpha-beta", root_values=False)
    assert by_proofs["value"] == by_alpha_beta["value"] is not None
    wdl = cathedral.solve(position, method="proof-number", wdl=True, root_values=False)
    assert wdl["value"] == (by_alpha_beta["value"] > 0) - (by_alpha_beta["value"] < 0)


def test_an_unknown_method_raises_naming_the_choices():
    with pytest.raises(cathedral.CathedralError, match="alpha-beta"):
        cathedral.solve(cathedral.Position(), method="minimax")


def test_bestmove_of_corintho_matches_the_command_line(cli):
    path = sorted((ROOT / "puzzles" / "corintho").glob("*.yaml"))[0]
    ours = cathedral.bestmove(cathedral.Position.load(path), nodes=5000)
    assert ours == cli.json("bestmove", str(path), "--nodes", "5000")


def test_records_read_written_and_replayed(cli, tmp_path):
    path = ROOT / "puzzles" / "games" / "example.yaml"
    records = cathedral.read_records(path)
    assert records and all(r.game == "cathedral" for r in records)
    record = records[0]
    assert record.meta["light"] == "Ann"
    assert record.moves[0] == "light:cathedral:e5,f4,f5,f6,f7,g5"
    assert record.comments[2] == "a corner claim in the making"
    positions = record.positions()
    assert len(positions) == len(record) + 1 and positions[-1] == record.end
    again = cathedral.parse_records(cathedral.records_text(records))
    assert [r.moves for r in again] == [r.moves for r in records]
    assert [r.meta for r in again] == [r.meta for r in records]
    # A new record, extended, written and read back.
    start = cathedral.Position()
    first = start.legal_moves()[0]
    made = cathedral.Record(start, [first]).extended([start.after(first).legal_moves()[0]])
    assert len(made) == 2
    out = tmp_path / "games.yaml"
    out.write_text(made.text())
    assert cathedral.read_records(out)[0].moves == made.moves


def test_a_review_gives_the_marks_of_cathedral_analyse(cli):
    path = ROOT / "puzzles" / "games" / "example.yaml"
    record = cathedral.read_records(path)[0]
    ours = cathedral.analyse(record, nodes_per_move=3000, threads=2)
    theirs = cli.json("analyse", str(path), "--nodes-per-move", "3000", "--threads", "2")
    assert ours == theirs
    assert len(ours["plies"]) == len(record)
    assert {"light", "dark", "turning_points"} <= ours.keys()
    # The second stage judged some move again (the example has mistakes), and a single stage
    # is the command line's --single-stage.
    assert any(p["before"]["deeper"] for p in ours["plies"])
    single = cathedral.analyse(record, nodes_per_move=3000, single_stage=True)
    assert not any(p["before"]["deeper"] for p in single["plies"])
    assert single == cli.json("analyse", str(path), "--nodes-per-move", "3000", "--single-stage")


def test_drawings(root):
    position = cathedral.Position.load(root / "puzzles" / "examples" / "midgame.yaml")
    assert position.svg().startswith("<svg") or "<svg" in position.svg()[:200]
    move = position.legal_moves()[0]
    assert "<svg" in position.svg(highlight=move, caption="a caption", hands=True)
    image = position.rgb()
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype.name == "uint8"
    assert image.min() < 100 < image.max()  # something drawn on white
    assert "a" in position.text() and position.text() == str(position)
    assert position.text(unicode=True) != position.text()


def test_positions_pickle_copy_and_hash():
    import copy
    import pickle

    position = cathedral.Position.bundled("example")
    assert pickle.loads(pickle.dumps(position)) == position
    assert copy.deepcopy(position) == position
    assert len({position, copy.copy(position), cathedral.Position()}) == 2
    assert position != "not a position"
    corintho = cathedral.Position(game="corintho")
    corintho = corintho.after(corintho.legal_moves()[3])
    assert pickle.loads(pickle.dumps(corintho)) == corintho


def test_result_winner_score_and_value_at_the_end():
    path = ROOT / "puzzles" / "bench" / "t3-01.yaml"
    position = cathedral.Position.load(path)
    assert position.result is None and position.winner is None and position.value is None
    for move in cathedral.solve(position)["best_line"]:
        position = position.after(move)
    assert position.is_over
    assert position.score == position.unplaced()
    light, dark = position.score["light"], position.score["dark"]
    expected = "light" if light < dark else "dark" if dark < light else "draw"
    assert position.result == expected
    assert position.winner == (None if expected == "draw" else expected)
    mover = position.to_move
    assert position.value == position.score["dark" if mover == "light" else "light"] - position.score[mover]


def test_corintho_through_the_same_interface():
    start = cathedral.Position(game="corintho")
    assert start.game == "corintho" and start.to_move == 1 and not start.is_over
    moves = start.legal_moves()
    after, explanation = start.play(moves[0])
    assert after.to_move == 2 and isinstance(explanation, dict)
    with pytest.raises(cathedral.CathedralError, match="Cathedral's"):
        start.planes()


def test_claims_at_once_is_a_rules_option_and_the_sheets_preset():
    # The game: Light's first building encloses the Dark Tavern a1; Light's Tavern e10,
    # far away, captures it under the standing reading and not under the sheets' "at once".
    moves = ["light:cathedral:e5,f4,f5,f6,f7,g5", "dark:tavern:a1", "light:inn:a2,b1,b2",
             "dark:tavern:j10", "light:tavern:e10"]
    captured = {}
    for rules in ["classic", "sheets", "claims=at-once"]:
        position = cathedral.Position(rules=rules)
        for move in moves[:-1]:
            position = position.after(move)
        _, explanation = position.play(moves[-1])
        captured[rules] = [c.get("captured") for c in explanation["claims"]]
    assert captured["classic"] and captured["classic"][0]["cells"] == ["a1"]
    assert captured["sheets"] == [] and captured["claims=at-once"] == []
    assert cathedral.Position(rules="claims=at-once").rules == "sheets"
    assert "rules: sheets" in cathedral.Position(rules="claims=at-once").file_text()
    with pytest.raises(cathedral.CathedralError, match="`standing` or `at-once`"):
        cathedral.Position(rules="claims=later")


def test_lehmann_woods_positions_and_the_engine_agree_with_the_command_line(cli, tmp_path):
    start = cathedral.Position(rules="lehmann-woods")
    assert (start.rules, start.to_move) == ("lehmann-woods", "dark")
    after_dark = start.after("dark:inn:a3,a4,b4")
    assert after_dark.to_move == "light"
    assert all(m.startswith("cathedral:") for m in after_dark.legal_moves())
    after_cathedral = after_dark.after("light:cathedral:e4,e5,d6,e6,f6,e7")
    assert after_cathedral.to_move == "light"
    assert after_cathedral.after("light:tavern:j10").to_move == "dark"
    # The engine chooses the Cathedral knowing Light moves again: as the command line does.
    path = tmp_path / "lw.yaml"
    path.write_text(after_dark.file_text())
    ours = cathedral.bestmove(after_dark, nodes=20000)
    theirs = cli.json("bestmove", str(path), "--nodes", "20000")
    timing = {"seconds", "nodes_per_second"}
    assert {k: v for k, v in ours.items() if k not in timing} == {
        k: v for k, v in theirs.items() if k not in timing
    }
    assert ours["best_move"].startswith("light:cathedral:")


def _extension_callables():
    """Every public function and class of the extension and every public method of its
    classes (what PyO3 builds, whose signatures come from the Rust code)."""
    from cathedral import _cathedral

    found = []
    for name in dir(_cathedral):
        value = getattr(_cathedral, name)
        if name.startswith("_") or not callable(value):
            continue
        if isinstance(value, type) and issubclass(value, BaseException):
            continue
        if isinstance(value, type):
            if name != "Pair":  # made by play_pair, no constructor
                found.append((name, value))
            for member, attribute in vars(value).items():
                if not member.startswith("_") and callable(attribute):
                    found.append((f"{name}.{member}", getattr(value, member)))
        else:
            found.append((name, value))
    return found


@pytest.mark.parametrize("name, fn", _extension_callables(), ids=[n for n, _ in _extension_callables()])
def test_every_signature_shows_its_real_defaults(name, fn):
    # inspect.signature (help(), editors) shows each default as it is, never `...`.
    signature = inspect.signature(fn)
    for parameter in signature.parameters.values():
        assert parameter.default is not Ellipsis, f"{name}{signature}"


def test_the_signatures_say_what_the_calls_do():
    # The signatures written out in the Rust code (where a default is a string) are the
    # defaults the calls use: calling with them gives what calling without them gives.
    assert str(inspect.signature(cathedral.solve)) == (
        "(position, *, time=None, nodes=None, threads=1, tt_mb=256, root_values=True, wdl=False, "
        "window=None, method='auto')"
    )
    assert str(inspect.signature(cathedral.bestmove)) == (
        "(position, *, time=1.0, nodes=None, threads=1, level=10, seed=0, tt_mb=64, candidates=1, "
        "book='bundled')"
    )
    assert str(inspect.signature(cathedral.Batch)) == "(n, rules='classic')"
    assert str(inspect.signature(cathedral.Record)) == "(start, moves=None)"
    assert str(inspect.signature(cathedral.Position.bundled)) == "(which, game='cathedral')"

    def defaults(fn, skip=()):
        return {
            p.name: p.default
            for p in inspect.signature(fn).parameters.values()
            if p.default is not p.empty and p.name not in skip
        }

    position = cathedral.Position.load(ROOT / "puzzles" / "bench" / "t3-01.yaml")
    assert cathedral.solve(position, **defaults(cathedral.solve))["value"] == cathedral.solve(position)["value"]
    middle = cathedral.Position.bundled("example")
    shown = defaults(cathedral.bestmove, skip=("nodes", "time"))
    assert cathedral.bestmove(middle, nodes=300, **shown)["best_move"] == cathedral.bestmove(middle, nodes=300)["best_move"]
    assert cathedral.Position(**defaults(cathedral.Position)) == cathedral.Position()
    assert cathedral.Position.bundled("example", **defaults(cathedral.Position.bundled)) == middle
    assert len(cathedral.Batch(3, **defaults(cathedral.Batch))) == 3
    assert cathedral.Batch(1, **defaults(cathedral.Batch)).position(0) == cathedral.Position()
    for fn in (cathedral.parse_records, cathedral.Position.from_text):
        with pytest.raises(cathedral.FileFormatError, match=inspect.signature(fn).parameters["name"].default):
            fn("game: chess\n")
    game = dict(nodes=50, opening_plies=0)
    assert (
        cathedral.play_game("random", "random", **game)["record"]
        == cathedral.play_game("random", "random", **game, **defaults(cathedral.play_game, skip=game))["record"]
    )
    assert (
        cathedral.play_pair("random", "random", 1, **game).records_text()
        == cathedral.play_pair("random", "random", 1, **game, **defaults(cathedral.play_pair, skip=game)).records_text()
    )


def test_the_version_is_the_installed_distributions():
    from importlib.metadata import version

    # The distribution is cathedral-toolkit (the name cathedral on the index is another project's);
    # its version is the crate's, read by maturin from Cargo.toml (pyproject.toml says dynamic).
    assert cathedral.__version__ == version("cathedral-toolkit")
    assert f'\nversion = "{cathedral.__version__}"\n' in (ROOT / "Cargo.toml").read_text()


def test_importing_from_the_source_folder_says_what_to_do(tmp_path):
    # `cd python; python -c "import cathedral"` finds the source folder, which has no compiled
    # extension: the error says why and what to do instead. (A copy of the folder, so that an
    # extension built into the real one by `maturin develop` does not hide the message.)
    import shutil
    import subprocess
    import sys

    shutil.copytree(ROOT / "python" / "cathedral", tmp_path / "cathedral", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    done = subprocess.run(
        [sys.executable, "-c", "import cathedral"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: cathedral._cathedral (the compiled extension) is not in")
    assert "Run from another folder" in last and "maturin develop" in last


def test_the_install_instructions_hold_here():
    # The wheel's name is written with a glob (the manylinux version is the building machine's
    # glibc's), pip's progress is `pip install -v`, and the wheel route comes first.
    import fnmatch

    guide = (ROOT / "docs" / "python.md").read_text()
    readme = (ROOT / "python" / "README.md").read_text()
    for text in (guide, readme):
        for line in text.splitlines():
            if "pip install" in line:
                assert re.search(r"manylinux_2_\d", line) is None, line
        assert "pip install -v ./python" in text
        assert text.index("maturin build") < text.index("pip install -v ./python")
    pattern = "cathedral_toolkit-*-cp39-abi3-manylinux_*_x86_64.whl"
    assert pattern in guide
    built = list((ROOT / "target" / "wheels").glob("cathedral_toolkit-*.whl"))
    if built and built[0].name.endswith("x86_64.whl"):
        assert fnmatch.fnmatch(built[0].name, pattern)
