"""The quiz session: a small state machine the TUI and the plain terminal both drive.

States: ``active`` until :meth:`QuizSession.submit` (or the deadline) makes it ``submitted``. Every action
takes an optional ``now`` (UTC); without it the session asks its injected ``clock``. The whole state
round-trips through :meth:`to_json` / :meth:`from_json`, and with a progress store attached the session saves
itself after every action, records attempts exactly once, and finishes itself in the store on submit, so
every driver records the same way.

Modes:
- ``exam``: blueprint selection, a deadline, alerts, numeric questions with distractors as choices, feedback
  only in the report.
- ``quiz``: a custom timed quiz (N questions in M minutes) graded like an exam.
- ``practice``: feedback after each answer (:meth:`answer` returns the :class:`Grade`), numbers are typed,
  an answer is final once given. A deadline is optional.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeGuard
from collections.abc import Sequence

from study.quiz.clock import Clock, as_utc, from_iso, iso, system_clock
from study.quiz.grade import Grade, grade_answer, normalize_answer
from study.quiz.instance import Instance
from study.quiz.shown import shown_record
from study.quiz.select import SelectionError

if TYPE_CHECKING:  # pragma: no cover
    from study.quiz.report import Report

MODES = ("exam", "quiz", "practice")
SessionMode = Literal["exam", "quiz", "practice"]  # a subset of the store's Mode


def _is_mode(mode: str) -> TypeGuard[SessionMode]:
    return mode in MODES
STATE_VERSION = 1
ALERT_MINUTES = (30, 15, 5)
REFERENCE_MINUTES = 60


class SessionError(RuntimeError):
    """An action that the session's state does not allow (answering after submit, a bad index)."""


class TimeUp(SessionError):
    """The deadline passed: the session has submitted itself and the action was not applied."""


@dataclass(frozen=True)
class Review:
    """Positions (0-based) still unanswered and flagged, for a review screen before submitting."""

    unanswered: tuple[int, ...]
    flagged: tuple[int, ...]

    @property
    def empty(self) -> bool:
        return not self.unanswered and not self.flagged


def alert_thresholds(minutes: float) -> tuple[int, ...]:
    """Seconds left at which to alert: 30, 15 and 5 minutes on a 60-minute exam, scaled down for shorter ones."""
    scale = min(1.0, minutes / REFERENCE_MINUTES)
    return tuple(int(round(m * 60 * scale)) for m in ALERT_MINUTES)


def format_left(seconds: float) -> str:
    """``"30 min"``, ``"2 min 30 s"``, ``"40 s"``: how alerts name the time left."""
    total = int(round(seconds))
    m, s = divmod(total, 60)
    if m and s:
        return f"{m} min {s} s"
    return f"{m} min" if m else f"{s} s"


def _resolve_now(now: Any) -> tuple[dt.datetime | None, Clock | None]:
    if now is None:
        return None, None
    if callable(now):
        return as_utc(now()), now
    return as_utc(now), None


