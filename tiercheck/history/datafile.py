"""One run as a small, diffable JSON file of a history data folder (pure).

A data folder (a `data` branch the nightly commits to, say) holds the history as plain files,
so it survives without workflow artifacts and `git log` is its log:

    tiercheck-history.json           the folder's format and version, written once
    runs/<line>/<stamp>-<key>.json   one run: what the SQLite history keeps of it

Each run file holds everything `RunRecord` holds — the verdicts of every scenario of every
measured leg, the legs' states and scores, the tier, the versions, the digests — and nothing
else: the raw `checks.json` files `--reuse` scores again stay in the local database. A file is
named by its time and the run's identity (`<line>` is `line_slug`), so it is written once and
never changes; a night adds files and never edits one. The name is only where the file is
written: a reader knows the run by what the file holds (`run_key` of `record_of_file`). Its
text puts one leg or one scenario on a line, so a diff between two nights' files reads as the
verdicts that changed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any, ClassVar

from tiercheck.history.record import (
    DisputeRecord,
    LegRow,
    RunRecord,
    ScenarioRow,
    UnaddressedRecord,
    bounded,
    parse_time,
    record_problem,
    run_key,
)
from tiercheck.model import ModelError, doc_field, from_json, to_json
from tiercheck.plaintext import NAME_CHARS

#: The schema of a name an SDK, its repository or the harness writes (`record.bounded`).
_NAME = {"maxLength": NAME_CHARS}

__all__ = [
    "DATA_MARKER",
    "FOLDER_FORMAT",
    "FOLDER_VERSION",
    "RUN_FORMAT",
    "SCHEMA_VERSION",
    "DataFolder",
    "RunFile",
    "claims_a_run",
    "line_slug",
    "newer_schema",
    "record_of_file",
    "run_file_name",
    "run_file_of",
    "run_file_text",
]

#: The version of the run files this tiercheck writes (and the newest it reads). 2 added a
#: run's `unaddressed`: a file of version 1 has none, and reads as not recorded. 3 added the
#: verdict as the run recorded it: `sep_tier`, `nothing_measured`, and a scenario's `dispute`,
#: `expected` and `unmeasured`; an older file has none of them, and reads as a run that
#: measured something, with no dispute, expected failure or unmeasured scenario recorded. 4
#: added a run's `definitions` (per scenario the digest of its definition in the harness): an
#: older file has none, and reads as not recorded. 5 bounds every text an SDK, its repository
#: or the harness writes (`record.bounded`: a name 200 characters, a message or reason 4096,
#: a cut one saying so with a digest of the whole; `maxLength` in the schema): an older file's
#: longer text is cut as it is read, as it would have been when recorded. 6 added a
#: scenario's `flaky` (it failed beside other work and passed by itself): an older file has
#: none, and reads as no scenario flaky within its run.
SCHEMA_VERSION = 6
#: The version of the folder's layout (its marker file) this tiercheck writes and reads.
FOLDER_VERSION = 1
#: The file at the root of a data folder that says what the folder is.
DATA_MARKER = "tiercheck-history.json"
RUN_FORMAT = "tiercheck-history-run"
FOLDER_FORMAT = "tiercheck-history"

_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


@lru_cache(maxsize=4096)  # a site names each line in every page, row and link of it
def line_slug(name: str) -> str:
    """`name` as one path segment of a file name or URL that never changes for that name, and
    that no other name's slug equals in any letter case (a case-insensitive checkout of a data
    branch or a site holds each line's files apart).

    A lowercase registry name (`python-sdk-v1`) is its own slug. Any other name is lowercased,
    its unsafe characters replaced, and a digest of the exact name added (`Go-SDK` →
    `go-sdk-<digest>`, `someone/go-sdk` → `someone-go-sdk-<digest>`), so `go-sdk` and `Go-SDK`
    never share one.
    """
    if _SAFE.fullmatch(name) and name == name.lower():
        return name
    readable = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")[:60].lower() or "line"
    # Never raises: a lone surrogate has no UTF-8 form, but it has this one.
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{readable}-{digest}"


def _stamp(record: RunRecord) -> str:
    return record.timestamp.isoformat().replace("+00:00", "Z")


def run_file_name(record: RunRecord) -> str:
    """`runs/<line>/<YYYYMMDDTHHMMSSZ>-<key>.json`: sorted by time in a listing, one per run."""
    moment = record.timestamp.strftime("%Y%m%dT%H%M%SZ")
    return f"runs/{line_slug(record.sdk)}/{moment}-{run_key(record)[:12]}.json"


@dataclass(frozen=True, kw_only=True)
class RunFile:
    """One run of an SDK line, as a history data folder keeps it (`runs/<line>/…json`)."""

    json_tag: ClassVar[tuple[str, str]] = ("format", RUN_FORMAT)

    schema_version: int = doc_field(doc="the version of this file's layout", schema={"minimum": 1})
    run_id: str = doc_field(doc="the run's id (its output folder's name)")
    timestamp: str = doc_field(doc="when the run finished, ISO-8601 UTC")
    sdk: str = doc_field(doc="the SDK line", schema=_NAME)
    repo: str = doc_field(schema=_NAME)
    ref: str | None = doc_field(schema=_NAME)
    commit: str | None = doc_field(schema=_NAME)
    tiercheck_version: str = doc_field()
    harness_version: str | None = doc_field(
        doc="the conformance harness that ran the legs", schema=_NAME
    )
    node_version: str | None = doc_field(schema=_NAME)
    requirements_digest: str | None = doc_field(
        doc="a digest of the requirement sets scored against (null: not recorded)"
    )
    revisions: tuple[str, ...] = doc_field(doc="the spec revisions scored")
    config_digest: str = doc_field(doc="a digest of the resolved configuration")
    tier: int = doc_field(doc="the implied tier (official reading)")
    blockers: tuple[str, ...]
    governance_digest: str
    signals: Mapping[str, str] = doc_field(doc="governance check → status")
    interrupted: bool
    unaddressed: UnaddressedRecord | None = doc_field(
        default=None,
        omit_none=True,
        doc="SEP-1730's issues unaddressed for two months as the run judged them; absent: not "
        "recorded (a file older than the field), never none",
    )
    sep_tier: int | None = doc_field(
        default=None,
        omit_none=True,
        doc="SEP-1730's tier as the run read it (absent: not recorded)",
        schema={"minimum": 0},
    )
    nothing_measured: bool = doc_field(
        default=False,
        doc="the run measured no leg (exit 3): it has no tier and is never a baseline",
    )
    definitions: Mapping[str, str] | None = doc_field(
        default=None,
        omit_none=True,
        doc="scenario → a digest of its definition in the harness that ran it: what says "
        "which scenarios a referee change changed (absent: not recorded)",
        schema={"propertyNames": _NAME},
    )
    legs: tuple[LegRow, ...]
    scenarios: tuple[ScenarioRow, ...]


@dataclass(frozen=True, kw_only=True)
class DataFolder:
    """The root file of a history data folder: what the folder is, in which version."""

    json_tag: ClassVar[tuple[str, str]] = ("format", FOLDER_FORMAT)

    schema_version: int = doc_field(doc="the version of the folder's layout", schema={"minimum": 1})
    layout: str = doc_field(doc="where the runs are")


#: The fields a run record and its data file share (all but the file's layout version, and the
#: time, which the file writes as text).
_SHARED = tuple(
    f.name
    for f in dataclasses.fields(RunRecord)
    if f.name != "timestamp" and f.name in {g.name for g in dataclasses.fields(RunFile)}
)


def _shared(source: RunRecord | RunFile) -> dict[str, Any]:
    """What a run record and its data file both hold, under the same names, copied over."""
    values = {name: getattr(source, name) for name in _SHARED}
    values["signals"] = dict(source.signals)
    return values


def run_file_of(record: RunRecord) -> RunFile:
    """The data file of a run."""
    return RunFile(schema_version=SCHEMA_VERSION, timestamp=_stamp(record), **_shared(record))


def run_file_text(record: RunRecord) -> str:
    """The text of a run's file: one key per line, and one leg or scenario per line."""
    header = run_file_of(dataclasses.replace(record, legs=(), scenarios=()))
    data: dict[str, Any] = to_json(header)
    # The lines of legs and scenarios are written straight from the rows (the same keys and
    # order as the model writes `LegRow` and `ScenarioRow`): a year of nights is millions of them.
    data["legs"] = [
        {
            "revision": x.revision,
            "leg": x.leg,
            "state": x.state,
            "reason": x.reason,
            "pass_rate": x.pass_rate,
            "passed": x.passed,
            "total": x.total,
        }
        for x in record.legs
    ]
    data["scenarios"] = [_scenario_line(r) for r in record.scenarios]
    lines = []
    for key, value in data.items():
        name = json.dumps(key)
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            items = ",\n".join(f"    {json.dumps(v, ensure_ascii=False)}" for v in value)
            lines.append(f"  {name}: [\n{items}\n  ]")
        else:
            lines.append(f"  {name}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _scenario_line(r: ScenarioRow) -> dict[str, Any]:
    line: dict[str, Any] = {
        "revision": r.revision,
        "leg": r.leg,
        "scenario": r.scenario,
        "passed": r.passed,
        "scored": r.scored,
        "check": r.check,
        "message": r.message,
    }
    if r.dispute is not None:
        line["dispute"] = {"state": r.dispute.state, "issue": r.dispute.issue}
    if r.expected is not None:
        line["expected"] = r.expected
    if r.unmeasured is not None:
        line["unmeasured"] = r.unmeasured
    if r.flaky is not None:
        line["flaky"] = r.flaky
    return line


#: The keys of a leg and a scenario line, and the types of their values (None: may be null).
_LEG_KEYS: dict[str, tuple[type, ...]] = {
    "revision": (str,),
    "leg": (str,),
    "state": (str,),
    "reason": (str, type(None)),
    "pass_rate": (float, int),
    "passed": (int,),
    "total": (int,),
}
_SCENARIO_KEYS: dict[str, tuple[type, ...]] = {
    "revision": (str,),
    "leg": (str,),
    "scenario": (str,),
    "passed": (bool,),
    "scored": (bool,),
    "check": (str, type(None)),
    "message": (str, type(None)),
}
#: The keys a scenario line may leave out (none, or a file older than them), and their types.
_SCENARIO_OPTIONAL: dict[str, tuple[type, ...]] = {
    "dispute": (dict,),
    "expected": (bool,),
    "unmeasured": (bool,),
    "flaky": (bool,),
}
_NAMES = {
    str: "a string",
    float: "a number",
    int: "an integer",
    bool: "a boolean",
    dict: "an object",
}


def _items(
    data: dict[str, Any],
    field: str,
    keys: dict[str, tuple[type, ...]],
    optional: dict[str, tuple[type, ...]] | None = None,
) -> list[list[Any]]:
    """The values of every object of the list `field`, in `keys` order then `optional`'s
    (None where one is left out), each checked.

    Run files hold hundreds of scenario lines each and a data folder thousands of files: this
    checks them directly rather than through the generic model reader, with the same rules
    (every required key present, no other, each value of its type)."""
    items = data.get(field)
    if not isinstance(items, list):
        raise ModelError(field, "expected a list")
    out: list[list[Any]] = []
    extras = optional or {}
    names = set(keys)
    allowed = names | set(extras)
    for i, item in enumerate(items):
        where = f"{field}[{i}]"
        if not isinstance(item, dict):
            raise ModelError(where, "expected an object")
        if not names <= item.keys() <= allowed:
            extra = sorted(set(item) - allowed)
            if extra:
                raise ModelError(f"{where}.{extra[0]}", "not a field of this document")
            raise ModelError(f"{where}.{sorted(names - set(item))[0]}", "missing")
        values: list[Any] = []
        for key, kinds in (keys | extras).items():
            if key not in item:
                values.append(None)
                continue
            value = item[key]
            # bool is an int in Python: only a field that wants a boolean takes one.
            if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
                want = " or ".join(_NAMES.get(k, "null") for k in kinds)
                raise ModelError(f"{field}[{i}].{key}", f"expected {want}")
            values.append(value)
        out.append(values)
    return out


def claims_a_run(data: object) -> bool:
    """Whether decoded JSON says it is a run file (its `format`): anything else in a data
    folder is not tiercheck's, and is left alone."""
    return isinstance(data, dict) and data.get("format") == RUN_FORMAT


def newer_schema(data: object, source: str) -> str | None:
    """The one-line refusal of a run file written by a newer tiercheck, or None."""
    version = data.get("schema_version") if isinstance(data, dict) else None
    if not isinstance(version, int) or isinstance(version, bool) or version <= SCHEMA_VERSION:
        return None
    shown = version if version < 10**6 else "far beyond any"
    return (
        f"{source}: a run file of schema version {shown}, newer than this tiercheck's "
        f"({SCHEMA_VERSION}); upgrade tiercheck"
    )


def record_of_file(data: object, source: str) -> RunRecord:
    """The run a data file holds, its texts within their bounds (`record.bounded`: a file of
    version 4 or older may hold longer ones); ValueError (one line, naming `source`) when it is
    not one, or holds a value the history cannot (a tier, count, pass rate or time out of
    range)."""
    newer = newer_schema(data, source)
    if newer is not None:
        raise ValueError(newer)
    try:
        if not isinstance(data, dict):
            raise ModelError("", "expected an object")
        legs = _items(data, "legs", _LEG_KEYS)
        scenarios = _items(data, "scenarios", _SCENARIO_KEYS, _SCENARIO_OPTIONAL)
        # The rest through the model (a few fields): the same rules as every document.
        run = from_json(RunFile, {**data, "legs": [], "scenarios": []})
        timestamp = parse_time(run.timestamp)
        record = _record(run, timestamp, legs, scenarios)
    except (ModelError, ValueError, OverflowError) as exc:
        raise ValueError(f"{source}: not a tiercheck run file: {exc}") from None
    problem = record_problem(record)
    if problem is not None:
        raise ValueError(f"{source}: not a tiercheck run file: {problem}")
    return bounded(record)


def _record(
    run: RunFile, timestamp: datetime, legs: list[list[Any]], scenarios: list[list[Any]]
) -> RunRecord:
    values = _shared(run)
    values["legs"] = tuple(
        # A pass rate written as an integer of hundreds of digits has no float: OverflowError.
        LegRow(rev, leg, state, reason, float(rate), passed, total)
        for rev, leg, state, reason, rate, passed, total in legs
    )
    values["scenarios"] = tuple(
        ScenarioRow(
            rev,
            leg,
            name,
            passed,
            scored,
            check,
            message,
            _dispute(dispute, i),
            expected,
            gap,
            flaky,
        )
        for i, (rev, leg, name, passed, scored, check, message, dispute, expected, gap, flaky) in (
            enumerate(scenarios)
        )
    )
    return RunRecord(timestamp=timestamp, **values)


def _dispute(value: dict[str, Any] | None, index: int) -> DisputeRecord | None:
    """A scenario line's `dispute`: {"state": "open" or "resolved", "issue": URL}."""
    if value is None:
        return None
    where = f"scenarios[{index}].dispute"
    if value.keys() != {"state", "issue"}:
        raise ModelError(where, "expected an object of state and issue")
    state, issue = value["state"], value["issue"]
    if state not in ("open", "resolved"):
        raise ModelError(f"{where}.state", "expected open or resolved")
    if not isinstance(issue, str):
        raise ModelError(f"{where}.issue", "expected a string")
    return DisputeRecord("open" if state == "open" else "resolved", issue)
