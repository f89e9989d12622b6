"""The published dashboard: which files a site holds, built incrementally into one folder.

`build_site` turns the run history (and the latest matrix folders, for the scorecard and claim
pages of each line) into a static site:

    index.html                      lines/<line>.html            scenarios/<scenario>.html
    grid.html                       nights/<night>.html          nights/index.html
    lines/<line>/scorecard.html     lines/<line>/claim.html      (copied from the matrix)
    badges/<line>.svg               badges/<line>.json           badges/aliases.json
    feed.atom                       (regressions and recoveries, Atom)
    api/v1/index.json               api/v1/lines/<line>.json     api/v1/scenarios.json
    api/v1/matrix.json              api/v1/schemas/*.schema.json .nojekyll
    api/v1/grid.json                api/v1/nights.json           api/v1/nights/<night>.json
    grid-<status>.html              nights/<night>/grid.html     compare/<a>/<b>.html
    api/v1/views.json               (the grid's drill-down pages and their list)

Incremental: each file has a key (a digest of what it is made from and of this tiercheck's
version); a page whose key is the one the previous build recorded (`.tiercheck-site.json`) and
whose file is there is not rendered again, and a file is only rewritten when its bytes change
(a data file or badge is compared with the file there every time).
Deterministic: nothing depends on the clock or the machine, so the same history gives the same
bytes. Files a previous build wrote and this one does not are removed — except badges, whose
paths never move: a badge of a line that is gone stays as it was, and an alias (old name →
line, kept in `badges/aliases.json` from build to build) serves a renamed line's badge at its
old path too.

Confined: every file written or removed is inside `out`. What the previous build's records
name is acted on only when it is a plain path inside the site (`names.site_path`,
`names.badge_name`); anything else is dropped with a warning. A symbolic link at a path the
build would write or remove, or on the way to it, stops the build before anything is written
(`SiteError`, one line): publish writes only real files in real folders, and never through a
link. Line and scenario pages are named by slugs that differ under `casefold()`; should two
paths still be one file on a case-insensitive disk, the first is written and the other
dropped with a warning. The matrix's pages are read only from inside its folder.

All or nothing: every changed file, and the new record, is staged beside its target and put
in place only once all of them are written and flushed to disk (together, not one by one:
`publish.files.SiteStage`), so a build that fails (a full disk) leaves the previous site as it
was, byte for byte, and a page is never half-written, even by a crash.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from tiercheck import __version__
from tiercheck.config.requirements import load_requirement_set
from tiercheck.config.safeload import load_json
from tiercheck.config.triage import TriageEntry
from tiercheck.dashboard.build import Dashboard, LinePages, build_dashboard
from tiercheck.dashboard.feed import FEED, feed_latest, render_feed
from tiercheck.dashboard.grid import Grid, build_grid, runs_by_line
from tiercheck.dashboard.grid_html import render_grid, render_night, render_nights
from tiercheck.dashboard.html import (
    line_badge_json,
    line_badge_svg,
    render_index,
    render_line,
    render_scenario,
)
from tiercheck.dashboard.model import DashboardIndex, LineHistory, LineSummary, ScenarioPage
from tiercheck.dashboard.nightdiff import (
    NIGHTS_PAGE,
    NightDiff,
    NightList,
    build_nights,
    night_page,
)
from tiercheck.dashboard.timegrid import NightGrids, night_grid_page
from tiercheck.dashboard.triage import Triage, TriageStatus, judge_triage
from tiercheck.dashboard.views import (
    STATUSES,
    StatusEntry,
    column_text,
    compare_links,
    compare_page,
    compare_pairs,
    comparison,
    status_grid,
    status_page,
    view_index,
)
from tiercheck.dashboard.views_html import (
    NightGridPages,
    render_comparison,
    render_status,
    status_links,
)
from tiercheck.document_schemas import DASHBOARD_SCHEMAS, schema_text
from tiercheck.errors import ConfigError, TiercheckError, UsageError
from tiercheck.history.datafile import line_slug
from tiercheck.history.record import RunRecord, line_of, series_of
from tiercheck.history.regression import NightState, timeline
from tiercheck.matrix.model import Matrix, MatrixRow
from tiercheck.model import to_json
from tiercheck.publish.files import SiteStage, remove_site_file, site_bytes, site_link
from tiercheck.publish.names import ALIAS_NAME, CaseFold, alias_name, badge_name, site_path

__all__ = [
    "MANIFEST",
    "MatrixFolder",
    "SiteError",
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


class SiteError(TiercheckError):
    """The site cannot be built in its folder (a link in the way, a full disk): one line."""

    exit_code = 2


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
    #: Each triage entry, judged against the lines' latest verdicts (stale ones flagged).
    triage: tuple[TriageStatus, ...] = field(default=())
    #: The lines the index lists, by name: each SDK's branch series, and `NAME@stable` apart.
    lines: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class _File:
    """One file of the site: its key, and how to make its bytes (only when needed).

    A rendered page (`rendered`) whose key is the previous build's is not made again; any
    other file's bytes are at hand, so it is compared with the file there every time."""

    key: str
    make: Callable[[], bytes]
    rendered: bool = True


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
    return _File(hashlib.sha256(data).hexdigest(), lambda: data, rendered=False)


