"""The opponents between the random player and full strength: the engine's ladder of levels,
the greedy and policy players, the epsilon-mixture, and the curriculum that moves an agent up."""

import numpy as np
import pytest

import cathedral
from test_env import play_out


def test_the_ladder_has_ten_levels_of_rising_measured_strength():
    ladder = cathedral.ladder()
    assert [r["level"] for r in ladder] == list(range(1, 11))
    elos = [r["elo"] for r in ladder]
    assert elos == sorted(elos) and len(set(elos)) == 10, elos
    assert all(r["name"] and r["summary"] for r in ladder)
    # Level 10 searches the budget it is given, with the solver; the others a budget of their own.
    assert ladder[-1]["nodes"] is None and ladder[-1]["depth"] is None and ladder[-1]["exact"]
    assert all((r["nodes"] is None) != (r["depth"] is None) for r in ladder[:-1])
    # The weak levels make the errors people make; the top ones none.
    assert ladder[0]["misses_claims"] > 0 and ladder[0]["fills_own"] > 0 and ladder[0]["ignores_threats"] > 0
    assert ladder[-1]["misses_claims"] == ladder[-1]["fills_own"] == ladder[-1]["ignores_threats"] == 0


def test_the_weak_levels_vary_by_seed_and_the_top_does_not():
    position = cathedral.Position.bundled("example")
    weak = {cathedral.bestmove(position, level=1, nodes=2000, seed=s)["best_move"] for s in range(12)}
    strong = {cathedral.bestmove(position, level=10, nodes=2000, seed=s)["best_move"] for s in range(4)}
    assert len(weak) > 1, weak
    assert len(strong) == 1, strong
    # The same seed, the same move.
    # A weak level's slips are said, in words; full strength makes none.
    slips = [cathedral.bestmove(position, level=1, nodes=2000, seed=s).get("slip") for s in range(30)]
    assert {"missed a claim or a capture", "ignored the opponent's threats"} & set(slips), slips
    assert all("slip" not in cathedral.bestmove(position, level=10, nodes=500, seed=s) for s in range(3))
    once, again = (cathedral.bestmove(position, level=1, nodes=2000, seed=5) for _ in range(2))
    assert once["best_move"] == again["best_move"] and once["nodes"] == again["nodes"]


def placed(position, move):
    """Squares the move places (the mover's unplaced squares before, less after)."""
    mover = position.to_move
    return position.unplaced()[mover] - position.after(move).unplaced()[mover]


def test_builtin_move_plays_the_greedy_policy_and_random_players():
    position = cathedral.Position.bundled("example")
    # Moves come with the player, as bestmove gives them; legal_moves() lists them without.
    mover = position.to_move
    legal = {f"{mover}:{m}" for m in position.legal_moves()}
    for player in ("greedy", "policy", "random"):
        moves = [cathedral.builtin_move(position, player, seed=s) for s in range(6)]
        assert all(m in legal for m in moves), (player, moves)
        assert cathedral.builtin_move(position, player, seed=3) == moves[3]
    # The greedy player places the biggest building it can.
    biggest = max(placed(position, m) for m in legal)
    assert all(placed(position, cathedral.builtin_move(position, "greedy", seed=s)) == biggest for s in range(6))
    with pytest.raises(cathedral.CathedralError, match=r'player="minimax": expected "greedy", "policy" or "random"'):
        cathedral.builtin_move(position, "minimax")
    with pytest.raises(cathedral.CathedralError, match="Cathedral's; a Corintho position"):
        cathedral.builtin_move(cathedral.Position(game="corintho"), "greedy")
    with pytest.raises(TypeError, match="seed"):
        cathedral.builtin_move(position, "greedy", seed="1")


@pytest.mark.parametrize("opponent", ["greedy", "policy"])
def test_the_greedy_and_policy_opponents_play_legal_games_that_repeat_by_seed(opponent):
    env = cathedral.SingleAgentEnv(opponent=opponent, play_as="dark")
    positions, actions = play_out(env, seed=3)
    assert positions[-1].is_over
    for before, action, after in zip(positions, actions, positions[1:]):
        middle = before.play_action(action)
        if middle.is_over:
            assert after == middle
            continue
        assert any(middle.play_action(a) == after for a in middle.legal_actions())
    again, _ = play_out(cathedral.SingleAgentEnv(opponent=opponent, play_as="dark"), seed=3)
    assert again == positions


