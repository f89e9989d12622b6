"""A YAML text read again is not parsed again, and each reader still gets a document of its own."""

from __future__ import annotations

import pytest

from tiercheck.config import yamlio
from tiercheck.config.yamlio import loads_yaml
from tiercheck.errors import ConfigError

TEXT = "go-sdk:\n  revisions: [2025-11-25]\n  anchors: &a {x: 1}\n  again: *a\n"


def test_a_text_read_twice_is_parsed_once_and_each_reader_gets_its_own_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parses: list[str] = []
    real = yamlio._parse

    def counted(text: str, source: str) -> object:
        parses.append(source)
        return real(text, source)

    monkeypatch.setattr(yamlio, "_parsed", type(yamlio._parsed)())
    monkeypatch.setattr(yamlio, "_parse", counted)
    first = loads_yaml(TEXT, "a.yaml")
    assert isinstance(first, dict)
    first["go-sdk"]["revisions"].append("changed by its reader")
    second = loads_yaml(TEXT, "b.yaml")
    assert parses == ["a.yaml"]
    assert second == {
        "go-sdk": {"revisions": ["2025-11-25"], "anchors": {"x": 1}, "again": {"x": 1}}
    }
    assert isinstance(second, dict)
    # An alias is still one object shared inside the document, as the parser gives it.
    assert second["go-sdk"]["anchors"] is second["go-sdk"]["again"]
    # A text too large to hold is parsed each time.
    big = TEXT + "# " + "x" * yamlio._REMEMBERED_CHARS + "\n"
    loads_yaml(big, "big.yaml")
    loads_yaml(big, "big.yaml")
    assert parses == ["a.yaml", "big.yaml", "big.yaml"]


def test_a_text_that_failed_says_why_at_every_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlio, "_parsed", type(yamlio._parsed)())
    for source in ("one.yaml", "two.yaml"):
        with pytest.raises(ConfigError, match=rf"^{source}:2: .*duplicate key 'a'"):
            loads_yaml("a: 1\na: 2\n", source)
    assert not yamlio._parsed


def test_only_the_last_documents_are_held(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlio, "_parsed", type(yamlio._parsed)())
    for n in range(yamlio._REMEMBERED + 5):
        assert loads_yaml(f"n: {n}\n", "n.yaml") == {"n": n}
    assert len(yamlio._parsed) == yamlio._REMEMBERED
