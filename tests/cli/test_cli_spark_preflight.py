"""`epl spark` checks what it can before Spark starts: statements (FILE:LINE:COL), the input
against the declared event type (the first bad row: file, line or row, column, value), and
a Java runtime (a hint how to install one). Exit status 2, no traceback."""
from __future__ import annotations

import json

import pytest

from cli_support import SAMPLES, run_epl

pytest.importorskip("pipeline", reason="epl spark needs the 'spark' extra")

from engine.cli import main  # noqa: E402

EPL = str(SAMPLES / "withdrawals.epl")
ARGS = ["--type", "Withdrawal", "--time-column", "ts", "--key", "account", "--no-progress"]


def test_bad_json_row_is_named_before_spark(tmp_path):
    data = tmp_path / "w.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in [
        {"account": "a", "amount": 1, "ts": 5}, {"account": "b", "amount": 2, "ts": 6},
        {"account": "c", "amount": "lots", "ts": 7}]) + "\n")
    done = run_epl("spark", EPL, "w.jsonl", *ARGS, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("w.jsonl:3: column 'amount': value 'lots'"), done.stderr
    assert "Traceback" not in done.stderr and "spark" not in done.stderr.lower().replace("epl spark", "")


def test_bad_csv_row(tmp_path, capsys):
    data = tmp_path / "w.csv"
    data.write_text("account,amount,ts\na,1,5\nb,2.5,6\n")
    assert main(["spark", EPL, str(data), *ARGS]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{data}:3: column 'amount': value '2.5' does not fit the declared type int")


def test_bad_parquet_row(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq
    data = tmp_path / "w.parquet"
    pq.write_table(pa.table({"account": ["a", "b"], "amount": ["1", "x"], "ts": [1, 2]}), data)
    assert main(["spark", EPL, str(data), *ARGS]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{data}: row 0: column 'amount': value '1'")


def test_missing_key_or_time_column(tmp_path, capsys):
    data = tmp_path / "w.jsonl"
    data.write_text(json.dumps({"account": "a", "amount": 1}) + "\n")
    assert main(["spark", EPL, str(data), *ARGS]) == 2
    assert capsys.readouterr().err.startswith(f"{data}:1: no column 'ts'")


def test_statement_errors_are_located(tmp_path, capsys):
    bad = tmp_path / "bad.epl"
    bad.write_text("create schema Withdrawal(account string, amount int, ts long);\nselect x from Withdrawal")
    data = tmp_path / "w.jsonl"
    data.write_text(json.dumps({"account": "a", "amount": 1, "ts": 1}) + "\n")
    assert main(["spark", str(bad), str(data), *ARGS]) == 2
    assert capsys.readouterr().err.startswith(f"{bad}:2: ")


def test_missing_java_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    import pipeline.cli as pcli
    monkeypatch.setattr(pcli, "java_available", lambda: False)
    data = tmp_path / "w.jsonl"
    data.write_text(json.dumps({"account": "a", "amount": 1, "ts": 1}) + "\n")
    assert main(["spark", EPL, str(data), *ARGS]) == 2
    err = capsys.readouterr().err
    assert "make java" in err and "openjdk-17-jre-headless" in err
