"""Command-line mistakes end in one ``study: error:`` line, exit 2 (issue 15, defects 9 and 13)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from study.cli import main


def _usage_error(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("study: error: ") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("minutes", ["nan", "inf", "-inf", "1e10", "0", "-5", "ten"])
def test_quiz_minutes_must_be_a_finite_positive_time(capsys, minutes) -> None:
    err = _usage_error(capsys, ["quiz", "--plain", "--no-store", "--minutes", minutes])
    assert "--minutes" in err


def test_a_mistyped_command_gets_a_suggestion(capsys) -> None:
    assert "did you mean stats?" in _usage_error(capsys, ["stat"])
    assert "did you mean exam?" in _usage_error(capsys, ["quiz", "--mode", "exm"])


def test_a_choice_far_from_any_lists_them(capsys) -> None:
    assert "choose from exam, practice, quiz" in _usage_error(capsys, ["quiz", "--mode", "zzzzzz"])


def test_catalog_help_is_help_not_the_table(capsys) -> None:
    for name in ("gpus", "models", "links"):
        assert main(["calc", name, "--help"]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"usage: study calc {name} [--json]")
        assert "h100-sxm" not in out and "llama-2-70b" not in out


def test_a_reader_that_stops_early_is_not_a_failure() -> None:
    # `study calc gpus | head`: the pipe closes before the table is written.
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "study.cli", "calc", "gpus"], stdout=write,
                              stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"})
    finally:
        os.close(write)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""


def test_an_unknown_unit_is_named_once(capsys) -> None:
    from study.calc.units import parse_quantity

    with pytest.raises(ValueError) as exc:
        parse_quantity("14.5gb")
    message = str(exc.value)
    assert message.count("'gb'") == 1 and "14.5gb" not in message  # the caller names the text it read
    assert "did you mean GB" in message


def test_counts_take_k_m_b_t_multipliers(capsys) -> None:
    from study.calc import call

    assert call("training-flops", params="70B", tokens="2T").value == 6 * 70e9 * 2e12
    assert call("kv-cache", model="llama-2-7b", seq_len="4k").inputs["seq_len"] == 4000
    assert main(["calc", "training-flops", "--params", "70B", "--tokens", "2T"]) == 0
    assert "8.40e23 FLOP" in capsys.readouterr().out
    assert main(["calc", "kv-cache", "--model", "llama-2-7b", "--seq-len", "4q"]) == 2
    err = capsys.readouterr().err
    assert "a count takes k, M, B or T" in err and "kW" not in err and "kb" not in err


@pytest.mark.parametrize("date, reason", [
    ("2027-13-45", "month 13 is not 1 to 12"),
    ("2027-02-30", "day 30 is not 1 to 28 (February 2027 has 28 days)"),
    ("2028-02-30", "day 30 is not 1 to 29"),
    ("27-1-15", "is not a date written YYYY-MM-DD"),
    ("next week", "is not a date written YYYY-MM-DD"),
])
def test_a_bad_exam_date_says_what_is_wrong(tmp_path, capsys, date, reason) -> None:
    assert main(["--db", str(tmp_path / "p.db"), "stats", "--exam-date", date]) == 2
    err = capsys.readouterr().err
    assert err.startswith("study: error: --exam-date ") and reason in err and err.count("\n") == 1


def test_new_question_refuses_a_fifo_instead_of_waiting_on_it(tmp_path, capsys) -> None:
    fifo = tmp_path / "q.yaml"
    os.mkfifo(fifo)
    assert main(["new", "question", "--type", "single", "--objective", "2.6", "--out", str(fifo)]) == 2
    out, err = capsys.readouterr()
    assert err == f"study: error: {fifo} is not a regular file\n"


def test_an_exponent_alone_is_not_read_as_a_number() -> None:
    # Found by the grader's own hypothesis test: 'E0' matched the bare-number pattern, then float() raised.
    from study.quiz.grade import _BARE_NUMBER

    for text in ("E0", "e5", "-E1", ".E2", "+e-3"):
        assert not _BARE_NUMBER.match(text), text
    for text in ("5", "-5.25", ".5", "1,234.5", "2e9", " 3E-2 "):
        assert _BARE_NUMBER.match(text), text


# str.isdigit() is true of '²' (int() refuses it) and of 5000 nines (int() refuses more than 4300 digits): each
# guarded int() below was a traceback.
NOT_PLAIN_DIGITS = ["²", "9" * 5000]


@pytest.mark.parametrize("line", ["nvidia-smi -i {n}", "nvidia-smi | head -n {n}", "nvidia-smi | tail -n {n}",
                                  "nvidia-smi | head -{n}", "nvidia-smi mig -lgi -i {n}", "nvidia-smi mig -lci -gi {n}"])
@pytest.mark.parametrize("n", NOT_PLAIN_DIGITS, ids=["superscript", "5000-digits"])
def test_a_lab_number_that_is_not_plain_digits_is_not_simulated(capsys, line, n) -> None:
    assert main(["lab", "thermal-slowdown", "--run", line.format(n=n), "--seed", "1"]) == 127  # as bash's "not found"
    assert capsys.readouterr().out.startswith("not simulated in this lab: ")


@pytest.mark.parametrize("n", NOT_PLAIN_DIGITS, ids=["superscript", "5000-digits"])
def test_a_plain_lab_task_number_that_is_not_plain_digits_is_no_task(capsys, monkeypatch, n) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(f"task {n}\nanswer {n} A\n"))
    assert main(["--db", os.devnull, "lab", "thermal-slowdown", "--plain", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("No task ") == 2 and "Lab finished" in out


@pytest.mark.parametrize("n", NOT_PLAIN_DIGITS, ids=["superscript", "5000-digits"])
def test_a_plain_quiz_goto_that_is_not_plain_digits_is_an_unknown_command(capsys, monkeypatch, n) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(f":{n}\n:submit\n"))
    assert main(["quiz", "--plain", "--no-store", "--mode", "exam", "--count", "2", "--seed", "1"]) == 0
    assert "Unknown command" in capsys.readouterr().out


def test_a_quiz_seed_of_other_digits_is_a_seed_like_any_word(capsys, monkeypatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(":submit\n"))
    assert main(["quiz", "--plain", "--no-store", "--mode", "exam", "--count", "2", "--seed", "²"]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO(":submit\n"))
    assert main(["quiz", "--plain", "--no-store", "--mode", "exam", "--count", "2", "--seed", "9" * 5000]) == 0


def _one_error_line(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("study: error: ") and err.count("\n") == 1, (out, err)
    return err


def test_new_without_what_to_start_is_one_error_line(capsys) -> None:
    # It printed `study new --help` (nine lines on stdout) and exited 2.
    assert "study new question" in _one_error_line(capsys, ["new"])


def test_bank_without_what_to_show_is_one_error_line(capsys) -> None:
    # It printed `study bank --help` (seven lines on stdout) and exited 2.
    assert "study bank stats" in _one_error_line(capsys, ["bank"])


def test_quiz_without_a_terminal_is_one_error_line(capsys) -> None:
    # Under pytest stdin and stdout are not a terminal, as in a pipe or a script. It said "study quiz: not a
    # terminal", unlike every other mistake.
    assert "--plain" in _one_error_line(capsys, ["quiz", "--no-store"])


def test_a_stream_closed_before_the_start_is_no_traceback() -> None:
    # `study calc gpus >&-` and `study import - <&-`: Python starts with sys.stdout or sys.stdin set to None.
    def closing(fd: int):
        return lambda: os.close(fd)

    # Closed stdout: an export or a figure that goes nowhere must not pass for one that was written.
    out = subprocess.run([sys.executable, "-m", "study.cli", "export"], stderr=subprocess.PIPE, text=True,
                         preexec_fn=closing(1))
    assert (out.returncode, out.stderr) == (2, "study: error: standard output is closed: what this command "
                                               "prints would be lost\n")
    inp = subprocess.run([sys.executable, "-m", "study.cli", "import", "-"], capture_output=True, text=True,
                         preexec_fn=closing(0))
    assert inp.returncode == 1
    assert inp.stderr.startswith("study: error: standard input is not JSON") and inp.stderr.count("\n") == 1
    err = subprocess.run([sys.executable, "-m", "study.cli", "stats", "--exam-date", "2026-02-30"],
                         capture_output=True, text=True, preexec_fn=closing(2))
    assert (err.returncode, err.stdout) == (2, "")  # the error line does not land in stdout's data


@pytest.mark.parametrize("argv, expected", [
    (["--topic", "nvlink"], "study: error: unknown topic 'nvlink': no file in content/topics/ has that id\n"),
    (["--topic", "ai-ml-d"], "study: error: unknown topic 'ai-ml-d': no file in content/topics/ has that id; "
                             "did you mean ai-ml-dl?\n"),
    (["--mode", "exam", "--objective", "9.9"],
     "study: error: unknown objective '9.9'; objectives are 1.1 to 3.4; did you mean 2.9?\n"),
])
def test_a_mistyped_quiz_filter_is_named_not_reported_as_too_narrow(capsys, argv, expected) -> None:
    # Both said "no questions match", as if real filters were only too narrow.
    assert main(["quiz", "--plain", "--no-store", *argv]) == 2
    assert capsys.readouterr().err == expected
