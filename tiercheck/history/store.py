"""The history database: SQLite (stdlib), WAL, schema versions migrated forward.

Every failure of the database (corrupt file, locked past the busy timeout, a schema written by
a newer tiercheck, a full disk) is raised as one `HistoryError` with a one-line message; the
command layer turns it into a warning, so history is never the reason a run fails.

Why SQLite in WAL mode: a nightly matrix runs several assessments at once on one machine, and
WAL lets each append in its own short transaction while readers go on; `busy_timeout` makes a
writer wait for another's commit instead of failing.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, closing, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from tiercheck import locks
from tiercheck.history.record import (
    DisputeRecord,
    LegRow,
    RunRecord,
    ScenarioRow,
    UnaddressedRecord,
    parse_time,
    run_key,
)
from tiercheck.plaintext import NAME_CHARS, TEXT_CHARS, cut

__all__ = [
    "SCHEMA_VERSION",
    "HistoryError",
    "HistoryStore",
    "ReuseKey",
    "StoredLegResults",
]

#: Each entry takes the schema from version i to i + 1; a new version is a new entry, appended.
_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        run_id TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        sdk TEXT NOT NULL,
        repo TEXT NOT NULL,
        ref TEXT,
        commit_sha TEXT,
        tiercheck_version TEXT NOT NULL,
        harness_version TEXT,
        node_version TEXT,
        revisions TEXT NOT NULL,
        config_digest TEXT NOT NULL,
        tier INTEGER NOT NULL,
        blockers TEXT NOT NULL,
        governance_digest TEXT NOT NULL,
        signals TEXT NOT NULL,
        interrupted INTEGER NOT NULL
    );
    CREATE INDEX runs_by_sdk ON runs (sdk, timestamp);
    CREATE TABLE legs (
        run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        revision TEXT NOT NULL,
        leg TEXT NOT NULL,
        state TEXT NOT NULL,
        reason TEXT,
        pass_rate REAL NOT NULL,
        passed INTEGER NOT NULL,
        total INTEGER NOT NULL,
        PRIMARY KEY (run, revision, leg)
    );
    CREATE TABLE scenarios (
        run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        revision TEXT NOT NULL,
        leg TEXT NOT NULL,
        scenario TEXT NOT NULL,
        passed INTEGER NOT NULL,
        scored INTEGER NOT NULL,
        check_id TEXT,
        message TEXT,
        PRIMARY KEY (run, revision, leg, scenario)
    );
    """,
    """
    CREATE TABLE leg_results (
        run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        revision TEXT NOT NULL,
        leg TEXT NOT NULL,
        files TEXT NOT NULL,
        PRIMARY KEY (run, revision, leg)
    );
    ALTER TABLE runs ADD COLUMN requirements_digest TEXT;
    CREATE INDEX runs_by_key ON runs (commit_sha, config_digest, harness_version);
    """,
    # SEP-1730's issues unaddressed for two months, as JSON (`UnaddressedRecord`); NULL: the
    # run did not record it (every run stored before this version).
    """
    ALTER TABLE runs ADD COLUMN unaddressed TEXT;
    """,
    # The verdict as the run recorded it: SEP-1730's tier, whether nothing was measured, and
    # per scenario its dispute that day, whether the baseline expected its failure and whether
    # it went unmeasured in a measured leg. NULL
    # (a run stored before this version): not recorded, read as no dispute, not expected,
    # and something measured (the only runs stored then).
    """
    ALTER TABLE runs ADD COLUMN sep_tier INTEGER;
    ALTER TABLE runs ADD COLUMN nothing_measured INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE scenarios ADD COLUMN dispute_state TEXT;
    ALTER TABLE scenarios ADD COLUMN dispute_issue TEXT;
    ALTER TABLE scenarios ADD COLUMN expected INTEGER;
    ALTER TABLE scenarios ADD COLUMN unmeasured INTEGER;
    """,
    # Per scenario the digest of its definition in the harness that ran it, as JSON
    # (`RunRecord.definitions`); NULL: the run did not record it (every run stored before).
    """
    ALTER TABLE runs ADD COLUMN definitions TEXT;
    """,
    # Every text an SDK or the harness wrote within its bound, as `record.bounded` keeps it
    # since (a scenario's name and check id, its message, a leg's reason), cut by the one cut
    # (`plaintext.cut`, registered as `tiercheck_cut` while migrating). The line's name, ref
    # and repository make each run's key, so a run stored before keeps them as they were.
    f"""
    UPDATE scenarios SET scenario = tiercheck_cut(scenario, {NAME_CHARS})
        WHERE length(scenario) > {NAME_CHARS};
    UPDATE scenarios SET check_id = tiercheck_cut(check_id, {NAME_CHARS})
        WHERE length(check_id) > {NAME_CHARS};
    UPDATE scenarios SET message = tiercheck_cut(message, {TEXT_CHARS})
        WHERE length(message) > {TEXT_CHARS};
    UPDATE legs SET reason = tiercheck_cut(reason, {TEXT_CHARS})
        WHERE length(reason) > {TEXT_CHARS};
    """,  # noqa: S608 (the numbers are ours)
    # Per scenario whether it was flaky within the run (failed beside other work, passed by
    # itself); NULL: not so, or a run stored before this version.
    """
    ALTER TABLE scenarios ADD COLUMN flaky INTEGER;
    """,
)
SCHEMA_VERSION = len(_MIGRATIONS)


