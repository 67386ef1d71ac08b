from __future__ import annotations

import argparse
import sys
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("reset", help=command_help("reset"))
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p.add_argument("--settings", action="store_true", help="also erase settings (exam date, retention, goal)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import datetime as dt

    from study.paths import default_db_path
    from study.progress import StoreError, open_store
    from study.text import count

    path = default_db_path(args.db)
    try:
        store = open_store(path)
    except StoreError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    with store:
        if store.notice:
            print(f"study: {store.notice}", file=sys.stderr)
        counts = store.counts()
        what = (f"{count(counts['attempts'], 'answer')}, {count(counts['reviews'], 'card review')} and "
                f"{count(counts['sessions'], 'session')}"
                + (" and all settings" if args.settings else ""))
        if not args.yes:
            if not sys.stdin.isatty():
                print("study: error: reset needs confirmation; run it in a terminal or pass --yes", file=sys.stderr)
                return 2
            reply = input(f"Erase {what} from {path}? A backup is written first. Type 'yes' to go on: ")
            if reply.strip().lower() != "yes":
                print("nothing changed")
                return 1
        stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S")
        backup = path.with_name(f"{path.stem}-backup-{stamp}.json")
        from study.quiz.saved_state import read_saved_session
        data = store.export_data(read_saved_session)
        try:
            _write_backup(backup, data)
        except OSError as exc:
            print(f"study: error: backup failed, nothing erased: {exc.strerror or exc}", file=sys.stderr)
            return 1
        try:
            store.reset(keep_settings=not args.settings)
        except StoreError as exc:
            print(f"study: error: nothing erased: {exc} (the backup {backup} is complete)", file=sys.stderr)
            return 1
    print(f"erased {what}; backup in {backup} (restore with: study import --replace {backup})")
    return 0


def _write_backup(backup, data: dict) -> None:
    """Written whole or not at all: a SIGKILL while writing used to leave a truncated backup under the real
    name. The text goes to a temporary sibling (mode 0600: it is the learner's history), is fsynced, then
    linked to ``backup``, which fails rather than replace a file already there; the folder is fsynced so the
    name survives a crash too."""
    import json
    import os
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{backup.name}.", suffix=".tmp", dir=backup.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False)
            fh.flush()
            os.fsync(fh.fileno())
        os.link(tmp, backup)
    finally:
        os.unlink(tmp)
    folder = os.open(backup.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
