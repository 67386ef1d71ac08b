"""``study suspend ID``, ``study unsuspend ID``, ``study bury ID``: card control as in Anki.

A suspended card or question is never due and never drawn until unsuspended; a buried one waits until the
start of tomorrow (local time). ``study suspend --list`` shows what is held back.
"""

from __future__ import annotations

import argparse
import sys

from study.commands import add_bank_options, bank_for
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    for name, run in (("suspend", _suspend), ("unsuspend", _unsuspend), ("bury", _bury)):
        help_ = command_help(name)
        p = sub.add_parser(name, help=help_, description=f"{help_[0].upper()}{help_[1:]}. ID is a question id "
                           "or a card id (topic/section), as the question and topic files give them.")
        p.add_argument("ids", nargs="*", metavar="ID")
        if name == "suspend":
            p.add_argument("--list", action="store_true", help="list what is suspended or buried now")
        p.add_argument("--json", action="store_true", help="print the result as JSON")
        add_bank_options(p)
        p.set_defaults(func=run)


def _items(args: argparse.Namespace) -> list[tuple[str, str]]:
    from study.cli import UsageError
    from study.progress.control import UnknownItem, check_item

    if not args.ids:
        raise UsageError(f"{args.command} needs at least one ID (a question id or a card id)")
    bank = bank_for(args)
    out = []
    for item_id in args.ids:
        try:
            out.append((item_id, check_item(bank, item_id)))
        except UnknownItem as exc:
            raise UsageError(exc.args[0]) from None
    return out


def _with_store(args: argparse.Namespace, act) -> int:
    import datetime as dt

    from study.paths import default_db_path
    from study.progress import open_store

    now = dt.datetime.now().astimezone()
    with open_store(default_db_path(args.db)) as store:
        if store.notice:
            print(f"study: {store.notice}", file=sys.stderr)
        return act(store, now)


def _report(args: argparse.Namespace, rows: list[dict]) -> None:
    import json

    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for row in rows:
        print(row["text"])


def _suspend(args: argparse.Namespace) -> int:
    from study.progress import control

    if args.list:
        return _list(args)
    items = _items(args)

    def act(store, now) -> int:
        rows = []
        for item_id, kind in items:
            control.suspend(store, item_id, now)
            rows.append({"id": item_id, "kind": kind, "suspended": True,
                         "text": f"suspended {kind} {item_id}: not due nor drawn until `study unsuspend {item_id}`"})
        _report(args, rows)
        return 0

    return _with_store(args, act)


def _unsuspend(args: argparse.Namespace) -> int:
    from study.progress import control

    items = _items(args)

    def act(store, now) -> int:
        rows = []
        for item_id, kind in items:
            was = control.unsuspend(store, item_id, now)
            rows.append({"id": item_id, "kind": kind, "was_held_back": was,
                         "text": f"{kind} {item_id} is back" if was else f"{kind} {item_id} was not held back"})
        _report(args, rows)
        return 0

    return _with_store(args, act)


def _bury(args: argparse.Namespace) -> int:
    from study.progress import control

    items = _items(args)

    def act(store, now) -> int:
        rows = []
        for item_id, kind in items:
            until = control.bury(store, item_id, now)
            rows.append({"id": item_id, "kind": kind, "buried_until": until.isoformat(),
                         "text": f"buried {kind} {item_id} until {until:%a %d %b %H:%M}"})
        _report(args, rows)
        return 0

    return _with_store(args, act)


def _list(args: argparse.Namespace) -> int:
    from study.progress import control

    def act(store, now) -> int:
        rows = []
        for c in control.controls(store):
            until = c.buried_until if c.buried_until is not None and c.buried_until > now else None
            if c.suspended:
                what = "suspended"
            elif until is not None:
                what = f"buried until {until.astimezone(now.tzinfo):%a %d %b %H:%M}"
            else:
                continue
            rows.append({"id": c.item_id, "suspended": c.suspended,
                         "buried_until": until.isoformat() if until else None, "text": f"{c.item_id}  {what}"})
        if not rows and not args.json:
            print("Nothing is suspended or buried.")
            return 0
        _report(args, rows)
        return 0

    return _with_store(args, act)
