"""`tier-check notify --triage FILE`: the tracking issue shows each failing scenario's reviewed
issue and note beside it; a hostile note stays text (no HTML, mention, reference or link of its
own once GitHub renders the body, checked with GitHub's cmark-gfm)."""

from __future__ import annotations

import re
from pathlib import Path

import cmarkgfm
import pytest
import yaml
from cmarkgfm.cmark import Options

from support.fake_github import FakeGitHub
from support.hostile_text import HOSTILE
from support.notify_nights import BROKEN, LINE, REPO, night_scorecard, record
from tiercheck.cli.app import main
from tiercheck.history.store import HistoryStore

ISSUE = "https://github.com/example/sample-sdk/issues/42"


def _triage(tmp_path: Path, note: str) -> Path:
    path = tmp_path / "triage.yaml"
    entry = {"line": LINE, "scenario": BROKEN, "leg": "server", "issue": ISSUE, "note": note}
    path.write_text(yaml.safe_dump({"triage": [entry]}), "utf-8")
    return path


def _body(github: FakeGitHub, store: HistoryStore, triage: Path | None) -> str:
    for n in range(1, 13):
        record(store, night_scorecard(n, failing=[BROKEN] if n >= 12 else []))
    argv = ["notify", "--history", str(store.path), "--repo", REPO, "--github-api-url", github.url]
    assert main([*argv, *(["--triage", str(triage)] if triage else [])]) == 0
    (issue,) = [i for i in github.dataset.issues if i.title == f"Nightly matrix: {LINE} regressed"]
    return issue.body or ""


def test_the_issue_shows_the_triage_link_beside_the_failure(
    github: FakeGitHub, store: HistoryStore, tmp_path: Path
) -> None:
    body = _body(github, store, _triage(tmp_path, "known: fix in review"))
    header = "| row | what | since | nights | triage |"
    assert header in body
    row = next(line for line in body.splitlines() if BROKEN in line and line.startswith("|"))
    assert row.endswith(f"| [`example/sample-sdk#42`]({ISSUE}): known: fix in review |")
    tier_row = next(line for line in body.splitlines() if "implied tier" in line)
    assert tier_row.endswith("| — |")


def test_without_a_triage_file_the_table_is_as_it_was(
    github: FakeGitHub, store: HistoryStore
) -> None:
    assert "| row | what | since | nights |\n" in _body(github, store, None)


@pytest.mark.parametrize(
    "name", ["script", "user-mention", "team-mention", "issue-ref", "md-link", "autolink", "www"]
)
def test_a_hostile_note_stays_text(
    github: FakeGitHub, store: HistoryStore, tmp_path: Path, name: str
) -> None:
    body = _body(github, store, _triage(tmp_path, HOSTILE[name]))
    html = cmarkgfm.github_flavored_markdown_to_html(body, options=Options.CMARK_OPT_UNSAFE)
    assert "<script" not in html
    hrefs = re.findall(r'href="([^"]*)"', html)
    assert set(hrefs) <= {ISSUE}, hrefs
    # The note's mention, reference or address is inside a code span, where GitHub links nothing.
    cell = html.split("example/sample-sdk#42")[1].split("</td>")[0]
    for word in ("@user", "@org/team", "#123", "evil.example"):
        if word in HOSTILE[name]:
            assert re.search(rf"<code>[^<]*{re.escape(word)}", cell), cell
