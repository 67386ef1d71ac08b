"""Live reload: the app watches a bank loaded from folders; an edit shows up without a restart. The tests
call ``poll_bank`` themselves (the app is built without its timer), so nothing depends on wall-clock time."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from textual.widgets import Static, Tree

from tests.tui.conftest import DATA, settle, tree_nodes

EXTRA = """questions:
  - id: w-extra
    objective: "1.1"
    difficulty: 1
    type: true_false
    stem: NCCL implements collective operations between GPUs.
    answer: true
    explanation: NCCL is the NVIDIA Collective Communications Library.
    references:
      - {title: NCCL, url: "https://docs.nvidia.com/deeplearning/nccl/"}
    verified: 2026-11-30
"""

NEW_QUESTION = """  - id: w-new
    objective: "1.1"
    difficulty: 2
    type: true_false
    stem: All-reduce is one of the collectives NCCL provides.
    answer: true
    explanation: NCCL provides all-reduce, all-gather, broadcast and the other collectives.
    references:
      - {title: NCCL, url: "https://docs.nvidia.com/deeplearning/nccl/"}
    verified: 2026-11-30
"""


@pytest.fixture
def bank_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fixture bank copied where the test may edit it, plus one more question file; the disk cache of
    loaded banks goes to the temporary folder too."""
    root = tmp_path / "bank"
    shutil.copytree(DATA / "questions", root / "questions")
    shutil.copytree(DATA / "content", root / "content")
    (root / "questions" / "extra.yaml").write_text(EXTRA)
    monkeypatch.setattr("study.bank.cache.cache_dir", lambda: tmp_path / "cache")
    return root


