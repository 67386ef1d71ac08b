from __future__ import annotations

import argparse
import sys

from study.cli import UsageError
from study.commands import add_bank_options, bank_for, bounded_number
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "quiz",
        help=command_help("quiz"),
        description="Practice quizzes and timed exams. With --plain, questions are printed one at a time and "
        "answers read one line each (a letter, letters separated by commas, T or F, or a number with its "
        "unit); an empty line skips; :flag, :back, :next, :review, :N, :submit and :quit do what they say. "
        "End of input submits.",
    )
    p.add_argument("--plain", action="store_true", help="plain terminal: no full-screen app (scripts, screen readers)")
    p.add_argument("--mode", choices=("exam", "practice", "quiz"), default="practice",
                   help="exam: 50 questions in 60 minutes shaped like the real one; practice: feedback after "
                   "each answer; quiz: a custom timed quiz (--count in --minutes) graded at the end")
    p.add_argument("--count", type=int, help="number of questions (exam 50, practice 10)")
    p.add_argument("--minutes", type=bounded_number(0, 24 * 60, low_open=True, unit=" minutes"),
                   help="time limit (exam: 60 for 50 questions, scaled)")
    p.add_argument("--domain", choices=("1", "2", "3"), help="practice one domain")
    p.add_argument("--objective", help="practice one objective, e.g. 2.1")
    p.add_argument("--topic", help="practice one topic id")
    p.add_argument("--difficulty", help="1, 2, 3 or a list like 2,3")
    p.add_argument("--pick", choices=("any", "due", "weak", "missed", "unseen"), default="any",
                   help="practice: which questions (due, weak, missed and unseen read your progress)")
    p.add_argument("--seed", help="seed for a reproducible selection (printed when not given)")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout (prompts go to stderr)")
    p.add_argument("--no-store", action="store_true", help="keep no history: do not read or record progress")
    p.add_argument("--resume", action="store_true", help="resume the unfinished exam or timed quiz in the store")
    p.add_argument("--form", metavar="FILE",
                   help="take the class exam form in FILE (from `study export --form NAME`): exactly its questions, "
                   "in its order, timed as the form says; an exam, so --mode, --count and the filters do not apply")
    add_bank_options(p)
    p.set_defaults(func=run)


def _difficulty(text: str | None) -> tuple[int, ...] | None:
    if not text:
        return None
    try:
        values = tuple(int(x) for x in text.replace(" ", "").split(",") if x)
    except ValueError:
        raise UsageError(f"--difficulty takes 1, 2, 3 or a list like 2,3, not {text!r}") from None
    if not values or any(v not in (1, 2, 3) for v in values):
        raise UsageError(f"--difficulty takes 1, 2, 3 or a list like 2,3, not {text!r}")
    return values


def _open_store(args: argparse.Namespace):
    if args.no_store:
        return None
    try:
        from study.progress import StoreError, open_store
    except ImportError:  # the progress store is optional for a quiz
        return None
    from study.paths import default_db_path

    try:
        store = open_store(default_db_path(args.db))
    except StoreError as exc:
        print(f"study: warning: {exc}; this quiz is not recorded", file=sys.stderr)
        return None
    notice = getattr(store, "notice", None)
    if notice:
        print(f"study: {notice}", file=sys.stderr)
    return store


