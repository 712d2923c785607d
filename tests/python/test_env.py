"""The PettingZoo and Gymnasium environments: PettingZoo's API test, the observation and mask
invariants, and random games checked move by move against the command line."""

import numpy as np
import pytest

import cathedral
from conftest import ROOT


def random_game(seed: int, render_mode=None):
    """Plays a random game through the AEC loop; returns the moves (notation), the final
    rewards and the environment."""
    env = cathedral.env(render_mode=render_mode)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    moves, rewards = [], {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
            continue
        position = env.unwrapped.position
        check_observation(position, agent, obs)
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        moves.append(position.action_move(action))
        env.step(action)
    return moves, rewards, env


def check_observation(position, agent, obs):
    assert agent == position.to_move
    space = cathedral.CathedralEnv().observation_space(agent)
    assert space.contains(obs)
    planes, hands, mask = obs["observation"], obs["hands"], obs["action_mask"]
    # The planes never overlap, and the board's cells are covered as the view says.
    assert planes.sum(axis=2).max() <= 1
    view = position.view()
    other = "dark" if agent == "light" else "light"
    assert planes[:, :, 2].sum() == (6 if view["cathedral"]["status"] == "on-board" else 0)
    # Hands: the mover's row first; the squares in hand are the unplaced squares.
    hand_squares = {
        player: sum(count * size for count, size in zip(row, SIZES))
        for player, row in ((agent, hands[0]), (other, hands[1]))
    }
    assert hand_squares == position.unplaced()
    # The mask is exactly the legal moves.
    legal = position.legal_actions()
    assert sorted(legal) == list(np.flatnonzero(mask))
    assert len(legal) == position.count_moves() == int(mask.sum())
    for action in legal[:5]:
        assert position.move_action(position.action_move(action)) == action
    # The opponent's view is the same board with the sides swapped.
    theirs = position.planes(other)
    assert (theirs[:, :, 0] == planes[:, :, 1]).all() and (theirs[:, :, 3] == planes[:, :, 4]).all()


SIZES = [1, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5]  # squares of each kind, in KINDS order


def test_kind_sizes_are_the_sets():
    assert len(cathedral.KINDS) == len(SIZES)
    assert sum(SIZES) + sum(SIZES[:3]) == 47  # two each of the three smallest


def test_pettingzoo_api_test():
    from pettingzoo.test import api_test

    api_test(cathedral.env(), num_cycles=200)
    api_test(cathedral.env(reward="wdl"), num_cycles=200)


def test_seed_determinism():
    from pettingzoo.test import seed_test

    seed_test(lambda: cathedral.env(), num_cycles=50)


@pytest.mark.parametrize("seed", range(12))
def test_random_games_agree_move_by_move_with_the_command_line(cli, tmp_path, seed):
    moves, rewards, env = random_game(seed)
    start = tmp_path / "start.yaml"
    start.write_text(cathedral.Position().file_text())
    played = cli.json("play", str(start), *moves)
    assert len(played["moves"]) == len(moves)
    # Replayed through the module with explanations: each the command line's.
    position = cathedral.Position()
    for move, theirs in zip(moves, played["moves"]):
        position, ours = position.play(move)
        assert ours == theirs
    assert position == env.unwrapped.position and position.is_over
    assert position.view() == played["final"]
    unplaced = position.unplaced()
    assert rewards == {
        "light": unplaced["dark"] - unplaced["light"],
        "dark": unplaced["light"] - unplaced["dark"],
    }


def test_wdl_rewards_and_renders():
    env = cathedral.env(reward="wdl", render_mode="ansi")
    env.reset(seed=3)
    assert "a" in env.render()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated:
            assert reward in (-1.0, 0.0, 1.0)
            assert info["result"] in ("light", "dark", "draw")
            env.step(None)
        else:
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    rgb = cathedral.env(render_mode="rgb_array")
    rgb.reset()
    image = rgb.render()
    assert image.ndim == 3 and image.shape[2] == 3


def test_actions_are_distinct_placements():
    seen = set()
    for action in range(cathedral.ACTIONS):
        kind, cells = cathedral.action_info(action)
        assert (kind, tuple(cells)) not in seen
        seen.add((kind, tuple(cells)))
    assert cathedral.action_info(cathedral.PASS_ACTION) == ("pass", [])
    assert cathedral.PASS_ACTION == cathedral.ACTIONS - 1


def test_reset_from_a_position_of_ones_own():
    env = cathedral.env()
    position = cathedral.Position.load(ROOT / "puzzles" / "examples" / "midgame.yaml")
    env.reset(options={"position": position})
    assert env.agent_selection == position.to_move
    with pytest.raises(cathedral.CathedralError):
        env.reset(options={"position": cathedral.Position(game="corintho")})


def test_single_agent_environment_against_the_engine():
    from gymnasium.utils.env_checker import data_equivalence

    # Gymnasium's check_env steps with unmasked random actions, which this environment refuses
    # (IllegalMoveError); its other checks, by hand: spaces, seeded resets, determinism.
    env = cathedral.SingleAgentEnv(play_as="random", level=3, nodes=500)
    twin = cathedral.SingleAgentEnv(play_as="random", level=3, nodes=500)
    assert env.observation_space == twin.observation_space
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        assert env.observation_space.contains(obs)
        assert data_equivalence(twin.reset(seed=seed), (obs, info))
        rng = np.random.default_rng(seed)
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            assert (mask == obs["action_mask"].astype(bool)).all()
            action = int(rng.choice(np.flatnonzero(mask)))
            obs, reward, done, truncated, info = env.step(action)
            assert data_equivalence(twin.step(action), (obs, reward, done, truncated, info))
            assert env.observation_space.contains(obs) and not truncated
            total += reward
        position = env.position
        other = "dark" if info["agent"] == "light" else "light"
        unplaced = position.unplaced()
        assert total == unplaced[other] - unplaced[info["agent"]]


def test_batch_steps_every_game_as_the_positions_do():
    games = 8
    batch = cathedral.Batch(games)
    positions = [cathedral.Position() for _ in range(games)]
    rng = np.random.default_rng(5)
    finished = 0
    for _ in range(200):
        obs = batch.observe()
        for i, position in enumerate(positions):
            assert batch.position(i) == position
            assert (obs["observation"][i] == position.planes()).all()
            assert (obs["hands"][i] == position.hand_counts()).all()
            assert (obs["action_mask"][i] == position.action_mask()).all()
            assert obs["to_move"][i] == ("light", "dark").index(position.to_move)
        actions = [int(rng.choice(p.legal_actions())) for p in positions]
        rewards, done = batch.step(actions)
        for i, action in enumerate(actions):
            mover = positions[i].to_move
            after = positions[i].play_action(action)
            assert done[i] == after.is_over
            if after.is_over:
                other = "dark" if mover == "light" else "light"
                unplaced = after.unplaced()
                assert rewards[i] == unplaced[other] - unplaced[mover]
                positions[i] = cathedral.Position()
                finished += 1
            else:
                assert rewards[i] == 0
                positions[i] = after
    assert finished > games  # every game ended and restarted at least once, most of them twice


def test_batch_refuses_bad_actions_and_moves_no_game():
    batch = cathedral.Batch(3)
    legal = [batch.position(i).legal_actions()[0] for i in range(3)]
    with pytest.raises(cathedral.IllegalMoveError, match="game 1: "):
        batch.step([legal[0], cathedral.PASS_ACTION, legal[2]])
    assert all(batch.position(i) == cathedral.Position() for i in range(3))
    with pytest.raises(cathedral.CathedralError, match="one per game"):
        batch.step(legal[:2])
    with pytest.raises(cathedral.CathedralError):
        cathedral.Batch(0)
    with pytest.raises(cathedral.CathedralError, match="optional capture"):
        cathedral.Batch(2, rules="moore1978")
    midgame = cathedral.Position.load(ROOT / "puzzles" / "examples" / "midgame.yaml")
    batch.reset(midgame)
    assert batch.position(2) == midgame
    with pytest.raises(cathedral.CathedralError):
        batch.position(3)


def test_lehmann_woods_turns_in_the_environments():
    """Under Lehmann-Woods Dark moves first and Light then moves twice, the Cathedral and its
    first building: the AEC environment selects the agents by the position, never by turns."""
    from pettingzoo.test import api_test

    api_test(cathedral.env(rules="lehmann-woods"), num_cycles=200)
    env = cathedral.env(rules="lehmann-woods")
    env.reset(seed=3)
    chosen = []
    for _ in range(4):
        agent = env.agent_selection
        chosen.append(agent)
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert chosen == ["dark", "light", "light", "dark"]


# Opponents of the single-agent environment: the engine, a random player, a callable.


def play_out(env, seed, agent_seed=0):
    """A game through ``env`` with a seeded random agent; the positions at the agent's turns and
    the end, and the agent's actions."""
    env.reset(seed=seed)
    rng = np.random.default_rng(agent_seed)
    positions, actions, done = [env.position], [], False
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        actions.append(action)
        _, _, done, _, _ = env.step(action)
        positions.append(env.position)
    return positions, actions


def test_a_random_opponent_plays_legal_games_that_repeat_by_seed():
    env = cathedral.SingleAgentEnv(opponent="random", play_as="dark")
    positions, actions = play_out(env, seed=7)
    # Every opponent move is one legal action from the position the agent's move left.
    for before, action, after in zip(positions, actions, positions[1:]):
        middle = before.play_action(action)
        if middle.is_over:
            assert after == middle
            continue
        assert middle.to_move == "light"
        answers = [a for a in middle.legal_actions() if middle.play_action(a) == after]
        assert answers, "the opponent's move is not a legal move"
    assert positions[-1].is_over
    # The draws come from the environment's generator: the same seed, the same game; another
    # seed, another game (the agent's moves are the same draws in both).
    again, _ = play_out(cathedral.SingleAgentEnv(opponent="random", play_as="dark"), seed=7)
    assert again == positions
    other, _ = play_out(cathedral.SingleAgentEnv(opponent="random", play_as="dark"), seed=8)
    assert other != positions


def test_a_callable_opponent_sees_its_own_side_and_its_moves_are_played():
    from cathedral.aec import observe

    calls = []

    def last_legal(observation, action_mask):
        calls.append((observation, action_mask))
        return int(np.flatnonzero(action_mask)[-1])

    env = cathedral.SingleAgentEnv(opponent=last_legal, play_as="dark")
    obs, info = env.reset(seed=1)
    # Dark: the opponent (Light) placed the Cathedral first, seeing the start from Light's side.
    (seen, mask), = calls
    start = cathedral.Position()
    expected = observe(start, "light")
    assert all((seen[key] == expected[key]).all() for key in expected)
    assert mask.dtype == bool and (mask == start.action_mask().astype(bool)).all()
    assert env.position == start.play_action(int(np.flatnonzero(mask)[-1]))
    rng = np.random.default_rng(2)
    done = False
    while not done:
        before = env.position
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        calls.clear()
        obs, reward, done, _, info = env.step(action)
        middle = before.play_action(action)
        if middle.is_over:
            assert not calls and env.position == middle
            continue
        (seen, mask), = calls
        expected = observe(middle, "light")
        assert all((seen[key] == expected[key]).all() for key in expected)
        # Light's view: its own buildings in plane 0, Dark's (the agent's) in plane 1.
        assert (seen["observation"][:, :, 0] == middle.planes("light")[:, :, 0]).all()
        assert (mask == middle.action_mask().astype(bool)).all()
        assert env.position == middle.play_action(int(np.flatnonzero(mask)[-1]))


@pytest.mark.parametrize(
    "answer, words",
    [
        (cathedral.PASS_ACTION, r"answered action 2765 \(pass\), which is not legal"),
        ("3", r"answered '3': expected an int action index"),
        (3.0, r"answered 3.0: expected an int action index"),
        (None, r"answered None"),
        (cathedral.ACTIONS, r"answered action 2766: out of range"),
    ],
)
def test_a_callable_opponents_bad_answer_raises_naming_it_and_the_action(answer, words):
    def stubborn(observation, action_mask):
        return answer

    env = cathedral.SingleAgentEnv(opponent=stubborn, play_as="dark")
    with pytest.raises(cathedral.CathedralError, match=r"opponent .*stubborn " + words):
        env.reset(seed=0)


def test_a_numpy_integer_answer_is_an_action():
    env = cathedral.SingleAgentEnv(opponent=lambda obs, mask: np.flatnonzero(mask)[0], play_as="dark")
    env.reset(seed=0)
    start = cathedral.Position()
    assert env.position == start.play_action(int(np.flatnonzero(start.action_mask())[0]))


def test_policy_opponent_wraps_a_predict_as_sb3_calls_it():
    asked = []

    def predict(observation, action_masks=None, deterministic=False):
        # As SB3's predict: (actions, state), the action an array.
        asked.append((deterministic, action_masks is not None))
        return np.array(np.flatnonzero(action_masks)[1]), None

    env = cathedral.SingleAgentEnv(opponent=cathedral.policy_opponent(predict), play_as="dark")
    env.reset(seed=0)
    start = cathedral.Position()
    assert asked == [(True, True)]
    assert env.position == start.play_action(int(np.flatnonzero(start.action_mask())[1]))
    # An answer of one element in a 1-d array is an action too; two elements are refused.
    one = cathedral.policy_opponent(lambda obs, **kw: np.array([np.flatnonzero(kw["action_masks"])[0]]))
    cathedral.SingleAgentEnv(opponent=one, play_as="dark").reset(seed=0)
    two = cathedral.policy_opponent(lambda obs, **kw: np.array([0, 1]))
    with pytest.raises(cathedral.CathedralError, match=r"opponent policy_opponent\(.*\) answered array"):
        cathedral.SingleAgentEnv(opponent=two, play_as="dark").reset(seed=0)
    with pytest.raises(cathedral.CathedralError, match="predict"):
        cathedral.policy_opponent("model")


BAD_OPTIONS = [
    (dict(level="3"), r"level='3': expected an integer from 1 \(weakest\) to 10"),
    (dict(level=0), r"level=0: expected an integer from 1"),
    (dict(level=11), r"level=11: expected"),
    (dict(level=True), r"level=True: expected"),
    (dict(level=2.5), r"level=2.5: expected"),
    (dict(nodes=0), r"nodes=0: expected an integer from 1 to 1000000000"),
    (dict(nodes="2000"), r"nodes='2000': expected"),
    (dict(nodes=None), r"nodes=None: expected"),
    (dict(play_as="white"), r"play_as='white': expected one of light, dark, random"),
    (dict(play_as=None), r"play_as=None: expected"),
    (dict(play_as=["light"]), r"play_as=\['light'\]: expected"),
    (dict(opponent="minimax"), r"opponent='minimax': expected 'engine', 'greedy', 'policy', 'random' or a callable"),
    (dict(epsilon=-0.1), r"epsilon=-0.1: expected a number from 0 \(never\) to 1"),
    (dict(epsilon=1.5), r"epsilon=1.5: expected a number from 0"),
    (dict(epsilon="0.1"), r"epsilon='0.1': expected"),
    (dict(epsilon=True), r"epsilon=True: expected"),
    (dict(opponent=None), r"opponent=None: expected"),
    (dict(opponent=3), r"opponent=3: expected"),
    (dict(reward="points"), r"reward='points'"),
]


@pytest.mark.parametrize("options, words", BAD_OPTIONS)
def test_every_bad_single_agent_option_raises_naming_it(options, words):
    with pytest.raises(cathedral.CathedralError, match=words):
        cathedral.SingleAgentEnv(**options)


def test_the_engine_opponent_is_still_the_default():
    # The same seed and actions: the default and opponent="engine" play the same game, and the
    # engine's first move as Light is the one bestmove gives at that level (the seed is drawn
    # from the environment's generator, so the move is compared with the level's own choice
    # through a second environment rather than a stored answer).
    default, _ = play_out(cathedral.SingleAgentEnv(play_as="dark", level=2, nodes=300), seed=4)
    engine, _ = play_out(cathedral.SingleAgentEnv(play_as="dark", level=2, nodes=300, opponent="engine"), seed=4)
    assert default == engine and default[-1].is_over
    # Not the random player: its game from the same seed differs.
    random_game_, _ = play_out(cathedral.SingleAgentEnv(play_as="dark", opponent="random"), seed=4)
    assert random_game_ != default


# The vectorised environment: the same games as SingleAgentEnv, behind SB3's VecEnv interface.


def lockstep(n, steps, threads=None, **options):
    """Steps a SingleAgentVecEnv and ``n`` SingleAgentEnv with the same seeds and actions, and
    checks that every observation, reward, done, mask and terminal observation is the same."""
    venv = cathedral.SingleAgentVecEnv(n, threads=threads, **options)
    singles = [cathedral.SingleAgentEnv(**options) for _ in range(n)]
    assert venv.seed(11) == [11 + i for i in range(n)]
    obs = venv.reset()
    expected = [env.reset(seed=11 + i) for i, env in enumerate(singles)]
    assert venv.reset_infos == [info for _, info in expected]
    expected = [o for o, _ in expected]
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(steps):
        masks = venv.action_masks()
        assert masks.shape == (n, cathedral.ACTIONS) and masks.dtype == bool
        assert (np.stack(venv.env_method("action_masks")) == masks).all()
        for i, env in enumerate(singles):
            assert (masks[i] == env.action_masks()).all()
            assert all((obs[key][i] == expected[i][key]).all() for key in expected[i])
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        obs, rewards, dones, infos = venv.step(actions)
        assert rewards.dtype == np.float32 and dones.dtype == bool and len(infos) == n
        for i, env in enumerate(singles):
            single, reward, done, truncated, info = env.step(int(actions[i]))
            assert rewards[i] == reward and dones[i] == done and not truncated
            assert infos[i]["agent"] == info["agent"] and infos[i].get("result") == info.get("result")
            assert infos[i]["TimeLimit.truncated"] is False
            if done:
                finished += 1
                terminal = infos[i]["terminal_observation"]
                assert all((terminal[key] == single[key]).all() for key in single)
                single, reset_info = env.reset()
                assert venv.reset_infos[i] == reset_info
            else:
                assert "terminal_observation" not in infos[i]
            expected[i] = single
    venv.close()
    return finished


def test_the_vec_env_plays_the_games_of_single_agent_envs_with_a_random_opponent():
    # play_as="random": the sides are drawn per game at each reset, from each game's generator.
    assert lockstep(4, 60, play_as="random", opponent="random") >= 8  # games ended and restarted


def test_the_vec_env_plays_the_games_of_single_agent_envs_with_the_engine():
    # The engine's searches run in threads; each game's seeds still come from its own
    # generator in its own order, so the games are those of the single environments exactly.
    assert lockstep(3, 30, play_as="random", opponent="engine", level=1, nodes=200, threads=3) >= 3


def test_the_vec_env_interface():
    from cathedral import vec

    venv = cathedral.SingleAgentVecEnv(3, opponent="random", play_as="dark")
    assert venv.num_envs == 3 and venv.action_space.n == cathedral.ACTIONS
    assert venv.observation_space == cathedral.SingleAgentEnv().observation_space
    if vec.HAVE_SB3:
        from stable_baselines3.common.vec_env import VecEnv

        assert isinstance(venv, VecEnv)
    with pytest.raises(cathedral.CathedralError, match="reset"):
        venv.step(np.zeros(3, int))
    obs = venv.reset()
    assert set(obs) == {"observation", "hands", "action_mask"} and obs["observation"].shape == (3, 10, 10, 5)
    assert venv.get_attr("agent") == ["dark"] * 3 and venv.get_attr("opponent", indices=1) == ["random"]
    venv.set_attr("reward_kind", "wdl", indices=[0])
    assert venv.get_attr("reward_kind") == ["wdl", "squares", "squares"]
    assert venv.env_is_wrapped(object) == [False] * 3
    before = venv.get_attr("position")
    legal = [int(np.flatnonzero(m)[0]) for m in venv.action_masks()]
    with pytest.raises(cathedral.IllegalMoveError, match="env 1: action 2765"):
        venv.step([legal[0], cathedral.PASS_ACTION, legal[2]])
    assert venv.get_attr("position") == before  # no game moved
    with pytest.raises(cathedral.CathedralError, match="one per env"):
        venv.step(legal[:2])
    with pytest.raises(cathedral.CathedralError, match="integer action"):
        venv.step(np.array(legal, float))
    # Options for the next resets: a position of one's own.
    midgame = cathedral.Position.load(ROOT / "puzzles" / "examples" / "midgame.yaml")
    venv.set_options({"position": midgame})
    venv.reset()
    for position in venv.get_attr("position"):
        assert position == midgame or position.to_move == "dark"
    venv.close()


@pytest.mark.parametrize(
    "options, words",
    BAD_OPTIONS
    + [
        (dict(num_envs=0), r"num_envs=0: expected an integer from 1 to 65536"),
        (dict(num_envs="8"), r"num_envs='8': expected"),
        (dict(threads=0), r"threads=0: expected None \(the machine's cores\) or 1 to 256"),
    ],
)
def test_every_bad_vec_env_option_raises_naming_it(options, words):
    with pytest.raises(cathedral.CathedralError, match=words):
        cathedral.SingleAgentVecEnv(**options)


def test_the_training_example_trains_or_says_what_it_needs(tmp_path):
    # python/examples/train_maskable_ppo.py: with sb3-contrib it trains for a few seconds and
    # writes its curve; without it (CI installs no torch) it says what to install and exits 2,
    # before touching anything.
    import importlib.util
    import subprocess
    import sys

    script = ROOT / "python" / "examples" / "train_maskable_ppo.py"
    curve = tmp_path / "curve.csv"
    done = subprocess.run(
        [sys.executable, str(script), "--minutes", "0.1", "--envs", "2", "--csv", str(curve)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if importlib.util.find_spec("sb3_contrib") is None:
        assert done.returncode == 2, done.stderr
        assert "pip install sb3-contrib" in done.stderr
        # sb3-contrib brings torch, from PyPI with the CUDA stack (gigabytes): the message says
        # how to get the CPU-only build, and so does the script's docstring.
        assert "--index-url https://download.pytorch.org/whl/cpu" in done.stderr
        assert not curve.exists()
    else:
        assert done.returncode == 0, done.stderr
        lines = curve.read_text().splitlines()
        assert lines[0] == "seconds,steps,games,mean_reward,opponent" and len(lines) > 1
    assert "--index-url https://download.pytorch.org/whl/cpu" in script.read_text()
    bad = subprocess.run([sys.executable, str(script), "--envs", "0"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--envs 0: expected 1 to 256" in bad.stderr
    bad = subprocess.run([sys.executable, str(script), "--curriculum"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--curriculum moves the engine's level: expected --opponent engine" in bad.stderr


def test_an_illegal_action_can_lose_the_game_instead_of_raising():
    # illegal="lose": the game ends at once, lost by the widest margin, and says why.
    env = cathedral.SingleAgentEnv(opponent="random", illegal="lose")
    obs, info = env.reset(seed=0)
    assert not obs["action_mask"][cathedral.PASS_ACTION]
    obs, reward, terminated, truncated, info = env.step(cathedral.PASS_ACTION)
    assert terminated and not truncated
    assert reward == -float(cathedral.Position().unplaced()["light"])
    assert info["result"] == "dark" and "not legal here" in info["illegal"]
    with pytest.raises(cathedral.CathedralError, match="the game is over: call reset"):
        env.step(0)
    env.reset(seed=0)
    assert env.step(int(np.flatnonzero(env.action_masks())[0]))[2] is False
    wdl = cathedral.SingleAgentEnv(opponent="random", illegal="lose", reward="wdl")
    wdl.reset(seed=0)
    assert wdl.step(cathedral.PASS_ACTION)[1] == -1.0
    # The default still raises.
    strict = cathedral.SingleAgentEnv(opponent="random")
    strict.reset(seed=0)
    with pytest.raises(cathedral.IllegalMoveError):
        strict.step(cathedral.PASS_ACTION)
    with pytest.raises(cathedral.CathedralError, match="illegal='quietly': expected 'raise' or 'lose'"):
        cathedral.SingleAgentEnv(illegal="quietly")


@pytest.mark.parametrize("env_id, options", [
    ("cathedral/CathedralRandom-v0", {}),
    ("cathedral/Cathedral-v0", {"level": 1, "nodes": 200}),
])
def test_the_gymnasium_ids_make_environments_that_pass_check_env(env_id, options):
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    assert set(cathedral.GYMNASIUM_IDS) == {"cathedral/Cathedral-v0", "cathedral/CathedralRandom-v0"}
    env = gymnasium.make(env_id, **options)
    assert isinstance(env.unwrapped, cathedral.SingleAgentEnv)
    assert env.unwrapped.illegal == "lose"
    assert env.unwrapped.opponent == cathedral.GYMNASIUM_IDS[env_id]["opponent"]
    check_env(env.unwrapped)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    env.close()
    # Gymnasium's own vector environment steps the registered one.
    vec = gymnasium.make_vec(env_id, num_envs=2, **options)
    observations, infos = vec.reset(seed=3)
    assert observations["action_mask"].shape == (2, cathedral.ACTIONS)
    legal = np.array([np.flatnonzero(mask)[0] for mask in observations["action_mask"]])
    observations, rewards, terminated, truncated, infos = vec.step(legal)
    assert not terminated.any() and observations["action_mask"].shape == (2, cathedral.ACTIONS)
    vec.close()


@pytest.mark.parametrize("order", ["cathedral first", "gymnasium first"])
def test_the_ids_are_registered_whichever_is_imported_first(order):
    # `import cathedral` alone does not import Gymnasium (it stays light for solving); the ids
    # are registered as soon as Gymnasium is imported, before or after.
    import subprocess
    import sys

    first, second = ("cathedral", "gymnasium") if order == "cathedral first" else ("gymnasium", "cathedral")
    code = (
        f"import sys, {first}\n"
        "if 'cathedral' in sys.modules: assert 'gymnasium' not in sys.modules, 'imported gymnasium'\n"
        f"import {second}\n"
        "import gymnasium\n"
        "env = gymnasium.make('cathedral/CathedralRandom-v0')\n"
        "obs, info = env.reset(seed=1)\n"
        "print(type(env.unwrapped).__name__, info['agent'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["SingleAgentEnv", "light"]
