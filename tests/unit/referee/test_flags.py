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
    server, client = seen
    assert sorted(_flags(server, "server")) == sorted(TIERCHECK_FLAGS["server"])
    assert sorted(_flags(client, "client")) == sorted(TIERCHECK_FLAGS["client"])
