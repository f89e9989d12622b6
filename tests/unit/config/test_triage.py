"""Loading a triage file: validated on load, any problem one line naming the file, the place in
it and the fix; `tier-check publish --triage` exits 2 on it before writing anything."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from support.nights import R1, records, thirty_nights
from tiercheck.cli.app import main
from tiercheck.config.triage import load_triage, parse_triage
from tiercheck.errors import ConfigError
from tiercheck.history.store import HistoryStore

ISSUE = "https://github.com/example/alpha-sdk/issues/12"


def _entry(**changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "line": "alpha-sdk",
        "scenario": "tools-call-image",
        "issue": ISSUE,
        "note": "image content without a MIME type",
    }
    entry.update(changes)
    return {k: v for k, v in entry.items() if v is not None}


def test_a_good_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "triage.yaml"
    data = {
        "triage": [
            _entry(revision=R1, leg="server"),
            _entry(line="beta-sdk", scenario="auth/scope-step-up", issue=ISSUE[:-2] + "7"),
        ]
    }
    path.write_text(yaml.safe_dump(data), "utf-8")
    first, second = load_triage(path)
    assert (first.line, first.scenario, first.revision, first.leg) == (
        "alpha-sdk",
        "tools-call-image",
        R1,
        "server",
    )
    assert (second.revision, second.leg) == (None, None)
    assert first.issue_label == "example/alpha-sdk#12"
    assert second.where == f"{path}: triage[1]"
    assert second.place == "triage.yaml: triage[1]"
    assert parse_triage({"triage": None}, "t.yaml") == ()


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            _entry(issue="http://github.com/example/alpha-sdk/issues/12"),
            "t.yaml: triage[0].issue: 'http://github.com/example/alpha-sdk/issues/12' is not "
            "accepted: write an issue or pull request on github.com, "
            "https://github.com/OWNER/REPO/issues/N (or /pull/N), with nothing after the number",
        ),
        (_entry(issue="https://gitlab.com/example/alpha-sdk/issues/12"), "triage[0].issue:"),
        (_entry(issue=ISSUE + "?x=1"), "triage[0].issue:"),
        (_entry(issue=ISSUE + "#top"), "triage[0].issue:"),
        (_entry(issue="https://user@github.com/example/alpha-sdk/issues/12"), "triage[0].issue:"),
        (_entry(issue="javascript:alert(1)"), "triage[0].issue:"),
        (
            _entry(note="two\nlines"),
            "triage[0].note: 'two\\nlines' is not accepted: write the note on one line",
        ),
        (_entry(note=""), "triage[0].note: must not be empty"),
        (_entry(revision="2024-01-01"), "t.yaml: triage[0].revision:"),
        (_entry(leg="both"), "triage[0].leg: 'both' is not one of server, client"),
        (_entry(scenario="<b>x</b>"), "triage[0].scenario:"),
        (_entry(issues=ISSUE), "triage[0].issues: unknown key (did you mean 'issue'?)"),
        (_entry(note=None), "triage[0]: missing required key 'note'"),
    ],
)
def test_a_bad_entry_is_one_line_naming_the_file_the_place_and_the_fix(
    entry: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_triage({"triage": [entry]}, "t.yaml")
    message = str(caught.value)
    assert message.startswith("t.yaml: triage[0]")
    assert expected in message
    assert "\n" not in message


def test_the_same_failure_twice_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"t.yaml: triage\[1\]: the same failure as triage\[0\]"):
        parse_triage({"triage": [_entry(), _entry(note="again")]}, "t.yaml")
    # A revision or a leg tells them apart.
    assert len(parse_triage({"triage": [_entry(), _entry(leg="server")]}, "t.yaml")) == 2


def test_publish_refuses_a_bad_triage_file_before_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "h.sqlite"
    HistoryStore(db).append_many(records(thirty_nights(2)))
    bad = tmp_path / "triage.yaml"
    bad.write_text(yaml.safe_dump({"triage": [_entry(issue="https://evil.example/1")]}), "utf-8")
    site = tmp_path / "site"
    argv = ["publish", "--history", str(db), "--out", str(site), "--triage", str(bad)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"{bad}: triage[0].issue:" in err
    assert not (site / "index.html").exists()
    missing = ["publish", "--history", str(db), "--out", str(site), "--triage", "nope.yaml"]
    assert main(missing) == 2
    assert "--triage nope.yaml: no such file" in capsys.readouterr().err