def _raw(path: Path) -> _File:
    data = path.read_bytes()
    return _File(hashlib.sha256(data).hexdigest(), lambda: data, rendered=False)


def _read_record(root: Path, relative: str, what: str) -> Any:
    """A previous build's record in the site, or None (missing, damaged, or not a real file)."""
    if site_link(root, relative) is not None or not (root / relative).is_file():
        return None  # a link in the way stops the build when it is written (`_check_links`)
    try:
        return load_json(root / relative, what=what)
    except ConfigError:
        return None  # a damaged record of a previous build: build as if there were none


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _previous_keys(root: Path, warnings: list[str]) -> dict[str, str]:
    """path → key of each file the previous build recorded; a path that is not a plain path
    inside the site is dropped with a warning."""
    data = _read_record(root, MANIFEST, "the previous build's record")
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    keys: dict[str, str] = {}
    for path, key in files.items():
        if site_path(path) is None or path == MANIFEST:
            warnings.append(
                f"{MANIFEST}: {_shown(path)} is not a path inside the site; ignored (nothing "
                "there is removed)"
            )
        elif isinstance(key, str):
            keys[path] = key
    return keys


def _previous_aliases(root: Path, warnings: list[str]) -> tuple[dict[str, str], set[str]]:
    """(old badge name → line, every badge name published) from the previous build; a name
    that is not a badge name is dropped with a warning."""
    data = _read_record(root, ALIASES, "the badge aliases")
    if not isinstance(data, dict):
        return {}, set()
    found = data.get("aliases")
    aliases: dict[Any, Any] = found if isinstance(found, dict) else {}
    names = data.get("published")
    published: list[Any] = names if isinstance(names, list) else []
    kept: dict[str, str] = {}
    for old, line in aliases.items():
        if badge_name(old) is None:
            warnings.append(f"{ALIASES}: the alias {_shown(old)} is not a badge name; dropped")
        elif isinstance(line, str):
            kept[old] = line
    bad = [name for name in published if badge_name(name) is None]
    for name in bad:
        warnings.append(
            f"{ALIASES}: the published name {_shown(name)} is not a badge name; dropped"
        )
    return kept, {name for name in published if badge_name(name) is not None}


def _inside(root: Path, relative: str) -> Path | None:
    """`root/relative` resolved, when it is still inside `root` (links followed only inside)."""
    try:
        path = (root / relative).resolve()
    except (OSError, RuntimeError):
        return None
    return path if path.is_relative_to(root) else None


