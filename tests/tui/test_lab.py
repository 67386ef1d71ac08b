"""The Lab screen end to end: open it from Home, run a command, answer a task, find the attempt stored."""

from __future__ import annotations

import pytest

from tests.tui.conftest import settle

SIZE = (80, 24)


async def open_lab(pilot, app, lab_id: str, seed: int):
    """The app started, then one lab opened on a fixed case: the Lab screen."""
    from study.tui.screens.lab import LabScreen

    await settle(pilot, app)
    app.push_screen(LabScreen(lab_id=lab_id, seed=seed))
    await settle(pilot, app)
    return app.screen


@pytest.mark.asyncio
async def test_lab_from_home_runs_a_command_answers_and_records(make_app, store):
    from textual.widgets import Input, OptionList, RichLog

    from study.lab.case import draw_vars
    from study.lab.load import load_lab
    from study.tui.screens.lab import LabPickScreen, LabScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("o")
        await settle(pilot, app)
        assert isinstance(app.screen, LabPickScreen)
        head = app.screen.query_one("#lab-pick-head")
        assert head.region.y >= 1 and head.region.height >= 1  # how to open a lab stays in sight at 80x24
        picker = app.screen.query_one(OptionList)
        picker.highlighted = [o.id for o in picker._options].index("power-cap")
        picker.focus()
        await pilot.press("enter")
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, LabScreen) and screen.lab_id == "power-cap"
        v = draw_vars(load_lab("power-cap"), screen.seed)

        cmd = screen.query_one("#lab-cmd", Input)
        cmd.focus()
        for ch in "nvidia-smi -q -d POW":
            await pilot.press(ch if ch != " " else "space")
        await pilot.press("tab")  # completes the only known command line with this prefix
        assert cmd.value == "nvidia-smi -q -d POWER"
        await pilot.press("enter")
        await settle(pilot, app)
        log = screen.query_one(RichLog)
        text = "\n".join(line.text for line in log.lines)
        assert f"Current Power Limit               : {v['cap']}.00 W" in text
        await pilot.press("up")
        assert cmd.value == "nvidia-smi -q -d POWER"  # history

        screen.query_one("#lab-cmd", Input).value = "task 2"
        await pilot.press("enter")
        await settle(pilot, app)
        answer = screen.query_one("#lab-answer", Input)
        answer.focus()
        answer.value = f"{v['cap']} W"
        await pilot.press("enter")
        await settle(pilot, app)

        # Back at the list, the lab says how it went the last time it was worked.
        await pilot.press("escape")
        await settle(pilot, app)
        await pilot.press("o")
        await settle(pilot, app)
        prompts = {o.id: str(o.prompt) for o in app.screen.query_one(OptionList)._options}
        tasks = len(load_lab("power-cap").tasks)
        assert prompts["power-cap"].endswith(f"last time 1/{tasks}")
        assert "last time" not in prompts["thermal-slowdown"]

    import sqlite3

    rows = sqlite3.connect(store.path).execute(
        "SELECT item_id, mode, correct FROM attempts").fetchall()
    assert rows == [("lab.power-cap.cap-watts", "lab", 1)]


@pytest.mark.asyncio
async def test_lab_screen_keeps_column_layout_and_unknown_commands_say_so(make_app):
    from textual.widgets import Input, RichLog


    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lab(pilot, app, "thermal-slowdown", 0)
        for line in ("nvidia-smi", "frobnicate"):
            screen.query_one("#lab-cmd", Input).value = line
            screen.query_one("#lab-cmd", Input).focus()
            await pilot.press("enter")
            await settle(pilot, app)
        lines = [line.text for line in screen.query_one(RichLog).lines]
        table = [ln for ln in lines if ln.startswith("|")]
        assert table and {len(ln) for ln in table} == {89}  # not wrapped at the log's width
        assert lines[-1] == "bash: frobnicate: command not found"


@pytest.mark.asyncio
async def test_review_at_the_prompt_shows_the_answers_once_every_task_is_answered(make_app):
    from textual.widgets import Input, RichLog

    from study.tui.screens.answer_review import AnswerReviewScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lab(pilot, app, "power-cap", 3)
        pick, number = screen.session.instances

        async def type_in(widget_id: str, text: str) -> None:
            box = screen.query_one(widget_id, Input)
            box.focus()
            box.value = text
            await pilot.press("enter")
            await settle(pilot, app)

        await type_in("#lab-cmd", "review")
        log = [line.text for line in screen.query_one(RichLog).lines]
        assert log[-1].startswith("Answer every task first (2 left)") and app.screen is screen

        wrong = next(lb for lb, o in zip(pick.labels, pick.options) if not o.correct)
        await type_in("#lab-answer", wrong)
        await type_in("#lab-answer", f"{number.numeric.value:g} W")
        await type_in("#lab-cmd", "review")
        review = app.screen
        assert isinstance(review, AnswerReviewScreen) and review.report.mode == "lab"
        assert [(q.position, q.correct) for q in review.report.questions] == [(1, False), (2, True)]
        assert "1 of 2" in str(review.query_one("#ar-position").render())
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.screen is screen


@pytest.mark.asyncio
async def test_a_lab_answer_shows_on_the_progress_screen_under_its_objective(make_app, store, clock):
    from textual.widgets import DataTable

    from study.lab.case import build_case
    from study.lab.load import load_lab
    from study.lab.session import LabSession
    from study.tui.screens.progress import ProgressScreen

    session = LabSession(build_case(load_lab("power-cap"), 3), store=store, clock=clock)
    session.answer(1, f"{session.instances[1].numeric.value:g} W")  # objective 3.3, right
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        app.push_screen(ProgressScreen())
        await settle(pilot, app)
        table = app.screen.query_one("#progress-objectives", DataTable)
        row = [str(c) for c in table.get_row("3.3")]
        assert row[0] == "3.3" and row[3:5] == ["100%", "1"]  # accuracy, answers