class QuizSession:
    """An ordered list of :class:`Instance` plus the learner's answers, flags, timing and deadline."""

    def __init__(
        self,
        instances: Sequence[Instance],
        *,
        mode: str = "practice",
        started_at: dt.datetime,
        minutes: float | None = None,
        seed: int | str = 0,
        session_id: str | None = None,
        target_percent: int = 70,
        domain_names: dict[str, str] | None = None,
        objective_titles: dict[str, str] | None = None,
        clock: Clock | None = None,
        store: Any = None,
        form: dict[str, str] | None = None,
    ) -> None:
        if not _is_mode(mode):
            raise ValueError(f"mode must be one of {MODES}")
        if not instances:
            raise SelectionError("no questions match; widen the filters")
        self.id = session_id or uuid.uuid4().hex
        self.mode: SessionMode = mode
        self.seed = seed
        self.instances: list[Instance] = list(instances)
        self.answers: list[str | None] = [None] * len(self.instances)
        self.flags: list[bool] = [False] * len(self.instances)
        # Choices the learner struck out as wrong, per question: saved, so a resume after a crash shows them.
        self.struck: list[list[int]] = [[] for _ in self.instances]
        self.seconds: list[float] = [0.0] * len(self.instances)
        self.index = 0
        self.started_at = as_utc(started_at)
        self.minutes = minutes
        self.deadline = self.started_at + dt.timedelta(minutes=minutes) if minutes else None
        self.alerts: tuple[int, ...] = alert_thresholds(minutes) if minutes else ()
        self.fired: list[int] = []
        self.status = "active"
        self.timed_out = False
        self.finished_at: dt.datetime | None = None
        self.mark = self.started_at
        self.target_percent = target_percent
        self.domain_names = dict(domain_names or {})
        self.objective_titles = dict(objective_titles or {})
        self.recorded: set[int] = set()
        # Per question, whether the learner had never attempted it when the session was built (None: not
        # known, no store). The report counts them: "41 of 50 new to you".
        self.new_to_you: list[bool] | None = None
        self.clock: Clock = clock or system_clock
        self.store = store
        # The class exam form asked (``study.quiz.form``: its name and id), carried by each answer, the saved
        # state and the report, so exports and item analysis can tell the form's answers apart; None: none.
        self.form = dict(form) if form else None
        self._report: Report | None = None

    # --- reading -----------------------------------------------------------------------------------------

    @property
    def feedback(self) -> bool:
        """Whether each answer is graded at once (practice) rather than in the final report."""
        return self.mode == "practice"

    @property
    def kind(self) -> str:
        return self.mode

    @property
    def current(self) -> Instance:
        return self.instances[self.index]

    @property
    def count(self) -> int:
        return len(self.instances)

    def __len__(self) -> int:
        return len(self.instances)

    @property
    def finished(self) -> bool:
        return self.status == "submitted"

    @property
    def report(self) -> Report | None:
        """The report once submitted, else ``None``."""
        if self.finished and self._report is None:
            from study.quiz.report import build_report

            self._report = build_report(self)
        return self._report

    def answered(self, i: int | None = None) -> bool:
        return self.answers[self.index if i is None else i] is not None

    def grade(self, i: int | None = None) -> Grade | None:
        """The grade of position ``i`` (default: current) when it may be shown: practice once answered,
        any mode once submitted."""
        i = self.index if i is None else i
        if self.feedback and self.answers[i] is not None or self.finished:
            return grade_answer(self.instances[i], self.answers[i])
        return None

    def remaining(self, now: Any = None) -> dt.timedelta | None:
        """Time left before the deadline (never negative), ``None`` when untimed."""
        if self.deadline is None:
            return None
        left = self.deadline - self._now(now)
        return max(left, dt.timedelta(0))

    def until_next_tick(self, now: Any = None) -> float | None:
        """Seconds until :meth:`tick` has something to say (the next alert or the deadline), ``None`` when
        untimed or finished: a driver waiting for input waits at most this long."""
        if self.finished or self.deadline is None:
            return None
        left = (self.deadline - self._now(now)).total_seconds()
        pending = [left - a for a in self.alerts if a not in self.fired and a < left]
        return max(0.0, min([left, *pending]))

    def review(self) -> Review:
        return Review(
            tuple(i for i, a in enumerate(self.answers) if a is None),
            tuple(i for i, f in enumerate(self.flags) if f),
        )

    # --- actions -----------------------------------------------------------------------------------------

    def answer(self, value: Any, now: Any = None) -> Grade | None:
        """Answer the current question (or change the answer, except in practice where it is final).

        ``value`` is a letter or letters (``"B"``, ``"A,C"``, a list of indices), ``T``/``F`` or a bool, or
        the typed number with its unit. Raises :class:`~study.quiz.grade.AnswerError` for input that cannot
        be an answer, so a driver can ask again. Returns the :class:`Grade` in practice mode, else ``None``.
        """
        t = self._begin(now)
        i = self.index
        if self.feedback and self.answers[i] is not None:
            raise SessionError("already answered; go to the next question")
        self.answers[i] = normalize_answer(self.instances[i], value)
        grade = None
        if self.feedback:
            grade = grade_answer(self.instances[i], self.answers[i])
            self._record(i, grade, t)
        self._persist()
        return grade

    def clear(self, now: Any = None) -> None:
        self._begin(now)
        if self.feedback and self.answers[self.index] is not None:
            raise SessionError("a practice answer is final")
        self.answers[self.index] = None
        self._persist()

    def flag(self, now: Any = None, on: bool | None = None) -> bool:
        """Toggle (or set) the flag on the current question; returns the new state."""
        self._begin(now)
        self.flags[self.index] = (not self.flags[self.index]) if on is None else bool(on)
        self._persist()
        return self.flags[self.index]

    def strike(self, struck: set[int] | list[int], now: Any = None) -> list[int]:
        """Set the current question's struck-out choices (the screen toggles one; a pick takes it back)."""
        self._begin(now)
        options = len(self.current.options)
        self.struck[self.index] = sorted(i for i in set(struck) if 0 <= i < options)
        self._persist()
        return self.struck[self.index]

    def next(self, now: Any = None) -> bool:
        """Move to the next question; ``False`` (and no move) at the last one."""
        return self.goto(self.index + 1, now) if self.index + 1 < self.count else self._stay(now)

    def previous(self, now: Any = None) -> bool:
        return self.goto(self.index - 1, now) if self.index > 0 else self._stay(now)

    def goto(self, i: int, now: Any = None) -> bool:
        if not 0 <= i < self.count:
            raise SessionError(f"no question {i + 1}; there are {self.count}")
        self._begin(now)
        moved = i != self.index
        self.index = i
        self._persist()
        return moved

    def resume(self, now: Any = None) -> None:
        """Restart the per-question stopwatch after a restore, so time while the process was dead is not
        charged to a question (the deadline, like the real exam's, kept running)."""
        self.mark = self._now(now)

    def tick(self, now: Any = None) -> list[str]:
        """Check the clock: returns the alerts that fire now (``"15 min"``) or ``["time up"]`` when the
        deadline has passed, in which case the session has submitted itself.

        An alert fires once; when several thresholds passed since the last tick only the latest is named.
        """
        if self.finished or self.deadline is None:
            return []
        t = self._now(now)
        if t >= self.deadline:
            self._submit(t, timed_out=True)
            return ["time up"]
        left = (self.deadline - t).total_seconds()
        crossed = [a for a in self.alerts if left <= a and a not in self.fired]
        if not crossed:
            return []
        self.fired.extend(crossed)
        self._persist()
        return [format_left(min(crossed))]

    def submit(self, now: Any = None) -> Report:
        """Finish: grade everything, record the attempts not yet recorded, close the session in the store."""
        if self.finished:
            assert self.report is not None
            return self.report
        t = self._now(now)
        timed_out = self.deadline is not None and t >= self.deadline
        return self._submit(t, timed_out=timed_out)

    # --- serialisation -----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "id": self.id,
            "mode": self.mode,
            "seed": self.seed,
            "started_at": iso(self.started_at),
            "minutes": self.minutes,
            "deadline": iso(self.deadline),
            "alerts": list(self.alerts),
            "fired": list(self.fired),
            "index": self.index,
            "answers": list(self.answers),
            "flags": list(self.flags),
            "struck": [list(x) for x in self.struck],
            "seconds": list(self.seconds),
            "mark": iso(self.mark),
            "status": self.status,
            "timed_out": self.timed_out,
            "finished_at": iso(self.finished_at),
            "target_percent": self.target_percent,
            "domain_names": self.domain_names,
            "objective_titles": self.objective_titles,
            "recorded": sorted(self.recorded),
            "new_to_you": self.new_to_you,
            "instances": [inst.to_dict() for inst in self.instances],
            **({"form": dict(self.form)} if self.form else {}),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, bank: Any = None, *, clock: Clock | None = None, store: Any = None) -> QuizSession:
        """Restore a session saved by :meth:`to_json`.

        Instances are stored whole, so the restored session asks exactly what was asked even if the bank
        changed since; ``bank`` (optional) only refreshes domain names for the report.
        """
        from study.inputs import parse_json
        from study.quiz.saved_state import check_saved_state

        # A saved state may come from a backup made elsewhere: any way it is wrong is one SessionError the
        # drivers show (resume offers to set it aside), never an exception from deep inside a later action.
        try:
            data = parse_json(text)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            if data.get("version") != STATE_VERSION:
                raise SessionError(f"unsupported session state version {str(data.get('version'))[:20]!r}")
            instances = [Instance.from_dict(d) for d in data["instances"]]
            check_saved_state(data, instances)
            return cls._restore(data, instances, bank, clock=clock, store=store)
        except SessionError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, RecursionError) as exc:
            from study.untrusted import shown

            detail = shown(str(exc)[:120] if not isinstance(exc, KeyError) else f"{exc} missing", keep_newlines=False)
            raise SessionError(f"the saved session is damaged ({detail})") from None

    @classmethod
    def _restore(cls, data: dict[str, Any], instances: list[Instance], bank: Any, *, clock: Clock | None,
                 store: Any) -> QuizSession:
        s = cls(
            instances,
            mode=data["mode"],
            started_at=from_iso(data["started_at"]),  # type: ignore[arg-type]
            minutes=data["minutes"],
            seed=data["seed"],
            session_id=data["id"],
            target_percent=data["target_percent"],
            domain_names=data["domain_names"],
            objective_titles=data.get("objective_titles", {}),
            clock=clock,
            store=store,
            form=data.get("form"),  # a state saved before forms, or of a drawn exam, has none
        )
        s.deadline = from_iso(data["deadline"])
        s.alerts = tuple(data["alerts"])
        s.fired = list(data["fired"])
        s.index = data["index"]
        s.answers = list(data["answers"])
        s.flags = list(data["flags"])
        # A state saved before struck choices were kept has none (check_saved_state accepts it missing).
        struck = data.get("struck")
        s.struck = [list(x) for x in struck] if struck is not None else [[] for _ in instances]
        s.seconds = [float(x) for x in data["seconds"]]
        s.mark = from_iso(data["mark"]) or s.started_at
        s.status = data["status"]
        s.timed_out = data["timed_out"]
        s.finished_at = from_iso(data["finished_at"])
        s.recorded = set(data["recorded"])
        new = data.get("new_to_you")
        s.new_to_you = [bool(x) for x in new] if isinstance(new, list) and len(new) == len(instances) else None
        if bank is not None:
            s.domain_names.update(_domain_names(bank))
            s.objective_titles.update(_objective_titles(bank))
        return s

    # --- internals ---------------------------------------------------------------------------------------

    def _now(self, now: Any) -> dt.datetime:
        t, _ = _resolve_now(now)
        return t if t is not None else as_utc(self.clock())

    def _begin(self, now: Any) -> dt.datetime:
        """Common start of every action: refuse when finished, submit at the deadline, charge the time."""
        if self.finished:
            raise SessionError("the session is submitted")
        t = self._now(now)
        if self.deadline is not None and t >= self.deadline:
            self._submit(t, timed_out=True)
            raise TimeUp(f"time is up; the {'exam' if self.mode == 'exam' else 'quiz'} was submitted")
        self._charge(t)
        return t

    def _stay(self, now: Any) -> bool:
        self._begin(now)
        return False

    def _charge(self, t: dt.datetime) -> None:
        spent = (t - self.mark).total_seconds()
        if spent > 0:
            self.seconds[self.index] += spent
        self.mark = max(self.mark, t)

    def _submit(self, t: dt.datetime, *, timed_out: bool) -> Report:
        end = min(t, self.deadline) if self.deadline is not None else t
        self._charge(end)
        self.status = "submitted"
        self.timed_out = timed_out
        self.finished_at = end
        for i, inst in enumerate(self.instances):
            # Only answers are attempts: a question left blank counts against this exam's score (the report
            # grades it) but never as a wrong answer in the history, the scheduler or the daily goal.
            if i not in self.recorded and self.answers[i] is not None:
                self._record(i, grade_answer(inst, self.answers[i]), end)
        from study.quiz.report import build_report

        self._report = build_report(self)
        if self.store is not None:
            # Every mode ends with its report in the store (practice too, for the history screens).
            self.store.save_session(self.id, self.mode, self.to_json(), self.deadline)
            self.store.finish_session(self.id, self._report.to_json(), at=end)
        return self._report

    def _persisted_kind(self) -> bool:
        # Timed sessions are the ones worth resuming; an untimed practice set is cheap to restart.
        return self.deadline is not None or self.mode != "practice"

    def _persist(self) -> None:
        if self.store is not None and self._persisted_kind():
            self.store.save_session(self.id, self.mode, self.to_json(), self.deadline)

    def _record(self, i: int, grade: Grade, at: dt.datetime) -> None:
        """One attempt per question per session, into the store's scheduler."""
        self.recorded.add(i)
        if self.store is None:
            return
        from study.progress import Attempt

        inst = self.instances[i]
        self.store.record_attempt(
            Attempt(
                item_id=inst.qid,
                content_hash=inst.content_hash,
                params=dict(inst.params),
                given=self.answers[i] or "",
                correct=grade.correct,
                seconds=round(self.seconds[i], 3),
                mode=self.mode,
                session_id=self.id,
                at=at,
                picked=_picked_texts(inst, self.answers[i]),
                shown=shown_record(inst, self.objective_titles.get(inst.objective, ""), form=self.form),
            )
        )


