"""The plan of calls (tiercheck.notify.plan), case by case from the table in its docstring."""

from __future__ import annotations

import pytest

from tiercheck.notify.plan import (
    PR_MARKER,
    Call,
    ExistingComment,
    ExistingIssue,
    LineNotice,
    line_marker,
    plan_issues,
    plan_pr_comment,
    state_of,
    with_markers,
)

LINE = "go-sdk"
KEY = "scenario:go-sdk@main:2025-11-25/server/tools-list"


def _notice(*, regressed: bool = True, key: str = KEY, body: str = "tonight") -> LineNotice:
    return LineNotice(
        line=LINE,
        regressed=regressed,
        key=key if regressed else "green",
        title="Nightly matrix: go-sdk regressed",
        body=body,
        changed="changed",
        reopened="again",
        green="green again",
    )


def _issue(number: int, state: str, body: str) -> ExistingIssue:
    return ExistingIssue(number, state, body)  # type: ignore[arg-type]


def test_markers_name_the_line_and_the_state() -> None:
    body = with_markers("text\n\n", LINE, KEY)
    assert body == f"text\n\n<!-- tiercheck:line=go-sdk -->\n<!-- tiercheck:state={KEY} -->\n"
    assert state_of(body) == KEY
    assert state_of("written by hand") is None
    # A key cannot end the HTML comment early.
    assert state_of(with_markers("t", LINE, "a-->b>c")) == "a___b_c"


def test_a_regression_without_an_issue_creates_one_and_green_does_nothing() -> None:
    (call,) = plan_issues([_notice()], [])
    assert call == Call(
        "create-issue",
        LINE,
        title="Nightly matrix: go-sdk regressed",
        body=with_markers("tonight", LINE, KEY),
    )
    assert plan_issues([_notice(regressed=False)], []) == []


def test_an_open_issue_is_edited_in_place_and_commented_only_on_a_change_of_state() -> None:
    last_night = _issue(4, "open", with_markers("last night", LINE, KEY))
    assert plan_issues([_notice()], [last_night]) == [
        Call("edit-issue", LINE, 4, body=with_markers("tonight", LINE, KEY))
    ]
    changed = _notice(key=KEY + " tier:go-sdk@main:1")
    assert [c.verb for c in plan_issues([changed], [last_night])] == [
        "edit-issue",
        "comment-issue",
    ]
    # The body first: the comment is posted only once the new state is recorded.
    edit, comment = plan_issues([changed], [last_night])
    assert state_of(edit.body or "") == changed.key
    assert comment.body == "changed"


def test_the_same_night_again_plans_nothing() -> None:
    tonight = _issue(4, "open", with_markers("tonight", LINE, KEY))
    assert plan_issues([_notice()], [tonight]) == []


def test_green_closes_an_open_issue_with_a_comment_and_leaves_a_closed_one() -> None:
    open_issue = _issue(4, "open", with_markers("last night", LINE, KEY))
    edit, comment = plan_issues([_notice(regressed=False, body="green")], [open_issue])
    assert (edit.verb, edit.number, edit.state) == ("edit-issue", 4, "closed")
    assert state_of(edit.body or "") == "green"
    assert (comment.verb, comment.body) == ("comment-issue", "green again")
    closed = _issue(4, "closed", with_markers("green", LINE, "green"))
    assert plan_issues([_notice(regressed=False)], [closed]) == []


def test_a_new_regression_reopens_the_closed_issue_instead_of_opening_another() -> None:
    closed = _issue(4, "closed", with_markers("green", LINE, "green"))
    reopen, comment = plan_issues([_notice()], [closed])
    assert (reopen.verb, reopen.number, reopen.state) == ("edit-issue", 4, "open")
    assert (comment.verb, comment.body) == ("comment-issue", "again")


def test_the_issue_is_found_by_its_marker_only_and_the_open_one_wins() -> None:
    issues = [
        _issue(1, "open", "go-sdk regressed, says a human"),
        _issue(2, "closed", with_markers("old", LINE, "green")),
        _issue(3, "open", with_markers("x", "go-sdk-v2", KEY)),  # another line
        _issue(5, "open", with_markers("last night", LINE, KEY)),
        _issue(6, "closed", with_markers("older", LINE, "green")),
    ]
    (call,) = plan_issues([_notice()], issues)
    assert (call.verb, call.number) == ("edit-issue", 5)
    # go-sdk's marker is not a prefix of go-sdk-v2's.
    assert line_marker(LINE) not in issues[2].body


def test_lines_are_planned_apart_in_order() -> None:
    other = LineNotice(
        line="rust-sdk",
        regressed=True,
        key="unmeasured:rust-sdk@main",
        title="Nightly matrix: rust-sdk regressed",
        body="b",
        changed="c",
        reopened="r",
        green="g",
    )
    calls = plan_issues([_notice(), other], [])
    assert [(c.verb, c.line) for c in calls] == [
        ("create-issue", LINE),
        ("create-issue", "rust-sdk"),
    ]


@pytest.mark.parametrize(
    ("comments", "expected"),
    [
        ([], [Call("create-comment", None, 7, body=f"matrix\n\n{PR_MARKER}\n")]),
        (
            [ExistingComment(11, "a human"), ExistingComment(12, f"old\n\n{PR_MARKER}\n")],
            [Call("edit-comment", None, 7, comment=12, body=f"matrix\n\n{PR_MARKER}\n")],
        ),
        ([ExistingComment(12, f"matrix\n\n{PR_MARKER}\n")], []),
    ],
)
def test_the_pull_request_comment_is_upserted(
    comments: list[ExistingComment], expected: list[Call]
) -> None:
    assert plan_pr_comment(7, "matrix", comments) == expected


def test_a_call_describes_itself_in_one_line_without_the_body() -> None:
    repo = "example/nightly"
    body = with_markers("secret-free body", LINE, KEY)
    lines = [
        Call("create-issue", LINE, title="T", body=body).describe(repo),
        Call("edit-issue", LINE, 4, body=body, state="closed").describe(repo),
        Call("comment-issue", LINE, 4, body="hi").describe(repo),
        Call("edit-comment", None, 7, comment=12, body="x").describe(repo),
    ]
    assert lines == [
        f"POST /repos/{repo}/issues: open 'T', body of {len(body)} characters (go-sdk)",
        f"PATCH /repos/{repo}/issues/4: close it, body of {len(body)} characters (go-sdk)",
        f"POST /repos/{repo}/issues/4/comments: comment of 2 characters (go-sdk)",
        f"PATCH /repos/{repo}/issues/comments/12: update the sticky comment, 1 character",
    ]
