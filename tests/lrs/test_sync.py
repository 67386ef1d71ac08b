"""``study sync`` and ``study analyze --lrs`` against a real LRS (Ralph) on the loopback address.

Learners' stores are made with the store's own API from questions of the built-in bank; what the LRS holds
is read back from Ralph's own statement file, never from our client.
"""

from __future__ import annotations

import datetime as dt
import http.server
import json
import threading
from pathlib import Path

import numpy as np
import pytest

from study.analysis.results import load_results, load_results_from_pages
from study.bank import load_bank
from study.cli import main
from study.interop import lrs_http
from study.interop.lrs import Client, Endpoint, LrsError, fetch_pages, read_credentials, statements_url
from study.interop.sync import SyncRequest, auto_sync, sync_store
from study.interop.xapi import DEFAULT_BASE, build_statements, default_actor, store_learner_id, to_jsonl
from study.progress import Attempt, open_store

from .conftest import PASSWORD, free_port

pytestmark = pytest.mark.slow
START = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.timezone.utc)
# Three learners, twelve questions: who got what right, so the item analysis has something to say.
PATTERNS = {
    "ana": [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1],
    "ben": [1, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1],
    "chi": [0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1],
}


@pytest.fixture(scope="module")
def bank():
    return load_bank()


@pytest.fixture(scope="module")
def qids(bank) -> list[str]:
    return sorted(q.id for q in bank.questions if q.type == "single")[:12]


def make_store(path: Path, bank, qids: list[str], pattern: list[int], start: dt.datetime = START) -> Path:
    with open_store(path) as store:
        for i, (qid, right) in enumerate(zip(qids, pattern)):
            store.record_attempt(Attempt(qid, bank.content_hash(qid), {}, "A", bool(right), 30.0 + i, "practice",
                                         at=start + dt.timedelta(minutes=i)))
    return path


@pytest.fixture
def stores(tmp_path: Path, bank, qids) -> dict[str, Path]:
    return {name: make_store(tmp_path / f"{name}.db", bank, qids, p) for name, p in PATTERNS.items()}


def statements_of(db: Path, bank) -> list[dict]:
    with open_store(db) as store:
        actor = default_actor(DEFAULT_BASE, store_learner_id(store))
        return build_statements(store.export_data(), bank, actor, DEFAULT_BASE)[0]


def endpoint(url: str) -> Endpoint:
    return Endpoint(statements_url(url), read_credentials(Path("/nonexistent")))


def ids_in_lrs(ralph) -> list[str]:
    return [s["id"] for s in ralph.stored()]


def acked(db: Path, url: str) -> set[str]:
    with open_store(db) as store:
        return store.lrs_acked(statements_url(url))


def test_three_learners_sync_and_a_second_sync_sends_nothing(ralph, stores, bank, credentials) -> None:
    before = len(ids_in_lrs(ralph))
    expected: list[str] = []
    for db in stores.values():
        report = sync_store(SyncRequest(db=db, url=ralph.url, batch=5), bank=bank)
        mine = [s["id"] for s in statements_of(db, bank)]
        expected += mine
        assert report.outcome.sent == len(mine) == report.outcome.pending and report.outcome.conflicts == []
        assert acked(db, ralph.url) == set(mine)
    stored = ids_in_lrs(ralph)[before:]
    assert sorted(stored) == sorted(expected)  # every statement, each once
    for db in stores.values():
        again = sync_store(SyncRequest(db=db, url=ralph.url, batch=5), bank=bank)
        assert (again.outcome.sent, again.outcome.pending) == (0, 0)
        assert again.outcome.already == len(statements_of(db, bank))
    assert len(ids_in_lrs(ralph)) == before + len(expected)
    with open_store(stores["ana"]) as store:
        assert store.get_setting("lrs_last_sync") and store.get_setting("lrs_last_error") is None


class _DiesAfter(Client):
    """Sends ``ok`` requests, then fails as a dropped network would; with ``after_send`` the last one reaches
    the LRS and only its answer is lost (the window between the LRS storing and us recording the ack)."""

    def __init__(self, endpoint: Endpoint, ok: int, after_send: bool = False) -> None:
        super().__init__(endpoint, sleep=lambda s: None)
        self.left, self.after_send = ok, after_send

    def request(self, method, url, payload=None):
        if self.left == 0:
            if self.after_send:
                super().request(method, url, payload)
            raise LrsError("network down (test)")
        self.left -= 1
        return super().request(method, url, payload)


