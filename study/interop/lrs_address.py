"""Where an LRS is and how study authenticates to it: the checks that need no network, on the stdlib alone.

Kept apart from the HTTP client so ``study settings lrs_endpoint URL``, the commands' ``--help`` and the store's
settings rule can check an address without importing an HTTP stack. Every address is checked here once, when it
is typed, so a malformed one is one clear line at that moment instead of a protocol error at the next sync.
"""

from __future__ import annotations

import base64
import ipaddress
import json
import os
import re
import stat
import urllib.parse
from pathlib import Path
from collections.abc import Mapping

from study.interop.lrs_names import CREDENTIALS_FILE, PASSWORD_ENV, TOKEN_ENV, USER_ENV  # noqa: F401  (the client's names)
# A credentials file holds a token or a user and a password: a few hundred bytes. More is not ours.
MAX_CREDENTIALS_BYTES = 64 * 1024
DEFAULT_PORTS = {"http": 80, "https": 443}

# What may not appear in an address anywhere: whitespace and controls (a header injection or an InvalidURL at
# send time), and the characters RFC 3986 never allows unescaped.
_FORBIDDEN = re.compile(r"[\x00-\x20\x7f-\x9f\"<>\\^`{|}]")
_HOSTNAME = re.compile(r"^(?=.{1,253}$)[\w](?:[\w-]{0,62})(?:\.[\w](?:[\w-]{0,62}))*\.?$", re.UNICODE)


class LrsError(Exception):
    """The sync or the read could not complete; ``str(exc)`` is one line, free of credentials."""


def _quoted(text: str) -> str:
    from study.untrusted import shown

    # Quoted by hand: repr() would double the backslash of each escape shown() wrote ('\\x1b').
    return f"'{shown(text[:120], keep_newlines=False)}'"


def split_url(url: str) -> urllib.parse.SplitResult:
    """``url`` split, or ``LrsError`` saying what is wrong with it (never a ValueError from deep inside)."""
    text = url.strip()
    if _FORBIDDEN.search(text):
        raise LrsError(f"the LRS address {_quoted(text)} holds a space, a control character or a character an URL "
                       "may not hold unescaped")
    try:
        parts = urllib.parse.urlsplit(text)
        port = parts.port  # raises for a port that is not a number from 0 to 65535
        host = parts.hostname
    except ValueError as exc:
        raise LrsError(f"the LRS address {_quoted(text)} is not a valid URL ({exc})") from None
    if parts.scheme not in ("http", "https") or not host:
        raise LrsError(f"the LRS address must be an http:// or https:// URL, not {_quoted(text)}")
    if port == 0:
        raise LrsError(f"the LRS address {_quoted(text)} has port 0")
    if parts.netloc.rsplit("@", 1)[-1].startswith("["):
        try:
            ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            raise LrsError(f"the LRS address {_quoted(text)} has an invalid IPv6 host") from None
    elif not _HOSTNAME.match(host):
        raise LrsError(f"the LRS address {_quoted(text)} has an invalid host name")
    return parts


def origin(url: str) -> tuple[str, str, int]:
    """Scheme, host and port: what a token is bound to (RFC 6454's origin)."""
    parts = split_url(url)
    assert parts.hostname is not None
    return parts.scheme, parts.hostname.lower().rstrip("."), parts.port or DEFAULT_PORTS[parts.scheme]


def statements_url(url: str) -> str:
    """``http://host:8100/xAPI`` or ``.../xAPI/statements`` -> the statements resource, checked."""
    parts = split_url(url)
    if parts.username is not None or parts.password is not None:
        raise LrsError("put the LRS credentials in the environment or the credentials file, not in the URL "
                       "(see `study sync --help`)")
    path = parts.path.rstrip("/")
    if not path.endswith("/statements"):
        path += "/statements"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def endpoint_setting(text: str) -> str:
    """The rule for ``study settings lrs_endpoint``: the checked statements URL, or ``ValueError``."""
    try:
        return statements_url(text)
    except LrsError as exc:
        raise ValueError(str(exc)) from None


def _header_safe(value: str, what: str) -> str:
    # A line break in a header value would end the header: httpx refuses it, and retrying cannot help.
    if re.search(r"[\x00-\x1f\x7f]", value):
        raise LrsError(f"{what} holds a line break or a control character; it cannot be sent (fix it and "
                       "try again)")
    return value


