"""Running the real `tier-check` command on the real sample SDK, as the end-to-end tests do.

The sample SDK (`examples/sample-sdk`), its git origin, the session's cache and the one function
that runs `python -m tiercheck` and checks it left nothing running.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psutil
import pytest

from support.procutil import (
    MARK_ENV,
    assert_port_free,
    leftover_processes,
    wait_for,
)
from tiercheck.conformance.harness import _MARKER, PINNED_VERSION, Harness

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "sample-sdk"
SNAPSHOT = SAMPLE / "governance-snapshot.json"
BOTH = ("2025-11-25", "2026-07-28")
CHEAP = "2025-11-25"
LEGS = ("server", "client")
#: The sample's own build command (known_sdks.yaml), for runs that wrap it.
SAMPLE_BUILD = (
    "python3 -m venv .venv && .venv/bin/pip install -q -r requirements.txt && "
    ".venv/bin/python -m compileall -q server.py client.py"
)
#: The sample's `test_simple_text` answer, and the broken commit's: the harness's
#: tools-call-simple-text scenario fails a text content without text.
SIMPLE_TEXT = 'text("This is a simple text response for testing.")'
BROKEN_TEXT = 'text("")'
RUN_TIMEOUT_S = 900.0

# Variables that would redirect or reconfigure a run if the developer's shell had them set.
_OURS = re.compile(r"^(TIERCHECK_|GIT_|GITHUB_|GH_)|(^|_)(TOKEN|KEY)($|_)", re.IGNORECASE)


# --- running the command --------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One finished `tier-check` process."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    out_dir: Path | None

    def report(self, name: str) -> Path:
        """A file it wrote to --out."""
        assert self.out_dir is not None, "run without --out"
        return self.out_dir / name

    @property
    def doc(self) -> dict[str, Any]:
        """The scorecard it wrote to --out."""
        data: dict[str, Any] = json.loads(self.report("scorecard.json").read_text())
        return data

    def explain(self) -> str:
        return f"exit {self.returncode}\nstderr:\n{self.stderr[-4000:]}"


def base_env(cache: Path, home: Path, **extra: str) -> dict[str, str]:
    """Our environment without anything that would steer a run, pointed at the test cache."""
    env = {k: v for k, v in os.environ.items() if not _OURS.search(k)}
    env.update(
        TIERCHECK_CACHE=str(cache),
        GIT_CONFIG_GLOBAL=str(home / "gitconfig"),
        GIT_CONFIG_NOSYSTEM="1",
        NO_COLOR="1",
    )
    env.pop("CI", None)
    env.update(extra)
    return env


def served_ports(doc: Mapping[str, Any]) -> list[int]:
    """The ports the scorecard says the managed servers listened on."""
    ports = []
    for entry in (doc.get("revisions") or {}).values():
        url = entry.get("server_url")
        if url and urlsplit(url).port:
            ports.append(int(urlsplit(url).port))
    return ports


def assert_nothing_left(mark: str, out_dir: Path | None) -> None:
    """No process carrying `mark` is alive; no port a managed server used still answers."""
    lingering: list[psutil.Process] = []

    def settled() -> bool:
        nonlocal lingering
        lingering = leftover_processes(mark)
        return not lingering

    if not wait_for(settled, timeout_s=15.0, interval_s=0.2):
        described = "; ".join(str(p.pid) for p in lingering)
        for proc in lingering:  # only processes of this run (they carry its mark)
            proc.kill()
        pytest.fail(f"tier-check left processes behind: {described}")
    if out_dir is not None and (out_dir / "scorecard.json").is_file():
        for port in served_ports(json.loads((out_dir / "scorecard.json").read_text())):
            assert_port_free(port, mark=mark)


def tier_check(
    *args: str, env: Mapping[str, str], cwd: Path = REPO, timeout_s: float = RUN_TIMEOUT_S
) -> Run:
    """Run `python -m tiercheck ARGS` to the end; check it left nothing running."""
    mark = uuid.uuid4().hex
    full_env = {**env, MARK_ENV: mark}
    argv = [sys.executable, "-m", "tiercheck", *args]
    try:
        done = subprocess.run(
            argv,
            cwd=cwd,
            env=full_env,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
    finally:
        out = args[args.index("--out") + 1] if "--out" in args else None
        assert_nothing_left(mark, Path(out) if out else None)
    return Run(tuple(args), done.returncode, done.stdout, done.stderr, Path(out) if out else None)


def single_json(stdout: str) -> dict[str, Any]:
    """The one JSON document stdout holds, with nothing before or after it."""
    assert stdout.startswith("{"), f"stdout starts with {stdout[:200]!r}"
    doc, end = json.JSONDecoder().raw_decode(stdout)
    assert stdout[end:] == "\n", f"after the JSON on stdout: {stdout[end:][:200]!r}"
    assert isinstance(doc, dict)
    return doc


# --- the sample, its git origin and the cache -------------------------------------------------


def copy_sample(dest: Path) -> Path:
    """The sample SDK's sources (no virtualenv, no bytecode) at `dest`."""
    shutil.copytree(SAMPLE, dest, ignore=shutil.ignore_patterns(".venv", "__pycache__"))
    return dest


def git(repo: Path, *args: str, env: Mapping[str, str]) -> str:
    identity = (
        "-c",
        "user.name=Tier Check",
        "-c",
        "user.email=tiercheck@example.invalid",
        "-c",
        "commit.gpgsign=false",
        "-c",
        "tag.gpgsign=false",
    )
    done = subprocess.run(
        ["git", *identity, *args],
        cwd=repo,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip()


@dataclass(frozen=True)
class Origin:
    """A git repository holding the sample: v1.0.0 as shipped, v1.0.1 breaking one scenario."""

    path: Path
    v1: str
    broken: str

    @property
    def url(self) -> str:
        return self.path.as_uri()


@dataclass(frozen=True)
class Session:
    cache: Path
    home: Path
    harness: Harness

    def env(self, **extra: str) -> dict[str, str]:
        return base_env(self.cache, self.home, **extra)

    @property
    def harness_marker(self) -> Path:
        return self.cache / "harness" / PINNED_VERSION / _MARKER
