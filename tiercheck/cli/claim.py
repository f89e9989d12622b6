"""`tier-check claim`: the evidence pack for a tier claim, from a new assessment or a saved one.

`tier-check claim --sdk NAME [--tier 1|2]` (or `--sdk-path DIR`) runs the assessment exactly as
`tier-check --sdk NAME` does, with its report folder inside the claim folder, and records the
governance snapshot it judged so every governance row can list its items. `--from
scorecard.json` reuses a finished assessment instead (its recorded snapshot, when it still
exists, and its checkout, or the one `--sdk-path` names). The claim folder holds
`assessment.md`, `remediation.md`, `claim.html`, `claim.json` and the badge.

Exit code: 0 when the claim can be filed (ready, or ready once the judgment rows are reviewed),
1 when a row blocks it, 2 for bad input.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck.cli.assess import assess_parser, measure
from tiercheck.cli.common import PROG, emit, emit_scorecard
from tiercheck.errors import UsageError

if TYPE_CHECKING:
    from tiercheck.claim.changes import Previous
    from tiercheck.claim.model import PreviousAssessment
    from tiercheck.claim.pack import ClaimContext
    from tiercheck.governance.snapshot import Snapshot
    from tiercheck.scorecard.model import Scorecard

__all__ = ["claim", "claim_parser"]


def claim_parser(prog: str) -> argparse.ArgumentParser:
    """The assessment's flags, plus `--tier` and `--from`."""
    parser = assess_parser(prog, epilog="")
    parser.description = (
        "Prepare a tier claim: assess the SDK (or reuse a saved scorecard with --from), then "
        "write assessment.md, remediation.md, claim.html and claim.json with every row of the "
        "official audit for the target tier and the one below. Exit 0 when the claim can be "
        "filed once reviewed, 1 when a row blocks it."
    )
    group = parser.add_argument_group("claim")
    group.add_argument(
        "--tier", type=int, choices=(1, 2, 3), default=1, help="the tier claimed (default 1)"
    )
    group.add_argument(
        "--docs-ref",
        metavar="REF",
        help="read the documentation and examples at this branch, tag or commit of the checkout "
        "instead of the assessed commit (documentation published from another branch)",
    )
    group.add_argument(
        "--language",
        metavar="NAME",
        help="the language in the title, '<NAME> SDK — Tier N Assessment' (default: from the "
        "repository's name)",
    )
    group.add_argument(
        "--previous",
        metavar="FILE",
        help="the previous assessment's claim.json or scorecard.json: say which rows and "
        "scenarios changed since",
    )
    group.add_argument(
        "--previous-issue",
        metavar="URL|#N",
        help="the issue of the previous assessment (#N: an issue of "
        "modelcontextprotocol/modelcontextprotocol)",
    )
    group.add_argument(
        "--previous-tier",
        type=int,
        choices=(1, 2, 3),
        help="the tier the previous assessment gave",
    )
    group.add_argument(
        "--from",
        dest="from_scorecard",
        metavar="SCORECARD",
        help="reuse a finished assessment's scorecard.json instead of assessing again",
    )
    return parser


def _default_dir(args: argparse.Namespace) -> Path:
    from tiercheck.pipeline import now_utc, run_id

    if args.sdk:
        name = str(args.sdk).rsplit("@", 1)[0] if "@" in str(args.sdk)[1:] else str(args.sdk)
    elif args.sdk_path:
        name = Path(args.sdk_path).resolve().name
    else:
        name = "sdk"
    return Path("reports") / name.replace("/", "__") / f"claim-{run_id(now_utc())}"


def _snapshot(args: argparse.Namespace, doc: Scorecard) -> Snapshot | None:
    from tiercheck.governance.snapshot import load_snapshot

    if args.governance_snapshot:
        return load_snapshot(Path(args.governance_snapshot))
    recorded = doc.governance.snapshot
    if recorded and Path(recorded).is_file():
        return load_snapshot(Path(recorded))
    return None


def _checkout(args: argparse.Namespace, doc: Scorecard) -> Path | None:
    if args.sdk_path:
        path = Path(args.sdk_path)
        if not path.is_dir():
            msg = f"--sdk-path {path}: not a directory"
            raise UsageError(msg)
        return path
    if doc.sdk.path and Path(doc.sdk.path).is_dir():
        return Path(doc.sdk.path)
    return None


#: Where tier claims are filed (a bare `#N` names one of its issues).
CLAIMS_REPO = "modelcontextprotocol/modelcontextprotocol"
_ISSUE_URL = re.compile(r"^https://github\.com/[^/\s]+/[^/\s]+/(?:issues|pull)/\d+/?$")


def _issue_url(value: str) -> str:
    text = value.strip()
    number = text.removeprefix("#")
    if number.isdigit():
        return f"https://github.com/{CLAIMS_REPO}/issues/{int(number)}"
    if _ISSUE_URL.match(text):
        return text.rstrip("/")
    msg = (
        f"--previous-issue {value!r}: give an issue URL "
        "(https://github.com/OWNER/REPO/issues/N) or #N"
    )
    raise UsageError(msg)


