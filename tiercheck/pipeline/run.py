"""`tier-check --sdk …`, the assessment command: request → target → report folder → the
assessment → history → files.

`cli/` parses argv into an `AssessRequest` and hands it over; this module resolves the target,
chooses and checks the report folder, has the assessment run (`pipeline.assess.assessment`, which
owns its steps), adds the history section, writes every report and appends the run to the
history, and returns what it wrote. Nothing it produces climbs back up to the command line to be
finished there.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from tiercheck.document_files import write_reports
from tiercheck.errors import TiercheckError, UsageError
from tiercheck.history.store import HistoryStore
from tiercheck.pipeline.assess.assessment import assess
from tiercheck.pipeline.assess.base import AssessOptions, ProgressSink
from tiercheck.pipeline.assess.clock import now_utc
from tiercheck.pipeline.assess.history import HistoryHook
from tiercheck.pipeline.assess.inputs import check_inputs
from tiercheck.pipeline.assess.output import ReportFolder, report_folder
from tiercheck.pipeline.assess.request import AssessRequest
from tiercheck.scorecard.model import Scorecard
from tiercheck.target import Target, resolve_target

__all__ = ["OutputError", "WrittenRun", "assess_options", "check_request", "resolve", "run"]


class OutputError(TiercheckError):
    """The reports could not be written (a full disk, a folder gone read-only): exit 2.

    The same code as an unwritable `--out` refused up front: the output place is at fault, not
    the SDK. It carries the scorecard, so the command line can still print it.
    """

    exit_code = 2

    def __init__(self, message: str, scorecard: Scorecard) -> None:
        super().__init__(message)
        self.scorecard = scorecard


@dataclass(frozen=True)
class WrittenRun:
    """A finished run: its scorecard, its folder and the report files written there."""

    scorecard: Scorecard
    out_dir: Path
    files: Mapping[str, Path]

    @property
    def nothing_measured(self) -> tuple[str, ...]:
        """Why the run measured no leg at all, and what to do (empty when a leg was measured):
        `scorecard.remediation.nothing_measured`."""
        from tiercheck.scorecard.remediation import nothing_measured

        return nothing_measured(self.scorecard)

    @property
    def probe_failed(self) -> bool:
        """Whether any revision's probes failed (`--fail-on-probe` turns that into exit 1)."""
        revisions = self.scorecard.revisions.values()
        return any(entry.probes is not None and entry.probes.of("fail") for entry in revisions)


def check_request(request: AssessRequest) -> None:
    """The combinations of flags no run can honour, refused before any work (UsageError)."""
    wanted = request.target
    if wanted.server_url is not None and wanted.sdk_path is not None:
        msg = "--conformance-server-url runs against a server already running; drop --sdk-path"
        raise UsageError(msg)
    if wanted.server_url is not None and not wanted.repo:
        msg = "--conformance-server-url needs --repo OWNER/REPO to attribute the results"
        raise UsageError(msg)
    governance = request.governance
    if governance.skip and (governance.snapshot or governance.record):
        msg = "--skip-governance cannot be combined with --governance-snapshot/--record-governance"
        raise UsageError(msg)
    if request.settings.rebuild and request.settings.skip_build:
        msg = "--rebuild and --skip-build contradict each other; pick one"
        raise UsageError(msg)


def resolve(request: AssessRequest) -> Target:
    """The SDK the request names, resolved against its registry."""
    wanted = request.target
    if wanted.server_url is not None:
        assert wanted.repo is not None  # check_request
        entry = request.registry.find(wanted.sdk) if wanted.sdk else None
        return Target(
            name=entry.name if entry else wanted.repo.rsplit("/", 1)[-1],
            repo=wanted.repo,
            ref=None,
            entry=entry,
            path=None,
        )
    return resolve_target(
        request.registry, sdk=wanted.sdk, sdk_path=wanted.sdk_path, repo=wanted.repo
    )


def assess_options(request: AssessRequest, target: Target, folder: ReportFolder) -> AssessOptions:
    """The options the steps read: the request's settings, with `skip_build` set in URL mode (a
    server already running is never built)."""
    server_url = request.target.server_url
    settings = request.settings
    if server_url is not None and not settings.skip_build:
        settings = dataclasses.replace(settings, skip_build=True)
    return AssessOptions(
        target=target,
        settings=settings,
        out_dir=folder.path,
        run_id=folder.run_id,
        server_url=server_url,
    )


def run(
    request: AssessRequest, progress: ProgressSink, *, warn: Callable[[str], None]
) -> WrittenRun:
    """The whole run the request asks for; returns the written scorecard.

    `warn` carries what must not fail the run (a broken history database). Raises
    `OutputError` when the files cannot be written, with the scorecard inside.
    """
    check_request(request)
    target = resolve(request)
    check_inputs(request)
    started = now_utc()
    folder = report_folder(request.out, target.name, started)
    options = assess_options(request, target, folder)
    hook = HistoryHook(HistoryStore(request.history.path), warn) if request.history else None
    doc = assess(
        options,
        request.governance,
        progress,
        started_at=started,
        reuse=hook.lookup if hook and request.history and request.history.reuse else None,
    )
    if hook:
        doc = hook.with_section(doc)
    try:
        files = write_reports(doc, folder.path)
    except OSError as exc:
        # Each report is written durably, so the previous one is intact.
        msg = f"cannot write the reports to {folder.path}: {exc.strerror or exc}"
        raise OutputError(msg, doc) from None
    if hook:
        hook.append(doc)  # after the reports: a broken history cannot cost the scorecard
    return WrittenRun(doc, folder.path, files)
