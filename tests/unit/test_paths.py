"""The user folders found without platformdirs are the ones platformdirs gives, in every environment tried."""

from __future__ import annotations

import itertools
import sys

import platformdirs
import pytest

from study import paths

HOMES = ["/home/ada", "/home/ada/", "/", "relative/home", "", None]
XDG = ["/srv/xdg", "/srv/xdg/", "relative/xdg", "", "~/tilde", None]
FOLDERS = [
    (paths.user_data_dir, platformdirs.user_data_path, "XDG_DATA_HOME"),
    (paths.user_config_dir, platformdirs.user_config_path, "XDG_CONFIG_HOME"),
    (paths.user_cache_dir, platformdirs.user_cache_path, "XDG_CACHE_HOME"),
]


def _set(monkeypatch: pytest.MonkeyPatch, name: str, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv(name, raising=False)
    else:
        monkeypatch.setenv(name, value)


@pytest.mark.parametrize(("home", "xdg"), list(itertools.product(HOMES, XDG)))
@pytest.mark.parametrize(("ours", "theirs", "variable"), FOLDERS, ids=["data", "config", "cache"])
def test_each_user_folder_is_the_one_platformdirs_gives(monkeypatch, home, xdg, ours, theirs, variable):
    _set(monkeypatch, "HOME", home)
    _set(monkeypatch, variable, xdg)
    try:
        expected = theirs(paths.APP_NAME, appauthor=False)
    except RuntimeError:  # platformdirs refuses a relative HOME it cannot resolve: so must we, through it
        with pytest.raises(RuntimeError):
            ours()
        return
    assert ours() == expected


@pytest.mark.skipif(sys.platform != "linux", reason="the quick path is for Linux only")
def test_the_quick_path_answers_on_linux_and_defers_where_platformdirs_must_decide(monkeypatch):
    monkeypatch.setenv("HOME", "/home/ada")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert paths._linux_user_dir("XDG_CACHE_HOME", "~/.cache") == paths.Path("/home/ada/.cache", paths.APP_NAME)
    monkeypatch.setenv("HOME", "relative")
    assert paths._linux_user_dir("XDG_CACHE_HOME", "~/.cache") is None
    monkeypatch.setenv("HOME", "/home/ada")
    monkeypatch.setenv("ANDROID_DATA", "/data")
    assert paths._linux_user_dir("XDG_CACHE_HOME", "~/.cache") is None
