"""Fixtures for the quiz engine tests (helpers live in quiz_fixtures.py so test modules can import them)."""

from __future__ import annotations

import pytest

from quiz_fixtures import FakeStore, make_bank


@pytest.fixture
def bank():
    return make_bank()


@pytest.fixture
def fake_store() -> FakeStore:
    return FakeStore()
