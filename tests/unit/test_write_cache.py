"""paths.write_cache: the one way the caches (bank, catalog, lab cases, home snapshot) write their files."""

from __future__ import annotations

import os

import pytest

from study.paths import write_cache


def test_writes_the_bytes_whole_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "sub" / "c.json"
    assert write_cache(target, b'{"a": 1}')
    assert write_cache(target, b'{"a": 2}')
    assert target.read_bytes() == b'{"a": 2}'
    assert os.listdir(target.parent) == ["c.json"]


def test_a_symlink_planted_at_the_target_is_replaced_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    target = tmp_path / "c.json"
    target.symlink_to(victim)
    assert write_cache(target, b"new")
    assert victim.read_text() == "keep me"
    assert not target.is_symlink() and target.read_bytes() == b"new"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_a_false_not_an_error(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert write_cache(folder / "c.json", b"x") is False
        assert os.listdir(folder) == []
    finally:
        folder.chmod(0o700)


def test_a_file_where_the_folder_should_be_is_a_false_not_an_error(tmp_path):
    (tmp_path / "notadir").write_text("")
    assert write_cache(tmp_path / "notadir" / "c.json", b"x") is False
