"""The typed documents: JSON in and out, one-line errors at the right path, and the shipped
scorecard schema generated from the model (a stale schema fails here)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

from tiercheck.document_schemas import GENERATED, schema_text, write_all
from tiercheck.governance.snapshot import LabelFacts, Unavailable, dump_snapshot, load_snapshot
from tiercheck.model import ModelError, doc_field, from_json, json_schema, to_json
from tiercheck.scorecard.model import Scorecard

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"


@dataclass(frozen=True, kw_only=True)
class Inner:
    """An inner object."""

    kind: Literal["a", "b"]
    count: int


@dataclass(frozen=True, kw_only=True)
class Outer:
    """An outer object."""

    name: str
    items: tuple[Inner, ...]
    note: str | None = doc_field(default=None, json="officialNote", omit_none=True, doc="a note")
    extra: dict[str, object] = doc_field(rest=True, default_factory=dict)


def test_round_trip_keeps_order_names_and_the_rest() -> None:
    data = {"name": "x", "items": [{"kind": "a", "count": 1}], "officialNote": "n", "more": [1]}
    value = from_json(Outer, data)
    assert value == Outer(
        name="x", items=(Inner(kind="a", count=1),), note="n", extra={"more": [1]}
    )
    assert to_json(value) == data
    assert list(to_json(value)) == ["name", "items", "officialNote", "more"]
    # omit_none: an absent official key reads as None and is not written back.
    assert "officialNote" not in to_json(from_json(Outer, {"name": "x", "items": []}))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"items": []}, "name: missing"),
        ({"name": 3, "items": []}, "name: expected a string, got a number"),
        ({"name": "x", "items": [{"kind": "c", "count": 1}]}, "items[0].kind: expected one of"),
        ({"name": "x", "items": [{"kind": "a", "count": True}]}, "items[0].count: expected an"),
        ({"name": "x", "items": {}}, "items: expected a list, got an object"),
        ([], "(document): expected an object, got a list"),
    ],
)
def test_wrong_values_name_their_path(data: object, message: str) -> None:
    with pytest.raises(ModelError) as info:
        from_json(Outer, data)
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_unknown_keys_are_refused_without_a_rest_field() -> None:
    with pytest.raises(ModelError, match=r"^surprise: not a field of this document$"):
        from_json(Inner, {"kind": "a", "count": 1, "surprise": 0})


def test_schema_follows_the_fields() -> None:
    schema = json_schema(Outer, schema_id="x", title="t")
    assert schema["required"] == ["name", "items"]
    assert list(schema["properties"]) == ["name", "items", "officialNote"]
    assert schema["properties"]["officialNote"] == {
        "description": "a note",
        "type": ["string", "null"],
    }
    assert schema["additionalProperties"] is True  # the rest field
    assert schema["$defs"]["Inner"]["properties"]["kind"] == {"enum": ["a", "b"]}
    assert schema["$defs"]["Inner"]["additionalProperties"] is False

    @dataclass(frozen=True, kw_only=True)
    class Inner2(Inner):
        added: bool

    grown = json_schema(Inner2, schema_id="x", title="t")
    assert "added" in grown["required"]
    assert grown != json_schema(Inner, schema_id="x", title="t")


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_the_shipped_schemas_are_generated_from_the_models(name: str) -> None:
    shipped = (ROOT / "tiercheck" / "schemas" / name).read_text("utf-8")
    assert shipped == schema_text(name), (
        f"tiercheck/schemas/{name} is stale: run `python -m tiercheck.document_schemas`"
    )


def test_the_generator_writes_each_schema_it_lists(tmp_path: Path) -> None:
    written = write_all(tmp_path)
    assert sorted(p.name for p in written) == sorted(GENERATED)
    # Hand-worked: the typed documents other tools read, and nothing else.
    assert sorted(GENERATED) == [
        "claim.schema.json",
        "dashboard_grid.schema.json",
        "dashboard_index.schema.json",
        "dashboard_line.schema.json",
        "dashboard_night.schema.json",
        "dashboard_nights.schema.json",
        "dashboard_scenarios.schema.json",
        "dashboard_views.schema.json",
        "governance_snapshot.schema.json",
        "history_folder.schema.json",
        "history_run.schema.json",
        "matrix.schema.json",
        "scorecard.schema.json",
    ]
    for path in written:
        assert path.read_text("utf-8") == (ROOT / "tiercheck" / "schemas" / path.name).read_text(
            "utf-8"
        )


def test_docs_link_to_the_shipped_schemas_instead_of_copying_them() -> None:
    assert not list((ROOT / "docs").glob("*.schema.json"))


def test_a_recorded_snapshot_reads_and_writes_back_byte_for_byte() -> None:
    path = ROOT / "examples" / "sample-sdk" / "governance-snapshot.json"
    assert dump_snapshot(load_snapshot(path)) == path.read_text("utf-8")


@dataclass(frozen=True)
class Holder:
    """A fact group that is there or says why not."""

    group: LabelFacts | Unavailable


def test_tagged_unions_explain_the_option_that_matched() -> None:
    gone = {"group": {"available": False, "reason": "x"}}
    assert from_json(Holder, gone) == Holder(Unavailable("x"))
    assert to_json(Holder(Unavailable("x"))) == gone
    bad = {"group": {"available": True, "names": 3, "uses_issue_types": True}}
    with pytest.raises(ModelError, match=r"^group.names: expected a list"):
        from_json(Holder, bad)
    with pytest.raises(ModelError, match=r"^available: expected true, got false"):
        from_json(LabelFacts, {"available": False, "names": [], "uses_issue_types": True})


@pytest.mark.parametrize("name", ["mixed", "tier1"])
def test_saved_scorecards_read_back_exactly(name: str) -> None:
    data = json.loads((GOLDEN / f"{name}.json").read_text("utf-8"))
    assert to_json(from_json(Scorecard, data)) == data
