"""The atomic writer: every format on disk, or the previous file untouched, and no temp files."""

from __future__ import annotations

import dataclasses
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from support.scorecards import R1, edited, mixed_scorecard, tier1_scorecard
from tiercheck.document_files import atomic_write_text, load_scorecard, write_reports
from tiercheck.errors import ConfigError
from tiercheck.model import to_json
from tiercheck.scorecard.render import markdown as markdown_module
from tiercheck.scorecard.render.terminal import render_terminal


def _names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_writes_every_format_with_the_documented_names(tmp_path: Path) -> None:
    doc = mixed_scorecard()
    written = write_reports(doc, tmp_path / "out")
    assert {k: p.name for k, p in written.items()} == {
        "json": "scorecard.json",
        "markdown": "scorecard.md",
        "junit": "junit.xml",
        "terminal": "scorecard.txt",
        "html": "scorecard.html",
        "badge": "badge.svg",
        "badge-json": "badge.json",
    }
    assert _names(tmp_path / "out") == [
        "badge.json",
        "badge.svg",
        "junit.xml",
        "scorecard.html",
        "scorecard.json",
        "scorecard.md",
        "scorecard.txt",
    ]
    assert json.loads(written["json"].read_text("utf-8")) == to_json(doc)
    assert load_scorecard(written["json"]) == doc
    text = written["terminal"].read_text("utf-8")
    assert text == render_terminal(doc, color=False)
    assert "\x1b" not in text
    mode = stat.S_IMODE(written["json"].stat().st_mode)
    assert mode & 0o044 == 0o044  # readable by everyone, not mkstemp's 0600


def test_only_the_formats_asked_for(tmp_path: Path) -> None:
    written = write_reports(tier1_scorecard(), tmp_path, formats=("junit", "json"))
    assert list(written) == ["json", "junit"]  # JSON first whatever the order asked
    assert _names(tmp_path) == ["junit.xml", "scorecard.json"]


def test_unknown_format_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown report format 'sarif'"):
        write_reports(tier1_scorecard(), tmp_path, formats=("json", "sarif"))
    assert _names(tmp_path) == []


def test_failed_fsync_leaves_the_previous_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "scorecard.json"
    target.write_text("previous\n", encoding="utf-8")

    def broken_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="Input/output error"):
        atomic_write_text(target, "new contents\n")
    assert target.read_text("utf-8") == "previous\n"
    assert _names(tmp_path) == ["scorecard.json"]


def test_interrupt_before_rename_leaves_the_previous_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "junit.xml"
    target.write_text("<old/>\n", encoding="utf-8")

    def interrupted(src: object, dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_text(target, "<new/>\n")
    assert target.read_text("utf-8") == "<old/>\n"
    assert _names(tmp_path) == ["junit.xml"]


def test_unserialisable_document_writes_nothing_and_keeps_old_reports(tmp_path: Path) -> None:
    write_reports(tier1_scorecard(), tmp_path)
    before = {name: (tmp_path / name).read_bytes() for name in _names(tmp_path)}
    # A set: JSON cannot hold it.
    broken = dataclasses.replace(tier1_scorecard(), timings={"build": {1, 2}})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="cannot write set as JSON"):
        write_reports(broken, tmp_path)
    assert {name: (tmp_path / name).read_bytes() for name in _names(tmp_path)} == before


def test_json_is_written_before_a_renderer_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(doc: object) -> str:
        raise RuntimeError("renderer bug")

    # The table names the renderer, which is looked up when its format renders.
    monkeypatch.setattr(markdown_module, "render_markdown", broken)
    with pytest.raises(RuntimeError, match="renderer bug"):
        write_reports(tier1_scorecard(), tmp_path)
    assert _names(tmp_path) == ["scorecard.json"]


def test_existing_permissions_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "scorecard.md"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o600)
    atomic_write_text(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert target.read_text("utf-8") == "new"


def test_untrusted_characters_survive_every_format_on_disk(tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["revisions"][R1]["server"]["details"][2]["failures"][0]["message"] = (
            "bad \ud800 \x00 ✓"
        )

    doc = edited(mixed_scorecard(), change)
    written = write_reports(doc, tmp_path)
    assert load_scorecard(written["json"]) == doc
    for fmt in ("markdown", "junit", "terminal"):
        text = written[fmt].read_text("utf-8")
        assert "\x00" not in text
        assert "\ud800" not in text
        # Markdown shows what it replaced (U+FFFD, in code spans); the others drop it.
        assert "bad ✓" in text or "bad  ✓" in text or "bad `\ufffd` `\ufffd` `✓`" in text


def test_load_scorecard_errors_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"missing.json: cannot read the scorecard: No such file"):
        load_scorecard(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"repo": 1}', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_scorecard(bad)
    assert "\n" not in info.value.message
    assert info.value.message.startswith(f"{bad}: ")