def _row_for(
    line: str, latest: RunRecord, matrices: Sequence[MatrixFolder]
) -> tuple[Path | None, str | None]:
    """The scorecard folder of `line`'s latest assessment in the newest matrix holding one,
    or None and why no row of the line could serve (None: the matrices have no such row)."""
    why: str | None = None
    for source in sorted(
        matrices, key=lambda m: (m.matrix.finished_at, m.matrix.run_id), reverse=True
    ):
        root = source.folder.resolve()
        rows: list[MatrixRow] = [
            r
            for r in source.matrix.rows
            if _row_line(r.sdk, r.ref) == line and r.scorecard is not None
        ]
        # The row of the commit the history's latest run measured, else the first one.
        rows.sort(key=lambda r: (r.commit != latest.commit, r.id))
        for row in rows:
            assert row.scorecard is not None
            folder = _inside(root, row.scorecard)
            page = _inside(root, f"{row.scorecard}/scorecard.html")
            if folder is not None and page is not None and page.is_file():
                return folder, None
            why = why or (
                f"the matrix row {row.id}: no scorecard.html in {source.folder}/{row.scorecard}"
                if folder is not None
                else f"the matrix row {row.id}: its folder {row.scorecard!r} is not inside "
                f"{source.folder}"
            )
    return None, why


def _row_line(sdk: str, ref: str | None) -> str:
    """The line a matrix row's runs are listed under (`record.line_of`)."""
    return sdk if series_of(ref) == "branch" else f"{sdk}@{ref}"


def _page_of(folder: Path, name: str) -> Path | None:
    """`folder/name` when it is a file inside `folder` (a link out of it is not followed)."""
    path = _inside(folder, name)
    return path if path is not None and path.is_file() else None


def _latest_runs(runs: Iterable[RunRecord]) -> dict[str, RunRecord]:
    latest: dict[str, RunRecord] = {}
    for run in runs:
        line = line_of(run)
        if line not in latest or (run.timestamp, run.run_id) >= (
            latest[line].timestamp,
            latest[line].run_id,
        ):
            latest[line] = run
    return latest


@dataclass(frozen=True)
class _Extras:
    """What the pages show beside the history: triage links and the site's address."""

    triage: Triage = field(default_factory=Triage)
    statuses: tuple[TriageStatus, ...] = ()
    base_url: str | None = None

    @property
    def key(self) -> str:
        """A text that changes whenever what these add to a page changes."""
        return json.dumps(
            [self.base_url, [[repr(s.entry), s.state, s.reason] for s in self.statuses]]
        )


def _line_page(
    summary: LineSummary,
    history: LineHistory,
    aliases: Sequence[str],
    extras: _Extras,
    compare: Sequence[tuple[str, str]] = (),
) -> bytes:
    return render_line(
        summary,
        history,
        aliases=aliases,
        base_url=extras.base_url,
        triage=extras.triage,
        statuses=[s for s in extras.statuses if s.entry.line == summary.line],
        compare=compare,
    ).encode("utf-8")


def _scenario_page(page: ScenarioPage, index: DashboardIndex, triage: Triage) -> bytes:
    return render_scenario(page, index, triage=triage).encode("utf-8")


@dataclass(frozen=True)
class _Views:
    """The cross-SDK grid and the nights, built beside the dashboard's documents, the grid as
    of each night, and the pairs of lines compared."""

    grid: Grid
    nights: NightList
    diffs: Mapping[str, NightDiff]
    night_grids: NightGrids
    pairs: tuple[tuple[str, str], ...] = ()


def _views(
    by_line: Mapping[str, Sequence[RunRecord]],
    timelines: Mapping[str, Sequence[NightState]],
    dashboard: Dashboard,
    warnings: list[str],
) -> _Views:
    """The grid over the frozen sets of the revisions the lines' latest runs scored (as this
    tiercheck ships them), with the disputes each run recorded, and every night against the
    night before (by `timelines`, the ones the dashboard was built from)."""
    claimed = sorted({x.revision for runs in by_line.values() for run in runs for x in run.legs})
    latest = set(dashboard.index.revisions)
    sets: dict[str, dict[str, Sequence[str]]] = {}
    for revision in claimed:
        try:
            found = load_requirement_set(revision)
        except ConfigError as exc:
            if revision in latest:
                warnings.append(f"grid: {revision} has no frozen set here ({exc}); not in the grid")
            continue
        sets[revision] = {
            leg: names
            for leg, names in (("server", found.server), ("client", found.client))
            if names
        }
    pages = {(s.leg, s.scenario): s.page for s in dashboard.index.scenarios}
    # One reading of every line's runs gives the grid as of each night and the grid now.
    night_grids = NightGrids(by_line, sets, pages=pages)
    now = {r: v for r, v in sets.items() if r in latest}
    grid = build_grid(by_line, now, scenario_pages=pages, cells=night_grids.latest_cells())
    listing, diffs = build_nights(by_line, timelines=timelines)
    pairs = tuple(compare_pairs(grid.lines))
    return _Views(grid, listing, diffs, night_grids, pairs)


