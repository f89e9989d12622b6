"""What a referee change reports and writes when the new release differs in each way it can:
a flag gone, a set gone, a scenario renamed, an entry moved, a revision that now has its own
set, a wire that changed, a set nobody claims, and names that are not names.

Each new release is today's recorded alpha.12 with one thing edited here by hand, so what the
change must say is that one thing.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from support.referee_releases import TODAY, answers, pinned, tree_pinned_to
from tiercheck.errors import UsageError
from tiercheck.pipeline.referee import (
    RefereeUpdateOutcome,
    RefereeUpdateRequest,
    Release,
    referee_update,
)
from tiercheck.referee.bundle import Answers, FirstRequest, read_bundle
from tiercheck.referee.report import render_report

NEW = "0.2.0-alpha.13"
SERVER_HELP = answers(TODAY).helps["server"]


def _fetch(new: Answers) -> Callable[[str, Path, Path, Callable[[str], None]], Release]:
    """Today's pin answers as recorded; `NEW` answers `new`; the pin as npm would write it."""

    def fetch(version: str, runners: Path, scratch: Path, say: Callable[[str], None]) -> Release:
        manifest = (runners / "package.json").read_text(encoding="utf-8")
        lock = (runners / "package-lock.json").read_text(encoding="utf-8")
        if version == TODAY:
            return Release(answers(TODAY), pinned(manifest, lock, TODAY))
        assert version == NEW
        pin = pinned(manifest, lock, TODAY)
        return Release(new, dataclasses.replace(pin, manifest=pin.manifest.replace(TODAY, NEW)))

    return fetch


def _new(**edits: Any) -> Answers:
    return dataclasses.replace(answers(TODAY), version=NEW, **edits)


def _update(
    tmp_path: Path, new: Answers, *, dry_run: bool = False, root: Path | None = None
) -> RefereeUpdateOutcome:
    tree = root or tree_pinned_to(tmp_path / "tree", TODAY)
    request = RefereeUpdateRequest(NEW, tree, tmp_path / "cache", dry_run=dry_run)
    return referee_update(request, fetch=_fetch(new))


def _with_set(name: str, edit: Callable[[str], str]) -> Mapping[str, str]:
    sets = dict(answers(TODAY).sets)
    sets[name] = edit(sets[name])
    return sets


def _text(outcome: RefereeUpdateOutcome) -> str:
    return render_report(
        outcome.changes, changed=outcome.changed, written=outcome.written, dry_run=False
    )


def test_a_flag_tiercheck_passes_gone_blocks_and_writes_nothing(tmp_path: Path) -> None:
    helps = {**answers(TODAY).helps, "server": SERVER_HELP.replace("--requirements", "--reqs")}
    outcome = _update(tmp_path, _new(helps=helps))
    assert outcome.changes.blockers == ("`server` takes no --requirements (tiercheck passes it)",)
    assert not outcome.written
    assert "runners/package.json" in outcome.changed  # what would change, not written
    tree = tmp_path / "tree"
    assert TODAY in (tree / "runners/package.json").read_text()
    text = _text(outcome)
    assert text.index("BLOCKED") < text.index("scenarios")
    assert "  `server`: new --reqs\n  `server`: gone --requirements\n" in text


def test_a_set_a_revision_runs_gone_blocks(tmp_path: Path) -> None:
    sets = {k: v for k, v in answers(TODAY).sets.items() if k != "2026-07-28"}
    outcome = _update(tmp_path, _new(sets=sets))
    assert len(outcome.changes.blockers) == 1
    assert outcome.changes.blockers[0].startswith(
        f"2026-07-28: the harness runs it as the set 2026-07-28, which {NEW} ships no more"
    )
    assert not outcome.written


def test_a_scenario_renamed_keeps_its_checks_and_says_what_changed_in_them(
    tmp_path: Path,
) -> None:
    old = answers(TODAY)
    listings = {**old.listings, "server": old.listings["server"].replace("- ping ", "- pong ")}
    checks = dict(old.checks)
    checks["pong"] = {**checks.pop("ping"), "pong-extra": ("WARNING",)}
    outcome = _update(tmp_path, _new(listings=listings, checks=checks), dry_run=True)
    (renamed,) = outcome.changes.renamed
    assert (renamed.leg, renamed.before, renamed.after) == ("server", "ping", "pong")
    assert renamed.of == renamed.shared + 1
    assert outcome.changes.added == outcome.changes.removed == ()
    (change,) = outcome.changes.checks
    assert (change.scenario, change.added, change.removed) == ("pong", ("pong-extra",), ())


def test_an_entry_that_moves_is_reported_and_written_in_the_trees_form(tmp_path: Path) -> None:
    # alpha.13 (by hand): `ping` no longer scored at 2025-11-25 but pending, with a note.
    def edit(text: str) -> str:
        text = text.replace("  - ping\n", "")
        entry = "  - scenario: ping\n    leg: server\n    reason: pending\n"
        return text + entry + "    note: >-\n      waits on the fixture\n"

    outcome = _update(tmp_path, _new(sets=_with_set("2025-11-25", edit)))
    assert outcome.written
    moves = [(m.revision, m.scenario, m.leg, m.before, m.after) for m in outcome.changes.moves]
    assert moves == [("2025-11-25", "ping", "server", "scored", "pending")]
    written = (tmp_path / "tree/requirements/2025-11-25.yaml").read_text()
    assert "  - ping\n" not in written
    assert written.endswith(
        "  - scenario: ping\n    leg: server\n    reason: pending\n    note: waits on the fixture\n"
    )
    # The entries the tree already had keep its notes and its flow style.
    assert "  - {scenario: auth/dpop, leg: client, reason: extension}\n" in written
    assert "    note: the suite's reference fixture cannot pass it yet; an SDK may\n" in written
    assert f"(@modelcontextprotocol/conformance {NEW})" in written
    assert "    server ping: scored → not scored (pending)\n" in _text(outcome)


