"""The immutable ``Bank``: blueprint, topics, cards, questions and the diagnostics found loading them."""

from __future__ import annotations

import difflib
import hashlib
import os
import re
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable, Sequence

from study import paths
from study.paths import resolved
from study.bank.load import (
    Diagnostic,
    QUESTION_SUFFIXES,
    content_hash,
    iter_files,
    load_blueprint,
    load_question_file,
    load_topic_file,
    not_a_regular_file,
    question_hash,
)
from study.bank.schema import Blueprint, Card, Question, Topic


class BankError(ValueError):
    """The bank cannot be built at all (a missing folder, an unreadable blueprint). Problems inside question
    and topic files are never raised: they are diagnostics, and the rest of the bank still loads."""


@dataclass(frozen=True)
class Bank:
    blueprint: Blueprint
    questions: tuple[Question, ...]
    topics: tuple[Topic, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    files: tuple[str, ...] = field(default=(), compare=False)

    @cached_property
    def _questions_by_id(self) -> dict[str, Question]:
        return {q.id: q for q in self.questions}

    @cached_property
    def _topics_by_id(self) -> dict[str, Topic]:
        return {t.id: t for t in self.topics}

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for t in self.topics for c in t.cards)

    @cached_property
    def _cards_by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    def question(self, qid: str) -> Question:
        return self._questions_by_id[qid]

    def topic(self, tid: str) -> Topic:
        return self._topics_by_id[tid]

    def card(self, cid: str) -> Card:
        return self._cards_by_id[cid]

    def has_item(self, item_id: str) -> bool:
        return item_id in self._questions_by_id or item_id in self._cards_by_id

    def questions_for(
        self,
        *,
        domain: str | None = None,
        objective: str | None = None,
        topic: str | None = None,
        difficulty: int | None = None,
    ) -> tuple[Question, ...]:
        return tuple(
            q
            for q in self.questions
            if (domain is None or q.domain == domain)
            and (objective is None or q.objective == objective)
            and (topic is None or q.topic == topic)
            and (difficulty is None or q.difficulty == difficulty)
        )

    def cards_for(self, objective: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if objective in c.objectives)

    @cached_property
    def _hashes(self) -> dict[str, str]:
        return {}

    def content_hash(self, item_id: str) -> str:
        """Digest of what the learner sees, so progress can notice an edited item (memoised: exams ask often)."""
        memo = self._hashes
        if item_id not in memo:
            if item_id in self._questions_by_id:
                memo[item_id] = question_hash(self._questions_by_id[item_id])
            else:
                card = self._cards_by_id[item_id]
                memo[item_id] = content_hash({"title": card.title, "body": card.body})
        return memo[item_id]

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")


