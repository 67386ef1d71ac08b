"""Real `study` processes sharing one store, for the soak tests: a holder that writes and reopens the store
in-process as the app does, a plain quiz answered as a learner would, and a browser tab over a raw websocket.

Every wait is bounded (a hang guard for a loaded 2-core machine, never a speed assertion)."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

WAIT_S = 120.0
ANSI = re.compile(rb"\x1b\[[0-9;?<>=!]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")

# Holds the store for its whole life and records an answer after every in-process reopen the app makes:
# the automatic-sync check (sync off, as for most learners), a second handle as Settings or a worker opens,
# and the deleted-store check before a write. It stops when the stop file appears and prints its count.
HOLDER = textwrap.dedent(
    """
    import os, sys, time
    from study.interop.sync import auto_sync
    from study.progress import Attempt, open_store
    db, stop = sys.argv[1], sys.argv[2]
    store = open_store(db)
    print("ready", flush=True)
    k = 0
    while not os.path.exists(stop):
        store.record_attempt(Attempt(f"holder-{k}", "h", {}, "A", True, 5.0, "practice"))
        k += 1
        step = k % 3
        if step == 0:
            assert auto_sync(db) is None  # sync is off
        elif step == 1:
            with open_store(db) as again:
                again.get_setting("daily_goal")
        else:
            store._follow_path()
        time.sleep(0.01)
    store.record_attempt(Attempt(f"holder-{k}", "h", {}, "A", True, 5.0, "practice"))
    store.close()
    print(k + 1, flush=True)
    """
)


def env_for(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("STUDY_DB", "STUDY_TUI_BENCH", "NO_COLOR", "STUDY_LRS_TOKEN"):
        env.pop(name, None)
    env.update(XDG_CACHE_HOME=str(tmp / "cache"), XDG_DATA_HOME=str(tmp / "data"),
               XDG_CONFIG_HOME=str(tmp / "config"), TEXTUAL_ANIMATIONS="none", STUDY_WATCH="0")
    return env


def start_holder(db: Path, stop: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), str(stop)], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line == "ready", proc.stderr.read() if proc.stderr else line
    return proc


def study(db: Path, env: dict[str, str], *args: str, stdin: str | None = None) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-m", "study", "--db", str(db), *args], env=env, text=True,
                            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if stdin is not None:
        _end_input(proc, stdin)
    return proc


def _end_input(proc: subprocess.Popen[str], text: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(text)
    proc.stdin.close()
    proc.stdin = None  # closed: ``communicate`` must not flush it


def reply_to(hint: str) -> str:
    """What a learner types at the plain quiz's ``Answer: HINT`` line, for each kind of question."""
    if hint.startswith("T or F"):
        return "T"
    many = re.match(r"(\d+) letters", hint)
    if many:
        return ",".join("ABCDEFG"[: int(many.group(1))])
    unit = re.search(r"the question's unit is ([^)]+)\)", hint)
    if unit:
        return f"1 {unit.group(1)}"
    if hint.startswith("a plain number"):
        return "1"
    return "A"


def plain_quiz(db: Path, env: dict[str, str], count: int, seed: int) -> int:
    """Answer every question of a plain practice set of ``count``; returns how many answers it gave."""
    proc = subprocess.Popen([sys.executable, "-m", "study", "--db", str(db), "quiz", "--plain", "--mode",
                             "practice", "--count", str(count), "--seed", str(seed)], env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    given = 0
    for line in proc.stdout:
        if line.startswith("Answer: ") and given < count:
            proc.stdin.write(reply_to(line[len("Answer: "):]) + "\n")
            proc.stdin.flush()
            given += 1
        if given == count:
            break
    _end_input(proc, "")
    _, err = proc.communicate(timeout=WAIT_S)
    assert proc.returncode == 0, err
    return given


class Tab:
    """One browser tab of `study serve` over a raw websocket, as textual.js speaks to it."""

    def __init__(self, ws: object) -> None:
        self.ws = ws
        self.frames: list[bytes] = []

    @classmethod
    async def open(cls, session: object, base: str, token: str) -> Tab:
        url = base.replace("http://", "ws://") + f"/ws?token={token}&width=100&height=32"
        ws = await session.ws_connect(url, headers={"Origin": base})  # type: ignore[attr-defined]
        return cls(ws)

    def text(self, since: int = 0) -> str:
        return ANSI.sub(b"", b"".join(self.frames[since:])).decode("utf-8", "replace")

    async def wait_for(self, *needles: str, since: int = 0) -> str:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            text = self.text(since)
            for needle in needles:
                if needle in text:
                    return needle
            try:
                msg = await self.ws.receive(timeout=1.0)  # type: ignore[attr-defined]
            except asyncio.TimeoutError:
                continue
            if isinstance(msg.data, bytes):
                self.frames.append(msg.data)
        raise AssertionError(f"none of {needles!r} arrived; the last output was:\n{self.text(since)[-1500:]}")

    async def keys(self, *keys: str) -> int:
        mark = len(self.frames)
        for key in keys:
            await self.ws.send_json(["stdin", key])  # type: ignore[attr-defined]
        return mark

    async def answer_one_practice_question(self) -> None:
        await self.wait_for("Readiness")
        since = await self.keys("p")
        await self.wait_for("Which questions", since=since)
        since = await self.keys("s")
        await self.wait_for("practice ·", since=since)
        await asyncio.sleep(0.3)
        await self.wait_for("A)", "type the number", since=since)
        shown = self.text(since)
        if "type the number" in shown:
            mark = await self.keys("1", "4", "0", "\r")
        elif "[ ] A)" in shown:
            mark = await self.keys("1", "2", "\r")
        else:
            mark = await self.keys("1", "\r")
        await self.wait_for("enter: next question", since=mark)
