"""Who xAPI statements are about and the IRI base they are named under: ``--actor`` (an email or
``HOMEPAGE|NAME``), the default actor made from the store's learner id, and ``--xapi-base`` /
``STUDY_XAPI_BASE``. See ``study.interop.xapi`` for why the default actor is named as it is."""

from __future__ import annotations

import re
from typing import Any
from collections.abc import Mapping
from urllib.parse import urlsplit

DEFAULT_BASE = "https://study-nca-aiio.invalid/nca-aiio"
BASE_ENV = "STUDY_XAPI_BASE"
_EMAIL = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$"
)


# The store setting holding the learner's random id, the default actor's distinguishing part.
LEARNER_ID_SETTING = "learner_id"


class ActorError(ValueError):
    """``--actor`` (or the base IRI) is malformed; a usage mistake, exit 2."""


def _absolute_http(text: str) -> bool:
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises for a port that is not a number
    except ValueError:  # "Invalid IPv6 URL" and bad ports are malformed IRIs, one usage error, not a traceback
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not re.search(r"[\s<>\"{}|\\^`]", text)


def check_base(base: str, origin: str = BASE_ENV) -> str:
    """``origin`` names where the value came from (the option or the variable), for the error message."""
    base = base.strip().rstrip("/")
    if not _absolute_http(base) or urlsplit(base).query or urlsplit(base).fragment:
        raise ActorError(f"{origin} {base!r}: expected an absolute http(s) IRI without query or fragment, "
                         "like https://lms.example.edu/xapi/nca-aiio")
    return base


def parse_actor(text: str) -> dict[str, Any]:
    """``alice@example.com`` (or ``mailto:...``) becomes an mbox Agent; ``HOMEPAGE|NAME`` an account Agent."""
    raw = text.strip()
    if "|" in raw:
        home, name = (p.strip() for p in raw.split("|", 1))
        if not _absolute_http(home) or not name:
            raise ActorError(f"--actor {text!r}: HOMEPAGE|NAME needs an absolute http(s) home page and a "
                             "non-empty name, like 'https://lms.example.edu|alice'")
        return {"objectType": "Agent", "account": {"homePage": home, "name": name}}
    email = raw[len("mailto:"):] if raw.lower().startswith("mailto:") else raw
    if not _EMAIL.match(email):
        raise ActorError(f"--actor {text!r}: expected an email address (alice@example.com) or HOMEPAGE|NAME "
                         "(https://lms.example.edu|alice)")
    local, domain = email.rsplit("@", 1)
    # The domain is case-insensitive; lower case keeps one learner one agent (and one mbox_sha1sum).
    return {"objectType": "Agent", "mbox": f"mailto:{local}@{domain.lower()}"}


def default_actor(base: str, learner: str) -> dict[str, Any]:
    """An account on the base's site named ``<local user>-<learner>``: the user name alone is shared by every
    learner in a lab where all log in as the same user, so the store's own ``learner`` id tells them apart, and
    the user name keeps the account readable in an LRS. An institution should pass ``--actor`` instead."""
    import getpass

    try:
        name = getpass.getuser().strip()
    except Exception:  # no USER and no passwd entry (some containers)
        name = ""
    parts = urlsplit(base)
    return {"objectType": "Agent",
            "account": {"homePage": f"{parts.scheme}://{parts.netloc}", "name": f"{name or 'learner'}-{learner}"}}


def store_learner_id(store: Any) -> str:
    """The store's learner id (``LEARNER_ID_SETTING``), made and saved on first use (``Store.learner_id``)."""
    return str(store.learner_id())


def actor_key(actor: Mapping[str, Any]) -> str:
    if "mbox" in actor:
        return str(actor["mbox"])
    acc = actor["account"]
    return f"{acc['homePage']}|{acc['name']}"

