"""Display formatting shared by screens (no domain logic)."""

from __future__ import annotations

from datetime import timedelta


def percent(fraction: float | None, digits: int = 0) -> str:
    if fraction is None:
        return "–"
    return f"{fraction * 100:.{digits}f}%"


def clock(remaining: timedelta | float | None) -> str:
    """``mm:ss`` (or ``h:mm:ss``) for a countdown; negative values show as 00:00."""
    if remaining is None:
        return "--:--"
    seconds = remaining.total_seconds() if isinstance(remaining, timedelta) else float(remaining)
    seconds = max(0, int(seconds + 0.999))  # round up: "00:01" until it really is zero
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def feedback_markdown(instance, grade, *, title: bool = True) -> str:
    """The worked feedback after an answer: verdict, each choice's why, the derivation, references."""
    lines: list[str] = []
    if title:
        lines.append("### ✔ Right" if grade.correct else ("### ✘ Not answered" if not grade.answered else "### ✘ Wrong"))
    lines.append(grade.message)
    if grade.given_display and instance.is_numeric_typed:
        lines.append(f"\n**You typed** `{grade.given_display}` · **answer** `{grade.expected_display}`")
    if grade.picks:
        lines.append("")
        for p in grade.picks:
            mark = "✔" if p.correct else "✘"
            you = " *(your pick)*" if p.picked else ""
            why = f": {p.why}" if p.why else ""
            # Choice texts are Markdown as authored (`**BMC**`, `` `ipmitool` ``), as on the choice list itself.
            lines.append(f"- {mark} **{p.label})** {p.text}{you}{why}")
    derivation = tuple(grade.derivation or instance.derivation or ())
    if derivation:
        lines.append("\n**Derivation**\n")
        lines.extend(f"{i}. `{step}`" for i, step in enumerate(derivation, start=1))
    if instance.explanation:
        lines.append("\n**Why**\n")
        lines.append(instance.explanation)
    if instance.references:
        lines.append("\n**References**\n")
        lines.extend(f"- [{t}]({u})" for t, u in instance.references)
    return "\n".join(lines)


def ranges(numbers) -> str:
    """``[2, 3, 4, 7, 9, 10]`` -> ``"2–4, 7, 9–10"``: long lists of question numbers stay on one line."""
    nums = sorted(set(numbers))
    if not nums:
        return "none"
    out: list[str] = []
    start = prev = nums[0]
    for n in nums[1:] + [None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(str(start) if start == prev else f"{start}–{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(out)
