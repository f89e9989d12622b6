"""Progress for the person watching: stderr only, never part of a result.

The pipeline calls `step`, `done`, `leg_progress` and `warn` (its `ProgressSink`); nothing here
computes or decides. On a terminal a rich live display shows the running steps and a bar per leg;
when stderr is not a TTY, or `CI` is set, plain timestamped lines are written instead (a CI log
cannot redraw, and a spinner there is noise). stdout is left alone so `--output json` stays
machine-readable. A character that hides or reorders text (a warning may quote the SDK under
test) is shown as its code, `[U+202E]` (`plaintext.visible`), in either. Both extend the
pipeline's own sink that shows nothing (`pipeline.assess.silent.NullProgress`).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TextIO

from tiercheck.pipeline.assess.silent import NullProgress
from tiercheck.plaintext import visible

if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID

__all__ = ["LineProgress", "LiveProgress", "NullProgress", "Progress", "make_progress"]


def _clock() -> datetime:
    return datetime.now(UTC)


class LineProgress(NullProgress):
    """Plain timestamped lines, one per event; for CI logs and redirected stderr."""

    def __init__(self, stream: TextIO, *, clock: Callable[[], datetime] = _clock) -> None:
        self._stream = stream
        self._clock = clock
        self._lock = threading.Lock()
        self._last_quarter: dict[tuple[str, str], int] = {}
        self._closed = False

    def _line(self, text: str) -> None:
        with self._lock:
            if self._closed:
                return
            stamp = self._clock().strftime("%H:%M:%S")
            self._stream.write(f"[{stamp}] {visible(text)}\n")
            self._stream.flush()

    @staticmethod
    def _join(name: str, detail: str) -> str:
        return f"{name}: {detail}" if detail else name

    def step(self, name: str, detail: str = "") -> None:
        """Write "name: detail"."""
        self._line(self._join(name, detail))

    def done(self, name: str, detail: str = "", *, ok: bool = True) -> None:
        """Write "✓ name: detail" ("✗ …" when not ok)."""
        self._line(("✓ " if ok else "✗ ") + self._join(name, detail))

    def leg_progress(self, revision: str, leg: str, done: int, total: int) -> None:
        """Write a line at each quarter of the leg, not per scenario (a log is not a bar)."""
        quarter = 4 * done // total if total > 0 else 4
        key = (revision, leg)
        with self._lock:
            if self._last_quarter.get(key) == quarter:
                return
            self._last_quarter[key] = quarter
        self._line(f"{leg} leg {revision}: {done}/{total} scenarios")

    def warn(self, text: str) -> None:
        """Write "warning: text"."""
        self._line(f"warning: {text}")

    def close(self) -> None:
        """Ignore any later event."""
        with self._lock:
            self._closed = True


class LiveProgress(NullProgress):
    """A rich live display on a terminal: a spinner per running step, a bar per leg."""

    def __init__(self, stream: TextIO) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, SpinnerColumn, TextColumn
        from rich.progress import Progress as RichProgress

        console = Console(file=stream, highlight=False, markup=False)
        self._progress: RichProgress = RichProgress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=console,
            transient=True,
        )
        self._tasks: dict[str, TaskID] = {}
        self._lock = threading.Lock()
        self._closed = False
        self._progress.start()

    def _print(self, text: str, style: str = "") -> None:
        from rich.text import Text

        self._progress.console.print(Text(visible(text), style=style))

    def _task(self, key: str, description: str, total: float | None) -> TaskID:
        task = self._tasks.get(key)
        if task is None:
            task = self._progress.add_task(description, total=total)
            self._tasks[key] = task
        return task

    def step(self, name: str, detail: str = "") -> None:
        """Show a spinner for `name` until `done(name)`."""
        with self._lock:
            if self._closed:
                return
            description = visible(f"{name}: {detail}" if detail else name)
            task = self._task(name, description, None)
            self._progress.update(task, description=description)

    def done(self, name: str, detail: str = "", *, ok: bool = True) -> None:
        """Replace the spinner of `name` with a permanent "✓ name: detail" line (a red "✗ …"
        when not ok)."""
        with self._lock:
            if self._closed:
                return
            task = self._tasks.pop(name, None)
            if task is not None:
                self._progress.remove_task(task)
            text = f"{name}: {detail}" if detail else name
            self._print(("✓ " if ok else "✗ ") + text, "green" if ok else "red")

    def leg_progress(self, revision: str, leg: str, done: int, total: int) -> None:
        """Advance the bar of one leg."""
        with self._lock:
            if self._closed:
                return
            task = self._task(f"{leg} leg {revision}", f"{leg} leg {revision}", total)
            self._progress.update(task, completed=done, total=total)

    def warn(self, text: str) -> None:
        """A yellow "! text" line above the live display."""
        with self._lock:
            if not self._closed:
                self._print(f"! {text}", "yellow")

    def close(self) -> None:
        """Stop the live display (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._progress.stop()


#: What the pipeline is given: `NullProgress` or either display above.
Progress = NullProgress


def make_progress(
    stream: TextIO | None = None, environ: Mapping[str, str] | None = None
) -> NullProgress:
    """The right progress for `stream` (default stderr): live on a terminal, lines otherwise.

    Plain lines when the stream is not a TTY, when `CI` is set (CI logs keep every redraw), or
    when `TERM=dumb`.
    """
    stream = sys.stderr if stream is None else stream
    env: Mapping[str, Any] = os.environ if environ is None else environ
    interactive = stream.isatty() and not env.get("CI") and env.get("TERM") != "dumb"
    return LiveProgress(stream) if interactive else LineProgress(stream)
