"""The app's day is the learner's day, as the commands' is: "today" turns at local midnight, not UTC's."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator

import pytest

from study.tui import summary
from study.tui.services import Services

# UTC+14 and UTC-12 (POSIX names count the other way). Whatever the hour, at least one of the two is on
# another calendar day than UTC (the first from 10:00 UTC, the second before 12:00 UTC), so the day test
# below fails on a UTC clock at any time it runs.
ZONES = {"Etc/GMT-14": 14, "Etc/GMT+12": -12}


@pytest.fixture(params=sorted(ZONES))
def zone(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield ZONES[request.param]
    monkeypatch.undo()
    time.tzset()


def test_the_apps_clock_is_in_the_learners_zone(zone: int) -> None:
    now = Services().now()
    assert now.utcoffset() == dt.timedelta(hours=zone)
    # The same instant as UTC's now, only told in local time.
    assert abs(now - dt.datetime.now(dt.timezone.utc)) < dt.timedelta(minutes=1)


def test_home_counts_the_day_the_commands_count(zone: int) -> None:
    data = summary.home(Services())
    # `study stats` and `study plan` take today from datetime.now().astimezone().
    assert data["today_date"] == dt.datetime.now().astimezone().date()
