"""`study quiz --objective 2.9 --count 3` opens the app on the Practice form with those filters filled in.

Expected questions are read off tests/tui/data/questions/fixture.yaml by hand: objective 2.9 has one question
(fx-d2-nvlink-scope), objective 2.1 has fx-d2-fp16-weights (difficulty 1) and fx-d2-kv-cache (difficulty 3),
and four questions have difficulty 1.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Select
from textual.widgets._select import SelectCurrent

from tests.tui.conftest import settle


def form_value(app: Any, name: str) -> Any:
    select = app.screen.query_one(f"#pf-{name}", Select)
    return None if select.is_blank() else select.value


def form_text(app: Any, name: str) -> str:
    """What the learner reads in the closed Select."""
    current = app.screen.query_one(f"#pf-{name}", Select).query_one(SelectCurrent)
    return str(current.query_one("#label").render())


async def test_objective_and_count_are_shown_and_start_honours_them(make_app):
    from study.tui.screens.practice import PracticeScreen, PracticeSetupScreen

    app = make_app(start="practice", practice_preset={"objective": "2.9", "count": 3})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeSetupScreen)
        assert form_value(app, "objective") == "2.9"
        assert form_text(app, "objective").startswith("2.9 ")
        assert form_value(app, "count") == 3
        assert form_text(app, "count") == "3"
        # Not asked for: the defaults stay.
        assert form_value(app, "domain") is None and form_value(app, "difficulty") is None
        assert form_value(app, "pick") == "any"
        await pilot.press("s")
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeScreen)
        # Only one 2.9 question exists, so the set of at most 3 holds just that one, and says so: the header's
        # "1/1" alone did not tell that 3 were asked for.
        assert [i.qid for i in app.screen.session.instances] == ["fx-d2-nvlink-scope"]
        assert "The filters match 1 question, so the set has 1, not 3." in [str(n.message) for n in app._notifications]


async def test_a_count_outside_the_usual_choices_is_drawn_exactly(make_app):
    from study.tui.screens.practice import PracticeScreen

    app = make_app(start="practice", practice_preset={"difficulty": "1", "count": "3", "pick": "any"})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert form_value(app, "difficulty") == 1
        assert form_value(app, "count") == 3
        await pilot.press("s")
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeScreen)
        session = app.screen.session
        assert session.count == 3
        difficulty_one = {"fx-d1-ai-ml-dl", "fx-d1-nccl", "fx-d2-fp16-weights", "fx-d3-dcgm-tools"}
        qids = [i.qid for i in session.instances]
        assert len(set(qids)) == 3 and set(qids) <= difficulty_one


async def test_domain_objective_and_a_list_of_difficulties_combine(make_app):
    from study.tui.screens.practice import PracticeScreen

    preset = {"domain": "2", "objective": "2.1", "difficulty": "1,3", "count": 5, "pick": "unseen"}
    app = make_app(start="practice", practice_preset=preset)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        # The objective survives the domain narrowing its list.
        assert form_value(app, "domain") == "2"
        assert form_value(app, "objective") == "2.1"
        assert form_value(app, "difficulty") == (1, 3)
        assert form_text(app, "difficulty") == "1 or 3"
        assert form_value(app, "pick") == "unseen"
        assert form_value(app, "count") == 5
        await pilot.press("s")
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeScreen)
        assert sorted(i.qid for i in app.screen.session.instances) == ["fx-d2-fp16-weights", "fx-d2-kv-cache"]


async def test_topic_is_preset_and_filters_the_set(make_app):
    from study.tui.screens.practice import PracticeScreen

    app = make_app(start="practice", practice_preset={"topic": "fx-ai-ml-dl"})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert form_value(app, "topic") == "fx-ai-ml-dl"
        assert form_value(app, "count") == 10
        await pilot.press("s")
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeScreen)
        assert [i.qid for i in app.screen.session.instances] == ["fx-d1-ai-ml-dl"]


async def test_unusable_values_keep_the_defaults_and_are_named(make_app):
    from study.tui.screens.practice import PracticeSetupScreen

    preset = {"objective": "9.9", "pick": "often", "count": 0, "minutes": 5, "domain": None}
    app = make_app(start="practice", practice_preset=preset)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeSetupScreen)
        assert form_value(app, "objective") is None
        assert form_value(app, "pick") == "any"
        assert form_value(app, "count") == 10
        messages = " ".join(str(n.message) for n in app._notifications)
        assert "objective 9.9" in messages and "'often'" in messages and "count 0" in messages
        assert "minutes" not in messages


async def test_the_preset_applies_to_the_first_form_only(make_app):
    app = make_app(start="practice", practice_preset={"objective": "2.9", "count": 3})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("escape")
        await settle(pilot, app)
        await pilot.press("p")
        await settle(pilot, app)
        assert form_value(app, "objective") is None
        assert form_value(app, "count") == 10


async def test_narrowing_the_domain_by_hand_keeps_an_objective_inside_it(make_app):
    app = make_app(start="practice")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        app.screen.query_one("#pf-objective", Select).value = "2.9"
        await settle(pilot, app)
        assert form_value(app, "topic") is None
        app.screen.query_one("#pf-domain", Select).value = "2"
        await settle(pilot, app)
        assert form_value(app, "objective") == "2.9"
        app.screen.query_one("#pf-domain", Select).value = "1"
        await settle(pilot, app)
        assert form_value(app, "objective") is None


@pytest.mark.parametrize(
    ("preset", "values", "n_problems"),
    [
        ({"difficulty": "3,2"}, {"difficulty": (2, 3)}, 0),
        ({"difficulty": (2,)}, {"difficulty": 2}, 0),
        ({"difficulty": 4}, {}, 1),
        ({"difficulty": "x"}, {}, 1),
        ({"count": "3"}, {"count": 3}, 0),
        ({"count": -2}, {}, 1),
        ({"pick": "any", "domain": ""}, {}, 0),
        ({"domain": 2, "objective": "2.9"}, {"domain": "2", "objective": "2.9"}, 0),
        (None, {}, 0),
    ],
)
def test_normalise_preset(preset, values, n_problems):
    from study.tui.screens.practice import normalise_preset

    got, problems = normalise_preset(preset)
    assert got == values
    assert len(problems) == n_problems


@pytest.mark.parametrize(("count", "label"), [(10, "10 questions, 12 min"), (5, "5 questions, 6 min"),
                                             (3, "3 questions, 3.6 min")])
async def test_exam_start_offers_the_length_asked_for(make_app, count, label):
    """`study quiz --mode exam --count 10` opened the exam screen at 50 questions: the count was dropped."""
    from study.tui.screens.exam import ExamScreen, ExamStartScreen

    app = make_app(start="exam", practice_preset={"count": count})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, ExamStartScreen)
        select = app.screen.query_one("#exam-count", Select)
        assert select.value == count
        assert str(select.query_one(SelectCurrent).query_one("#label").render()) == label
        await pilot.press("s")
        await settle(pilot, app)
        # The fixture bank holds fewer than 10 questions: the exam is as long as it can be, and says so.
        assert isinstance(app.screen, ExamScreen) and app.screen.session.count == min(count, 6)


async def test_exam_start_names_a_count_it_cannot_use(make_app):
    from study.tui.screens.exam import ExamStartScreen

    app = make_app(start="exam", practice_preset={"count": 0})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, ExamStartScreen)
        assert app.screen.query_one("#exam-count", Select).value == 50
        assert any("count 0 is not a whole number of at least 1" in str(n.message) for n in app._notifications)


async def test_exam_intro_names_the_length_chosen(make_app):
    """The intro said "50 questions in 60 minutes" above a choice of 10 questions in 12 minutes."""
    from textual.widgets import Static

    from study.tui.screens.exam import ExamStartScreen

    def intro() -> str:
        return str(app.screen.query_one("#exam-intro-text", Static).render())

    app = make_app(start="exam", practice_preset={"count": 7})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, ExamStartScreen)
        assert intro().startswith("7 questions in 8.4 minutes")
        app.screen.query_one("#exam-count", Select).value = 10
        await settle(pilot, app)
        assert intro().startswith("10 questions in 12 minutes")
        app.screen.query_one("#exam-count", Select).value = 50
        await settle(pilot, app)
        assert intro().startswith("50 questions in 60 minutes")
