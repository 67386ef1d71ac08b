"""Processes meeting on one store: a holder that keeps it open and reopens it in-process as the app does,
while every command that opens the store runs beside it in other processes, and two `study serve` tabs
answer. At the end every answer of every process is there, the store is sound and nothing was moved aside.

The holder's in-process reopen used to close a raw descriptor of the database, which dropped SQLite's
locks: the next process to close believed it was the last, checkpointed and deleted the WAL the holder was
still writing into (answers lost, the store at times "malformed"). See ``study.held_files``."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import aiohttp
import pytest

from study.progress import Attempt, open_store
from tests.browser.harness import start_server
from tests.lrs.ralph_server import PASSWORD, USER, start as start_ralph
from tests.soak.drivers import WAIT_S, Tab, env_for, plain_quiz, start_holder, study

pytestmark = pytest.mark.slow

ROUNDS = 2
QUIZ_ANSWERS = 2


def question_ids(n: int) -> list[str]:
    from study.bank.cache import load_bank_cached

    return sorted(q.id for q in load_bank_cached().questions)[:n]


def sound(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    return conn


def moved_aside(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".corrupt-" in p.name)


def a_backup_from_elsewhere(tmp: Path) -> tuple[Path, int]:
    """A backup of another store (the learner's laptop), with answers the merge must add."""
    other = tmp / "laptop.db"
    with open_store(other) as store:
        for k in range(3):
            store.record_attempt(Attempt(f"laptop-{k}", "h", {}, "B", False, 9.0, "practice"))
        data = store.export_data()
    path = tmp / "laptop-backup.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, 3


@pytest.fixture(scope="module")
def ralph(tmp_path_factory: pytest.TempPathFactory):
    pytest.importorskip("ralph", reason="Ralph LRS is not installed (pip install -e '.[test]' brings it)")
    lrs = start_ralph(tmp_path_factory.mktemp("ralph"))
    yield lrs
    lrs.stop()


def test_every_command_beside_a_holder_that_reopens_loses_nothing(tmp_path: Path, ralph) -> None:
    db = tmp_path / "store" / "progress.db"
    db.parent.mkdir()
    env = env_for(tmp_path)
    env.update(STUDY_LRS_USER=USER, STUDY_LRS_PASSWORD=PASSWORD)
    backup, from_backup = a_backup_from_elsewhere(tmp_path)
    ids = question_ids(2)
    stop = tmp_path / "stop"
    holder = start_holder(db, stop, env)
    quiz_answers = lab_answers = 0
    try:
        for r in range(ROUNDS):
            out = tmp_path / f"round{r}"
            out.mkdir()
            running = [
                study(db, env, "plan"), study(db, env, "stats", "--json"),
                study(db, env, "suspend", ids[0]), study(db, env, "bury", ids[1]),
                study(db, env, "settings", "daily_goal", str(20 + r)),
                study(db, env, "export", str(out / "backup.json")),
                study(db, env, "export", "--format", "xapi", str(out / "answers.jsonl")),
                study(db, env, "export", "--format", "gift", str(out / "bank.gift")),
                study(db, env, "export", "--format", "anki", str(out / "deck.apkg")),
                study(db, env, "import", str(backup)),
                study(db, env, "lab", "thermal-slowdown", "--plain", "--seed", str(r), stdin="answer 1 A\n"),
                study(db, env, "regrade"), study(db, env, "reports"),
                study(db, env, "sync", "--lrs", ralph.url),
            ]
            quiz_answers += plain_quiz(db, env, QUIZ_ANSWERS, seed=100 + r)
            lab_answers += 1
            for proc in running:
                _, err = proc.communicate(timeout=WAIT_S)
                assert proc.returncode in (0, 1), (proc.args, err)
                assert "Traceback" not in err, (proc.args, err)
            assert study(db, env, "unsuspend", ids[0], ids[1]).wait(WAIT_S) == 0
    finally:
        stop.touch()
        out_text, err = holder.communicate(timeout=WAIT_S)
    assert holder.returncode == 0, err
    held = int(out_text.split()[-1])

    conn = sound(db)
    assert conn.execute("SELECT count(*) FROM attempts WHERE item_id LIKE 'holder-%'").fetchone()[0] == held
    assert conn.execute("SELECT count(*) FROM attempts WHERE item_id LIKE 'laptop-%'").fetchone()[0] == from_backup
    assert conn.execute("SELECT count(*) FROM attempts WHERE item_id LIKE 'lab.%'").fetchone()[0] == lab_answers
    others = conn.execute("SELECT count(*) FROM attempts WHERE item_id NOT LIKE 'holder-%' AND item_id NOT LIKE"
                          " 'laptop-%' AND item_id NOT LIKE 'lab.%'").fetchone()[0]
    assert others == quiz_answers
    assert moved_aside(db.parent) == []


def test_two_serve_tabs_and_the_cli_beside_a_holder_lose_nothing(tmp_path: Path) -> None:
    served = start_server(tmp_path)
    db = served.db
    env = env_for(tmp_path)
    stop = tmp_path / "stop"
    try:
        async def two_tabs_answer() -> None:
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WAIT_S)) as session:
                tabs = [await Tab.open(session, served.base, served.token) for _ in range(2)]
                await asyncio.gather(*(tab.answer_one_practice_question() for tab in tabs))
                for tab in tabs:
                    await tab.ws.close()

        holder = start_holder(db, stop, env)
        try:
            cli = [study(db, env, "plan"), study(db, env, "stats")]
            asyncio.run(two_tabs_answer())
            quiz_answers = plain_quiz(db, env, QUIZ_ANSWERS, seed=7)
            for proc in cli:
                assert proc.wait(WAIT_S) == 0
        finally:
            stop.touch()
            out_text, err = holder.communicate(timeout=WAIT_S)
        assert holder.returncode == 0, err
        held = int(out_text.split()[-1])
    finally:
        served.stop()
    conn = sound(db)
    assert conn.execute("SELECT count(*) FROM attempts WHERE item_id LIKE 'holder-%'").fetchone()[0] == held
    assert conn.execute("SELECT count(*) FROM attempts WHERE item_id NOT LIKE 'holder-%'").fetchone()[0] == \
        2 + quiz_answers
    assert moved_aside(db.parent) == []
