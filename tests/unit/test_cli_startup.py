"""`study --help` is built from the command table alone; the table must say what the command modules register,
and a command imports only what it runs."""

from __future__ import annotations

import argparse
import contextlib
import io
import subprocess
import sys

import pytest

from study.cli import COMMAND_MODULES, COMMANDS, build_parser, main


def _commands(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [(c.dest, c.help) for c in sub._choices_actions]


def test_the_table_names_every_command_the_modules_register_with_their_help() -> None:
    assert _commands(build_parser()) == [(name, help_) for name, _module, help_ in COMMANDS]


def test_each_command_is_registered_by_the_module_the_table_names() -> None:
    for name, module, _help in COMMANDS:
        assert name in dict(_commands(build_parser((module,)))), (name, module)


def _help(modules: object, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", "100")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        build_parser(modules).parse_args(["--help"])  # type: ignore[arg-type]
    return out.getvalue()


def test_the_quick_top_level_help_reads_as_the_full_one(monkeypatch: pytest.MonkeyPatch) -> None:
    quick = _help(None, monkeypatch)
    assert quick == _help(COMMAND_MODULES, monkeypatch)
    assert "suspend" in quick and "serve" in quick


def test_a_mistyped_command_still_gets_its_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["calcc"])
    assert info.value.code == 2
    assert "did you mean calc?" in capsys.readouterr().err


LOADED = (
    "import sys, contextlib, io\n"
    "from study.cli import main\n"
    "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
    "    main({argv!r})\n"
    "print(' '.join(sorted(m for m in {watch!r} if m in sys.modules)))\n"
)


@pytest.mark.parametrize("argv, unwanted", [
    (["--help"], ("study.commands", "study.progress", "study.bank", "study.calc", "fsrs", "httpx", "pydantic",
                  "textual", "numpy", "yaml", "typing", "shutil")),
    (["calc", "kv-cache", "--model", "llama-2-70b", "--seq-len", "4096", "--json"],
     ("textual", "httpx", "study.bank", "study.progress", "study.quiz", "pydantic", "yaml", "fsrs")),
])
def test_a_command_imports_only_what_it_runs(argv: list[str], unwanted: tuple[str, ...]) -> None:
    code = LOADED.format(argv=argv, watch=unwanted)
    # The first calc run parses the catalog's YAML and keeps a JSON copy (STUDY_CALC_CACHE, the test's own
    # folder); the runs a learner repeats are the second kind.
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_study_alone_collects_garbage_again_once_the_app_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # `study` alone turns the collector off while it imports the app; the app itself must run with it on,
    # or every cycle it makes in a long session would stay in memory.
    import gc

    import study.tui.app as tui_app

    seen: dict[str, bool] = {}

    class App:
        return_code = None

        def run(self) -> int:
            seen["collector on while the app runs"] = gc.isenabled()
            return 0

    monkeypatch.setattr(tui_app, "make_app", lambda **_kwargs: App())
    disabled = []
    real_disable = gc.disable
    monkeypatch.setattr(gc, "disable", lambda: (disabled.append(True), real_disable())[1])
    try:
        assert main([]) == 0
    finally:
        gc.unfreeze()
        gc.enable()
    assert disabled and seen == {"collector on while the app runs": True}
