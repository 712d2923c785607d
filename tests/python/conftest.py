"""Shared fixtures: the repository's files and the command line built by `cargo test`.

The tests compare the Python module with the `cathedral` binary, so the binary must be built
first (`cargo build`, or `cargo test` as `.ci/run` does); `CATHEDRAL_BIN` names another one.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def binary() -> Path:
    named = os.environ.get("CATHEDRAL_BIN")
    if named:
        return Path(named)
    for profile in ("debug", "release"):
        candidate = ROOT / "target" / profile / "cathedral"
        if candidate.exists():
            return candidate
    raise RuntimeError("no cathedral binary: run `cargo build` first or set CATHEDRAL_BIN")


class Cli:
    """Runs the command line and reads its JSON."""

    def __init__(self, path: Path):
        self.path = path

    def json(self, *args: str):
        done = subprocess.run(
            [str(self.path), *args, "--json"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=600,
        )
        assert done.returncode == 0, f"cathedral {' '.join(args)} failed: {done.stderr}"
        return json.loads(done.stdout)


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli(binary())


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
