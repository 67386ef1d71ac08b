-- A progress store as schema version 1 wrote it (frozen: do not regenerate from the migration code).
-- Two learners' worth of quirks: an exam session with in-progress state, a finished practice session,
-- a slow right answer (must back-fill as Hard), a wrong one (Again), an item no longer in any bank.
CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    deadline    TEXT,
    state_json  TEXT,
    finished_at TEXT,
    report_json TEXT
);
CREATE TABLE attempts (
    id           INTEGER PRIMARY KEY,
    item_id      TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    params_json  TEXT NOT NULL DEFAULT '{}',
    given        TEXT NOT NULL,
    correct      INTEGER NOT NULL CHECK (correct IN (0, 1)),
    seconds      REAL NOT NULL CHECK (seconds >= 0),
    mode         TEXT NOT NULL,
    session_id   TEXT REFERENCES sessions(id) ON DELETE SET NULL,
    at           TEXT NOT NULL
);
CREATE INDEX attempts_item ON attempts(item_id, at);
CREATE INDEX attempts_at ON attempts(at);
CREATE TABLE items (
    item_id      TEXT PRIMARY KEY,
    kind         TEXT NOT NULL CHECK (kind IN ('card', 'question')),
    content_hash TEXT NOT NULL,
    card_json    TEXT NOT NULL,
    due          TEXT NOT NULL,
    last_review  TEXT,
    updated_at   TEXT NOT NULL
);
CREATE INDEX items_due ON items(kind, due);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

INSERT INTO sessions VALUES
 ('exam-1', 'exam', '2026-11-20T10:00:00.000000+00:00', '2026-11-20T10:05:00.000000+00:00',
  '2026-11-20T11:00:00.000000+00:00', '{"index": 3, "answers": {"a1": "A"}}', NULL, NULL),
 ('prac-1', 'practice', '2026-11-19T09:00:00.000000+00:00', '2026-11-19T09:10:00.000000+00:00',
  NULL, NULL, '2026-11-19T09:10:00.000000+00:00', '{"score": 0.5}');
INSERT INTO attempts(item_id, content_hash, params_json, given, correct, seconds, mode, session_id, at) VALUES
 ('a1', 'h-a1', '{}', 'A', 1, 30.0, 'practice', 'prac-1', '2026-11-19T09:01:00.000000+00:00'),
 ('b2', 'h-b2', '{"gpus": 8}', '141', 1, 95.5, 'practice', 'prac-1', '2026-11-19T09:05:00.000000+00:00'),
 ('a1', 'h-a1', '{}', 'C', 0, 12.0, 'exam', 'exam-1', '2026-11-20T10:02:00.000000+00:00'),
 ('gone', 'h-old', '{}', 'B', 1, 20.0, 'quiz', NULL, '2026-11-18T08:00:00.000000+00:00');
INSERT INTO items VALUES
 ('a1', 'question', 'h-a1',
  '{"card_id": 1, "state": 3, "step": 0, "stability": 1.5, "difficulty": 6.0, "due": "2026-11-20T10:12:00+00:00", "last_review": "2026-11-20T10:02:00+00:00"}',
  '2026-11-20T10:12:00.000000+00:00', '2026-11-20T10:02:00.000000+00:00', '2026-11-20T10:02:00.000000+00:00'),
 ('b2', 'question', 'h-b2',
  '{"card_id": 2, "state": 1, "step": 1, "stability": 1.2, "difficulty": 5.5, "due": "2026-11-19T09:15:00+00:00", "last_review": "2026-11-19T09:05:00+00:00"}',
  '2026-11-19T09:15:00.000000+00:00', '2026-11-19T09:05:00.000000+00:00', '2026-11-19T09:05:00.000000+00:00');
INSERT INTO settings VALUES ('exam_date', '"2027-01-15"'), ('daily_goal', '30');
PRAGMA user_version = 1;
