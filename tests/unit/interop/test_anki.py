"""The Anki export: a real .apkg (zip + SQLite collection) whose notes keep their GUIDs across edits.

Expected texts come from the YAML and Markdown written here (or from the bank's source files), never
from the exporter's own output.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import sqlite3
import zipfile
from pathlib import Path

import pytest
import yaml

from study.bank import clear_cache, load_bank
from study.interop import anki

ROOT = Path(__file__).resolve().parents[3]
ID_LOW, ID_HIGH = 2**30, 2**31
SEP = "\x1f"

TOPIC_MD = """\
---
id: demo-topic
title: Demo & <Topic>
objectives: ["2.1", "1.2"]
references:
  - title: Demo reference
    url: https://example.com/demo
verified: 2026-11-30
volatile: true
---
Intro text that is not a card.

## Memory per parameter {#bytes}
? How many bytes does FP16 store per parameter?
FP16 stores **two bytes** per parameter.

| dtype | bytes |
|---|---|
| FP16 | 2 |

## Second card
? What does plain text with brackets look like?
Plain text with <angle> brackets & an ampersand.
"""

QUESTIONS_YAML = """\
questions:
  - id: demo-single-01
    objective: "2.1"
    topic: demo-topic
    difficulty: 2
    type: single
    tags: [scenario]
    stem: Which tag makes text bold in HTML, <b> or <i>? Answer for R&D.
    choices:
      - text: The b tag
        correct: true
        why: It is the bold element.
      - text: The i tag
        why: That one is italic.
      - text: The p tag
        why: That one is a paragraph.
    explanation: Bold is b, italic is i.
    references:
      - {title: MDN b element, url: "https://developer.mozilla.org/en-US/docs/Web/HTML/Element/b"}
    verified: 2026-11-30
    volatile: true

  - id: demo-multi-02
    objective: "1.2"
    difficulty: 1
    type: multi
    choose: 2
    stem: Which are numbers?
    choices:
      - {text: Seven, correct: true, why: "Seven counts things."}
      - {text: Eleven, correct: true, why: "Eleven counts things too."}
      - {text: Purple, why: "Purple is a colour."}
      - {text: Tuesday, why: "Tuesday is a day."}
    explanation: Numbers count.
    references:
      - {title: Numbers, url: "https://example.com/numbers"}
    verified: 2026-11-30

  - id: demo-tf-03
    objective: "1.2"
    difficulty: 1
    type: true_false
    stem: Inference stores optimizer state.
    answer: false
    explanation: Only training keeps optimizer state.
    references:
      - {title: Training vs inference, url: "https://example.com/tvi"}
    verified: 2026-11-30

  - id: demo-numeric-04
    objective: "2.1"
    difficulty: 1
    type: numeric
    stem: How much memory do the weights of a 70-billion-parameter model take in FP16?
    answer:
      value: 140
      calc: "weights_memory(params=70e9, dtype='fp16')"
      unit: GB
      tolerance: 2%
    explanation: Two bytes per parameter in FP16.
    references:
      - {title: "Transformer Math 101", url: "https://blog.eleuther.ai/transformer-math/"}
    verified: 2026-11-30

  - id: demo-templated-05
    objective: "2.1"
    difficulty: 2
    type: numeric
    tags: [calculator]
    params:
      n: [7, 13, 70]
    stem: A model has {n} billion parameters. How much memory do its FP16 weights take?
    answer:
      calc: "weights_memory(params=n * 1e9, dtype='fp16')"
      unit: GB
      tolerance: 2%
    distractors:
      - calc: "weights_memory(params=n * 1e9, dtype='fp32')"
        why: FP32 was used; FP16 is two bytes.
    explanation: FP16 is two bytes per parameter.
    references:
      - {title: "Transformer Math 101", url: "https://blog.eleuther.ai/transformer-math/"}
    verified: 2026-11-30