def _night_page(diff: NightDiff) -> bytes:
    return render_night(diff).encode("utf-8")


def _add_views(plan: _Plan, views: _Views, dashboard: Dashboard, extras: _Extras) -> None:
    """The grid's and the nights' files (the grid shows the triage links)."""
    grid_text = api_text(to_json(views.grid))
    plan.add("api/v1/grid.json", _text(grid_text))
    _add_drill(plan, views, dashboard, extras, grid_text)
    latest = views.nights.latest
    plan.add(
        "grid.html",
        _File(
            _digest(grid_text, latest or "", extras.key),
            lambda: render_grid(
                views.grid, night=latest, triage=extras.triage, links=status_links()
            ).encode("utf-8"),
        ),
    )
    nights_text = api_text(to_json(views.nights))
    plan.add("api/v1/nights.json", _text(nights_text))
    plan.add(
        NIGHTS_PAGE,
        _File(_digest(nights_text), lambda: render_nights(views.nights).encode("utf-8")),
    )
    for night, diff in views.diffs.items():
        data, html = site_path(f"api/v1/nights/{night}.json"), site_path(night_page(night))
        if data is None or html is None:  # a night is an ISO date: never
            continue
        text = api_text(to_json(diff))
        plan.add(data, _text(text))
        plan.add(html, _File(_digest(text), partial(_night_page, diff)))


def _utf8(make: Callable[[], str]) -> Callable[[], bytes]:
    """`make`'s page as the bytes of the file."""
    return lambda: make().encode("utf-8")


def _night_grid(grids: NightGrids, pages: NightGridPages, night: str, before: str | None) -> str:
    return pages.render(grids.grid(night), night, before)


def _add_drill(
    plan: _Plan, views: _Views, dashboard: Dashboard, extras: _Extras, grid_text: str
) -> None:
    """The grid's drill-down pages (`grid-<status>.html`, `nights/<night>/grid.html`,
    `compare/<a>/<b>.html`) and their list, `api/v1/views.json`."""
    histories = list(dashboard.lines.values())
    flaky = sorted(
        (h.line, f.revision, f.leg, f.scenario, f.flips) for h in histories for f in h.flaky
    )
    entries = []
    for status in STATUSES:
        shown, cells = status_grid(views.grid, status, histories, extras.triage)
        entries.append(
            StatusEntry(
                status=status,
                page=status_page(status),
                rows=sum(len(t.rows) for t in shown.tables),
                cells=cells,
            )
        )
        listed = flaky if status == "flaky" else []
        make = partial(render_status, shown, status, cells, triage=extras.triage, flaky=listed)
        key = _digest(grid_text, status, json.dumps(listed), extras.key)
        plan.add(status_page(status), _File(key, _utf8(make)))
    grids, pages = views.night_grids, NightGridPages()
    nights = grids.nights
    for i, night in enumerate(nights):
        before = nights[i - 1] if i else None
        path = site_path(night_grid_page(night))
        if path is None:  # a night is an ISO date: never
            continue
        plan.add(
            path,
            _File(
                _digest(grids.key(night), before or ""),
                _utf8(partial(_night_grid, grids, pages, night, before)),
            ),
        )
    columns = {line: column_text(views.grid, line) for line in views.grid.lines}
    line_pages = {s.line: s.links.page for s in dashboard.index.lines}
    compared = []
    for a, b in views.pairs:
        found = comparison(views.grid, a, b)
        compared.append(found)
        both = (line_pages[a], line_pages[b])
        plan.add(
            compare_page(a, b),
            _File(
                _digest(columns[a], columns[b], json.dumps(both)),
                _utf8(partial(render_comparison, found, both)),
            ),
        )
    listing = view_index(entries, nights, {n: night_grid_page(n) for n in nights}, compared)
    plan.add("api/v1/views.json", _text(api_text(to_json(listing))))


