"""The change detector behind live reload: new, changed, deleted and unchanged files, and the debounce that
keeps a half-saved file from being loaded."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from study.bank import watch
from study.bank.watch import BLUEPRINT, QUESTION, SPEC, TOPIC, Change, Watcher, bank_roots

FIXTURE = Path(__file__).resolve().parents[2] / "tui" / "data"

ONE_QUESTION = """questions:
  - id: w-one
    objective: "1.1"
    difficulty: 1
    type: true_false
    stem: NCCL implements collective operations between GPUs.
    answer: true
    explanation: NCCL is the NVIDIA Collective Communications Library.
    references:
      - {title: NCCL, url: "https://docs.nvidia.com/deeplearning/nccl/"}
    verified: 2026-11-30
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A bank laid out like the repository: questions/ and content/ side by side."""
    shutil.copytree(FIXTURE / "questions", tmp_path / "questions")
    shutil.copytree(FIXTURE / "content", tmp_path / "content")
    return tmp_path


def roots(tree: Path) -> list[watch.Root]:
    return bank_roots([tree / "questions"], tree / "content")


def settled(w: Watcher) -> Change | None:
    """Two polls: the first sees the edit, the second confirms it has not moved since."""
    first = w.poll()
    assert first is None, "a change must not be reported on the poll that first sees it"
    return w.poll()


def primed(tree: Path) -> Watcher:
    w = Watcher(roots(tree))
    w.prime()
    return w


def test_nothing_changed_reports_nothing(tree):
    w = primed(tree)
    assert [w.poll() for _ in range(3)] == [None, None, None]


def test_a_new_file_is_reported_once_it_settles(tree):
    w = primed(tree)
    new = tree / "questions" / "sub" / "new.yaml"
    new.parent.mkdir()
    new.write_text(ONE_QUESTION)
    change = settled(w)
    assert change is not None
    assert change.added == (new,) and change.changed == () and change.removed == ()
    assert change.kinds == {QUESTION}
    assert w.poll() is None  # reported once, not on every poll after


def test_an_edited_file_is_reported_as_changed(tree):
    w = primed(tree)
    card = tree / "content" / "topics" / "fx-ai-ml-dl.md"
    card.write_text(card.read_text() + "\nOne more line.\n")
    change = settled(w)
    assert change is not None and change.changed == (card,) and change.kinds == {TOPIC}


def test_a_deleted_file_is_reported_as_removed(tree):
    w = primed(tree)
    gone = tree / "questions" / "fixture.yaml"
    gone.unlink()
    change = settled(w)
    assert change is not None and change.removed == (gone,) and change.added == ()
    assert change.paths == (gone,)


def test_a_rename_over_the_file_is_seen_even_with_the_same_size_and_time(tree):
    # Editors that save by writing a temporary file and renaming it give the file a new inode.
    w = primed(tree)
    target = tree / "content" / "blueprint.yaml"
    st = target.stat()
    tmp = target.with_name(".blueprint.yaml.tmp")
    tmp.write_bytes(target.read_bytes())
    os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(tmp, target)
    assert target.stat().st_size == st.st_size and target.stat().st_mtime_ns == st.st_mtime_ns
    change = settled(w)
    assert change is not None and change.changed == (target,) and change.kinds == {BLUEPRINT}


def test_a_file_still_being_written_is_not_reported_until_it_stops_changing(tree):
    w = primed(tree)
    path = tree / "questions" / "fixture.yaml"
    full = path.read_text()
    path.write_text(full[:40])  # the editor truncated and wrote the first part
    assert w.poll() is None
    path.write_text(full + "\n# saved\n")  # ...and the rest before the next poll
    assert w.poll() is None, "the state seen one poll ago has moved: wait"
    change = w.poll()
    assert change is not None and change.changed == (path,)
    assert w.poll() is None


def test_an_edit_undone_before_it_settles_is_not_reported(tree):
    w = primed(tree)
    path = tree / "questions" / "fixture.yaml"
    st = path.stat()
    original = path.read_bytes()
    path.write_bytes(original + b"\n")
    assert w.poll() is None
    path.write_bytes(original)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert [w.poll(), w.poll()] == [None, None]


def test_swap_files_readmes_and_other_suffixes_are_not_bank_files(tree):
    w = primed(tree)
    (tree / "questions" / ".fixture.yaml.swp").write_text("x")
    (tree / "questions" / "notes.txt").write_text("x")
    (tree / "content" / "topics" / "README.md").write_text("# how to write topics\n")
    (tree / "content" / "topics" / "draft.yaml").write_text("x")
    assert [w.poll(), w.poll()] == [None, None]


def test_several_files_in_one_change(tree):
    w = primed(tree)
    (tree / "questions" / "a.yaml").write_text(ONE_QUESTION)
    (tree / "content" / "topics" / "fx-nvlink-scope.md").unlink()
    change = settled(w)
    assert change is not None
    assert sorted(p.name for p in change.paths) == ["a.yaml", "fx-nvlink-scope.md"]
    assert change.kinds == {QUESTION, TOPIC}


def test_specs_are_watched_only_with_the_built_in_content(tree):
    from study import paths

    assert SPEC not in {r.kind for r in roots(tree)}
    builtin = bank_roots()
    spec_roots = [r for r in builtin if r.kind == SPEC]
    assert [r.path for r in spec_roots] == [paths.specs_dir()]
    assert {p for p, (kind, _sig) in watch.scan(spec_roots).items()} == {
        str(p) for p in paths.specs_dir().iterdir() if p.suffix == ".yaml"
    }


def test_reload_reads_the_edited_file_not_a_cached_bank(tree, tmp_path):
    from study.bank import load_bank

    questions, content = [str(tree / "questions")], str(tree / "content")
    before = load_bank(questions=questions, content=content)  # now in the per-process cache
    assert len(before.questions) == 6
    (tree / "questions" / "more.yaml").write_text(ONE_QUESTION)
    after = watch.reload_bank(questions, content, cache_directory=tmp_path / "cache")
    assert len(after.questions) == 7 and after.question("w-one").answer is True


def test_describe_names_the_file_and_counts_its_problems(tree, tmp_path, monkeypatch):
    monkeypatch.chdir(tree)  # diagnostics show paths relative to the working directory
    questions, content = ["questions"], "content"
    old = watch.reload_bank(questions, content, cache_directory=tmp_path / "cache")
    w = Watcher(bank_roots(questions, content))
    w.prime()
    broken = Path("questions/fixture.yaml")
    # The first question loses its `answer`: one error, and the five other questions still load.
    text = broken.read_text().replace("    answer: false\n", "", 1)
    broken.write_text(text)
    change = settled(w)
    assert change is not None
    bank = watch.reload_bank(questions, content, cache_directory=tmp_path / "cache")
    message, n_errors = watch.describe(change, bank, w.roots, old)
    assert n_errors == 1
    assert message == "Reloaded questions/fixture.yaml: 1 problem · 5 questions (1 fewer), 4 cards"


def test_describe_a_new_file_without_problems(tree, tmp_path):
    w = primed(tree)
    (tree / "questions" / "more.yaml").write_text(ONE_QUESTION)
    change = settled(w)
    bank = watch.reload_bank([str(tree / "questions")], str(tree / "content"), cache_directory=tmp_path / "c")
    message, n_errors = watch.describe(change, bank, w.roots)
    assert (message, n_errors) == ("Added questions/more.yaml: no problems · 7 questions, 4 cards", 0)


@pytest.mark.parametrize(
    ("env", "questions", "expected"),
    [
        ({"STUDY_WATCH": "0"}, ["q"], False),
        ({"STUDY_WATCH": "off"}, None, False),
        ({"STUDY_WATCH": "1"}, None, True),
        ({}, ["q"], True),  # an instructor's own folder
    ],
)
def test_watching_can_be_turned_on_and_off(env, questions, expected):
    assert watch.enabled_by_default(questions, None, env=env) is expected


def test_the_source_checkout_is_watched_by_default_and_a_bundled_copy_is_not(monkeypatch, tmp_path):
    from study import paths

    # This test runs from the checkout (editable install): its questions/ are beside the package.
    assert watch.source_checkout() is True
    assert watch.enabled_by_default(env={}) is True
    bundled = Path(paths.__file__).resolve().parent / "_data" / "questions"
    monkeypatch.setattr(paths, "questions_dir", lambda: bundled)
    assert watch.source_checkout() is False
    assert watch.enabled_by_default(env={}) is False


@pytest.fixture
def specs_copy(tmp_path, monkeypatch):
    """The calculator catalog copied where the test may edit it; the process's catalog is reset after."""
    from study import paths
    from study.calc import specs

    copy = tmp_path / "content" / "specs"
    shutil.copytree(paths.specs_dir(), copy)
    monkeypatch.setattr(paths, "specs_dir", lambda: copy)
    specs.catalog.cache_clear()
    yield copy
    specs.catalog.cache_clear()


def test_an_edited_catalog_is_used_and_a_broken_one_is_refused(specs_copy):
    from study.calc import specs
    from study.tui.services import Services

    gpus = specs_copy / "gpus.yaml"
    good = gpus.read_text()
    assert specs.gpu("h100-sxm").tdp_watts == 700
    w = Watcher([r for r in bank_roots() if r.kind == SPEC])
    w.prime()
    gpus.write_text(good.replace("    tdp: 700 W\n", "    tdp: 650 W\n", 1))
    change = settled(w)
    assert change is not None and change.kinds == {SPEC}
    bank, outcome = Services().reload(change)
    assert bank is None and outcome == {"spec": None}
    assert specs.gpu("h100-sxm").tdp_watts == 650
    assert watch.describe(change, None, w.roots) == (
        "Reloaded content/specs/gpus.yaml: the calculator uses the new catalog", 0)

    gpus.write_text(good + "\n\tbroken: [\n")
    change = settled(w)
    bank, outcome = Services().reload(change)
    assert bank is None and "calculator catalog not reloaded" in outcome["spec"] and "gpus.yaml" in outcome["spec"]
    assert specs.gpu("h100-sxm").tdp_watts == 650, "the last catalog that loaded stays in use"
