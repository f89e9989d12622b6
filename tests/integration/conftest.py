"""The fixtures every end-to-end module shares: one session cache with the harness provisioned.

Session-scoped here (not imported into each module) so that every module of a test process
shares one provisioned cache instead of provisioning its own.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.e2e import BROKEN_TEXT, SIMPLE_TEXT, Origin, Session, copy_sample, git
from tiercheck.conformance.harness import provision
from tiercheck.paths import default_cache_dir


def pytest_configure(config: pytest.Config) -> None:
    # One provisioned harness for every module and every xdist worker: each module links its
    # own cache's `harness/` to it (clones and builds stay apart), instead of each installing
    # Node 22 and the harness from npm again. Unset, it is the default cache, as for a user.
    os.environ.setdefault("TIERCHECK_CACHE", str(default_cache_dir()))


@pytest.fixture(scope="session")
def session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    cache = tmp_path_factory.mktemp("e2e-cache")
    home = tmp_path_factory.mktemp("e2e-home")
    explicit = os.environ.get("TIERCHECK_CACHE")
    if explicit:
        # Reuse a provisioned harness, but keep clones and build markers of this session apart
        # (a cache hit from an earlier session would hide the first build).
        provision(Path(explicit))
        (cache / "harness").symlink_to((Path(explicit) / "harness").resolve())
    harness = provision(cache)
    return Session(cache, home, harness)


@pytest.fixture(scope="session")
def origin(session: Session, tmp_path_factory: pytest.TempPathFactory) -> Origin:
    path = copy_sample(tmp_path_factory.mktemp("origin") / "sample-sdk")
    env = session.env()
    git(path, "init", "-q", "-b", "main", env=env)
    git(path, "add", ".", env=env)
    git(path, "commit", "-q", "-m", "sample SDK", env=env)
    git(path, "tag", "v1.0.0", env=env)
    server = path / "server.py"
    text = server.read_text()
    assert text.count(SIMPLE_TEXT) == 1, "the sample's test_simple_text tool changed"
    server.write_text(text.replace(SIMPLE_TEXT, BROKEN_TEXT))
    git(path, "commit", "-q", "-am", "test_simple_text answers empty text", env=env)
    git(path, "tag", "v1.0.1", env=env)
    return Origin(
        path,
        v1=git(path, "rev-parse", "v1.0.0^{commit}", env=env),
        broken=git(path, "rev-parse", "v1.0.1^{commit}", env=env),
    )
