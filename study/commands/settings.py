"""``study settings [KEY [VALUE]]``: show or change the learner's settings from the terminal."""

from __future__ import annotations

import argparse
import sys
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    from study.progress.settings import RULES

    keys = ", ".join(r.key for r in RULES if r.parse is not None)
    p = sub.add_parser(
        "settings",
        help=command_help("settings"),
        description=f"Without arguments, every setting and its value. With KEY, that value; with KEY VALUE, "
        f"set it; with KEY --unset, go back to the default. Keys you can set: {keys}.",
    )
    p.add_argument("key", nargs="?", metavar="KEY")
    p.add_argument("value", nargs="?", metavar="VALUE")
    p.add_argument("--unset", action="store_true", help="remove KEY's value (the default applies again)")
    p.add_argument("--json", action="store_true", help="print the settings as JSON")
    p.set_defaults(func=run)


def _shown(value: object) -> str:
    if value is None:
        return "(not set)"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _rules_of_layers_above() -> dict:  # imported late, so `study --help` loads no URL rules
    from study.interop.lrs_address import endpoint_setting

    return {"lrs_endpoint": endpoint_setting}


def run(args: argparse.Namespace) -> int:
    import difflib
    import json

    from study.cli import UsageError
    from study.paths import default_db_path
    from study.progress import StoreError, open_store
    from study.progress.settings import BY_KEY, RULES, parse_setting

    if args.key is not None and args.key not in BY_KEY:
        near = difflib.get_close_matches(args.key, list(BY_KEY), n=1)
        raise UsageError(f"no setting {args.key!r}" + (f"; did you mean {near[0]}?" if near else
                                                        f"; settings: {', '.join(BY_KEY)}"))
    if args.unset and (args.key is None or args.value is not None):
        raise UsageError("--unset takes a KEY and no VALUE")
    value = None
    if args.key is not None and (args.value is not None or args.unset):
        if BY_KEY[args.key].parse is None:
            raise UsageError(f"{args.key} is kept by study itself and cannot be set by hand")
        if args.value is not None:
            try:
                value = parse_setting(args.key, args.value, checks=_rules_of_layers_above())
            except ValueError as exc:
                # The store's rules read on from the key ("goal must be ..."); the LRS address rule's messages
                # are sentences of their own ("the LRS address '...' has port 0").
                reason = str(exc)
                joint = " " if reason.startswith(("must ", "can ")) else ": "
                raise UsageError(f"{args.key}{joint}{reason}") from None
    try:
        with open_store(default_db_path(args.db)) as store:
            if store.notice:
                print(f"study: {store.notice}", file=sys.stderr)
            if args.key is not None and (args.value is not None or args.unset):
                store.set_setting(args.key, value)
                print(f"{args.key} = {_shown(store.get_setting(args.key))}")
                return 0
            current = {r.key: r.default for r in RULES} | {k: v for k, v in store.settings().items()
                                                            if v is not None}
    except StoreError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    if args.key is not None:
        print(json.dumps(current.get(args.key)) if args.json else _shown(current.get(args.key)))
        return 0
    if args.json:
        print(json.dumps({r.key: current.get(r.key) for r in RULES}, indent=1))
        return 0
    width = max(len(r.key) for r in RULES)
    for r in RULES:
        print(f"{r.key:<{width}}  {_shown(current.get(r.key)):<26}  {r.meaning}")
    return 0
