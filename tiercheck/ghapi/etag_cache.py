"""An on-disk cache of GitHub GET responses for conditional requests.

GitHub answers `If-None-Match` with 304 when nothing changed, and 304s do not count against the
primary rate limit, so a re-run costs almost nothing. Each entry holds the URL, the ETag, the
`Link` header (pagination must continue from a 304) and the JSON body. Request headers are never
stored, so the token never reaches the disk.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tiercheck import durable

__all__ = ["CachedResponse", "EtagCache"]


@dataclass(frozen=True)
class CachedResponse:
    """A stored response: its validator, its pagination links and its body."""

    etag: str
    link: str | None
    body: Any


class EtagCache:
    """ETag-validated responses under `directory/http/`, one JSON file per request key."""

    def __init__(self, directory: Path) -> None:
        """Use (and create on first write) `directory` for the cache files."""
        self.directory = directory / "http"

    def _path(self, key: str) -> Path:
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()
        return self.directory / f"{digest}.json"

    def get(self, key: str) -> CachedResponse | None:
        """The stored response for `key`, or None (missing or unreadable entries are misses)."""
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("key") != key or "etag" not in data:
            return None
        return CachedResponse(etag=data["etag"], link=data.get("link"), body=data.get("body"))

    def put(self, key: str, etag: str, link: str | None, body: Any) -> None:
        """Store a response atomically; a failure to write only costs a future request."""
        entry = {"key": key, "etag": etag, "link": link, "body": body}
        path = self._path(key)
        try:
            durable.write_text(path, json.dumps(entry, sort_keys=True))
        except OSError:
            return

    def get_document(self, name: str) -> Any:
        """A JSON document kept beside the HTTP entries (e.g. derived timelines), or None."""
        try:
            return json.loads((self.directory.parent / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def put_document(self, name: str, document: Any) -> None:
        """Store a JSON document atomically next to the HTTP entries."""
        path = self.directory.parent / name
        try:
            durable.write_text(path, json.dumps(document, sort_keys=True))
        except OSError:
            return