def _previous(args: argparse.Namespace) -> PreviousAssessment | None:
    from tiercheck.claim.model import PreviousAssessment

    if not (args.previous_issue or args.previous_tier):
        return None
    return PreviousAssessment(
        url=_issue_url(args.previous_issue) if args.previous_issue else None,
        tier=args.previous_tier,
    )


def _load_previous(args: argparse.Namespace) -> Previous | None:
    from tiercheck.claim.changes import from_claim
    from tiercheck.claim.pack import previous_from_scorecard
    from tiercheck.report.writer import load_previous
    from tiercheck.scorecard.model import Scorecard

    if not args.previous:
        return None
    found = load_previous(Path(args.previous))
    if isinstance(found, Scorecard):
        return previous_from_scorecard(found, args.previous, args.tier)
    return from_claim(found, args.previous)


def _context(
    args: argparse.Namespace, doc: Scorecard, checkout: Path | None, previous: Previous | None
) -> ClaimContext:
    from tiercheck.claim.pack import ClaimContext
    from tiercheck.claim.sources import (
        read_baselines,
        read_manifest,
        read_release,
        read_tree_at,
    )
    from tiercheck.cli.common import known_sdks

    entry = known_sdks(args).find(doc.sdk.name)
    prefix = entry.tag_prefix if entry is not None and entry.tag_prefix else None
    files = doc.baseline.files.values() if doc.baseline else ()
    docs_tree = docs_commit = None
    if args.docs_ref:
        if checkout is None:
            msg = (
                "--docs-ref needs the SDK's checkout (--sdk-path, or a scorecard whose one exists)"
            )
            raise UsageError(msg)
        docs_tree, docs_commit = read_tree_at(checkout, args.docs_ref)
    return ClaimContext(
        docs_tree=docs_tree,
        docs_ref=args.docs_ref,
        docs_commit=docs_commit,
        release=read_release(checkout, doc.sdk.commit, prefix) if checkout else None,
        baselines=read_baselines(checkout, files),
        tag_prefix=prefix,
        manifest=read_manifest(checkout) if checkout else None,
        previous=_previous(args),
        previous_doc=previous,
        language=args.language,
    )


def claim(args: argparse.Namespace) -> int:
    """`tier-check claim`: assess (or load), build the claim, write the folder."""
    from tiercheck.claim.pack import build_claim
    from tiercheck.claim.policies import POLICY_PATHS
    from tiercheck.claim.sources import read_tree
    from tiercheck.report.writer import load_scorecard, write_claim

    out_dir = Path(args.out) if args.out else _default_dir(args)
    _previous(args)  # a bad --previous-issue or --previous is refused before anything runs
    previous = _load_previous(args)
    if args.from_scorecard:
        if args.sdk or args.conformance_server_url:
            msg = "--from reuses a finished assessment; drop --sdk/--conformance-server-url"
            raise UsageError(msg)
        source = Path(args.from_scorecard)
        doc = load_scorecard(source)
    else:
        if not (args.sdk or args.sdk_path or args.conformance_server_url):
            msg = "claim needs --sdk NAME, --sdk-path DIR or --from SCORECARD"
            raise UsageError(msg)
        args.out = str(out_dir / "scorecard")
        if not (args.skip_governance or args.governance_snapshot or args.record_governance):
            # The governance rows list the issues and releases behind each verdict: keep them.
            args.record_governance = str(out_dir / "scorecard" / "governance-snapshot.json")
        assessed = measure(args)
        doc = assessed.scorecard
        source = assessed.out_dir / "scorecard.json"
        if args.output:
            emit_scorecard(doc, args.output)
    snapshot = _snapshot(args, doc)
    checkout = _checkout(args, doc)
    tree = read_tree(checkout, POLICY_PATHS) if checkout is not None else None
    pack = build_claim(
        doc,
        target_tier=args.tier,
        snapshot=snapshot,
        tree=tree,
        source=str(source),
        context=_context(args, doc, checkout, previous),
    )
    written = write_claim(pack, out_dir.resolve())
    passing = sum(1 for row in pack.rows if row.verdicts[0] == "pass")
    review = sum(1 for row in pack.rows if row.verdicts[0] == "needs review")
    blocked = [
        row.id for row in pack.rows if row.verdicts[0] not in ("pass", "needs review", "n/a")
    ]
    coverage = pack.coverage
    lines = [
        f"{pack.header.title}: {pack.status} "
        f"({passing} rows pass, {review} need review"
        + (f", blocked by {', '.join(blocked)})" if blocked else ")"),
    ]
    if coverage is not None:
        lines.append(
            f"documentation: {len(coverage.covered)}/{len(coverage.scored)} features named in "
            f"{len(coverage.doc_files)} docs and {len(coverage.example_files)} example files"
        )
    emit("\n".join(lines))
    sys.stderr.write(f"{PROG}: claim: {out_dir} ({', '.join(p.name for p in written)})\n")
    return 1 if pack.status == "blocked" else 0
