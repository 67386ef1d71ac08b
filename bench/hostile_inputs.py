"""Small files that used to cost gigabytes (issue 19, defect 13): time and peak memory of each hostile case,
as a ratio against a normal file of similar size measured in the same run.

Run: ``python bench/hostile_inputs.py``. Each case runs ``study`` in a fresh process (so the peak RSS is that
case's alone, read from ``getrusage`` of the child) on a file written into a temp folder:

- lint of a 6 MB question file of 3 million integers (was 65 s, 1.8 GB) vs. the largest ordinary question
  file the loader reads whole (4,000 questions, 1.1 MB);
- lint of a stem with 20,000 ``{= ...}`` expressions (was 97 s for 1.1 MB) vs. a stem of plain text as long;
- ``study import`` of a 3.2 MB GIFT file of 100,000 questions (was 39 s and a 115 MB YAML) vs. 1,000
  questions of the same shape;
- ``study export --format anki`` onto a 0.5 MB zip bomb (was 1.07 GB) vs. onto an earlier real export;
- ``study import`` of a backup holding a 100,000-digit number (was a traceback) vs. the same backup without.

Goal: every hostile case at most a few hundred MB and a few seconds; the ratios say how far from normal.
Times are wall-clock on a shared machine: read them as orders of magnitude.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUESTION = """- id: {qid}
  objective: "1.1"
  difficulty: 1
  type: single
  stem: "{stem}"
  choices:
  - text: a
    correct: true
    why: w
  - text: b
    why: w
  explanation: e
  references:
  - title: t
    url: https://www.nvidia.com/
  verified: 2026-11-30
"""


def measured(args: list[str], cwd: Path) -> tuple[float, float, int]:
    """Seconds, peak RSS in MB and exit code of ``study ARGS``, run from a fresh interpreter: the peak RSS
    of a process's children is the largest of any so far, so each command gets a parent of its own."""
    code = (
        "import resource, subprocess, sys, time, json;"
        "t = time.perf_counter();"
        f"r = subprocess.run([sys.executable, '-m', 'study', *{args!r}], capture_output=True,"
        f" env={{**__import__('os').environ, 'STUDY_DB': {str(cwd / 'bench.db')!r}}});"
        "s = time.perf_counter() - t;"
        "print(json.dumps([s, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, r.returncode]))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=900)
    seconds, mb, rc = json.loads(out.stdout)
    return seconds, mb, rc


def _questions_file(path: Path, count: int, stem: str = "Which GPU?") -> None:
    path.write_text("questions:\n" + "".join(QUESTION.format(qid=f"bench-{k}", stem=stem) for k in range(count)))


def _gift(path: Path, count: int) -> None:
    path.write_text("\n\n".join(f"::q{i}:: Is {i} a number? {{T}}" for i in range(count)) + "\n")


def _bomb(path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        with zf.open("collection.anki2", "w", force_zip64=True) as member:
            for _ in range(500):
                member.write(b"\0" * (1 << 20))
    path.write_bytes(buf.getvalue())


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory(prefix="study-hostile-") as tmp:
        d = Path(tmp)
        (d / "ints.yaml").write_text("questions: [" + ",".join(["1"] * 3_000_000) + "]\n")
        # The baseline is the largest ordinary question file the loader reads whole (about 45 values a
        # question, under MAX_NODES): a 6 MB file of real questions is itself over the limit now.
        from study.bank.yamlsafe import MAX_NODES

        _questions_file(d / "normal.yaml", MAX_NODES // 50)
        rows.append(("lint: 3 million integers", "ints.yaml", ["lint", "ints.yaml"],
                     "normal.yaml", ["lint", "normal.yaml"]))

        _questions_file(d / "exprs.yaml", 1, stem=" ".join(["{= 2 * 3}"] * 20_000))
        _questions_file(d / "prose.yaml", 1, stem="x" * len(" ".join(["{= 2 * 3}"] * 20_000)))
        rows.append(("lint: 20,000 {= } in a stem", "exprs.yaml", ["lint", "exprs.yaml"],
                     "prose.yaml", ["lint", "prose.yaml"]))

        _gift(d / "big.gift", 100_000)
        _gift(d / "small.gift", 1_000)
        rows.append(("import: 100,000 GIFT questions", "big.gift",
                     ["import", "big.gift", "--out", "big.yaml", "--objective", "1.1", "--force"],
                     "small.gift", ["import", "small.gift", "--out", "small.yaml", "--objective", "1.1", "--force"]))

        subprocess.run([sys.executable, "-m", "study", "export", "--format", "anki", "earlier.apkg"], cwd=d,
                       capture_output=True, timeout=600)
        _bomb(d / "bomb.apkg")
        rows.append(("export anki onto a zip bomb", "bomb.apkg", ["export", "--format", "anki", "--force", "bomb.apkg"],
                     "earlier.apkg", ["export", "--format", "anki", "earlier.apkg"]))

        backup = {"format": "study-progress", "version": 1, "attempts": [], "reviews": [], "sessions": [],
                  "items": [], "settings": {}}
        (d / "plain.json").write_text(json.dumps(backup) + " " * 100_000)
        (d / "digits.json").write_text(json.dumps(backup).replace('"items": []', '"items": [' + "9" * 100_000 + "]"))
        rows.append(("import: a 100,000-digit number", "digits.json", ["import", "digits.json"],
                     "plain.json", ["import", "plain.json"]))

        print(f"{'case':34} {'hostile':>16} {'normal':>16} {'time x':>7} {'RSS x':>6}  exit (hostile/normal)")
        for name, hostile_file, hostile, normal_file, normal in rows:
            hs, hm, hrc = measured(hostile, d)
            ns, nm, nrc = measured(normal, d)
            hsize = (d / hostile_file).stat().st_size / 1e6
            nsize = (d / normal_file).stat().st_size / 1e6
            print(f"{name:34} {hs:6.2f} s {hm:5.0f} MB {ns:6.2f} s {nm:5.0f} MB {hs / ns:6.1f} {hm / nm:6.1f}  {hrc}/{nrc}"
                  f"   ({hsize:.1f} MB vs {nsize:.1f} MB)")


if __name__ == "__main__":
    main()
