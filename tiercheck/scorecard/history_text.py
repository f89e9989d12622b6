"""The scorecard's history section as plain lines, shared by the terminal and Markdown
reports and by `tier-check history` (pure). Text from the SDK or GitHub (scenario names, check
ids, issue titles) is made one plain line here (`plaintext.one_line`), for the terminal; each
other format neutralises it again."""

from __future__ import annotations

from tiercheck.plaintext import one_line
from tiercheck.scorecard.model import (
    HistoryBlock,
    HistoryRelegation,
    HistoryStreak,
    HistoryUnaddressed,
)

__all__ = [
    "NO_STABLE_RUN",
    "UNADDRESSED_RULE",
    "history_lines",
    "no_stable_hint",
    "relegation_line",
    "short_commit",
    "streak_line",
    "unaddressed_line",
]

#: A relegation rule with no run of the SDK's latest stable release to read (`no-stable-run`).
NO_STABLE_RUN = "no stable release assessed yet"

RULE_TEXT = {
    "tier1-to-tier2": "Tier 1 → 2 (any required test failing 4 weeks)",
    "tier2-to-tier3": "Tier 2 → 3 (more than 20% failing 4 weeks)",
}


def short_commit(commit: object) -> str:
    """The first 12 characters of a commit, or a dash."""
    return str(commit)[:12] if commit else "—"


def streak_line(s: HistoryStreak) -> str:
    """`REV LEG SCENARIO [flaky]: failing since TIME (commit C, N failing run(s) over D days)`."""
    flaky = " [flaky]" if s.flaky else ""
    return (
        f"{s.revision} {s.leg} {one_line(s.scenario)}{flaky}: failing since {s.since} "
        f"(commit {short_commit(s.since_commit)}, {s.runs} failing run(s) over {s.days:g} days)"
        + (f", {one_line(s.check, TITLE_CHARS)}" if s.check else "")
    )


def no_stable_hint(sdk: str | None = None) -> str:
    """How the clock starts when no stable release was assessed yet: the command that assesses
    the SDK's latest stable release (`NAME` when the SDK is not known here)."""
    name = one_line(sdk) if sdk else "NAME"
    return f"tier-check --sdk {name}@stable"


def relegation_line(r: HistoryRelegation, *, sdk: str | None = None) -> str:
    """One relegation rule at one revision: clear, at risk, due, no stable release assessed
    yet (with the command that starts the clock, naming `sdk` when given) or unmeasured, with
    the dates.

    A rule over the branch series is an early warning: it says what relegation *would* follow,
    never that it is due."""
    rule = RULE_TEXT.get(r.rule, r.rule)
    if r.series == "branch":
        rule = f"early warning (default branch, not the verdict): {rule}"
    if r.status == "clear":
        return f"{r.revision} {rule}: clear"
    if r.status == "no-stable-run":
        return (
            f"{r.revision} {rule}: {NO_STABLE_RUN} (run {no_stable_hint(sdk)} to start the clock)"
        )
    if r.status == "unmeasured":
        # Runs were tried and not measured (before `no-stable-run` existed, it also stood for
        # no stable run at all: this reads true of both).
        what = (
            "the default branch" if r.series == "branch" else "the latest stable release, @stable,"
        )
        return f"{r.revision} {rule}: unmeasured ({what} was not measured)"
    if r.series == "branch":
        what = "would be due" if r.status == "relegation-due" else "failing"
        end = f"4 weeks on {r.due_on}"
    else:
        what = "RELEGATION DUE" if r.status == "relegation-due" else "at risk"
        end = f"relegation on {r.due_on}"
    return (
        f"{r.revision} {rule}: {what} since {r.since} "
        f"(commit {short_commit(r.since_commit)}), {end}"
        + (f" — {', '.join(one_line(x) for x in r.scenarios)}" if r.scenarios else "")
    )


#: SEP-1730's other relegation ground, worded as the rule is: "may", at reviewers' discretion,
#: and never the four-week conformance clock.
UNADDRESSED_RULE = (
    "issues unaddressed for two months (SEP-1730: an SDK may also be relegated, at the "
    "reviewers' discretion; no four-week clock)"
)
#: How much of an issue's title a line shows.
TITLE_CHARS = 80


def unaddressed_line(u: HistoryUnaddressed) -> str:
    """The ground as the latest run judged it: none, N issues with the oldest issue's number,
    title and age, inconclusive, skipped, or not recorded. The title is GitHub's (untrusted):
    it is made one plain line here, and each format neutralises it again."""
    when = f" as of the run of {u.timestamp}" if u.timestamp else ""
    if u.status == "none":
        return f"{UNADDRESSED_RULE}: none{when}"
    if u.status == "unaddressed":
        title = one_line(u.oldest_title, TITLE_CHARS) if u.oldest_title else ""
        return (
            f"{UNADDRESSED_RULE}: {u.issues} issue(s) unaddressed {u.days}+ days{when}; "
            f"oldest #{u.oldest_number}, {u.oldest_age_days} days old"
            + (f": {title}" if title else "")
        )
    if u.status in ("inconclusive", "skipped"):
        why = f" ({one_line(u.reason, TITLE_CHARS)})" if u.reason else ""
        return f"{UNADDRESSED_RULE}: {u.status}{when}{why}"
    if u.run_id is None:
        return f"{UNADDRESSED_RULE}: not recorded (no run)"
    return f"{UNADDRESSED_RULE}: not recorded (the latest run, of {u.timestamp}, predates it)"


def history_lines(block: HistoryBlock, *, sdk: str | None = None) -> list[str]:
    """The section as lines: re-use, previous run, changes, streaks, relegation (the clock's
    rules not clear, then issues unaddressed for two months, when recorded), flaky. `sdk`
    names the SDK in the command that starts a clock with no stable run yet."""
    lines: list[str] = []
    if block.reused_from:
        when = f" of {block.reused_timestamp}" if block.reused_timestamp else ""
        lines.append(
            f"verdicts re-used from run {block.reused_from}{when} (governance judged fresh)"
        )
    if block.previous:
        p = block.previous
        lines.append(
            f"previous run {p.run_id} at {p.timestamp} (commit {short_commit(p.commit)}, "
            f"Tier {p.tier})"
        )
    else:
        lines.append("first run in the history")
    lines += [
        f"changed: {c.revision} {c.leg} {one_line(c.scenario)}: {c.before} → {c.after}"
        for c in block.changes
    ]
    lines += [streak_line(s) for s in block.streaks]
    lines += [relegation_line(r, sdk=sdk) for r in block.relegation if r.status != "clear"]
    lines += [relegation_line(r, sdk=sdk) for r in block.early_warning if r.status != "clear"]
    if block.unaddressed is not None:
        lines.append(unaddressed_line(block.unaddressed))
    lines += [
        f"flaky: {f.revision} {f.leg} {one_line(f.scenario)}: {f.flips} flip(s) at "
        f"{short_commit(f.commit)}"
        for f in block.flaky
    ]
    return lines
