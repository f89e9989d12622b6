"""Every file the command line names is refused before any work: one line, exit 2, no clone.

Each case runs the real `tier-check` in a process of its own against a real git repository of
the sample SDK (`--git-url file://…`). "Before any work" is shown, not timed: the cache holds no
clone afterwards and stderr holds the one error line and nothing of the run's progress (an
assessment prints a line per step). The seconds each refusal took are printed with `-s`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from support.e2e import copy_sample

NOT_UTF8 = b"- scenario: caf\xe9\n"


@dataclass(frozen=True)
class Result:
    code: int
    lines: list[str]
    took: float
    cache: Path


@dataclass(frozen=True)
class World:
    root: Path
    origin: Path

    def run(self, *argv: str) -> Result:
        """`tier-check ARGV` in a process of its own, with a cache of its own."""
        cache = Path(tempfile.mkdtemp(prefix="cache-", dir=self.root))
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.root),
            "TIERCHECK_CACHE": str(cache),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GITHUB_API_URL": "http://127.0.0.1:9",
            "NO_COLOR": "1",
        }
        began = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "tiercheck", *argv],
            cwd=self.root,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        took = time.monotonic() - began
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        return Result(done.returncode, lines, took, cache)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    root = tmp_path_factory.mktemp("early")
    origin = copy_sample(root / "origin")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(root), "GIT_CONFIG_NOSYSTEM": "1"}
    for argv in (
        ["init", "-q", "-b", "main"],
        ["add", "."],
        ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "sample"],
    ):
        subprocess.run(["git", *argv], cwd=origin, env=env, check=True)
    return World(root, origin)


def _folder(w: World) -> Path:
    path = w.root / "a-folder"
    path.mkdir(exist_ok=True)
    return path


def _not_utf8(w: World) -> Path:
    path = w.root / "not-utf8.yml"
    path.write_bytes(NOT_UTF8)
    return path


def _not_sqlite(w: World) -> Path:
    path = w.root / "history.txt"
    path.write_text("these are notes, not a database\n")
    return path


Make = Callable[[World], Path]

#: (flag, file maker, words the one line must hold). The assessment's own flags.
ASSESS_CASES: list[tuple[str, Make, str]] = [
    ("--expected-failures", _folder, "is a directory"),
    ("--expected-failures", _not_utf8, "not UTF-8"),
    ("--registry", _folder, "a-folder"),
    ("--registry", _not_utf8, "not UTF-8"),
    ("--governance-snapshot", _folder, "a-folder"),
    ("--governance-snapshot", _not_utf8, "not UTF-8"),
    ("--history", _folder, "is a directory"),
    ("--history", _not_sqlite, "not an SQLite database"),
    ("--token-file", _folder, "cannot read it"),
    ("--token-file", _not_utf8, "cannot read it"),
]


def _assert_refused_before_work(result: Result, needle: str) -> None:
    code, lines, took = result.code, result.lines, result.took
    print(f"refused in {took:.2f} s: {lines}")
    assert code == 2, lines
    assert len(lines) == 1, lines
    assert lines[0].startswith("tier-check"), lines
    assert needle in lines[0], lines
    assert "Traceback" not in lines[0]
    clones = result.cache / "repos"
    assert not clones.exists() or not any(clones.iterdir()), "it cloned before refusing"


@pytest.mark.parametrize(("flag", "make", "needle"), ASSESS_CASES)
def test_assessment_refuses_a_bad_file_before_any_work(
    world: World, flag: str, make: Make, needle: str
) -> None:
    bad = make(world)
    result = world.run(
        "--sdk",
        "sample-sdk",
        "--git-url",
        world.origin.as_uri(),
        "--skip-governance" if flag != "--governance-snapshot" else "--as-of=2026-11-01",
        "--out",
        str(world.root / "out"),
        flag,
        str(bad),
    )
    _assert_refused_before_work(result, needle)


def test_a_relative_baseline_missing_from_the_clone_is_refused_before_the_build(
    world: World,
) -> None:
    # Relative to the checkout (as the GitHub Action passes it): it can only be read once the
    # clone exists, and is refused then, before the build and the legs.
    result = world.run(
        "--sdk",
        "sample-sdk",
        "--git-url",
        world.origin.as_uri(),
        "--skip-governance",
        "--out",
        str(world.root / "out-relative"),
        "--expected-failures",
        "no/such/baseline.yml",
    )
    code, lines = result.code, result.lines
    print(f"refused in {result.took:.2f} s")
    assert code == 2, lines
    assert "no/such/baseline.yml: expected-failures file not found" in lines[-1], lines
    assert not any("build" in line.lower() and "✓" in line for line in lines), lines
    assert not (world.root / "out-relative" / "raw").exists()


def test_a_baseline_given_to_the_leg_it_was_not_written_for_is_refused_before_any_work(
    world: World,
) -> None:
    client_only = world.root / "client-only.yml"
    client_only.write_text("client:\n  - auth/dpop\n")
    result = world.run(
        "--sdk",
        "sample-sdk",
        "--git-url",
        world.origin.as_uri(),
        "--skip-governance",
        "--out",
        str(world.root / "out-leg"),
        "--expected-failures",
        f"server={client_only}",
    )
    _assert_refused_before_work(result, "given to the server leg, but it has no 'server:' list")


MATRIX_CASES: list[tuple[str, Make, str]] = [
    ("--matrix", _folder, "a-folder"),
    ("--matrix", _not_utf8, "not UTF-8"),
    ("--governance-snapshot", _not_utf8, "not UTF-8"),
    ("--history", _folder, "is a directory"),
    ("--history", _not_sqlite, "not an SQLite database"),
]


@pytest.mark.parametrize(("flag", "make", "needle"), MATRIX_CASES)
def test_matrix_refuses_a_bad_file_before_any_row(
    world: World, flag: str, make: Make, needle: str
) -> None:
    bad = make(world)
    rows = [] if flag == "--matrix" else ["--sdk", "sample-sdk"]
    result = world.run("matrix", *rows, "--out", str(world.root / "matrix"), flag, str(bad))
    _assert_refused_before_work(result, needle)
