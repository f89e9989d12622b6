"""The exit codes are one table (`tiercheck.errors.EXIT_CODES`): the README's table and
`tier-check --help` say exactly what it says."""

from __future__ import annotations

from pathlib import Path

import pytest

from tiercheck.cli.app import main
from tiercheck.errors import EXIT_CODES

REPO = Path(__file__).resolve().parents[3]


def readme_exit_codes() -> list[tuple[int, str]]:
    """The rows of the table under the README's `### Exit codes`."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("\n### Exit codes\n", 1)[1].split("\n#", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]  # no header
    cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]
    return [(int(code), meaning) for code, meaning in cells]


def test_the_readme_table_is_the_exit_code_table() -> None:
    assert readme_exit_codes() == list(EXIT_CODES)


def test_the_help_lists_every_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    epilog = capsys.readouterr().out.split("exit codes:", 1)[1]
    joined = " ".join(epilog.split())
    for code, meaning in EXIT_CODES:
        assert f"{code} {meaning.replace('`', '')}" in joined


def test_nothing_measured_has_its_own_code() -> None:
    codes = [code for code, _ in EXIT_CODES]
    assert codes == [0, 1, 2, 3, 130]
    assert "nothing was measured" in dict(EXIT_CODES)[3]
