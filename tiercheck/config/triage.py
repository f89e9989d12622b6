"""Loading a triage file (`triage.yaml`, kept in the repository that runs the nightly).

Each entry links a known failure to the issue that tracks it, reviewed by a person::

    triage:
      - line: alpha-sdk                 # the SDK line as the dashboard names it
        scenario: tools-call-image
        revision: "2025-11-25"          # optional: left out, every revision
        leg: server                     # optional: left out, both legs
        issue: https://github.com/example/alpha-sdk/issues/12
        note: image content is sent without a MIME type; fix in review

It is validated against `tiercheck/schemas/triage.schema.json` on load; any problem is one
`ConfigError` line naming the file, the place in it and the fix. The issue must be an issue or
pull request on github.com (`https://github.com/OWNER/REPO/issues/N`): every SDK line and the
conformance harness track their work there, and tracking issues are written there; a narrow
form leaves no room for a query, a fragment, credentials or another host in a link the pages
show. The note is reviewed text, shown as text (escaped like everything else).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tiercheck.config.validate import validate
from tiercheck.config.yamlio import load_yaml
from tiercheck.errors import ConfigError
from tiercheck.revisions import Leg, is_known_revision, unknown_revision

__all__ = ["TriageEntry", "load_triage", "parse_triage"]


@dataclass(frozen=True)
class TriageEntry:
    """One reviewed link: a failure of `scenario` in `line` (at `revision` and `leg`, each
    None for every one) → the issue that tracks it, and a note."""

    line: str
    scenario: str
    revision: str | None
    leg: Leg | None
    issue: str
    note: str
    #: The file it was read from, as given, and its place in the file's list.
    source: str
    index: int

    @property
    def where(self) -> str:
        """`path/to/triage.yaml: triage[2]`, for the command line."""
        return f"{self.source}: triage[{self.index}]"

    @property
    def place(self) -> str:
        """`triage.yaml: triage[2]` (the file's name alone), for the published pages."""
        return f"{Path(self.source).name}: triage[{self.index}]"

    @property
    def issue_label(self) -> str:
        """`OWNER/REPO#N`, the issue as GitHub writes a reference to it."""
        parts = self.issue.split("/")
        return f"{parts[3]}/{parts[4]}#{parts[6]}"

    @property
    def subject(self) -> str:
        """`alpha-sdk 2025-11-25 server tools-call-image` (every revision / both legs: `*`)."""
        return f"{self.line} {self.revision or '*'} {self.leg or '*'} {self.scenario}"


def parse_triage(data: object, source: str) -> tuple[TriageEntry, ...]:
    """Validated entries from the file's parsed YAML; one-line `ConfigError` on any problem
    (an unknown revision, an entry listed twice for the same failure)."""
    validate(data, "triage", source)
    assert isinstance(data, dict)
    entries: list[TriageEntry] = []
    seen: dict[tuple[str, str, str | None, str | None], str] = {}
    for index, raw in enumerate(data.get("triage") or []):
        where = f"triage[{index}]"
        revision = raw.get("revision")
        if revision is not None and not is_known_revision(revision):
            msg = f"{source}: {where}.revision: {unknown_revision(revision)}"
            raise ConfigError(msg)
        key = (raw["line"], raw["scenario"], revision, raw.get("leg"))
        if key in seen:
            msg = (
                f"{source}: {where}: the same failure as {seen[key]}; keep one entry for it "
                "(or name a revision or leg to tell them apart)"
            )
            raise ConfigError(msg)
        seen[key] = where
        entries.append(
            TriageEntry(
                line=raw["line"],
                scenario=raw["scenario"],
                revision=revision,
                leg=raw.get("leg"),
                issue=raw["issue"],
                note=raw["note"],
                source=source,
                index=index,
            )
        )
    return tuple(entries)


def load_triage(path: Path) -> tuple[TriageEntry, ...]:
    """Read and validate a triage file."""
    return parse_triage(load_yaml(path), str(path))
