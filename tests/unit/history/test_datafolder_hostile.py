"""The data folder and `history import` against hostile or damaged input, through the real
`tier-check` (in this process, and as `python -m tiercheck` where the process is the point).

What is promised: runs are known by what their files hold, never by the files' names; a file
that is not a run file is left alone; a broken file is one warning and skipped, never a wedged
nightly; nothing is read or written through a symbolic link out of the folder given; an import
of several folders adds all of them or none; line names that differ only in case get files
apart on a case-insensitive checkout; bad input is one line, never a traceback."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support.nights import R1, REGRESSED, night_scorecard, records, thirty_nights
from tiercheck.cli.app import main
from tiercheck.document_files import write_reports
from tiercheck.history.datafile import DATA_MARKER, line_slug, run_file_name
from tiercheck.history.record import RunRecord, record_of
from tiercheck.history.store import HistoryStore

ROOT = Path(__file__).resolve().parents[3]


def tier_check(tmp: Path, *argv: str, process: bool = False) -> tuple[int, str, str]:
    """Run the real CLI, in this process or (``process=True``) as `python -m tiercheck`, with
    its own home, cache and working folder; no traceback, ever."""
    env = {
        "HOME": str(tmp / "home"),
        "TIERCHECK_CACHE": str(tmp / "cache"),
        "NO_COLOR": "1",
    }
    if process:
        proc = subprocess.run(
            [sys.executable, "-m", "tiercheck", *argv],
            capture_output=True,
            text=True,
            env={k: v for k, v in os.environ.items() if k in {"PATH", "LANG", "LC_ALL"}}
            | env
            | {"PYTHONPATH": str(ROOT)},
            cwd=tmp,
            timeout=120,
            check=False,
        )
        code, out, err = proc.returncode, proc.stdout, proc.stderr
    else:
        stdout, stderr = io.StringIO(), io.StringIO()
        with pytest.MonkeyPatch.context() as patch:
            for name in [k for k in os.environ if k.startswith(("TIERCHECK_", "GITHUB_", "GH_"))]:
                patch.delenv(name)
            for name, value in env.items():
                patch.setenv(name, value)
            patch.chdir(tmp)
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                code = main(list(argv))
        out, err = stdout.getvalue(), stderr.getvalue()
    assert "Traceback" not in err, err
    return code, out, err


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def _runs_in(db: Path) -> list[tuple[str, str, int]]:
    return [(r.sdk, r.run_id, r.tier) for r in HistoryStore(db).runs()]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data folder of three nights of three lines, exported by the real CLI."""
    db = tmp_path / "first.sqlite"
    HistoryStore(db).append_many(records(thirty_nights(3)))
    folder = tmp_path / "data"
    code, out, _ = tier_check(tmp_path, "history", "export", "--history", str(db), "--out", "data")
    assert (code, out.split(" to ")[0]) == (0, "exported 9 run(s)")
    return folder


def _night_folder(tmp: Path, n: int) -> Path:
    """Night `n`'s scorecards of every line, as the matrix's rows leave them."""
    jobs = tmp / f"jobs-{n}"
    for line in ("alpha-sdk", "beta-sdk", "gamma-sdk"):
        write_reports(night_scorecard(line, n), jobs / line, ["json"])
    return jobs


def _night(tmp: Path, data: Path, n: int, db: str, *, process: bool = False) -> tuple[str, str]:
    """The nightly's sequence: a fresh history from the data folder, tonight's runs, export."""
    (tmp / db).unlink(missing_ok=True)
    outs, errs = [], []
    for argv in (
        ("history", "import", str(data), "--history", db),
        ("history", "import", str(_night_folder(tmp, n)), "--history", db),
        ("history", "export", "--history", db, "--out", str(data)),
    ):
        code, out, err = tier_check(tmp, *argv, process=process)
        assert code == 0, err
        outs.append(out)
        errs.append(err)
    return "".join(outs), "".join(errs)


# --- A: a renamed, an extra and a foreign file --------------------------------------------


