"""Issue 20, the screens wired to the core: Home, Review, Help and ``study plan``/``study stats`` read one
definition of due, one plan and one daily goal (study.progress.due, plan, control), not copies of them."""

from __future__ import annotations

import datetime as dt

from textual.widgets import Label, Static

from study.progress import Attempt, Rating
from tests.tui.conftest import settle


def text_of(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_home_shows_the_cores_plan_and_whether_the_learner_is_on_track(make_app, store, bank, clock):
    from study.progress.plan import compute_plan
    from study.progress.stats import compute_stats

    store.set_setting("exam_date", (clock.now + dt.timedelta(days=30)).date().isoformat())
    q = bank.questions[0]
    store.record_attempt(Attempt(q.id, bank.content_hash(q.id), {}, "A", False, 40.0, "practice", None,
                                 clock.now - dt.timedelta(days=3)))
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        plan = compute_plan(store, bank, clock.now)
        assert plan.on_track is not None
        assert app.screen.query_one("#home-next").border_title == f"Study next · {plan.summary()}"
        assert " ".join(plan.on_track_text.split()) in " ".join(text_of(app, "#home-countdown").split())
        stats = compute_stats(store, bank, clock.now)
        assert stats.due_now == 1
        assert f"Due now      {stats.due_now}" in text_of(app, "#home-due")


async def test_home_today_counts_answers_only_as_the_daily_goal_does(make_app, store, bank, clock):
    q, card = bank.questions[0], bank.cards[0]
    store.record_attempt(Attempt(q.id, bank.content_hash(q.id), {}, "A", True, 40.0, "practice", None,
                                 clock.now - dt.timedelta(minutes=5)))
    store.review_card(card.id, bank.content_hash(card.id), Rating.Good, 20, clock.now - dt.timedelta(minutes=4))
    store.set_setting("daily_goal", 15)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        assert "Today        1/15" in text_of(app, "#home-due")  # one answer; the card rating is not counted
        await pilot.press("comma")
        await settle(pilot, app)
        labels = [str(label.render()) for label in app.screen.query(Label)]
        assert any("Daily goal (answers)" in t and "card" not in t for t in labels), labels


async def test_learning_new_cards_follows_the_new_per_day_limit_not_the_daily_goal(make_app, store, bank, clock):
    assert len(bank.cards) > 2
    store.set_setting("new_per_day", 2)
    store.set_setting("daily_goal", 20)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        assert app.screen.phase == "done"
        await pilot.press("l")
        await settle(pilot, app)
        assert len(app.screen.cards) == 2
        for _ in range(2):
            await pilot.press("space", "3")
            await settle(pilot, app)
        assert app.screen.phase == "done"
        await pilot.press("l")  # the day's two new items are used up
        await settle(pilot, app)
        assert app.screen.cards == [] and "new-items-a-day limit" in app.screen.query_one("#review-card-md").source


async def test_a_review_shows_each_item_once_and_takes_what_falls_due_meanwhile(make_app, store, bank, clock):
    first, second = bank.cards[0].id, bank.cards[1].id
    for cid in (first, second):
        store.review_card(cid, bank.content_hash(cid), Rating.Again, 20, clock.now - dt.timedelta(days=5))
    # A third card falls due two minutes into the review.
    third = bank.cards[2].id
    store.review_card(third, bank.content_hash(third), Rating.Again, 20, clock.now - dt.timedelta(days=5))
    from study.progress.store import utc_iso

    with store._tx() as conn:
        conn.execute("UPDATE items SET due = ? WHERE item_id = ?", (utc_iso(clock.now + dt.timedelta(minutes=2)), third))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        review = app.screen
        assert sorted(review.cards) == sorted([first, second])
        missed = review.cards[0]
        await pilot.press("space", "1")  # Again: due again a minute later
        await settle(pilot, app)
        clock.advance(minutes=5)
        await pilot.press("space", "3")
        await settle(pilot, app)
        # The third card, due meanwhile, comes next; the first, due again, does not come back this visit.
        assert review.phase == "card" and review.cards == [third]
        await pilot.press("space", "3")
        await settle(pilot, app)
        assert review.phase == "done"
        assert len(store.reviews(missed)) == 2  # the rating of days ago and this visit's Again, no third
        done = review.query_one("#review-card-md").source
        assert "Review done: 3 items" in done and "due again" in done and "Nothing else is due" not in done


async def test_help_says_how_scheduling_due_and_the_plan_are_computed(make_app):
    from study.progress.due import DUE_MEANING
    from study.progress.plan import PLAN_METHOD
    from study.progress.schedule import SCHEDULING_RULES

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await settle(pilot, app)
        source = app.screen.query_one("#help-markdown").source
        for text in (SCHEDULING_RULES, DUE_MEANING, PLAN_METHOD):
            assert text.partition(": ")[2] in source


# -- the exam's number box lets go once its answer is recorded --------------------------------------------


def _typed_last(session, bank, last: int | None = None) -> int:
    """Make the exam's last question (or question ``last``) one answered by typing a number (an exam asks
    most numbers as choices)."""
    from study.quiz import instantiate

    last = session.count - 1 if last is None else last
    if not session.instances[last].is_numeric_typed:
        session.instances[last] = next(i for i in (instantiate(q, 7, as_choice=False) for q in bank.questions
                                                   if q.type == "numeric") if i.is_numeric_typed)
    return last


async def test_enter_in_the_exams_number_box_records_and_gives_the_keys_back(make_app, bank):
    from textual.widgets import Input

    from study.tui.screens.exam import ReviewBeforeSubmit
    from tests.tui.test_question_flow import open_exam

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        exam = await open_exam(pilot, app)
        session = exam.session
        last = _typed_last(session, bank)
        exam.goto(last)
        await settle(pilot, app)
        box = exam.query_one("#q-number", Input)
        assert app.focused is box
        await pilot.press(*session.instances[last].expected, "enter")
        await settle(pilot, app)
        assert session.answers[last] is not None
        assert app.focused is not box and "press r" in text_of(app, "#quiz-status")
        await pilot.press("f")  # flags, not typed into the box
        await settle(pilot, app)
        assert session.flags[last] and box.value == session.instances[last].expected
        await pilot.press("r")
        await settle(pilot, app)
        assert isinstance(app.screen, ReviewBeforeSubmit)


async def test_a_refused_number_in_the_exam_keeps_the_learner_on_the_question(make_app, bank):
    from textual.widgets import Input

    from tests.tui.test_question_flow import open_exam

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        exam = await open_exam(pilot, app)
        session = exam.session
        k = _typed_last(session, bank, 0)  # not the last: a refused answer must not move on
        exam.goto(1)
        exam.goto(k)
        await settle(pilot, app)
        await pilot.press(*"banana", "enter")
        await settle(pilot, app)
        assert session.index == k and session.answers[k] is None
        assert app.focused is exam.query_one("#q-number", Input)
