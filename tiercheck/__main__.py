"""`python -m tiercheck` runs the same command as `tier-check`."""

from __future__ import annotations

from tiercheck.cli import main

raise SystemExit(main())
