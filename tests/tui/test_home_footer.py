"""Home's footer lists the Labs key where it fits beside the others, and the key opens the labs everywhere."""

from __future__ import annotations

import pytest

from tests.tui.conftest import settle


@pytest.mark.parametrize("size, problems, listed", [
    ((80, 24), False, False),
    ((100, 30), False, True),
    ((100, 30), True, False),   # "! Problems" takes the room first
    ((112, 30), True, True),
    ((120, 40), False, True),
])
async def test_labs_are_listed_where_they_fit_and_open_at_every_width(make_app, size, problems, listed):
    from textual.widgets._footer import FooterKey

    from study.tui.screens.lab import LabPickScreen

    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        if problems:
            app.services.errors.append("a broken file")
            app.screen.refresh_bindings()
            await settle(pilot, app)
        keys = list(app.screen.query(FooterKey))
        assert ("o" in {k.key for k in keys}) == listed
        assert ("exclamation_mark" in {k.key for k in keys}) == problems
        spans = sorted((k.region.x, k.region.right) for k in keys)
        assert all(right <= size[0] for _x, right in spans) and all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
        await pilot.press("o")
        await settle(pilot, app)
        assert isinstance(app.screen, LabPickScreen)
