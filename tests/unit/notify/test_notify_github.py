"""`tier-check notify` against the fake GitHub, through real PyGithub on 127.0.0.1.

Thirty simulated nights of a line (tests/support/nights.py) are appended to a real history
database one by one, and after each night the real command runs. What the fake GitHub then
holds, and which writes it saw each night, is checked against the rules worked out by hand:

* night 12: a server scenario breaks (Tier 1 → Tier 2): one issue is created;
* nights 13 and 14: still broken: the body is edited in place, no comment;
* night 15: fixed: the issue is closed, with one comment;
* night 20: the server never starts: one unmeasured night is not a regression (nothing);
* every other night: nothing at all.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from support.fake_github import FakeComment, FakeGitHub, FakeIssue, LoggedRequest
from support.notify_nights import (
    BROKEN,
    LINE,
    PR,
    REF,
    REPO,
    TOKEN,
    day,
    night_scorecard,
    record,
    thirty_nights,
)
from tiercheck.cli.app import main
from tiercheck.ghapi import transport
from tiercheck.history.store import HistoryStore


def _notify(
    github: FakeGitHub,
    store: HistoryStore,
    capsys: pytest.CaptureFixture[str],
    *extra: str,
) -> tuple[int, str, str]:
    code = main(
        [
            "notify",
            "--history",
            str(store.path),
            "--repo",
            REPO,
            "--github-api-url",
            github.url,
            *extra,
        ]
    )
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert TOKEN not in out + err
    return code, out, err


def _writes(github: FakeGitHub, since: int) -> list[tuple[str, str]]:
    return [(r.method, r.path) for r in github.writes()[since:]]


def _ours(github: FakeGitHub) -> list[FakeIssue]:
    return [i for i in github.dataset.issues if i.number not in (1, PR)]


ISSUES = f"/repos/{REPO}/issues"


def test_thirty_nights_one_issue_opened_edited_and_closed(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    per_night: dict[int, list[tuple[str, str]]] = {}
    for n in range(1, 31):
        github.now = f"{day(n).isoformat()}T05:00:00Z"
        record(store, thirty_nights(n))
        before = len(github.writes())
        code, out, err = _notify(github, store, capsys)
        assert (code, err) == (0, "")
        per_night[n] = _writes(github, before)
        if n == 13:
            # Re-running the night changes nothing: same body, same state.
            again = len(github.writes())
            code, out, _ = _notify(github, store, capsys)
            assert code == 0
            assert _writes(github, again) == []
            assert "GitHub is up to date: no call needed" in out
    issue_number = 8  # the fake numbers a new issue after the highest it holds (#7)
    assert per_night[12] == [("POST", ISSUES)]
    assert per_night[13] == per_night[14] == [("PATCH", f"{ISSUES}/{issue_number}")]
    assert per_night[15] == [
        ("PATCH", f"{ISSUES}/{issue_number}"),
        ("POST", f"{ISSUES}/{issue_number}/comments"),
    ]
    # Night 20 leaves the server leg unmeasured: the issue is reopened, and closed on night 21
    # when the leg is measured again.
    assert per_night[20][0] == ("PATCH", f"{ISSUES}/{issue_number}")
    assert per_night[21][0] == ("PATCH", f"{ISSUES}/{issue_number}")
    quiet = [n for n, writes in per_night.items() if not writes]
    assert quiet == [n for n in range(1, 31) if n not in (12, 13, 14, 15, 20, 21)]
    (issue,) = _ours(github)
    assert issue.title == "Nightly matrix: sample-sdk regressed"
    assert issue.closed_at == f"{day(21).isoformat()}T05:00:00Z"
    assert issue.state_reason == "completed"
    assert "<!-- tiercheck:line=sample-sdk -->" in (issue.body or "")
    assert "<!-- tiercheck:state=green -->" in (issue.body or "")
    comments = github.comments_of(issue_number)
    assert comments[0].body.startswith(f"Green again on {day(15).isoformat()}")
    assert comments[-1].body.startswith(f"Green again on {day(21).isoformat()}")
    # Every write carried the token, as a header only.
    assert all(r.authorization == f"token {TOKEN}" for r in github.writes())
    # The human's issue and the pull request were never touched.
    assert github.issue(1).body == "sample-sdk is slow"
    assert github.comments_of(1) == github.comments_of(PR) == []


def test_the_body_says_what_regressed_since_when_and_for_how_long(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in range(1, 15):
        record(store, thirty_nights(n))
        _notify(github, store, capsys)
    (issue,) = _ours(github)
    body = issue.body or ""
    assert body.startswith(
        "**sample-sdk** has regressed in the nightly matrix since 2026-10-12 "
        "(latest run: 2026-10-14)."
    )
    assert "| `sample-sdk@v1.0.0` | implied tier went down: Tier 1 → Tier 2 | 2026-10-12 | 3 |" in (
        body
    )
    assert (
        f"| `sample-sdk@v1.0.0` | `{BROKEN}` fails (server leg at 2025-11-25): "
        f"`{BROKEN}-check` `wrong answer` | 2026-10-12 | 3 |"
    ) in body
    assert (f"<!-- tiercheck:state=lower-tier newly-failing:2025-11-25/server/{BROKEN} -->") in body


def test_a_change_of_state_while_it_lasts_is_one_comment(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in range(1, 12):
        record(store, night_scorecard(n))
    record(store, night_scorecard(12, failing=[BROKEN]))
    _notify(github, store, capsys)
    other = "server-scenario-07"
    for n in (13, 14):  # another scenario breaks instead; then it stays so
        record(store, night_scorecard(n, failing=[other]))
        _notify(github, store, capsys)
    (issue,) = _ours(github)
    (comment,) = github.comments_of(issue.number)
    assert comment.body.startswith("The regression changed on 2026-10-13")
    assert other in comment.body


def test_a_new_regression_reopens_the_issue(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in range(1, 19):
        record(store, thirty_nights(n))
        _notify(github, store, capsys)
    record(store, night_scorecard(19, failing=[BROKEN]))
    before = len(github.writes())
    _notify(github, store, capsys)
    (issue,) = _ours(github)
    assert _writes(github, before) == [
        ("PATCH", f"{ISSUES}/{issue.number}"),
        ("POST", f"{ISSUES}/{issue.number}/comments"),
    ]
    assert (issue.closed_at, issue.state_reason) == (None, "reopened")
    assert github.comments_of(issue.number)[-1].body.startswith("Regressed again on 2026-10-19")


def test_an_unmeasured_night_opens_an_issue_and_a_measured_night_closes_it(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    writes: dict[int, list[tuple[str, str]]] = {}
    for n in range(1, 22):
        record(store, night_scorecard(n, unmeasured=n in (20, 21)))
        if n >= 19:
            before = len(github.writes())
            _notify(github, store, capsys)
            writes[n] = _writes(github, before)
    (issue,) = _ours(github)
    # Night 20 opens it (the leg newly unmeasured), night 21 rewrites the body (two nights).
    assert writes == {
        19: [],
        20: [("POST", ISSUES)],
        21: [("PATCH", f"{ISSUES}/{issue.number}")],
    }
    assert "unmeasured 2 nights running" in (issue.body or "")
    record(store, night_scorecard(22))
    _notify(github, store, capsys)
    assert github.issue(issue.number).closed_at is not None


def test_a_row_under_another_harness_version_raises_no_issue(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in range(1, 12):
        record(store, night_scorecard(n))
    record(store, night_scorecard(12, failing=[BROKEN], harness="0.2.0-alpha.13"))
    code, out, _ = _notify(github, store, capsys)
    assert code == 0
    assert github.writes() == []
    assert (
        f"sample-sdk: not comparable ({LINE}@{REF}: referee changed on 2026-10-12 (harness "
        "0.2.0-alpha.12 → 0.2.0-alpha.13): 0 scenarios added, 0 changed, 12 not known "
        "(definitions not recorded)); issue left as it is"
    ) in out


def test_an_open_issue_is_left_as_it_is_on_an_incomparable_night(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    # Night 12 regresses (an issue opens); night 13 runs under a new harness and passes: what
    # regressed is undone but the night is not comparable, so the issue is neither edited
    # nor closed. Night 14, under the same new harness, is compared with 13: green, closed.
    for n in range(1, 13):
        record(store, night_scorecard(n, failing=[BROKEN] if n == 12 else []))
    _notify(github, store, capsys)
    (issue,) = _ours(github)
    body = issue.body
    record(store, night_scorecard(13, harness="0.2.0-alpha.13"))
    before = len(github.writes())
    code, out, _ = _notify(github, store, capsys)
    assert code == 0
    assert _writes(github, before) == []
    assert "issue left as it is" in out
    assert (github.issue(issue.number).body, github.issue(issue.number).closed_at) == (body, None)
    record(store, night_scorecard(14, harness="0.2.0-alpha.13"))
    _notify(github, store, capsys)
    assert github.issue(issue.number).closed_at is not None


def test_dry_run_prints_the_calls_and_makes_none(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in range(1, 13):
        record(store, thirty_nights(n))
    code, out, _ = _notify(github, store, capsys, "--dry-run")
    assert code == 0
    assert github.writes() == []
    lines = out.splitlines()
    assert lines[0] == "sample-sdk: regression since 2026-10-12 (lower-tier, newly-failing)"
    assert lines[1].startswith(
        f"would POST {ISSUES}: open 'Nightly matrix: sample-sdk regressed', body of "
    )
    assert len(lines) == 2


@pytest.mark.parametrize(
    "case",
    [
        # The primary limit, resetting long after the wait bound: the listing fails.
        (
            "GET",
            403,
            "API rate limit exceeded for 127.0.0.1.",
            {"X-RateLimit-Remaining": "0"},
            "listing the issues: rate limited (HTTP 403)",
        ),
        ("GET", 429, "slow down", {"Retry-After": "3600"}, "listing the issues: rate limited"),
        ("GET", 502, "Bad Gateway", {}, "GitHub kept failing after retries"),
        # The create itself: a POST is never retried (it may have been made).
        (
            "POST",
            403,
            "You have exceeded a secondary rate limit.",
            {"Retry-After": "60"},
            f"POST {ISSUES}: rate limited (HTTP 403)",
        ),
        (
            "POST",
            429,
            "slow down",
            {"Retry-After": "3600"},
            f"POST {ISSUES}: rate limited (HTTP 429)",
        ),
        (
            "POST",
            500,
            "Internal Server Error",
            {},
            f"POST {ISSUES}: HTTP 500: Internal Server Error",
        ),
    ],
)
def test_rate_limits_and_server_errors_are_warnings_and_the_next_night_catches_up(
    github: FakeGitHub,
    store: HistoryStore,
    capsys: pytest.CaptureFixture[str],
    case: tuple[str, int, str, dict[str, str], str],
) -> None:
    method, status, message, headers, reason = case
    for n in range(1, 13):
        record(store, thirty_nights(n))
    github.fail(r"/issues$", status, message, headers=headers, method=method)
    code, _, err = _notify(github, store, capsys)
    assert code == 0
    (warning,) = err.splitlines()
    assert warning.startswith("tier-check: warning: notify: GitHub: ")
    assert reason in warning
    # A refused create is that line's one call not made; a rate limit stops every line's.
    assert ("1 call(s) not made, left to the next run" in warning) == (
        status in (403, 429) and method == "POST"
    )
    assert ("1 call(s) for sample-sdk not made, left to the next run" in warning) == (
        status == 500 and method == "POST"
    )
    assert _ours(github) == []
    if method == "POST":
        assert len(_requests(github, ISSUES, "POST")) == 1  # not retried
    github.failures.clear()
    record(store, thirty_nights(13))
    code, _, err = _notify(github, store, capsys)
    assert (code, err) == (0, "")
    assert len(_ours(github)) == 1  # created once, on the next run


def _requests(github: FakeGitHub, path: str, method: str = "GET") -> list[LoggedRequest]:
    return [r for r in github.log if r.path == path and r.method == method]


def test_a_500_on_the_listing_is_retried_then_a_warning(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in range(1, 13):
        record(store, thirty_nights(n))
    github.fail(r"/issues$", 500, "Internal Server Error")
    code, _, err = _notify(github, store, capsys)
    assert code == 0
    assert "listing the issues: GitHub kept failing after retries" in err
    assert len(_requests(github, ISSUES)) == 4  # RETRIES = 3 after the first


@pytest.mark.parametrize(
    ("reshape", "detail"),
    [
        (lambda payload: {"not": "a list"}, "a listing that is not a list (dict)"),
        (lambda payload: [None for _ in payload], "a listed item that is not an object"),
        (lambda payload: [{**i, "number": "three"} for i in payload], "a number that is not one"),
        (lambda payload: [{**i, "body": 5} for i in payload], "a body that is not text (int)"),
        (lambda payload: [{**i, "state": ["open"]} for i in payload], "an issue state"),
        (lambda payload: [{"title": i["title"]} for i in payload], "KeyError"),
        (lambda payload: [{**i, "user": "alice"} for i in payload], "a user that is not an"),
        (lambda payload: [{**i, "user": {"login": 5}} for i in payload], "a login that is not"),
        (lambda payload: [{**i, "user": {}} for i in payload], "KeyError"),
    ],
    ids=[
        "object-for-list",
        "null-items",
        "number-not-int",
        "body-not-text",
        "odd-state",
        "no-keys",
        "user-not-object",
        "login-not-text",
        "user-without-login",
    ],
)
def test_a_malformed_answer_is_a_warning_never_a_traceback(
    github: FakeGitHub,
    store: HistoryStore,
    capsys: pytest.CaptureFixture[str],
    reshape: Any,
    detail: str,
) -> None:
    for n in range(1, 13):
        record(store, thirty_nights(n))
    github.reshape(r"/issues$", reshape)
    code, _, err = _notify(github, store, capsys)
    assert code == 0
    (warning,) = err.splitlines()
    assert "listing the issues: GitHub answered in an unexpected shape" in warning
    assert detail in warning
    # A listing it cannot read is never taken for an empty one: nothing is created.
    assert github.writes() == []


def test_without_a_token_it_prints_the_plan(
    github: FakeGitHub,
    store: HistoryStore,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.delenv("GITHUB_TOKEN")
    monkeypatch.setenv("PATH", str(tmp_path))  # no `gh` to ask
    for n in range(1, 13):
        record(store, thirty_nights(n))
    code, out, err = _notify(github, store, capsys)
    assert code == 0
    assert "no GitHub token" in err
    assert out.splitlines()[1].startswith(f"would POST {ISSUES}")
    assert github.writes() == []


def test_the_token_file_is_read_and_never_printed(
    github: FakeGitHub,
    store: HistoryStore,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.delenv("GITHUB_TOKEN")
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    for n in range(1, 13):
        record(store, thirty_nights(n))
    code, _, _ = _notify(github, store, capsys, "--token-file", str(token_file))
    assert code == 0
    assert [r.authorization for r in github.writes()] == [f"token {TOKEN}"]


def test_the_pull_request_comment_is_upserted_not_duplicated(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    github.dataset.comments.append(
        FakeComment(
            1, PR, "looks good to me", "2025-12-02T01:00:00Z", "2025-12-02T01:00:00Z", "bob"
        )
    )
    for n in range(1, 13):
        record(store, thirty_nights(n))
    code, _, _ = _notify(github, store, capsys, "--pr", str(PR))
    assert code == 0
    assert _writes(github, 0) == [("POST", f"{ISSUES}/{PR}/comments")]
    before = len(github.writes())
    _notify(github, store, capsys, "--pr", str(PR))  # the same run again
    assert _writes(github, before) == []
    record(store, thirty_nights(13))
    _notify(github, store, capsys, "--pr", str(PR))
    human, sticky = github.comments_of(PR)
    assert human.body == "looks good to me"
    assert _writes(github, before) == [("PATCH", f"{ISSUES}/comments/{sticky.id}")]
    assert sticky.body.startswith("### tiercheck nightly matrix on this pull request (2026-10-13)")
    assert "| `sample-sdk` | ❌ regression |" in sticky.body
    assert sticky.body.endswith("<!-- tiercheck:pr-comment -->\n")
    assert _ours(github) == []  # no issue on a pull request run


def test_a_pull_request_that_does_not_exist_is_a_warning(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    record(store, thirty_nights(1))
    code, _, err = _notify(github, store, capsys, "--pr", "404")
    assert code == 0
    assert "listing the comments of #404: HTTP 404: Not Found" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--repo", "not-a-repo"], "--repo"),
        (["--pr", "0"], "'0' is not a pull request number"),
        (["--night", "yesterday"], "'yesterday' is not a date"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    store: HistoryStore, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    record(store, thirty_nights(1))
    base = {"--history": str(store.path), "--repo": REPO}
    for flag, value in zip(argv[::2], argv[1::2], strict=True):
        base[flag] = value
    with pytest.raises(SystemExit) as exited:  # argparse's own exit, one line
        main(["notify", *[x for pair in base.items() for x in pair]])
    _, err = capsys.readouterr()
    assert exited.value.code == 2
    assert message in err
    assert "Traceback" not in err


def test_a_missing_or_garbage_history_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["notify", "--history", str(tmp_path / "none.sqlite"), "--repo", REPO]) == 2
    assert "no such file" in capsys.readouterr().err
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"not a database at all" * 100)
    assert main(["notify", "--history", str(garbage), "--repo", REPO]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tier-check: error: history ")
    assert len(err.strip().splitlines()) == 1


def test_a_github_that_never_answers_costs_one_timeout_and_is_a_warning(
    github: FakeGitHub,
    store: HistoryStore,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(transport, "DEFAULT", replace(transport.DEFAULT, timeout=1, retries=0))
    for n in range(1, 13):
        record(store, thirty_nights(n))
    github.hang(r"/issues$")
    code, _, err = _notify(github, store, capsys)
    assert code == 0
    assert "listing the issues: network error" in err
    assert github.writes() == []


def test_a_malformed_comment_listing_is_a_warning(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    record(store, thirty_nights(1))
    github.reshape(r"/comments$", lambda payload: [{"body": "no id"}])
    code, _, err = _notify(github, store, capsys, "--pr", str(PR))
    assert code == 0
    assert f"listing the comments of #{PR}: GitHub answered in an unexpected shape" in err
    assert github.writes() == []


def test_re_running_a_night_from_another_workflow_run_changes_nothing(
    github: FakeGitHub,
    store: HistoryStore,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for n in range(1, 14):
        record(store, thirty_nights(n))
    for name, value in (("GITHUB_SERVER_URL", "https://github.com"), ("GITHUB_REPOSITORY", REPO)):
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("GITHUB_RUN_ID", "1001")
    _notify(github, store, capsys)
    before = len(github.writes())
    monkeypatch.setenv("GITHUB_RUN_ID", "1002")  # the same night, notified by another run
    _notify(github, store, capsys)
    assert _writes(github, before) == []


def test_the_command_in_its_own_process_prints_one_warning_line_when_rate_limited(
    github: FakeGitHub, store: HistoryStore
) -> None:
    """As the workflow runs it: PyGithub's own log lines (it logs each retry to stderr from the
    moment it is imported) stay out of the output."""
    import os
    import subprocess
    import sys

    for n in range(1, 13):
        record(store, thirty_nights(n))
    github.rate_limit_everything()
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "tier-check"),
            "notify",
            "--history",
            str(store.path),
            "--repo",
            REPO,
            "--github-api-url",
            github.url,
        ],
        env={**os.environ, "GITHUB_TOKEN": TOKEN},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0
    (line,) = done.stderr.splitlines()
    # The first request, asking whose the token is, is already refused: nothing more is asked.
    assert line.startswith(
        "tier-check: warning: notify: GitHub: GET /user: rate limited (HTTP 403); "
    )
    assert github.requests() == 1
    assert TOKEN not in done.stdout + done.stderr