@pytest.mark.asyncio
async def test_the_answer_box_is_reached_by_tab_and_the_prompt_answers_too(make_app, store):
    """A learner at the prompt who reads "Answer with: answer 2 <...>" can type just that, or press tab on an
    empty prompt to reach the answer box; either records the attempt (it used to say "command not found")."""
    from textual.widgets import Input

    from study.lab.case import draw_vars
    from study.lab.load import load_lab

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lab(pilot, app, "power-cap", 3)
        v = draw_vars(load_lab("power-cap"), screen.seed)
        cmd = screen.query_one("#lab-cmd", Input)
        assert app.focused is cmd
        await pilot.press("tab")
        assert app.focused is screen.query_one("#lab-answer", Input)
        for _ in range(2):  # back through the task panel (it scrolls) to the prompt
            await pilot.press("shift+tab")
        assert app.focused is cmd
        cmd.value = f"answer 2 {v['cap']} W"
        await pilot.press("enter")
        await settle(pilot, app)
        log_text = "\n".join(line.text for line in screen.query_one("#lab-log").lines)
        assert "command not found" not in log_text

    import sqlite3

    rows = sqlite3.connect(store.path).execute("SELECT item_id, mode, correct FROM attempts").fetchall()
    assert rows == [("lab.power-cap.cap-watts", "lab", 1)]


@pytest.mark.asyncio
@pytest.mark.parametrize("size, wide", [((80, 24), False), ((120, 40), False), ((140, 40), True)])
async def test_nvidia_smi_reads_whole_where_the_terminal_allows(make_app, size, wide):
    """Below the width where the 89-column table fits beside the tasks, the terminal takes the full width and the
    tasks go under it; at 120 columns a half-width pane would have cut the table."""
    from textual.widgets import RichLog


    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await open_lab(pilot, app, "power-cap", 3)
        log = screen.query_one(RichLog)
        intro = [line.text for line in log.lines]
        assert any("tab completes" in line for line in intro)
        assert max(len(line) for line in intro) <= log.scrollable_content_region.width  # prose wraps, columns don't
        screen.run_command("nvidia-smi")
        await settle(pilot, app)
        side = screen.query_one("#lab-side")
        assert screen.has_class("-wide") is wide
        if wide:
            assert side.region.x >= log.region.right and side.region.y == log.region.y
        else:
            assert side.region.y >= log.region.bottom and log.region.width == size[0]
        if size[0] >= 120:
            assert log.scrollable_content_region.width >= 89  # the whole table, no sideways scroll


@pytest.mark.asyncio
async def test_what_is_typed_at_the_prompt_always_answers_in_the_terminal(make_app):
    """At 80x24 the tasks panel shows a few rows: an answer typed at the prompt, a task number that does not
    exist, or a half-typed answer must say something where the learner is looking, never `bash: answer`."""
    from textual.widgets import RichLog


    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_lab(pilot, app, "power-cap", 3)
        log = screen.query_one(RichLog)
        count = len(screen.session.instances)

        for line, expected in [(f"answer {count + 1} A", f"There is no task {count + 1}"),
                               (f"task {count + 5}", f"There is no task {count + 5}"),
                               ("answer 1", "Answer with: answer N X"),
                               ("answer 1 Z", "Z"),
                               ("echo $(rm -rf /)", "not simulated in this lab")]:
            before = len(log.lines)
            screen.run_command(line)
            await settle(pilot, app)
            after = "\n".join(line.text for line in log.lines[before:])
            assert expected in after, (line, after)
            assert "bash: answer" not in after
        assert max(len(line.text) for line in log.lines) <= log.scrollable_content_region.width
        assert all(g is None for g in screen.session.grades)  # nothing above was graded


@pytest.mark.asyncio
async def test_the_terminal_echoes_a_pasted_command_with_its_control_characters_escaped(make_app):
    # A paste can carry ESC and OSC sequences; echoed raw after "$ " they reached the learner's terminal, which
    # obeys them (retitle the window, recolour everything after). Nothing a learner types is shown raw.
    from textual.widgets import RichLog

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lab(pilot, app, "power-cap", 1)
        screen.run_command("\x1b]0;owned\x07 nvidia-smi \x1b[31mred\x9b2J")
        await settle(pilot, app)
        echoed = [line.text for line in screen.query_one(RichLog).lines if line.text.startswith("$ ")][-1]
        assert not any(ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f for c in echoed), repr(echoed)
        assert "\\x1b]0;owned\\x07" in echoed and "\\x1b[31mred\\x9b2J" in echoed


@pytest.mark.asyncio
@pytest.mark.parametrize("n", ["²", "9" * 5000], ids=["superscript", "5000-digits"])
async def test_a_task_number_that_is_not_plain_digits_is_answered_not_a_crash(make_app, n):
    # str.isdigit() let '²' through to int(), which refuses it: `task ²` ended the app with a ValueError.
    from textual.widgets import RichLog

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lab(pilot, app, "power-cap", 1)
        for line in (f"task {n}", f"answer {n} A"):
            screen.run_command(line)
            await settle(pilot, app)
        assert app.is_running and app.screen is screen and screen.current == 0
        said = "\n".join(line.text for line in screen.query_one(RichLog).lines)
        assert "answer N X" in said and "task N, where N is 1 to" in said
