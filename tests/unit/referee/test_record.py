"""The record a run keeps of its installed harness (`referee.record`): the bundle's listing and
every listed scenario's definition digest, made once per install and read thereafter.

The install is built by hand the way `conformance.harness.provision` leaves one (its marker, the
package under `node_modules/`), with the small bundle of the jsscan tests and a stand-in for
Node that prints a recorded-style `list`. Scans and lists are counted.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tiercheck.conformance.harness import PACKAGE, Harness
from tiercheck.pipeline.assess.facts import harness_definitions, harness_not_applicable
from tiercheck.referee import record as record_module
from tiercheck.referee.definitions import definition_digest
from tiercheck.referee.record import RECORD_NAME, clear_memory, harness_record

from .test_jsscan import BUNDLE

VERSION = "0.2.0-alpha.12"
LISTS = {
    "server": (
        "Server scenarios (test against a server):\n"
        "  - ping [2025-06-18,2025-11-25]\n"
        "  - tools-list [2025-06-18,2025-11-25,2026-07-28]\n"
        "  - tasks-lifecycle [extension]\n"
    ),
    "client": (
        "Client scenarios (test against a client):\n"
        "  - initialize [2025-06-18,2025-11-25]\n"
        "  - auth/2025-03-26-oauth-endpoint-fallback [2025-03-26]\n"
        "  - request-metadata [2026-07-28]\n"
    ),
    "authorization": (
        "Authorization server scenarios (test against an authorization server):\n"
        "  - authorization-code-grant [2025-03-26,2025-06-18,2025-11-25,2026-07-28]\n"
    ),
}
#: Each listed scenario's digest, worked out from the bundle by hand (test_definitions): only
#: `ping` and `tools-list` emit checks there.
DIGESTS = {
    "ping": definition_digest(["ping"]),
    "tools-list": definition_digest(
        ["order", "order-untestable", "tools-list", "tools-name-format"]
    ),
}


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    clear_memory()
    yield
    clear_memory()


class Counted:
    """Counts the bundle's scans and `list` calls of `referee.record`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.scans = 0
        self.lists = 0
        real_scan, real_list = record_module.definitions, record_module._list

        def scan(source: str, names: object) -> dict[str, str]:
            self.scans += 1
            return real_scan(source, names)  # type: ignore[arg-type]

        def listing(harness: Harness, leg: str) -> str | None:
            self.lists += 1
            return real_list(harness, leg)

        monkeypatch.setattr(record_module, "definitions", scan)
        monkeypatch.setattr(record_module, "_list", listing)


def _install(root: Path, *, node: bool = True, marker: bool = True) -> Harness:
    """A harness installed under `root/harness/VERSION/` as provisioning leaves it."""
    folder = root / "harness" / VERSION
    bundle = folder / "node_modules" / PACKAGE / "dist" / "index.js"
    bundle.parent.mkdir(parents=True)
    bundle.write_text(BUNDLE, encoding="utf-8")
    if marker:
        (folder / ".tiercheck-complete.json").write_text("{}\n", encoding="utf-8")
    fake = root / "node"
    for leg, text in LISTS.items():
        (root / f"list--{leg}.txt").write_text(text, encoding="utf-8")
    if node:
        # argv: node BUNDLE list --LEG
        fake.write_text('#!/bin/sh\ncat "$(dirname "$0")/list$3.txt"\n', encoding="utf-8")
        fake.chmod(0o755)
    return Harness(node=fake, cli_js=bundle, version=VERSION, node_version="v22.0.0")


def _again() -> None:
    """What a new process would see: nothing kept in memory."""
    clear_memory()


def test_the_first_run_makes_the_record_and_the_second_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = Counted(monkeypatch)
    harness = _install(tmp_path)
    assert harness.folder() == tmp_path / "harness" / VERSION
    first = harness_definitions(harness, ["ping", "tools-list", "initialize"])
    assert first == DIGESTS
    assert (counted.scans, counted.lists) == (1, 3)
    kept = json.loads((tmp_path / "harness" / VERSION / RECORD_NAME).read_text(encoding="utf-8"))
    assert kept["harness"] == VERSION
    assert kept["bundle"]["size"] == harness.cli_js.stat().st_size
    assert kept["listed"]["client"]["initialize"] == ["2025-06-18", "2025-11-25"]
    assert kept["definitions"] == DIGESTS
    _again()
    assert harness_definitions(harness, ["tools-list"]) == {"tools-list": DIGESTS["tools-list"]}
    assert harness_not_applicable(harness, {"2026-07-28": ["server", "client"]})
    assert (counted.scans, counted.lists) == (1, 3)  # the record read: no scan, no list