def test_a_revision_standing_on_another_set_adopts_its_own_when_shipped(tmp_path: Path) -> None:
    tree = tree_pinned_to(tmp_path / "tree", TODAY)
    revisions = tree / "requirements/revisions.yaml"
    today = revisions.read_text()
    # 2026-07-28 as a revision newer than its harness: it stands on the 2025-11-25 set.
    head, _, tail = today.rpartition('    harness: "0.2.0-alpha.12"\n')
    revisions.write_text(
        head + '    harness: "0.2.0-alpha.10"\n    harness_requirements: "2025-11-25"\n' + tail
    )
    assert 'harness_requirements: "2025-11-25"' in revisions.read_text()
    outcome = _update(tmp_path, _new(), root=tree)
    assert outcome.written
    (first, second) = outcome.changes.revisions
    assert (first.runs_before, first.runs_after, first.adopted) == (
        "2025-11-25",
        "2025-11-25",
        True,
    )
    assert (second.runs_before, second.runs_after, second.adopted) == (
        "2025-11-25",
        "2026-07-28",
        True,
    )
    assert (second.harness_before, second.harness_after) == ("0.2.0-alpha.10", NEW)
    # revisions.yaml: the line is gone, the versions are the new one, nothing else moved.
    assert revisions.read_text() == today.replace(TODAY, NEW)


def test_a_wire_spoken_differently_is_rewritten_and_said_loudly(tmp_path: Path) -> None:
    first = {
        **answers(TODAY).first_requests,
        "2026-07-28": FirstRequest("initialize", "2026-07-28"),
    }
    outcome = _update(tmp_path, _new(first_requests=first))
    change = outcome.changes.revisions[1]
    assert (change.wire_before, change.wire_after) == ("stateless", "stateful")
    assert "    wire CHANGES: stateless → stateful (spoken: stateful (2026-07-28))\n" in _text(
        outcome
    )
    text = (tmp_path / "tree/requirements/revisions.yaml").read_text()
    assert text.count("wire: stateful") == 2


def test_a_set_no_revision_names_is_reported_not_adopted(tmp_path: Path) -> None:
    sets = {**answers(TODAY).sets, "2027-01-01": answers(TODAY).sets["2026-07-28"]}
    outcome = _update(tmp_path, _new(sets=sets))
    assert outcome.changes.unclaimed_sets == ("2027-01-01",)
    assert not (tmp_path / "tree/requirements/2027-01-01.yaml").exists()
    assert "ships the set 2027-01-01, which no revision names: not adopted" in _text(outcome)


def test_what_the_bundle_says_is_text_not_terminal_codes(tmp_path: Path) -> None:
    old = answers(TODAY)
    listings = {**old.listings, "server": old.listings["server"] + "  - evil\x1b[2J [x]\n"}
    checks = dict(old.checks)
    checks["tools-list"] = {**checks["tools-list"], "new\x1b]0;title\x07check": ()}
    outcome = _update(tmp_path, _new(listings=listings, checks=checks), dry_run=True)
    text = _text(outcome)
    assert "\x1b" not in text
    assert "\x07" not in text
    assert "evil" not in text  # not a scenario name: not read as one
    assert "+ new]0;titlecheck" in text


def test_a_set_that_cannot_be_read_whole_blocks(tmp_path: Path) -> None:
    sets = _with_set("2025-11-25", lambda t: t + "authorization:\n  - a\n")
    outcome = _update(tmp_path, _new(sets=sets))
    assert outcome.changes.blockers == (
        f"2025-11-25: the set {NEW} ships cannot be read whole: "
        "keys tiercheck does not read: authorization",
    )


def test_a_write_that_leads_out_of_the_tree_is_refused(tmp_path: Path) -> None:
    tree = tree_pinned_to(tmp_path / "tree", TODAY)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "package.json").write_text((tree / "runners/package.json").read_text())
    (outside / "package-lock.json").write_text((tree / "runners/package-lock.json").read_text())
    for name in ("package.json", "package-lock.json"):
        (tree / "runners" / name).unlink()
    (tree / "runners").rmdir()
    os.symlink(outside, tree / "runners")
    with pytest.raises(UsageError, match="runners leads out of the tree; nothing written"):
        _update(tmp_path, _new(), root=tree)
    assert (
        json.loads((outside / "package.json").read_text())["dependencies"][
            "@modelcontextprotocol/conformance"
        ]
        == TODAY
    )


def test_an_exact_release_is_asked_for(tmp_path: Path) -> None:
    request = RefereeUpdateRequest("latest", tmp_path, tmp_path / "cache")
    with pytest.raises(UsageError, match="give an exact release"):
        referee_update(request, fetch=_fetch(_new()))


def test_a_release_without_sets_or_requirements_flag_is_blocked_for_each(tmp_path: Path) -> None:
    # The shape of 0.2.0-alpha.10: no requirements/ in the package, no --requirements flag.
    helps = {
        k: v.replace("--requirements", "--spec-version") for k, v in answers(TODAY).helps.items()
    }
    outcome = _update(tmp_path, _new(sets={}, first_requests={}, helps=helps))
    blockers = outcome.changes.blockers
    assert "`server` takes no --requirements (tiercheck passes it)" in blockers
    assert "`client` takes no --requirements (tiercheck passes it)" in blockers
    assert sum("ships no more" in b for b in blockers) == 2
    assert read_bundle(_new(sets={})).sets == {}
