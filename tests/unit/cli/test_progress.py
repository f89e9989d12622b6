"""Progress: stderr only, live on a terminal, timestamped lines in CI, nothing in tests."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest

from tiercheck.cli.progress import LineProgress, LiveProgress, make_progress
from tiercheck.pipeline.assess.silent import NullProgress


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _fixed() -> datetime:
    return datetime(2026, 8, 20, 9, 15, 3, tzinfo=UTC)


def test_lines_are_timestamped_and_plain() -> None:
    stream = io.StringIO()
    progress = LineProgress(stream, clock=_fixed)
    progress.step("build", "npm ci && npm run build")
    progress.done("build", "cached (0.2 s)")
    progress.warn("2026-07-28: server never became ready")
    progress.step("governance")
    assert stream.getvalue() == (
        "[09:15:03] build: npm ci && npm run build\n"
        "[09:15:03] ✓ build: cached (0.2 s)\n"
        "[09:15:03] warning: 2026-07-28: server never became ready\n"
        "[09:15:03] governance\n"
    )


def test_leg_progress_in_lines_reports_quarters_not_every_scenario() -> None:
    stream = io.StringIO()
    progress = LineProgress(stream, clock=_fixed)
    for done in range(9):
        progress.leg_progress("2025-11-25", "server", done, 8)
    lines = [line.split("] ", 1)[1] for line in stream.getvalue().splitlines()]
    assert lines == [f"server leg 2025-11-25: {n}/8 scenarios" for n in (0, 2, 4, 6, 8)]


def test_closed_progress_ignores_later_events() -> None:
    stream = io.StringIO()
    progress = LineProgress(stream, clock=_fixed)
    progress.close()
    progress.warn("late")
    assert stream.getvalue() == ""


@pytest.mark.parametrize(
    ("stream", "environ", "kind"),
    [
        (io.StringIO(), {}, LineProgress),
        (_Tty(), {"CI": "true"}, LineProgress),
        (_Tty(), {"TERM": "dumb"}, LineProgress),
        (_Tty(), {}, LiveProgress),
    ],
)
def test_make_progress_chooses_by_terminal_and_ci(
    stream: io.StringIO, environ: dict[str, str], kind: type
) -> None:
    progress = make_progress(stream, environ)
    try:
        assert type(progress) is kind
    finally:
        progress.close()


def test_live_progress_writes_only_to_its_stream(capsys: pytest.CaptureFixture[str]) -> None:
    stream = _Tty()
    with make_progress(stream, {}) as progress:
        progress.step("checkout", "example-org/example-sdk@main")
        progress.leg_progress("2025-11-25", "client", 3, 18)
        progress.done("checkout", "3f9a2c41d7e0")
        progress.warn("anonymous GitHub access")
    progress.close()  # idempotent
    out = stream.getvalue()
    assert "✓ checkout: 3f9a2c41d7e0" in out
    assert "! anonymous GitHub access" in out
    captured = capsys.readouterr()
    assert captured.out == ""


def test_null_progress_is_silent(capsys: pytest.CaptureFixture[str]) -> None:
    with NullProgress() as progress:
        progress.step("build")
        progress.done("build")
        progress.leg_progress("2025-11-25", "server", 1, 2)
        progress.warn("x")
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "")


def test_the_mark_follows_the_outcome() -> None:
    stream = io.StringIO()
    progress = LineProgress(stream, clock=_fixed)
    progress.done("client leg 2026-07-28", "32/32 scored passed (20.1 s)")
    progress.done("client leg 2025-11-25", "0/18 scored passed (9.0 s)", ok=False)
    assert stream.getvalue().splitlines() == [
        "[09:15:03] ✓ client leg 2026-07-28: 32/32 scored passed (20.1 s)",
        "[09:15:03] ✗ client leg 2025-11-25: 0/18 scored passed (9.0 s)",
    ]


def test_a_warning_quoting_the_sdk_reads_in_its_own_order_in_either_display() -> None:
    said = "server says: abc\u202edcba.exe\u200b"
    shown = "server says: abc[U+202E]dcba.exe[U+200B]"
    lines = io.StringIO()
    LineProgress(lines, clock=_fixed).warn(said)
    assert lines.getvalue() == f"[09:15:03] warning: {shown}\n"
    live = _Tty()
    with make_progress(live, {}) as progress:
        progress.step("checkout", said)  # the spinner's line, drawn when the display starts
        progress.warn(said)
    assert f"checkout: {shown}" in live.getvalue()
    assert f"! {shown}" in live.getvalue()
    assert "\u202e" not in live.getvalue()
    assert "\u200b" not in live.getvalue()