@dataclass
class _Plan:
    """The files of a site, by path; a path that would be another one on a case-insensitive
    disk is not taken (the first one is), and a warning says so."""

    files: dict[str, _File] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    _fold: CaseFold = field(default_factory=CaseFold)

    def add(self, path: str, file: _File) -> None:
        seen = self._fold.clash(path)
        if seen is None:
            self.files[path] = file
        elif seen == path:
            self.warnings.append(f"{path} is not written again: another file of the site is it")
        else:
            self.warnings.append(
                f"{path} is not written: it would be {seen} on a case-insensitive disk"
            )


def _add_data(plan: _Plan, dashboard: Dashboard, matrix: MatrixFolder | None) -> str:
    """The site's fixed files: the API's index, scenarios, matrix and schemas (and
    `.nojekyll`); the index's text, which the index page's key is made from."""
    plan.add(".nojekyll", _text(""))
    index_text = api_text(to_json(dashboard.index))
    plan.add("api/v1/index.json", _text(index_text))
    plan.add("api/v1/scenarios.json", _text(api_text(to_json(dashboard.scenarios))))
    if matrix is not None:
        plan.add("api/v1/matrix.json", _text(api_text(to_json(matrix.matrix))))
    for name in DASHBOARD_SCHEMAS:
        plan.add(f"api/v1/schemas/{name}", _text(schema_text(name)))
    return index_text


def _add_front(
    plan: _Plan,
    dashboard: Dashboard,
    texts: Mapping[str, str],
    *,
    index_text: str,
    views: _Views | None,
    extras: _Extras,
) -> None:
    """The files that read every line: the index page (linking the grid and the latest night
    when the site has them) and the feed; `texts` is each line's history document's text."""
    index = dashboard.index
    latest = views.nights.latest if views is not None else None
    night = (latest, night_page(latest)) if latest else None
    grid = "grid.html" if views is not None else None
    histories = sorted(texts.values())
    plan.add(
        "index.html",
        _File(
            _digest(index_text, *histories, repr((grid, night)), extras.key),
            lambda: render_index(
                index,
                dashboard.lines,
                grid=grid,
                night=night,
                feed=True,
                triage=extras.statuses,
                more=status_links() if views is not None else (),
            ).encode("utf-8"),
        ),
    )
    feed_night = feed_latest(list(dashboard.lines.values()))
    plan.add(
        FEED,
        _File(
            _digest(*histories, json.dumps(extras.base_url)),
            lambda: render_feed(
                dashboard.lines, latest=feed_night, base_url=extras.base_url
            ).encode("utf-8"),
        ),
    )


def _add_alias_record(
    plan: _Plan, aliases: Mapping[str, str], published: set[str], index: DashboardIndex
) -> None:
    """`badges/aliases.json`: the aliases, and every badge name ever published (this build's
    lines and aliases among them), for the next build."""
    record = {
        "format": "tiercheck-badge-aliases",
        "aliases": dict(sorted(aliases.items())),
        # Every badge name ever published: a badge path never moves.
        "published": sorted(published | {s.slug for s in index.lines} | set(aliases)),
    }
    plan.add(ALIASES, _text(json.dumps(record, indent=2, ensure_ascii=False) + "\n"))