def test_the_record_says_which_scenarios_a_revision_does_not_apply(tmp_path: Path) -> None:
    harness = _install(tmp_path)
    found = harness_not_applicable(
        harness, {"2025-11-25": ["server", "client"], "2026-07-28": ["server", "client"]}
    )
    assert found is not None
    said = {
        rev: [(e.scenario, e.leg, e.why, e.version, e.applies, e.source) for e in entries]
        for rev, entries in found.items()
    }
    server_source = f"harness {VERSION}: conformance list --server"
    client_source = f"harness {VERSION}: conformance list --client"
    assert said == {
        "2025-11-25": [
            (
                "auth/2025-03-26-oauth-endpoint-fallback",
                "client",
                "removed",
                "2025-06-18",
                ("2025-03-26",),
                client_source,
            ),
            (
                "request-metadata",
                "client",
                "not-yet-introduced",
                "2026-07-28",
                ("2026-07-28",),
                client_source,
            ),
        ],
        "2026-07-28": [
            (
                "ping",
                "server",
                "removed",
                "2026-07-28",
                ("2025-06-18", "2025-11-25"),
                server_source,
            ),
            (
                "initialize",
                "client",
                "removed",
                "2026-07-28",
                ("2025-06-18", "2025-11-25"),
                client_source,
            ),
            (
                "auth/2025-03-26-oauth-endpoint-fallback",
                "client",
                "removed",
                "2025-06-18",
                ("2025-03-26",),
                client_source,
            ),
        ],
    }
    # Only the legs a revision ran.
    only = harness_not_applicable(harness, {"2026-07-28": ["server"]})
    assert only is not None
    assert [e.scenario for e in only["2026-07-28"]] == ["ping"]


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"\xff\xfe not json",
        b'{"format": 1',
        b"[]",
        b'{"format": 1, "listed": {"server": "nope"}}',
    ],
)
def test_a_corrupt_record_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: bytes
) -> None:
    harness = _install(tmp_path)
    harness_record(harness)
    path = tmp_path / "harness" / VERSION / RECORD_NAME
    path.write_bytes(damage)
    _again()
    counted = Counted(monkeypatch)
    made = harness_record(harness)
    assert made is not None
    assert made.definitions == DIGESTS
    assert (counted.scans, counted.lists) == (1, 3)
    assert json.loads(path.read_text(encoding="utf-8"))["definitions"] == DIGESTS


def test_a_wrongly_typed_entry_in_a_valid_record_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = _install(tmp_path)
    harness_record(harness)
    path = tmp_path / "harness" / VERSION / RECORD_NAME
    kept = json.loads(path.read_text(encoding="utf-8"))
    kept["definitions"]["ping"] = 7
    path.write_text(json.dumps(kept), encoding="utf-8")
    _again()
    counted = Counted(monkeypatch)
    made = harness_record(harness)
    assert made is not None
    assert (made.definitions, counted.scans) == (DIGESTS, 1)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("harness", "0.2.0-alpha.11"),
        ("format", 0),
        ("tiercheck", "0.0.0-elsewhere"),
        ("bundle", {"size": 1, "mtime_ns": 1}),
    ],
)
def test_a_foreign_record_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str, value: object
) -> None:
    harness = _install(tmp_path)
    harness_record(harness)
    path = tmp_path / "harness" / VERSION / RECORD_NAME
    kept = json.loads(path.read_text(encoding="utf-8"))
    kept[key] = value
    kept["definitions"] = {"ping": "0" * 12}  # what a record of another bundle might say
    path.write_text(json.dumps(kept), encoding="utf-8")
    _again()
    counted = Counted(monkeypatch)
    made = harness_record(harness)
    assert made is not None
    assert (made.definitions, counted.scans) == (DIGESTS, 1)


def test_a_changed_bundle_is_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    harness = _install(tmp_path)
    harness_record(harness)
    harness.cli_js.write_text(BUNDLE + "\n// rebuilt\n", encoding="utf-8")
    _again()
    counted = Counted(monkeypatch)
    harness_record(harness)
    assert counted.scans == 1


def test_a_link_in_place_of_the_record_is_neither_read_nor_written_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = _install(tmp_path)
    harness_record(harness)
    path = tmp_path / "harness" / VERSION / RECORD_NAME
    outside = tmp_path / "elsewhere.json"
    kept = json.loads(path.read_text(encoding="utf-8"))
    kept["definitions"] = {"ping": "0" * 12}
    text = json.dumps(kept)
    outside.write_text(text, encoding="utf-8")
    path.unlink()
    path.symlink_to(outside)
    _again()
    counted = Counted(monkeypatch)
    made = harness_record(harness)
    assert made is not None
    assert (made.definitions, counted.scans) == (DIGESTS, 1)
    assert outside.read_text(encoding="utf-8") == text  # untouched
    assert not path.is_symlink()
    assert stat.S_ISREG(path.lstat().st_mode)


def test_a_fifo_in_place_of_the_record_is_no_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = _install(tmp_path)
    path = tmp_path / "harness" / VERSION / RECORD_NAME
    os.mkfifo(path)
    made = harness_record(harness)  # would hang if the FIFO were read
    assert made is not None
    assert made.definitions == DIGESTS


def test_a_cache_that_cannot_be_written_fails_no_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = _install(tmp_path)

    def refuse(*_args: object, **_kwargs: object) -> Path:
        raise PermissionError(13, "read-only")

    monkeypatch.setattr(record_module, "write_text", refuse)
    assert harness_definitions(harness, ["ping"]) == {"ping": DIGESTS["ping"]}
    assert not (tmp_path / "harness" / VERSION / RECORD_NAME).exists()


def test_a_bundle_outside_a_provisioned_folder_is_read_but_nothing_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = _install(tmp_path, marker=False)
    assert harness.folder() is None
    assert harness_definitions(harness, ["ping"]) == {"ping": DIGESTS["ping"]}
    assert not (tmp_path / "harness" / VERSION / RECORD_NAME).exists()


def test_a_harness_that_cannot_list_keeps_no_record_and_its_run_still_has_definitions(
    tmp_path: Path,
) -> None:
    harness = _install(tmp_path, node=False)
    assert harness_definitions(harness, ["ping"]) == {"ping": DIGESTS["ping"]}
    assert harness_not_applicable(harness, {"2026-07-28": ["server"]}) is None
    assert not (tmp_path / "harness" / VERSION / RECORD_NAME).exists()


def test_a_missing_bundle_has_no_record(tmp_path: Path) -> None:
    harness = _install(tmp_path)
    harness.cli_js.unlink()
    assert harness_record(harness) is None
    assert harness_definitions(harness, ["ping"]) is None
    assert harness_not_applicable(harness, {"2026-07-28": ["server"]}) is None
