"""tiercheck: decides which SEP-1730 tier an MCP SDK has earned, and shows why."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
