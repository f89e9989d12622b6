"""Issue 12, item 15's second half: the disk fills up while the reports are written.

A real `tier-check` assesses an SDK checkout with no commands (nothing to build, serve or run,
so only the pinned harness is provisioned and no leg runs) into `--out` on a tmpfs of our own,
once with room and once after the file system was filled to the last byte. The second run must
end in one line and exit 2, leave the first run's reports byte for byte as they were (with no
temporary file beside them), and still print the scorecard on stdout.
"""

from __future__ import annotations

import json
from contextlib import suppress
from pathlib import Path

import pytest

# `session`: the e2e suite's cache with the pinned harness provisioned once.
from support.e2e import Session, tier_check
from support.mounts import small_file_system

pytestmark = pytest.mark.integration


def test_a_full_disk_while_writing_reports_keeps_the_old_ones(
    tmp_path: Path,
    session: Session,
) -> None:
    sdk = tmp_path / "empty-sdk"
    sdk.mkdir()
    argv = ("--sdk-path", str(sdk), "--skip-governance", "--skip-build", "--output", "json")
    env = session.env()
    with small_file_system(tmp_path / "small", "size=256k") as mount:
        out = mount / "reports"
        first = tier_check(*argv, "--out", str(out), env=env)
        assert first.returncode == 3, first.explain()  # no command: nothing measured
        before = {p.name: p.read_bytes() for p in out.iterdir()}
        assert "scorecard.json" in before
        with suppress(OSError), (mount / "filler").open("wb", buffering=0) as filler:
            while True:  # fill the file system to the last byte
                filler.write(b"x" * 4096)
        second = tier_check(*argv, "--out", str(out), env=env)
        after = {p.name: p.read_bytes() for p in out.iterdir()}
    lines = second.stderr.strip().splitlines()
    assert second.returncode == 2, second.explain()
    assert "Traceback" not in second.stderr
    assert lines[-1].startswith(f"tier-check: error: cannot write the reports to {out}: ")
    assert "No space left on device" in lines[-1]
    assert after == before  # the old reports intact, no temporary file left beside them
    assert json.loads(second.stdout)["exit_code"] == first.returncode  # stdout still has it
