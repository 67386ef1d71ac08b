"""The progress backup format (``study export --format json``), checked whole before an import writes anything.

Each row is held to the rules the store enforces (its CHECK constraints) and to what its readers rely on:
timestamps a datetime can hold, JSON texts that parse, an FSRS card that loads, a session state the quiz can
resume, settings in the ranges the app offers. So a backup that imports can always be used afterwards, and
one that cannot is refused with one line naming how many problems it has and where the first is.

Optional, from schema 6: ``reports`` (a learner's reports of problems with questions) and an attempt's
``shown_json`` (the question as it was shown).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import TYPE_CHECKING, Annotated, Any, Literal
from collections.abc import Callable

from pydantic import (
    AliasChoices,
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from study.progress.store import MODES, RETENTION_RANGE, parse_iso, utc_iso

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

FORMAT = "study-progress"
FORMAT_VERSION = 1

UTC = dt.timezone.utc
_STORED_FORM = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00")  # what ``utc_iso`` writes
# Wide enough for any real history and its FSRS due dates (at most a century ahead); narrow enough that
# date arithmetic never leaves what a datetime can hold.
EARLIEST = dt.datetime(2000, 1, 1, tzinfo=UTC)
LATEST = dt.datetime(2100, 1, 1, tzinfo=UTC)
MAX_DEPTH = 32  # nesting of free-form JSON values (params, settings): deeper is no export of ours
REPORT_KINDS = ("wrong-key", "unclear", "outdated", "other")


class ImportFormatError(ValueError):
    """The file is not a progress export this version can read; the message says why, in one line."""


def _timestamp(text: str) -> str:
    if _STORED_FORM.fullmatch(text) and "2000" <= text[:4] < "2100":
        return text  # already the store's own form, in range: the usual case, a hundred thousand times
    try:
        at = parse_iso(text)
    except ValueError:
        raise ValueError("not a date and time like 2026-11-30T10:00:00+00:00") from None
    assert at is not None
    if not EARLIEST <= at < LATEST:
        raise ValueError(f"outside {EARLIEST.year}-{LATEST.year - 1}")
    return utc_iso(at)


def _shallow(value: Any) -> Any:
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    if not any(isinstance(child, (dict, list)) for child in children):
        return value  # flat: the usual case
    depth, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        depth = max(depth, level)
        if depth > MAX_DEPTH:
            raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return value


def _json_object_text(text: str) -> str:
    from study.inputs import parse_json

    try:
        value = parse_json(text)
    except (ValueError, RecursionError):
        raise ValueError("not JSON text") from None
    if not isinstance(value, dict):
        raise ValueError("must be a JSON object")
    _shallow(value)
    return text


Text = Annotated[str, Field(min_length=1, max_length=10_000)]
Timestamp = Annotated[str, AfterValidator(_timestamp)]
Seconds = Annotated[float, Field(ge=0, allow_inf_nan=False, le=10**7)]
RatingValue = Annotated[int, Field(ge=1, le=4)]
JsonObjectText = Annotated[str, AfterValidator(_json_object_text)]


class _Row(BaseModel):
    # Strict: "1" is not 1 and 1 is not true; unknown keys (from a later version 1 export) are ignored.
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class AttemptRow(_Row):
    uid: Text
    item_id: Text
    content_hash: Annotated[str, Field(max_length=200)]
    params: Annotated[dict[str, Any], AfterValidator(_shallow)] | None = None
    given: Annotated[str, Field(max_length=10_000)]
    correct: bool
    seconds: Seconds
    mode: Literal[MODES]  # type: ignore[valid-type]
    session_id: Text | None = None
    at: Timestamp
    rating: RatingValue | None = None
    picked: Annotated[list[Annotated[str, Field(max_length=10_000)]], Field(max_length=100)] | None = None
    # The export writes the question as shown under "shown" (an object); "shown_json" (its text) is read too.
    shown_json: JsonObjectText | None = Field(default=None, validation_alias=AliasChoices("shown_json", "shown"))

    @field_validator("shown_json", mode="before")
    @classmethod
    def _shown_as_text(cls, value: Any) -> Any:
        # An exporter may write the shown question as an object rather than as its JSON text.
        if isinstance(value, dict):
            try:
                return json.dumps(_shallow(value), ensure_ascii=False, sort_keys=True)
            except ValueError as exc:
                raise ValueError(str(exc)) from None
        return value


class ReviewRow(_Row):
    uid: Text
    card_id: Text
    content_hash: Annotated[str, Field(max_length=200)]
    rating: RatingValue
    seconds: Seconds
    at: Timestamp


# The validation-context key under which a backup's reader of saved sessions is passed: a callable taking
# ``state_json`` and returning an object with ``started_at`` and ``deadline`` (UTC datetimes, the deadline
# optional), or raising on a state the quiz could not resume (``study.quiz.saved_state.read_saved_session``).
SESSION_READER = "read_saved_session"
SessionReader = Callable[[str], Any]


class SessionRow(_Row):
    id: Text
    kind: Text
    started_at: Timestamp
    updated_at: Timestamp
    deadline: Timestamp | None = None
    state_json: JsonObjectText | None = None
    finished_at: Timestamp | None = None
    report_json: JsonObjectText | None = None

    @model_validator(mode="after")
    def _resumable(self, info: ValidationInfo) -> SessionRow:
        # The quiz is what reads a saved state back (``--resume``), so it decides what is valid; it sits a
        # floor above the store, so whoever checks a backup passes its reader in (see ``SessionReader``).
        read = (info.context or {}).get(SESSION_READER)
        if self.state_json is not None and read is not None:
            try:
                session = read(self.state_json)
            except Exception as exc:  # any failure here is a state that would fail on resume
                raise ValueError(f"state_json is not a session the quiz can resume ({str(exc)[:160]})") from None
            # A start in the future would keep the exam "in progress" for years and lock out new ones.
            if session.started_at > dt.datetime.now(UTC) + dt.timedelta(days=1):
                raise ValueError(f"state_json starts in the future ({session.started_at.isoformat()})")
            if self.finished_at is not None:
                raise ValueError("a finished session has no state to resume (state_json must be null)")
            if self.deadline is not None and (session.deadline is None or
                                              abs(parse_iso(self.deadline) - session.deadline) > dt.timedelta(seconds=1)):
                raise ValueError("deadline is not the deadline of its saved state")
        return self


class ItemRow(_Row):
    item_id: Text
    kind: Literal["card", "question"]
    content_hash: Annotated[str, Field(max_length=200)]
    card: Annotated[dict[str, Any], AfterValidator(_shallow)]
    due: Timestamp | None = None
    last_review: Timestamp | None = None

    @field_validator("card")
    @classmethod
    def _fsrs_card(cls, card: dict[str, Any]) -> dict[str, Any]:
        import fsrs

        _fsrs_ranges(card)
        try:
            loaded = fsrs.Card.from_dict(card)  # type: ignore[arg-type]
            _timestamp(loaded.due.isoformat())
            if loaded.last_review is not None:
                _timestamp(loaded.last_review.isoformat())
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            raise ValueError(f"not an FSRS card ({type(exc).__name__}: {str(exc)[:60]})") from None
        return card


# What the scheduler accepts (fsrs 6): a stability below its minimum is a complex number in its formulas (the
# "'complex' object has no attribute 'clamp'" of issue 19), a difficulty outside 1..10 or a step past the
# learning steps is a card no review could have produced.
MAX_STABILITY = 1e6  # days; the scheduler's longest interval is 36,500


def _fsrs_ranges(card: dict[str, Any]) -> None:
    import fsrs
    from fsrs.scheduler import MAX_DIFFICULTY, MIN_DIFFICULTY, STABILITY_MIN

    def number(key: str) -> float | None:
        value = card.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            raise ValueError(f"not an FSRS card ({key} {_short(value)} is not a number)")
        return float(value)

    state = card.get("state")
    if isinstance(state, bool) or state not in tuple(int(s) for s in fsrs.State):
        raise ValueError(f"not an FSRS card (state {_short(state)} is not 1, 2 or 3)")
    if isinstance(card.get("card_id"), bool) or not isinstance(card.get("card_id"), int) \
            or not 0 <= card["card_id"] < 2**63:
        raise ValueError(f"not an FSRS card (card_id {_short(card.get('card_id'))} is not a whole number)")
    stability, difficulty = number("stability"), number("difficulty")
    if (stability is None) != (difficulty is None) or stability is None and state != fsrs.State.Learning:
        raise ValueError("not an FSRS card (a reviewed card needs both stability and difficulty)")
    if stability is not None and not STABILITY_MIN <= stability <= MAX_STABILITY:
        raise ValueError(f"not an FSRS card (stability {stability:g} is not from {STABILITY_MIN} to {MAX_STABILITY:g})")
    if difficulty is not None and not MIN_DIFFICULTY <= difficulty <= MAX_DIFFICULTY:
        raise ValueError(f"not an FSRS card (difficulty {difficulty:g} is not from {MIN_DIFFICULTY:g} to "
                         f"{MAX_DIFFICULTY:g})")
    from study.progress.schedule import scheduler

    steps = {fsrs.State.Learning: scheduler().learning_steps, fsrs.State.Relearning: scheduler().relearning_steps}
    step = card.get("step")
    if state == fsrs.State.Review:
        if step is not None:
            raise ValueError(f"not an FSRS card (a card in review has no learning step, not {_short(step)})")
    elif isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= len(steps[fsrs.State(state)]):
        raise ValueError(f"not an FSRS card (step {_short(step)} is not one of its learning steps)")


class ReportRow(_Row):
    uid: Text
    item_id: Text
    content_hash: Annotated[str, Field(max_length=200)] = ""
    kind: Literal[REPORT_KINDS]  # type: ignore[valid-type]
    text: Annotated[str, Field(max_length=10_000)] = ""
    context: Annotated[str, Field(max_length=10_000)] = ""
    session_id: Text | None = None
    at: Timestamp


# Where a learner's statements and token go, and what that LRS has acknowledged, is the learner's own
# choice: a backup someone else made must never redirect their sync (issue 19, defect 3). So no ``lrs_*`` key
# is exported, and one in a backup is ignored (the import says so).
NEVER_IN_BACKUP_PREFIX = "lrs_"


def travels_in_backup(key: str) -> bool:
    """Whether a setting may be exported and imported at all (LRS settings and sync state never are)."""
    return not key.startswith(NEVER_IN_BACKUP_PREFIX)


class Settings(_Row):
    """The settings the app reads, each held to the rule ``study settings KEY VALUE`` applies; a key that
    must not travel (``lrs_*``) or that this study does not know is set aside, listed by :meth:`ignored`."""

    model_config = ConfigDict(strict=True, extra="allow", frozen=True)
    exam_date: str | None = None
    desired_retention: Annotated[float, Field(ge=RETENTION_RANGE[0], le=RETENTION_RANGE[1])] | None = None
    daily_goal: Annotated[int, Field(ge=1, le=10_000)] | None = None
    theme: Annotated[str, Field(max_length=40)] | None = None
    learner_id: Annotated[str, Field(pattern=r"^[A-Za-z0-9._-]{1,64}$")] | None = None

    @field_validator("exam_date")
    @classmethod
    def _date(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            return dt.date.fromisoformat(value).isoformat()
        except ValueError:
            raise ValueError("not a date like 2027-01-15") from None

    @field_validator("theme")
    @classmethod
    def _known_theme(cls, value: str | None) -> str | None:
        if value is None:
            return None
        from study.progress.settings import parse_setting

        stored = parse_setting("theme", value)  # the same rule as `study settings theme VALUE`
        if stored != value:
            raise ValueError(f"must be written as {stored!r}")
        return value

    def values(self) -> dict[str, Any]:
        """Key -> value to store; a null means "not set", as ``Store.set_setting(key, None)``. Only the keys
        this study knows, and never an LRS one."""
        return {k: v for k, v in self.model_dump(exclude=set(self.model_extra or {})).items() if v is not None}

    def ignored(self) -> list[str]:
        """The backup's settings an import leaves alone: LRS settings and sync state, and unknown keys."""
        return sorted(self.model_extra or {})


