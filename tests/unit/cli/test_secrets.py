"""The command layer's share of keeping secrets from the SDK: the token flags and show-config.

`--token` on the command line is readable by every local process, so it warns; `--token-file`
reads the token from a file instead. `show-config` names what the SDK will not be given, and
never prints a value.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from tiercheck.cli import main
from tiercheck.cli.common import token_from_args
from tiercheck.errors import UsageError

#: A GitHub-shaped value under an innocent name: withheld by its value alone.
SHAPED = "ghp_" + "Q" * 36


def _args(**values: str | None) -> argparse.Namespace:
    return argparse.Namespace(token=values.get("token"), token_file=values.get("token_file"))


def test_a_token_on_the_command_line_warns_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert token_from_args(_args(token="t0ken")) == "t0ken"
    err = capsys.readouterr().err
    assert "warning: --token puts the token on the command line" in err
    assert "--token-file" in err
    assert "t0ken" not in err


def test_a_token_file_is_read_without_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "token"
    path.write_text("  from-a-file\n")
    assert token_from_args(_args(token_file=str(path))) == "from-a-file"
    assert capsys.readouterr().err == ""
    assert token_from_args(_args()) is None


@pytest.mark.parametrize(
    ("content", "match"),
    [(None, "cannot read it"), ("", "one line"), ("a\nb\n", "one line")],
)
def test_a_bad_token_file_is_a_usage_error(tmp_path: Path, content: str | None, match: str) -> None:
    path = tmp_path / "token"
    if content is not None:
        path.write_text(content)
    with pytest.raises(UsageError, match=match):
        token_from_args(_args(token_file=str(path)))


def test_token_and_token_file_together_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="keep one"):
        token_from_args(_args(token="x", token_file=str(tmp_path / "t")))


def test_show_config_names_what_is_withheld_and_never_a_value(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TIERCHECK_UNIT_INNOCENT", SHAPED)
    monkeypatch.setenv("TIERCHECK_UNIT_DB_PASS", "hunter2-unit")
    monkeypatch.setenv("TIERCHECK_UNIT_ORDINARY", "visible")
    assert main(["show-config", "--sdk", "sample-sdk", "--revision", "2025-11-25", "--json"]) == 0
    out = capsys.readouterr().out
    withheld = json.loads(out)["withheld_env"]["2025-11-25"]
    assert {"TIERCHECK_UNIT_INNOCENT", "TIERCHECK_UNIT_DB_PASS"} <= set(withheld)
    assert "TIERCHECK_UNIT_ORDINARY" not in withheld
    assert main(["show-config", "--sdk", "sample-sdk", "--revision", "2025-11-25"]) == 0
    text = capsys.readouterr().out
    assert "TIERCHECK_UNIT_INNOCENT" in text
    for shown in (out, text):
        assert SHAPED not in shown
        assert "hunter2-unit" not in shown
