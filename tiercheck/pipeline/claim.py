"""`tier-check claim`: from a request to the claim folder, and the lines that sum it up.

request → the claim folder (`--out`, else `reports/<sdk>/claim-<run-id>/`) → the previous
assessment (`--previous`, `--previous-issue`, `--previous-tier`), refused before anything runs
when bad → the scorecard: a new assessment (`pipeline.run`, its reports in `scorecard/` of the
claim folder, its governance snapshot recorded there) or the saved one `--from` names → the
governance snapshot, the checkout and what is read from it (policies, documentation, release,
baselines, manifest) → the claim (`claim.pack.build_claim`) → its files (`document_files`).

The registry entry that configured the assessment (`_entry_used`): the one the run was given,
or, for a saved scorecard, the one its recorded configuration names (the file each value came
from), read again through the registry's loader and held to the values the run recorded. When it
is not the bundled registry's, the claim folder keeps a copy, re-serialised from the parsed entry
with every secret-looking value withheld (`_registry_copy`), which the reproduce command names.

Exit code: 0 when the claim can be filed (ready, or ready once the judgment rows are reviewed),
1 when a row blocks it; bad input is a `UsageError` (2).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

import yaml

from tiercheck.claim.changes import Previous, from_claim
from tiercheck.claim.model import PreviousAssessment
from tiercheck.claim.pack import Claim, ClaimContext, build_claim, previous_from_scorecard
from tiercheck.claim.policies import POLICY_PATHS
from tiercheck.claim.reproduce import REGISTRY_COPY, WITHHELD, Rerun
from tiercheck.claim.sources import (
    read_baselines,
    read_manifest,
    read_release,
    read_root_names,
    read_tree,
    read_tree_at,
)
from tiercheck.config.registry import Registry, SdkEntry, default_registry_path, load_registry
from tiercheck.config.resolve import ConfigFlags, resolve
from tiercheck.document_files import load_previous, load_scorecard, write_claim
from tiercheck.errors import EXIT_FAILED, EXIT_NOTHING_MEASURED, EXIT_OK, UsageError
from tiercheck.governance.snapshot import Snapshot, load_snapshot
from tiercheck.pipeline.assess.base import ProgressSink
from tiercheck.pipeline.assess.clock import now_utc, run_id
from tiercheck.pipeline.assess.request import AssessRequest, TargetRequest
from tiercheck.pipeline.run import run
from tiercheck.process import is_secret_name, is_secret_value
from tiercheck.scorecard.model import ConfigEntry, Scorecard
from tiercheck.scorecard.remediation import nothing_measured

__all__ = [
    "CLAIMS_REPO",
    "ClaimOutcome",
    "ClaimRequest",
    "claim",
    "claim_dir",
    "issue_url",
    "summary",
]

#: Where tier claims are filed (a bare `#N` names one of its issues).
CLAIMS_REPO = "modelcontextprotocol/modelcontextprotocol"
_ISSUE_URL = re.compile(r"^https://github\.com/[^/\s]+/[^/\s]+/(?:issues|pull)/\d+/?$")

#: Opens the progress display of a new assessment; it is closed as soon as the legs are done.
OpenProgress = Callable[[], AbstractContextManager[ProgressSink]]


@dataclass(frozen=True)
class ClaimRequest:
    """One `tier-check claim` as the command line asked for it, every flag parsed."""

    #: The SDK registry: the release tag prefix of the SDK's line.
    registry: Registry
    #: The SDK named: `--sdk`, `--sdk-path` (also the checkout read), a running server.
    target: TargetRequest
    #: The assessment to run; None with `from_scorecard`. Its report folder and governance
    #: record are set here, inside the claim folder.
    assess: AssessRequest | None = None
    #: `--from`: a finished assessment's scorecard.json, reused instead of assessing.
    from_scorecard: Path | None = None
    #: `--out`; None: `reports/<sdk>/claim-<run-id>/`.
    out: Path | None = None
    tier: int = 1
    #: `--governance-snapshot`: the snapshot the governance rows list (else the recorded one).
    governance_snapshot: Path | None = None
    #: `--docs-ref`: read the documentation and examples at this ref of the checkout.
    docs_ref: str | None = None
    language: str | None = None
    #: `--tag-prefix` (or TIERCHECK_TAG_PREFIX): the release tag prefix, given again by the
    #: reproduce command.
    tag_prefix: str | None = None
    #: `--previous`: the previous claim.json or scorecard.json, as given (the claim names it so).
    previous: str | None = None
    #: `--previous-issue`: an issue URL or `#N`.
    previous_issue: str | None = None
    previous_tier: int | None = None


@dataclass(frozen=True)
class ClaimOutcome:
    """The claim written, where, what the command prints and its exit code."""

    claim: Claim
    #: The claim folder as chosen (the files are written to its resolved path).
    out_dir: Path
    files: tuple[Path, ...]
    #: The lines for stdout: the status and its counts, the documentation coverage.
    summary: str
    exit_code: int
    #: Why the assessment measured nothing and what to do (empty when it measured something).
    nothing_measured: tuple[str, ...] = ()


def _tag_prefix(doc: Scorecard, entry: SdkEntry | None) -> str:
    """The release tags' prefix the assessment resolved (its recorded `tag_prefix`: a flag, a
    variable or the entry's), else the registry entry's, for a scorecard from before it."""
    for revision in doc.revisions.values():
        recorded = revision.config.get("tag_prefix")
        if recorded is not None:
            return str(recorded.value or "")
    return entry.tag_prefix if entry is not None else ""


def _claim_exit(doc: Scorecard, status: str) -> int:
    """3 when the assessment measured nothing (no claim rests on it), 1 when the claim is
    blocked, else 0."""
    if doc.exit_code == EXIT_NOTHING_MEASURED:
        return EXIT_NOTHING_MEASURED
    return EXIT_FAILED if status == "blocked" else EXIT_OK


def _ignore(doc: Scorecard) -> None:
    """No-op default for `on_scorecard`."""


def claim_dir(target: TargetRequest) -> Path:
    """`reports/<sdk>/claim-<run-id>`: the claim folder when `--out` is not given."""
    if target.sdk:
        spec = target.sdk
        name = spec.rsplit("@", 1)[0] if "@" in spec[1:] else spec
    elif target.sdk_path:
        name = target.sdk_path.resolve().name
    else:
        name = "sdk"
    return Path("reports") / name.replace("/", "__") / f"claim-{run_id(now_utc())}"


def issue_url(value: str) -> str:
    """`--previous-issue` as an issue URL: `#N` (or `N`) names an issue of `CLAIMS_REPO`."""
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


def _previous_assessment(request: ClaimRequest) -> PreviousAssessment | None:
    if not (request.previous_issue or request.previous_tier):
        return None
    return PreviousAssessment(
        url=issue_url(request.previous_issue) if request.previous_issue else None,
        tier=request.previous_tier,
    )


def _load_previous(request: ClaimRequest) -> Previous | None:
    if not request.previous:
        return None
    found = load_previous(Path(request.previous))
    if isinstance(found, Scorecard):
        return previous_from_scorecard(found, request.previous, request.tier)
    return from_claim(found, request.previous)


def _assessment(request: ClaimRequest, out_dir: Path) -> AssessRequest:
    """The assessment to run, its reports in `scorecard/` of the claim folder."""
    wanted = request.target
    if request.assess is None or not (wanted.sdk or wanted.sdk_path or wanted.server_url):
        msg = "claim needs --sdk NAME, --sdk-path DIR or --from SCORECARD"
        raise UsageError(msg)
    governance = request.assess.governance
    if not (governance.skip or governance.snapshot or governance.record):
        # The governance rows list the issues and releases behind each verdict: keep them.
        record = out_dir / "scorecard" / "governance-snapshot.json"
        governance = dataclasses.replace(governance, record=record)
    return dataclasses.replace(request.assess, out=out_dir / "scorecard", governance=governance)


def _snapshot(request: ClaimRequest, doc: Scorecard) -> Snapshot | None:
    if request.governance_snapshot:
        return load_snapshot(request.governance_snapshot)
    recorded = doc.governance.snapshot
    if recorded and Path(recorded).is_file():
        return load_snapshot(Path(recorded))
    return None


def _checkout(request: ClaimRequest, doc: Scorecard) -> Path | None:
    path = request.target.sdk_path
    if path:
        if not path.is_dir():
            msg = f"--sdk-path {path}: not a directory"
            raise UsageError(msg)
        return path
    if doc.sdk.path and Path(doc.sdk.path).is_dir():
        return Path(doc.sdk.path)
    return None


def _context(
    request: ClaimRequest, doc: Scorecard, checkout: Path | None, previous: Previous | None
) -> ClaimContext:
    entry = _entry_used(request, doc)
    prefix = request.tag_prefix or _tag_prefix(doc, entry) or None
    files = dict.fromkeys(doc.baseline.by_leg().values()) if doc.baseline else ()
    copy, withheld = _registry_copy(entry)
    docs_tree = docs_commit = None
    if request.docs_ref:
        if checkout is None:
            msg = (
                "--docs-ref needs the SDK's checkout (--sdk-path, or a scorecard whose one exists)"
            )
            raise UsageError(msg)
        docs_tree, docs_commit = read_tree_at(checkout, request.docs_ref)
    return ClaimContext(
        docs_tree=docs_tree,
        docs_ref=request.docs_ref,
        docs_commit=docs_commit,
        release=read_release(checkout, doc.sdk.commit, prefix) if checkout else None,
        baselines=read_baselines(checkout, files),
        tag_prefix=prefix,
        manifest=read_manifest(checkout) if checkout else None,
        previous=_previous_assessment(request),
        previous_doc=previous,
        language=request.language or (entry.language if entry is not None else None),
        root_files=read_root_names(checkout) if checkout else (),
        rerun=Rerun(
            registry=REGISTRY_COPY if copy is not None else None,
            registered=entry is not None,
            tag_prefix=request.tag_prefix,
            withheld=withheld,
            secret_env=_secret_env(doc),
        ),
        registry_copy=copy,
    )


def _bundled(source: str) -> bool:
    """Whether a registry source names the bundled registry (a bare `known_sdks.yaml` does)."""
    bundled = default_registry_path()
    return source == bundled.name or Path(source).resolve() == bundled.resolve()


def _registry_named(doc: Scorecard) -> str | None:
    """The registry file the scorecard's configuration names for its SDK: each value the entry
    gave records `FILE: NAME` (or `FILE: NAME.spec_overrides.REV`); None when none did."""
    name = doc.sdk.name
    for revision in doc.revisions.values():
        for sourced in revision.config.values():
            source = sourced.source
            if source.startswith("default (replaced by ") and source.endswith(")"):
                source = source.removeprefix("default (replaced by ").removesuffix(")")
            if source.endswith(f": {name}"):
                return source.removesuffix(f": {name}")
            head, found, _ = source.partition(f": {name}.spec_overrides.")
            if found:
                return head
    return None


def _from_outside(sourced: ConfigEntry) -> bool:
    return sourced.source.startswith(("--", "TIERCHECK_"))


def _differs(entry: SdkEntry, doc: Scorecard) -> str | None:
    """The first value the run recorded that `entry` does not give again ("REV KEY"), leaving
    out what a flag or a variable set; None when the entry resolves to what the run had."""
    for revision, recorded in doc.revisions.items():
        if not recorded.config:
            continue
        if revision not in entry.revisions:
            return f"{revision} (not claimed)"
        again = resolve(entry, revision, environ={}, flags=ConfigFlags()).to_dict()
        for key, sourced in recorded.config.items():
            if _from_outside(sourced) or key not in again:
                continue
            if again[key]["value"] != sourced.value:
                return f"{revision} {key}"
    return None


def _reread(named: str, where: str, name: str) -> SdkEntry:
    """The entry `name` of the registry file `named`, read again (validated, as any registry)."""
    path = Path(named)
    if not path.is_file():
        msg = (
            f"{where}: {name} was configured by the registry file {named}, which is not "
            "found; pass that file with --registry FILE"
        )
        raise UsageError(msg)
    entry = load_registry(path).find(name)
    if entry is None:
        msg = f"{where}: {named} has no entry {name} any more; pass the file as it was with "
        raise UsageError(msg + "--registry FILE")
    return entry


def _entry_used(request: ClaimRequest, doc: Scorecard) -> SdkEntry | None:
    """The registry entry that configured the assessment; None when flags alone did.

    A new assessment's is the registry's it was given. A saved scorecard's is the entry its
    configuration names: the registry's given (`--registry`, TIERCHECK_REGISTRY) when it comes
    from that file, else the file named, read again. An entry of a file other than the bundled
    registry must give the values the run recorded; a file that is gone, or no longer has the
    entry as it was, is a UsageError (pass the file as it was with --registry).
    """
    name = doc.sdk.name
    if doc.sdk.registered is False:
        return None
    given = request.registry.find(name)
    if request.from_scorecard is None:
        return given
    named = _registry_named(doc)
    if named is None or _bundled(named):
        return given
    where = f"--from {request.from_scorecard}"
    entry = (
        given if given is not None and not _bundled(given.source) else _reread(named, where, name)
    )
    changed = _differs(entry, doc)
    if changed is not None:
        msg = (
            f"{where}: the entry {name} of {entry.source} is not the one the assessment ran "
            f"with ({changed} differs); pass the registry file as it was with --registry FILE"
        )
        raise UsageError(msg)
    return entry


def _secret_env(doc: Scorecard) -> frozenset[str]:
    """The variables of the recorded `env` blocks that are secret by name or value."""
    found: set[str] = set()
    for revision in doc.revisions.values():
        env = revision.config.get("env")
        if env is not None and isinstance(env.value, dict):
            found |= {
                str(k)
                for k, v in env.value.items()
                if is_secret_name(str(k)) or is_secret_value(str(v))
            }
    return frozenset(found)


def _withheld(value: object, where: str, found: list[str]) -> object:
    """`value` with every text that looks like a credential replaced by `WITHHELD` (and each
    variable of an `env` block whose name marks a secret), each noted in `found`."""
    if isinstance(value, dict):
        out: dict[object, object] = {}
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            in_env = where.rsplit(".", 1)[-1] == "env"
            secret = in_env and isinstance(item, str) and is_secret_name(str(key))
            if secret:
                found.append(path)
                out[key] = WITHHELD
            else:
                out[key] = _withheld(item, path, found)
        return out
    if isinstance(value, list):
        return [_withheld(item, f"{where}[{i}]", found) for i, item in enumerate(value)]
    if isinstance(value, str) and is_secret_value(value):
        found.append(where)
        return WITHHELD
    return value


def _registry_copy(entry: SdkEntry | None) -> tuple[str | None, tuple[str, ...]]:
    """The SDK's own entry, as known_sdks.yaml text, when it came from a registry file other
    than the bundled one (the reproduce command then names the copy), and what it withholds.

    Only that entry, as parsed and validated, re-serialised: the claim is published, and the
    file may hold other SDKs' entries. A value that looks like a credential, and each `env`
    variable whose name marks a secret, is written as `WITHHELD`."""
    if entry is None or _bundled(entry.source):
        return None, ()
    found: list[str] = []
    body = _withheld(dict(entry.raw), "", found)
    text = yaml.safe_dump(
        {entry.name: body},
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=True,
        width=2**16,
    )
    return text, tuple(found)


def summary(claim: Claim) -> str:
    """The claim's status with its rows counted (pass, need review, the ids that block it),
    then its documentation coverage when the documentation was read."""
    passing = sum(1 for row in claim.rows if row.verdicts[0] == "pass")
    review = sum(1 for row in claim.rows if row.verdicts[0] == "needs review")
    blocked = [
        row.id for row in claim.rows if row.verdicts[0] not in ("pass", "needs review", "n/a")
    ]
    lines = [
        f"{claim.header.title}: {claim.status} "
        f"({passing} rows pass, {review} need review"
        + (f", blocked by {', '.join(blocked)})" if blocked else ")"),
    ]
    coverage = claim.coverage
    if coverage is not None:
        lines.append(
            f"documentation: {len(coverage.covered)}/{len(coverage.scored)} features named in "
            f"{len(coverage.doc_files)} docs and {len(coverage.example_files)} example files"
        )
    return "\n".join(lines)


def claim(
    request: ClaimRequest,
    *,
    progress: OpenProgress,
    warn: Callable[[str], None],
    on_scorecard: Callable[[Scorecard], None] = _ignore,
) -> ClaimOutcome:
    """Assess (or load the saved scorecard), build the claim, write its folder.

    `progress` is opened around a new assessment only, and closed before `on_scorecard` is
    handed its scorecard (a saved one is not handed on). `warn` carries what must not fail
    the run. Raises `UsageError` for bad input, and `pipeline.run.OutputError` (with the
    scorecard) when the assessment's reports cannot be written.
    """
    out_dir = request.out if request.out is not None else claim_dir(request.target)
    _previous_assessment(request)  # a bad --previous-issue or --previous is refused first
    previous = _load_previous(request)
    if request.from_scorecard is not None:
        if request.target.sdk or request.target.server_url:
            msg = "--from reuses a finished assessment; drop --sdk/--conformance-server-url"
            raise UsageError(msg)
        source = request.from_scorecard
        doc = load_scorecard(source)
    else:
        assessment = _assessment(request, out_dir)
        with progress() as sink:
            written = run(assessment, sink, warn=warn)
        doc = written.scorecard
        source = written.out_dir / "scorecard.json"
        on_scorecard(doc)
    snapshot = _snapshot(request, doc)
    checkout = _checkout(request, doc)
    tree = read_tree(checkout, POLICY_PATHS) if checkout is not None else None
    built = build_claim(
        doc,
        target_tier=request.tier,
        snapshot=snapshot,
        tree=tree,
        source=str(source),
        context=_context(request, doc, checkout, previous),
    )
    files = write_claim(built, out_dir.resolve())
    return ClaimOutcome(
        claim=built,
        out_dir=out_dir,
        files=tuple(files),
        summary=summary(built),
        exit_code=_claim_exit(doc, built.status),
        nothing_measured=nothing_measured(doc),
    )
