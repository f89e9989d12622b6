"""A registry that names a revision the requirements folder lacks: that revision is left out of
the entries that claim it, one warning per entry, and every command goes on (`doctor` included).
A revision tiercheck does not ship at all (a typo) stays an error.

The folder is `TIERCHECK_REQUIREMENTS` holding 2025-11-25 alone; the bundled known_sdks.yaml
claims 2026-07-28 for most of its lines. Which lines claim it is read from the file itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from tiercheck.cli import main
from tiercheck.config.registry import load_registry, load_with_bundled
from tiercheck.errors import ConfigError

ROOT = Path(__file__).resolve().parents[3]
MISSING = "2026-07-28"

#: revisions.yaml with the 2025-11-25 entry alone, written by hand.
ONE_REVISION = """revisions:
  - name: "2025-11-25"
    wire: stateful
    released: "2025-11-25"
    released_source: the spec repository's tag 2025-11-25
    harness: "0.2.0-alpha.12"
"""


def _claiming(revision: str) -> list[str]:
    """The bundled entries that claim `revision`, in file order (read with PyYAML alone)."""
    raw = yaml.safe_load((ROOT / "known_sdks.yaml").read_text(encoding="utf-8"))
    return [name for name, body in raw.items() if revision in body["revisions"]]


@pytest.fixture
def one_revision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "requirements"
    folder.mkdir()
    (folder / "revisions.yaml").write_text(ONE_REVISION, encoding="utf-8")
    shutil.copy(ROOT / "requirements" / "2025-11-25.yaml", folder)
    monkeypatch.setenv("TIERCHECK_REQUIREMENTS", str(folder))
    monkeypatch.delenv("TIERCHECK_REGISTRY", raising=False)
    return folder


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("tier-check: warning: ")]


def test_the_bundled_registry_claims_the_missing_revision() -> None:
    # The premise: without it the tests below would prove nothing.
    assert len(_claiming(MISSING)) >= 2


def test_each_entry_loses_the_revision_with_one_warning(one_revision: Path) -> None:
    claiming = _claiming(MISSING)
    registry = load_registry()
    assert set(registry.left_out) == set(claiming)
    for name in claiming:
        entry = registry.get(name)
        assert MISSING not in entry.revisions
        assert entry.revisions == ("2025-11-25",)
        assert MISSING not in (entry.raw.get("spec_overrides") or {})
        line = registry.left_out[name]
        assert f": {name}: {MISSING} left out of its revisions: " in line
        assert str(one_revision) in line
    assert len(registry.warnings) == len(claiming)
    # The lines that never claimed it are as they were.
    for name in registry.names():
        if name not in claiming:
            assert name not in registry.left_out


def test_an_entry_with_no_revision_left_is_left_out(one_revision: Path, tmp_path: Path) -> None:
    added = tmp_path / "known.yaml"
    added.write_text(f"newer:\n  repo: o/newer\n  revisions: ['{MISSING}']\n", encoding="utf-8")
    registry = load_with_bundled(added)
    assert registry.find("newer") is None
    assert f"newer: left out: it claims only {MISSING}" in registry.left_out["newer"]
    assert len(registry.warnings) == len(_claiming(MISSING)) + 1


def test_a_replaced_bundled_entry_says_nothing_of_what_it_lost(
    one_revision: Path, tmp_path: Path
) -> None:
    name = _claiming(MISSING)[0]
    added = tmp_path / "known.yaml"
    added.write_text(f"{name}:\n  repo: o/{name}\n  revisions: ['2025-11-25']\n", "utf-8")
    registry = load_with_bundled(added)
    assert name not in registry.left_out
    assert registry.get(name).repo == f"o/{name}"


@pytest.mark.parametrize("revision", ["2025-11-26", "draft"])
def test_a_revision_tiercheck_does_not_know_is_still_refused(
    one_revision: Path, tmp_path: Path, revision: str
) -> None:
    # A typo is not a revision this folder lacks: it is an error, as it always was.
    added = tmp_path / "known.yaml"
    added.write_text(f"odd:\n  repo: o/odd\n  revisions: ['{revision}']\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"odd\.revisions\[0\]: .* is not a known spec revision"):
        load_registry(added)


def test_with_every_revision_there_is_nothing_to_say() -> None:
    assert load_registry().warnings == ()


@pytest.mark.parametrize(
    "argv",
    [
        ["list"],
        ["list", "--json"],
        ["show-config", "--sdk", "sample-sdk"],
        ["requirements", "2025-11-25"],
    ],
)
def test_every_command_goes_on_with_one_warning_per_entry(
    one_revision: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 0, err
    if argv[0] == "requirements":
        return  # reads no registry
    lines = _warnings(err)
    assert len(lines) == len(_claiming(MISSING)), lines
    for name in _claiming(MISSING):
        assert sum(f": {name}: {MISSING} left out" in line for line in lines) == 1


def test_doctor_goes_on_too(
    one_revision: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["doctor", "--sdk", "sample-sdk", "--cache-dir", str(tmp_path / "cache")])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err  # 1: a line this machine cannot run; never 2
    assert "is not a known spec revision" not in captured.err
    lines = _warnings(captured.err)
    assert len(lines) == len(_claiming(MISSING)), lines
    assert "sample-sdk" in captured.out
