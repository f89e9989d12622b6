"""The published dashboard: which files a site holds, built incrementally into one folder.

`build_site` turns the run history (and the latest matrix folders, for the scorecard and claim
pages of each line) into a static site:

    index.html                      lines/<line>.html            scenarios/<scenario>.html
    lines/<line>/scorecard.html     lines/<line>/claim.html      (copied from the matrix)
    badges/<line>.svg               badges/<line>.json           badges/aliases.json
    api/v1/index.json               api/v1/lines/<line>.json     api/v1/scenarios.json
    api/v1/matrix.json              api/v1/schemas/*.schema.json .nojekyll

Incremental: each file has a key (a digest of what it is made from and of this tiercheck's
version); a page whose key is the one the previous build recorded (`.tiercheck-site.json`) and
whose file is there is not rendered again, and a file is only rewritten when its bytes change.
Deterministic: nothing depends on the clock or the machine, so the same history gives the same
bytes. Files a previous build wrote and this one does not are removed — except badges, whose
paths never move: a badge of a line that is gone stays as it was, and an alias (old name →
line, kept in `badges/aliases.json` from build to build) serves a renamed line's badge at its
old path too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from tiercheck import __version__
from tiercheck.config.safeload import load_json
from tiercheck.dashboard.build import Dashboard, LinePages, build_dashboard
from tiercheck.dashboard.model import DashboardIndex, LineHistory, LineSummary, ScenarioPage
from tiercheck.document_schemas import DASHBOARD_SCHEMAS, schema_text
from tiercheck.errors import ConfigError, UsageError
from tiercheck.history.datafile import line_slug
from tiercheck.history.record import RunRecord
from tiercheck.matrix.model import Matrix, MatrixRow
from tiercheck.model import to_json
from tiercheck.report.dashboard_html import (
    line_badge_json,
    line_badge_svg,
    render_index,
    render_line,
    render_scenario,
)
from tiercheck.report.writer import remove_site_file, write_if_changed

__all__ = [
    "MANIFEST",
    "MatrixFolder",
    "SiteResult",
    "api_text",
    "build_site",
    "load_matrix_folder",
]

#: The build's own record in the site: each file's key, for the next build.
MANIFEST = ".tiercheck-site.json"
ALIASES = "badges/aliases.json"
#: Bumped when the site's layout changes in a way the version number would not show.
LAYOUT = 1


@dataclass(frozen=True)
class MatrixFolder:
    """A matrix report folder (`matrix.json` and `rows/<row>/`) and its document."""

    folder: Path
    matrix: Matrix


@dataclass(frozen=True)
class SiteResult:
    """What a build did."""

    written: tuple[str, ...]
    unchanged: int
    removed: tuple[str, ...]
    warnings: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class _File:
    """One file of the site: its key, and how to make its bytes (only when needed)."""

    key: str
    make: Callable[[], bytes]


def api_text(data: Any) -> str:
    """An API document's text: compact JSON, keys in the model's order, one trailing newline.

    Compact because a year of nights of one line is thousands of runs; a reader that wants it
    indented has `jq`."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def _digest(*parts: str) -> str:
    h = hashlib.sha256(f"{__version__}\x1f{LAYOUT}".encode())
    for part in parts:
        h.update(b"\x1f")
        h.update(part.encode("utf-8"))
    return h.hexdigest()


def _text(text: str) -> _File:
    data = text.encode("utf-8")
    return _File(hashlib.sha256(data).hexdigest(), lambda: data)


def _raw(path: Path) -> _File:
    data = path.read_bytes()
    return _File(hashlib.sha256(data).hexdigest(), lambda: data)


def _read_json(path: Path, what: str) -> Any:
    if not path.is_file():
        return None
    try:
        return load_json(path, what=what)
    except ConfigError:
        return None  # a damaged record of a previous build: build as if there were none


def _previous_keys(out: Path) -> dict[str, str]:
    data = _read_json(out / MANIFEST, "the previous build's record")
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    return {str(k): str(v) for k, v in files.items() if isinstance(v, str)}