def test_epsilon_mixes_random_moves_into_any_opponent():
    # epsilon=0 changes nothing; epsilon=1 is random moves whatever the opponent (no engine call
    # could make level 10 play these), and the games still repeat by seed.
    plain, _ = play_out(cathedral.SingleAgentEnv(opponent="greedy", play_as="dark"), seed=8)
    zero, _ = play_out(cathedral.SingleAgentEnv(opponent="greedy", play_as="dark", epsilon=0.0), seed=8)
    assert plain == zero
    one, _ = play_out(cathedral.SingleAgentEnv(opponent="engine", play_as="dark", epsilon=1.0), seed=8)
    one_again, _ = play_out(cathedral.SingleAgentEnv(opponent="greedy", play_as="dark", epsilon=1.0), seed=8)
    assert one == one_again and one != plain
    half, _ = play_out(cathedral.SingleAgentEnv(opponent="greedy", play_as="dark", epsilon=0.5), seed=8)
    assert half != plain and half != one


def test_the_curriculum_moves_up_after_a_good_window():
    env = cathedral.SingleAgentEnv(level=10)
    course = cathedral.Curriculum(env, start=2, window=4, promote=0.75, epsilons=())
    assert course.level == 2 and env.level == 2
    # The window slides: 1 1 0 0.5, then 1 0 0.5 1, then 0 0.5 1 1 score 0.625; 0.5 1 1 1 0.875.
    for score in (1, 1, 0, 0.5, 1, 1):
        assert not course.record(score)
    assert course.level == 2 and course.recent_score == 0.625
    assert course.record(1)
    assert course.level == 3 and env.level == 3
    step = course.promotions[0]
    assert (step.level, step.epsilon, step.games, step.score) == (2, 0.0, 7, 0.875)
    assert course.recent_score is None


def test_the_curriculum_reads_the_environments_infos_and_stops_at_the_top():
    venv = cathedral.SingleAgentVecEnv(num_envs=2, level=1)
    course = cathedral.Curriculum(venv, start=9, top=10, window=2, promote=0.5, epsilons=())
    assert venv.get_attr("level") == [9, 9]
    won = {"agent": "light", "result": "light"}
    drawn = {"agent": "dark", "result": "draw"}
    lost = {"agent": "dark", "result": "light"}
    assert not course.update([{"agent": "light"}, won])  # a game still going counts for nothing
    assert course.games == 1
    # The draw makes 1 and 0.5: 0.75, promoted; the loss is the first game at level 10.
    assert course.update([drawn, lost])
    assert course.level == 10 and venv.get_attr("level") == [10, 10]
    assert not course.update([won, won, won])
    assert course.level == 10 and course.games == 6
    venv.close()


def test_the_curriculum_starts_with_the_level_mixed_with_random_moves():
    # By default the first stages are level 1 with three quarters, half and a quarter of its
    # moves random, then level 1 alone: each set on the environment as it comes.
    env = cathedral.SingleAgentEnv(level=7)
    course = cathedral.Curriculum(env, window=1, promote=1.0)
    stages = [(course.level, course.epsilon)]
    while course.record(1):
        stages.append((course.level, course.epsilon))
        assert (env.level, env.epsilon) == stages[-1]
    assert stages == [(1, 0.75), (1, 0.5), (1, 0.25)] + [(n, 0.0) for n in range(1, 11)]
    assert [p.epsilon for p in course.promotions[:4]] == [0.75, 0.5, 0.25, 0.0]
    # A mixed stage plays mixed games: the opponent's moves include random ones.
    mixed, _ = play_out(cathedral.SingleAgentEnv(play_as="dark", opponent="engine", level=1, epsilon=0.75), seed=2)
    plain, _ = play_out(cathedral.SingleAgentEnv(play_as="dark", opponent="engine", level=1), seed=2)
    assert mixed != plain


@pytest.mark.parametrize(
    "options, words",
    [
        (dict(epsilons=(0.5, 2)), r"epsilons=2: expected a number from 0 to 1"),
        (dict(epsilons="0.5"), r"epsilons='0.5': expected a sequence"),
        (dict(start=0), r"start=0: expected an integer from 1 to 10"),
        (dict(start=3, top=2), r"top=2: expected an integer from 3 to 10"),
        (dict(promote=1.5), r"promote=1.5: expected a number from 0 to 1"),
        (dict(window=0), r"window=0: expected an integer from 1"),
        (dict(window=True), r"window=True: expected"),
    ],
)
def test_bad_curriculum_options_raise_naming_them(options, words):
    with pytest.raises(cathedral.CathedralError, match=words):
        cathedral.Curriculum(**options)


def test_the_curriculum_refuses_an_opponent_without_levels():
    with pytest.raises(cathedral.CathedralError, match="opponent is 'random', expected 'engine'"):
        cathedral.Curriculum(cathedral.SingleAgentEnv(opponent="random"))
    with pytest.raises(cathedral.CathedralError, match="score=2: expected 1"):
        cathedral.Curriculum().record(2)
