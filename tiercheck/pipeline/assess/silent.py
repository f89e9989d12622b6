"""The progress that shows nothing: what an assessment reports to when no one watches (tests,
`tier-check score`, library use).

The command line's displays (`tiercheck.cli.progress`: live on a terminal, timestamped lines in
CI) extend it, so every `ProgressSink` method and the context manager are here once.
"""

from __future__ import annotations

from types import TracebackType

__all__ = ["NullProgress"]


class NullProgress:
    """Progress that shows nothing (tests, `tier-check score`, library use)."""

    def step(self, name: str, detail: str = "") -> None:
        """A step started (e.g. "build", "server leg 2025-11-25")."""

    def done(self, name: str, detail: str = "", *, ok: bool = True) -> None:
        """A step finished; `detail` says how (e.g. "cached (0.2 s)"); `ok` False: it ended in
        a result that is not a pass (a leg that scored below every scenario), marked ✗."""

    def leg_progress(self, revision: str, leg: str, done: int, total: int) -> None:
        """`done` of `total` scenarios of one leg have finished."""

    def warn(self, text: str) -> None:
        """Something went wrong but the assessment goes on."""

    def close(self) -> None:
        """Stop any live display; further calls are ignored."""

    def __enter__(self) -> NullProgress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
