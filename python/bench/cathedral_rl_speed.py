"""Speed of the PyPI `cathedral-rl` package (PettingZoo AEC env for Cathedral).

Run with the interpreter that has cathedral-rl installed, e.g.
    /tmp/rlvenv/bin/python python/bench/cathedral_rl_speed.py --seconds 20

Prints one JSON object on stdout; anything else (warnings) goes to stderr.
Measures:
  games: random games through the env's own AEC loop (agent_iter/last/step);
  play:  random games driven directly through the board-level rule engine,
         counting Board.play_turn + Board.check_territory calls (one "move").
"""

import argparse
import contextlib
import importlib.metadata as md
import json
import math
import platform
import sys
import time

import numpy as np

# Keep any import-time banner (pygame) off stdout.
with contextlib.redirect_stdout(sys.stderr):
    from cathedral_rl import cathedral_v0
    from cathedral_rl.game.board import Board


def bench_games(seconds, seed, loop="index"):
    # Same shape as the package's only usage documentation, examples/play.py
    # (the README has no usage section): env(...).unwrapped, reset(seed),
    # agent_iter/last/step, and step(None) then *break* at the first
    # terminated agent.  The break is required: at the end of a game the env
    # often terminates only the agent that just moved (Board-level "opponent
    # has no moves, mover has none left" branch of raw_env.step); step(None)
    # then deletes that agent from the reward/termination dicts but leaves
    # agent_selection pointing at it, so a further last() raises
    # KeyError: 'player_0'.
    env = cathedral_v0.env(render_mode=None).unwrapped
    rng = np.random.default_rng(seed)
    games = steps = 0
    start = time.perf_counter()
    while True:
        env.reset(seed=seed)  # the env has no randomness; seed is ignored
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                break
            if loop == "sample":
                # The loop of cathedral-rl's own README: the action space samples from the mask.
                env.step(int(env.action_space(agent).sample(mask=obs["action_mask"].astype(np.int8))))
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, steps, elapsed


def legal_actions(board, agent):
    # The env builds its action mask the same way (raw_env._calculate_legal_moves).
    return [a for a in range(board.num_actions) if board.is_legal(agent, a)]


def bench_play(seconds, seed):
    # One "move" = Board.play_turn(agent, action) followed by
    # Board.check_territory(agent), exactly the pair raw_env.step calls.
    # play_turn alone only writes the piece's cells into board.squares; the
    # enclosure/territory flood fill and capture of enclosed pieces happen in
    # check_territory.  A Rust Position.play that leaves a fully updated
    # position corresponds to both, so both are timed together.  Legal-move
    # generation (Board.is_legal over every action) is outside the timed
    # call; the whole loop's time is reported separately.
    rng = np.random.default_rng(seed)
    games = calls = 0
    in_play = in_play_turn = 0.0
    start = time.perf_counter()
    while True:
        board = Board()
        agent, other = "player_0", "player_1"  # player_0 must place the cathedral first
        moves = legal_actions(board, agent)
        while moves:
            action = moves[rng.integers(len(moves))]
            t0 = time.perf_counter()
            board.play_turn(agent, action)
            t1 = time.perf_counter()
            board.check_territory(agent)
            t2 = time.perf_counter()
            in_play += t2 - t0
            in_play_turn += t1 - t0
            calls += 1
            # Turns alternate; a player without a legal move passes; the game
            # ends when neither player can move.
            other_moves = legal_actions(board, other)
            if other_moves:
                agent, other, moves = other, agent, other_moves
            else:
                moves = legal_actions(board, agent)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, calls, in_play, in_play_turn, elapsed


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=10.0,
                   help="minimum wall time per measurement (whole games), default 10")
    p.add_argument("--seed", type=int, default=1, help="RNG seed, default 1")
    p.add_argument("--which", choices=["games", "play", "both"], default="both")
    a = p.parse_args()
    if not (math.isfinite(a.seconds) and 0 < a.seconds <= 86400):
        p.error(f"--seconds must be > 0 and <= 86400, got {a.seconds}")
    if not 0 <= a.seed < 2**63:
        p.error(f"--seed must be in [0, 2**63), got {a.seed}")

    out = {
        "env": "cathedral-rl",
        "version": md.version("cathedral-rl"),
        "python": platform.python_version(),
        "pettingzoo": md.version("pettingzoo"),
        "numpy": np.__version__,
        "seed": a.seed,
        "min_seconds": a.seconds,
    }
    if a.which in ("games", "both"):
        games, steps, t = bench_games(a.seconds, a.seed)
        out.update(games=games, game_steps=steps, games_seconds=t,
                   games_per_second=games / t, steps_per_second=steps / t,
                   mean_moves_per_game=steps / games)
        games, steps, t = bench_games(a.seconds, a.seed, loop="sample")
        out.update(sample_games_per_second=games / t, sample_steps_per_second=steps / t)
    if a.which in ("play", "both"):
        games, calls, t_play, t_turn, t_loop = bench_play(a.seconds, a.seed)
        out.update(play_calls=calls, play_seconds=t_play,
                   play_per_second=calls / t_play,
                   play_turn_only_seconds=t_turn,
                   play_games=games, play_loop_seconds=t_loop,
                   play_loop_calls_per_second=calls / t_loop,
                   play_mean_moves_per_game=calls / games)
        out.setdefault("mean_moves_per_game", calls / games)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
