from __future__ import annotations

import argparse
import sys

from study.commands import add_bank_options, bank_for
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "analyze",
        help=command_help("analyze"),
        description="Reads results exported by learners (`study export` JSON files, or xAPI JSON lines from "
        "`study export --format xapi`; a directory means every such file in it) and computes Moodle's quiz "
        "statistics from each learner's first answer to each question: facility, SD, discrimination index, "
        "discriminative efficiency per question; mean, median, SD, skewness, kurtosis, Cronbach's alpha, "
        "error ratio and standard error for the test (left out, with why, when too few questions have enough "
        "answers). Every response is graded against the current key (each answer keeps what was shown and "
        "picked), and for each question it shows which answer the learners chose, in all and in the top and "
        "bottom thirds by rest score, naming a likely wrong key (\"the strongest learners chose ...\"): each key they reject and each "
        "distractor they pick, each with its own file:line. "
        "A hint needs evidence: at least 5 learners in the top third, a wrong response chosen by at least half "
        "of them and by at least 2 more of them than the least-chosen key (a tie is no hint). Flags negative "
        "discrimination, facility under 5% or over 95%, and questions with too few answers to judge; exits 1 "
        "when a question looks broken (too few answers alone is not a finding, nor is a wrong-key hint alone "
        "unless --strict). One export file is one learner, except: "
        "progress exports sharing attempts (backups of one store) are merged into one learner; xAPI "
        "statements are grouped by actor, so learners must not share an --actor (a warning says when "
        "several files share one). A progress export and xAPI statements of the same learner are matched by "
        "the store's learner id in the default actor and counted once; with --actor they cannot be, and a "
        "warning says so. An LRS's GET /statements answer "
        "({\"statements\": [...], \"more\": ...}) is read as it is; further pages are not fetched. With "
        "--lrs, the statements are read from the LRS itself, every page (at most 2,000 pages and 200,000 "
        "statements, each page from the LRS's own address), filtered by the xAPI base (the "
        "course activity and everything grouped under it) and --since; credentials as for `study sync`.",
    )
    p.add_argument("results", nargs="*", metavar="RESULTS", help="export files or directories of them")
    p.add_argument("--lrs", metavar="URL", help="read the class's statements from this LRS instead of files")
    p.add_argument("--since", metavar="TIME",
                   help="with --lrs: only statements stored after this time (ISO 8601, e.g. 2027-01-15 or "
                   "2027-01-15T09:00:00Z)")
    p.add_argument("--xapi-base", metavar="IRI",
                   help="with --lrs: the activity IRI base the learners exported under (default: as `study export "
                   "--format xapi`)")
    p.add_argument("--mode", choices=("all", "exam", "practice", "lab"), default="all",
                   help="which answers count: exam answers only, practice (everything but exams), the "
                   "operations labs' tasks only (lab), or all (default)")
    p.add_argument("--form", metavar="NAME",
                   help="only the answers given in the class exam form NAME (`study quiz --form`): the item "
                   "analysis of that one test; without it the report lists each form the results hold")
    p.add_argument("--min-responses", type=int, default=None, metavar="N",
                   help="questions with fewer first answers are reported as too few to judge (default 10)")
    p.add_argument("--flagged", action="store_true", help="list only the questions flagged")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 also when the only finding is a wrong-key hint")
    p.add_argument("--json", action="store_true", help="print every figure as JSON")
    p.add_argument("--csv", metavar="FILE",
                   help="also write the figures as CSV for a spreadsheet: one row per question (per learner with "
                   "--by-learner); '-' writes it to standard output instead of the report")
    p.add_argument("--choices-csv", metavar="FILE",
                   help="also write the response analysis as CSV in long form, for a pivot table: one row per "
                   "question and response (question, response, correct, count, share, top, bottom, the thirds' "
                   "sizes); '-' writes it to standard output instead of the report")
    p.add_argument("--force", action="store_true",
                   help="replace the --csv or --choices-csv FILE even if it is not an earlier CSV of study analyze "
                   "(an export, a store)")
    p.add_argument("--by-learner", action="store_true",
                   help="a gradebook: each learner's score, questions answered, and score per domain")
    p.add_argument("--group", metavar="NAME", help="only the learners of this group (see --groups)")
    p.add_argument("--groups", metavar="FILE",
                   help="JSON file mapping group names to learners: {\"group\": [\"alice@example.com\", "
                   "\"class/bob.json\"]} (xAPI actors or progress export files)")
    add_bank_options(p, ", for locations and guess scores")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json
    import os

    # The matrices are a few hundred wide: BLAS threads gain nothing there, and on a busy machine their
    # spin-waiting made the pairwise covariances ten times slower. Before numpy loads; the user may override.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from study.analysis.report import MIN_RESPONSES, analyse, render
    from study.analysis.results import ResultsError, load_results
    from study.cli import UsageError

    min_responses = MIN_RESPONSES if args.min_responses is None else args.min_responses
    if min_responses < 1:
        raise UsageError(f"--min-responses must be 1 or more, not {min_responses}")
    if bool(args.results) == bool(args.lrs):
        raise UsageError("give either RESULTS files or --lrs URL")
    if args.since and not args.lrs:
        raise UsageError("--since goes with --lrs")
    if bool(args.group) != bool(args.groups):
        raise UsageError("--group NAME and --groups FILE go together")
    if args.csv == "-" and args.choices_csv == "-":
        raise UsageError("--csv - and --choices-csv - cannot both write to standard output")
    for target in (args.csv, args.choices_csv):
        if not target:
            continue
        from study.interop.output import refusal

        # Before any work: `--csv class/alice.json` or `--csv <the store>` replaced that file with the figures.
        reason = refusal(target, force=args.force, fmt="csv")
        if reason:
            raise UsageError(reason)
    try:
        if args.lrs:
            responses = _from_lrs(args)
            where = args.lrs
        else:
            responses = load_results(args.results, args.mode, form=args.form)
            where = ", ".join(args.results)
        if args.group:
            from study.analysis.groups import UnknownGroup, only_group, read_groups

            try:
                responses = only_group(responses, read_groups(args.groups), args.group, args.groups)
            except UnknownGroup as exc:
                raise UsageError(str(exc)) from None
    except ResultsError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    # The warnings first: "no answers from group g" is explained by "its members match no learner".
    for warning in responses.warnings:
        print(f"study: warning: {warning}", file=sys.stderr)
    if not responses.learners:
        scope = "" if args.mode == "all" else f" in {args.mode} mode"
        scope += f" from group {args.group}" if args.group else ""
        scope += f" in form {args.form}" if args.form else ""
        forms = ""
        if args.form and responses.forms:
            from study.authoring.new import did_you_mean

            names = [f["name"] for f in responses.forms]
            forms = f" (forms there: {', '.join(names)}{did_you_mean(args.form, names)})"
        elif args.form:
            forms = " (no answer there was given in a form)"
        print(f"study: error: no answers{scope} in {where}{forms}", file=sys.stderr)
        return 1
    try:
        bank = bank_for(args)
    except OSError as exc:
        print(f"study: error: cannot load the question bank: {exc.filename or ''}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    except ValueError as exc:  # a malformed blueprint, with its file:line:col
        print(f"study: error: cannot load the question bank: {exc}", file=sys.stderr)
        return 1
    analysis = analyse(responses, bank, mode=args.mode, min_responses=min_responses)
    # A question that looks broken is a finding, as a lint error is: exit 1, so a CI job notices. A wrong-key
    # hint alone is a suggestion from a few strong learners (on a small group it was wrong 6 times of 8), so
    # it fails the command only when asked to.
    from study.analysis.report import FLAG_KEY

    findings = 1 if any(args.strict or set(q.flags) - {FLAG_KEY} for q in analysis.broken) else 0
    book = None
    if args.by_learner:
        from study.analysis.gradebook import gradebook

        book = gradebook(responses, bank)
    to_stdout = False
    for target, make in ((args.csv, "table"), (args.choices_csv, "choices")):
        if not target:
            continue
        from study.analysis.csv_out import choices_csv, learners_csv, questions_csv

        if make == "choices":
            text = choices_csv(analysis)
        else:
            text = learners_csv(book) if book is not None else questions_csv(analysis)
        if target == "-":
            sys.stdout.write(text)
            to_stdout = True
            continue
        try:
            with open(target, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as exc:
            print(f"study: error: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
            return 1
    if to_stdout:
        return findings
    if args.json:
        data = analysis.to_dict()
        if book is not None:
            data["learners_table"] = [row.to_dict() for row in book]
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return findings
    if book is not None:
        from rich.console import Console

        from study.analysis.gradebook import render_gradebook

        render_gradebook(book, Console())
        return findings
    from pathlib import Path

    from study.paths import questions_dir

    roots = [Path(p) for p in args.questions] if args.questions else [questions_dir()]
    render(analysis, flagged_only=args.flagged, roots=roots)
    return findings


def _since(text: str) -> str:
    """``--since`` as the xAPI timestamp an LRS expects; a bare date means its start, in UTC."""
    import datetime as dt

    from study.cli import UsageError

    try:
        when = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"--since must be a date or time like 2027-01-15 or 2027-01-15T09:00:00Z, not {text!r}") \
            from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return when.astimezone(dt.timezone.utc).isoformat().replace("+00:00", "Z")


def _from_lrs(args: argparse.Namespace):
    from study.analysis.results import ResultsError, load_results_from_pages
    from study.cli import UsageError
    from study.interop.lrs import Client, Endpoint, LrsError, fetch_pages, read_credentials, statements_url
    from study.interop.xapi import ActorError, base_and_actor
    from study.paths import user_config_dir

    since = _since(args.since) if args.since else None
    try:
        base, _actor = base_and_actor(argparse.Namespace(xapi_base=args.xapi_base, actor=None))
    except ActorError as exc:
        raise UsageError(str(exc)) from None
    try:
        endpoint = Endpoint(statements_url(args.lrs), read_credentials(user_config_dir()))
        with Client(endpoint) as client:
            return load_results_from_pages(fetch_pages(client, base, since), str(endpoint), args.mode,
                                           form=args.form)
    except LrsError as exc:
        raise ResultsError(str(exc)) from None