def _picked_texts(inst: Instance, given: str | None) -> tuple[str, ...]:
    """The texts behind the shown letters, so the store keeps what was chosen after the shuffle is gone."""
    if not given or not inst.options:
        return ()
    texts = []
    for letter in given.split(","):
        k = ord(letter.strip().upper()[:1] or "?") - ord("A")
        if 0 <= k < len(inst.options):
            texts.append(inst.options[k].text)
    return tuple(texts)


def unfinished(store: Any, mode: str, bank: Any = None, *, clock: Clock | None = None,
               now: Any = None) -> QuizSession | None:
    """The unfinished ``mode`` session saved in ``store``, restored, or ``None``.

    An abandoned exam is either resumed or counted, never silently replaced: when its deadline has passed it
    is counted here (submitted as it stood at its deadline, its blanks graded wrong in its report), and the
    caller gets it back finished; with time left the caller resumes it (or the learner submits it there).
    Starting a fresh one beside it would let the same seed give the same questions on a fresh clock.
    """
    if store is None:
        return None
    active = store.active_session(mode)
    if active is None:
        return None
    session = QuizSession.from_json(active[1], bank, clock=clock, store=store)
    if session.remaining(now) == dt.timedelta(0):
        session.tick(now)  # counts it; alerts still due on a live session are left for the driver to show
    else:
        session.resume(now)
    return session


# --- building sessions ---------------------------------------------------------------------------------------


def _domain_names(bank: Any) -> dict[str, str]:
    return {d.id: d.name for d in bank.blueprint.domains}


def _objective_titles(bank: Any) -> dict[str, str]:
    return dict(bank.blueprint.objective_titles())


def __getattr__(name: str) -> Any:
    # The builders moved to ``study.quiz.build`` (this file had grown past 600 lines); old imports still work.
    if name in ("build_exam", "build_practice", "_instances"):
        from study.quiz import build

        return getattr(build, name)
    raise AttributeError(name)
