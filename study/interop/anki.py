"""Topic cards and questions as an Anki package (``.apkg``), written with genanki.

What keeps a re-import an *update* rather than a pile of duplicates (Anki's importer, rslib
``import_export/package/apkg/import``):

- a note is matched by its GUID, which we derive from the item's stable id, never from its text;
- an existing note is only overwritten when the incoming note is *newer* (its ``mod`` time), so a changed
  note is stamped with the export time (or ``SOURCE_DATE_EPOCH`` for a reproducible build), while a note
  whose fields, tags and type are the same as in the earlier export being replaced keeps that export's
  time: Anki then counts it as unchanged instead of reporting every note "updated";
- a note type is matched by id and then by a hash of its field names and template names: renaming a
  field or a template makes Anki treat the type as a different one and ignore every existing note as
  conflicting. ``CARD_FIELDS``, ``QUESTION_FIELDS`` and the template names are therefore frozen; the
  templates' HTML and the CSS may change freely.
- decks are matched by name, so their ids only need to be stable and in genanki's range. Anki sorts deck
  names as text, so objective numbers are zero-padded within a domain that reaches 10 ("2.01" ... "2.10").

Everything a field holds is HTML: Markdown is rendered with raw HTML disabled, and plain strings are
escaped, so a stem that mentions ``<b>`` or ``&`` shows those characters instead of being parsed.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import io
import itertools
import os
import re
import shutil
import sqlite3
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Iterable, Sequence

if TYPE_CHECKING:  # genanki and markdown-it are imported by the functions that use them
    import genanki

    from study.bank.bank import Bank
    from study.bank.schema import Card, Question, Reference, Topic
    from study.quiz.instance import Instance

# Hard-coded, as Anki identifies note types by id; drawn once at random from [2**30, 2**31).
CARD_MODEL_ID = 1899488221
QUESTION_MODEL_ID = 1477340133
ID_LOW, ID_HIGH = 1 << 30, 1 << 31

CARD_FIELDS = ("Title", "Body", "Topic", "Objectives", "References", "Id")
QUESTION_FIELDS = (
    "Question", "Choices", "Answer", "Explanation", "Why", "Worked", "Instance", "References", "Objective", "Id",
)
GUID_NAMESPACE = "study"
# Templated questions are exported as one fixed draw; this seed names it, so every export picks the same one.
INSTANCE_SEED = "anki"

CSS = """\
.card {
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 18px;
  line-height: 1.45;
  text-align: left;
  max-width: 44em;
  margin: 0 auto;
  padding: 0 0.75em;
}
.crumb { font-size: 0.75em; opacity: 0.7; margin-bottom: 0.6em; }
h1.title { font-size: 1.35em; margin: 0.2em 0 0.6em; }
h2, h3, h4 { font-size: 1.05em; margin: 1em 0 0.4em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
th, td { border: 1px solid rgba(127, 127, 127, 0.45); padding: 0.2em 0.5em; vertical-align: top; }
th { background: rgba(127, 127, 127, 0.15); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em;
       background: rgba(127, 127, 127, 0.15); padding: 0 0.2em; border-radius: 3px; }
pre { background: rgba(127, 127, 127, 0.12); padding: 0.5em 0.7em; border-radius: 4px; overflow-x: auto; }
pre code { background: none; padding: 0; }
.choices { margin: 0.8em 0; }
.choice { display: flex; gap: 0.6em; margin: 0.35em 0; }
.label { font-weight: 600; min-width: 1.4em; }
.prompt { font-style: italic; opacity: 0.85; }
.answer { font-size: 1.1em; font-weight: 600; }
.section { margin-top: 0.9em; }
.section-title { font-size: 0.8em; text-transform: uppercase; letter-spacing: 0.04em; opacity: 0.7; }
.why ul, .worked ol { padding-left: 1.3em; margin: 0.3em 0; }
.why li { margin: 0.25em 0; }
.ok { color: #1a7f37; font-weight: 600; }
.no { color: #b42318; font-weight: 600; }
.instance, .refs { font-size: 0.8em; opacity: 0.8; }
a { color: #0b62c4; }
.nightMode .ok, .night_mode .ok { color: #56d364; }
.nightMode .no, .night_mode .no { color: #ff7b72; }
.nightMode a, .night_mode a { color: #79b8ff; }
"""

_CARD_FRONT = """\
<div class="crumb">{{Objectives}} &middot; {{Topic}}</div>
<h1 class="title">{{Title}}</h1>
"""
_CARD_BACK = """\
{{FrontSide}}
<hr id="answer">
<div class="body">{{Body}}</div>
{{#References}}<div class="section refs"><div class="section-title">Read more</div>{{References}}</div>{{/References}}
"""
_QUESTION_FRONT = """\
<div class="crumb">{{Objective}}</div>
<div class="stem">{{Question}}</div>
{{#Choices}}<div class="choices">{{Choices}}</div>{{/Choices}}
"""
_QUESTION_BACK = """\
{{FrontSide}}
<hr id="answer">
<div class="answer">{{Answer}}</div>
<div class="section explanation">{{Explanation}}</div>
{{#Why}}<div class="section why">{{Why}}</div>{{/Why}}
{{#Worked}}<div class="section worked"><div class="section-title">Worked solution</div>{{Worked}}</div>{{/Worked}}
{{#Instance}}<div class="section instance">{{Instance}}</div>{{/Instance}}
{{#References}}<div class="section refs"><div class="section-title">References</div>{{References}}</div>{{/References}}
"""


class AnkiExportError(Exception):
    """A question could not be exported; the message starts with its location."""


@dataclass(frozen=True)
class ExportResult:
    data: bytes
    cards: int
    questions: int
    decks: int
    skipped: tuple[str, ...] = ()
    changed: int = 0  # notes new or different from the earlier export replaced (all, without one)


# ---------------------------------------------------------------------------------------------------- ids


def note_guid(item_id: str) -> str:
    """The note's GUID: from the item's id only, so editing its text updates the note in Anki."""
    import genanki

    return genanki.guid_for(GUID_NAMESPACE, item_id)


def deck_id(name: str) -> int:
    """A deck id in genanki's range derived from the deck's full name (Anki matches decks by name anyway)."""
    digest = hashlib.sha256(f"{GUID_NAMESPACE}-deck:{name}".encode()).digest()
    return ID_LOW + int.from_bytes(digest[:8], "big") % (ID_HIGH - ID_LOW)


def objective_label(objective_id: str, width: int) -> str:
    """``2.1`` as ``2.01`` when its domain has two-digit objectives, so Anki's text sort follows the blueprint."""
    major, _, minor = objective_id.partition(".")
    return f"{major}.{minor.zfill(width)}" if minor.isdigit() else objective_id


def _tag(*parts: str) -> str:
    # Anki splits tags on spaces and uses "::" for hierarchy; keep every tag one word under the exam's root.
    return "::".join(re.sub(r"\s+", "_", p.strip()) for p in parts if p.strip())


# ---------------------------------------------------------------------------------------------------- HTML


@lru_cache(maxsize=1)
def _markdown():
    from markdown_it import MarkdownIt

    # Raw HTML off: authors write Markdown, and a literal "<b>" in a stem is text about HTML, not markup.
    return MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])


def md_block(text: str) -> str:
    return _markdown().render(text).strip()


def md_inline(text: str) -> str:
    return _markdown().renderInline(text.strip())


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def _references_html(refs: Iterable[tuple[str, str]]) -> str:
    items = [f'<li><a href="{esc(url)}">{esc(title)}</a></li>' for title, url in refs]
    return f"<ul>{''.join(items)}</ul>" if items else ""


def _section(title: str, body: str) -> str:
    return f'<div class="section-title">{esc(title)}</div>{body}'


# ---------------------------------------------------------------------------------------------------- models


def card_model() -> genanki.Model:
    import genanki

    return genanki.Model(
        CARD_MODEL_ID,
        "study NCA-AIIO topic card",
        fields=[{"name": f} for f in CARD_FIELDS],
        templates=[{"name": "Read", "qfmt": _CARD_FRONT, "afmt": _CARD_BACK}],
        css=CSS,
    )


def question_model() -> genanki.Model:
    import genanki

    return genanki.Model(
        QUESTION_MODEL_ID,
        "study NCA-AIIO question",
        fields=[{"name": f} for f in QUESTION_FIELDS],
        templates=[{"name": "Answer", "qfmt": _QUESTION_FRONT, "afmt": _QUESTION_BACK}],
        css=CSS,
    )


# ---------------------------------------------------------------------------------------------------- notes


def _refs(refs: Sequence[Reference]) -> list[tuple[str, str]]:
    return [(r.title, r.url) for r in refs]


def card_fields(card: Card, topic: Topic) -> list[str]:
    return [
        md_inline(card.title),
        md_block(card.body),
        esc(topic.meta.title),
        esc(" · ".join(card.objectives)),
        _references_html(_refs(topic.meta.references)),
        esc(card.id),
    ]


def card_tags(card: Card, topic: Topic, root: str) -> list[str]:
    tags = [_tag(root, "kind", "card"), _tag(root, "topic", topic.id)]
    tags += [_tag(root, "objective", o) for o in card.objectives]
    tags += sorted({_tag(root, "domain", o.split(".")[0]) for o in card.objectives})
    if topic.meta.volatile:
        tags.append(_tag(root, "volatile"))
    return tags


_CHOOSE_RE = re.compile(r"\bchoose\s+(?:\w+)", re.I)
_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


def _choices_html(inst: Instance) -> str:
    rows = [
        f'<div class="choice"><span class="label">{label}</span><span class="text">{md_inline(o.text)}</span></div>'
        for label, o in zip(inst.labels, inst.options)
    ]
    return "".join(rows)


def _tolerance_text(tolerance: str) -> str:
    text = tolerance.strip()
    return f"±{text}" if text.endswith("%") else f"± {text}"


def _why_html(inst: Instance) -> str:
    if inst.type in ("single", "multi"):
        items = []
        for label, o in zip(inst.labels, inst.options):
            mark = '<span class="ok">✓</span>' if o.correct else '<span class="no">✗</span>'
            # The choices are on the front just above, so the label is enough to point at one.
            items.append(f"<li>{mark} <b>{label}</b> {md_inline(o.why)}</li>")
        return _section("Why each choice", f"<ul>{''.join(items)}</ul>")
    if inst.type == "numeric" and inst.numeric is not None and inst.numeric.distractors:
        from study.quiz.instance import format_value

        key = inst.numeric
        items = [
            f'<li><span class="no">✗</span> <b>{esc(format_value(v, key.unit, key.digits))}</b>: {md_inline(why)}</li>'
            for v, why in key.distractors
        ]
        return _section("Typical mistakes", f"<ul>{''.join(items)}</ul>")
    return ""


def _answer_html(inst: Instance) -> str:
    if inst.type == "numeric":
        assert inst.numeric is not None
        return f"{esc(inst.numeric.display)} <span class=\"prompt\">({esc(_tolerance_text(inst.numeric.tolerance))})</span>"
    if inst.type == "true_false":
        return "True" if inst.options[0].correct else "False"
    parts = [f"{label}) {md_inline(o.text)}" for label, o in zip(inst.labels, inst.options) if o.correct]
    return "<br>".join(parts)


def _prompt(question: Question, inst: Instance) -> str:
    if inst.type == "true_false":
        return "True or false?"
    if inst.type == "multi" and not _CHOOSE_RE.search(question.stem):
        return f"Choose {_NUMBER_WORDS.get(inst.choose, str(inst.choose))}."
    return ""


def _instance_note(question: Question, inst: Instance) -> str:
    if not question.is_templated:
        return ""
    drawn = ", ".join(f"{k} = {v}" for k, v in sorted(inst.params.items()))
    return (
        "These numbers are one instance of a templated question "
        f"({esc(drawn)}); <code>study quiz</code> draws new ones each time."
    )


def question_instance(question: Question) -> Instance:
    """The one draw Anki shows: a fixed seed, so re-exports keep the same numbers and the same choice order."""
    from study.quiz.instance import InstanceError, instantiate

    try:
        return instantiate(question, INSTANCE_SEED)
    except InstanceError as exc:
        where = f"{question.source}: " if question.source else ""
        raise AnkiExportError(f"{where}{exc}") from exc


def question_fields(question: Question, blueprint_title: str) -> list[str]:
    inst = question_instance(question)
    stem = md_block(inst.stem)
    prompt = _prompt(question, inst)
    if prompt:
        stem += f'\n<p class="prompt">{esc(prompt)}</p>'
    worked = ""
    if inst.derivation:
        worked = "<ol>" + "".join(f"<li>{esc(step)}</li>" for step in inst.derivation) + "</ol>"
    return [
        stem,
        _choices_html(inst) if inst.type in ("single", "multi") else "",
        _answer_html(inst),
        md_block(inst.explanation),
        _why_html(inst),
        worked,
        _instance_note(question, inst),
        _references_html(inst.references),
        esc(f"{question.objective} {blueprint_title}"),
        esc(question.id),
    ]


def question_tags(question: Question, root: str) -> list[str]:
    tags = [
        _tag(root, "kind", "question"),
        _tag(root, "type", question.type),
        _tag(root, "objective", question.objective),
        _tag(root, "domain", question.domain),
        _tag(root, "difficulty", str(question.difficulty)),
    ]
    if question.topic:
        tags.append(_tag(root, "topic", question.topic))
    if question.is_templated:
        tags.append(_tag(root, "templated"))
    if question.volatile:
        tags.append(_tag(root, "volatile"))
    tags += [_tag(root, "tag", t) for t in question.tags]
    return list(dict.fromkeys(tags))


# ---------------------------------------------------------------------------------------------------- package


def build_package(bank: Bank) -> tuple[genanki.Package, int, int, tuple[str, ...]]:
    """Decks ``ROOT::<domain>::<objective>`` holding that objective's topic cards, then its questions.

    One deck per objective, cards before questions, because Anki's deck is what a learner picks to study
    and the blueprint is how the exam is shaped; the note type and the ``kind::`` tags separate reading
    from testing. A topic that serves two objectives files its cards under its first one and tags both.
    New-card order (``due``) follows the blueprint, cards first, questions from recall to scenario.
    """
    import genanki

    bp = bank.blueprint
    root = bp.exam.code
    cmodel, qmodel = card_model(), question_model()
    decks: dict[str, genanki.Deck] = {}

    def deck(name: str, description: str) -> genanki.Deck:
        if name not in decks:
            decks[name] = genanki.Deck(deck_id(name), name, description=description)
        return decks[name]

    deck(root, f"<p>{esc(bp.exam.name)}: topic cards and practice questions exported by <code>study</code>."
         " Importing a newer export updates these notes and keeps your reviews; edits made in Anki are"
         " overwritten by the next import.</p>")
    objective_deck: dict[str, genanki.Deck] = {}
    for dom in bp.domains:
        dom_name = f"{root}::{dom.id} {dom.name}"
        deck(dom_name, f"<p>{esc(dom.name)}: {dom.weight}% of the exam.</p>")
        width = max(len(o.id.partition(".")[2]) for o in dom.objectives)
        for obj in dom.objectives:
            label = objective_label(obj.id, width)
            objective_deck[obj.id] = deck(f"{dom_name}::{label} {obj.title}", f"<p>{esc(obj.id)} {esc(obj.title)}</p>")

    due = itertools.count()
    n_cards = n_questions = 0
    skipped: list[str] = []
    for obj_id, obj_deck in objective_deck.items():
        for topic in bank.topics:
            if topic.meta.objectives[0] != obj_id:
                continue
            for card in topic.cards:
                obj_deck.add_note(genanki.Note(
                    model=cmodel, fields=card_fields(card, topic), tags=card_tags(card, topic, root),
                    guid=note_guid(card.id), due=next(due),
                ))
                n_cards += 1
        title = bp.objective(obj_id).title
        for q in sorted((q for q in bank.questions if q.objective == obj_id), key=lambda q: q.difficulty):
            try:
                fields = question_fields(q, title)
            except AnkiExportError as exc:
                skipped.append(str(exc))
                continue
            obj_deck.add_note(genanki.Note(
                model=qmodel, fields=fields, tags=question_tags(q, root), guid=note_guid(q.id), due=next(due),
            ))
            n_questions += 1
    package = genanki.Package(list(decks.values()))
    return package, n_cards, n_questions, tuple(skipped)


NoteKey = tuple[int, str, str]  # note type id, tags, fields: what Anki would overwrite


# The export about to be replaced is read only for its notes' times: ours is a few MB, so anything larger
# (a 0.5 MB zip bomb inflating to 500 MB once cost 1.07 GB) is simply not consulted.
MAX_EARLIER_BYTES = 64 * 1024 * 1024


def earlier_note_times(data: bytes | None) -> dict[str, tuple[int, NoteKey]]:
    """``guid -> (mod, key)`` of the notes in an earlier ``.apkg``; empty when it is not one we can read.

    A damaged or foreign file only costs the "unchanged" bookkeeping: every note is then stamped as new.
    """
    if not data:
        return {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf, tempfile.TemporaryDirectory(prefix="study-anki-") as tmp:
            info = zf.getinfo("collection.anki2")
            if info.file_size > MAX_EARLIER_BYTES:
                return {}
            db_path = Path(tmp) / "earlier.anki2"
            # Streamed to disk, never inflated in memory; zipfile stops at the declared size checked above,
            # so a zip bomb at the target costs at most that much.
            with zf.open(info) as src, open(db_path, "wb") as dst:
                shutil.copyfileobj(src, dst, 1024 * 1024)
            conn = sqlite3.connect(db_path)
            try:
                rows = conn.execute("SELECT guid, mod, mid, tags, flds FROM notes").fetchall()
            finally:
                conn.close()
    except (zipfile.BadZipFile, KeyError, sqlite3.Error, OSError, ValueError, RuntimeError):
        return {}
    return {guid: (int(mod), (int(mid), str(tags), str(flds))) for guid, mod, mid, tags, flds in rows}


def _keep_unchanged_times(conn: sqlite3.Connection, earlier: dict[str, tuple[int, NoteKey]]) -> int:
    """Give each note identical to its earlier export that export's ``mod``; returns how many changed or are new."""
    changed = 0
    for note_id, guid, mid, tags, flds in conn.execute("SELECT id, guid, mid, tags, flds FROM notes").fetchall():
        before = earlier.get(guid)
        if before is not None and before[1] == (int(mid), str(tags), str(flds)):
            conn.execute("UPDATE notes SET mod = ? WHERE id = ?", (before[0], note_id))
        else:
            changed += 1
    return changed


def package_bytes(
    package: genanki.Package, timestamp: float, earlier: dict[str, tuple[int, NoteKey]] | None = None
) -> tuple[bytes, int]:
    """The ``.apkg`` as bytes and how many notes differ from ``earlier`` (all of them when there is none).

    Identical for identical input, timestamp and earlier export (fixed zip dates, no temp names).
    """
    with tempfile.TemporaryDirectory(prefix="study-anki-") as tmp:
        db_path = Path(tmp) / "collection.anki2"
        conn = sqlite3.connect(db_path)
        try:
            # genanki's own write_to_file does exactly this, but zips with the temp file's mtime.
            package.write_to_db(conn.cursor(), timestamp, itertools.count(int(timestamp * 1000)))
            changed = _keep_unchanged_times(conn, earlier or {})
            conn.commit()
        finally:
            conn.close()
        collection = db_path.read_bytes()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, payload in (("collection.anki2", collection), ("media", b"{}")):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, payload)
    return buf.getvalue(), changed


def export_bank(bank: Bank, timestamp: float, earlier: bytes | None = None) -> ExportResult:
    """The package for ``bank``; ``earlier`` is the export it replaces, whose unchanged notes keep their time."""
    package, n_cards, n_questions, skipped = build_package(bank)
    data, changed = package_bytes(package, timestamp, earlier_note_times(earlier))
    return ExportResult(
        data=data,
        cards=n_cards,
        questions=n_questions,
        decks=len(package.decks),
        skipped=skipped,
        changed=changed,
    )


def export_timestamp() -> float:
    """Now, unless ``SOURCE_DATE_EPOCH`` asks for a reproducible build.

    Anki only overwrites a note when the imported one is newer, so a real export must carry the real time.
    """
    fixed = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if fixed.isdigit():
        return float(fixed)
    return time.time()


# ---------------------------------------------------------------------------------------------------- command


def _read_earlier(path: Path) -> bytes | None:
    """The export about to be replaced, if it is a plain file of sane size; it only informs note times."""
    try:
        if path.is_file() and path.stat().st_size <= MAX_EARLIER_BYTES:
            return path.read_bytes()
    except OSError:
        pass
    return None


def export_command(args: argparse.Namespace) -> int:
    target = getattr(args, "file", None)
    if not target or target == "-":
        print("study: error: anki needs a file name, for example: study export --format anki nca-aiio.apkg",
              file=sys.stderr)
        return 2
    if not str(target).lower().endswith(".apkg"):
        # Anki only opens .apkg packages, and refusing also protects a question file named by mistake.
        print(f"study: error: an Anki package needs the .apkg extension: did you mean {target}.apkg?",
              file=sys.stderr)
        return 2

    from study.bank.from_options import bank_for
    from study.interop.output import write_atomic

    bank = bank_for(args)
    from study.interop.output import report_bank_problems

    broken = report_bank_problems(bank)
    earlier = _read_earlier(Path(target))
    result = export_bank(bank, export_timestamp(), earlier)
    for message in result.skipped:
        print(f"study: error: {message} (question left out of the deck)", file=sys.stderr)
    if not write_atomic(target, result.data):
        return 1
    since = f" ({result.changed} new or changed since the export it replaced)" if earlier else ""
    print(f"wrote {result.cards} topic cards and {result.questions} questions in {result.decks} decks to {target}"
          f"{since}; in Anki use File > Import (importing a newer export updates the notes and keeps your reviews)",
          file=sys.stderr)
    return 1 if result.skipped or broken else 0
