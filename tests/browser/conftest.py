"""One `study serve` and one headless chromium per module, shared by that module's tests."""

from __future__ import annotations

from typing import Any
from collections.abc import Iterator

import pytest

from .harness import CHROMIUM, CHROMIUM_ARGS, Served, start_server


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = start_server(tmp_path_factory.mktemp("serve"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser_context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1000, "height": 620})
        try:
            yield context
        finally:
            context.close()