"""


# -------------------------------------------------------------------------------------------------- helpers


def make_bank_dir(tmp: Path, questions: str = QUESTIONS_YAML) -> tuple[Path, Path]:
    content = tmp / "content"
    (content / "topics").mkdir(parents=True)
    shutil.copy(ROOT / "content" / "blueprint.yaml", content / "blueprint.yaml")
    (content / "topics" / "demo-topic.md").write_text(TOPIC_MD, encoding="utf-8")
    qdir = tmp / "questions"
    qdir.mkdir()
    (qdir / "demo.yaml").write_text(questions, encoding="utf-8")
    return qdir, content


def load(qdir: Path, content: Path):
    clear_cache()
    bank = load_bank(questions=[qdir], content=content)
    assert not bank.errors, bank.errors
    return bank


class Apkg:
    """An exported package opened the way Anki would: unzip, then read the SQLite collection."""

    def __init__(self, data: bytes, tmp: Path) -> None:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            self.names = zf.namelist()
            self.media = zf.read("media")
            db = tmp / f"collection-{id(self)}.anki2"
            db.write_bytes(zf.read("collection.anki2"))
        self.conn = sqlite3.connect(db)
        models, decks = self.conn.execute("SELECT models, decks FROM col").fetchone()
        self.models = {int(k): v for k, v in json.loads(models).items()}
        self.decks = {int(k): v for k, v in json.loads(decks).items()}

    def notes(self) -> dict[str, dict]:
        """Notes by the value of their ``Id`` field (the last one in both note types)."""
        out = {}
        for guid, mid, mod, tags, flds in self.conn.execute("SELECT guid, mid, mod, tags, flds FROM notes"):
            names = [f["name"] for f in sorted(self.models[mid]["flds"], key=lambda f: f["ord"])]
            values = flds.split(SEP)
            assert len(values) == len(names)
            fields = dict(zip(names, values))
            out[fields["Id"]] = {"guid": guid, "mid": mid, "mod": mod, "tags": tags.split(), "fields": fields}
        return out

    def deck_of(self, item_id: str) -> str:
        (did,) = self.conn.execute(
            "SELECT c.did FROM cards c JOIN notes n ON n.id = c.nid WHERE n.flds LIKE ?", (f"%{SEP}{item_id}",)
        ).fetchone()
        return self.decks[did]["name"]


@pytest.fixture
def demo(tmp_path: Path):
    qdir, content = make_bank_dir(tmp_path)
    return load(qdir, content), qdir, content


def export(bank, tmp: Path, timestamp: float = 1_800_000_000.0) -> Apkg:
    return Apkg(anki.export_bank(bank, timestamp).data, tmp)


def text_of(html: str) -> str:
    """What a reader sees: tags dropped, entities decoded."""
    import html as html_mod

    return html_mod.unescape(re.sub(r"<[^>]+>", "", html))


# -------------------------------------------------------------------------------------------------- package


def test_package_is_a_zip_with_a_collection_of_all_notes_and_cards(demo, tmp_path):
    bank, _, _ = demo
    pkg = export(bank, tmp_path)
    assert "collection.anki2" in pkg.names and "media" in pkg.names
    assert json.loads(pkg.media) == {}
    # 2 sections in the topic file (the intro is not a card) + 5 questions, one card each.
    assert pkg.conn.execute("SELECT count(*) FROM notes").fetchone() == (7,)
    assert pkg.conn.execute("SELECT count(*) FROM cards").fetchone() == (7,)
    assert pkg.conn.execute("SELECT count(*) FROM cards WHERE nid NOT IN (SELECT id FROM notes)").fetchone() == (0,)
    assert set(pkg.notes()) == {
        "demo-topic/bytes", "demo-topic/second-card",
        "demo-single-01", "demo-multi-02", "demo-tf-03", "demo-numeric-04", "demo-templated-05",
    }


def test_models_have_fixed_ids_in_range_and_templates_that_use_their_fields(demo, tmp_path):
    pkg = export(demo[0], tmp_path)
    assert set(pkg.models) == {anki.CARD_MODEL_ID, anki.QUESTION_MODEL_ID}
    for mid, model in pkg.models.items():
        assert ID_LOW <= mid < ID_HIGH
        names = [f["name"] for f in model["flds"]]
        assert len(set(names)) == len(names)
        (tmpl,) = model["tmpls"]
        used = set(re.findall(r"\{\{[#/^]?([^}]+)\}\}", tmpl["qfmt"] + tmpl["afmt"])) - {"FrontSide"}
        assert used <= set(names), used - set(names)
        assert "{{FrontSide}}" in tmpl["afmt"]
        assert ".nightMode" in model["css"]
    card_model = pkg.models[anki.CARD_MODEL_ID]
    assert "{{Title}}" in card_model["tmpls"][0]["qfmt"] and "{{Body}}" in card_model["tmpls"][0]["afmt"]
    q_model = pkg.models[anki.QUESTION_MODEL_ID]
    assert "{{Question}}" in q_model["tmpls"][0]["qfmt"] and "{{Answer}}" not in q_model["tmpls"][0]["qfmt"]
    assert "{{Answer}}" in q_model["tmpls"][0]["afmt"]


def test_field_and_template_names_are_frozen():
    # Anki ignores every existing note when a note type's field or template names change: this is the contract.
    assert anki.CARD_FIELDS == ("Title", "Body", "Topic", "Objectives", "References", "Id")
    assert anki.QUESTION_FIELDS == (
        "Question", "Choices", "Answer", "Explanation", "Why", "Worked", "Instance", "References", "Objective", "Id",
    )
    assert [t["name"] for t in anki.card_model().templates] == ["Read"]
    assert [t["name"] for t in anki.question_model().templates] == ["Answer"]


def test_decks_follow_the_blueprint_with_ids_in_range(demo, tmp_path):
    pkg = export(demo[0], tmp_path)
    ours = {did: d["name"] for did, d in pkg.decks.items() if d["name"] != "Default"}
    for did in ours:
        assert ID_LOW <= did < ID_HIGH
    names = set(ours.values())
    assert "NCA-AIIO" in names
    assert "NCA-AIIO::1 Essential AI Knowledge" in names
    assert "NCA-AIIO::2 AI Infrastructure::2.01 Identify hardware requirements for specific AI training task use cases" in names
    # Every deck's parent is in the package too, so the tree never depends on what Anki already has.
    for name in names:
        if "::" in name:
            assert name.rsplit("::", 1)[0] in names
    # Three domains and their 8 + 10 + 4 objectives, plus the root.
    assert len(names) == 1 + 3 + 22
    assert len(set(ours)) == len(ours)
    # A topic serving 2.1 and 1.2 files its cards under its first objective; questions under their own.
    assert anki.deck_id("NCA-AIIO") == next(d for d, n in ours.items() if n == "NCA-AIIO")
    assert pkg.deck_of("demo-topic/bytes").endswith("::2.01 Identify hardware requirements for specific AI training task use cases")
    assert pkg.deck_of("demo-multi-02").startswith("NCA-AIIO::1 Essential AI Knowledge::1.2 ")


# -------------------------------------------------------------------------------------------------- fields


def test_topic_card_fields_render_markdown_and_escape_text(demo, tmp_path):
    notes = export(demo[0], tmp_path).notes()
    card = notes["demo-topic/bytes"]
    assert card["mid"] == anki.CARD_MODEL_ID
    assert text_of(card["fields"]["Title"]) == "Memory per parameter"
    body = card["fields"]["Body"]
    assert "<strong>two bytes</strong>" in body
    assert "<table>" in body and "<td>FP16</td>" in body
    assert "Intro text" not in body
    assert text_of(card["fields"]["Topic"]) == "Demo & <Topic>"
    assert "<Topic>" not in card["fields"]["Topic"]
    assert '<a href="https://example.com/demo">Demo reference</a>' in card["fields"]["References"]
    second = notes["demo-topic/second-card"]["fields"]["Body"]
    assert "<angle>" not in second and "&lt;angle&gt;" in second
    assert text_of(second) == "Plain text with <angle> brackets & an ampersand."


def test_single_choice_question_is_escaped_and_explains_every_choice(demo, tmp_path):
    note = export(demo[0], tmp_path).notes()["demo-single-01"]
    f = note["fields"]
    assert note["mid"] == anki.QUESTION_MODEL_ID
    # The stem talks about tags: they must show literally, not turn the text bold.
    assert "<b>" not in f["Question"] and "<i>" not in f["Question"]
    assert text_of(f["Question"]) == "Which tag makes text bold in HTML, <b> or <i>? Answer for R&D."
    choices = re.findall(r'<span class="label">([A-Z])</span><span class="text">(.*?)</span>', f["Choices"])
    assert sorted(t for _, t in choices) == ["The b tag", "The i tag", "The p tag"]
    right = next(label for label, t in choices if t == "The b tag")
    assert text_of(f["Answer"]) == f"{right}) The b tag"
    why = text_of(f["Why"])
    for text in ("It is the bold element.", "That one is italic.", "That one is a paragraph."):
        assert text in why
    assert text_of(f["Explanation"]) == "Bold is b, italic is i."
    assert text_of(f["Objective"]).startswith("2.1 Identify hardware requirements")
    assert f["Worked"] == "" and f["Instance"] == ""


def test_multi_question_names_how_many_to_choose_and_both_answers(demo, tmp_path):
    f = export(demo[0], tmp_path).notes()["demo-multi-02"]["fields"]
    assert "Choose two." in text_of(f["Question"])
    answer = text_of(f["Answer"])
    assert "Seven" in answer and "Eleven" in answer
    assert "Purple" not in answer and "Tuesday" not in answer


def test_true_false_question(demo, tmp_path):
    f = export(demo[0], tmp_path).notes()["demo-tf-03"]["fields"]
    assert "True or false?" in text_of(f["Question"])
    assert text_of(f["Answer"]) == "False"
    assert f["Choices"] == ""


def test_numeric_question_shows_value_unit_and_tolerance(demo, tmp_path):
    f = export(demo[0], tmp_path).notes()["demo-numeric-04"]["fields"]
    answer = text_of(f["Answer"])
    assert "140 GB" in answer and "2%" in answer
    assert f["Instance"] == ""  # a fixed question needs no "one instance" note


def test_templated_question_is_one_drawn_instance_with_its_derivation(demo, tmp_path):
    f = export(demo[0], tmp_path).notes()["demo-templated-05"]["fields"]
    stem = text_of(f["Question"])
    assert "{n}" not in stem
    n = int(re.search(r"A model has (\d+) billion parameters", stem).group(1))
    assert n in (7, 13, 70)
    assert f"{2 * n} GB" in text_of(f["Answer"])  # FP16: two bytes per parameter
    assert f"{4 * n} GB" in text_of(f["Why"])  # the FP32 distractor, four bytes per parameter
    assert "FP32 was used" in text_of(f["Why"])
    assert "<li>" in f["Worked"]
    assert "one instance" in text_of(f["Instance"]) and f"n = {n}" in text_of(f["Instance"])


def test_tags_carry_objective_domain_difficulty_type_and_volatile(demo, tmp_path):
    notes = export(demo[0], tmp_path).notes()
    single = set(notes["demo-single-01"]["tags"])
    assert {
        "NCA-AIIO::kind::question", "NCA-AIIO::type::single", "NCA-AIIO::objective::2.1",
        "NCA-AIIO::domain::2", "NCA-AIIO::difficulty::2", "NCA-AIIO::volatile", "NCA-AIIO::tag::scenario",
        "NCA-AIIO::topic::demo-topic",
    } <= single
    assert "NCA-AIIO::volatile" not in notes["demo-tf-03"]["tags"]
    assert "NCA-AIIO::templated" in notes["demo-templated-05"]["tags"]
    card = set(notes["demo-topic/bytes"]["tags"])
    assert {"NCA-AIIO::kind::card", "NCA-AIIO::objective::2.1", "NCA-AIIO::objective::1.2",
            "NCA-AIIO::domain::1", "NCA-AIIO::domain::2", "NCA-AIIO::volatile"} <= card


# -------------------------------------------------------------------------------------------------- identity


def test_two_exports_give_the_same_guids_and_a_newer_one_is_newer(demo, tmp_path):
    bank = demo[0]
    first = export(bank, tmp_path, timestamp=1_800_000_000.0).notes()
    second = export(bank, tmp_path, timestamp=1_800_000_100.0).notes()
    assert {k: v["guid"] for k, v in first.items()} == {k: v["guid"] for k, v in second.items()}
    assert len({v["guid"] for v in first.values()}) == len(first)
    # Anki only overwrites an existing note with a newer one.
    assert all(second[k]["mod"] > first[k]["mod"] for k in first)


def test_decks_sort_as_text_in_blueprint_order(demo, tmp_path):
    # Anki lists decks by name as text, where "2.10 ..." falls between "2.1 ..." and "2.2 ...".
    pkg = export(demo[0], tmp_path)
    blueprint = yaml.safe_load((ROOT / "content" / "blueprint.yaml").read_text(encoding="utf-8"))
    for domain in blueprint["domains"]:
        prefix = f"NCA-AIIO::{domain['id']} "
        decks = [n for n in (d["name"] for d in pkg.decks.values()) if n.startswith(prefix) and n.count("::") == 2]
        in_text_order = [n.rsplit("::", 1)[1].split(" ", 1)[1] for n in sorted(decks)]
        assert in_text_order == [o["title"] for o in domain["objectives"]]
    assert anki.objective_label("2.1", 2) == "2.01" and anki.objective_label("2.10", 2) == "2.10"
    assert anki.objective_label("1.3", 1) == "1.3"


def _rewritten(data: bytes, tmp: Path, sql: str) -> bytes:
    """``data`` with ``sql`` run on its collection: an earlier export as Anki might have left it."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        db = tmp / "rewrite.anki2"
        db.write_bytes(zf.read("collection.anki2"))
    conn = sqlite3.connect(db)
    conn.execute(sql)
    conn.commit()
    conn.close()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("collection.anki2", db.read_bytes())
        zf.writestr("media", "{}")
    db.unlink()
    return buf.getvalue()


