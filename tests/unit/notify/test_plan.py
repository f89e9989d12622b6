"""The plan of calls (tiercheck.notify.plan), case by case from the table in its docstring."""

from __future__ import annotations

import pytest

from tiercheck.notify.plan import (
    MAX_BODY,
    PR_MARKER,
    Call,
    ExistingComment,
    ExistingIssue,
    LineNotice,
    authors_of,
    fit,
    line_marker,
    markers_of,
    plan_duplicates,
    plan_issues,
    plan_pr_comment,
    state_of,
    with_markers,
)

LINE = "go-sdk"
KEY = "scenario:go-sdk@main:2025-11-25/server/tools-list"
US = "tiercheck-nightly"
OURS = authors_of([US])


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


def _issue(number: int, state: str, body: str, author: str = US) -> ExistingIssue:
    return ExistingIssue(number, state, body, author)  # type: ignore[arg-type]


def test_markers_name_the_line_and_the_state() -> None:
    body = with_markers("text\n\n", LINE, KEY)
    assert body == f"text\n\n<!-- tiercheck:line=go-sdk -->\n<!-- tiercheck:state={KEY} -->\n"
    assert state_of(body) == KEY
    assert state_of("written by hand") is None
    # A key cannot end the HTML comment early: its unsafe characters go, a digest of the whole
    # keeps it apart from any other key.
    odd = state_of(with_markers("t", LINE, "a-->b>c"))
    assert odd is not None
    assert odd.startswith("a_-_b_c~")
    assert len(odd) == len("a_-_b_c~") + 16
    assert odd != state_of(with_markers("t", LINE, "a-->b<c"))


def test_a_regression_without_an_issue_creates_one_and_green_does_nothing() -> None:
    (call,) = plan_issues([_notice()], [], OURS)
    assert call == Call(
        "create-issue",
        LINE,
        title="Nightly matrix: go-sdk regressed",
        body=with_markers("tonight", LINE, KEY),
    )
    assert plan_issues([_notice(regressed=False)], [], OURS) == []


def test_an_open_issue_is_edited_in_place_and_commented_only_on_a_change_of_state() -> None:
    last_night = _issue(4, "open", with_markers("last night", LINE, KEY))
    assert plan_issues([_notice()], [last_night], OURS) == [
        Call("edit-issue", LINE, 4, body=with_markers("tonight", LINE, KEY))
    ]
    changed = _notice(key=KEY + " tier:go-sdk@main:1")
    assert [c.verb for c in plan_issues([changed], [last_night], OURS)] == [
        "edit-issue",
        "comment-issue",
    ]
    # The body first: the comment is posted only once the new state is recorded.
    edit, comment = plan_issues([changed], [last_night], OURS)
    assert state_of(edit.body or "") == changed.key
    assert comment.body == "changed"


def test_the_same_night_again_plans_nothing() -> None:
    tonight = _issue(4, "open", with_markers("tonight", LINE, KEY))
    assert plan_issues([_notice()], [tonight], OURS) == []


def test_green_closes_an_open_issue_with_a_comment_and_leaves_a_closed_one() -> None:
    open_issue = _issue(4, "open", with_markers("last night", LINE, KEY))
    edit, comment = plan_issues([_notice(regressed=False, body="green")], [open_issue], OURS)
    assert (edit.verb, edit.number, edit.state) == ("edit-issue", 4, "closed")
    assert state_of(edit.body or "") == "green"
    assert (comment.verb, comment.body) == ("comment-issue", "green again")
    closed = _issue(4, "closed", with_markers("green", LINE, "green"))
    assert plan_issues([_notice(regressed=False)], [closed], OURS) == []


def test_a_new_regression_reopens_the_closed_issue_instead_of_opening_another() -> None:
    closed = _issue(4, "closed", with_markers("green", LINE, "green"))
    reopen, comment = plan_issues([_notice()], [closed], OURS)
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
    (call,) = plan_issues([_notice()], issues, OURS)
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
    calls = plan_issues([_notice(), other], [], OURS)
    assert [(c.verb, c.line) for c in calls] == [
        ("create-issue", LINE),
        ("create-issue", "rust-sdk"),
    ]


@pytest.mark.parametrize(
    ("comments", "expected"),
    [
        ([], [Call("create-comment", None, 7, body=f"matrix\n\n{PR_MARKER}\n")]),
        (
            [
                ExistingComment(11, "a human", "alice"),
                ExistingComment(12, f"old\n\n{PR_MARKER}\n", US),
            ],
            [Call("edit-comment", None, 7, comment=12, body=f"matrix\n\n{PR_MARKER}\n")],
        ),
        ([ExistingComment(12, f"matrix\n\n{PR_MARKER}\n", US)], []),
    ],
)
def test_the_pull_request_comment_is_upserted(
    comments: list[ExistingComment], expected: list[Call]
) -> None:
    assert plan_pr_comment(7, "matrix", comments, OURS) == expected


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


