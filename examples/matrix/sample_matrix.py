"""Make the sample matrix: a local git repository of the sample SDK with three tags, and the
matrix file that assesses them (plus a line whose toolchain this machine lacks).

    python examples/matrix/sample_matrix.py [OUT]     (default: reports/sample-matrix)

Tags: v1.0.0 is the sample as it is; v1.1.0 breaks one server scenario (the
`test_simple_text` tool answers an empty text, so tools-call-simple-text fails); v1.2.0 does
not build (a syntax error in client.py stops the build's compile step). The matrix file also
asks for `sample-sdk-net`, the same SDK declared to need .NET 10, which examples/matrix's
known_sdks.yaml lists. The commits are the same on every run (fixed dates), so builds stay
cached between runs. Prints the matrix file's path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "sample-sdk"
SIMPLE_TEXT = 'text("This is a simple text response for testing.")'
BROKEN_TEXT = 'text("")'
IDENTITY = (
    "-c",
    "user.name=Sample Matrix",
    "-c",
    "user.email=sample-matrix@example.invalid",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "tag.gpgsign=false",
    "-c",
    "init.defaultBranch=main",
)


#: Fixed dates make the same commits every time, so a second run finds its builds cached.
DATES = {"GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, **DATES}
    subprocess.run(["git", *IDENTITY, *args], cwd=repo, check=True, capture_output=True, env=env)


def make_repository(dest: Path) -> Path:
    """The sample SDK as a git repository at `dest` with tags v1.0.0, v1.1.0 and v1.2.0."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(SAMPLE, dest, ignore=shutil.ignore_patterns(".venv", "__pycache__"))
    _git(dest, "init", "-q", "-b", "main")
    _git(dest, "add", ".")
    _git(dest, "commit", "-q", "-m", "sample SDK")
    _git(dest, "tag", "v1.0.0")
    server = dest / "server.py"
    text = server.read_text(encoding="utf-8")
    if text.count(SIMPLE_TEXT) != 1:
        sys.exit("examples/sample-sdk/server.py changed: its test_simple_text answer is gone")
    server.write_text(text.replace(SIMPLE_TEXT, BROKEN_TEXT), encoding="utf-8")
    _git(dest, "commit", "-q", "-am", "test_simple_text answers an empty text")
    _git(dest, "tag", "v1.1.0")
    client = dest / "client.py"
    client.write_text(client.read_text(encoding="utf-8") + "\ndef broken(:\n", encoding="utf-8")
    _git(dest, "commit", "-q", "-am", "client.py no longer compiles")
    _git(dest, "tag", "v1.2.0")
    return dest


def write_matrix_file(path: Path, repository: Path) -> Path:
    """The matrix file of the four sample rows, cloning from `repository`."""
    url = repository.resolve().as_uri()
    rows = [
        ("sample-sdk", "v1.0.0"),
        ("sample-sdk", "v1.1.0"),
        ("sample-sdk", "v1.2.0"),
        ("sample-sdk-net", "v1.0.0"),
    ]
    lines = ["# The sample matrix (examples/matrix/sample_matrix.py).", "rows:"]
    for sdk, ref in rows:
        lines += [f"  - sdk: {sdk}", f"    ref: {ref}", f"    git_url: {url}"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    """Make the repository and the matrix file under OUT."""
    out = Path(argv[0]) if argv else Path("reports") / "sample-matrix"
    repository = make_repository(out / "sample-sdk.git")
    print(write_matrix_file(out / "matrix.yaml", repository))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
