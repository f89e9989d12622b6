"""A page's text is treated only as far as the page shows it (`plaintext.page_text`), and is
still exactly the start of the whole text treated: every character hidden characters become
(`[U+202E]`, eight a character) or control characters dropped, on either side of the cut."""

from __future__ import annotations

import pytest

from tiercheck.plaintext import PAGE_CHARS, clean, cut_mark, page_text, visible


def _whole(text: str) -> tuple[str, str]:
    """The page's text by its definition: the whole text treated, then cut."""
    shown = visible(clean(text))
    if len(shown) <= PAGE_CHARS:
        return shown, ""
    mark = cut_mark(text)
    return shown[: PAGE_CHARS - len(mark)], mark


_TEXTS = [
    "",
    "a" * PAGE_CHARS,
    "a" * (PAGE_CHARS + 1),
    "\u202e" * 124 + "a" * 10,  # 124 × 8 + 10 = 1002 shown: cut, though 134 characters
    "\u202e" * 125,  # exactly 1,000 shown: whole
    "\x00" * 5000 + "b" * 20,  # 5,020 characters, 20 shown: whole, read far past the start
    "\x01" * 3000 + "é" * 999 + "\u2066",  # the last character crosses the bound
    ("x\u200b\x1b" * 40_000) + "\U0010ffff",  # 100 KB, every kind, an astral noncharacter
    "\U0010fffe" * 3 + "z" * 2000,
    "ok\ud800" * 700,  # lone surrogates are dropped
]


@pytest.mark.parametrize("text", _TEXTS, ids=range(len(_TEXTS)))
def test_a_page_text_is_the_start_of_the_whole_text_treated(text: str) -> None:
    assert page_text(text) == _whole(text)


def test_every_length_around_the_bound() -> None:
    for n in range(PAGE_CHARS - 20, PAGE_CHARS + 20):
        for filler in ("a", "\u202e", "\x00", "\U0001fffe"):
            text = "q" * n + filler * 9 + "\x07" * n
            assert page_text(text) == _whole(text), (n, filler)


def test_none_and_other_objects_are_their_text() -> None:
    assert page_text(None) == ("", "")
    assert page_text(12345) == ("12345", "")
