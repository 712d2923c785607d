"""The play server's example Python bot (docs/deploy/bot.py, docs/play.md "Bots") plays a match
of two games against the engine's bot on a `cathedral serve --play` of this build."""

import importlib.util
import subprocess
import threading
import time
import urllib.error
import urllib.request

from conftest import ROOT, binary


def test_the_example_bot_plays_a_match_against_the_engine(tmp_path):
    server = subprocess.Popen(
        [str(binary()), "serve", "--play", "--port", "0", "--database", str(tmp_path / "play.sqlite")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url = server.stdout.readline().split()[-1].rstrip("/")
        for _ in range(2):
            server.stdout.readline()
        spec = importlib.util.spec_from_file_location("bot", ROOT / "docs" / "deploy" / "bot.py")
        bot = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bot)
        python_bot = threading.Thread(target=bot.main, args=(url, "pybot", "a bot password", 2), daemon=True)
        python_bot.start()
        # The engine challenges the Python bot once the server knows it.
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"{url}/play/api/players/pybot"):
                    break
            except urllib.error.HTTPError:
                time.sleep(0.1)
        engine = subprocess.run(
            [str(binary()), "bot", "--server", url, "--name", "enginebot", "--password", "a bot password",
             "--level", "2", "--nodes", "2000", "--challenge", "pybot", "--games", "2", "--time", "2+1"],
            capture_output=True, text=True, timeout=300,
        )
        assert engine.returncode == 0, engine.stderr
        assert engine.stdout.count("\ngame ") == 2, engine.stdout
        python_bot.join(timeout=60)
        assert not python_bot.is_alive(), "the Python bot saw both games end"
    finally:
        server.kill()
        server.wait()