def _read_form(args: argparse.Namespace):
    """The form file's shape is checked before anything opens (the app included): a bad file is one line."""
    if args.form is None:
        return None
    chosen = [o for o, v in (("--count", args.count), ("--minutes", args.minutes), ("--domain", args.domain),
                             ("--objective", args.objective), ("--topic", args.topic),
                             ("--difficulty", args.difficulty), ("--seed", args.seed)) if v is not None]
    if args.pick != "any":
        chosen.append("--pick")
    if args.resume:
        chosen.append("--resume")
    if args.mode not in ("practice", "exam"):  # practice is the default: --form alone means an exam
        chosen.append("--mode " + args.mode)
    if chosen:
        raise UsageError(f"--form asks the form's own questions: {chosen[0]} does not go with it")
    from study.quiz.form import FormError, read_form

    try:
        return read_form(args.form)
    except FormError as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    form = _read_form(args)
    if form is not None:
        args.mode = "exam"
    if not args.plain:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            # A pipe cannot drive a full-screen app; say how to quiz from a script instead of hanging.
            raise UsageError("quiz: not a terminal; use `study quiz --plain` to answer from a pipe or a script")
        # The full-screen app, opened on the practice or exam set-up screen.
        from study.tui.app import run_app

        return run_app(db=args.db, start="exam" if args.mode == "exam" else "practice",
                       watch=getattr(args, "watch", None), questions=args.questions, content=args.content,
                       practice_preset={"domain": args.domain, "objective": args.objective, "topic": args.topic,
                                        "difficulty": _difficulty(args.difficulty), "pick": args.pick,
                                        "count": args.count,
                                        # --mode quiz keeps its clock in the app, as in the plain terminal.
                                        "minutes": args.minutes if args.mode == "quiz" else None,
                                        **({"form": form} if form is not None else {})})
    import os

    from study.quiz import SelectionError
    from study.quiz.clock import system_clock
    from study.quiz.plain import run_plain

    if args.count is not None and args.count < 1:
        raise UsageError("--count must be at least 1")
    if args.minutes is not None and args.minutes <= 0:
        raise UsageError("--minutes must be positive")
    difficulty = _difficulty(args.difficulty)
    bank = bank_for(args)
    _known_filters(bank, args)
    errors = [d for d in bank.diagnostics if d.severity == "error"]
    if errors:
        from study.text import count

        if not bank.questions:
            raise UsageError(f"no question could be loaded: {count(len(errors), 'problem')} in the question files "
                             f"(first: {errors[0]}); run `study lint` for all")
        # Broken questions are left out of the quiz; say so in one line rather than flooding the prompt.
        print(f"study: {count(len(errors), 'problem')} in the question files: the questions they affect are left "
              f"out (first: {errors[0]}); run `study lint` for all", file=sys.stderr)
    talk = sys.stderr if args.json else sys.stdout
    if form is not None:
        from study.quiz.form import FormError, check_form

        try:
            for warning in check_form(form, bank):
                print(f"study: warning: {warning}", file=sys.stderr)
        except FormError as exc:
            raise UsageError(f"{args.form}: {exc}") from None
    seed = args.seed if args.seed is not None else str(int.from_bytes(os.urandom(3), "big"))
    from study.text import whole_number

    number = whole_number(seed)
    seed_value: int | str = seed if number is None else number

    store = _open_store(args)
    clock = system_clock
    try:
        if args.resume:
            session = _resume(args, bank, store, clock)
        elif form is not None:
            _settle_abandoned(args.mode, bank, store, clock, talk)
            session = _build_form(args, form, bank, store, clock)
            print(f"form {form.name} (id {form.id}): {session.count} questions in {session.minutes:g} minutes",
                  file=talk)
        else:
            _settle_abandoned(args.mode, bank, store, clock, talk)
            session = _build(args, bank, store, clock, seed_value, difficulty)
            if args.seed is None:  # only once the quiz exists: a refused start says just why
                print(f"seed {seed} (repeat this quiz with --seed {seed})", file=talk)
        report = run_plain(session, sys.stdin, talk, clock)
    except SelectionError as exc:
        raise UsageError(str(exc)) from None
    finally:
        if store is not None and hasattr(store, "close"):
            store.close()
    if report is None:
        return 0
    if args.json:
        data = report.to_dict()
        data["seed"] = form.seed if form is not None else seed_value
        import json

        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print()
        print(report.render_text())
    return 0


def _resume(args: argparse.Namespace, bank, store, clock):
    if store is None:
        raise UsageError("--resume needs the progress store")
    session = _unfinished_or_set_aside(store, args.mode, bank, clock)
    if session is None:
        raise UsageError(f"no unfinished {args.mode} to resume")
    return session  # finished already when its time ran out meanwhile: the report says so