@pytest.mark.parametrize("after_send", [False, True], ids=["before-the-lrs-stored", "after-the-lrs-stored"])
def test_an_interrupted_sync_completes_next_time_with_nothing_lost_or_doubled(ralph, stores, bank, credentials,
                                                                             after_send) -> None:
    db = stores["ben"]
    mine = [s["id"] for s in statements_of(db, bank)]
    before = ids_in_lrs(ralph)
    with pytest.raises(LrsError):
        sync_store(SyncRequest(db=db, url=ralph.url, batch=5), bank=bank,
                   client=lambda e: _DiesAfter(e, ok=1, after_send=after_send))
    assert len(acked(db, ralph.url)) == 5  # the first batch, acknowledged; the second not
    with open_store(db) as store:
        assert "network down" in store.get_setting("lrs_last_error")
    report = sync_store(SyncRequest(db=db, url=ralph.url, batch=5), bank=bank)
    assert report.outcome.already == 5 and report.outcome.sent == len(mine) - 5
    assert acked(db, ralph.url) == set(mine)
    new = ids_in_lrs(ralph)[len(before):]
    assert sorted(set(new)) == sorted(set(mine) - set(before))
    assert len(new) == len(set(new))  # nothing stored twice


def test_an_lrs_that_is_down_is_one_error_line_and_nothing_is_acknowledged(stores, credentials, capsys,
                                                                           monkeypatch) -> None:
    monkeypatch.setattr(lrs_http, "DEFAULT_LIMITS", lrs_http.Limits(backoff=0))
    url = f"http://127.0.0.1:{free_port()}/xAPI"
    assert main(["--db", str(stores["chi"]), "sync", "--lrs", url]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"study: error: the LRS at {url}/statements did not answer after 5 tries (Connection refused)"]
    assert acked(stores["chi"], url) == set()
    # `study stats` tells the learner, once an LRS is set.
    assert main(["--db", str(stores["chi"]), "settings", "lrs_endpoint", url]) == 0
    capsys.readouterr()
    assert main(["--db", str(stores["chi"]), "stats"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert f"LRS {url}/statements: last sync never, automatic sync off; last failure" in shown
    assert "did not answer after 5 tries" in shown


class _Scripted(http.server.BaseHTTPRequestHandler):
    """Answers from a script: a status per request, then 200 with the posted ids."""

    script: list[int] = []
    seen: list[str] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append(self.headers.get("Authorization", ""))
        status = type(self).script.pop(0) if type(self).script else 200
        payload = json.dumps([s["id"] for s in body] if status == 200 else {"detail": "boom"}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def scripted():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()


def test_server_errors_are_retried_with_backoff_then_succeed(scripted, stores, bank, credentials) -> None:
    _Scripted.script, _Scripted.seen = [500, 503], []
    waits: list[float] = []
    url = f"http://127.0.0.1:{scripted.server_address[1]}/xAPI"
    report = sync_store(SyncRequest(db=stores["ana"], url=url, batch=100), bank=bank,
                        client=lambda e: Client(e, sleep=waits.append))
    assert report.outcome.sent == len(statements_of(stores["ana"], bank))
    assert waits == [0.5, 1.0]
    assert len(_Scripted.seen) == 3 and all(a.startswith("Basic ") for a in _Scripted.seen)


def test_an_lrs_answering_500_fails_cleanly_and_keeps_nothing(scripted, stores, bank, credentials, capsys,
                                                             monkeypatch) -> None:
    monkeypatch.setattr(lrs_http, "DEFAULT_LIMITS", lrs_http.Limits(backoff=0))
    _Scripted.script = [500] * 10
    url = f"http://127.0.0.1:{scripted.server_address[1]}/xAPI"
    assert main(["--db", str(stores["ben"]), "sync", "--lrs", url]) == 1
    err = capsys.readouterr().err
    assert "did not answer after 5 tries (HTTP 500: boom)" in err and PASSWORD not in err
    assert acked(stores["ben"], url) == set()


def test_a_statement_the_lrs_holds_in_another_form_is_reported_and_the_rest_sent(ralph, stores, bank, credentials,
                                                                                 capsys) -> None:
    db = stores["chi"]
    mine = statements_of(db, bank)
    differing = dict(mine[3], result={"success": not mine[3]["result"]["success"]})
    client = Client(endpoint(ralph.url))
    assert client.request("POST", client.endpoint.statements_url, [differing]).status == 200
    assert main(["--db", str(db), "sync", "--lrs", ralph.url, "--batch", "5"]) == 1
    err = capsys.readouterr().err
    assert f"statement {mine[3]['id']}: A different statement already exists with the same ID" in err
    assert "sent 11 statements" in err and "1 in conflict" in err
    assert acked(db, ralph.url) == {s["id"] for s in mine} - {mine[3]["id"]}
    with open_store(db) as store:
        assert "1 statement in conflict" in store.get_setting("lrs_last_error")


def test_analyze_from_the_lrs_equals_analyze_from_the_files(ralph, bank, qids, credentials, tmp_path,
                                                           capsys) -> None:
    # Later answers than every other test's, so --since picks out this class (Ralph's file backend filters
    # `since` on the statement's timestamp).
    later = dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.timezone.utc)
    files = []
    for name, pattern in PATTERNS.items():
        db = make_store(tmp_path / f"{name}.db", bank, qids, pattern, start=later)
        sync_store(SyncRequest(db=db, url=ralph.url), bank=bank)
        path = tmp_path / f"{name}.jsonl"
        path.write_text(to_jsonl(statements_of(db, bank)), encoding="utf-8")
        files.append(path)
    since = (later - dt.timedelta(seconds=1)).isoformat()
    from_files = load_results(files)
    pages = list(fetch_pages(Client(endpoint(ralph.url)), DEFAULT_BASE, since=since, limit=7))
    assert len(pages) > 2  # the `more` links were followed
    from_lrs = load_results_from_pages(pages, ralph.url)
    assert len(from_lrs.learners) == 3
    order, files_order = np.argsort(from_lrs.learners), np.argsort(from_files.learners)
    assert [from_files.learners[i] for i in files_order] == [from_lrs.learners[i] for i in order]
    assert from_files.questions == from_lrs.questions
    assert np.array_equal(from_files.marks[files_order], from_lrs.marks[order], equal_nan=True)

    # The command gives the same report from the LRS as from the files, and the same finding: everyone got
    # the third question right (facility over 95%), so both exit 1.
    assert main(["analyze", *map(str, files), "--json", "--min-responses", "2"]) == 1
    by_files = json.loads(capsys.readouterr().out)
    assert main(["analyze", "--lrs", ralph.url, "--since", since, "--json", "--min-responses", "2"]) == 1
    by_lrs = json.loads(capsys.readouterr().out)
    for report in (by_files, by_lrs):
        report.pop("files")
    assert by_lrs == by_files
    assert by_lrs["learners"] == 3 and by_lrs["answers"] == 36


def test_automatic_sync_runs_only_when_turned_on(ralph, stores, bank, credentials, monkeypatch) -> None:
    db = stores["ana"]
    assert auto_sync(db, bank) is None  # off by default: nothing sent
    assert acked(db, ralph.url) == set()
    assert main(["--db", str(db), "settings", "lrs_endpoint", ralph.url]) == 0
    assert auto_sync(db, bank) is None  # an LRS alone does not turn it on
    assert main(["--db", str(db), "settings", "lrs_auto_sync", "on"]) == 0
    ok, message = auto_sync(db, bank)
    assert ok and message == f"Synced {len(statements_of(db, bank))} statements to the LRS"
    assert acked(db, ralph.url) == {s["id"] for s in statements_of(db, bank)}
    # A failure is a message for the learner, never an exception in the app's worker.
    monkeypatch.setattr(lrs_http, "DEFAULT_LIMITS", lrs_http.Limits(backoff=0))
    assert main(["--db", str(db), "settings", "lrs_endpoint", f"http://127.0.0.1:{free_port()}/xAPI"]) == 0
    ok, message = auto_sync(db, bank)
    assert not ok and message.startswith("Sync to the LRS failed: the LRS at http://127.0.0.1:")
