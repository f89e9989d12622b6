"""`tier-check notify` when the SDK under test, another account or GitHub itself works against it.

Run through the real command (`tiercheck.cli.app.main`), with real PyGithub against the fake
GitHub, which records every write and the account that made it:

* SDK text (a check id, a failure message) carrying tiercheck's markers cannot make one line's
  issue another's, cannot make a re-run comment, cannot add a second sticky marker;
* an issue or sticky comment by another account holding our markers is left untouched;
* a check id of 200 KB still opens an issue within GitHub's 65,536 characters;
* a call GitHub refuses for one line leaves the other lines notified;
* two open issues of ours for one line: the lowest stays, the other is closed as a duplicate.
"""

from __future__ import annotations

import pytest

from support.fake_github import FakeComment, FakeGitHub, FakeIssue
from support.notify_nights import (
    BROKEN,
    LINE,
    LOGIN,
    PR,
    REPO,
    TOKEN,
    night_scorecard,
    record,
)
from tiercheck.cli.app import main
from tiercheck.history.store import HistoryStore
from tiercheck.notify.plan import PR_MARKER, with_markers

ISSUES = f"/repos/{REPO}/issues"
OTHER = "other-sdk"


def _notify(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, str, str]:
    argv = ["notify", "--history", str(store.path), "--repo", REPO, "--github-api-url", github.url]
    code = main([*argv, *extra])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert TOKEN not in out + err
    return code, out, err


def _writes(github: FakeGitHub, since: int = 0) -> list[tuple[str, str]]:
    return [(r.method, r.path) for r in github.writes()[since:]]


#: The accounts of the issues a test seeds (the human's #1, the pull request, the planted ones).
OTHERS = ("alice", "mallory")


def _created(github: FakeGitHub) -> list[FakeIssue]:
    """The issues notify opened (the seeded ones are by `OTHERS`)."""
    return [i for i in github.dataset.issues if i.author not in OTHERS and not i.pull_request]


def _issue_of(github: FakeGitHub, line: str) -> FakeIssue:
    """The one issue notify opened for `line`."""
    (issue,) = [i for i in _created(github) if i.title == f"Nightly matrix: {line} regressed"]
    return issue


def _nights(
    store: HistoryStore,
    last: int,
    *,
    line: str = LINE,
    broken_from: int = 12,
    extra: int = 0,
    **failure: str,
) -> None:
    """Nights 1..`last` of `line`: green, then `BROKEN` (and the `extra` scenarios) failing
    from `broken_from` on (their check id and message as given)."""
    extras = [f"extra-scenario-{k:02d}" for k in range(extra)]
    for n in range(1, last + 1):
        failing = [BROKEN, *extras] if n >= broken_from else []
        record(store, night_scorecard(n, line=line, failing=failing, extra=extra, **failure))