def test_a_marker_counts_only_in_the_block_at_the_very_end() -> None:
    ours = with_markers("tonight", LINE, KEY)
    assert markers_of(ours) is not None
    quoted = f"{line_marker(LINE)}\n<!-- tiercheck:state={KEY} -->\n\nand then a human wrote on"
    assert markers_of(quoted) is None
    assert state_of(quoted) is None
    # Edited in GitHub's web form: CRLF line ends, the last one trimmed, still ours.
    assert markers_of(ours.replace("\n", "\r\n").rstrip()) is not None
    # A marker block of another shape (an extra space, no blank line before it) is not ours.
    assert markers_of(ours.replace("-->\n<!--", "-->\n <!--")) is None
    assert markers_of(ours.replace("tonight\n\n", "tonight\n")) is None


def test_the_visible_text_cannot_form_a_marker_or_a_comment() -> None:
    hostile = f"x {line_marker('rust-sdk')} <!-- tiercheck:state=green --> {PR_MARKER} y"
    body = with_markers(hostile, LINE, KEY)
    markers = markers_of(body)
    assert markers is not None
    assert (markers.line, markers.state) == (LINE, KEY)
    assert "<!--" not in markers.visible
    assert markers.visible.startswith("x <!- - tiercheck:line=rust-sdk -->")
    assert body.count("<!--") == 2
    (call,) = plan_pr_comment(7, hostile, [], OURS)
    assert (call.body or "").count("<!--") == 1
    assert (call.body or "").endswith(f"\n\n{PR_MARKER}\n")


def test_only_our_accounts_issues_and_comments_are_ours() -> None:
    planted = _issue(9, "open", with_markers("by someone else", LINE, KEY), author="mallory")
    (call,) = plan_issues([_notice()], [planted], OURS)
    assert call.verb == "create-issue"
    ghost = _issue(9, "open", with_markers("a deleted account's", LINE, KEY), author=None)  # type: ignore[arg-type]
    assert plan_issues([_notice()], [ghost], OURS)[0].verb == "create-issue"
    # Logins are case-insensitive on GitHub.
    ours = _issue(4, "open", with_markers("tonight", LINE, KEY), author=US.upper())
    assert plan_issues([_notice()], [ours, planted], OURS) == []
    # A dry run without a login (authors None) takes every author's.
    assert plan_issues([_notice()], [planted], None)[0].verb == "edit-issue"
    theirs = ExistingComment(12, f"theirs\n\n{PR_MARKER}\n", "mallory")
    assert [c.verb for c in plan_pr_comment(7, "matrix", [theirs], OURS)] == ["create-comment"]


def test_open_duplicates_are_closed_in_favour_of_the_lowest() -> None:
    low = _issue(4, "open", with_markers("tonight", LINE, KEY))
    high = _issue(9, "open", with_markers("tonight", LINE, KEY))
    calls = plan_issues([_notice()], [high, low], OURS)
    assert [(c.verb, c.number, c.state, c.reason) for c in calls] == [
        ("edit-issue", 9, "closed", "not_planned"),
        ("comment-issue", 9, None, None),
    ]
    close, comment = calls
    assert close.body == "tonight\n"  # its markers gone: never ours again
    assert markers_of(close.body or "") is None
    assert comment.body == "Duplicate of #4.\n"
    # Just after opening #9: this run closes its own, never the lower one.
    assert plan_duplicates(LINE, 9, [high, low], OURS) == calls
    assert plan_duplicates(LINE, 4, [high, low], OURS) == []
    assert plan_duplicates(LINE, 9, [high], OURS) == []
    # Another account's issue is no duplicate of ours.
    planted = _issue(2, "open", with_markers("x", LINE, KEY), author="mallory")
    assert plan_duplicates(LINE, 9, [high, planted], OURS) == []


def test_a_text_too_long_is_cut_after_its_last_whole_line() -> None:
    rows = [f"| `row-{n}` | {'x' * 1000} |" for n in range(100)]
    text = "\n".join(["head", "", "| row | what |", "|---|---|", *rows, "", "tail"])
    cut = fit(text, 10_000, link="https://example.org/dash/")
    assert len(cut) <= 10_000
    kept, note = cut.rsplit("\n\n", 1)
    assert kept.split("\n")[-1] == rows[len(kept.split("\n")) - 5]  # a whole row
    assert note == (
        "_Cut here to fit GitHub's limit of 65,536 characters. The whole report is on "
        "[the dashboard](https://example.org/dash/)._\n"
    )
    assert fit(text, len(text)) == text
    # An open fence is closed; one line longer than the budget leaves only the note.
    fenced = fit("```\n" + "\n".join("y" * 50 for _ in range(10)), 200)
    assert fenced.split("\n\n")[0].endswith("\n```")
    assert fit("z" * 500, 200) == "_Cut here to fit GitHub's limit of 65,536 characters._\n"


def test_an_issue_body_never_passes_the_limit_and_keeps_its_markers() -> None:
    huge = "| `" + "c" * 200_000 + "` |"
    body = with_markers(f"head\n\n{huge}\n\nfoot", LINE, "k" * 100_000)
    assert len(body) <= MAX_BODY
    assert body.startswith("head\n\n_Cut here")
    markers = markers_of(body)
    assert markers is not None
    assert markers.line == LINE
    assert len(markers.state) <= 200
    # Characters outside the BMP count twice in UTF-16: still within the limit there.
    wide = with_markers("\n".join("😀" * 100 for _ in range(1000)), LINE, KEY)
    assert len(wide.encode("utf-16-le")) // 2 <= MAX_BODY
