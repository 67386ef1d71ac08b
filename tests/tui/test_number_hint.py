"""The number box names the unit its question asks in, not "e.g. 140 GB" above a percentage or TFLOP/s."""

from __future__ import annotations

from typing import Any

from tests.tui.test_question_flow import laid_out, open_practice


async def test_the_number_box_names_the_unit_of_its_question(make_app: Any) -> None:
    from study.bank import load_bank
    from study.quiz.instance import instantiate

    bank = load_bank()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_practice(pilot, app, count=1)
        view = screen.view
        for qid, hint in (("calc-achieved-tflops-04", "type the number in TFLOP/s"),
                          ("calc-mfu-01", "type the percentage"),
                          ("calc-tvi-max-params-01", "type the number"),
                          ("calc-weights-03", "type the number in GiB")):
            inst = instantiate(bank.question(qid), 7)
            assert inst.is_numeric_typed
            view.show(inst, key=("check", qid))
            await laid_out(pilot, view)
            placeholder = view.number.placeholder
            assert placeholder.startswith(hint) and "140 GB" not in placeholder, (qid, placeholder)