class HistoryError(Exception):
    """The history database cannot be used; the message is one line."""


@dataclass(frozen=True)
class ReuseKey:
    """What must be equal for a stored run's verdicts to stand for a new run."""

    sdk: str
    commit: str
    config_digest: str
    harness_version: str
    requirements_digest: str
    revisions: tuple[str, ...]


#: Relative path of each checks.json under the leg's results folder → its text.
StoredLegResults = Mapping[str, str]


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _insert_run(
    conn: sqlite3.Connection, key: str, r: RunRecord, requirements_digest: str | None
) -> int | None:
    """Add the runs row of `r` (stored under `key`); its row id, which its other rows name."""
    cursor = conn.execute(
        "INSERT INTO runs (key, run_id, timestamp, sdk, repo, ref, commit_sha,"
        " tiercheck_version, harness_version, node_version, revisions, config_digest, tier,"
        " blockers, governance_digest, signals, interrupted, requirements_digest,"
        " unaddressed, sep_tier, nothing_measured, definitions)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            key,
            r.run_id,
            r.timestamp.isoformat(),
            r.sdk,
            r.repo,
            r.ref,
            r.commit,
            r.tiercheck_version,
            r.harness_version,
            r.node_version,
            json.dumps(list(r.revisions)),
            r.config_digest,
            r.tier,
            json.dumps(list(r.blockers)),
            r.governance_digest,
            json.dumps(dict(r.signals)),
            int(r.interrupted),
            requirements_digest,
            _unaddressed_text(r.unaddressed),
            r.sep_tier,
            int(r.nothing_measured),
            None if r.definitions is None else json.dumps(dict(r.definitions), sort_keys=True),
        ),
    )
    return cursor.lastrowid


def _insert_verdicts(conn: sqlite3.Connection, run: int | None, r: RunRecord) -> None:
    """Add the legs and scenarios rows of `r`, under its runs row `run`."""
    conn.executemany(
        "INSERT INTO legs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (run, x.revision, x.leg, x.state, x.reason, x.pass_rate, x.passed, x.total)
            for x in r.legs
        ],
    )
    conn.executemany(
        "INSERT INTO scenarios VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                run,
                s.revision,
                s.leg,
                s.scenario,
                int(s.passed),
                int(s.scored),
                s.check,
                s.message,
                s.dispute.state if s.dispute else None,
                s.dispute.issue if s.dispute else None,
                None if s.expected is None else int(s.expected),
                None if s.unmeasured is None else int(s.unmeasured),
                None if s.flaky is None else int(s.flaky),
            )
            for s in r.scenarios
        ],
    )


