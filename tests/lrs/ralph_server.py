"""Ralph's LRS API on one loopback port, with its filesystem backend, for the LRS tests and bench/lrs.py.

Ralph 5.1's filesystem backend is the only one that runs without a database server, and it has two bugs
that make it no LRS at all; both are mended here and nowhere else:

1. its data backend writes with ``operation_type=CREATE`` by default, which refuses to write to an existing
   file, while its LRS backend keeps every statement in one file (``fs_lrs.jsonl``): out of the box the
   second POST answers 500 ("already exists and overwrite is not allowed"). It now appends. Ralph's own
   duplicate and conflict checks (204 for an identical statement, 409 for a differing one) run before the
   write and are untouched.
2. the API hands the ``activity`` parameter over as a pydantic ``IRI`` object, which the filesystem filter
   compares with the statements' plain strings: ``GET /statements?activity=...`` matches nothing. The filter
   now gets the IRI's text.

The client under test speaks plain xAPI 1.0.3 and knows nothing of either.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

USER, PASSWORD = "teacher", "s3cret-not-for-logs"


@dataclass
class Lrs:
    url: str  # the xAPI base, e.g. http://127.0.0.1:PORT/xAPI
    data: Path  # the folder of Ralph's JSON-lines statement file
    process: subprocess.Popen

    def stored(self) -> list[dict]:
        path = self.data / "fs_lrs.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(root: Path, page_limit: int = 100) -> Lrs:
    """Ralph on a free loopback port, with a user ``USER``/``PASSWORD``; raises RuntimeError if it won't run."""
    import bcrypt

    data = root / "statements"
    data.mkdir(parents=True, exist_ok=True)
    auth = root / "auth.json"
    auth.write_text(json.dumps([{
        "agent": {"mbox": "mailto:teacher@example.com"}, "scopes": ["all"], "username": USER,
        "hash": bcrypt.hashpw(PASSWORD.encode(), bcrypt.gensalt(4)).decode(), "target": None,
    }]), encoding="utf-8")
    port = free_port()
    env = dict(os.environ, RALPH_RUNSERVER_BACKEND="fs", RALPH_AUTH_FILE=str(auth), RALPH_APP_DIR=str(root / "app"),
               RALPH_BACKENDS__LRS__FS__DEFAULT_DIRECTORY_PATH=str(data),
               RALPH_RUNSERVER_MAX_SEARCH_HITS_COUNT=str(page_limit))
    log = root / "ralph.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, __file__, str(port)], env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    # Start-up imports FastAPI and pydantic models: seconds on a busy machine. A bounded readiness wait for a
    # server, so a broken install fails instead of hanging; not a speed assertion.
    deadline = time.monotonic() + 120
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"Ralph exited at start-up:\n{log.read_text(errors='replace')[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/__lbheartbeat__", timeout=2):
                break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("Ralph did not answer within 120 s") from None
            time.sleep(0.2)
    return Lrs(url=f"{url}/xAPI", data=data, process=process)


def _serve(port: int, host: str = "127.0.0.1") -> None:
    import uvicorn
    from ralph.backends.data.base import BaseOperationType
    from ralph.backends.data.fs import FSDataBackend
    from ralph.backends.lrs.fs import FSLRSBackend

    FSDataBackend.default_operation_type = BaseOperationType.APPEND
    by_activity = FSLRSBackend._add_filter_by_activity

    def by_activity_text(filters: list, object_id, related) -> None:
        by_activity(filters, None if object_id is None else str(object_id), related)

    FSLRSBackend._add_filter_by_activity = staticmethod(by_activity_text)
    uvicorn.run("ralph.api:app", host=host, port=port, log_level="warning")


if __name__ == "__main__":
    # python tests/lrs/ralph_server.py PORT [HOST]: the same LRS for a class (README, "A class on a learning
    # record store"); Ralph's own settings (RALPH_AUTH_FILE, RALPH_BACKENDS__LRS__FS__...) apply.
    _serve(int(sys.argv[1]), *sys.argv[2:3])
