"""``study sync``: send your answers and exams to a learning record store (LRS) as xAPI statements."""

from __future__ import annotations

import argparse
import sys

from study.commands import add_bank_options
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    from study.interop.lrs_names import CREDENTIALS_FILE, PASSWORD_ENV, TOKEN_ENV, USER_ENV

    p = sub.add_parser(
        "sync",
        help=command_help("sync"),
        description="Sends the statements `study export --format xapi` would write, except those the LRS "
        "already acknowledged, in batches to the LRS's statements resource (xAPI 1.0.3). A statement counts "
        "as stored only when the LRS answers as xAPI defines (200 with its id, or 204 to a PUT); redirects "
        "are not followed, so credentials go only to the LRS's own address. Network errors and server errors "
        "are retried with backoff (Retry-After honoured up to a minute); each request ends within 30 s and "
        "a sync within 5 minutes. An interrupted sync finishes on the next run, and nothing is stored twice. A statement the LRS holds in a different form is reported, not hidden "
        f"(exit 1). Credentials: {TOKEN_ENV} (a bearer token), or {USER_ENV} and {PASSWORD_ENV} (basic auth), "
        f"or {CREDENTIALS_FILE} in your config folder (`study locate` shows it; owner-only permissions), "
        "holding {\"token\": ...} or {\"username\": ..., \"password\": ...}. They are never printed.",
    )
    p.add_argument("--lrs", metavar="URL",
                   help="the LRS, e.g. http://127.0.0.1:8100/xAPI (default: `study settings lrs_endpoint`)")
    p.add_argument("--dry-run", action="store_true", help="list what would be sent and send nothing")
    p.add_argument("--batch", type=int, default=None, metavar="N", help="statements per request (default 100)")
    p.add_argument("--actor", help="as for `study export --format xapi` (default: your store's learner)")
    p.add_argument("--xapi-base", metavar="IRI", help="as for `study export --format xapi`")
    add_bank_options(p, ", for the question texts in the statements")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from study.cli import UsageError
    from study.interop.lrs import DEFAULT_BATCH, LrsError
    from study.interop.sync import SyncRequest, sync_store
    from study.interop.xapi import ActorError, base_and_actor
    from study.paths import default_db_path

    batch = DEFAULT_BATCH if args.batch is None else args.batch
    if not 1 <= batch <= 10_000:
        raise UsageError(f"--batch must be from 1 to 10000, not {batch}")
    try:
        base, actor = base_and_actor(args)
    except ActorError as exc:
        raise UsageError(str(exc)) from None
    request = SyncRequest(db=default_db_path(args.db), url=args.lrs, base=base, actor=actor, batch=batch,
                          questions=args.questions, content=args.content)
    try:
        report = sync_store(request, dry_run=args.dry_run, show_progress=sys.stderr.isatty(),
                            notice=lambda text: print(f"study: {text}", file=sys.stderr))
    except LrsError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    if args.dry_run:
        for st in report.would_send:
            verb = st.get("verb", {}).get("id", "").rsplit("/", 1)[-1]
            print(f"{st.get('timestamp', '')}  {verb:<9}  {st.get('object', {}).get('id', '')}  {st.get('id')}")
        print(f"would send {report.count_pending()} to {report.endpoint} ({report.outcome.already} already "
              "there)", file=sys.stderr)
        return 0
    for conflict in report.outcome.conflicts:
        print(f"study: error: statement {conflict.statement_id}: {conflict.detail}; the LRS keeps its own "
              "version (was it sent with another --xapi-base or by an older study?)", file=sys.stderr)
    print(f"sent {report.count_sent()} to {report.endpoint} ({report.outcome.already} already there"
          + (f", {len(report.outcome.conflicts)} in conflict" if report.outcome.conflicts else "") + ")",
          file=sys.stderr)
    return 1 if report.outcome.conflicts else 0