class ControlRow(_Row):
    """A question or card held back: suspended, or buried until a time (``study suspend`` / ``bury``)."""

    item_id: Text
    suspended: bool
    buried_until: Timestamp | None = None
    updated_at: Timestamp


class RegradeRow(_Row):
    """One grade a regrade replaced (``study regrade``): the history that keeps the old grade."""

    attempt_uid: Text
    item_id: Text
    old_correct: bool
    new_correct: bool
    old_rating: RatingValue | None = None
    new_rating: RatingValue | None = None
    content_hash: Annotated[str, Field(max_length=200)] = ""
    at: Timestamp


# Every table of the schema is in a backup or named here with the reason it is not; a test holds the two
# to the migrations, so a table added later cannot be forgotten by the backup.
IN_BACKUP = ("attempts", "reviews", "sessions", "items", "settings", "reports", "item_control",
             "attempt_regrades")
NOT_IN_BACKUP = {
    "item_totals": "derived: rebuilt from the attempts on every import",
    "activity": "derived: rebuilt from the attempts and reviews on every import",
    "lrs_acks": "what one LRS acknowledged belongs with the learner's LRS settings, which never travel",
}


class Backup(_Row):
    attempts: list[AttemptRow] = []
    reviews: list[ReviewRow] = []
    sessions: list[SessionRow] = []
    items: list[ItemRow] = []
    settings: Settings = Settings()
    reports: list[ReportRow] | None = None  # None: the backup predates reports, so it says nothing of them
    # None: the backup predates these rows (nothing held back, no regrade known), as for reports.
    item_control: list[ControlRow] | None = None
    attempt_regrades: list[RegradeRow] | None = None

    @model_validator(mode="after")
    def _one_row_per_item(self) -> Backup:
        for name, keys in (("items", [i.item_id for i in self.items]),
                           ("item_control", [c.item_id for c in self.item_control or ()])):
            seen: set[str] = set()
            for n, key in enumerate(keys):
                if key in seen:
                    raise ValueError(f"{name} {n}: {key!r} appears twice")
                seen.add(key)
        return self

    @model_validator(mode="after")
    def _one_grade_per_attempt(self) -> Backup:
        # A merge keeps the first row of a uid and skips the rest: two different answers under one uid would
        # silently lose one, so the file is refused instead.
        first: dict[str, AttemptRow] = {}
        for n, attempt in enumerate(self.attempts):
            seen = first.setdefault(attempt.uid, attempt)
            if seen is not attempt and seen != attempt:
                raise ValueError(f"attempt {n}: uid {attempt.uid!r} is also an earlier attempt with a different "
                                 f"{'grade' if seen.correct != attempt.correct else 'answer'}")
        return self


