"""The wheel carries content and questions: install it in a fresh venv and lint from elsewhere."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_wheel_installs_and_lints_outside_the_checkout(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(ROOT)],
        check=True,
        capture_output=True,
    )
    wheel = next(dist.glob("*.whl"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    # Our dependencies come from the test run's own site-packages via a .pth line (no network needed). Lines
    # in a .pth file are added to sys.path but the .pth files *inside* those dirs are not run, so the
    # editable install of the checkout stays invisible: `study` can only come from the wheel.
    site_dir = next((env_dir / "lib").glob("python3*/site-packages"))
    (site_dir / "test-deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "--quiet", str(wheel)], check=True, capture_output=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([str(env_dir / "bin" / "study"), "lint", "--no-calc"], cwd=elsewhere, capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    located = subprocess.run([str(env_dir / "bin" / "study"), "locate"], cwd=elsewhere, capture_output=True, text=True, env=env)
    assert str(env_dir) in located.stdout  # content found inside the installed package, not the checkout
    assert "questions" in proc.stderr
