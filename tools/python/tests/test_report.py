"""Reports: bench() through the program, read_report() back."""
import json

import pytest

import glnbody


def test_bench_writes_the_program_report(program, tmp_path):
    path = tmp_path / "r.json"
    rows = glnbody.bench(path, backend="cpu", n=[64, 100], runs=5, warmup=0)
    assert len(rows) == 2 and [r["n"] for r in rows] == [64, 100]
    data = json.loads(path.read_text())
    assert data["format"] == "glnbody-report" and data["rows"] == list(rows)
    back = glnbody.read_report(path)
    assert list(back) == list(rows) and back.data == data


def test_bad_reports(tmp_path, program):
    with pytest.raises(glnbody.IOError, match="nothere"):
        glnbody.read_report(tmp_path / "nothere.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{\"rows\": [")
    with pytest.raises(glnbody.IOError, match="not JSON"):
        glnbody.read_report(bad)
    bad.write_text("{\"format\": \"other\"}")
    with pytest.raises(glnbody.IOError, match="not a glnbody report"):
        glnbody.read_report(bad)
    with pytest.raises(glnbody.ArgumentError, match="backend|warp"):
        glnbody.bench(tmp_path / "x.json", backend="warp", n=64)
    assert not (tmp_path / "x.json").exists()
