"""The learner's answers and exams as xAPI 1.0.3 statements, one JSON object per line, for a learning record store.

What is written (IRIs under a base, ``https://study-nca-aiio.invalid/nca-aiio`` unless ``STUDY_XAPI_BASE`` names
the institution's own):

* one ``answered`` statement per recorded answer (``attempted`` for a blank that a store from before blanks
  stopped being recorded still holds; a question left unanswered now appears only in its exam's report). The
  object is the question as a ``cmi.interaction`` activity ``<base>/questions/<id>``: ``choice`` (components
  ``a``, ``b``, ... in the order the author wrote the choices, not the shuffled letters the learner saw),
  ``true-false`` or ``numeric`` (correct range ``min[:]max`` in the answer's unit, from the tolerance). A
  templated question's instance is its own activity, ``<base>/questions/<id>?name=value&...``, because xAPI
  wants one activity to keep one set of correct responses; the question it was drawn from is listed under
  ``contextActivities.other`` so a ``related_activities`` query on the question's IRI finds every instance.
* per finished exam or timed quiz, ``completed`` plus ``passed`` or ``failed`` against the quiz engine's target
  (``exam.target_percent``, unofficial); a finished practice set gets ``completed`` only.

Statement ids are UUID 5 of the attempt's (or session's) uid and the actor, and the registration is UUID 5 of
the session id, so exporting again yields the same statements and an LRS stores them once. After ``study
regrade`` an answer's statement and its session's ``completed`` and verdict are not changed under their ids
(xAPI 1.0.3, Data 2.3.1: statements are immutable): each is voided by a ``voided`` statement whose object is a
``StatementRef`` to it (Data 2.3.2), and sent again under a new id whose ``context.statement`` names the one it
replaces. So a sync after a regrade sends the voids and the new statements, and an LRS that already holds the
old ones reports no conflict.

The actor is ``--actor`` (an email, or ``HOMEPAGE|NAME`` for an account). Without it, the actor is an account on the
base's site (``https://study-nca-aiio.invalid``) named after the progress store's learner, not the computer's
user: ``<local user name>-<learner id>``, where the learner id is 12 random hex digits made on the store's first export
of any kind (``Store.learner_id``) and kept in its settings (``learner_id``), so a JSON export made before any
xAPI export carries it too and the analysis counts the two as one learner. So 24 stores exported on lab machines all logged in as ``root``
give 24 actors, while one store exported again keeps its actor (and its statement ids). The id travels with the
store's JSON backup, so a restored store keeps it too. An institution should still pass ``--actor`` with the
learner's real identity, which overrides the default. The answer exactly as given (shown letters,
a number with its unit) goes in ``result.extensions["<base>/extensions/given"]``; the numeric unit and tolerance
in the definition's extensions. The picked choices come from the attempt itself (stores at schema 5 keep their
texts); from schema 6 each answer keeps the question as shown (``attempts.shown_json``: the stem, the choices in
the order shown with a stable id each, a hash of the choice's text, the numeric key, the version of study that
asked), and its statement is built from that alone: rewording a stem or reordering choices in the bank later
changes no statement already exported, and ``result.response`` names choices by those ids. An older answer
without it is described from the current bank, as before; an older answer whose shown choice order the store
did not keep (a practice set that was never submitted nor timed) goes out without ``response``; one to a
question gone from the bank goes out with the question id and whatever the session report still says of it.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any
from collections.abc import Mapping

from study.interop.xapi_actor import (
    BASE_ENV,
    DEFAULT_BASE,
    LEARNER_ID_SETTING,
    ActorError,
    check_base,
    default_actor,
    parse_actor,
    store_learner_id,
)
from study.interop.xapi_formats import NAMESPACE, choice_id, iso_duration, iso_timestamp, number_text
from study.interop.xapi_statements import Summary, build_statements, to_jsonl
from study.text import count

# The parts live beside this module (xapi_actor, xapi_formats, xapi_sessions, xapi_interactions,
# xapi_statements); the names callers use are all here.
__all__ = [
    "BASE_ENV",
    "DEFAULT_BASE",
    "LEARNER_ID_SETTING",
    "NAMESPACE",
    "ActorError",
    "Summary",
    "base_and_actor",
    "build_statements",
    "check_base",
    "choice_id",
    "default_actor",
    "export_command",
    "iso_duration",
    "iso_timestamp",
    "number_text",
    "parse_actor",
    "store_learner_id",
    "store_statements",
    "to_jsonl",
    "warn_summary",
]


def store_statements(store: Any, bank: Any, actor: Mapping[str, Any], base: str) -> tuple[list[dict[str, Any]], Summary]:
    """The statements of everything in ``store``, regrades voided and replaced: what export and sync send."""
    from study.progress.regrades import regrades_by_attempt

    return build_statements(store.export_data(), bank, actor, base, regrades=regrades_by_attempt(store))


def base_and_actor(args: argparse.Namespace) -> tuple[str, dict[str, Any] | None]:
    """``--xapi-base`` (else ``STUDY_XAPI_BASE``, else the default) and ``--actor`` (None: the store's learner).

    Raises ``ActorError`` for either one malformed."""
    if getattr(args, "xapi_base", None):
        base = check_base(args.xapi_base, "--xapi-base")
    else:
        base = check_base(os.environ.get(BASE_ENV) or DEFAULT_BASE, BASE_ENV)
    return base, parse_actor(args.actor) if getattr(args, "actor", None) else None


def warn_summary(summary: Summary) -> None:
    """Say on stderr what the statements could not carry (shared by export and sync)."""
    if summary.missing:
        shown = ", ".join(sorted(summary.missing)[:5]) + (", ..." if len(summary.missing) > 5 else "")
        print(f"study: {count(summary.missing_answers, 'answer')} to {count(len(summary.missing), 'question')} "
              f"no longer in the bank ({shown}): exported with the question id only", file=sys.stderr)
    if summary.no_response:
        print(f"study: {count(summary.no_response, 'answer')} exported without result.response (the order the "
              "choices were shown in was not kept, the question changed, or the number was of the wrong kind); "
              "the answer as given is in result.extensions", file=sys.stderr)


def export_command(args: argparse.Namespace) -> int:
    """``study export --format xapi [FILE] [--actor ACTOR]``: exit 0, 1 (store or file problem), 2 (bad actor)."""
    from study.bank.from_options import bank_for
    from study.paths import default_db_path
    from study.progress import StoreError, open_store

    try:
        base, actor = base_and_actor(args)
    except ActorError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 2
    try:
        with open_store(default_db_path(getattr(args, "db", None))) as store:
            if store.notice:
                print(f"study: {store.notice}", file=sys.stderr)
            if actor is None:
                actor = default_actor(base, store_learner_id(store))
            statements, summary = store_statements(store, bank_for(args), actor, base)
    except StoreError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    warn_summary(summary)
    from study.interop.output import emit

    where = emit(args.file, to_jsonl(statements))
    if where is None:
        return 1
    if where != args.file:
        return 0
    voids = f", {count(summary.voids, 'voiding statement')} for regrades" if summary.voids else ""
    print(f"exported {count(summary.statements, 'xAPI statement')} ({count(summary.answers, 'answer')}, "
          f"{count(summary.sessions, 'finished session')}{voids}) to {args.file}", file=sys.stderr)
    return 0
