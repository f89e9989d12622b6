"""requirements/revisions.yaml is validated on load: bad data is one line and exit 2; a third
revision added as data (TIERCHECK_REQUIREMENTS) is known everywhere at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tiercheck.cli import main
from tiercheck.errors import ConfigError
from tiercheck.revisions import known_revisions, revisions_on, wire_of

SHIPPED = Path(__file__).resolve().parents[3] / "requirements"


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "requirements"
    shutil.copytree(SHIPPED, folder)
    monkeypatch.setenv("TIERCHECK_REQUIREMENTS", str(folder))
    return folder


THIRD = """
  - name: "2026-12-15"
    wire: stateless
    released: "2026-12-15"
    released_source: a test's own revision
    harness: "0.2.0-alpha.12"
    harness_requirements: "2026-07-28"
"""


def test_a_third_revision_is_data_only(data: Path) -> None:
    (data / "revisions.yaml").write_text((data / "revisions.yaml").read_text() + THIRD)
    shutil.copy(data / "2026-07-28.yaml", data / "2026-12-15.yaml")
    assert known_revisions() == ("2025-11-25", "2026-07-28", "2026-12-15")
    assert wire_of("2026-12-15") == "stateless"
    assert revisions_on("stateful") == ("2025-11-25",)
    assert main(["requirements", "2026-12-15", "--json"]) == 0


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (lambda t: t.replace("wire: stateless", "wire: sessionless"), "revisions.1.wire: "),
        (lambda t: t + THIRD, "no requirement set 2026-12-15.yaml beside it"),
        (lambda t: t + THIRD.replace("2026-12-15", "2026-01-01"), "follows 2026-07-28"),
        (lambda t: t.replace('released: "2026-07-28"', 'released: "2026-02-30"'), "calendar"),
        (lambda t: t.replace("revisions:", "revisions: [", 1), "invalid YAML"),
    ],
)
def test_bad_data_is_one_line_and_exit_2(
    data: Path, edit: object, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = data / "revisions.yaml"
    path.write_text(edit(path.read_text()))  # type: ignore[operator]
    with pytest.raises(ConfigError) as caught:
        known_revisions()
    assert says in caught.value.message
    assert str(path) in caught.value.message
    assert "\n" not in caught.value.message
    assert main(["requirements", "2026-07-28"]) == 2
    err = capsys.readouterr().err
    assert says in err
    assert "Traceback" not in err