class HistoryStore:
    """One history database file. Each method opens, works and closes its own connection."""

    def __init__(self, path: Path, *, busy_timeout_s: float = 30.0) -> None:
        self.path = Path(path)
        self._busy_timeout_s = busy_timeout_s

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=self._busy_timeout_s, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            msg = f"history {self.path}: cannot open: {_one_line(exc)}"
            raise HistoryError(msg) from None
        with closing(conn):
            try:
                self._prepare(conn)
                yield conn
            except sqlite3.Error as exc:
                msg = f"history {self.path}: {_one_line(exc)}"
                raise HistoryError(msg) from None
            except (OverflowError, UnicodeEncodeError) as exc:
                # A number beyond SQLite's 64 bits, or text with no UTF-8 form (a lone
                # surrogate): the transaction was rolled back, nothing was stored.
                msg = f"history {self.path}: a value the database cannot hold: {_one_line(exc)}"
                raise HistoryError(msg) from None

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Switch to WAL and migrate, one process at a time, retried within the busy timeout.

        Why: while one process creates the file or switches it to WAL, another's first statement
        can get "database is locked" at once, without SQLite's busy wait (a rollback-journal
        lock upgrade that would deadlock is refused, not waited for). Matrix rows writing one
        history open a fresh database together, so the first open is serialised by an advisory
        lock on a file beside the database, and a busy answer is retried until the timeout.
        """
        deadline = time.monotonic() + self._busy_timeout_s
        while True:
            try:
                with _setup_lock(self.path, deadline):
                    conn.execute("PRAGMA journal_mode=WAL")
                    conn.execute("PRAGMA foreign_keys=ON")
                    self._migrate(conn)
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.02)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise _newer_schema(self.path, version)
        if version == SCHEMA_VERSION:
            return
        conn.create_function("tiercheck_cut", 2, cut, deterministic=True)
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Read again under the write lock: another writer may have migrated meanwhile.
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            for step in range(version, SCHEMA_VERSION):
                for statement in _MIGRATIONS[step].split(";"):
                    if statement.strip():
                        conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def check_readable(self) -> None:
        """Raise HistoryError if the file is not a database this tiercheck can use.

        Read-only: nothing is created, migrated or switched to WAL, so checking a file before
        a run never changes it.
        """
        try:
            conn = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=self._busy_timeout_s
            )
        except (OSError, sqlite3.Error) as exc:
            msg = f"history {self.path}: cannot open: {_one_line(exc)}"
            raise HistoryError(msg) from None
        with closing(conn):
            try:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
                version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            except sqlite3.Error as exc:
                msg = f"history {self.path}: {_one_line(exc)}"
                raise HistoryError(msg) from None
        if version > SCHEMA_VERSION:
            raise _newer_schema(self.path, version)

    def schema_version(self) -> int:
        """The schema version of the file (migrating it forward first)."""
        with self._connect() as conn:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])

    def append(
        self,
        record: RunRecord,
        *,
        requirements_digest: str | None = None,
        leg_results: Mapping[tuple[str, str], StoredLegResults] | None = None,
    ) -> bool:
        """Add one run in one transaction; False when a run of that id is already stored.

        `requirements_digest` defaults to the record's own.
        """
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                added = self._insert(conn, record, requirements_digest, leg_results or {})
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return added

    def append_many(
        self,
        records: Sequence[RunRecord],
        *,
        leg_results: Mapping[str, Mapping[tuple[str, str], StoredLegResults]] | None = None,
    ) -> int:
        """Add many runs in one transaction (an import); how many were new.

        One transaction, so a year of nightly runs lands in seconds, and a failure adds none.
        `leg_results` holds the raw results of a run by its key (`run_key`).
        """
        results = leg_results or {}
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                added = sum(self._insert(conn, r, None, results.get(_key(r), {})) for r in records)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return added

    @staticmethod
    def _insert(
        conn: sqlite3.Connection,
        r: RunRecord,
        requirements_digest: str | None,
        leg_results: Mapping[tuple[str, str], StoredLegResults],
    ) -> bool:
        """Add one run's rows (its run, legs, scenarios and raw leg results); False, adding
        nothing, when a run of that key is already stored."""
        key = _key(r)
        known = conn.execute("SELECT 1 FROM runs WHERE key = ?", (key,)).fetchone()
        if known:
            return False
        digest = requirements_digest if requirements_digest is not None else r.requirements_digest
        run = _insert_run(conn, key, r, digest)
        _insert_verdicts(conn, run, r)
        conn.executemany(
            "INSERT INTO leg_results VALUES (?, ?, ?, ?)",
            [
                (run, rev, leg, json.dumps(dict(files), sort_keys=True))
                for (rev, leg), files in leg_results.items()
            ],
        )
        return True

    def runs(
        self,
        sdk: str | None = None,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[RunRecord]:
        """Stored runs (of one SDK line), oldest first."""
        where, params = ("WHERE sdk = ?", [sdk]) if sdk is not None else ("", [])
        with self._connect() as conn:
            conn.row_factory = sqlite3.Row
            rows = conn.execute(
                f"SELECT * FROM runs {where} ORDER BY timestamp, run_id, sdk, key",  # noqa: S608
                params,
            ).fetchall()
            legs = _grouped_legs(conn, where, params)
            scenarios = _grouped_scenarios(conn, where, params)
        records = [
            _record(row, legs.get(row["id"], []), scenarios.get(row["id"], [])) for row in rows
        ]
        return [
            r
            for r in records
            if (since is None or r.timestamp >= since) and (until is None or r.timestamp <= until)
        ]

    def sdks(self) -> list[str]:
        """The SDK lines with stored runs."""
        with self._connect() as conn:
            return [row[0] for row in conn.execute("SELECT DISTINCT sdk FROM runs ORDER BY sdk")]

    def reusable(
        self, key: ReuseKey
    ) -> tuple[RunRecord, dict[tuple[str, str], StoredLegResults]] | None:
        """The newest stored run whose verdicts may stand for a run of `key`, with the raw
        results of its measured legs; None if there is none.

        Only a run that was not interrupted, measured every leg it planned (skipped legs aside)
        and kept the raw results of each is taken: an unmeasured leg is never re-used.
        """
        for record in reversed(self.runs(key.sdk)):  # newest first
            if (
                record.commit != key.commit
                or record.config_digest != key.config_digest
                or record.harness_version != key.harness_version
                or record.revisions != key.revisions
                or not record.all_measured
            ):
                continue
            with self._connect() as conn:
                run, digest = conn.execute(
                    "SELECT id, requirements_digest FROM runs WHERE key = ?", (_key(record),)
                ).fetchone()
                if digest != key.requirements_digest:
                    continue
                stored = {
                    (rev, leg): json.loads(files)
                    for rev, leg, files in conn.execute(
                        "SELECT revision, leg, files FROM leg_results WHERE run = ?",
                        (run,),
                    )
                }
            measured = {(x.revision, x.leg) for x in record.legs if x.state == "measured"}
            if measured and measured <= stored.keys():
                return record, {k: stored[k] for k in measured}
        return None


def _grouped_legs(
    conn: sqlite3.Connection, where: str, params: Sequence[object]
) -> dict[int, list[LegRow]]:
    # One query per table, not per run; plain tuples, built straight into rows: a year of
    # nightly runs of ten lines is half a million scenario rows.
    out: dict[int, list[LegRow]] = {}
    query = (
        "SELECT t.run, t.revision, t.leg, t.state, t.reason, t.pass_rate, t.passed, t.total "  # noqa: S608
        f"FROM legs t JOIN runs ON runs.id = t.run {where} ORDER BY t.rowid"
    )
    cursor = conn.cursor()
    cursor.row_factory = None
    for run, *rest in cursor.execute(query, params):
        out.setdefault(run, []).append(LegRow(*rest))
    return out


def _grouped_scenarios(
    conn: sqlite3.Connection, where: str, params: Sequence[object]
) -> dict[int, list[ScenarioRow]]:
    """Each run's scenario rows, by the run's id, in the order they were stored.

    A row is a frozen value, and most of a line's rows are the night before's, field for
    field (a scenario passing night after night): each distinct row is made once and shared
    by every run that stored it. A year of ten lines is 531,300 rows of a few thousand
    distinct values, so this makes a few thousand objects, not half a million, and keeps one
    copy of each check id and message."""
    out: dict[int, list[ScenarioRow]] = {}
    made: dict[tuple[Any, ...], ScenarioRow] = {}
    query = (
        "SELECT t.revision, t.leg, t.scenario, t.passed, t.scored, t.check_id, "  # noqa: S608
        "t.message, t.dispute_state, t.dispute_issue, t.expected, t.unmeasured, t.flaky, t.run "
        f"FROM scenarios t JOIN runs ON runs.id = t.run {where} ORDER BY t.rowid"
    )
    cursor = conn.cursor()
    cursor.row_factory = None
    current: int | None = None
    rows: list[ScenarioRow] = []
    for found in cursor.execute(query, params):
        run = found[12]
        if run != current:
            current = run
            rows = out.setdefault(run, [])
        value = found[:12]
        row = made.get(value)
        if row is None:
            row = made[value] = _scenario_row(value)
        rows.append(row)
    return out


def _scenario_row(value: tuple[Any, ...]) -> ScenarioRow:
    """The row of one stored scenario (the columns `_grouped_scenarios` reads, run aside)."""
    revision, leg, name, passed, scored, check, message, *rest = value
    state, issue, expected, unmeasured, flaky = rest
    return ScenarioRow(
        revision,
        leg,
        name,
        bool(passed),
        bool(scored),
        check,
        message,
        dispute=_dispute_of(state, issue),
        expected=None if expected is None else bool(expected),
        unmeasured=None if unmeasured is None else bool(unmeasured),
        flaky=None if flaky is None else bool(flaky),
    )


def _dispute_of(state: object, issue: object) -> DisputeRecord | None:
    """A stored dispute, or None (none recorded, or a state this tiercheck does not know)."""
    if state in ("open", "resolved") and isinstance(issue, str):
        return DisputeRecord("open" if state == "open" else "resolved", issue)
    return None


def _key(r: RunRecord) -> str:
    """What makes a run itself (the same key names its file in a data folder)."""
    return run_key(r)


def _record(
    row: sqlite3.Row, legs: Sequence[LegRow], scenarios: Sequence[ScenarioRow]
) -> RunRecord:
    return RunRecord(
        run_id=row["run_id"],
        timestamp=parse_time(row["timestamp"]),
        sdk=row["sdk"],
        repo=row["repo"],
        ref=row["ref"],
        commit=row["commit_sha"],
        tiercheck_version=row["tiercheck_version"],
        harness_version=row["harness_version"],
        node_version=row["node_version"],
        revisions=tuple(json.loads(row["revisions"])),
        config_digest=row["config_digest"],
        tier=int(row["tier"]),
        blockers=tuple(json.loads(row["blockers"])),
        governance_digest=row["governance_digest"],
        signals=json.loads(row["signals"]),
        interrupted=bool(row["interrupted"]),
        legs=tuple(legs),
        scenarios=tuple(scenarios),
        requirements_digest=row["requirements_digest"],
        unaddressed=_unaddressed_of(row["unaddressed"]),
        sep_tier=None if row["sep_tier"] is None else int(row["sep_tier"]),
        nothing_measured=bool(row["nothing_measured"]),
        definitions=_definitions_of(row["definitions"]),
    )


def _unaddressed_text(found: UnaddressedRecord | None) -> str | None:
    return None if found is None else json.dumps(dataclasses.asdict(found), sort_keys=True)


def _unaddressed_of(text: str | None) -> UnaddressedRecord | None:
    """The stored record, or None when the run did not record it (or it cannot be read: a
    value we cannot read is not a value, and never zero)."""
    if text is None:
        return None
    try:
        data = json.loads(text)
        return UnaddressedRecord(**data) if isinstance(data, dict) else None
    except (TypeError, ValueError):
        return None


def _definitions_of(text: str | None) -> dict[str, str] | None:
    """The stored definitions, or None when the run did not record them (or they cannot be
    read: what cannot be read is not recorded, and never "unchanged")."""
    if text is None:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        return None
    return data


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _setup_lock(db: Path, deadline: float) -> AbstractContextManager[bool]:
    """Hold `<db>.lock` exclusively until `deadline`; without it (a read-only folder), go on.

    The lock only orders the first statements of each open; SQLite's own locks still guard
    every write, so going on unlocked is never unsafe, only racier.
    """
    lock = db.with_name(db.name + ".lock")
    return locks.held([lock], poll=0.005, deadline=deadline, best_effort=True)


def _newer_schema(path: Path, version: int) -> HistoryError:
    # Never written down to, never dropped: a newer tiercheck owns this file.
    return HistoryError(
        f"history {path}: schema version {version} is newer than this tiercheck's "
        f"({SCHEMA_VERSION}); upgrade tiercheck or use --history with another file"
    )
