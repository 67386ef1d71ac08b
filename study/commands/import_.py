from __future__ import annotations

import argparse
import sys
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "import",
        help=command_help("import"),
        description="FILE.json (or '-'): a progress backup from `study export`, merged into your store. "
        "FILE.gift or FILE.txt: Moodle GIFT questions, written as a question file with --out.",
    )
    p.add_argument("file", metavar="FILE", help="a JSON file from `study export` ('-' for standard input), "
                   "or a .gift file")
    p.add_argument("--out", metavar="YAML", help="gift: the question file to write, e.g. questions/d1-x/moodle.yaml "
                   "('-' prints it)")
    p.add_argument("--objective", metavar="X.Y", help="gift: the blueprint objective for questions whose file names none")
    p.add_argument("--force", action="store_true", help="gift: replace --out if it already exists")
    p.add_argument("--replace", action="store_true",
                   help="make the store exactly the backup (default: merge, keeping local progress; "
                   "importing the same file twice adds nothing)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Moodle saves its GIFT exports as .txt; a progress backup is always JSON.
    if args.file.lower().endswith((".gift", ".txt")):
        from study.interop.gift import import_command

        return int(import_command(args))
    import json
    from typing import Any  # loaded already by the store's imports below

    from study.paths import default_db_path
    from study.progress import StoreError, open_store
    from study.progress.transfer import ImportFormatError

    from study.inputs import MAX_JSON_INPUT, InputFileError, parse_json, read_bounded

    label = "standard input" if args.file == "-" else args.file
    try:
        data = parse_json(read_bounded(args.file, MAX_JSON_INPUT).decode("utf-8"))
    except InputFileError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    except UnicodeDecodeError:
        print(f"study: error: {label} is not UTF-8 text, so not a backup from `study export`", file=sys.stderr)
        return 1
    except json.JSONDecodeError as exc:
        print(f"study: error: {label} is not JSON: {exc}", file=sys.stderr)
        return 1
    except RecursionError:
        print(f"study: error: {label} nests JSON too deeply to be a backup from `study export`", file=sys.stderr)
        return 1
    try:
        with open_store(default_db_path(args.db)) as store:
            if store.notice:
                print(f"study: {store.notice}", file=sys.stderr)
            from study.quiz.saved_state import read_saved_session
            # Counts, plus the names under "ignored_settings" (the store's annotation says only ints).
            added: dict[str, Any] = store.import_data(data, replace=args.replace, read_session=read_saved_session)
    except (StoreError, ImportFormatError) as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    ignored: list[str] = added.get("ignored_settings") or []
    if ignored:
        from study.untrusted import shown

        names = ", ".join(shown(name, keep_newlines=False)[:40] for name in ignored[:5])
        more = f" and {len(ignored) - 5} more" if len(ignored) > 5 else ""
        print(f"study: ignored from the backup: {names}{more} (LRS settings and unknown keys never travel in a "
              "backup; set your own with `study settings`)", file=sys.stderr)
    from study.text import count

    verb = "restored" if args.replace else "merged"
    extra = "".join(f", {count(added[key], what)}" for key, what in
                    (("item_control", "held-back item"), ("attempt_regrades", "regrade")) if added.get(key))
    print(f"{verb}: {count(added['attempts'], 'answer')}, {count(added['reviews'], 'card review')}, "
          f"{count(added['sessions'], 'session')}, {count(added['settings'], 'setting')}{extra} added; "
          f"{count(added['items'], 'schedule')} rebuilt")
    return 0