def usable_settings(values: dict[str, Any]) -> dict[str, Any]:
    """The settings that pass the checks, one by one: a value damaged on disk is left out of an export
    rather than make the whole backup impossible to restore."""
    out = {}
    for key, value in values.items():
        if not travels_in_backup(key):
            continue
        try:
            kept = Settings.model_validate({key: value}).values()
        except (ValidationError, RecursionError):
            continue
        out.update(kept)
    return out


def leave_out_unrestorable(data: dict[str, Any], read_session: SessionReader | None = None) -> dict[str, int]:
    """Remove, in place, the rows of an export that an import would refuse (values damaged on disk), so a
    backup always restores; returns how many were left out, per kind of row. Without ``read_session`` a
    saved session's state is checked as JSON only (an export for xAPI statements needs no more)."""
    context = {SESSION_READER: read_session}
    try:
        Backup.model_validate(data, context=context)
        return {}
    except ValidationError:
        pass
    left_out = {}
    rows_of: dict[str, type[BaseModel]] = {"attempts": AttemptRow, "reviews": ReviewRow, "sessions": SessionRow,
                                           "items": ItemRow, "reports": ReportRow, "item_control": ControlRow,
                                           "attempt_regrades": RegradeRow}
    for key, model in rows_of.items():
        rows = data.get(key)
        if not isinstance(rows, list):
            continue
        kept = [row for row in rows if _passes(model, row, context)]
        if len(kept) < len(rows):
            left_out[key] = len(rows) - len(kept)
            data[key] = kept
    data["settings"] = usable_settings(data.get("settings") or {})
    return left_out


