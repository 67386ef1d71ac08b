"""Where built-in content lives and where the learner's data goes.

Content is found in the installed wheel (``study/_data``) or, for a source checkout and an editable
install, beside the package. User data follows the platform's conventions via platformdirs.
"""

from __future__ import annotations

import os
import posixpath
import sys
from functools import cache
from pathlib import Path

APP_NAME = "study-nca-aiio"
_PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def _data_root() -> Path:
    bundled = _PACKAGE_DIR / "_data"
    if (bundled / "content").is_dir():
        return bundled
    return _PACKAGE_DIR.parent


def resolved(path: Path) -> Path:
    """``path.resolve()``, or the path made absolute when it is a symlink loop."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop (RuntimeError before Python 3.13): keep it as given
        return path.absolute()


def content_dir() -> Path:
    """Topic cards, the blueprint and the GPU/model/interconnect catalog."""
    return _data_root() / "content"


def questions_dir() -> Path:
    """The built-in question bank."""
    return _data_root() / "questions"


def blueprint_path() -> Path:
    return content_dir() / "blueprint.yaml"


def specs_dir() -> Path:
    return content_dir() / "specs"


def topics_dir() -> Path:
    return content_dir() / "topics"


def _linux_user_dir(xdg_variable: str, default: str) -> Path | None:
    """platformdirs' user folder on plain Linux, found without importing it; None where it must decide.

    Importing platformdirs costs ~10 ms (its Unix class pulls in tempfile, shutil and random), paid before the
    app's first paint and by every ``study calc`` and ``study lab --run``. On Linux its answer is the XDG
    variable when that is absolute, else ``default`` under an absolute HOME; anything else (another platform,
    Android, no usable HOME) is left to platformdirs. tests/unit/test_paths.py holds the two to the same answer.
    """
    if sys.platform != "linux" or hasattr(sys, "getandroidapilevel") or "ANDROID_DATA" in os.environ:
        return None
    base = os.environ.get(xdg_variable, "")
    if not posixpath.isabs(base):
        home = os.environ.get("HOME", "")
        if not posixpath.isabs(home):
            return None
        base = posixpath.expanduser(default)
    return Path(base, APP_NAME)


def user_data_dir() -> Path:
    fast = _linux_user_dir("XDG_DATA_HOME", "~/.local/share")
    if fast is not None:
        return fast
    from platformdirs import user_data_path

    return user_data_path(APP_NAME, appauthor=False)


def user_config_dir() -> Path:
    """Where files the learner writes by hand live (the LRS credentials file)."""
    fast = _linux_user_dir("XDG_CONFIG_HOME", "~/.config")
    if fast is not None:
        return fast
    from platformdirs import user_config_path

    return user_config_path(APP_NAME, appauthor=False)


def user_cache_dir() -> Path:
    fast = _linux_user_dir("XDG_CACHE_HOME", "~/.cache")
    if fast is not None:
        return fast
    from platformdirs import user_cache_path

    return user_cache_path(APP_NAME, appauthor=False)


def cache_folder(name: str, override_env: str) -> Path | None:
    """The user cache's folder for ``name``. ``$override_env`` names another folder (tests, benchmarks) and,
    set empty, turns that cache off. A cache only saves time: callers go on without one."""
    override = os.environ.get(override_env)
    if override == "":
        return None
    return Path(override) if override else user_cache_dir() / name


def write_cache(target: Path, data: bytes) -> bool:
    """Keep ``data`` as ``target`` in a cache folder, whole or not at all; False when it could not be written.

    The bytes go to a sibling with an unguessable name created with O_EXCL (so a file or symlink planted at
    a predictable name cannot take the write), then replace the target in one rename, so a reader sees the
    old file or the new one, never half of one. A cache only saves time: callers go on either way.
    """
    tmp = target.with_name(f".{target.name}.{os.urandom(6).hex()}.tmp")
    try:
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        return False
    return True


def default_db_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The progress store: ``--db`` wins, then ``STUDY_DB``, then the platform data dir."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get("STUDY_DB")
    if env:
        return Path(env).expanduser()
    return user_data_dir() / "progress.db"
