"""The app on an instructor's own folders (``study tui --questions X --content Y``), and the problems screen
reading whole messages at 80x24."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList, Static

from tests.tui.conftest import DATA, settle

OWN_QUESTION = """questions:
  - id: own-only
    objective: "1.1"
    difficulty: 1
    type: true_false
    stem: This statement exists only in the instructor's own folder.
    answer: true
    explanation: It was written for this test.
    references:
      - {title: NCCL, url: "https://docs.nvidia.com/deeplearning/nccl/"}
    verified: 2026-11-30
"""


@pytest.fixture
def own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "own.yaml").write_text(OWN_QUESTION)
    monkeypatch.setattr("study.bank.cache.cache_dir", lambda: tmp_path / "cache")
    monkeypatch.delenv("STUDY_WATCH", raising=False)
    return folder


def screen_lines(app: Any) -> list[str]:
    return ["".join(seg.text for seg in strip).rstrip() for strip in app.screen._compositor.render_strips()]


async def test_app_serves_and_watches_the_given_question_folder(own_folder, store, clock):
    from study.tui.app import make_app
    from study.tui.screens.practice import start_practice

    # No bank injected and live reload left to its default: what `study tui --questions mine` builds.
    app = make_app(store=store, clock=clock, seed=3, questions=[str(own_folder)], content=str(DATA / "content"),
                   poll_seconds=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert [q.id for q in app.services.bank.questions] == ["own-only"]
        watcher = app.services.watcher
        assert watcher is not None, "given folders are watched by default"
        assert start_practice(app, count=1)
        await settle(pilot, app)
        assert "only in the instructor's own folder" in str(app.screen.query_one("#q-stem", Static).render())

        # An edit to that folder is picked up: the second poll finds it settled and reloads.
        (own_folder / "own.yaml").write_text(OWN_QUESTION.replace("own-only", "own-renamed"))
        assert app.poll_bank() is False
        assert app.poll_bank() is True
        await settle(pilot, app)
        assert [q.id for q in app.services.bank.questions] == ["own-renamed"]


def test_tui_command_hands_the_folders_to_the_app(monkeypatch, tmp_path):
    from study import cli

    seen: dict[str, Any] = {}

    def fake_run_app(**kwargs: Any) -> int:
        seen.update(kwargs)
        return 0

    monkeypatch.setattr("study.tui.app.run_app", fake_run_app)
    argv = ["--db", str(tmp_path / "x.db"), "tui", "--questions", "a", "--questions", "b", "--content", "c"]
    assert cli.main(argv) == 0
    assert seen["questions"] == ["a", "b"] and seen["content"] == "c" and seen["db"] == str(tmp_path / "x.db")

    seen.clear()
    assert cli.main(["--db", str(tmp_path / "x.db"), "tui"]) == 0
    assert seen["questions"] is None and seen["content"] is None


def test_run_app_hands_the_folders_to_the_services(monkeypatch):
    from study.tui import app as app_module

    built: list[Any] = []
    real_make_app = app_module.make_app

    def capture(**kwargs: Any) -> Any:
        app = real_make_app(**kwargs)
        app.run = lambda: 0  # type: ignore[method-assign]
        built.append(app)
        return app

    monkeypatch.setattr(app_module, "make_app", capture)
    assert app_module.run_app(db=":memory:", questions=["q1", "q2"], content="c1") == 0
    services = built[0].services
    assert (services.questions, services.content, services.db) == (["q1", "q2"], "c1", ":memory:")


# -- problems screen ------------------------------------------------------------------------------------


def broken_bank(monkeypatch: pytest.MonkeyPatch) -> Any:
    from study.bank import load_bank

    monkeypatch.chdir(DATA)
    return load_bank(questions=["questions", "broken"], content="content")


async def test_problems_show_every_message_whole_at_80_columns(monkeypatch, store, clock):
    from study.tui.app import make_app

    bank = broken_bank(monkeypatch)
    app = make_app(bank=bank, store=store, clock=clock, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.clear_notifications()
        await pilot.press("exclamation_mark")
        await settle(pilot, app)
        assert "3 errors, 0 warnings" in str(app.screen.query_one("#problems-summary", Static).render())
        on_screen = " ".join(" ".join(line.strip("▊▎ ").split()) for line in screen_lines(app))
        # Written out by hand from the fixture files, not read back from the loader.
        for where, message in [
            ("broken/bad-fields.yaml:4:16", "objective '9.9' is not a blueprint id like '2.1'"),
            ("broken/bad-fields.yaml:10:9", "missing required field 'choices[1].why'"),
            ("broken/bad-yaml.yaml:5:1", "YAML syntax: found character that cannot start any token"),
        ]:
            assert where in on_screen
            assert message in on_screen

        # Enter on the YAML error shows its line, the tab drawn visibly and a caret under column 1.
        await pilot.press("down", "down", "enter")
        await settle(pilot, app)
        source = str(app.screen.query_one("#problems-source", Static).render())
        assert "5 │ →type: single" in source
        lines = source.splitlines()
        at = next(i for i, x in enumerate(lines) if "→type" in x)
        assert lines[at + 1].index("^") == lines[at].index("→")
        assert app.screen.query_one("#problems-detail").display

        # Escape closes the source first, then leaves the screen.
        await pilot.press("escape")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "ProblemsScreen"
        assert not app.screen.query_one("#problems-detail").display
        assert app.screen.query_one(OptionList).highlighted == 2
        await pilot.press("escape")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "HomeScreen"
