"""The app's disk cache of the bank: a hit gives the same bank, an edit or a new file misses."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.tui.conftest import DATA


def _copy(tmp_path: Path) -> tuple[Path, Path]:
    content = tmp_path / "content"
    questions = tmp_path / "questions"
    shutil.copytree(DATA / "content", content)
    shutil.copytree(DATA / "questions", questions)
    return content, questions


def test_hit_returns_an_equal_bank_without_loading(tmp_path, monkeypatch):
    from study.bank import bank as bank_module
    from study.bank.cache import load_bank_cached

    content, questions = _copy(tmp_path)
    cache = tmp_path / "cache"
    first = load_bank_cached([str(questions)], str(content), directory=cache)
    assert len(list(cache.glob("bank-*.pickle"))) == 1

    def boom(*a, **k):
        raise AssertionError("a cache hit must not load the YAML")

    monkeypatch.setattr(bank_module, "build_bank", boom)
    bank_module.clear_cache()
    second = load_bank_cached([str(questions)], str(content), directory=cache)
    assert second is not first
    assert [q.id for q in second.questions] == [q.id for q in first.questions]
    assert second.question("fx-d2-kv-cache") == first.question("fx-d2-kv-cache")
    assert [c.id for c in second.cards] == [c.id for c in first.cards]


def test_an_edited_or_added_file_misses(tmp_path):
    import os

    from study.bank import clear_cache
    from study.bank.cache import load_bank_cached

    content, questions = _copy(tmp_path)
    cache = tmp_path / "cache"
    before = load_bank_cached([str(questions)], str(content), directory=cache)
    fixture = questions / "fixture.yaml"
    text = fixture.read_text().replace("Every machine learning system", "Every single machine learning system")
    fixture.write_text(text)
    st = fixture.stat()
    os.utime(fixture, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    clear_cache()
    after = load_bank_cached([str(questions)], str(content), directory=cache)
    assert after.question("fx-d1-ai-ml-dl").stem.startswith("Every single")
    assert before.question("fx-d1-ai-ml-dl").stem.startswith("Every machine")

    (questions / "more.yaml").write_text(
        fixture.read_text().replace("id: fx-", "id: more-fx-")
    )
    clear_cache()
    grown = load_bank_cached([str(questions)], str(content), directory=cache)
    assert len(grown.questions) == 2 * len(after.questions)


def test_an_unreadable_cache_file_falls_back_to_loading(tmp_path):
    from study.bank.cache import load_bank_cached

    content, questions = _copy(tmp_path)
    cache = tmp_path / "cache"
    load_bank_cached([str(questions)], str(content), directory=cache)
    (pickled,) = cache.glob("bank-*.pickle")
    pickled.write_bytes(b"not a pickle")
    bank = load_bank_cached([str(questions)], str(content), directory=cache)
    assert len(bank.questions) == 6


def test_reloading_after_one_edit_parses_only_that_file(tmp_path, monkeypatch):
    import study.bank.bank as bank_mod
    from study.bank import load_bank
    from study.bank.bank import clear_cache

    content, questions = _copy(tmp_path)
    first = load_bank(questions=[questions], content=content)
    calls: list[str] = []
    real = bank_mod.load_question_file

    def counting(path, shown=None):
        calls.append(Path(path).name)
        return real(path, shown)

    # A second file, which must not be parsed again after the first one is edited.
    other = Path(__file__).parents[2] / "data" / "lint" / "dupe" / "duplicate_id_a.yaml"
    shutil.copy(other, questions / "zz_other.yaml")
    clear_cache()
    first = load_bank(questions=[questions], content=content)
    assert "lint-dup-id" in {q.id for q in first.questions}
    monkeypatch.setattr(bank_mod, "load_question_file", counting)
    files = sorted(questions.rglob("*.yaml"))
    assert len(files) >= 2
    target = files[0]
    text = target.read_text()
    q = next(q for q in first.questions if Path(q.source.path).name == target.name)
    # Same length, so a stat-based check within one timestamp tick could not tell the edit apart.
    edited = text.replace(q.stem[:5], q.stem[:5][::-1], 1)
    assert edited != text and len(edited) == len(text)
    target.write_text(edited)
    clear_cache(keep_parses=True)  # as live reload does
    second = load_bank(questions=[questions], content=content)
    assert calls == [target.name]
    assert second.question(q.id).stem != q.stem
    assert len(second.questions) == len(first.questions)


def test_a_full_clear_parses_every_file_again(tmp_path, monkeypatch):
    # A cold load (what a fresh `study lint` pays, and what bench/lint.py must measure) keeps no parse.
    import study.bank.bank as bank_mod
    from study.bank import clear_cache, load_bank

    content, questions = _copy(tmp_path)
    load_bank(questions=[questions], content=content)
    calls: list[str] = []
    real = bank_mod.load_question_file
    monkeypatch.setattr(bank_mod, "load_question_file", lambda p, shown=None: calls.append(p) or real(p, shown))
    clear_cache()
    load_bank(questions=[questions], content=content)
    assert len(calls) == len(list(questions.rglob("*.yaml"))) >= 1


def _planted(tmp_path: Path, monkeypatch, change) -> bool:
    """Whether a pickle, after ``change(file, folder)``, is still unpickled on the next start."""
    import pickle

    from study.bank import bank as bank_module
    from study.bank.cache import load_bank_cached

    content, questions = _copy(tmp_path)
    cache = tmp_path / "cache"
    load_bank_cached([str(questions)], str(content), directory=cache)
    (pickled,) = cache.glob("bank-*.pickle")
    pickled.write_bytes(pickle.dumps("planted"))
    change(pickled, cache)
    bank_module.clear_cache()
    return load_bank_cached([str(questions)], str(content), directory=cache) == "planted"


def test_a_pickle_others_could_have_written_is_never_unpickled(tmp_path, monkeypatch):
    import os

    assert _planted(tmp_path / "a", monkeypatch, lambda f, d: None)  # the control: our own file is read
    assert not _planted(tmp_path / "b", monkeypatch, lambda f, d: f.chmod(0o666))
    assert not _planted(tmp_path / "c", monkeypatch, lambda f, d: d.chmod(0o777))
    if os.geteuid() == 0:  # only root can give a file away
        assert not _planted(tmp_path / "d", monkeypatch, lambda f, d: os.chown(f, 4242, -1))