def _add_line(
    plan: _Plan,
    summary: LineSummary,
    history: LineHistory,
    text: str,
    *,
    names: Sequence[str],
    badge: tuple[str, str],
    copied: Mapping[str, Path],
    extras: _Extras,
    compare: Sequence[tuple[str, str]] = (),
) -> None:
    """One line's files: its page (which lists its badge's old `names` and links its
    comparisons, `compare`), its runs document (`text`), its `badge` (SVG and endpoint JSON),
    and the scorecard and claim pages `copied` from the matrix."""
    key = _digest(
        api_text(to_json(summary)), text, json.dumps(names), extras.key, json.dumps(compare)
    )
    make = partial(_line_page, summary, history, names, extras, compare)
    plan.add(summary.links.page, _File(key, make))
    plan.add(summary.links.runs, _text(text))
    plan.add(summary.links.badge_svg, _text(badge[0]))
    plan.add(summary.links.badge_json, _text(badge[1]))
    for name, link in (
        ("scorecard.html", summary.links.scorecard_html),
        ("claim.html", summary.links.claim_html),
    ):
        source = copied.get(name)
        if link is not None and source is not None:
            plan.add(link, _raw(source))


def _add_lines(
    plan: _Plan,
    dashboard: Dashboard,
    texts: Mapping[str, str],
    *,
    copied: Mapping[str, Mapping[str, Path]],
    aliases: Mapping[str, str],
    extras: _Extras,
    pairs: Sequence[tuple[str, str]] = (),
) -> None:
    """Every line's files (each linking its comparisons among `pairs`), then each alias's
    badge (the badge of the line it serves), after all the lines' so that a line's own file
    wins a clash."""
    aliases_of: dict[str, list[str]] = {}
    for old, line in aliases.items():
        aliases_of.setdefault(line, []).append(old)
    badges: list[tuple[str, tuple[str, str]]] = []
    for summary in dashboard.index.lines:
        names = sorted(aliases_of.get(summary.line, []))
        badge = (line_badge_svg(summary), line_badge_json(summary))
        _add_line(
            plan,
            summary,
            dashboard.lines[summary.slug],
            texts[summary.slug],
            names=names,
            badge=badge,
            copied=copied.get(summary.line, {}),
            extras=extras,
            compare=compare_links(summary.line, pairs),
        )
        badges += [(name, badge) for name in names]
    for name, (svg, endpoint) in badges:
        plan.add(f"badges/{name}.svg", _text(svg))
        plan.add(f"badges/{name}.json", _text(endpoint))


def _add_scenarios(plan: _Plan, dashboard: Dashboard, extras: _Extras) -> None:
    """A page for each scenario (which links every line's page)."""
    index = dashboard.index
    lines = api_text([s.links.page for s in index.lines])
    for page in dashboard.scenarios.scenarios:
        key = _digest(api_text(to_json(page)), lines, extras.key)
        plan.add(
            f"scenarios/{page.slug}.html",
            _File(key, partial(_scenario_page, page, index, extras.triage)),
        )


def _plan(
    dashboard: Dashboard,
    copied: Mapping[str, Mapping[str, Path]],
    matrix: MatrixFolder | None,
    aliases: Mapping[str, str],
    published: set[str],
    *,
    views: _Views | None = None,
    extras: _Extras | None = None,
) -> _Plan:
    """Every file of the site: the fixed ones first, then each line's, the aliases' badges and
    the scenario pages (an earlier file wins a clash)."""
    extras = extras or _Extras()
    plan = _Plan()
    index_text = _add_data(plan, dashboard, matrix)
    texts = {slug: api_text(to_json(h)) for slug, h in dashboard.lines.items()}
    _add_front(plan, dashboard, texts, index_text=index_text, views=views, extras=extras)
    if views is not None:
        _add_views(plan, views, dashboard, extras)
    _add_alias_record(plan, aliases, published, dashboard.index)
    pairs = views.pairs if views is not None else ()
    _add_lines(plan, dashboard, texts, copied=copied, aliases=aliases, extras=extras, pairs=pairs)
    _add_scenarios(plan, dashboard, extras)
    return plan


