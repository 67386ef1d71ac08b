"""`study serve` in a real browser: Home paints, a practice answer reaches the store, nothing leaves loopback.

One server and one chromium for the module (fixtures in conftest.py); each test opens its own tab (and so its
own app process), so they hold under pytest-xdist's spreading too."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from .harness import WAIT_S, Served, Tab, needs_chromium

pytestmark = [pytest.mark.slow, needs_chromium]

LOOPBACK = {"127.0.0.1"}


def answer_current_question(tab: Tab, shown: str) -> None:
    """Pick as a learner would for the kind of question on screen (the bank mixes kinds)."""
    if "type the number" in shown:
        tab.page.keyboard.type("140")  # a bare number is read in the question's unit, whatever it is
        tab.press("Enter")
    elif "[ ] A)" in shown:  # check boxes: a choose-two wants both picks before it grades
        tab.press("1", "2", "Enter")
    else:
        tab.press("1", "Enter")


def test_home_then_a_practice_answer_is_stored(served: Served, browser_context: Any,
                                               tmp_path_factory: pytest.TempPathFactory) -> None:
    tab = Tab(browser_context)
    try:
        tab.page.goto(served.url)
        tab.wait_for("Readiness")
        tab.wait_for("Practice")  # the footer's keys: the page gave the terminal focus once the app painted
        tab.page.wait_for_function("() => document.body.classList.contains('-first-byte')", timeout=WAIT_S * 1000)
        tab.page.wait_for_timeout(300)  # let the fade-in finish so the picture is the app, not the curtain
        shot = tmp_path_factory.mktemp("artifacts") / "browser-home.png"
        tab.page.screenshot(path=str(shot))
        if os.environ.get("STUDY_TEST_ARTIFACTS"):
            shutil.copy(shot, Path(os.environ["STUDY_TEST_ARTIFACTS"]) / shot.name)
        assert shot.stat().st_size > 20_000  # a painted terminal, not an empty dark page
        # The token left the address bar (no bookmark, no Referer carries it); the cookie carries on.
        assert "token" not in tab.page.url

        assert served.stats()["attempts"] == 0
        since = tab.press("p")
        tab.wait_for("Which questions", since=since)
        since = tab.press("s")
        tab.wait_for("practice ·", since=since)
        tab.page.wait_for_timeout(300)
        answer_current_question(tab, tab.text_since(since))
        tab.wait_for("enter: next question", since=since)

        deadline = time.monotonic() + WAIT_S
        while served.stats()["attempts"] == 0 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert served.stats()["attempts"] == 1  # the tab's app wrote to the --db given to `study serve`
    finally:
        tab.close()


def test_no_request_leaves_loopback(served: Served, browser_context: Any) -> None:
    tab = Tab(browser_context)
    try:
        tab.page.goto(served.url)
        tab.wait_for("Readiness")
        tab.press("t")  # a screen full of cards and references: still nothing fetched from elsewhere
        tab.wait_for("Topics")
        tab.page.wait_for_timeout(500)
        urls = tab.requests + tab.sockets
    finally:
        tab.close()
    hosts = {urlsplit(u).hostname for u in urls if not u.startswith(("data:", "blob:"))}
    assert hosts == LOOPBACK, urls
    paths = {urlsplit(u).path for u in urls}
    # The page, its script, the font the wheel ships (served here, not by a CDN) and the app's socket.
    assert {"/", "/static/js/textual.js", "/static/fonts/RobotoMono-VariableFont_wght.ttf", "/ws"} <= paths


def test_the_page_reloads_on_its_cookie_and_without_it_gets_403(served: Served, browser_context: Any) -> None:
    tab = Tab(browser_context)
    try:
        first = tab.page.goto(served.url)
        assert first is not None and first.status == 200
        again = tab.page.goto(served.base + "/")  # no token in the URL: the HttpOnly cookie lets it in
        assert again is not None and again.status == 200
        tab.wait_for("Readiness")
    finally:
        tab.close()
    # The same browser without the cookie, as another person's would be: refused, page and script alike.
    browser_context.clear_cookies()
    tab = Tab(browser_context)
    try:
        for path in ("/", "/static/js/textual.js", "/?token=" + "x" * len(served.token)):
            refused = tab.page.goto(served.base + path)
            assert refused is not None and refused.status == 403, path
        assert tab.sockets == [] and tab.frames == []
    finally:
        tab.close()


RECORD_WINDOW_OPEN = """
window.__opened = [];
window.open = (url, target, features) => { window.__opened.push([String(url), target, features]); return null; };
"""


def run_from_palette(tab: Tab, title: str) -> int:
    """ctrl+p, type the command's title, enter: the way to any topic or command that needs no mouse."""
    tab.wait_for("Search for commands", since=tab.press("Control+p"))
    since = tab.mark()
    tab.page.keyboard.type(title)
    tab.wait_for(title[-12:], since=since)
    tab.page.wait_for_timeout(1000)  # the palette searches as it is typed, in the background; let it finish
    return tab.press("Enter")


