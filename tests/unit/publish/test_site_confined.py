"""`tier-check publish` writes and removes only inside its site folder, whatever the previous
build's records, the site's folders or the SDK lines' and scenarios' names say (issue 28).

Each build is run through the real command (`tiercheck.cli.app.main`), on a history of the
nightly story of `support.nights`; what a test breaks is one thing a previous build left (its
record, its aliases, a folder of the site) or one name."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from support.matrices import matrix, row
from support.nights import alpha, gamma, night_scorecard, records
from tiercheck.cli.app import main
from tiercheck.document_files import atomic_write_text, write_matrix_reports
from tiercheck.history.record import RunRecord, record_of
from tiercheck.history.store import HistoryStore
from tiercheck.render.badge import badge_svg
from tiercheck.scorecard.render.html import render_html

SVG = "{http://www.w3.org/2000/svg}"


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (links not followed), by relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def _db(path: Path, runs: list[RunRecord]) -> Path:
    HistoryStore(path).append_many(runs)
    return path


def _two_lines(tmp_path: Path) -> Path:
    return _db(tmp_path / "h.sqlite", records([alpha(n) for n in (1, 2)] + [gamma(1)]))


def _publish(db: Path, site: Path, *extra: str) -> list[str]:
    return ["publish", "--history", str(db), "--out", str(site), *extra]


def _ok(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.err


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def _edit(path: Path, change: Any) -> None:
    data = json.loads(path.read_text("utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


# --- (a) the previous build's record ---------------------------------------------------------


def test_a_record_naming_files_outside_the_site_removes_none_of_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, site = _two_lines(tmp_path), tmp_path / "work" / "site"
    _ok(_publish(db, site), capsys)
    outside = tmp_path / "work" / "victim.txt"
    absolute = tmp_path / "absolute.txt"
    for victim in (outside, absolute):
        victim.write_text("keep me\n", encoding="utf-8")
    (site / "lines" / "kept.txt").write_text("inside\n", encoding="utf-8")
    bad = ["../victim.txt", str(absolute), "lines/../../victim.txt", "lines\\..\\..\\x", "a\x00b"]
    _edit(site / ".tiercheck-site.json", lambda d: d["files"].update(dict.fromkeys(bad, "k")))
    err = _ok(_publish(db, site), capsys)
    assert outside.read_text("utf-8") == "keep me\n"
    assert absolute.read_text("utf-8") == "keep me\n"
    assert err.count("is not a path inside the site; ignored") == len(bad)
    for path in bad:
        assert repr(path)[:40] in err, path
    # A plain path inside the site that this build does not make is still removed.
    _edit(site / ".tiercheck-site.json", lambda d: d["files"].update({"lines/kept.txt": "k"}))
    _ok(_publish(db, site), capsys)
    assert not (site / "lines" / "kept.txt").exists()
    assert not any(
        "\\" in p or ".." in p
        for p in json.loads((site / ".tiercheck-site.json").read_text())["files"]
    )


# --- (b) the previous build's badge aliases --------------------------------------------------


@pytest.mark.parametrize(
    "alias",
    ["../../escaped", "/ABSOLUTE", "..\\escaped", "esc\x00aped", "lines/escaped", ".."],
)
def test_an_alias_that_is_no_badge_name_writes_nothing_outside_the_badges(
    alias: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, site = _two_lines(tmp_path), tmp_path / "work" / "site"
    _ok(_publish(db, site), capsys)
    if alias.startswith("/"):
        alias = str(tmp_path / "absolute")
    before = _files(tmp_path)
    aliases = site / "badges" / "aliases.json"
    _edit(aliases, lambda d: d["aliases"].update({alias: "gamma-sdk"}))
    _edit(aliases, lambda d: d["published"].append(alias))
    err = _ok(_publish(db, site), capsys)
    assert f"badges/aliases.json: the alias {alias!r}"[:60] in err
    assert err.count("is not a badge name; dropped") == 2  # the alias, the published name
    after = _files(tmp_path)
    new = sorted(set(after) - set(before))
    assert new == [], new  # not one new file anywhere: the alias serves nothing
    record = json.loads(aliases.read_text("utf-8"))
    assert alias not in record["aliases"]
    assert alias not in record["published"]


# --- (c) links in the site -------------------------------------------------------------------


@pytest.mark.parametrize("linked", ["lines", "api/v1/lines", "badges", "index.html"])
def test_a_link_where_publish_writes_stops_it_before_anything_is_written(
    linked: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, site = _two_lines(tmp_path), tmp_path / "site"
    _ok(_publish(db, site), capsys)
    elsewhere = tmp_path / "elsewhere"
    target = site / linked
    if target.is_dir():
        target.rename(elsewhere)
    else:
        elsewhere.mkdir()
        target.rename(elsewhere / target.name)
        elsewhere = elsewhere / target.name
    target.symlink_to(elsewhere)
    outside = _files(tmp_path / "elsewhere") if elsewhere.is_dir() else {}
    outside_bytes = elsewhere.read_bytes() if elsewhere.is_file() else b""
    HistoryStore(db).append(record_of(alpha(3)))  # a new night: every line file changes
    before = _files(site)
    err = _refused(_publish(db, site), capsys)
    assert f"publish: {site / linked} is a symbolic link" in err
    assert _files(site) == before  # nothing written
    if elsewhere.is_dir():
        assert _files(elsewhere) == outside
    else:
        assert elsewhere.read_bytes() == outside_bytes


def test_a_link_where_publish_removes_stops_it_and_the_file_behind_stays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, site = _two_lines(tmp_path), tmp_path / "site"
    _ok(_publish(db, site), capsys)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "old.html").write_text("not the site's\n", encoding="utf-8")
    (site / "old").symlink_to(elsewhere)
    _edit(site / ".tiercheck-site.json", lambda d: d["files"].update({"old/old.html": "k"}))
    err = _refused(_publish(db, site), capsys)
    assert f"{site / 'old'} is a symbolic link" in err
    assert (elsewhere / "old.html").read_text("utf-8") == "not the site's\n"


def test_a_matrix_page_is_read_only_from_inside_the_matrix_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _two_lines(tmp_path)
    folder = tmp_path / "matrix"
    secret = tmp_path / "secret.html"
    secret.write_text("<p>not for the site</p>\n", encoding="utf-8")
    write_matrix_reports(
        matrix(row("alpha-sdk@main", alpha(2)), row("gamma-sdk@main", gamma(1))), folder
    )
    # alpha's row: its scorecard page is a link out of the matrix folder
    (folder / "rows/alpha-sdk@main").mkdir(parents=True)
    (folder / "rows/alpha-sdk@main/scorecard.html").symlink_to(secret)
    # gamma's row: its folder is a link out of the matrix folder
    (tmp_path / "out-of-matrix").mkdir()
    atomic_write_text(tmp_path / "out-of-matrix/scorecard.html", render_html(gamma(1)))
    (folder / "rows/gamma-sdk@main").symlink_to(tmp_path / "out-of-matrix")
    site = tmp_path / "site"
    err = _ok(_publish(db, site, "--matrix", str(folder)), capsys)
    assert not (site / "lines/alpha-sdk").exists()
    assert not (site / "lines/gamma-sdk").exists()
    assert all(b"not for the site" not in data for data in _files(site).values())
    assert "alpha-sdk: the matrix row alpha-sdk@main: no scorecard.html in" in err
    assert "gamma-sdk: the matrix row gamma-sdk@main: its folder 'rows/gamma-sdk@main' is not" in (
        err
    )


# --- names that differ only in letter case ---------------------------------------------------


def _renamed(run: RunRecord, old: str, new: str) -> RunRecord:
    scenarios = tuple(
        dataclasses.replace(s, scenario=new) if s.scenario == old else s for s in run.scenarios
    )
    return dataclasses.replace(run, scenarios=scenarios)


def _fold_clashes(paths: list[str]) -> list[tuple[str, str]]:
    """Pairs of distinct paths (or folders) that are one on a case-insensitive disk."""
    seen: dict[str, str] = {}
    clashes = []
    for path in paths:
        parts = path.split("/")
        for i in range(len(parts)):
            prefix = "/".join(parts[: i + 1])
            first = seen.setdefault(prefix.casefold(), prefix)
            if first != prefix:
                clashes.append((first, prefix))
    return clashes


def test_lines_and_scenarios_differing_only_in_case_get_paths_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    upper = [
        _renamed(record_of(night_scorecard("Case-SDK", n)), "tools-list", "Tools-List")
        for n in (1, 2)
    ]
    lower = [record_of(night_scorecard("case-sdk", n)) for n in (1, 2)]
    db = _db(tmp_path / "h.sqlite", upper + lower)
    site = tmp_path / "site"
    err = _ok(_publish(db, site), capsys)
    assert "case-insensitive" not in err
    written = sorted(_files(site))
    assert _fold_clashes(written) == []
    index = json.loads((site / "api/v1/index.json").read_text("utf-8"))
    links = {line["line"]: line["links"] for line in index["lines"]}
    assert set(links) == {"Case-SDK", "case-sdk"}
    assert links["case-sdk"]["page"] == "lines/case-sdk.html"  # a lowercase name keeps its path
    for line in links.values():
        for path in (line["page"], line["runs"], line["badge_svg"], line["badge_json"]):
            assert path in written, path
    pages = {(s["leg"], s["scenario"]): s["page"] for s in index["scenarios"]}
    assert pages[("server", "tools-list")] == "scenarios/server-tools-list.html"
    assert pages[("server", "Tools-List")] != pages[("server", "tools-list")]
    assert pages[("server", "Tools-List")] in written
    for page in pages.values():
        assert page in written


def test_an_alias_that_is_a_lines_badge_in_another_case_is_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, site = _two_lines(tmp_path), tmp_path / "site"
    _ok(_publish(db, site), capsys)
    aliases = site / "badges" / "aliases.json"
    _edit(aliases, lambda d: d["aliases"].update({"ALPHA-SDK": "gamma-sdk", "Old": "gamma-sdk"}))
    _edit(aliases, lambda d: d["aliases"].update({"old": "alpha-sdk"}))
    err = _ok(_publish(db, site), capsys)
    assert "badge alias ALPHA-SDK → gamma-sdk: dropped" in err
    assert "badge alias old → alpha-sdk: dropped" in err  # "Old" came first
    written = sorted(_files(site))
    assert _fold_clashes(written) == []
    assert "badges/Old.svg" in written
    assert json.loads((site / "badges/alpha-sdk.json").read_text("utf-8"))["message"] == "1"


def test_a_line_whose_badge_would_be_the_alias_record_leaves_the_record_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _db(tmp_path / "h.sqlite", records([night_scorecard("aliases", 1), gamma(1)]))
    site = tmp_path / "site"
    err = _ok(_publish(db, site), capsys)
    assert "badges/aliases.json is not written again: another file of the site is it" in err
    record = json.loads((site / "badges/aliases.json").read_text("utf-8"))
    assert record["format"] == "tiercheck-badge-aliases"
    assert (site / "badges/aliases.svg").is_file()


# --- the badge's text in its attributes ------------------------------------------------------

HOSTILE = "say \"hi\" <b> & 'co'"


def test_the_badge_is_xml_whatever_its_text() -> None:
    svg = ET.fromstring(badge_svg(HOSTILE, '<2> & "x"', "#44cc11"))
    assert svg.get("aria-label") == f'{HOSTILE}: <2> & "x"'
    assert svg.findtext(f"{SVG}title") == f'{HOSTILE}: <2> & "x"'
    assert svg.find(f".//{SVG}text[@id='label']").text == HOSTILE  # type: ignore[union-attr]


def test_every_badge_of_a_line_with_markup_in_its_name_is_xml(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = 'we "quote" <tags> & more'
    db = _db(tmp_path / "h.sqlite", records([night_scorecard(name, n, tier=2) for n in (1, 2)]))
    site = tmp_path / "site"
    # The alias's old name is a badge name (in any letter case: its badge is its slug's).
    _ok(_publish(db, site, "--alias", f"Old.One_2={name}"), capsys)
    svgs = sorted((site / "badges").glob("*.svg"))
    assert len(svgs) == 2  # the line's and its alias's
    for path in svgs:
        svg = ET.fromstring(path.read_bytes())
        assert svg.get("aria-label") == "MCP tier: 2"
    index = json.loads((site / "api/v1/index.json").read_text("utf-8"))
    assert [line["line"] for line in index["lines"]] == [name]
