"""The wheel: built from a copy of the checkout, installed into a fresh virtual environment,
it imports and runs from another directory (parser tables, the `epl` script and the pytest
entry point included); the metadata carries license, authors, URLs, classifiers and the one
version number."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_metadata():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["license"] == {"text": "MIT"} and (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert meta["authors"] and meta["urls"]["Source"] and meta["urls"]["Changelog"]
    assert "License :: OSI Approved :: MIT License" in meta["classifiers"]
    assert meta["dynamic"] == ["version"] and "version" not in meta
    import engine
    assert engine.__version__ in (ROOT / "CHANGELOG.md").read_text()


def _copy_source(dest: Path) -> Path:
    skip = shutil.ignore_patterns(".git", ".venv", "__pycache__", "build", "dist", "*.egg-info",
                                  ".hypothesis", ".pytest_cache", "site", "bench", "tests")
    src = dest / "src"
    shutil.copytree(ROOT, src, ignore=skip)
    return src


@pytest.mark.slow
def test_wheel_installs_in_a_fresh_venv_and_runs_elsewhere(tmp_path):
    src = _copy_source(tmp_path)
    dist = tmp_path / "dist"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(src)],
                           capture_output=True, text=True, timeout=300)
    if build.returncode != 0 and "No matching distribution" in build.stderr + build.stdout:
        pytest.skip("no package index to fetch the build backend from")
    assert build.returncode == 0, build.stderr
    wheel = next(dist.glob("epl_engine-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "epl/_parsetab.pickle" in names and "engine/py.typed" in names
    assert not any(n.startswith(("tests/", "bench/", "samples/")) for n in names)

    env_dir = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q",
                              "--no-deps", str(wheel)], capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stderr
    # the dependencies (ply, sortedcontainers, blinker, tqdm) from this environment, without
    # its own copy of the project: a .pth line adds the directory, not its .pth hooks
    purelib = sysconfig.get_paths()["purelib"]
    site = next((env_dir / "lib").glob("python*/site-packages"))
    (site / "deps.pth").write_text(purelib + "\n")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import engine, epl.parser as P, json\n"
            "assert engine.__file__.startswith(%r), engine.__file__\n"
            "assert P.table_signature(P.SHIPPED_TABLES) == P.grammar_signature()\n"
            "e = engine.Engine(time='simulated')\n"
            "e.epl('create schema T(k string, v int)')\n"
            "s = e.epl('select k, sum(v) as t from T#time(1 sec) group by k')\n"
            "out = []\n"
            "s.add_listener(lambda new, old: out.append(new[0]['t']))\n"
            "e.send({'k': 'a', 'v': 2}, 'T')\n"
            "print(json.dumps([engine.__version__, out]))\n") % str(site)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "EPL_CACHE_DIR")}
    env["EPL_CACHE_DIR"] = str(tmp_path / "cache")
    run = subprocess.run([str(py), "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    import engine
    assert run.stdout.strip() == f'["{engine.__version__}", [2]]'
    assert not (tmp_path / "cache").exists()      # the shipped tables were used

    (elsewhere / "s.epl").write_text("create schema T(k string, ts long); select k from T")
    (elsewhere / "e.jsonl").write_text('{"type": "T", "k": "x", "ts": 5}\n')
    cli = subprocess.run([str(env_dir / "bin" / "epl"), "run", "s.epl", "e.jsonl", "--time-field", "ts"],
                         cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0, cli.stderr
    assert '"k": "x"' in cli.stdout
    eps = subprocess.run([str(py), "-c", "from importlib.metadata import entry_points;"
                          "print([e.value for e in entry_points(group='pytest11')])"],
                         cwd=elsewhere, env=env, capture_output=True, text=True)
    assert "engine.pytest_plugin" in eps.stdout
