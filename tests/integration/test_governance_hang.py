"""Issue 12, item 18: a GitHub that answers some requests and then hangs keeps what it answered.

The deadline must leave room for the first answers on a loaded machine while the hung one uses
the rest, so this test waits out five real seconds and lives with the integration tests.
"""

from __future__ import annotations

import pytest

from support.governance_fixtures import collect_from, running
from tiercheck.governance.snapshot import Unavailable

pytestmark = pytest.mark.integration


def test_a_hang_after_some_answers_keeps_what_was_collected() -> None:
    with running() as fake:
        fake.hang(r"/releases$")
        snapshot = collect_from(fake, deadline=5.0)
    assert not isinstance(snapshot.labels, Unavailable)
    assert not isinstance(snapshot.issues, Unavailable)
    assert isinstance(snapshot.releases, Unavailable)
    assert isinstance(snapshot.policy_files, Unavailable)  # asked after the deadline