def test_a_re_export_leaves_unchanged_notes_unchanged(tmp_path):
    # Anki overwrites an existing note only when the incoming one has a newer mod time; a note whose
    # content did not change must keep the earlier export's time, or every import reports it "updated".
    qdir, content = make_bank_dir(tmp_path)
    first = anki.export_bank(load(qdir, content), 1_800_000_000.0)
    before = Apkg(first.data, tmp_path).notes()
    (qdir / "demo.yaml").write_text(
        QUESTIONS_YAML.replace("Inference stores optimizer state.", "Inference keeps Adam moments."), encoding="utf-8"
    )
    second = anki.export_bank(load(qdir, content), 1_800_000_500.0, earlier=first.data)
    after = Apkg(second.data, tmp_path).notes()
    assert second.changed == 1
    assert after["demo-tf-03"]["mod"] == 1_800_000_500
    assert {k: v["mod"] for k, v in after.items() if k != "demo-tf-03"} == {
        k: v["mod"] for k, v in before.items() if k != "demo-tf-03"
    }
    assert all(v["mod"] == 1_800_000_000 for k, v in before.items())

    # A note retagged in the earlier file differs from ours, so it is stamped new; a new note is new too.
    retagged = _rewritten(first.data, tmp_path, "UPDATE notes SET tags = ' other ' WHERE sfld LIKE '%bold%'")
    third = anki.export_bank(load(qdir, content), 1_800_000_900.0, earlier=retagged)
    assert third.changed == 2
    # Without an earlier export, or with one that is not a package, every note is stamped with the time.
    for earlier in (None, b"not a zip", b"PK\x03\x04 truncated"):
        fresh = anki.export_bank(load(qdir, content), 1_800_001_000.0, earlier=earlier)
        assert fresh.changed == len(after)
        assert {v["mod"] for v in Apkg(fresh.data, tmp_path).notes().values()} == {1_800_001_000}