def _previous_aliases(out: Path) -> tuple[dict[str, str], set[str]]:
    """(old badge name → line, every badge name published) from the previous build."""
    data = _read_json(out / ALIASES, "the badge aliases")
    if not isinstance(data, dict):
        return {}, set()
    found = data.get("aliases")
    aliases: dict[Any, Any] = found if isinstance(found, dict) else {}
    names = data.get("published")
    published: list[Any] = names if isinstance(names, list) else []
    return (
        {str(k): str(v) for k, v in aliases.items() if isinstance(v, str)},
        {str(s) for s in published},
    )


def _row_for(line: str, latest: RunRecord, matrices: Sequence[MatrixFolder]) -> Path | None:
    """The scorecard folder of `line`'s latest assessment in the newest matrix holding one."""
    for source in sorted(
        matrices, key=lambda m: (m.matrix.finished_at, m.matrix.run_id), reverse=True
    ):
        rows: list[MatrixRow] = [
            r for r in source.matrix.rows if r.sdk == line and r.scorecard is not None
        ]
        # The row of the commit the history's latest run measured, else the first one.
        rows.sort(key=lambda r: (r.commit != latest.commit, r.id))
        for row in rows:
            assert row.scorecard is not None
            folder = (source.folder / row.scorecard).resolve()
            if (
                folder.is_relative_to(source.folder.resolve())
                and (folder / "scorecard.html").is_file()
            ):
                return folder
    return None


def _latest_runs(runs: Iterable[RunRecord]) -> dict[str, RunRecord]:
    latest: dict[str, RunRecord] = {}
    for run in runs:
        if run.sdk not in latest or (run.timestamp, run.run_id) >= (
            latest[run.sdk].timestamp,
            latest[run.sdk].run_id,
        ):
            latest[run.sdk] = run
    return latest


def _line_page(summary: LineSummary, history: LineHistory, aliases: Sequence[str]) -> bytes:
    return render_line(summary, history, aliases=aliases).encode("utf-8")


def _scenario_page(page: ScenarioPage, index: DashboardIndex) -> bytes:
    return render_scenario(page, index).encode("utf-8")


def _plan(
    dashboard: Dashboard,
    copied: Mapping[str, Path],
    matrix: MatrixFolder | None,
    aliases: Mapping[str, str],
    published: set[str],
) -> dict[str, _File]:
    index = dashboard.index
    files: dict[str, _File] = {".nojekyll": _text("")}
    index_text = api_text(to_json(index))
    files["api/v1/index.json"] = _text(index_text)
    histories_text = {slug: api_text(to_json(h)) for slug, h in dashboard.lines.items()}
    for slug, text in histories_text.items():
        files[f"api/v1/lines/{slug}.json"] = _text(text)
    scenarios_text = api_text(to_json(dashboard.scenarios))
    files["api/v1/scenarios.json"] = _text(scenarios_text)
    if matrix is not None:
        files["api/v1/matrix.json"] = _text(api_text(to_json(matrix.matrix)))
    for name in DASHBOARD_SCHEMAS:
        files[f"api/v1/schemas/{name}"] = _text(schema_text(name))
    everything = _digest(index_text, *sorted(histories_text.values()))
    files["index.html"] = _File(
        everything, lambda: render_index(index, dashboard.lines).encode("utf-8")
    )
    aliases_of: dict[str, list[str]] = {}
    for old, line in aliases.items():
        aliases_of.setdefault(line, []).append(old)
    for summary in index.lines:
        history = dashboard.lines[summary.slug]
        names = sorted(aliases_of.get(summary.line, []))
        key = _digest(api_text(to_json(summary)), histories_text[summary.slug], json.dumps(names))
        files[summary.links.page] = _File(key, partial(_line_page, summary, history, names))
        svg, endpoint = line_badge_svg(summary), line_badge_json(summary)
        for slug in (summary.slug, *names):
            files[f"badges/{slug}.svg"] = _text(svg)
            files[f"badges/{slug}.json"] = _text(endpoint)
        for name, source in (("scorecard.html", "scorecard_html"), ("claim.html", "claim_html")):
            if getattr(summary.links, source) and summary.line in copied:
                files[f"lines/{summary.slug}/{name}"] = _raw(copied[summary.line] / name)
    for page in dashboard.scenarios.scenarios:
        key = _digest(api_text(to_json(page)), api_text([s.links.page for s in index.lines]))
        files[f"scenarios/{page.slug}.html"] = _File(key, partial(_scenario_page, page, index))
    record = {
        "format": "tiercheck-badge-aliases",
        "aliases": dict(sorted(aliases.items())),
        # Every badge name ever published: a badge path never moves.
        "published": sorted(published | {s.slug for s in index.lines} | set(aliases)),
    }
    files[ALIASES] = _text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return files