def build(bank_dir: Path, store: Any, clock: Any) -> Any:
    from study.tui.app import make_app

    app = make_app(store=store, clock=clock, seed=7, questions=[str(bank_dir / "questions")],
                   content=str(bank_dir / "content"), watch=True, poll_seconds=None)
    app.toasts = []
    original = app.notify

    def notify(message: str, **kwargs: Any) -> None:
        app.toasts.append(str(message))
        original(message, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    return app


async def reload(pilot: Any, app: Any) -> None:
    """Two polls (the first sees the edit, the second finds it settled), then the reload worker."""
    assert app.poll_bank() is False
    assert app.poll_bank() is True
    await settle(pilot, app)


def problem_rows(app: Any) -> list[tuple[str, ...]]:
    return [(p.severity, p.where, p.code, p.message) for p in app.screen.problems]


def question_ids(app: Any) -> set[str]:
    return {q.id for q in app.services.bank.questions}


async def test_a_broken_file_shows_its_problem_live_and_the_rest_of_the_bank_stays(bank_dir, store, clock):
    from study.progress import Rating

    fixture = bank_dir / "questions" / "fixture.yaml"
    original = fixture.read_text()
    shown = str(fixture)  # outside the working directory: diagnostics show the absolute path
    app = build(bank_dir, store, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        assert len(question_ids(app)) == 7
        store.review_card("fx-ai-ml-dl/nested", app.services.bank.content_hash("fx-ai-ml-dl/nested"),
                          Rating.Good, 5.0, clock())
        await pilot.press("t")  # topics open underneath, to see them refresh
        await settle(pilot, app)
        await pilot.press("exclamation_mark")  # works on every screen
        await settle(pilot, app)
        assert type(app.screen).__name__ == "ProblemsScreen"
        assert "No problems" in str(app.screen.query_one("#problems-summary", Static).render())

        # An editor indents line 9 with a tab: a YAML syntax error at line 9, column 1.
        lines = original.splitlines(keepends=True)
        lines[8] = "\t" + lines[8].lstrip()
        fixture.write_text("".join(lines))
        await reload(pilot, app)

        rows = problem_rows(app)
        assert [(r[0], r[1], r[2]) for r in rows] == [("error", f"{shown}:9:1", "yaml-syntax")]
        assert "1 error, 0 warnings" in str(app.screen.query_one("#problems-summary", Static).render())
        assert question_ids(app) == {"w-extra"}, "the other file's question is still served"
        assert app.toasts[-1].startswith("Reloaded questions/fixture.yaml: 1 problem · 1 question (6 fewer)")
        assert "Press ! to see them" in app.toasts[-1]
        assert store.item_state("fx-ai-ml-dl/nested") is not None, "progress is kept by id"

        # Fixed, with one more question: the problem goes, and the new question is in the bank.
        fixture.write_text(original + NEW_QUESTION)
        await reload(pilot, app)
        assert problem_rows(app) == []
        assert "No problems" in str(app.screen.query_one("#problems-summary", Static).render())
        assert question_ids(app) == {"w-extra", "w-new", "fx-d1-ai-ml-dl", "fx-d1-nccl", "fx-d2-nvlink-scope",
                                     "fx-d2-fp16-weights", "fx-d2-kv-cache", "fx-d3-dcgm-tools"}
        assert app.toasts[-1] == "Reloaded questions/fixture.yaml: no problems · 8 questions (7 more), 4 cards"

        await pilot.press("escape")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "TopicsScreen"
        labels = [str(node.label) for node in tree_nodes(app.screen.query_one(Tree))]
        # Objective 1.1 has no topic file, so its leaf counts its questions: fx-d1-nccl, w-extra and w-new.
        assert any(label.startswith("1.1 ") and "(3 q)" in label for label in labels), labels

        from study.tui.screens.practice import start_practice

        assert start_practice(app, objective="1.1", count=10)
        await settle(pilot, app)
        assert {i.qid for i in app.screen.session.instances} == {"fx-d1-nccl", "w-extra", "w-new"}


async def test_an_open_topic_card_shows_its_new_text(bank_dir, store, clock):
    topic = bank_dir / "content" / "topics" / "fx-ai-ml-dl.md"
    app = build(bank_dir, store, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("t")
        await settle(pilot, app)
        app.screen.show("card", "fx-ai-ml-dl/nested")
        await settle(pilot, app)
        topic.write_text(topic.read_text().replace("AI is the broad goal", "AI (edited) is the broad goal"))
        await reload(pilot, app)
        assert app.screen.selected == ("card", "fx-ai-ml-dl/nested")
        assert "AI (edited) is the broad goal" in app.screen.query_one("#topics-markdown").source


def edit_stems(path: Path, suffix: str) -> None:
    data = yaml.safe_load(path.read_text())
    for q in data["questions"]:
        q["stem"] = q["stem"].rstrip() + suffix
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


async def test_practice_takes_edits_from_the_next_question_and_an_exam_keeps_what_it_asked(bank_dir, store, clock):
    from study.tui.screens.exam import start_exam
    from study.tui.screens.practice import start_practice

    fixture = bank_dir / "questions" / "fixture.yaml"
    app = build(bank_dir, store, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        start_exam(app, 5)
        await settle(pilot, app)
        exam = app.screen.session
        exam_stems = [i.stem for i in exam.instances]
        await pilot.press("escape")  # pause the exam (it stays in the store) and go back
        await settle(pilot, app)
        assert start_practice(app, count=7)
        await settle(pilot, app)
        practice = app.screen.session
        before = [i.stem for i in practice.instances]
        assert practice.index == 0

        edit_stems(fixture, " (edited)")
        await reload(pilot, app)

        after = [i.stem for i in practice.instances]
        assert after[0] == before[0], "the question on screen does not change under the learner"
        for i in range(1, len(before)):
            qid = practice.instances[i].qid
            edited = qid != "w-extra"  # every fixture.yaml question was edited, extra.yaml was not
            assert after[i].endswith("(edited)") is edited, (qid, after[i])
            assert practice.instances[i].content_hash == app.services.bank.content_hash(qid)
        assert [i.stem for i in exam.instances] == exam_stems
        assert not any(s.endswith("(edited)") for s in exam_stems)


async def test_a_blueprint_that_stops_loading_keeps_the_previous_bank(bank_dir, store, clock):
    blueprint = bank_dir / "content" / "blueprint.yaml"
    good = blueprint.read_text()
    app = build(bank_dir, store, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        bank = app.services.bank
        blueprint.write_text(good + "\n\tbroken: [\n")
        await reload(pilot, app)
        assert app.services.bank is bank
        assert app.services.reload_error and "question bank not reloaded" in app.services.reload_error
        assert any(t.startswith("question bank not reloaded") for t in app.toasts)
        await pilot.press("exclamation_mark")
        await settle(pilot, app)
        assert [r[1] for r in problem_rows(app)] == ["reload"]
        blueprint.write_text(good)
        await reload(pilot, app)
        assert app.services.reload_error is None
        assert problem_rows(app) == []


async def test_an_injected_bank_is_not_watched_and_a_loaded_one_is_polled_on_a_timer(bank_dir, make_app, store, clock):
    injected = make_app(watch=True)
    async with injected.run_test(size=(80, 24)) as pilot:
        await settle(pilot, injected)
        assert injected.services.watcher is None, "an injected bank has no files to watch"
    from study.tui.app import make_app as factory

    app = factory(store=store, clock=clock, questions=[str(bank_dir / "questions")],
                  content=str(bank_dir / "content"), watch=True, poll_seconds=30)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.services.watcher is not None and app._watch_timer is not None
    off = factory(store=store, clock=clock, questions=[str(bank_dir / "questions")],
                  content=str(bank_dir / "content"), watch=False)
    async with off.run_test(size=(80, 24)) as pilot:
        await settle(pilot, off)
        assert off.services.watcher is None and off.poll_bank() is False


async def test_a_review_keeps_a_card_whose_topic_file_just_broke(bank_dir, store, clock):
    topic = bank_dir / "content" / "topics" / "fx-ai-ml-dl.md"
    app = build(bank_dir, store, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        await pilot.press("l")  # nothing is due in a fresh store: learn new cards
        await settle(pilot, app)
        review = app.screen
        assert review.phase == "card" and review.cards[0] == "fx-ai-ml-dl/nested"
        topic.write_text(topic.read_text().replace("---\n", "", 1))  # no front matter: the topic fails
        await reload(pilot, app)
        assert not app.services.bank.has_item("fx-ai-ml-dl/nested")
        await pilot.press("space")
        await settle(pilot, app)
        assert "Machine learning is the subset" in app.screen.query_one("#review-card-md").source
        await pilot.press("3")
        await settle(pilot, app)
        assert store.item_state("fx-ai-ml-dl/nested") is not None


async def test_a_bank_that_failed_at_start_loads_once_its_blueprint_is_fixed(bank_dir, store, clock):
    blueprint = bank_dir / "content" / "blueprint.yaml"
    good = blueprint.read_text()
    blueprint.write_text(good + "\n\tbroken: [\n")
    app = build(bank_dir, store, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        assert app.services.bank is None
        assert "could not be loaded" in str(app.screen.query_one("#home-countdown", Static).render())
        blueprint.write_text(good)
        await reload(pilot, app)
        await settle(pilot, app)  # home recomputes its figures in a worker
        assert len(app.services.bank.questions) == 7 and app.services.errors == []
        assert "could not be loaded" not in str(app.screen.query_one("#home-countdown", Static).render())
        assert not app.screen.query_one("#home-problems", Static).display


def toast_regions(app: Any) -> list[Any]:
    from textual.widgets._toast import Toast

    return [t.region for t in app.screen.query(Toast) if t.region.area]


async def test_reload_toasts_never_cover_the_exam_submit_button(bank_dir, store, clock):
    from study.tui.screens.exam import ReviewBeforeSubmit, start_exam

    app = build(bank_dir, store, clock)
    fixture = bank_dir / "questions" / "fixture.yaml"
    async with app.run_test(size=(80, 24), notifications=True) as pilot:  # toasts drawn, to measure them
        await settle(pilot, app)
        app.clear_notifications()
        start_exam(app, 5)
        await settle(pilot, app)

        # Two reloads just before the dialog opens: stacked at the bottom right their toasts would reach the
        # Submit button at 80x24; on a dialog they move to the top.
        fixture.write_text(fixture.read_text() + NEW_QUESTION)
        await reload(pilot, app)
        fixture.write_text(fixture.read_text().replace("w-new", "w-newer"))
        await reload(pilot, app)
        assert len(app.toasts) == 2
        await pilot.press("r")
        await settle(pilot, app)
        assert isinstance(app.screen, ReviewBeforeSubmit)
        submit = app.screen.query_one("#review-submit").region
        shown = toast_regions(app)
        assert shown, "the earlier toast is still on screen"
        assert not any(r.overlaps(submit) for r in shown)

        # Reloads while the dialog is open wait for it to close.
        app.clear_notifications()
        await settle(pilot, app)
        for n in range(2):
            fixture.write_text(fixture.read_text().replace("w-newer", f"w-newer{n}"))
            await reload(pilot, app)
        assert len(app.toasts) == 2 and not app._notifications, "toasts raised while the dialog is open"
        assert not toast_regions(app)

        await pilot.press("escape")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "ExamScreen"
        assert len(app.toasts) == 4 and app.toasts[-1].startswith("Reloaded questions/fixture.yaml")
        assert len(app._notifications) == 2
