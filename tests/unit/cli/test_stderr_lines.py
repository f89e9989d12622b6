"""What tiercheck prints on stderr quotes names others chose: it never starts a line of theirs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tiercheck.cli.common import error_lines, warn

HOSTILE = "x\n::error::forged\r\x1b[2J\x00 end"


def test_a_warning_is_one_line_without_control_characters(
    capsys: pytest.CaptureFixture[str],
) -> None:
    warn(f"line {HOSTILE} skipped")
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err == "tier-check: warning: line x ::error::forged[2J end skipped\n"


def test_no_error_line_is_a_workflow_command() -> None:
    lines = error_lines(f"first\n{HOSTILE}\n  ::add-mask::x")
    assert lines[0] == "first"
    assert not any(line.lstrip().startswith("::") for line in lines)
    assert all(ch.isprintable() for line in lines for ch in line)
    assert error_lines("  \n ") == ["error"]


def test_an_error_naming_a_hostile_path_starts_no_line_of_its_own(tmp_path: Path) -> None:
    bad = tmp_path / "a\n::error::forged\x1b[2J"
    done = subprocess.run(
        [sys.executable, "-m", "tiercheck", "diff", str(bad), str(tmp_path / "b")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "\x1b" not in done.stderr
    assert not any(line.lstrip().startswith("::") for line in done.stderr.splitlines())
