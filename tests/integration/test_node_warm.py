"""Warm start of a Node client: a compile cache prepared once per leg, read by every client.

A real client leg of tier-check against a small Node conformance client
(`tests/support/node_client/`: it passes `initialize` by hand and fails every other scenario),
on the Node 22 the harness runs on and, for the fall-back, on an older `node` from PATH. Each
client appends to a record file what it saw: its scenario, `NODE_COMPILE_CACHE` and the cache's
files with their modification times.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from support.e2e import CHEAP, REPO, Run, Session, git, tier_check
from tiercheck.conformance import node_warm

CLIENT_DIR = REPO / "tests" / "support" / "node_client"


@dataclass(frozen=True)
class Leg:
    run: Run
    out: Path
    records: list[dict[str, Any]]

    @property
    def card(self) -> dict[str, Any]:
        return json.loads((self.out / "scorecard.json").read_text())

    def verdicts(self) -> dict[str, tuple[bool, tuple[str, ...]]]:
        """Each scenario's verdict: passed, and the ids of its failed checks."""
        details = self.card["revisions"][CHEAP]["client"]["details"]
        return {
            d["scenario"]: (d["passed"], tuple(sorted(f["id"] for f in d["failures"])))
            for d in details
        }


@pytest.fixture(scope="module")
def sdk(session: Session, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("node-sdk") / "node-sdk"
    shutil.copytree(CLIENT_DIR, path)
    env = session.env()
    git(path, "init", "-q", "-b", "main", env=env)
    git(path, "add", ".", env=env)
    git(path, "commit", "-q", "-m", "a Node conformance client", env=env)
    return path


def _leg(
    session: Session, sdk: Path, root: Path, name: str, node: str, *flags: str, **env: str
) -> Leg:
    record = root / f"{name}.jsonl"
    out = root / name
    run = tier_check(
        "--sdk-path",
        str(sdk),
        "--revision",
        CHEAP,
        "--skip-governance",
        "--skip-build",
        "--server-cmd=",
        "--client-cmd",
        f"{node} client.mjs {record}",
        "--output",
        "json",
        "--out",
        str(out),
        *flags,
        env=session.env(**env),
    )
    assert (out / "scorecard.json").is_file(), run.stderr
    lines = record.read_text().splitlines() if record.exists() else []
    return Leg(run, out, [json.loads(line) for line in lines])


@pytest.fixture(scope="module")
def legs(
    session: Session, sdk: Path, tmp_path_factory: pytest.TempPathFactory
) -> Mapping[str, Leg]:
    root = tmp_path_factory.mktemp("node-warm")
    node = str(session.harness.node)
    return {
        "warm": _leg(session, sdk, root, "warm", node),
        "cold": _leg(session, sdk, root, "cold", node, "--cold-clients"),
    }


def test_the_cache_is_prepared_once_per_leg_and_only_read_after(legs: Mapping[str, Leg]) -> None:
    leg = legs["warm"]
    warm_up, *clients = leg.records
    # The warm-up: no scenario, the leg's own empty folder inside the run's output.
    assert warm_up["scenario"] is None
    cache = Path(warm_up["cacheDir"])
    assert cache.parent == leg.out
    assert cache.name.startswith(f".node-cache-{CHEAP}-")
    assert warm_up["files"] == {}
    # Every scenario's client: the same folder, already filled, and nothing rewritten in it
    # by any client (clients overlap: a write by one would show in a later one's listing).
    assert len(clients) == len(leg.verdicts())
    assert {c["scenario"] for c in clients} == set(leg.verdicts())
    assert {c["cacheDir"] for c in clients} == {str(cache)}
    listings = {json.dumps(c["files"], sort_keys=True) for c in clients}
    assert len(listings) == 1
    files = clients[0]["files"]
    assert len(files) >= 2  # client.mjs and lib.mjs at least
    assert all(name.startswith("v22.") for name in files)
    log = Path(leg.card["artifacts"]["logs"][f"client-warm-{CHEAP}"]).read_text()
    assert f"compile cache: {len(files)} files compiled by node v22." in log
    # Removed with the leg.
    assert not cache.exists()
    assert not list(leg.out.glob(".node-cache-*"))


def test_verdicts_are_identical_with_and_without(legs: Mapping[str, Leg]) -> None:
    warm, cold = legs["warm"].verdicts(), legs["cold"].verdicts()
    assert warm == cold
    assert warm["initialize"] == (True, ())
    assert any(not passed for passed, _ in warm.values())
    assert legs["warm"].run.returncode == legs["cold"].run.returncode


def test_cold_clients_prepares_nothing(legs: Mapping[str, Leg]) -> None:
    leg = legs["cold"]
    assert len(leg.records) == len(leg.verdicts())  # no warm-up run
    assert all(r["cacheDir"] is None and r["scenario"] for r in leg.records)
    assert "client-warm" not in json.dumps(leg.card["artifacts"])


def _old_node() -> str | None:
    """`node` on PATH when it is older than 22.1 (the machine's own), else None."""
    found = shutil.which("node")
    if found is None:
        return None
    from tiercheck import process

    version = node_warm.node_version(process.capture([found, "--version"]).stdout)
    return found if version is not None and not node_warm.has_compile_cache(version) else None


def test_an_older_node_runs_cold_with_one_line(
    session: Session, sdk: Path, tmp_path: Path, legs: Mapping[str, Leg]
) -> None:
    old = _old_node()
    if old is None:
        pytest.skip("no Node older than 22.1 on PATH")
    leg = _leg(session, sdk, tmp_path, "old", "node")
    said = [line for line in leg.run.stderr.splitlines() if "start cold" in line]
    assert len(said) == 1, leg.run.stderr
    assert "has no compile cache (Node 22.1+); clients start cold" in said[0]
    assert all(r["cacheDir"] is None and r["scenario"] for r in leg.records)
    assert leg.verdicts() == legs["warm"].verdicts()
