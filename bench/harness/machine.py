"""The machine and software a run measured, and keeping the machine quiet
while it measures."""

import os
import platform
import subprocess
import time

from . import layout


def cpuinfo() -> dict:
    fields = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if ":" not in line:
                    if fields:
                        break  # the first processor describes them all here
                    continue
                key, value = (part.strip() for part in line.split(":", 1))
                fields.setdefault(key, value)
    except OSError:
        pass
    return fields


def cache_sizes() -> dict:
    sizes = {}
    for name in ("LEVEL1_DCACHE_SIZE", "LEVEL2_CACHE_SIZE", "LEVEL3_CACHE_SIZE"):
        try:
            value = subprocess.run(["getconf", name], capture_output=True, text=True).stdout.strip()
            sizes[name] = int(value) if value.isdigit() else None
        except OSError:
            sizes[name] = None
    return sizes


def memory_bytes():
    try:
        with open("/proc/meminfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def first_line(command: list) -> str:
    try:
        output = subprocess.run(command, capture_output=True, text=True, timeout=60)
        text = (output.stdout or output.stderr).strip()
        return text.splitlines()[0] if text else ""
    except (OSError, subprocess.TimeoutExpired):
        return ""


def module_version(name: str):
    import warnings
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pythran's import warns about numpy aliases
            return __import__(name).__version__
    except Exception:  # noqa: BLE001 - a missing peer is reported, not fatal
        return None


def kiln_revision() -> dict:
    def git(*args):
        return subprocess.run(["git", "-C", layout.REPO, *args], capture_output=True,
                              text=True).stdout.strip()
    return {"commit": git("rev-parse", "--short", "HEAD"),
            "dirty_files": len([line for line in git("status", "--porcelain").splitlines()
                                if line.strip()])}


# The extensions each x86-64 level guarantees (the psABI's levels), as the
# report names them: what this CPU has is asked of CPUID through
# kiln.cpu_levels, never read from /proc/cpuinfo's flags (which may omit
# some, `abm` on one machine here).
LEVEL_EXTENSIONS = {2: ("sse4_2",), 3: ("avx", "avx2", "fma"),
                    4: ("avx512f", "avx512vl", "avx512dq", "avx512bw")}


def cpu_level() -> int:
    import sys
    sys.path.insert(0, os.path.join(layout.REPO, "python_frontend"))
    from kiln import cpu_levels
    return cpu_levels.detected_level()


def cpu_name() -> str:
    """The CPU's marketing name, for the reader (not its features)."""
    return cpuinfo().get("model name", platform.processor() or "unknown CPU")


def machine_line() -> str:
    """One line naming the machine a table ran on: CPU, its level
    (CPUID), the CPUs this process may use, the date."""
    return (f"{cpu_name()}, x86-64-v{cpu_level()} (CPUID), "
            f"{len(os.sched_getaffinity(0))} CPUs, {time.strftime('%Y-%m-%d')}")


def describe() -> dict:
    info = cpuinfo()
    level = cpu_level()
    flags = {name for at, names in LEVEL_EXTENSIONS.items() if level >= at for name in names}
    return {
        "cpu_model": info.get("model name", platform.processor()),
        "cpu_family": info.get("cpu family"), "cpu_model_number": info.get("model"),
        "logical_cpus": os.cpu_count(),
        "isa": {name: name in flags for name in ("sse4_2", "avx", "avx2", "fma", "avx512f",
                                                 "avx512vl", "avx512dq", "avx512bw")},
        "caches": cache_sizes(),
        "memory_bytes": memory_bytes(),
        "kernel": platform.release(),
        "software": {
            "python": platform.python_version(),
            "numpy": module_version("numpy"), "numba": module_version("numba"),
            "pythran": module_version("pythran"), "cython": module_version("Cython"),
            "cffi": module_version("cffi"), "matplotlib": module_version("matplotlib"),
            "clang": first_line([layout.CLANG, "--version"]),
            "system_cc": first_line([layout.SYSTEM_CC, "--version"]),
            "kiln": kiln_revision(),
        },
    }


def busy_builds() -> list:
    """Jobs that would make timings noisy (the lead builds and tests Kiln on
    this machine): builds, compilers, lit, pytest. The run's own builds are
    over before anything is timed."""
    found = []
    for pattern, exact in (("ninja", True), ("make", True), ("cmake", True), ("clang-22", True),
                           ("clang++-22", True), ("cc1plus", True), ("kilnc", True),
                           ("bin/lit", False), ("pytest", False)):
        command = ["pgrep", "-x" if exact else "-f", pattern]
        result = subprocess.run(command, capture_output=True, text=True)
        found += [f"{pattern}:{pid}" for pid in result.stdout.split() if int(pid) != os.getpid()]
    return found


def busy_cpus(seconds=2.0) -> float:
    """CPUs' worth of work other processes did over `seconds` (this process sleeps)."""
    def totals():
        with open("/proc/stat", encoding="utf-8") as handle:
            values = [int(v) for v in handle.readline().split()[1:]]
        idle = values[3] + values[4]
        return sum(values) - idle, sum(values)
    busy_before, all_before = totals()
    time.sleep(seconds)
    busy_after, all_after = totals()
    elapsed = (all_after - all_before) / os.cpu_count()
    return (busy_after - busy_before) / elapsed if elapsed else 0.0


_waited_seconds = [0.0]  # over the whole run, for the report


def total_wait_seconds() -> float:
    return _waited_seconds[0]


def wait_until_quiet(log, max_wait_seconds: float) -> dict:
    """Waits (up to max_wait_seconds) until no build or test runs and the
    CPUs are idle, and reports how quiet the machine was when timing started."""
    start = time.time()
    announced = False
    while True:
        busy = busy_builds()
        load = busy_cpus()
        if (not busy and load < 0.25) or time.time() - start >= max_wait_seconds:
            break
        if not announced:
            log(f"waiting for a quiet machine ({', '.join(busy) or f'{load:.2f} CPUs busy'}; "
                f"up to {max_wait_seconds:.0f} s, --max-wait changes it)")
            announced = True
        time.sleep(5)
    _waited_seconds[0] += time.time() - start
    return {"waited_s": round(time.time() - start, 1), "builds_running": busy,
            "busy_cpus": round(load, 2), "load_average_1min": os.getloadavg()[0]}


def pause_while_builds_run(log, max_wait_seconds: float) -> float:
    """Between kernels: a cheap check (no CPU sampling) that no build or test
    started meanwhile; waits for it to end. Returns the seconds waited."""
    start = time.time()
    busy = busy_builds()
    if busy:
        log(f"  pausing while {', '.join(busy)} runs ...")
    while busy and time.time() - start < max_wait_seconds:
        time.sleep(5)
        busy = busy_builds()
    _waited_seconds[0] += time.time() - start
    return time.time() - start


def _busy_ticks():
    with open("/proc/stat", encoding="utf-8") as handle:
        values = [int(v) for v in handle.readline().split()[1:9]]
    # everything but idle, iowait and steal (time the hypervisor gave to other guests)
    return sum(values) - values[3] - values[4] - values[7]


def _own_ticks():
    with open("/proc/self/stat", encoding="utf-8") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime stime cutime cstime


class ForeignLoad:
    """CPU time other processes used while a measurement ran: the whole
    machine's busy time minus this process's and its waited-for children's."""

    def __init__(self):
        self.ticks_per_second = os.sysconf("SC_CLK_TCK")
        self.start()

    def start(self):
        self.began = time.perf_counter()
        self.busy, self.own = _busy_ticks(), _own_ticks()

    def seconds(self):
        foreign = (_busy_ticks() - self.busy) - (_own_ticks() - self.own)
        return max(0, foreign) / self.ticks_per_second

    def disturbed(self):
        """More than a tenth of a CPU-second, and more than 5 % of one CPU."""
        elapsed = time.perf_counter() - self.began
        return self.seconds() > max(0.1, 0.05 * elapsed)


def measure_quietly(label, measure, log, max_wait_seconds, attempts=3):
    """Runs `measure` on a quiet machine, again when other work ran meanwhile
    (a build or test that started, or foreign CPU time); returns its result
    and how many attempts it took."""
    for attempt in range(1, attempts + 1):
        wait_until_quiet(log, max_wait_seconds)
        load = ForeignLoad()
        result = measure()
        busy = busy_builds()
        if not busy and not load.disturbed():
            return result, attempt
        cause = ", ".join(busy) or f"{load.seconds():.1f} CPU-s of other processes"
        log(f"  {label}: {cause} meanwhile; measuring it again")
    return result, attempts


class BuildGuard:
    """Keeps builds and tests that start during the kernel timings out of
    the figures: wait for them before a case, and measure a case again when
    one started while it ran."""

    def __init__(self, log, max_wait_seconds):
        self.log, self.max_wait = log, max_wait_seconds
        self.paused_seconds = 0.0
        self.repeated = []

    def before_case(self):
        self.paused_seconds += pause_while_builds_run(self.log, self.max_wait)
        self.load = ForeignLoad()

    def disturbed(self, label):
        busy = busy_builds()
        if busy or self.load.disturbed():
            cause = ", ".join(busy) or f"{self.load.seconds():.1f} CPU-s of other processes"
            self.log(f"  {label}: {cause} meanwhile; measuring it again")
            self.repeated.append(label)
            return True
        return False


def pin_to(cpu):
    """Timings run on one CPU, so the scheduler never moves a batch mid-way."""
    os.sched_setaffinity(0, {cpu})


def unpin(allowed):
    os.sched_setaffinity(0, set(allowed))
