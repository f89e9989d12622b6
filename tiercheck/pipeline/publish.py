"""`tier-check publish`: a `PublishRequest` from the run history (and the latest matrices) to
the written site (`tiercheck.publish.site.build_site`).

Every input is checked before anything is written, in this order: the history file, the site's
folder, each `--matrix` folder (its `matrix.json` read), the `--triage` file (validated), then
the history's runs. Each failure
is one line and exit 2 (UsageError, ConfigError, or SiteError from the build: a symbolic link
where the site would write, or a site that cannot be written, which is then as it was).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tiercheck.config.triage import TriageEntry, load_triage
from tiercheck.errors import UsageError
from tiercheck.history.store import HistoryError, HistoryStore
from tiercheck.paths import writable_dir
from tiercheck.publish.site import SiteResult, build_site, load_matrix_folder

__all__ = ["PublishRequest", "PublishResult", "publish"]


@dataclass(frozen=True)
class PublishRequest:
    """`tier-check publish`: which history, into which site, with which matrices and aliases."""

    #: `--history DB`: the run history database.
    history: Path
    #: `--out SITE`: the site's folder.
    out: Path
    #: `--matrix DIR` folders, as given (the messages quote them so; `~` is expanded).
    matrices: tuple[str, ...] = ()
    #: `--alias OLD=NEW`: a renamed line's old name → the line now serving its badge.
    aliases: Mapping[str, str] = field(default_factory=dict)
    #: `--triage FILE`: the reviewed triage links, or None.
    triage: Path | None = None
    #: `--base-url URL`: the site's https address (checked, ending in `/`), or None.
    base_url: str | None = None


@dataclass(frozen=True)
class PublishResult:
    """A built site: what the command line prints, and its exit code."""

    out: Path
    #: The lines the site's index lists (an SDK's `NAME@stable` is a line of its own) and
    #: the runs in the history.
    lines: int
    runs: int
    #: The files written, left unchanged and removed, and the warnings of the build.
    site: SiteResult
    exit_code: int = 0


def publish(request: PublishRequest) -> PublishResult:
    """Build (or bring up to date) the site the request names."""
    db = request.history
    if not db.is_file():
        msg = f"publish: --history {db}: no such file"
        raise UsageError(msg)
    out = writable_dir(request.out, "--out")
    matrices = []
    for folder in request.matrices:
        root = Path(folder).expanduser()
        if not root.is_dir():
            msg = f"publish: --matrix {folder} is not a directory"
            raise UsageError(msg)
        matrices.append(load_matrix_folder(root))
    triage: tuple[TriageEntry, ...] = ()
    if request.triage is not None:
        if not request.triage.is_file():
            msg = f"publish: --triage {request.triage}: no such file"
            raise UsageError(msg)
        triage = load_triage(request.triage)
    store = HistoryStore(db)
    try:
        store.check_readable()
        runs = store.runs()
    except HistoryError as exc:
        raise UsageError(str(exc)) from None
    site = build_site(
        runs,
        out,
        matrices=matrices,
        aliases=request.aliases,
        triage=triage,
        base_url=request.base_url,
    )
    return PublishResult(out=out, lines=len(site.lines), runs=len(runs), site=site)
