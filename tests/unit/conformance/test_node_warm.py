"""Warm start of Node clients: which commands qualify, and what runs cold.

The leg with a real Node 22 client is `tests/integration/test_node_warm.py`.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from tiercheck.conformance import node_warm
from tiercheck.conformance.node_warm import NodePlan, node_plan


@pytest.mark.parametrize(
    ("command", "plan"),
    [
        (
            "node --import tsx test/conformance/src/everythingClient.ts",
            NodePlan("node --import tsx test/conformance/src/everythingClient.ts", "node"),
        ),
        ("npx tsx src/client.ts", NodePlan("npx tsx src/client.ts", "node")),
        ("pnpm exec tsx client.ts", NodePlan("pnpm exec tsx client.ts", "node")),
        ("tsx client.ts", NodePlan("tsx client.ts", "node")),
        ("node dist/client.js", NodePlan("node dist/client.js", "node")),
        (
            "/opt/node22/bin/node c.js",
            NodePlan("/opt/node22/bin/node c.js", "/opt/node22/bin/node"),
        ),
        ("./node_modules/.bin/tsx c.ts", NodePlan("./node_modules/.bin/tsx c.ts", "node")),
        ("node client.js && echo done", None),  # shell syntax
        ("node client.js $EXTRA", None),
        ("node 'my client.js'", None),
        ("NODE_OPTIONS=x node client.js", None),  # an assignment first
        (".venv/bin/python client.py", None),
        ("./target/debug/conformance-client", None),
        ("nodemon client.js", None),
        ("", None),
    ],
)
def test_only_plain_words_starting_with_a_node_program_qualify(
    command: str, plan: NodePlan | None
) -> None:
    assert node_plan(command) == plan


@pytest.mark.parametrize(
    ("text", "version", "cached"),
    [
        ("v22.23.3\n", (22, 23), True),
        ("v22.1.0", (22, 1), True),
        ("v22.0.0", (22, 0), False),
        ("v20.20.2\n", (20, 20), False),
        ("v24.0.1", (24, 0), True),
        ("v23.0.0-nightly", None, False),
        ("node", None, False),
    ],
)
def test_node_22_1_and_later_read_the_compile_cache(
    text: str, version: tuple[int, int] | None, cached: bool
) -> None:
    assert node_warm.node_version(text) == version
    assert (version is not None and node_warm.has_compile_cache(version)) is cached


def test_the_cached_command_names_the_cache_for_the_client_alone(tmp_path: Path) -> None:
    folder = tmp_path / "out dir" / ".node-cache-2025-11-25-x"
    plan = NodePlan("node -e 'x'", "node")  # quoting of the command itself is kept as is
    command = node_warm.cached_command(plan, folder)
    assert command == f"NODE_COMPILE_CACHE={shlex.quote(str(folder))} node -e 'x'"
    # Through a shell, as the harness runs it (its URL appended), the client sees the folder.
    probe = NodePlan("sh -c 'echo \"$NODE_COMPILE_CACHE|$0\"'", "node")
    shown = subprocess.run(
        node_warm.cached_command(probe, folder) + " http://127.0.0.1:9/mcp",
        shell=True,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": os.environ["PATH"]},
    )
    assert shown.stdout == f"{folder}|http://127.0.0.1:9/mcp\n"


def test_without_node_on_the_clients_path_it_runs_cold(tmp_path: Path) -> None:
    prepared = node_warm.prepare(
        NodePlan("npx tsx client.ts", "node"),
        cache_dir=tmp_path / "cache",
        cwd=tmp_path,
        env={"PATH": str(tmp_path / "empty")},
        log_path=tmp_path / "warm.log",
    )
    assert prepared == node_warm.Prepared(None, "no `node` on the client's PATH")
    assert not (tmp_path / "cache").exists()
    missing = node_warm.prepare(
        NodePlan("./bin/node c.js", "./bin/node"),
        cache_dir=tmp_path / "cache",
        cwd=tmp_path,
        env={"PATH": os.environ["PATH"]},
        log_path=tmp_path / "warm.log",
    )
    assert missing.cache_dir is None
    assert missing.note == "no `./bin/node` on the client's PATH"


def test_cache_files_lists_every_file_with_its_time(tmp_path: Path) -> None:
    assert node_warm.cache_files(tmp_path / "none") == {}
    (tmp_path / "v22.23.3-x64-1").mkdir()
    entry = tmp_path / "v22.23.3-x64-1" / "8c610989"
    entry.write_bytes(b"x")
    assert node_warm.cache_files(tmp_path) == {"v22.23.3-x64-1/8c610989": entry.stat().st_mtime_ns}
