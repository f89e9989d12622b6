"""A document a schema accepted is not walked again in the same process; anything else always is."""

from __future__ import annotations

import copy

import pytest

from tiercheck.config import validate as validation
from tiercheck.config.registry import load_registry
from tiercheck.config.yamlio import load_yaml
from tiercheck.errors import ConfigError
from tiercheck.paths import data_path


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The schema walks made, by schema name, with an empty memo."""
    made: list[str] = []
    real = validation._validator

    def counted(schema_name: str, revisions: tuple[str, ...]) -> object:
        made.append(schema_name)
        return real(schema_name, revisions)

    monkeypatch.setattr(validation, "_accepted", {})
    monkeypatch.setattr(validation, "_validator", counted)
    return made


def _bundled() -> dict[str, object]:
    raw = load_yaml(data_path("known_sdks.yaml"))
    assert isinstance(raw, dict)
    return raw


def test_the_same_accepted_document_is_walked_once(walks: list[str]) -> None:
    validation.validate(_bundled(), "known_sdks", "a.yaml")
    validation.validate(_bundled(), "known_sdks", "b.yaml")
    assert walks == ["known_sdks"]
    # The bundled registry loaded twice is that same document: not walked again.
    load_registry()
    load_registry()
    assert walks == ["known_sdks"]


def test_a_document_changed_after_it_was_accepted_is_walked_and_refused(walks: list[str]) -> None:
    raw = _bundled()
    validation.validate(raw, "known_sdks", "a.yaml")
    changed = copy.deepcopy(raw)
    name = next(iter(changed))
    body = changed[name]
    assert isinstance(body, dict)
    body["revisions"] = ["1999-01-01"]
    with pytest.raises(ConfigError, match="1999-01-01"):
        validation.validate(changed, "known_sdks", "a.yaml")
    # Refused twice: a refusal is never remembered.
    with pytest.raises(ConfigError, match="1999-01-01"):
        validation.validate(changed, "known_sdks", "a.yaml")
    assert walks == ["known_sdks"] * 3


def test_the_same_document_under_another_schema_is_walked_again(walks: list[str]) -> None:
    validation.validate({}, "known_sdks", "a.yaml")
    with pytest.raises(ConfigError):
        validation.validate({}, "revisions", "a.yaml")
    assert walks == ["known_sdks", "revisions"]


def test_the_memo_keeps_at_most_its_bound_and_nothing_that_is_not_plain_json(
    walks: list[str],
) -> None:
    for n in range(validation._ACCEPTED_MAX + 8):
        validation.validate({f"sdk-{n}": _bundled()[next(iter(_bundled()))]}, "known_sdks", "x")
    assert len(validation._accepted) == validation._ACCEPTED_MAX
    # Not JSON data (a set): validated each time, never kept.
    with pytest.raises(ConfigError):
        validation.validate({"x": {1, 2}}, "known_sdks", "x")
    assert len(validation._accepted) == validation._ACCEPTED_MAX