def test_a_renamed_an_extra_and_a_foreign_file_never_wedge_the_nightly(
    data: Path, tmp_path: Path
) -> None:
    alpha = sorted(data.glob("runs/alpha-sdk/*.json"))
    beta = sorted(data.glob("runs/beta-sdk/*.json"))
    renamed = alpha[0].with_name("night-one.json")
    alpha[0].rename(renamed)
    shutil.copy(beta[0], data / "runs" / "beta-sdk" / "copy.json")  # an extra copy of a run
    foreign = {
        "README.md": b"# the history of the nightly\n",
        ".gitattributes": b"*.json -diff\n",
        "runs/gamma-sdk/notes.json": b'{"note": "not a run"}\n',
        "runs/README.md": b"one file per run\n",
    }
    for name, content in foreign.items():
        (data / name).write_bytes(content)

    out, err = _night(tmp_path, data, 4, "night4.sqlite", process=True)  # as the nightly runs
    assert err == ""
    assert "exported 3 run(s)" in out
    assert "1 moved to their run's own name" in out
    # The renamed file is back at its run's own name, byte for byte; the rest is left alone.
    assert not renamed.exists()
    assert alpha[0].is_file()
    assert (data / "runs" / "beta-sdk" / "copy.json").read_bytes() == beta[0].read_bytes()
    assert {n: (data / n).read_bytes() for n in foreign} == foreign
    assert len(_runs_in(tmp_path / "night4.sqlite")) == 12

    # The next night: nothing to move, nothing refused, and the dashboard is built.
    out, err = _night(tmp_path, data, 5, "night5.sqlite")
    assert (err, "moved" in out) == ("", False)
    assert "exported 3 run(s)" in out
    assert len(_runs_in(tmp_path / "night5.sqlite")) == 15
    code, _, err = tier_check(
        tmp_path, "publish", "--history", "night5.sqlite", "--out", str(tmp_path / "site")
    )
    assert (code, err) == (0, "")
    assert (tmp_path / "site" / "index.html").is_file()


def test_a_run_file_moved_into_a_wrong_folder_is_still_its_run(data: Path, tmp_path: Path) -> None:
    path = sorted(data.glob("runs/alpha-sdk/*.json"))[1]
    stray = data / "runs" / "archive" / "2026" / path.name
    stray.parent.mkdir(parents=True)
    path.rename(stray)
    out, err = _night(tmp_path, data, 4, "h.sqlite")
    assert (err, "1 moved" in out) == ("", True)
    assert path.is_file()
    assert not (data / "runs" / "archive").exists()  # the folders it left empty are gone


def test_two_files_of_one_run_with_different_contents_are_one_warning_naming_both(
    data: Path, tmp_path: Path
) -> None:
    own = sorted(data.glob("runs/alpha-sdk/*.json"))[0]
    doc = json.loads(own.read_text("utf-8"))
    doc["tier"] = 3
    other = own.with_name("edited.json")
    other.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = tier_check(tmp_path, "history", "import", "data", "--history", "a.sqlite")
    assert code == 0
    assert err.count("\n") == 1
    assert "edited.json" in err
    assert own.name in err
    assert f"{own.name} is taken (the run's own name)" in err
    assert ("alpha-sdk", doc["run_id"], 1) in _runs_in(tmp_path / "a.sqlite")
    assert "imported 9 run(s)" in out

    # Neither at the run's own name: the first by name is taken, and said so.
    own.rename(own.with_name("zz-original.json"))
    code, _, err = tier_check(tmp_path, "history", "import", "data", "--history", "b.sqlite")
    assert code == 0
    assert err.count("\n") == 1
    assert "edited.json is taken (the first by name)" in err
    assert ("alpha-sdk", doc["run_id"], 3) in _runs_in(tmp_path / "b.sqlite")
    # Export takes the same one to the run's own name, and the next import agrees.
    code, out, _ = tier_check(
        tmp_path, "history", "export", "--history", "b.sqlite", "--out", "data"
    )
    assert (code, "1 moved" in out) == (0, True)
    assert json.loads(own.read_text("utf-8"))["tier"] == 3


def test_a_run_the_history_lacks_under_any_name_is_still_a_newer_state(
    data: Path, tmp_path: Path
) -> None:
    # Another workflow run added night 4 (under an odd name): ours must import first.
    record = record_of(night_scorecard("alpha-sdk", 4))
    other = tmp_path / "other.sqlite"
    HistoryStore(other).append_many([*records(thirty_nights(3)), record])
    scratch = tmp_path / "scratch"
    assert (
        tier_check(tmp_path, "history", "export", "--history", str(other), "--out", "scratch")[0]
        == 0
    )
    shutil.copy(scratch / run_file_name(record), data / "runs" / "alpha-sdk" / "tonight.json")
    db = tmp_path / "first.sqlite"
    before = _files(data)
    code, _, err = tier_check(tmp_path, "history", "export", "--history", str(db), "--out", "data")
    assert code == 2
    assert err.count("\n") == 1
    assert "holds 1 run(s) this history lacks" in err
    assert _files(data) == before


