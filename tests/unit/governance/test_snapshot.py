"""Snapshot round trip and validation: a bad file is one ConfigError line naming file and path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.governance_fixtures import CAPTURED, REPO, TOKEN, running
from tiercheck.errors import ConfigError
from tiercheck.ghapi import Transport
from tiercheck.governance.collector import collect
from tiercheck.governance.snapshot import (
    Snapshot,
    Unavailable,
    dump_snapshot,
    load_snapshot,
    save_snapshot,
    snapshot_to_dict,
    validate_snapshot_data,
)


@pytest.fixture(scope="module")
def snapshot() -> Snapshot:
    with running() as fake:
        fake.fail(r"/releases$", 502, "Bad Gateway")  # one unavailable group in the mix
        return collect(
            REPO,
            api_url=fake.url,
            token=TOKEN,
            cache_dir=None,
            checkout=None,
            now=CAPTURED,
            transport=Transport(throttle=None, write_throttle=None, backoff=0, retries=0),
        )


def test_round_trip_is_exact(snapshot: Snapshot, tmp_path: Path) -> None:
    path = tmp_path / "nested" / "snapshot.json"
    save_snapshot(snapshot, path)
    loaded = load_snapshot(path)
    assert loaded == snapshot
    assert dump_snapshot(loaded) == path.read_text(encoding="utf-8")
    assert isinstance(loaded.releases, Unavailable)
    assert loaded.releases.reason.startswith("GitHub kept failing")


def test_written_snapshot_validates_against_the_schema(snapshot: Snapshot) -> None:
    data = snapshot_to_dict(snapshot)
    validate_snapshot_data(data, source="memory")
    assert data["schema_version"] == 1
    assert data["captured_at"] == "2025-06-16T14:00:00Z"
    assert data["authenticated"] is True
    assert data["issues"]["items"][0]["first_label_at"] == "2025-06-03T09:00:00Z"


def _corrupt(snapshot: Snapshot, tmp_path: Path, change: object) -> Path:
    data = snapshot_to_dict(snapshot)
    change(data)  # type: ignore[operator]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.update(schema_version=2), "$.schema_version"),
        (lambda d: d.pop("repo"), "$: 'repo' is a required property"),
        (lambda d: d.update(captured_at="yesterday"), "$.captured_at"),
        (lambda d: d["issues"]["items"][0].update(number="one"), "$.issues"),
        (lambda d: d.update(surprise=True), "surprise"),
    ],
)
def test_invalid_snapshot_is_one_config_error_line(
    snapshot: Snapshot, tmp_path: Path, change: object, where: str
) -> None:
    path = _corrupt(snapshot, tmp_path, change)
    with pytest.raises(ConfigError) as info:
        load_snapshot(path)
    message = info.value.message
    assert "\n" not in message
    assert message.startswith(f"{path}: $")
    assert where in message
    assert info.value.exit_code == 2


def test_not_json_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad\.json: not JSON: .* at line 1"):
        load_snapshot(bad)
    with pytest.raises(ConfigError, match="cannot read snapshot"):
        load_snapshot(tmp_path / "absent.json")
