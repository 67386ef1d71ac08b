"""`study serve` in a browser: the page's load to a painted Home, against the terminal app's first paint.

Both are measured in the same run, interleaved, on the same store and caches, and from outside the app:

- terminal: ``study`` spawned on a pseudo-terminal (bench/startup.py's ``Terminal``), until the pty output
  holds Home's "Readiness" line;
- browser: a fresh tab of Debian's headless chromium (Playwright, system browser) on a running
  ``study serve``, from navigation start until the page has received Home's "Readiness" line on its socket
  and two animation frames have passed (so xterm.js has drawn it). Each tab starts its own app process, as
  each terminal start does.

Prints the medians and the ratio browser / terminal. Needs chromium (apt-get install chromium).

    python bench/browser_paint.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from startup import PY, STUDY, Terminal, env_for  # noqa: E402  (a sibling script, not a package)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NEEDLE = "Readiness"

# Listens on the app's socket beside textual.js (registered first, so it sees each frame as it arrives) and
# notes the page's clock (ms since navigation start) two frames after Home's text came in.
PAINT_PROBE = """
(() => {
  const Native = window.WebSocket;
  window.__homePainted = null;
  window.WebSocket = function (...args) {
    const socket = new Native(...args);
    const decoder = new TextDecoder();
    let tail = "";
    socket.addEventListener("message", (event) => {
      if (window.__homePainted !== null || typeof event.data === "string") return;
      // Stripped of escape sequences, as the pty side is: a styled word may have one in its middle.
      tail = (tail + decoder.decode(event.data, {stream: true})).slice(-65536);
      if (tail.replace(/\x1b\[[0-9;?<>=!]*[ -\/]*[@-~]/g, "").includes("%s")) {
        requestAnimationFrame(() => requestAnimationFrame(() => { window.__homePainted = performance.now(); }));
        window.__homePainted = -1;
      }
    });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
""" % NEEDLE


def terminal_paint(tmp: Path) -> float:
    env = env_for(tmp, tmp / "unused-mark.txt")
    env.pop("STUDY_TUI_BENCH")
    term = Terminal([STUDY], env)
    try:
        return (term.wait_for(NEEDLE, term.t0, timeout=60) - term.t0) / 1e9
    finally:
        term.close()


def browser_paint(context, url: str) -> float:
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_function("() => window.__homePainted > 0", timeout=60_000)
        return page.evaluate("window.__homePainted") / 1e3
    finally:
        page.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7, help="loads of each (median taken)")
    args = ap.parse_args()
    if not STUDY:
        sys.exit("bench: the `study` command is not installed in this environment")
    if not os.path.exists(CHROMIUM):
        sys.exit("bench: chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="study-bench-") as tmpdir:
        tmp = Path(tmpdir)
        env = env_for(tmp, tmp / "unused-mark.txt")
        env.pop("STUDY_TUI_BENCH")
        server = subprocess.Popen([PY, "-m", "study", "serve", "--port", "0"], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        try:
            assert server.stdout is not None
            url = server.stdout.readline().strip()
            if not url.startswith("http://127.0.0.1:"):
                sys.exit(f"bench: study serve printed {url!r}")
            with sync_playwright() as p:
                context = p.chromium.launch_persistent_context(
                    str(tmp / "profile"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
                    viewport={"width": 1000, "height": 620})
                context.add_init_script(PAINT_PROBE)
                terminal_paint(tmp)  # warm the OS file cache and write the home snapshot both will use
                browser_paint(context, url)
                terms, pages = [], []
                for _ in range(args.runs):
                    terms.append(terminal_paint(tmp))
                    pages.append(browser_paint(context, url))
                context.close()
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(30)
    mt, mp = statistics.median(terms), statistics.median(pages)
    print(f"Home painted, median of {args.runs} (same run, interleaved)")
    print(f"  terminal: spawn to Home's '{NEEDLE}' on the pty   {mt * 1e3:7.0f} ms   (baseline 1.00x)")
    print(f"  browser:  navigation to Home painted in the tab  {mp * 1e3:7.0f} ms   {mp / mt:5.2f}x")


if __name__ == "__main__":
    main()
