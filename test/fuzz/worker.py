"""The native side: a subprocess that imports a built module and executes
calls, answering over a pipe, so a crash (signal) or a hang in compiled code
costs one call, not the campaign.

Protocol: length-prefixed pickles on the process's original stdout (the
program's own prints go to stderr). Requests: ("load", outdir, module) and
("call", function, recipe); replies: ("ok", value, bases) or
("raise", type name, message, bases), or ("error", text), or ("leak",
detail) when the call changed the reference count of an instance it was
given by more than the references its lists and links gained or lost
(`reference_counts`). Instances in the value and the bases are sent as
their descriptions (instances.canonical): the parent cannot unpickle the
compiled classes.
"""

from __future__ import annotations

import importlib.util
import os
import pickle
import select
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def send(stream, message):
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def receive(stream):
    header = stream.read(8)
    if len(header) < 8:
        raise EOFError
    (size,) = struct.unpack("<Q", header)
    return pickle.loads(stream.read(size))


def serve():
    sys.path.insert(0, os.path.dirname(HERE))
    from fuzz.inputs import realize   # noqa: PLC0415
    from fuzz.lists import ArgumentList   # noqa: PLC0415
    from fuzz.dicts import ArgumentDict   # noqa: PLC0415
    from fuzz.sets import ArgumentSet   # noqa: PLC0415
    from fuzz.instances import canonical   # noqa: PLC0415

    protocol_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    stdin = sys.stdin.buffer
    module = None
    while True:
        try:
            request = receive(stdin)
        except EOFError:
            return
        if request[0] == "load":
            _, outdir, name = request
            try:
                spec = importlib.util.spec_from_file_location(
                    f"kiln_fuzz_native_{name}", os.path.join(outdir, f"{name}.py"))
                module = importlib.util.module_from_spec(spec)
                # as an import does: a dataclass that stays Python resolves
                # its string annotations through sys.modules
                sys.modules[spec.name] = module
                spec.loader.exec_module(module)
                send(protocol_out, ("loaded",))
            except Exception as error:  # noqa: BLE001
                send(protocol_out, ("error", f"{type(error).__name__}: {error}"))
            continue
        _, function, recipe = request
        args, bases = realize(recipe, lambda name, *fields: getattr(module, name)(*fields))
        pool = bases[-1] if recipe.get("objects") else []
        counts = reference_counts(pool, args, None)
        value = None
        try:
            value = getattr(module, function)(*args)
            leak = compare_counts(counts, reference_counts(pool, args, value))
            if isinstance(value, list):
                # `return xs` of a list parameter is the caller's own object
                position = next((k for k, a in enumerate(args) if a is value), None)
                if position is not None:
                    value = ArgumentList(value, position)
            elif isinstance(value, (set, frozenset)):
                # `return s` of a set parameter is the caller's own object
                position = next((k for k, a in enumerate(args) if a is value), None)
                if position is not None:
                    value = ArgumentSet(value, position, isinstance(value, frozenset))
            elif isinstance(value, dict):
                # `return d` of a dict parameter is the caller's own object
                position = next((k for k, a in enumerate(args) if a is value), None)
                if position is not None:
                    value = ArgumentDict(value.items(), position)
            seen = {}
            reply = ("ok", canonical(value, seen))
        except Exception as error:  # noqa: BLE001 - the compiled code's exception
            reply = ("raise", type(error).__name__, str(error))
            seen = {}
            leak = compare_counts(counts, reference_counts(pool, args, None))
        bases = [canonical(b, seen) for b in bases]
        send(protocol_out, (("leak", leak) if leak else reply, bases))


def reference_counts(pool, args, value):
    """For each instance of the argument pool: its reference count less the
    references the arguments' lists, the result and the links reachable
    from them hold (instances.held_references), which a call must leave
    as it was."""
    from fuzz.instances import held_references   # noqa: PLC0415
    if not pool:
        return []
    held = held_references([pool, args, value])
    # sys.getrefcount's own argument is one reference, the same each time
    return [sys.getrefcount(x) - held[id(x)] for x in pool]


def compare_counts(before, after):
    changed = [(k, b, a) for k, (b, a) in enumerate(zip(before, after)) if b != a]
    if not changed:
        return ""
    return "reference counts of argument instances changed by the call: " + ", ".join(
        f"object{k} {a - b:+d}" for k, b, a in changed[:6])


class Worker:
    """Parent-side handle: `call` returns (outcome, bases) or ("crash", how)."""

    def __init__(self, outdir, module, timeout=10.0):
        self.outdir, self.module, self.timeout = outdir, module, timeout
        self.process = None

    def start(self):
        env = dict(os.environ)
        env.pop("KILN_DISABLE", None)
        self.process = subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.path.insert(0, %r); "
             "from fuzz.worker import serve; serve()" % os.path.dirname(HERE)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        send(self.process.stdin, ("load", self.outdir, self.module))
        reply = self._read(60.0)
        if reply is None or reply[0] != "loaded":
            raise RuntimeError(f"worker could not load {self.module}: {reply}")

    def _read(self, timeout):
        stream = self.process.stdout
        deadline = time.monotonic() + timeout
        data = b""
        need = 8
        size = None
        while len(data) < need:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([stream], [], [], left)
            if not ready:
                return None
            chunk = os.read(stream.fileno(), need - len(data))
            if not chunk:
                return None
            data += chunk
            if size is None and len(data) == 8:
                (size,) = struct.unpack("<Q", data)
                need = 8 + size
        return pickle.loads(data[8:])

    def call(self, function, recipe):
        if self.process is None:
            self.start()
        try:
            send(self.process.stdin, ("call", function, recipe))
        except BrokenPipeError:
            return self._crashed("worker died before the call")
        reply = self._read(self.timeout)
        if reply is None:
            return self._crashed(None)
        return reply

    def _crashed(self, why):
        process, self.process = self.process, None
        try:
            code = process.wait(timeout=0.5)
            how = f"killed by signal {-code}" if code < 0 else f"exited with status {code}"
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            how = f"hang (no answer within {self.timeout:g} s)"
        return ("crash", why or how), None

    def close(self):
        if self.process is not None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=5)
            except Exception:  # noqa: BLE001
                self.process.kill()
            self.process = None