def build_site(
    runs: Sequence[RunRecord],
    out: Path,
    *,
    matrices: Sequence[MatrixFolder] = (),
    aliases: Mapping[str, str] | None = None,
) -> SiteResult:
    """Build (or bring up to date) the dashboard of `runs` in `out`.

    `aliases` maps an old line name to the line now serving its badge (a rename); they join
    the aliases of the previous build. An alias to a line without runs is refused (UsageError).
    """
    lines = {run.sdk for run in runs}
    previous_aliases, published = _previous_aliases(out)
    merged = dict(previous_aliases)
    for old, line in (aliases or {}).items():
        if line not in lines:
            msg = f"publish: --alias {old}={line}: the history has no line {line!r}"
            raise UsageError(msg)
        merged[line_slug(old)] = line
    warnings: list[str] = []
    for old, line in sorted(merged.items()):
        if line not in lines:
            warnings.append(
                f"badge alias {old} → {line}: {line} has no runs any more; its badge is kept "
                "as it was"
            )
            del merged[old]
    latest = _latest_runs(runs)
    copied: dict[str, Path] = {}
    pages: dict[str, LinePages] = {}
    for line, run in latest.items():
        folder = _row_for(line, run, matrices)
        if folder is not None:
            copied[line] = folder
            pages[line] = LinePages(
                scorecard_html=True, claim_html=(folder / "claim.html").is_file()
            )
    newest = max(matrices, key=lambda m: (m.matrix.finished_at, m.matrix.run_id), default=None)
    # An old name that is now a line of its own again serves that line, not the alias.
    live = {line_slug(line) for line in lines}
    merged = {old: line for old, line in merged.items() if old not in live}
    dashboard = build_dashboard(runs, pages=pages, matrix=newest is not None, aliases=merged)
    files = _plan(dashboard, copied, newest, merged, published)
    for gone in sorted(published - live - set(merged)):
        warnings.append(
            f"badge {gone}: no line of that name any more; badges/{gone}.svg is kept as it was "
            f"(to serve a renamed line there: --alias {gone}=NEW)"
        )
    return _write(out, files, warnings)


def _write(out: Path, files: Mapping[str, _File], warnings: list[str]) -> SiteResult:
    before = _previous_keys(out)
    written: list[str] = []
    unchanged = 0
    for path in sorted(files):
        entry = files[path]
        target = out / path
        if before.get(path) == entry.key and target.is_file():
            unchanged += 1
            continue
        if write_if_changed(target, entry.make()):
            written.append(path)
        else:
            unchanged += 1
    removed = [
        path
        for path in sorted(set(before) - set(files))
        if not path.startswith("badges/") and remove_site_file(out / path)
    ]
    manifest = {
        "format": "tiercheck-site",
        "layout": LAYOUT,
        "files": {path: files[path].key for path in sorted(files)},
    }
    write_if_changed(
        out / MANIFEST, (json.dumps(manifest, indent=1, ensure_ascii=False) + "\n").encode()
    )
    return SiteResult(
        written=tuple(written),
        unchanged=unchanged,
        removed=tuple(removed),
        warnings=tuple(warnings),
    )


def load_matrix_folder(folder: Path) -> MatrixFolder:
    """A matrix folder given to `publish --matrix`; ConfigError (one line) when it is not one."""
    from tiercheck.report.writer import load_matrix

    path = folder / "matrix.json"
    if not path.is_file():
        msg = f"publish --matrix {folder}: no matrix.json there"
        raise UsageError(msg)
    return MatrixFolder(folder, load_matrix(path))