def test_export_command_reports_what_changed_since_the_file_it_replaces(tmp_path, monkeypatch, capsys):
    qdir, content = make_bank_dir(tmp_path)
    target = tmp_path / "deck.apkg"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    args = _args(str(target), questions=[str(qdir)], content=str(content))
    assert anki.export_command(args) == 0
    assert "changed since" not in capsys.readouterr().err
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000100")
    assert anki.export_command(args) == 0
    assert "(0 new or changed since the export it replaced)" in capsys.readouterr().err
    assert {v["mod"] for v in Apkg(target.read_bytes(), tmp_path).notes().values()} == {1_800_000_000}


def test_same_input_and_time_give_identical_bytes(demo):
    bank = demo[0]
    assert anki.export_bank(bank, 1_800_000_000.0).data == anki.export_bank(bank, 1_800_000_000.0).data


def test_editing_a_question_keeps_its_guid_and_changes_its_field(tmp_path):
    qdir, content = make_bank_dir(tmp_path)
    before = export(load(qdir, content), tmp_path).notes()
    edited = QUESTIONS_YAML.replace("Inference stores optimizer state.", "Inference keeps Adam moments.")
    assert edited != QUESTIONS_YAML
    (qdir / "demo.yaml").write_text(edited, encoding="utf-8")
    after = export(load(qdir, content), tmp_path).notes()
    assert after["demo-tf-03"]["guid"] == before["demo-tf-03"]["guid"]
    assert "Inference keeps Adam moments." in text_of(after["demo-tf-03"]["fields"]["Question"])
    assert "optimizer state" not in text_of(after["demo-tf-03"]["fields"]["Question"])
    assert {k: v["guid"] for k, v in after.items()} == {k: v["guid"] for k, v in before.items()}


