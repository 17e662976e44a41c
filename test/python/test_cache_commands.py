"""`kiln cache list|clear|prune` and the size cap of the compile-on-first-call
cache: least recently used entries go first, broken ones before any, and an
entry being built (a hidden staging directory) is never touched."""

import hashlib
import json
import os
import subprocess
import sys

import pytest

from conftest import REPO

from kiln import cache_dir
from kiln.compiler import cache


def kiln(*args, env):
    environment = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"), **env)
    return subprocess.run([sys.executable, "-m", "kiln", *args], capture_output=True, text=True,
                          env=environment)


def fake_entry(root, name, size, used_at, broken=False):
    """A cache entry as compile_cached leaves one: an extension and a manifest
    with its SHA-256 (wrong when `broken`), last used at `used_at`."""
    entry = root / name
    entry.mkdir()
    payload = b"x" * size
    (entry / "_kiln_ext.so").write_bytes(payload)
    digest = hashlib.sha256(b"other" if broken else payload).hexdigest()
    module, function = name.split(".")[:2]
    (entry / cache.MANIFEST).write_text(json.dumps({
        "extension": "_kiln_ext.so", "extension_name": "_kiln_ext", "sha256": digest,
        "function": function, "source": f"/src/{module}.py"}))
    os.utime(entry, (used_at, used_at))
    return entry


@pytest.fixture
def populated(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    root.mkdir()
    monkeypatch.setenv("KILN_CACHE_DIR", str(root))
    fake_entry(root, "mod.oldest.k1", 4000, 1_000_000)
    fake_entry(root, "mod.middle.k2", 4000, 2_000_000)
    fake_entry(root, "mod.newest.k3", 4000, 3_000_000)
    fake_entry(root, "mod.broken.k4", 4000, 4_000_000, broken=True)
    (root / ".mod.building.abc").mkdir()  # another process's build in progress
    return root


def test_sizes():
    assert cache.parse_size("500M") == 500 << 20
    assert cache.parse_size("2G") == 2 << 30
    assert cache.parse_size("1.5k") == 1536
    assert cache.parse_size("64KiB") == 64 << 10
    assert cache.parse_size("4096") == 4096
    for bad in ("", "lots", "-1M", "5X", "inf"):
        with pytest.raises(ValueError):
            cache.parse_size(bad)


def test_list_most_recent_first(populated):
    result = kiln("cache", "list", env={"KILN_CACHE_DIR": str(populated)})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[4] for line in lines[:4]] == [
        "mod.broken", "mod.newest", "mod.middle", "mod.oldest"]
    assert "broken: rebuilt on next use" in lines[0]
    assert lines[-1].startswith("4 entries")


def test_prune_removes_broken_then_least_recently_used(populated):
    result = kiln("cache", "prune", "--max-size", "9000",
                  env={"KILN_CACHE_DIR": str(populated)})
    assert result.returncode == 0, result.stderr
    assert "removed 2 entries" in result.stdout
    assert sorted(os.listdir(populated)) == [".mod.building.abc", "mod.middle.k2",
                                             "mod.newest.k3"]


def test_clear_keeps_builds_in_progress(populated):
    result = kiln("cache", "clear", env={"KILN_CACHE_DIR": str(populated)})
    assert result.returncode == 0
    assert os.listdir(populated) == [".mod.building.abc"]


def test_bad_max_size_is_a_usage_error(populated):
    result = kiln("cache", "prune", "--max-size", "lots", env={"KILN_CACHE_DIR": str(populated)})
    assert result.returncode == 2
    assert "`lots` is not a size" in result.stderr


def test_a_new_entry_enforces_the_cap(populated, tmp_path, monkeypatch):
    monkeypatch.setenv("KILN_CACHE_MAX_SIZE", "1")  # room for the new entry only
    source = tmp_path / "capped.py"
    source.write_text("import kiln\n\n\n@kiln.export\ndef f(x: float) -> float:\n"
                      "    return x + 1.0\n")
    assert cache.compile_cached(str(source), "f", {})(1.0) == 2.0
    # The root's own folders (kilnc's probe answers & co.) are no entries.
    names = sorted(name for name in os.listdir(populated) if name not in cache_dir.OWN_FOLDERS)
    assert names[0] == ".mod.building.abc"
    assert len(names) == 2 and names[1].startswith("capped.f.")
    # Loading the entry again marks it used: pruning keeps it longest.
    entry = populated / names[1]
    os.utime(entry, (1_000_000, 1_000_000))
    assert cache.compile_cached(str(source), "f", {})(2.0) == 3.0
    assert cache.last_used(str(entry)) > 1_000_000


def test_the_roots_own_folders_are_not_entries(populated):
    """kilnc's probe answers, the fastmath measurement and the sources of
    file-less functions live beside the entries: never listed, pruned as
    broken, nor cleared."""
    for folder in cache_dir.OWN_FOLDERS:
        (populated / folder).mkdir()
        (populated / folder / "kept.json").write_text("{}")
    assert {os.path.basename(e["path"]) for e in cache.cache_entries()} == {
        "mod.oldest.k1", "mod.middle.k2", "mod.newest.k3", "mod.broken.k4"}
    cache.prune_cache(0)
    cache.clear_cache()
    for folder in cache_dir.OWN_FOLDERS:
        assert (populated / folder / "kept.json").exists()
