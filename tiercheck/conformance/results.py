"""Reading what the conformance harness wrote: one `checks.json` per scenario run.

Layout (harness 0.2.0-alpha.12): the server leg writes `<out>/server-<scenario>-<ts>/checks.json`,
the client leg `<out>/<scenario>-<ts>/{checks.json,stdout.txt,stderr.txt}`, and scenario names
with a slash nest (`<out>/auth/<name>-<ts>/`). An inapplicable scenario leaves an empty
directory; a scenario that threw leaves no `checks.json`. Both read as zero checks here.

Pure apart from reading the given directory (each file through `config.safeload`): no scoring,
no knowledge of requirement sets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tiercheck.config.safeload import load_json
from tiercheck.errors import ConfigError
from tiercheck.revisions import Leg

__all__ = [
    "SEVERITY",
    "Check",
    "ScenarioResult",
    "SpecReference",
    "collapse_checks",
    "parse_checks",
    "parse_results",
    "scenario_name",
]

# The statuses the harness emits; anything else is kept verbatim and ranks like SKIPPED.
SUCCESS, FAILURE, WARNING, INFO, SKIPPED = "SUCCESS", "FAILURE", "WARNING", "INFO", "SKIPPED"

#: Rank used when an id repeats: the most severe occurrence wins (the harness's own collapse).
SEVERITY: dict[str, int] = {FAILURE: 3, WARNING: 2, SUCCESS: 1}

# The harness names each result directory `<scenario>-<ISO start time with ":" "." -> "-">`.
_TIMESTAMP = re.compile(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$")


@dataclass(frozen=True)
class SpecReference:
    """A pointer from a check to the spec text it enforces."""

    id: str
    url: str | None = None

    def to_dict(self) -> dict[str, str]:
        """JSON form, `{id, url?}` as in checks.json."""
        return {"id": self.id} | ({"url": self.url} if self.url else {})


@dataclass(frozen=True)
class Check:
    """One check as written by the harness (repeats not yet collapsed)."""

    id: str
    status: str
    message: str
    spec_references: tuple[SpecReference, ...] = ()
    name: str = ""

    @property
    def spec_url(self) -> str | None:
        """The first spec reference that has a URL, for a one-line pointer."""
        return next((r.url for r in self.spec_references if r.url), None)

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        return {
            "id": self.id,
            "status": self.status,
            "message": self.message,
            "specReferences": [r.to_dict() for r in self.spec_references],
        }


@dataclass(frozen=True)
class ScenarioResult:
    """Everything one scenario run left behind.

    `raw_checks` is checks.json as written (the pass rule and the check counts use it, as the
    official tier-check does); `checks` is the same list with repeated ids collapsed.
    """

    name: str
    path: Path
    raw_checks: tuple[Check, ...]
    parse_error: str | None = None

    @property
    def checks(self) -> tuple[Check, ...]:
        """The checks with repeated ids collapsed (most severe wins, INFO kept)."""
        return collapse_checks(self.raw_checks)

    @property
    def has_checks_file(self) -> bool:
        """False for an inapplicable (empty) or crashed scenario directory."""
        return (self.path / "checks.json").is_file()


def scenario_name(relative_dir: str, leg: Leg) -> str:
    """The scenario a result directory belongs to, e.g. `auth/dpop-2026-…Z` -> `auth/dpop`.

    The `server-` prefix is stripped on the server leg only: client scenario names may start
    with `server-` themselves.
    """
    name = _TIMESTAMP.sub("", relative_dir)
    if leg == "server":
        name = name.removeprefix("server-")
    return name


def collapse_checks(checks: Iterable[Check]) -> tuple[Check, ...]:
    """Collapse repeated check ids, as the harness does for baselines.

    Per id the most severe occurrence wins (FAILURE > WARNING > SUCCESS > anything else; ties go
    to the later one) and stays at the position of the id's first appearance. INFO checks are
    notes, not verdicts: every one is kept.
    """
    out: list[Check] = []
    index: dict[str, int] = {}
    for check in checks:
        if check.status == INFO:
            out.append(check)
            continue
        at = index.get(check.id)
        if at is None:
            index[check.id] = len(out)
            out.append(check)
        elif SEVERITY.get(check.status, 0) >= SEVERITY.get(out[at].status, 0):
            out[at] = check
    return tuple(out)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _references(value: object) -> tuple[SpecReference, ...]:
    if not isinstance(value, list):
        return ()
    refs = []
    for item in value:
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            url = item.get("url")
            refs.append(SpecReference(item["id"], url if isinstance(url, str) else None))
    return tuple(refs)


def parse_checks(data: object) -> tuple[Check, ...]:
    """Turn decoded checks.json into Checks; raises ValueError if it is not a list of objects."""
    if not isinstance(data, list):
        msg = f"expected a JSON array of checks, got {type(data).__name__}"
        raise ValueError(msg)
    checks = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("status"), str):
            msg = f"check [{i}] is not an object with a status"
            raise ValueError(msg)
        message = _text(item.get("errorMessage")) or _text(item.get("description"))
        checks.append(
            Check(
                id=_text(item.get("id")) or _text(item.get("name")) or f"#{i}",
                status=item["status"],
                message=message,
                spec_references=_references(item.get("specReferences")),
                name=_text(item.get("name")),
            )
        )
    return tuple(checks)


def _read_scenario(path: Path, name: str) -> ScenarioResult:
    checks_file = path / "checks.json"
    if not checks_file.is_file():
        return ScenarioResult(name=name, path=path, raw_checks=())
    try:
        # Through the one safe loader: a checks.json that is not UTF-8, nests without end or
        # is not JSON is this scenario's parse error, never a crash of the whole run.
        checks = parse_checks(load_json(checks_file))
    except ConfigError as exc:
        return ScenarioResult(name=name, path=path, raw_checks=(), parse_error=exc.message)
    except ValueError as exc:
        return ScenarioResult(name=name, path=path, raw_checks=(), parse_error=str(exc))
    return ScenarioResult(name=name, path=path, raw_checks=checks)


def _scenario_dirs(root: Path) -> Iterable[Path]:
    # A directory named `<x>-<timestamp>` is one scenario run; any other directory (auth/)
    # only groups scenarios. Sorted so that results come out in a stable order.
    for child in sorted(root.iterdir()):
        if not child.is_dir():
            continue
        if _TIMESTAMP.search(child.name):
            yield child
        else:
            yield from _scenario_dirs(child)


def parse_results(results_dir: Path, leg: Leg) -> tuple[ScenarioResult, ...]:
    """Every scenario result under a leg's output directory (none if it does not exist).

    If one scenario was run twice into the same directory, the later run (by timestamp) wins.
    """
    if not results_dir.is_dir():
        return ()
    found: dict[str, ScenarioResult] = {}
    for path in _scenario_dirs(results_dir):
        name = scenario_name(path.relative_to(results_dir).as_posix(), leg)
        previous = found.get(name)
        if previous is None or previous.path.name < path.name:
            found[name] = _read_scenario(path, name)
    return tuple(found.values())