def test_deck_ids_are_stable_and_distinct():
    a, b = anki.deck_id("NCA-AIIO::1 X"), anki.deck_id("NCA-AIIO::2 X")
    assert a == anki.deck_id("NCA-AIIO::1 X") and a != b
    assert all(ID_LOW <= d < ID_HIGH for d in (a, b))


# -------------------------------------------------------------------------------------------------- built-in bank


def _source_question_ids() -> dict[str, dict]:
    out = {}
    for path in sorted((ROOT / "questions").rglob("*.yaml")):
        for q in yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]:
            out[q["id"]] = q
    return out


def _source_card_count() -> int:
    count = 0
    for path in (ROOT / "content" / "topics").glob("*.md"):
        if path.name.lower() == "readme.md":
            continue
        in_fence = False
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
            elif not in_fence and line.startswith("## "):
                count += 1
    return count


def test_builtin_bank_exports_every_question_and_card(tmp_path):
    clear_cache()
    bank = load_bank()
    result = anki.export_bank(bank, 1_800_000_000.0)
    assert result.skipped == ()
    pkg = Apkg(result.data, tmp_path)
    notes = pkg.notes()
    source = _source_question_ids()
    question_ids = {k for k, v in notes.items() if v["mid"] == anki.QUESTION_MODEL_ID}
    assert question_ids == set(source)
    assert sum(v["mid"] == anki.CARD_MODEL_ID for v in notes.values()) == _source_card_count()
    assert (result.cards, result.questions) == (_source_card_count(), len(source))

    # A known question, compared with its YAML source.
    q = source["d1-swstack-11"]
    f = notes["d1-swstack-11"]["fields"]
    assert q["stem"].strip() in text_of(f["Question"])
    assert text_of(f["Answer"]) == ("True" if q["answer"] else "False")
    assert " ".join(q["explanation"].split()) == " ".join(text_of(f["Explanation"]).split())
    assert q["references"][0]["url"] in f["References"]

    # A known card, compared with its Markdown source: the MIG profile table.
    mig = (ROOT / "content" / "topics" / "mig.md").read_text(encoding="utf-8")
    assert "## Profiles: reading `3g.40gb` {#profiles}" in mig
    card = notes["mig/profiles"]["fields"]
    assert "<code>3g.40gb</code>" in card["Title"]
    assert "<th>Max per GPU</th>" in card["Body"] and "<td>2g.20gb</td>" in card["Body"]
    assert text_of(card["Topic"]) == "Multi-Instance GPU (MIG)"