def _live_aliases(merged: Mapping[str, str], live: set[str], warnings: list[str]) -> dict[str, str]:
    """The aliases that can serve: an old name that is a line of its own again serves that
    line; one that is a line's or another alias's badge on a case-insensitive disk is dropped
    with a warning."""
    folded = {slug.casefold(): slug for slug in live}
    kept: dict[str, str] = {}
    for old, line in sorted(merged.items()):
        if old in live:
            continue
        other = folded.get(old.casefold())
        if other is not None:
            warnings.append(
                f"badge alias {old} → {line}: dropped; badges/{old}.svg would be "
                f"badges/{other}.svg on a case-insensitive disk"
            )
            continue
        folded[old.casefold()] = old
        kept[old] = line
    return kept


def _merged_aliases(
    given: Mapping[str, str],
    previous: Mapping[str, str],
    lines: set[str],
    warnings: list[str],
) -> dict[str, str]:
    """The previous build's aliases with the `given` ones over them (by the old name's slug);
    UsageError for a given alias whose old name is no plain badge name (`names.alias_name`:
    `../../x` would be served as `x-<digest>`, a name nobody gave) or that serves a line
    without runs, and a previous one to such a line is dropped with a warning (its badge stays
    as it was)."""
    merged = dict(previous)
    for old, line in given.items():
        if alias_name(old) is None:
            pair = f"{old}={line}"
            msg = f"publish: --alias {pair!r}: {old!r} is not a badge name ({ALIAS_NAME})"
            raise UsageError(msg)
        if line not in lines:
            msg = f"publish: --alias {old}={line}: the history has no line {line!r}"
            raise UsageError(msg)
        merged[line_slug(old)] = line
    for old, line in sorted(merged.items()):
        if line not in lines:
            warnings.append(
                f"badge alias {old} → {line}: {line} has no runs any more; its badge is kept "
                "as it was"
            )
            del merged[old]
    return merged


def _matrix_pages(
    runs: Iterable[RunRecord], matrices: Sequence[MatrixFolder], warnings: list[str]
) -> tuple[dict[str, dict[str, Path]], dict[str, LinePages]]:
    """The scorecard and claim pages of each line's latest assessment found in the matrices:
    line → page name → the file to copy, and which pages each line publishes. A line whose
    matrix row has no page is warned about."""
    copied: dict[str, dict[str, Path]] = {}
    pages: dict[str, LinePages] = {}
    for line, run in sorted(_latest_runs(runs).items()):
        folder, why = _row_for(line, run, matrices)
        if folder is None:
            if why is not None:
                warnings.append(f"{line}: {why}; the line's scorecard page is not published")
            continue
        found = {name: _page_of(folder, name) for name in ("scorecard.html", "claim.html")}
        copied[line] = {name: path for name, path in found.items() if path is not None}
        pages[line] = LinePages(scorecard_html=True, claim_html="claim.html" in copied[line])
    return copied, pages


def build_site(
    runs: Sequence[RunRecord],
    out: Path,
    *,
    matrices: Sequence[MatrixFolder] = (),
    aliases: Mapping[str, str] | None = None,
    triage: Sequence[TriageEntry] = (),
    base_url: str | None = None,
) -> SiteResult:
    """Build (or bring up to date) the dashboard of `runs` in `out`.

    `triage` entries are shown beside the failures they link to and judged (stale ones
    flagged, in the pages and in the result); `base_url` (the site's https address, ending in
    `/`) makes the badge panel's and the feed's URLs absolute.

    `aliases` maps an old line name to the line now serving its badge (a rename); they join
    the aliases of the previous build. An alias to a line without runs is refused (UsageError);
    a link in the way of the site's files, or a write that fails (a full disk), is a SiteError,
    and the site is then as it was.
    """
    root = Path(out).resolve()
    warnings: list[str] = []
    lines = {line_of(run) for run in runs}
    previous_aliases, published = _previous_aliases(root, warnings)
    merged = _merged_aliases(aliases or {}, previous_aliases, lines, warnings)
    copied, pages = _matrix_pages(runs, matrices, warnings)
    newest = max(matrices, key=lambda m: (m.matrix.finished_at, m.matrix.run_id), default=None)
    live = {line_slug(line) for line in lines}
    merged = _live_aliases(merged, live, warnings)
    # Each line's states, worked out once: the dashboard's documents and the nights read them.
    by_line = runs_by_line(runs)
    timelines = {line: timeline(line_runs) for line, line_runs in by_line.items()}
    dashboard = build_dashboard(
        runs, pages=pages, matrix=newest is not None, aliases=merged, timelines=timelines
    )
    views = _views(by_line, timelines, dashboard, warnings)
    statuses = tuple(judge_triage(triage, dashboard.scenarios, lines))
    extras = _Extras(triage=Triage(triage), statuses=statuses, base_url=base_url)
    plan = _plan(dashboard, copied, newest, merged, published, views=views, extras=extras)
    warnings += plan.warnings
    for gone in sorted(published - live - set(merged)):
        warnings.append(
            f"badge {gone}: no line of that name any more; badges/{gone}.svg is kept as it was "
            f"(to serve a renamed line there: --alias {gone}=NEW)"
        )
    result = _write(Path(out), root, plan.files, warnings)
    listed = tuple(s.line for s in dashboard.index.lines)
    return dataclasses.replace(result, triage=statuses, lines=listed)


