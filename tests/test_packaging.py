"""The built package works without the source tree: a wheel, installed into a fresh
virtual environment without ``-e``, builds every output."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    return next(out.glob("yili_glossary-*.whl"))


@pytest.mark.slow  # builds a wheel (pip, in a subprocess)
def test_the_wheel_holds_every_file_the_package_reads(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    package = ROOT / "glossary"
    shipped = [
        p
        for p in package.rglob("*")
        if p.is_file() and p.suffix in (".py", ".tsv", ".yaml", ".json", ".html", ".css")
    ]
    missing = [str(p.relative_to(ROOT)) for p in shipped if str(p.relative_to(ROOT)) not in names]
    assert not missing, missing


@pytest.mark.slow
def test_an_installed_wheel_builds_everything(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "-q", str(wheel)], check=True, capture_output=True
    )
    # A project folder of its own: the installed package must not find the source tree.
    project = tmp_path / "project"
    project.mkdir()
    for name in ("terms.yaml", "plan.yaml"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "corpus", project / "corpus")
    env = {**os.environ, "GLOSSARY_CACHE_DIR": "", "SOURCE_DATE_EPOCH": "1700000000"}
    env.pop("PYTHONPATH", None)
    result = subprocess.run(
        [env_dir / "bin" / "glossary", "build", "--sheet", "乡射礼"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    where = subprocess.run(
        [python, "-c", "import glossary; print(glossary.__file__)"],
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(env_dir) in where  # the installed copy ran, not the source tree
    built = {p.name for p in (project / "dist").iterdir()}
    assert {
        "glossary.html",
        "terms.json",
        "yili-glossary.apkg",
        "yili-glossary.csv",
        "sheet-xiangshe.html",
    } <= built