# -------------------------------------------------------------------------------------------------- command


def _args(file, **extra):
    import argparse

    return argparse.Namespace(format="anki", file=file, actor=None, db=None, **extra)


@pytest.mark.parametrize("file", [None, "-"])
def test_command_needs_a_file(file, capsys):
    assert anki.export_command(_args(file)) == 2
    err = capsys.readouterr().err
    assert "anki needs a file name" in err and "nca-aiio.apkg" in err


def test_command_refuses_a_name_without_apkg_and_writes_nothing(tmp_path, capsys):
    target = tmp_path / "questions.yaml"
    target.write_text("questions: []\n")
    assert anki.export_command(_args(str(target))) == 2
    assert target.read_text() == "questions: []\n"
    assert "questions.yaml.apkg" in capsys.readouterr().err


def test_command_writes_the_package_and_summarises(demo, tmp_path, capsys):
    _, qdir, content = demo
    target = tmp_path / "deck.apkg"
    assert anki.export_command(_args(str(target), questions=[str(qdir)], content=str(content))) == 0
    err = capsys.readouterr().err
    assert "wrote 2 topic cards and 5 questions" in err and str(target) in err
    assert set(Apkg(target.read_bytes(), tmp_path).notes()) >= {"demo-single-01", "demo-topic/bytes"}
    assert not list(tmp_path.glob(".deck.apkg.tmp"))


