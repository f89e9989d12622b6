"""`pipeline.publish.publish` called with a typed `PublishRequest` (no argv): the site built from
a history of `support.nights`, and every input refused before anything is written."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from support.nights import alpha, gamma
from tiercheck.cli.app import main
from tiercheck.errors import UsageError
from tiercheck.history.record import record_of
from tiercheck.history.store import HistoryStore
from tiercheck.pipeline.publish import PublishRequest, publish


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "history.sqlite"
    HistoryStore(path).append_many([record_of(gamma(1)), record_of(gamma(2))])
    return path


def test_the_site_is_built_then_left_as_it_is(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    first = publish(PublishRequest(history=db, out=site))
    assert (first.out, first.lines, first.runs, first.exit_code) == (site, 1, 2, 0)
    assert "index.html" in first.site.written
    assert (site / "index.html").is_file()
    again = publish(PublishRequest(history=db, out=site))
    assert (again.site.written, again.site.removed) == ((), ())
    assert again.site.unchanged == len(first.site.written)


def test_a_stable_series_is_counted_as_the_line_of_its_own_the_index_lists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two SDKs, three lines: alpha-sdk, gamma-sdk and gamma-sdk@stable (a run of the ref
    # `stable` is the stable series, listed apart), four runs.
    night2 = gamma(2)
    stable = dataclasses.replace(night2, sdk=dataclasses.replace(night2.sdk, ref="stable"))
    db = tmp_path / "history.sqlite"
    runs = [gamma(1), night2, stable, alpha(2)]
    HistoryStore(db).append_many([record_of(doc) for doc in runs])
    site = tmp_path / "site"
    result = publish(PublishRequest(history=db, out=site))
    assert (result.lines, result.runs) == (3, 4)
    assert result.site.lines == ("alpha-sdk", "gamma-sdk", "gamma-sdk@stable")
    index = json.loads((site / "api/v1/index.json").read_text("utf-8"))
    assert [s["line"] for s in index["lines"]] == list(result.site.lines)
    # What the command says.
    assert main(["publish", "--history", str(db), "--out", str(tmp_path / "again")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"published 3 line(s), 4 run(s) to {tmp_path / 'again'}: "), out


def test_a_missing_history_is_refused_before_the_site_is_made(tmp_path: Path) -> None:
    request = PublishRequest(history=tmp_path / "none.sqlite", out=tmp_path / "site")
    with pytest.raises(UsageError) as info:
        publish(request)
    assert info.value.message == f"publish: --history {tmp_path / 'none.sqlite'}: no such file"
    assert not (tmp_path / "site").exists()


def test_a_matrix_folder_that_is_not_one_is_quoted_as_given(db: Path, tmp_path: Path) -> None:
    given = f"{tmp_path}/missing//"
    with pytest.raises(UsageError) as info:
        publish(PublishRequest(history=db, out=tmp_path / "site", matrices=(given,)))
    assert info.value.message == f"publish: --matrix {given} is not a directory"
    assert not (tmp_path / "site").exists()


def test_an_alias_to_a_line_without_runs_is_refused(db: Path, tmp_path: Path) -> None:
    request = PublishRequest(history=db, out=tmp_path / "site", aliases={"old": "nobody"})
    with pytest.raises(UsageError) as info:
        publish(request)
    assert info.value.message == "publish: --alias old=nobody: the history has no line 'nobody'"
