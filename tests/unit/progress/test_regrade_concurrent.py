"""Two `study regrade` at once (issue 32.5): both planned before either wrote, and each wrote the whole plan,
so the regrade history held every change twice. The plan is now re-checked inside the write transaction."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from study.bank import load_bank
from study.progress import open_store
from study.progress.regrades import regrade_history
from tests.unit.analysis.classgen import FLIP_ID, record_learner, write_bank

# A real process that plans its regrade, says so, and applies it only once the other has planned too: the
# race two terminals hit, made certain instead of left to the scheduler.
_RACER = r"""
import datetime as dt, sys, time
from pathlib import Path
from study.analysis.regrade import plan_regrade
from study.bank import load_bank
from study.progress import open_store
from study.progress.regrades import apply_regrades

db, bank_dir, me, other = sys.argv[1:]
bank = load_bank(questions=[bank_dir])
with open_store(Path(db), fuzz=False) as store:
    plan = plan_regrade(store.history(), bank)
    Path(me).touch()
    while not Path(other).exists():
        time.sleep(0.01)
    applied = apply_regrades(store, plan.changes, dt.datetime.now(dt.timezone.utc))
print(len(plan.changes), len(applied))
"""


def _learner(tmp_path: Path) -> tuple[Path, Path]:
    flipped = write_bank(tmp_path / "flipped", flipped=True).parent
    db = tmp_path / "me.db"
    for learner in (20, 25, 29):  # three answers to the flipped question, each marked wrong by its key
        record_learner(db, load_bank(questions=[str(flipped)]), learner)
    return db, write_bank(tmp_path / "fixed", flipped=False).parent


def test_two_regrades_planned_together_write_each_change_once(tmp_path):
    db, fixed = _learner(tmp_path)
    a, b = tmp_path / "a.planned", tmp_path / "b.planned"
    procs = [subprocess.Popen([sys.executable, "-c", _RACER, str(db), str(fixed), str(me), str(other)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for me, other in ((a, b), (b, a))]
    outs = [p.communicate() for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    planned_applied = sorted(tuple(map(int, out.split())) for out, _ in outs)
    # Both planned the three changes; one process applied them, the other found them already made.
    assert planned_applied == [(3, 0), (3, 3)], outs
    with open_store(db, fuzz=False) as store:
        answers = [x for x in store.history() if x.item_id == FLIP_ID]
        history = [h for x in answers for h in regrade_history(store, x.uid)]
    assert len(answers) == 3 and all(x.correct for x in answers)
    assert sorted((h.old_correct, h.new_correct) for h in history) == [(False, True)] * 3


def test_two_real_regrade_commands_at_once_keep_one_history_row_per_change(tmp_path):
    db, fixed = _learner(tmp_path)
    argv = [sys.executable, "-m", "study", "--db", str(db), "regrade", "--questions", str(fixed), "--json"]
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate() for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    # Each reports what it wrote itself: together, each change once.
    reported = sum(len(json.loads(out)["changes"]) for out, _ in outs)
    with open_store(db, fuzz=False) as store:
        rows = store._query("SELECT COUNT(*) FROM attempt_regrades")[0][0]
    assert reported == rows == 3, outs