def _unfinished_or_set_aside(store, mode: str, bank, clock, talk=None):
    """The unfinished session, or None; one that cannot be restored (a damaged state, say from a backup made
    elsewhere) is set aside, its answers kept, rather than block every later exam. ``talk``: where to say
    so and go on; without it (``--resume``) that is the command's one error line."""
    from study.quiz import unfinished
    from study.quiz.session import SessionError

    try:
        return unfinished(store, mode, bank, clock=clock)
    except SessionError as exc:
        active = store.active_session(mode)
        if active is not None:
            store.discard_session(active[0])
        message = f"the unfinished {mode} cannot be resumed: {exc}; it was set aside (its answers stay recorded)"
        if talk is None:
            raise UsageError(message) from None
        print(f"study: {message}", file=talk)
        return None


def _settle_abandoned(mode: str, bank, store, clock, talk) -> None:
    """An abandoned exam or timed quiz is resumed or counted, never left beside a fresh one (a restart with
    the same seed would give the same questions on a fresh clock): one whose time ran out is counted now;
    one with time left must be resumed, where :submit counts it as it stands."""
    from study.quiz.session import format_left

    waiting = _unfinished_or_set_aside(store, mode, bank, clock, sys.stderr) if mode != "practice" else None
    if waiting is None:
        return
    if waiting.finished:
        r = waiting.report
        print(f"note: your unfinished {mode} ran out of time and was counted as submitted: "
              f"{r.correct}/{r.total} ({r.score:g}%)", file=talk)
        return
    left = waiting.remaining()
    has = f"has {format_left(left.total_seconds())} left" if left is not None else "is waiting"
    raise UsageError(f"an unfinished {mode} {has}: continue it with --resume (type :submit there to count it "
                     "as it stands)")


def _known_filters(bank, args: argparse.Namespace) -> None:
    """A mistyped --topic (or an exam's --objective) matched nothing and was answered "no questions match",
    as if the filters were only too narrow: name the unknown value instead."""
    from study.authoring.new import did_you_mean

    ids = bank.blueprint.objective_ids()
    if args.objective is not None and str(args.objective) not in ids:
        raise UsageError(f"unknown objective {args.objective!r}; objectives are {ids[0]} to {ids[-1]}"
                         f"{did_you_mean(str(args.objective), ids)}")
    topics = [t.id for t in bank.topics]
    if args.topic is not None and args.topic not in topics:
        raise UsageError(f"unknown topic {args.topic!r}: no file in content/topics/ has that id"
                         f"{did_you_mean(args.topic, topics)}")


def _build(args: argparse.Namespace, bank, store, clock, seed, difficulty):
    from study.quiz import build_exam, build_practice

    if args.mode == "exam":
        return build_exam(bank, seed, count=args.count, minutes=args.minutes, store=store, now=clock(),
                          clock=clock, questions=_filtered(bank, args, difficulty))
    return build_practice(
        bank, seed, count=args.count or 10, domain=args.domain, objective=args.objective, topic=args.topic,
        difficulty=difficulty, pick=args.pick, minutes=args.minutes, timed_like_exam=args.mode == "quiz",
        store=store, now=clock(), clock=clock,
    )


def _build_form(args: argparse.Namespace, form, bank, store, clock):
    from study.quiz.form import FormError, build_form_exam

    try:
        return build_form_exam(bank, form, store=store, now=clock(), clock=clock)
    except FormError as exc:
        raise UsageError(f"{args.form}: {exc}") from None


def _filtered(bank, args: argparse.Namespace, difficulty):
    """An exam normally draws from the whole bank; filters, when given, narrow it (a domain-only mock)."""
    if not (args.domain or args.objective or args.topic or difficulty):
        return None
    from study.quiz import filter_questions

    return filter_questions(bank.questions, domain=args.domain, objective=args.objective, topic=args.topic,
                            difficulty=difficulty)