def _passes(model: type[BaseModel], row: Any, context: dict[str, Any]) -> bool:
    try:
        model.model_validate(row, context=context)
    except (ValidationError, RecursionError):
        return False
    return True


def parse_backup(data: Any, read_session: SessionReader | None = None) -> Backup:
    """The checked backup, or ``ImportFormatError`` with one line: how many problems, and the first. An import
    passes ``read_session``: a saved exam it could not resume must not enter the store."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportFormatError(f"not a study progress export (missing \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ImportFormatError(f"export format version {version!r} is not a whole number; expected {FORMAT_VERSION}")
    if version > FORMAT_VERSION:
        raise ImportFormatError(
            f"export format version {version} is newer than this study reads ({FORMAT_VERSION}); upgrade study"
        )
    if version < 1:
        raise ImportFormatError(f"export format version {version} does not exist; expected {FORMAT_VERSION}")
    try:
        return Backup.model_validate(data, context={SESSION_READER: read_session})
    except ValidationError as exc:
        problems = exc.errors(include_url=False)
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise ImportFormatError(f"{_describe(problems[0])}{more}; nothing was imported") from None
    except RecursionError:
        raise ImportFormatError(f"values nested more than {MAX_DEPTH} levels deep; nothing was imported") from None


_ROW_NAMES = {"attempts": "attempt", "reviews": "review", "sessions": "session", "items": "item", "reports": "report",
              "item_control": "held-back item", "attempt_regrades": "regrade"}
_PLAIN = {
    "missing": "missing",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "string_type": "must be text",
    "bool_type": "must be true or false",
    "int_type": "must be a whole number",
    "float_type": "must be a number",
}


def _describe(problem: ErrorDetails) -> str:
    loc = list(problem["loc"])
    where = ""
    if len(loc) >= 2 and loc[0] in _ROW_NAMES and isinstance(loc[1], int):
        where = f"{_ROW_NAMES[loc[0]]} {loc[1]}: "
        loc = loc[2:]
    field = ".".join(str(part) for part in loc)
    kind = problem["type"]
    if kind == "value_error":
        what = str(problem.get("ctx", {}).get("error") or problem["msg"])
    else:
        what = _PLAIN.get(kind) or problem["msg"][:1].lower() + problem["msg"][1:]
    shown = ""
    if kind != "missing" and not isinstance(problem.get("input"), (dict, list)):
        shown = f" (got {_short(problem.get('input'))})"
    return f"{where}\"{field}\" {what}{shown}" if field else f"{where}{what}{shown}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
