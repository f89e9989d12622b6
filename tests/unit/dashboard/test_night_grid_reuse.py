"""The nights' grids of one build share their rows' markup (`NightGridPages`): a row made of
the very cells of a row made before is that row's markup. Each night's page must still be the
page of that night alone, rendered with nothing kept from other nights — above all on the
night a row's cell changes after nights that reused the row.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from support.nights import R1, R2, records, thirty_nights
from tiercheck.config.requirements import load_requirement_set
from tiercheck.dashboard.grid import runs_by_line
from tiercheck.dashboard.timegrid import NightGrids
from tiercheck.dashboard.views_html import NightGridPages

IMAGE = "tools-call-image"
PAGES = {("server", IMAGE): "scenarios/server-tools-call-image.html"}


@functools.cache
def _sets() -> dict[str, dict[str, Sequence[str]]]:
    found = {r: load_requirement_set(r) for r in (R1, R2)}
    return {r: {"server": f.server, "client": f.client} for r, f in found.items()}


def _image_row(page: str) -> str:
    """The first table's (R1 server) row of tools-call-image."""
    found = re.search(rf'<tr id="g-{R1}-server-tools-call-image">.*?</tr>', page, re.S)
    assert found is not None
    return found.group()


def test_each_nights_grid_is_the_page_of_that_night_alone() -> None:
    grids = NightGrids(runs_by_line(records(thirty_nights(30))), _sets(), pages=PAGES)
    shared = NightGridPages()  # as publish renders them: one for every night, in order
    rows = {}
    for i, night in enumerate(grids.nights):
        before = grids.nights[i - 1] if i else None
        page = shared.render(grids.grid(night), night, before)
        alone = NightGridPages().render(grids.grid(night), night, before)
        assert page == alone, night
        rows[int(night[-2:])] = _image_row(page)
    # alpha's tools-call-image (hand-worked in test_views): passes to night 11, fails from 12
    # to 14, passes again from 15, unmeasured on 20. Its row is the same markup while the cells
    # are, and another one the night a cell changes.
    assert rows[2] == rows[11]
    assert rows[12] != rows[11]
    assert 'class="s-fail"' in rows[12]
    assert 'class="s-fail"' not in rows[11]
    assert rows[13] == rows[12]
    assert rows[15] != rows[11]  # passing again, since 2026-10-15, not since 2026-10-01
    assert "since 2026-10-15" in rows[15]
    assert "since 2026-10-01" in rows[11]
    assert rows[20] != rows[19]
    assert 'class="s-unmeasured"' in rows[20]
    assert rows[21] == rows[19]  # an unmeasured night does not break a verdict's stretch