def display_path(path: Path) -> str:
    """Paths in diagnostics: relative to the working directory when below it, else absolute."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return str(path)
    if not rel.startswith(".."):
        return rel
    # A dangling link is shown as itself: its target is not what the author wrote.
    return str(resolved(Path(path)) if os.path.exists(path) else Path(path).absolute())




_shown = display_path


# Each file's parse, keyed by its bytes: reloading a bank after one edit (live reload in the app, or a
# re-run in the same process) parses only the files that changed. Keyed by content rather than mtime so two
# saves within one timestamp tick cannot hand back a stale parse. Parsed models are immutable, so sharing
# them between banks is safe; the cap keeps a long-running process from holding every file it ever saw.
_FILE_PARSES: OrderedDict[tuple[str, str, str, bytes], Any] = OrderedDict()
_FILE_PARSES_CAP = 4096


def _parsed(kind: str, loader: Callable[[Path, str], Any], path: Path, shown: str) -> Any:
    special = not_a_regular_file(path, shown)
    if special is not None:  # checked before reading: a FIFO would block, a folder cannot be read
        return ([] if kind == "question" else None), [special]
    try:
        digest = hashlib.blake2b(path.read_bytes(), digest_size=16).digest()
    except OSError:
        return loader(path, shown)  # the loader reports why the file cannot be read
    key = (kind, str(path), shown, digest)
    hit = _FILE_PARSES.get(key)
    if hit is not None:
        _FILE_PARSES.move_to_end(key)
        return hit
    result = loader(path, shown)
    _FILE_PARSES[key] = result
    if len(_FILE_PARSES) > _FILE_PARSES_CAP:
        _FILE_PARSES.popitem(last=False)
    return result


def _series(qid: str) -> str:
    return re.sub(r"-\d+$", "", qid)


def _duplicate_keepers(questions: Sequence[Question]) -> dict[str, Question]:
    """Which question keeps each id. Among copies of one id, the one that fits its file's own id series
    (``d2-power-cooling-01`` in the file of ``d2-power-cooling-NN``) is the original: an id pasted into
    another file must not push the original, and the progress kept under that id, onto the copy."""
    by_file: dict[str, Counter[str]] = {}
    for q in questions:
        by_file.setdefault(q.source.path if q.source else "", Counter())[_series(q.id)] += 1
    keepers: dict[str, Question] = {}
    for q in questions:
        first = keepers.get(q.id)
        if first is None:
            keepers[q.id] = q
            continue
        series = by_file[q.source.path if q.source else ""]
        first_series = by_file[first.source.path if first.source else ""]
        fits = series.most_common(1)[0][0] == _series(q.id)
        first_fits = first_series.most_common(1)[0][0] == _series(first.id)
        if fits and not first_fits:
            keepers[q.id] = q
    return keepers


def build_bank(
    question_paths: Sequence[Path],
    topic_paths: Sequence[Path],
    blueprint: Blueprint,
) -> Bank:
    """Load the given files and run the cross-file checks (duplicate ids, unknown objectives and topics)."""
    diags: list[Diagnostic] = []
    topics: list[Topic] = []
    topic_seen: dict[str, str] = {}
    # A topic file that does not load is reported once, at its own position; the questions that cite it
    # (by its file name, which is its id) still load, so one broken card file does not empty a quiz.
    unreadable_topics: set[str] = set()
    for path in topic_paths:
        shown = _shown(path)
        topic, found = _parsed("topic", load_topic_file, path, shown)
        diags.extend(found)
        if topic is None:
            unreadable_topics.add(path.stem)
            continue
        if topic.id in topic_seen:
            diags.append(Diagnostic(shown, 2, 1, "error", "duplicate-id", f"topic id {topic.id!r} is also used by {topic_seen[topic.id]}"))
            continue
        topic_seen[topic.id] = shown
        topics.append(topic)
    objectives = set(blueprint.objective_ids())
    for t in topics:
        for o in t.meta.objectives:
            if o not in objectives:
                diags.append(Diagnostic(t.source.path if t.source else "?", 2, 1, "error", "unknown-objective", f"objective {o!r} is not in the blueprint"))

    questions: list[Question] = []
    loaded: list[Question] = []
    for path in question_paths:
        found_q, found = _parsed("question", load_question_file, path, _shown(path))
        diags.extend(found)
        loaded.extend(found_q)
    keepers = _duplicate_keepers(loaded)
    for q in loaded:
        src = q.source
        assert src is not None
        keeper = keepers[q.id]
        if keeper is not q:
            diags.append(Diagnostic(src.path, src.line, src.column, "error", "duplicate-id",
                                    f"question id {q.id!r} is already used at {keeper.source}; this copy is left out"))
            continue
        bad = False
        if q.objective not in objectives:
            diags.append(Diagnostic(src.path, src.line, src.column, "error", "unknown-objective", f"objective {q.objective!r} is not in the blueprint (1.1 to 3.4)"))
            bad = True
        if q.topic is not None and q.topic not in topic_seen and q.topic not in unreadable_topics:
            close = difflib.get_close_matches(q.topic, list(topic_seen), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            diags.append(Diagnostic(src.path, src.line, src.column, "error", "unknown-topic",
                                    f"topic {q.topic!r} has no file in content/topics/{hint}"))
            bad = True
        if not bad:
            questions.append(q)
    return Bank(
        blueprint=blueprint,
        questions=tuple(questions),
        topics=tuple(topics),
        diagnostics=tuple(sorted(diags)),
        files=tuple(_shown(p) for p in (*topic_paths, *question_paths)),
    )


def builtin_question_files() -> list[Path]:
    return iter_files([paths.questions_dir()], QUESTION_SUFFIXES)


def builtin_topic_files() -> list[Path]:
    return [p for p in iter_files([paths.topics_dir()], (".md",)) if p.name.lower() != "readme.md"]


_CACHE: dict[tuple[str, tuple[str, ...], tuple[str, ...]], Bank] = {}


def bank_sources(
    questions: Iterable[Path | str] | None = None, content: Path | str | None = None
) -> tuple[list[Path], Path]:
    """The question files or folders and the content folder ``load_bank(questions, content)`` reads: the
    built-in ones unless given. The disk cache and live reload ask here so all three agree."""
    q_roots = [Path(p) for p in questions] if questions is not None else [paths.questions_dir()]
    return q_roots, Path(content) if content is not None else paths.content_dir()


def load_bank(
    questions: Iterable[Path | str] | None = None,
    content: Path | str | None = None,
    extra: Iterable[Path | str] = (),
) -> Bank:
    """The bank. Defaults to the built-in content and questions, cached per process.

    ``questions``: question files or folders instead of the built-in bank; ``content``: a content folder
    (with ``blueprint.yaml`` and ``topics/``) instead of the built-in one; ``extra``: more question files or
    folders loaded *together with* the others, so cross-file checks see them.
    """
    q_roots, content_root = bank_sources(questions, content)
    extra_roots = [Path(p) for p in extra]
    # Absolute paths in the key: "my-bank" names another folder after a chdir, and must not be that bank.
    key = (os.path.abspath(content_root), tuple(map(os.path.abspath, q_roots)), tuple(map(os.path.abspath, extra_roots)))
    if key in _CACHE:
        return _CACHE[key]
    missing = [p for p in (*q_roots, *extra_roots) if not p.exists()]
    if missing:
        raise BankError(f"no such question file or folder: {missing[0]}")
    blueprint_path = content_root / "blueprint.yaml"
    if not blueprint_path.is_file():
        raise BankError(f"{content_root} is not a content folder: it has no blueprint.yaml")
    try:
        blueprint = load_blueprint(blueprint_path)
    except OSError as exc:
        raise BankError(f"cannot read {blueprint_path}: {exc.strerror or exc}") from exc
    except ValueError as exc:  # includes pydantic's ValidationError
        raise BankError(f"the blueprint does not load: {exc}") from exc
    topic_files = [p for p in iter_files([content_root / "topics"], (".md",)) if p.name.lower() != "readme.md"]
    q_files = iter_files(q_roots, QUESTION_SUFFIXES)
    known_q = {resolved(p) for p in q_files}
    extra_files = [p for p in iter_files(extra_roots, QUESTION_SUFFIXES) if resolved(p) not in known_q]
    # Topic files given on the command line are checked as topics, replacing the built-in copy if it is one.
    resolved_topics = {resolved(p) for p in topic_files}
    extra_topics = [
        p for p in iter_files(extra_roots, (".md",))
        if p.name.lower() != "readme.md" and resolved(p) not in resolved_topics
    ]
    bank = build_bank([*q_files, *extra_files], [*topic_files, *extra_topics], blueprint)
    _CACHE[key] = bank
    return bank


def clear_cache(*, keep_parses: bool = False) -> None:
    """Forget loaded banks. ``keep_parses`` keeps each file's parse (keyed by its bytes, so never stale):
    live reload wants that; a benchmark of a cold load, or a test of loading, does not."""
    _CACHE.clear()
    if not keep_parses:
        _FILE_PARSES.clear()