def test_a_run_file_of_a_newer_tiercheck_is_refused(data: Path, tmp_path: Path) -> None:
    path = sorted(data.glob("runs/beta-sdk/*.json"))[0]
    doc = json.loads(path.read_text("utf-8"))
    doc["schema_version"] = 7
    path.with_name("later.json").write_text(json.dumps(doc), encoding="utf-8")
    for argv in (
        ("history", "import", "data", "--history", "n.sqlite"),
        ("history", "export", "--history", "first.sqlite", "--out", "data"),
    ):
        code, _, err = tier_check(tmp_path, *argv)
        assert code == 2
        assert err.count("\n") == 1
        assert "schema version 7, newer than this tiercheck's (6)" in err


# --- B: symbolic links in the data folder -------------------------------------------------


@pytest.mark.parametrize("link", ["runs", "runs/alpha-sdk", "marker", "file"])
def test_export_never_writes_through_a_symbolic_link(link: str, data: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    db = tmp_path / "first.sqlite"
    if link == "marker":
        (elsewhere / DATA_MARKER).write_bytes((data / DATA_MARKER).read_bytes())
        (data / DATA_MARKER).unlink()
        (data / DATA_MARKER).symlink_to(elsewhere / DATA_MARKER)
    elif link == "file":
        HistoryStore(db).append(record_of(night_scorecard("alpha-sdk", 4)))
        name = run_file_name(HistoryStore(db).runs("alpha-sdk")[-1])
        (data / name).symlink_to(elsewhere / "target.json")
    else:
        shutil.rmtree(data / link)
        (data / link).symlink_to(elsewhere, target_is_directory=True)
    before = _files(elsewhere)
    code, _, err = tier_check(tmp_path, "history", "export", "--history", str(db), "--out", "data")
    assert code == 2
    assert err.count("\n") == 1
    assert "symbolic link" in err
    assert _files(elsewhere) == before


def test_import_never_follows_a_symbolic_link_out_of_the_data_folder(
    data: Path, tmp_path: Path
) -> None:
    # Runs outside the folder, reached by a linked folder and a linked file.
    outside = tmp_path / "outside"
    later = tmp_path / "later.sqlite"
    HistoryStore(later).append_many(records(thirty_nights(5)))
    assert (
        tier_check(tmp_path, "history", "export", "--history", str(later), "--out", "outside")[0]
        == 0
    )
    (data / "runs" / "more").symlink_to(outside / "runs" / "gamma-sdk", target_is_directory=True)
    one = sorted((outside / "runs" / "alpha-sdk").glob("*.json"))[-1]
    (data / "runs" / "alpha-sdk" / "linked.json").symlink_to(one)
    code, out, err = tier_check(tmp_path, "history", "import", "data", "--history", "h.sqlite")
    assert code == 0
    assert err.count("\n") == 2
    assert err.count("a symbolic link, not followed") == 2
    assert "imported 9 run(s)" in out
    assert len(_runs_in(tmp_path / "h.sqlite")) == 9


# --- C: a scorecard's recorded paths ------------------------------------------------------


def _scorecard_with_results(folder: Path, results: str) -> Path:
    """A saved scorecard whose 2025-11-25 server leg records `results` as its folder."""
    path = write_reports(night_scorecard("alpha-sdk", 4), folder, ["json"])["json"]
    doc = json.loads(path.read_text("utf-8"))
    doc["revisions"][R1]["server"]["results_dir"] = results
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _stored_results(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT files FROM leg_results")]


@pytest.mark.parametrize("how", ["absolute", "dotdot", "linked folder", "linked file"])
def test_import_reads_no_results_folder_outside_the_tree_given(how: str, tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    (secret / "scenario").mkdir(parents=True)
    (secret / "scenario" / "checks.json").write_text('["SECRET"]', encoding="utf-8")
    tree = tmp_path / "saved"
    leg = tree / "alpha" / "raw" / "server"
    results = {
        "absolute": str(secret),
        "dotdot": str(leg / ".." / ".." / ".." / ".." / "secret"),
        "linked folder": str(leg),
        "linked file": str(leg),
    }[how]
    _scorecard_with_results(tree / "alpha", results)
    if how == "dotdot":
        leg.mkdir(parents=True)
    elif how == "linked folder":
        leg.parent.mkdir(parents=True)
        leg.symlink_to(secret, target_is_directory=True)
    elif how == "linked file":
        (leg / "scenario").mkdir(parents=True)
        (leg / "scenario" / "checks.json").symlink_to(secret / "scenario" / "checks.json")
    code, out, err = tier_check(tmp_path, "history", "import", "saved", "--history", "h.sqlite")
    assert code == 0
    assert "imported 1 run(s)" in out
    assert not any("SECRET" in files for files in _stored_results(tmp_path / "h.sqlite"))
    if how != "linked file":
        assert err.count("\n") == 1
        assert "is outside" in err
        assert "not read" in err


def test_a_results_folder_inside_the_tree_is_still_kept(tmp_path: Path) -> None:
    tree = tmp_path / "saved"
    leg = tree / "alpha" / "raw" / "server"
    (leg / "ping").mkdir(parents=True)
    (leg / "ping" / "checks.json").write_text('["KEPT"]', encoding="utf-8")
    _scorecard_with_results(tree / "alpha", str(leg))
    code, _, err = tier_check(tmp_path, "history", "import", "saved", "--history", "h.sqlite")
    assert (code, err) == (0, "")
    assert any("KEPT" in files for files in _stored_results(tmp_path / "h.sqlite"))


def test_a_scorecard_linked_from_outside_the_tree_is_not_read(tmp_path: Path) -> None:
    outside = write_reports(night_scorecard("beta-sdk", 4), tmp_path / "outside", ["json"])
    (tmp_path / "saved" / "beta").mkdir(parents=True)
    (tmp_path / "saved" / "beta" / "scorecard.json").symlink_to(outside["json"])
    write_reports(night_scorecard("alpha-sdk", 4), tmp_path / "saved" / "alpha", ["json"])
    code, out, err = tier_check(tmp_path, "history", "import", "saved", "--history", "h.sqlite")
    assert code == 0
    assert "not followed" in err
    assert [sdk for sdk, _, _ in _runs_in(tmp_path / "h.sqlite")] == ["alpha-sdk"]
    assert "imported 1 run(s)" in out


# --- D: several folders are one transaction -----------------------------------------------


@pytest.mark.parametrize("bad", ["scorecard", "marker", "not a folder"])
def test_import_of_folders_with_one_bad_adds_none(bad: str, data: Path, tmp_path: Path) -> None:
    good = _night_folder(tmp_path, 4)
    broken = tmp_path / "broken"
    if bad == "scorecard":
        write_reports(night_scorecard("alpha-sdk", 5), broken / "alpha", ["json"])
        (broken / "alpha" / "scorecard.json").write_text("{not json", encoding="utf-8")
    elif bad == "marker":
        shutil.copytree(data, broken)
        (broken / DATA_MARKER).write_text(
            (data / DATA_MARKER)
            .read_text("utf-8")
            .replace('"schema_version": 1', '"schema_version": 4'),
            encoding="utf-8",
        )
    else:
        broken.write_text("a file", encoding="utf-8")
    code, out, err = tier_check(
        tmp_path, "history", "import", "data", str(good), "broken", "--history", "h.sqlite"
    )
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert _runs_in(tmp_path / "h.sqlite") == []
    code, out, _ = tier_check(
        tmp_path, "history", "import", "data", str(good), "--history", "h.sqlite"
    )
    assert (code, "imported 12 run(s)" in out) == (0, True)


# --- E: line names that differ only in case -----------------------------------------------


def test_line_slugs_never_collide_in_any_letter_case() -> None:
    names = ["go-sdk", "Go-SDK", "GO-SDK", "go-SDK", "someone/go-sdk", "Someone/Go-SDK", "Go.SDK"]
    slugs = [line_slug(n) for n in names]
    assert len({s.casefold() for s in slugs}) == len(names)
    # A lowercase name keeps today's path: the files and badge addresses never move.
    assert line_slug("go-sdk") == "go-sdk"
    digest = hashlib.sha256(b"someone/go-sdk").hexdigest()[:8]
    assert line_slug("someone/go-sdk") == f"someone-go-sdk-{digest}"
    assert line_slug("Go-SDK") == f"go-sdk-{hashlib.sha256(b'Go-SDK').hexdigest()[:8]}"
    lone = hashlib.sha256(b"\xed\xa0\x80").hexdigest()[:8]  # U+D800 as UTF-8 would have it
    assert line_slug("\ud800") == f"line-{lone}"
    assert line_slug("go-sdk\n") != "go-sdk\n"


def _line(name: str, n: int) -> RunRecord:
    doc = night_scorecard("alpha-sdk", n)
    return record_of(dataclasses.replace(doc, sdk=dataclasses.replace(doc.sdk, name=name)))


def test_lines_differing_in_case_get_files_apart_on_a_case_insensitive_checkout(
    tmp_path: Path,
) -> None:
    db = tmp_path / "h.sqlite"
    HistoryStore(db).append_many([_line(name, 1) for name in ("go-sdk", "Go-SDK", "GO-sdk")])
    code, _, _ = tier_check(tmp_path, "history", "export", "--history", str(db), "--out", "data")
    assert code == 0
    names = list(_files(tmp_path / "data"))
    assert len({n.casefold() for n in names}) == len(names) == 4
    # Each line's folder is its own, in any letter case (a case-insensitive file system would
    # pour `runs/Go-SDK/` and `runs/go-sdk/` into one).
    folders = {n.split("/")[1] for n in names if n.startswith("runs/")}
    assert len({f.casefold() for f in folders}) == 3
    assert "go-sdk" in folders
    code, out, _ = tier_check(tmp_path, "history", "import", "data", "--history", "b.sqlite")
    assert (code, "imported 3 run(s)" in out) == (0, True)


def test_a_line_folder_of_an_older_slug_is_moved_to_the_new_one(tmp_path: Path) -> None:
    # tiercheck before this change wrote `Go-SDK`'s runs under runs/Go-SDK/.
    db = tmp_path / "h.sqlite"
    HistoryStore(db).append_many([_line("Go-SDK", 1), _line("go-sdk", 1)])
    assert tier_check(tmp_path, "history", "export", "--history", str(db), "--out", "data")[0] == 0
    new = tmp_path / "data" / "runs" / line_slug("Go-SDK")
    old = tmp_path / "data" / "runs" / "Go-SDK"
    new.rename(old)
    code, out, err = _import_export(tmp_path)
    assert (code, err) == (0, "")
    assert "1 moved" in out
    assert new.is_dir()
    assert not old.exists()


def _import_export(tmp: Path) -> tuple[int, str, str]:
    code, out, err = tier_check(tmp, "history", "import", "data", "--history", "fresh.sqlite")
    if code:
        return code, out, err
    code, more, err2 = tier_check(
        tmp, "history", "export", "--history", "fresh.sqlite", "--out", "data"
    )
    return code, out + more, err + err2


# --- F: values no history can hold --------------------------------------------------------

_HUGE = "9" * 300
_RUN_FILE_CASES: dict[str, Callable[[str], str]] = {
    "tier": lambda t: t.replace('"tier": 1', f'"tier": {_HUGE}'),
    "SEP-1730's tier": lambda t: t.replace('"sep_tier": 1', f'"sep_tier": {_HUGE}'),
    "a dispute of no known state": lambda t: t.replace(
        '"message": null}', '"message": null, "dispute": {"state": "maybe", "issue": "x"}}', 1
    ),
    "passed": lambda t: t.replace('"passed": 4', f'"passed": {_HUGE}', 1),
    "pass rate of 400 digits": lambda t: t.replace(
        '"pass_rate": 1.0', f'"pass_rate": {"9" * 400}', 1
    ),
    "pass rate beyond 1": lambda t: t.replace('"pass_rate": 1.0', '"pass_rate": 1e300', 1),
    "late": lambda t: t.replace('03:00:00Z"', '23:59:59-05:00"').replace(
        '"2026-10-0', '"9999-12-3'
    ),
    "early": lambda t: t.replace('03:00:00Z"', '00:00:00+05:00"').replace(
        '"2026-10-0', '"0001-01-0'
    ),
    "surrogate in a name": lambda t: t.replace('"sdk": "alpha-sdk"', '"sdk": "\\ud800"'),
    "surrogate in a message": lambda t: t.replace('"message": null', '"message": "\\udfff x"', 1),
}


@pytest.mark.parametrize("case", sorted(_RUN_FILE_CASES))
def test_a_run_file_holding_what_no_history_can_is_one_warning_and_skipped(
    case: str, data: Path, tmp_path: Path
) -> None:
    path = sorted(data.glob("runs/alpha-sdk/*.json"))[0]
    text = path.read_text("utf-8")
    changed = _RUN_FILE_CASES[case](text)
    assert changed != text
    path.write_text(changed, encoding="utf-8")
    code, out, err = tier_check(tmp_path, "history", "import", "data", "--history", "h.sqlite")
    assert code == 0
    assert err.count("\n") == 1
    assert path.name in err
    assert "skipped" in err
    assert "imported 8 run(s)" in out
    # The nightly goes on: the export leaves the file alone and refuses nothing.
    code, out, err = tier_check(
        tmp_path, "history", "export", "--history", "h.sqlite", "--out", "data"
    )
    assert code == 0
    assert path.read_text("utf-8") == changed


_SCORECARD_CASES: dict[str, Callable[[dict[str, Any]], object]] = {
    "tier": lambda d: d["implied_tier"].__setitem__("tier", int(_HUGE)),
    "SEP-1730's tier": lambda d: d["implied_tier"]["sep1730"].__setitem__("tier", int(_HUGE)),
    "pass rate": lambda d: d["revisions"][R1]["server"].__setitem__("pass_rate", int(_HUGE)),
    "late": lambda d: d.__setitem__("timestamp", "9999-12-31T23:59:59-05:00"),
    "early": lambda d: d.__setitem__("timestamp", "0001-01-01T00:00:00+05:00"),
    "the calendar's last day": lambda d: d.__setitem__("timestamp", "9999-12-31T12:00:00Z"),
    "surrogate": lambda d: d["sdk"].__setitem__("name", "\ud800"),
}


@pytest.mark.parametrize("case", sorted(_SCORECARD_CASES))
def test_a_scorecard_holding_what_no_history_can_is_one_line_exit_2(
    case: str, tmp_path: Path
) -> None:
    path = write_reports(night_scorecard("alpha-sdk", 4), tmp_path / "saved", ["json"])["json"]
    doc = json.loads(path.read_text("utf-8"))
    _SCORECARD_CASES[case](doc)
    path.write_text(json.dumps(doc), encoding="utf-8")
    # The surrogate goes through the real process's own stdout and stderr encoding.
    code, out, err = tier_check(
        tmp_path, "history", "import", "saved", "--history", "h.sqlite", process=case == "surrogate"
    )
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert "scorecard.json" in err


def test_a_lone_surrogate_in_a_harness_message_is_kept_as_a_replacement_character(
    tmp_path: Path,
) -> None:
    # A server's reply quoted by the harness may carry one (`\ud800` in its JSON): the history
    # keeps the message, with U+FFFD in its place, as every report writer does.
    failing = night_scorecard("alpha-sdk", 12, failing=[REGRESSED], tier=2)
    path = write_reports(failing, tmp_path / "saved", ["json"])["json"]
    text = path.read_text("utf-8")
    assert '"message": "wrong answer"' in text  # the scenario's failure (and the top list's)
    path.write_text(text.replace('"wrong answer"', '"wrong \\ud800 answer"'), encoding="utf-8")
    code, out, err = tier_check(tmp_path, "history", "import", "saved", "--history", "h.sqlite")
    assert (code, err) == (0, "")
    assert "imported 1 run(s)" in out
    (run,) = HistoryStore(tmp_path / "h.sqlite").runs()
    assert "wrong \ufffd answer" in [s.message for s in run.scenarios]


@pytest.mark.parametrize(
    "argv",
    [
        ("history", "--sdk", "x", "--since", "99999999999w"),
        ("history", "--sdk", "x", "--as-of", "9999-12-31T23:59:59-05:00"),
        ("history", "--sdk", "x", "--as-of", "0001-01-01T00:00:00+05:00"),
    ],
)
def test_a_moment_off_the_calendar_on_the_command_line_is_one_line(
    argv: tuple[str, ...], tmp_path: Path
) -> None:
    code, _, err = tier_check(tmp_path, *argv, "--history", "h.sqlite")
    assert code == 2
    assert err.count("\n") == 1
