"""The build record's keys have two owners that must agree: the code that
writes them (compiler.py, report/model.py) and the schema in docs/report.md
that users read. Every key a real record has, at the top level, per
function, per loop and per line, is in the schema table."""

import json
import os
import re
import shutil

from conftest import REPO, kiln_build

SCHEMA = os.path.join(REPO, "docs", "report.md")


def documented():
    """row name -> the backticked names of its row, from the schema table."""
    rows = {}
    text = open(SCHEMA, encoding="utf-8").read()
    table = text[text.index('## `<mod>.kiln.json`'):]
    for line in table.splitlines():
        if not line.startswith("| `"):
            continue
        key, meaning = line[2:].split(" | ", 1)
        names = re.findall(r"`([\w\[\].]+)`", key)
        for name in names:
            rows[name] = set(re.findall(r"`(\w+)(?:\[\])?`", meaning))
    return rows


def test_every_record_key_is_documented(tmp_path):
    shutil.copy(os.path.join(REPO, "examples", "kernels.py"), tmp_path / "kernels.py")
    result = kiln_build(str(tmp_path / "kernels.py"), tmp_path / "out", "--target-cpu=portable")
    assert result.returncode == 0, result.stderr
    with open(tmp_path / "out" / "kernels.kiln.json", encoding="utf-8") as handle:
        record = json.load(handle)
    rows = documented()
    top = {name.split("[")[0] for name in rows} | {"schema"}   # (the section's title)
    assert set(record) <= top, sorted(set(record) - top)
    assert set(record["cpu"]) <= rows["cpu"], sorted(set(record["cpu"]) - rows["cpu"])
    for function in record["functions"]:
        assert set(function) <= rows["functions[]"], sorted(set(function) - rows["functions[]"])
        for kind in ("loops", "lines", "basic_blocks"):
            row = rows[f"functions[].{kind}[]"]
            for entry in function.get(kind, []):
                assert set(entry) <= row, (kind, sorted(set(entry) - row))
