"""The flags a referee change must keep are the flags tiercheck's legs pass: the legs are run
here (the harness process replaced by a recorder of its argv) and their flags compared with the
table the change checks a new release against."""

from __future__ import annotations

from pathlib import Path

import pytest

from tiercheck import process
from tiercheck.conformance import legs
from tiercheck.conformance.harness import Harness
from tiercheck.referee.changes import TIERCHECK_FLAGS


def _flags(argv: list[str], leg: str) -> tuple[str, ...]:
    after = argv[argv.index(leg) + 1 :]
    return tuple(a for a in after if a.startswith("-"))


def test_the_table_is_every_flag_the_legs_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[list[str]] = []

    def run(argv: list[str], **_: object) -> process.CompletedRun:
        seen.append(list(argv))
        return process.CompletedRun(" ".join(argv), 0, 0.0, False, None)

    monkeypatch.setattr(legs.process, "run", run)
    harness = Harness(tmp_path / "node", tmp_path / "dist/index.js", "0", "v22.0.0")
    legs.run_server_leg(
        harness,
        url="http://127.0.0.1:9/mcp",
        revision="2025-11-25",
        results_dir=tmp_path / "s",
        cwd=tmp_path,
    )
    legs.run_client_leg(
        harness,
        command="./client",
        revision="2025-11-25",
        results_dir=tmp_path / "c",
        cwd=tmp_path,
    )
    # A failure run again by itself.
    legs.run_server_leg(
        harness,
        url="http://127.0.0.1:9/mcp",
        revision="2025-11-25",
        results_dir=tmp_path / "s1",
        cwd=tmp_path,
        scenario="tools-call-simple-text",
    )
    legs.run_client_leg(
        harness,
        command="./client",
        revision="2025-11-25",
        results_dir=tmp_path / "c1",
        cwd=tmp_path,
        scenario="initialize",
    )
    server, client, server_one, client_one = seen
    used = {
        "server": set(_flags(server, "server")) | set(_flags(server_one, "server")),
        "client": set(_flags(client, "client")) | set(_flags(client_one, "client")),
    }
    assert used["server"] == set(TIERCHECK_FLAGS["server"])
    assert used["client"] == set(TIERCHECK_FLAGS["client"])
    # The one scenario at its set's wire, as the harness's own `--requirements` run passes it.
    after = server_one[server_one.index("server") + 1 :]
    assert after[after.index("--scenario") :][:5] == [
        "--scenario",
        "tools-call-simple-text",
        "--spec-version",
        "2025-11-25",
        "--force",
    ]
    assert "--requirements" not in client_one