def test_a_card_link_opens_in_a_new_tab_and_progress_downloads(served: Served, browser_context: Any) -> None:
    from study.bank import load_bank

    from .harness import click_text

    topic = next(t for t in load_bank().topics if t.meta.title == "NVIDIA AI Enterprise and NIM")
    reference = topic.meta.references[1]
    tab = Tab(browser_context)
    # window.open is recorded instead of followed: the test sees where a link goes without leaving 127.0.0.1.
    tab.page.add_init_script(RECORD_WINDOW_OPEN)
    try:
        tab.page.goto(served.url)
        tab.wait_for("Practice")
        tab.wait_for("1.1 Describe", since=tab.press("t"))
        tab.page.wait_for_timeout(500)
        # The mouse, as in a terminal: open objective 1.1 in the tree, pick its topic, click a reference.
        since = tab.mark()
        click_text(tab, "1.1 Describe")
        tab.wait_for(topic.meta.title, since=since)
        tab.page.wait_for_timeout(500)
        since = tab.mark()
        click_text(tab, topic.meta.title)
        tab.wait_for(reference.title[:30], since=since)
        tab.page.wait_for_timeout(500)
        click_text(tab, reference.title[:30])
        tab.page.wait_for_function("() => window.__opened.length > 0", timeout=WAIT_S * 1000)
        # Opened without a handle on this tab (no window.opener) and without a Referer: the page opened cannot
        # send the study tab elsewhere (reverse tabnabbing).
        assert tab.page.evaluate("() => window.__opened") == [[reference.url, "_blank", "noopener,noreferrer"]]

        # "Export progress" from the command palette: the browser is handed the backup as a download.
        run_from_palette(tab, "Export progress")
        tab.page.wait_for_function("() => window.__opened.length > 1", timeout=WAIT_S * 1000)
        url, target, features = tab.page.evaluate("() => window.__opened[1]")
        assert url.startswith(served.base + "/download/") and target == "_blank" and features == "noopener,noreferrer"
        got = tab.page.evaluate("async (url) => { const r = await fetch(url);"
                                " return [r.status, r.headers.get('content-disposition'), await r.text()]; }", url)
        status, disposition, body = got
        assert status == 200 and "attachment" in disposition and "study-progress-" in disposition
        backup = json.loads(body)
        assert len(backup["attempts"]) == served.stats()["attempts"]
    finally:
        tab.close()


ANOTHER_PORTS_PAGE = """<!DOCTYPE html><script>
window.result = {opened: false, messages: 0, closed: false};
const socket = new WebSocket("ws://127.0.0.1:%d/ws?width=80&height=24");
socket.onopen = () => { window.result.opened = true; socket.send(JSON.stringify(["stdin", "\\u0010"])); };
socket.onmessage = () => { window.result.messages += 1; };
socket.onclose = () => { window.result.closed = true; };
</script>"""


def test_a_page_on_another_local_port_cannot_open_the_socket(served: Served, browser_context: Any) -> None:
    """Another local server's page (a notebook, a dev server, a package's server) is the same *site*, so the
    SameSite=Strict cookie goes with its websocket: only the Origin check stops it reading the screen."""
    import http.server
    import threading

    from .test_serve_http import children_of

    port = int(served.base.rsplit(":", 1)[1])
    page = (ANOTHER_PORTS_PAGE % port).encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: object) -> None:
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    tab = Tab(browser_context)
    try:
        tab.page.goto(served.url)  # the learner's own tab: the browser now holds the cookie
        tab.wait_for("Readiness")
        before = set(children_of(served.proc.pid))
        evil = browser_context.new_page()
        try:
            evil.goto(f"http://127.0.0.1:{other.server_address[1]}/")
            evil.wait_for_function("() => window.result.closed", timeout=WAIT_S * 1000)
            assert evil.evaluate("() => window.result") == {"opened": False, "messages": 0, "closed": True}
        finally:
            evil.close()
        assert set(children_of(served.proc.pid)) == before  # no app was started for it
    finally:
        tab.close()
        other.shutdown()
