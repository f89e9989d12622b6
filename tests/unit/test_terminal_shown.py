"""The terminal's text shows what hides or reorders text, as the HTML and Markdown kits do.

A terminal has no escaping of its own: a bidirectional control from the SDK under test would
reorder the line it is on (`abc`, U+202E, `dcba.exe` reads `abcexe.abcd`), a zero-width
character hides. Every terminal format of the one table (`document_formats`) shows each such
character as its code, `[U+202E]`, once, where the format renders; the JSON keeps the text as
the SDK gave it.
"""

from __future__ import annotations

import json

import pytest

from support.scorecards import tier1_scorecard, with_regression
from tiercheck.document_formats import DIFF_FORMATS, REGISTRIES, SCORECARD_FORMATS
from tiercheck.plaintext import HIDDEN
from tiercheck.scorecard.diff import diff_scorecards

R1 = "2025-11-25"
#: A right-to-left override, a zero-width space, a zero-width joiner and a noncharacter.
HOSTILE = "abc\u202edcba.exe \u200bzero\u200dwidth \ufffe"
SHOWN = "abc[U+202E]dcba.exe [U+200B]zero[U+200D]width [U+FFFE]"


@pytest.mark.parametrize(
    ("kind", "name"),
    [(kind, fmt.name) for kind, registry in REGISTRIES.items() for fmt in registry.formats],
)
def test_every_terminal_format_and_no_other_shows_hidden_characters(kind: str, name: str) -> None:
    assert REGISTRIES[kind].get(name).shown is (name == "terminal")


def test_the_scorecards_terminal_shows_a_failing_message_in_its_own_order() -> None:
    doc = with_regression(R1, "server", "tools-call-simple-text", HOSTILE)
    for color in (False, True):
        text = SCORECARD_FORMATS.get("terminal").render(doc, color)
        assert SHOWN in text
        assert HIDDEN.search(text) is None
    raw = json.loads(SCORECARD_FORMATS.get("json").render(doc, False))
    assert HOSTILE in json.dumps(raw, ensure_ascii=False)


def test_the_diffs_terminal_shows_the_new_failure_in_its_own_order() -> None:
    new = with_regression(R1, "server", "tools-call-simple-text", HOSTILE)
    changes = diff_scorecards(tier1_scorecard(), new)
    text = DIFF_FORMATS.get("terminal").render(changes, False)
    assert SHOWN in text
    assert HIDDEN.search(text) is None
    raw = json.loads(DIFF_FORMATS.get("json").render(changes, False))
    assert HOSTILE in json.dumps(raw, ensure_ascii=False)