def _token(value: str, what: str) -> str:
    # RFC 6750's b64token is ASCII; a header cannot carry anything else, and httpx would refuse it deep inside.
    _header_safe(value, what)
    if not value.isascii():
        raise LrsError(f"{what} holds a character that is not ASCII; a bearer token cannot (fix it and try again)")
    return "Bearer " + value


def read_credentials(config_dir: Path, env: Mapping[str, str] = os.environ) -> str | None:
    """The ``Authorization`` header value: a bearer token or basic credentials, from the environment first,
    then ``<config dir>/lrs-credentials.json`` (``{"token": ...}`` or ``{"username": ..., "password": ...}``),
    which must be a regular file readable by its owner only, in a folder only its owner can write, as ssh
    insists for its keys."""
    token = env.get(TOKEN_ENV, "").strip()
    if token:
        return _token(token, TOKEN_ENV)
    user = env.get(USER_ENV, "")
    if user:
        return _basic(_header_safe(user, USER_ENV), _header_safe(env.get(PASSWORD_ENV, ""), PASSWORD_ENV))
    path = config_dir / CREDENTIALS_FILE
    data = _read_private_file(path)
    if data is None:
        return None
    what = f"the token in {path}"
    if isinstance(data, dict) and isinstance(data.get("token"), str) and data["token"].strip():
        return _token(data["token"].strip(), what)
    if isinstance(data, dict) and isinstance(data.get("username"), str) and isinstance(data.get("password"), str):
        return _basic(_header_safe(data["username"], f"the username in {path}"),
                      _header_safe(data["password"], f"the password in {path}"))
    raise LrsError(f"{path} is not a JSON object with \"token\" or \"username\" and \"password\"")


def _read_private_file(path: Path) -> object | None:
    """The JSON in ``path``, None when there is none; a FIFO, a device or a folder is refused without being
    opened for a blocking read, so it can never hang the sync."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise LrsError(f"{path} is a folder, not a credentials file") from None
    except OSError as exc:
        raise LrsError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise LrsError(f"{path} is a folder, not a credentials file")
        if not stat.S_ISREG(info.st_mode):
            raise LrsError(f"{path} is not a regular file (a pipe or a device?); it must be a JSON file")
        if os.name == "posix":
            _check_private(path, info)
        raw = os.read(fd, MAX_CREDENTIALS_BYTES + 1)
    except OSError as exc:
        raise LrsError(f"cannot read {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_CREDENTIALS_BYTES:
        raise LrsError(f"{path} is larger than a credentials file can be (64 KB)")
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise LrsError(f"{path} is not a JSON object with \"token\" or \"username\" and \"password\"") from None


def _check_private(path: Path, info: os.stat_result) -> None:
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise LrsError(f"{path} can be read by others: run `chmod 600 {path}` (it holds your LRS credentials)")
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        raise LrsError(f"{path} belongs to another user; it must be yours (it holds your LRS credentials)")
    folder = path.resolve().parent
    try:
        mode = folder.stat().st_mode
    except OSError as exc:
        raise LrsError(f"cannot read {folder}: {exc.strerror or exc}") from None
    # Whoever can write the folder can swap the file for their own and learn where the learner's data goes.
    if mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise LrsError(f"{folder} can be written by others, so {path.name} in it could be replaced: run "
                       f"`chmod go-w {folder}` or keep the credentials in a private folder")


def _basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")


def secrets_of(authorization: str | None) -> list[str]:
    """Every form in which ``authorization`` could show up in text: the header value, the token, the encoded
    and decoded basic credentials and the password alone."""
    if not authorization:
        return []
    scheme, _, value = authorization.partition(" ")
    found = [authorization, value]
    if scheme == "Basic":
        try:
            decoded = base64.b64decode(value).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            decoded = ""
        found += [decoded, decoded.partition(":")[2]]
    # Longest first, so the header is replaced whole before its parts; very short parts would blank out
    # ordinary words, and a password of three characters is no secret worth the noise.
    return sorted({s for s in found if len(s) >= 4}, key=len, reverse=True)


def redact(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, "***")
    return text
