"""`epl` speaks like a tool: `FILE:LINE[:COL]: message` on stderr and exit status 2 for bad
input, no traceback unless --debug, a closed pipe ends quietly, warnings for a missing time
field and events going back in time."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from cli_support import ROOT, SAMPLES, run_epl

SCHEMA = "create schema T(k string, v int, ts long);\n"


def _files(tmp_path, epl: str, lines: list[str]):
    s = tmp_path / "s.epl"
    s.write_text(epl)
    e = tmp_path / "e.jsonl"
    e.write_text("\n".join(lines) + "\n")
    return s, e


def _event(**kw) -> str:
    return json.dumps({"type": "T", **kw})


def _no_traceback(done: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout


def test_malformed_json_line(tmp_path):
    s, e = _files(tmp_path, SCHEMA + "select * from T", [_event(k="a", v=1, ts=1), '{"type": "T", "k": }'])
    done = run_epl("run", "s.epl", "e.jsonl", "--time-field", "ts", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == "e.jsonl:2:20: invalid JSON: Expecting value"
    _no_traceback(done)


def test_wrongly_typed_value(tmp_path):
    s, e = _files(tmp_path, SCHEMA + "select * from T", [_event(k="a", v="x", ts=1)])
    done = run_epl("run", "s.epl", "e.jsonl", "--time-field", "ts", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("e.jsonl:1: ") and "'v'" in done.stderr and "'x'" in done.stderr
    _no_traceback(done)


def test_epl_syntax_error_names_file_line_and_column(tmp_path):
    s, e = _files(tmp_path, SCHEMA + "\nselect k\n  fromm T", [_event(k="a", v=1, ts=1)])
    for cmd in (["run", "s.epl", "e.jsonl", "--time-field", "ts"], ["check", "s.epl"]):
        done = run_epl(*cmd, cwd=tmp_path)
        assert done.returncode == 2
        assert done.stderr.startswith("s.epl:4:3: Incorrect syntax near 'fromm'"), done.stderr
        _no_traceback(done)


def test_validation_error_names_the_statement_line(tmp_path):
    s, _ = _files(tmp_path, SCHEMA + "\n\n@name('x') select nope from T", [])
    done = run_epl("check", "s.epl", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("s.epl:4: ") and "nope" in done.stderr
    _no_traceback(done)


def test_debug_shows_the_traceback(tmp_path):
    s, _ = _files(tmp_path, SCHEMA + "select nope from T", [])
    done = run_epl("--debug", "check", "s.epl", cwd=tmp_path)
    assert done.returncode != 0 and "Traceback" in done.stderr


def test_missing_files_and_usage_errors_exit_2(tmp_path):
    done = run_epl("run", "absent.epl", "absent.jsonl", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("absent.epl: cannot read")
    done = run_epl("run", "--format", "xml", "a", "b", cwd=tmp_path)
    assert done.returncode == 2 and "usage:" in done.stderr
    _no_traceback(done)


def test_unknown_event_type_and_missing_time(tmp_path):
    s, e = _files(tmp_path, SCHEMA + "select * from T", [json.dumps({"type": "U", "k": "a"})])
    done = run_epl("run", "s.epl", "e.jsonl", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.splitlines()[-1].startswith("e.jsonl:1: ")
    s, e = _files(tmp_path, SCHEMA + "select * from T", [_event(k="a", v=1, ts=1), _event(k="b", v=1)])
    done = run_epl("run", "s.epl", "e.jsonl", "--time-field", "ts", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.strip() == "e.jsonl:2: missing time field 'ts'"


def test_warning_without_time_field(tmp_path):
    s, e = _files(tmp_path, SCHEMA + "select * from T", [_event(k="a", v=1, ts=5)])
    done = run_epl("run", "s.epl", "e.jsonl", cwd=tmp_path)
    assert done.returncode == 0
    assert "warning: no --time-field" in done.stderr and "'ts'" in done.stderr


@pytest.mark.parametrize("late, code, ks", [("adjust", 0, ["a", "b", "c"]), ("drop", 0, ["a", "c"]),
                                            ("fail", 2, ["a"])])
def test_events_going_back_in_time(tmp_path, late, code, ks):
    s, e = _files(tmp_path, SCHEMA + "select k from T",
                  [_event(k="a", v=1, ts=100), _event(k="b", v=1, ts=50), _event(k="c", v=1, ts=200)])
    done = run_epl("run", "s.epl", "e.jsonl", "--time-field", "ts", "--late", late, cwd=tmp_path)
    assert done.returncode == code, done.stderr
    assert [json.loads(x)["new"][0]["k"] for x in done.stdout.splitlines()] == ks
    if late == "fail":
        assert done.stderr.startswith("e.jsonl:2: event time 50 is before the engine time 100")
    else:
        assert "e.jsonl:2: 1 event(s) went back in time" in done.stderr


def test_closed_pipe_ends_quietly(tmp_path):
    lines = [_event(k=f"k{i % 7}", v=i, ts=1000 + i) for i in range(20000)]
    s, e = _files(tmp_path, SCHEMA + "select irstream k, v from T#length(3)", lines)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "run", "s.epl", "e.jsonl",
                             "--time-field", "ts"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    assert first.startswith(b"{")
    proc.stdout.close()               # what `| head -1` does
    _, err = proc.communicate(timeout=120)
    assert err == b""
    assert proc.returncode in (0, -signal.SIGPIPE)


def test_formats(tmp_path):
    s, e = _files(tmp_path, SCHEMA + "@name('w') select irstream k, v from T#length(1)",
                  [_event(k="a", v=1, ts=1), _event(k="b", v=2, ts=2)])
    csv = run_epl("run", "s.epl", "e.jsonl", "--time-field", "ts", "--format", "csv", cwd=tmp_path)
    assert csv.stdout.splitlines() == ["time,statement,stream,k,v", "1,w,insert,a,1", "2,w,insert,b,2",
                                       "2,w,remove,a,1"]
    table = run_epl("run", "s.epl", "e.jsonl", "--time-field", "ts", "--format", "table", cwd=tmp_path)
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["time", "statement", "stream", "k", "v"]
    assert set(lines[1]) <= {"-", " "} and lines[4].split() == ["2", "w", "remove", "a", "1"]


def test_check_prints_columns_and_types():
    done = run_epl("check", str(SAMPLES / "withdrawals.epl"))
    assert done.returncode == 0, done.stderr
    assert "large (select): account string, amount int" in done.stdout
    assert "per-account (select): account string, total int, n long" in done.stdout


def test_progress_bar_when_asked(tmp_path):
    s, e = _files(tmp_path, SCHEMA + "select k from T", [_event(k="a", v=1, ts=i) for i in range(500)])
    done = run_epl("run", "s.epl", "e.jsonl", "--time-field", "ts", "--progress", cwd=tmp_path)
    assert done.returncode == 0
    assert "100%" in done.stderr and "500 events" in done.stderr
    quiet = run_epl("run", "s.epl", "e.jsonl", "--time-field", "ts", cwd=tmp_path)
    assert quiet.stderr == ""   # stderr is not a terminal here


def test_without_the_spark_extra(tmp_path):
    code = ("import sys; sys.modules['pyspark'] = None\n"
            "from engine.cli import main\n"
            "sys.exit(main(['spark', 'a.epl', 'd.jsonl', '--type', 'T']))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 2
    assert "pip install 'epl-engine[spark]'" in done.stderr
    _no_traceback(done)
    code = "import sys; sys.modules['pyspark'] = None\nimport pipeline\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 1 and "'spark' extra" in done.stderr


def test_iso_times_and_version(tmp_path):
    s, e = _files(tmp_path, SCHEMA.replace("ts long", "ts string") + "select irstream k from T#time(1 sec)",
                  [_event(k="a", v=1, ts="2026-01-01T00:00:00Z"), _event(k="b", v=1, ts="2026-01-01T00:00:05Z")])
    done = run_epl("run", "s.epl", "e.jsonl", "--time-field", "ts", "--format", "csv", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [line.split(",") for line in done.stdout.splitlines()[1:]]
    assert [(int(r[0]) - 1767225600000, r[2], r[3]) for r in rows] == [
        (0, "insert", "a"), (1000, "remove", "a"), (5000, "insert", "b"), (6000, "remove", "b")]
    import engine
    assert run_epl("--version").stdout.strip() == f"epl-engine {engine.__version__}"