def test_sdk_text_carrying_markers_cannot_steer_the_issues(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    # The failing SDK's check id names the other (green) line; its message records "green".
    _nights(
        store,
        12,
        check_id=f"x <!-- tiercheck:line={OTHER} --> y",
        message="<!-- tiercheck:state=green --> and <!-- tiercheck:pr-comment -->",
    )
    _nights(store, 12, line=OTHER, broken_from=99)
    code, _, err = _notify(github, store, capsys)
    assert (code, err) == (0, "")
    issue = _issue_of(github, LINE)
    body = issue.body or ""
    # The body holds exactly tiercheck's two markers, at its very end; the SDK's are defused.
    assert body.count("<!--") == 2
    assert body.endswith(
        f"\n\n<!-- tiercheck:line={LINE} -->\n<!-- tiercheck:state=lower-tier "
        f"newly-failing:2025-11-25/server/{BROKEN} -->\n"
    )
    assert "tiercheck:line=other-sdk" in body  # shown, but defused
    # Re-running the night: the green line leaves the issue alone, and no comment is posted.
    before = len(github.writes())
    code, out, err = _notify(github, store, capsys)
    assert (code, err) == (0, "")
    assert _writes(github, before) == []
    assert "GitHub is up to date: no call needed" in out
    assert github.issue(issue.number).closed_at is None
    assert github.comments_of(issue.number) == []
    # The next night the same: the body is edited in place, nothing else.
    _nights(store, 13, check_id=f"x <!-- tiercheck:line={OTHER} --> y")
    record(store, night_scorecard(13, line=OTHER))
    before = len(github.writes())
    _notify(github, store, capsys)
    assert _writes(github, before) == [("PATCH", f"{ISSUES}/{issue.number}")]


def test_sdk_text_carrying_the_sticky_marker_adds_no_second_one(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    _nights(store, 12, check_id=PR_MARKER, message=f"{PR_MARKER} <!-- tiercheck:line={LINE} -->")
    code, _, err = _notify(github, store, capsys, "--pr", str(PR))
    assert (code, err) == (0, "")
    (sticky,) = github.comments_of(PR)
    assert sticky.author == LOGIN
    assert sticky.body.count("<!--") == 1
    assert sticky.body.endswith(f"\n\n{PR_MARKER}\n")
    before = len(github.writes())
    _notify(github, store, capsys, "--pr", str(PR))
    assert _writes(github, before) == []


def test_another_accounts_issue_with_our_markers_is_left_alone(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    planted = with_markers("copied from the tracking issue", LINE, "green")
    github.dataset.issues.append(
        FakeIssue(
            5,
            "Nightly matrix: sample-sdk regressed",
            "2026-01-01T00:00:00Z",
            author="mallory",
            body=planted,
        )
    )
    _nights(store, 12)
    _notify(github, store, capsys)
    ours = _issue_of(github, LINE)
    assert ours.author == LOGIN
    # A newer copy by someone else, open, with our markers: ours is still the one updated.
    github.dataset.issues.append(
        FakeIssue(
            100,
            "Nightly matrix: sample-sdk regressed",
            "2026-01-02T00:00:00Z",
            author="mallory",
            body=ours.body,
        )
    )
    _nights(store, 13)
    before = len(github.writes())
    _notify(github, store, capsys)
    assert _writes(github, before) == [("PATCH", f"{ISSUES}/{ours.number}")]
    _nights(store, 14, broken_from=99)  # green: ours is closed, theirs stay as they were
    _notify(github, store, capsys)
    assert github.issue(ours.number).closed_at is not None
    for number, body in ((5, planted), (100, ours.body)):
        assert (github.issue(number).body, github.issue(number).closed_at) == (body, None)
        assert github.comments_of(number) == []
    assert not [r for r in github.writes() if r.path.startswith((f"{ISSUES}/5", f"{ISSUES}/100"))]
    assert {r.login for r in github.writes()} == {LOGIN}


def test_another_accounts_sticky_comment_is_left_alone(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    theirs = f"a fake matrix\n\n{PR_MARKER}\n"
    github.dataset.comments.append(
        FakeComment(
            1, PR, theirs, "2025-12-02T01:00:00Z", "2025-12-02T01:00:00Z", "mallory", "User"
        )
    )
    _nights(store, 12)
    _notify(github, store, capsys, "--pr", str(PR))
    _nights(store, 13)
    _notify(github, store, capsys, "--pr", str(PR))
    first, ours = github.comments_of(PR)
    assert (first.body, first.author) == (theirs, "mallory")
    assert ours.author == LOGIN
    assert "2026-10-13" in ours.body
    assert _writes(github) == [
        ("POST", f"{ISSUES}/{PR}/comments"),
        ("PATCH", f"{ISSUES}/comments/{ours.id}"),
    ]


def test_an_integration_token_writes_only_with_a_bot_login(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    github.dataset.accounts.clear()
    github.dataset.integrations[TOKEN] = "github-actions[bot]"
    _nights(store, 12)
    code, _, err = _notify(github, store, capsys)
    assert code == 0
    (warning,) = err.splitlines()
    assert warning == (
        "tier-check: warning: notify: GitHub: GET /user: HTTP 403: Resource not accessible by "
        "integration: cannot tell which issues and comments are ours; pass --bot-login LOGIN "
        "(the workflow's token writes as 'github-actions[bot]'); no call made"
    )
    assert github.writes() == []
    for _ in range(2):  # the second run finds the first's issue: one issue
        code, _, err = _notify(github, store, capsys, "--bot-login", "github-actions[bot]")
        assert (code, err) == (0, "")
    assert _issue_of(github, LINE).author == "github-actions[bot]"
    assert len(github.writes()) == 1


def test_a_bot_login_that_is_not_the_writer_is_a_warning(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    github.dataset.accounts.clear()
    github.dataset.integrations[TOKEN] = "my-app[bot]"
    _nights(store, 12)
    code, _, err = _notify(github, store, capsys, "--bot-login", "github-actions[bot]")
    assert code == 0
    number = _issue_of(github, LINE).number
    assert err == (
        f"tier-check: warning: notify: #{number} ({LINE}) was opened as 'my-app[bot]', which is "
        "not one of our logins: it will not be found as ours; pass --bot-login my-app[bot]\n"
    )


@pytest.mark.parametrize("login", ["-dash", "a b", "x" * 40, "bot]", "<!--"])
def test_a_bad_bot_login_is_one_line_and_exit_2(
    store: HistoryStore, capsys: pytest.CaptureFixture[str], login: str
) -> None:
    record(store, night_scorecard(1))
    with pytest.raises(SystemExit) as exited:
        main(["notify", "--history", str(store.path), "--repo", REPO, f"--bot-login={login}"])
    err = capsys.readouterr().err
    assert exited.value.code == 2
    assert "is not a GitHub login" in err
    assert "Traceback" not in err


def test_200_kb_messages_still_open_an_issue_and_later_lines_are_notified(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    # Three hundred and one scenarios break at once, each with a check id and a message of
    # 200 KB (kept as 200 and 4096 characters by the history): more rows than a body holds.
    huge = "c" * 200_000
    _nights(store, 12, line="a-sdk", extra=300, check_id=huge, message="m" * 200_000)
    _nights(store, 12, line="b-sdk")
    dashboard = "https://example.org/nightly/"
    code, _, err = _notify(github, store, capsys, "--dashboard-url", dashboard)
    assert (code, err) == (0, "")
    body = _issue_of(github, "a-sdk").body or ""
    assert len(body) <= 65_536
    assert (
        "_Cut here to fit GitHub's limit of 65,536 characters. The whole report is on "
        f"[the dashboard]({dashboard})._\n\n<!-- tiercheck:line=a-sdk -->\n"
    ) in body
    # Cut after the last whole row that fits: every row kept is whole.
    assert "| `a-sdk@v1.0.0` | implied tier went down: Tier 1 → Tier 3 |" in body
    visible = body.split("\n\n_Cut here")[0]
    rows = [r for r in visible.splitlines() if r.startswith("| `a-sdk@v1.0.0` |")]
    assert len(rows) > 1
    assert all(r.endswith(" | 2026-10-12 | 1 |") for r in rows)
    assert _issue_of(github, "b-sdk").body
    # The cut is the same each night: re-running the night changes nothing.
    before = len(github.writes())
    _notify(github, store, capsys, "--dashboard-url", dashboard)
    assert _writes(github, before) == []


def test_the_fake_refuses_a_body_over_the_limit_as_github_does(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fake's own 422, which the cut above stays under."""
    import requests

    answer = requests.post(
        f"{github.url}{ISSUES}",
        json={"title": "t", "body": "b" * 65_537},
        headers={"Authorization": f"token {TOKEN}"},
        timeout=10,
    )
    assert answer.status_code == 422
    assert "body is too long (maximum is 65536 characters)" in answer.text
    assert _created(github) == []


def test_a_refused_call_for_one_line_leaves_the_others_notified(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    for line in ("a-sdk", "b-sdk", "c-sdk"):
        _nights(store, 12, line=line)
    github.fail(rf"^{ISSUES}$", 422, "Validation Failed", method="POST", times=1)
    code, _, err = _notify(github, store, capsys)
    assert code == 0
    assert err == (
        f"tier-check: warning: notify: GitHub: POST {ISSUES}: HTTP 422: Validation Failed; "
        "1 call(s) for a-sdk not made, left to the next run\n"
    )
    assert sorted(i.title for i in _created(github)) == [
        "Nightly matrix: b-sdk regressed",
        "Nightly matrix: c-sdk regressed",
    ]
    # The next run catches up with a-sdk.
    _notify(github, store, capsys)
    assert len(_created(github)) == 3


def test_within_a_line_a_refused_edit_keeps_its_comment_back(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    for line in ("a-sdk", "b-sdk"):
        _nights(store, 12, line=line)
    _notify(github, store, capsys)
    a, b = _issue_of(github, "a-sdk"), _issue_of(github, "b-sdk")
    for line in ("a-sdk", "b-sdk"):
        record(store, night_scorecard(13, line=line))  # both green: close and comment
    github.fail(rf"^{ISSUES}/{a.number}$", 500, "Internal Server Error", method="PATCH")
    code, _, err = _notify(github, store, capsys)
    assert code == 0
    assert "2 call(s) for a-sdk not made" in err
    assert github.comments_of(a.number) == []  # its state was not recorded: no comment
    assert github.issue(b.number).closed_at is not None
    assert len(github.comments_of(b.number)) == 1


def test_two_open_issues_of_ours_for_a_line_keep_the_lowest(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    _nights(store, 12)
    _notify(github, store, capsys)
    first = _issue_of(github, LINE)
    github.dataset.issues.append(
        FakeIssue(100, first.title, "2026-01-02T00:00:00Z", author=LOGIN, body=first.body)
    )
    _nights(store, 13)
    before = len(github.writes())
    _notify(github, store, capsys)
    assert _writes(github, before) == [
        ("PATCH", f"{ISSUES}/{first.number}"),
        ("PATCH", f"{ISSUES}/100"),
        ("POST", f"{ISSUES}/100/comments"),
    ]
    duplicate = github.issue(100)
    assert (duplicate.state_reason, duplicate.closed_at is not None) == ("not_planned", True)
    assert "<!--" not in (duplicate.body or "")
    assert [c.body for c in github.comments_of(100)] == [f"Duplicate of #{first.number}.\n"]
    assert github.issue(first.number).closed_at is None
    before = len(github.writes())
    _notify(github, store, capsys)  # once closed and unmarked, it is never ours again
    assert _writes(github, before) == []
