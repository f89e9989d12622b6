"""What an SDK says is bounded as the history takes it: a name 200 characters, a message or
reason 4096, a cut text saying so with a digest of the whole (`plaintext.cut`), in the
record, the run file (whose schema says `maxLength`), a file written before the bounds (cut as
it is read) and a database stored before them (cut as it is migrated)."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import jsonschema
import pytest

from support.hostile_text import hostile_scorecard
from support.nights import alpha
from support.schema_check import conforms
from tiercheck.document_schemas import schema_text
from tiercheck.history.datafile import record_of_file, run_file_text
from tiercheck.history.record import RunRecord, record_of
from tiercheck.history.store import SCHEMA_VERSION, HistoryStore
from tiercheck.plaintext import NAME_CHARS, TEXT_CHARS, cut

SCHEMA = json.loads(schema_text("history_run.schema.json"))
#: The hostile table's 200 KB string ("@org/team " and 200,000 x's): 200,010 characters.
HUGE_MARK = "… [cut: 200010 characters, sha256 "


def test_cut_keeps_a_short_text_and_says_what_it_cut() -> None:
    assert cut("a" * 200, 200) == "a" * 200
    cut_a = cut("a" * 300, 200)
    # The mark: the length, and the first 16 hex digits of sha256("a" * 300), worked out apart.
    mark = "… [cut: 300 characters, sha256 9835fa6bf4e20a9b…]"
    assert cut_a == "a" * (200 - len(mark)) + mark
    assert len(cut_a) == 200
    assert cut(cut_a, 200) == cut_a  # cutting again changes nothing
    # Two texts that start alike stay apart once cut.
    assert cut("a" * 300, 200) != cut("a" * 299 + "b", 200)
    assert cut("x" * 5000, 4096).endswith("… [cut: 5000 characters, sha256 c59d3c0480cc2d71…]")


def _texts(record: RunRecord) -> dict[str, list[str]]:
    """Every name and every message or reason of `record` an SDK or the harness writes."""
    names = [record.sdk, record.repo, record.ref, record.commit, record.harness_version]
    names += [s.scenario for s in record.scenarios] + [s.check for s in record.scenarios]
    if record.unaddressed is not None:
        names.append(record.unaddressed.oldest_title)
    messages = [s.message for s in record.scenarios] + [x.reason for x in record.legs]
    return {
        "names": [n for n in names if n is not None],
        "messages": [m for m in messages if m is not None],
    }


def test_a_run_of_200_kb_texts_is_recorded_cut_and_its_file_follows_the_schema() -> None:
    record = record_of(hostile_scorecard("huge"))
    texts = _texts(record)
    assert all(len(n) <= NAME_CHARS for n in texts["names"])
    assert all(len(m) <= TEXT_CHARS for m in texts["messages"])
    # What was cut says so, and keeps the start of what it was.
    cut_names = [n for n in texts["names"] if HUGE_MARK in n]
    assert {s.scenario for s in record.scenarios if HUGE_MARK in s.scenario}
    assert record.ref is not None
    assert HUGE_MARK in record.ref
    assert all(n.startswith("@org/team xxx") and len(n) == NAME_CHARS for n in cut_names)
    cut_messages = [m for m in texts["messages"] if HUGE_MARK in m]
    assert cut_messages
    assert all(len(m) == TEXT_CHARS for m in cut_messages)
    assert record.unaddressed is not None
    assert record.unaddressed.oldest_title is not None
    assert HUGE_MARK in record.unaddressed.oldest_title
    data = json.loads(run_file_text(record))
    assert data["schema_version"] == 6
    conforms(data, SCHEMA)
    # Read back: the same record (the bounds hold, nothing is cut twice).
    assert record_of_file(data, "run.json") == record


def _uncut(record: RunRecord) -> RunRecord:
    """`record` as a tiercheck before the bounds recorded it: the scenario's whole name, a
    100 KB message and a leg's 100 KB reason."""
    first = dataclasses.replace(
        record.scenarios[0], scenario="s" * 1000, message="m" * 100_000, check="c" * 300
    )
    legs = (dataclasses.replace(record.legs[0], reason="r" * 100_000), *record.legs[1:])
    return dataclasses.replace(record, scenarios=(first, *record.scenarios[1:]), legs=legs)


def test_the_schema_refuses_longer_text() -> None:
    # The control: what tiercheck writes conforms, the same file with one long text does not.
    record = record_of(alpha(1))
    conforms(json.loads(run_file_text(record)), SCHEMA)
    with pytest.raises(jsonschema.ValidationError, match="is too long"):
        conforms(json.loads(run_file_text(_uncut(record))), SCHEMA)


def test_a_file_written_before_the_bounds_is_cut_as_it_is_read() -> None:
    record = record_of(alpha(1))
    data = json.loads(run_file_text(_uncut(record)))
    data["schema_version"] = 4
    read = record_of_file(data, "old.json")
    first = read.scenarios[0]
    assert first.scenario == cut("s" * 1000, NAME_CHARS)
    assert first.check == cut("c" * 300, NAME_CHARS)
    assert first.message == cut("m" * 100_000, TEXT_CHARS)
    assert read.legs[0].reason == cut("r" * 100_000, TEXT_CHARS)
    assert read.scenarios[1:] == record.scenarios[1:]
    conforms(json.loads(run_file_text(read)), SCHEMA)


def test_a_database_stored_before_the_bounds_is_cut_as_it_is_migrated(tmp_path: Path) -> None:
    from tiercheck.history import store as store_module

    db = tmp_path / "history.sqlite"
    record = record_of(alpha(1))
    HistoryStore(db).append(record)
    # The rows as a tiercheck before the bounds stored them, at that schema version.
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 5")
        conn.execute("ALTER TABLE scenarios DROP COLUMN flaky")  # schema 7's
        conn.execute(
            "UPDATE scenarios SET message = ?, check_id = ? WHERE scenario = ?",
            ("m" * 100_000, "c" * 300, record.scenarios[0].scenario),
        )
        conn.execute("UPDATE legs SET reason = ? WHERE leg = 'client'", ("r" * 100_000,))
    assert len(store_module._MIGRATIONS) == SCHEMA_VERSION == 7
    store = HistoryStore(db)
    [read] = store.runs()
    assert store.schema_version() == 7
    assert read.scenarios[0].message == cut("m" * 100_000, TEXT_CHARS)
    assert read.scenarios[0].check == cut("c" * 300, NAME_CHARS)
    assert {x.reason for x in read.legs if x.leg == "client"} == {cut("r" * 100_000, TEXT_CHARS)}
    assert read.scenarios[1:] == record.scenarios[1:]