def test_command_reports_an_unwritable_target(demo, tmp_path, capsys):
    _, qdir, content = demo
    target = tmp_path / "missing-dir" / "deck.apkg"
    assert anki.export_command(_args(str(target), questions=[str(qdir)], content=str(content))) == 1
    assert "cannot write" in capsys.readouterr().err
    assert not target.exists()


def test_source_date_epoch_fixes_the_timestamp(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert anki.export_timestamp() == 1_700_000_000.0
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert anki.export_timestamp() > 1_700_000_000.0


BROKEN_CALC = QUESTIONS_YAML + """
  - id: demo-broken-06
    objective: "2.1"
    difficulty: 1
    type: numeric
    stem: A question whose calculation cannot run.
    answer:
      calc: "no_such_function(x=1)"
      unit: GB
    explanation: Nothing.
    references:
      - {title: Nothing, url: "https://example.com/nothing"}
    verified: 2026-11-30
"""


def test_a_question_that_cannot_be_computed_is_reported_with_its_location_and_the_rest_is_written(tmp_path, capsys):
    qdir, content = make_bank_dir(tmp_path, BROKEN_CALC)
    clear_cache()
    target = tmp_path / "deck.apkg"
    assert anki.export_command(_args(str(target), questions=[str(qdir)], content=str(content))) == 1
    err = capsys.readouterr().err
    line = BROKEN_CALC.splitlines().index("  - id: demo-broken-06") + 1
    assert re.search(rf"demo\.yaml:{line}:\d+: .*demo-broken-06", err), err
    notes = Apkg(target.read_bytes(), tmp_path).notes()
    assert "demo-broken-06" not in notes and "demo-templated-05" in notes


def test_exporting_never_imports_textual(demo):
    import subprocess
    import sys

    _, qdir, content = demo
    code = (
        "import sys\n"
        "from study.bank import load_bank\n"
        "from study.interop import anki\n"
        f"anki.export_bank(load_bank(questions=[{str(qdir)!r}], content={str(content)!r}), 1.8e9)\n"
        "print('textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
