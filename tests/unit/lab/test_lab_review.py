"""A worked lab as a Report for the answer review: what was answered, graded as it was at the time."""

from __future__ import annotations

import datetime as dt

from study.lab.case import build_case
from study.lab.load import load_lab
from study.lab.review import lab_report
from study.lab.session import LabSession

T0 = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> dt.datetime:
        return self.now


def session() -> tuple[LabSession, Clock]:
    clock = Clock()
    return LabSession(build_case(load_lab("power-cap"), 3), clock=clock), clock


def wrong_label(inst) -> str:
    return next(lb for lb, o in zip(inst.labels, inst.options) if not o.correct)


def test_the_report_lists_each_answered_task_with_the_answer_given_and_the_right_one():
    s, clock = session()
    pick, number = s.instances
    clock.now = T0 + dt.timedelta(seconds=50)
    s.answer(0, wrong_label(pick))
    s.answer(1, f"{number.numeric.value:g} W")
    r = lab_report(s, {"3.3": "GPU metrics"})
    assert r.mode == "lab" and (r.correct, r.total, r.skipped) == (1, 2, 0)
    first, second = r.questions
    assert (first.position, first.id, first.correct, first.given) == (1, pick.qid, False, wrong_label(pick))
    assert [c.picked for c in first.choices].count(True) == 1 and first.seconds == 50.0
    assert second.correct and second.expected_display.endswith("W")
    assert r.by_objective["3.3"].name == "GPU metrics" and (r.by_objective["3.3"].correct, r.by_objective["3.3"].total) == (1, 2)


def test_a_task_not_answered_is_left_out_not_graded_wrong():
    s, _clock = session()
    s.answer(1, f"{s.instances[1].numeric.value:g} W")
    r = lab_report(s)
    assert [q.position for q in r.questions] == [2]
    assert (r.correct, r.total, r.skipped) == (1, 1, 1)


def test_the_stored_shown_record_names_the_objective_by_its_title_never_the_labs(tmp_path):
    from study.progress import open_store

    lab = load_lab("power-cap")
    with open_store(tmp_path / "p.db", fuzz=False) as store:
        for titles, want in (({"3.3": "GPU monitoring metrics"}, "GPU monitoring metrics"), (None, "")):
            s = LabSession(build_case(lab, 3), store=store, clock=Clock(), objective_titles=titles)
            s.answer(1, f"{s.instances[1].numeric.value:g} W")
            shown = store.history(s.instances[1].qid, limit=1)[0].shown
            assert shown["objective"] == "3.3" and shown["objective_title"] == want != lab.title


def test_last_results_count_each_task_once_in_the_latest_session_of_each_lab():
    import datetime as dt

    from study.lab.session import last_results
    from study.progress import Attempt

    t0 = dt.datetime(2026, 12, 1, tzinfo=dt.timezone.utc)

    def a(item: str, ok: bool, session: str, minutes: int, mode: str = "lab") -> Attempt:
        return Attempt(item_id=item, content_hash="h", params={}, given="A", correct=ok, seconds=3, mode=mode,
                       session_id=session, at=t0 + dt.timedelta(minutes=minutes))

    attempts = [  # newest first, as Store.history gives them
        a("lab.x.t1", True, "s2", 9),
        a("lab.x.t1", False, "s2", 8),   # answered twice in one session (an old store): the first answer counts
        a("lab.x.t2", True, "s2", 7),
        a("lab.x.t1", False, "s1", 5),   # an older session of the same lab does not count
        a("lab.x.y.t1", True, "s3", 4),  # lab "x.y", not lab "x" with task "y.t1"
        a("lab.z.t1", True, "q", 3, mode="quiz"),
        a("other.t1", True, "s4", 2),
    ]
    assert last_results(["x", "x.y", "z"], attempts) == {"x": 1, "x.y": 1}