def _check_links(out: Path, root: Path, paths: Iterable[str]) -> None:
    """SiteError for the first symbolic link at, or on the way to, one of `paths`."""
    for path in paths:
        link = site_link(root, path)
        if link is not None:
            msg = (
                f"publish: {out / link} is a symbolic link; publish writes and removes only "
                f"real files in real folders inside {out} (remove the link)"
            )
            raise SiteError(msg)


def _write(out: Path, root: Path, files: Mapping[str, _File], warnings: list[str]) -> SiteResult:
    """Stage every changed file and the new record, then put them all in place; then remove
    what the previous build wrote and this one does not (badges excepted)."""
    before = _previous_keys(root, warnings)
    removals = sorted(p for p in set(before) - set(files) if not p.startswith("badges/"))
    _check_links(out, root, [*files, MANIFEST, *removals])
    manifest = {
        "format": "tiercheck-site",
        "layout": LAYOUT,
        "files": {path: files[path].key for path in sorted(files)},
    }
    record = (json.dumps(manifest, indent=1, ensure_ascii=False) + "\n").encode()
    written: list[str] = []
    unchanged = 0
    stage = SiteStage(root)
    path = MANIFEST
    try:
        for path in sorted(files):
            entry = files[path]
            if entry.rendered and before.get(path) == entry.key and (root / path).is_file():
                unchanged += 1
                continue
            data = entry.make()
            if site_bytes(root / path) == data:
                unchanged += 1
                continue
            stage.add(path, data)
            written.append(path)
        path = MANIFEST
        if site_bytes(root / MANIFEST) != record:
            stage.add(MANIFEST, record)
        path = ""  # every file is staged: now onto the disk, all together
        stage.sync()
    except OSError as exc:
        stage.discard()
        where = out / path if path else f"the new files of {out} to disk"
        msg = (
            f"publish: cannot write {where}: {exc.strerror or exc}; the site in {out} is as it was"
        )
        raise SiteError(msg) from None
    except BaseException:
        stage.discard()
        raise
    try:
        stage.commit()
    except OSError as exc:
        msg = f"publish: cannot put the new files in place in {out}: {exc.strerror or exc}"
        raise SiteError(msg) from None
    removed = [p for p in removals if remove_site_file(root / p)]
    return SiteResult(
        written=tuple(written),
        unchanged=unchanged,
        removed=tuple(removed),
        warnings=tuple(warnings),
    )


def load_matrix_folder(folder: Path) -> MatrixFolder:
    """A matrix folder given to `publish --matrix`; ConfigError (one line) when it is not one."""
    from tiercheck.document_files import load_matrix

    path = folder / "matrix.json"
    if not path.is_file():
        msg = f"publish --matrix {folder}: no matrix.json there"
        raise UsageError(msg)
    return MatrixFolder(folder, load_matrix(path))
