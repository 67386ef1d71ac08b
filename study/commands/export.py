from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="back up all progress (attempts, reviews, sessions, schedule, settings)")
    p.add_argument("--format", choices=["json"], default="json", help="backup format (default json)")
    p.add_argument("file", nargs="?", metavar="FILE", help="where to write (default: standard output)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json
    import os
    from pathlib import Path

    from study.paths import default_db_path
    from study.progress import StoreError, open_store

    try:
        with open_store(default_db_path(args.db)) as store:
            if store.notice:
                print(f"study: {store.notice}", file=sys.stderr)
            data = store.export_data()
    except StoreError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if not args.file or args.file == "-":
        sys.stdout.write(text)
        return 0
    target = Path(args.file)
    tmp = target.with_name(f".{target.name}.tmp")
    try:
        # Write then rename, so an interrupted export never leaves a half-written backup under the real name.
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        print(f"study: error: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"exported {len(data['attempts'])} answers, {len(data['reviews'])} card reviews, "
          f"{len(data['sessions'])} sessions to {target}", file=sys.stderr)
    return 0
