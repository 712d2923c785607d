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
