"""The Python boundary: the GIL is released around array kernels, concurrent
calls are correct, and the async API keeps an event loop serving."""

import asyncio
import re
import threading
import time

import numpy as np
import pytest


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("boundary")


def test_eight_threads_give_correct_results(mod):
    inputs = [np.random.default_rng(seed).standard_normal(10_000) for seed in range(8)]
    outputs = [np.empty_like(x) for x in inputs]
    errors = []

    def work(index):
        try:
            for repeat in range(200):
                factor = index + repeat * 0.001
                mod.native.scale_into(inputs[index], factor, outputs[index])
                np.testing.assert_array_equal(outputs[index], inputs[index] * factor)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[0]


def python_progress_during(call):
    """How many times a Python thread got to run while `call` ran."""
    counter = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            counter[0] += 1
            time.sleep(0)

    thread = threading.Thread(target=count)
    thread.start()
    time.sleep(0.01)
    before = counter[0]
    call()
    during = counter[0] - before
    stop.set()
    thread.join()
    return during


def test_gil_released_for_array_kernels_only(mod):
    x = np.ones(200_000)
    released = python_progress_during(lambda: mod.native.spin(x, 200))
    held = python_progress_during(lambda: mod.native.spin_holding_gil(x, 200))
    assert released > 10 * max(held, 1), (released, held)


def test_wrappers_release_the_gil_only_with_arrays(mod):
    source = open(mod.path("_boundary_kiln.c")).read()
    body = {name: re.search(rf"kiln_wrap_{name}\(.*?\n}}\n", source, re.S).group(0)
            for name in ("spin", "spin_holding_gil", "add")}
    assert "Py_BEGIN_ALLOW_THREADS" in body["spin"]
    assert "Py_BEGIN_ALLOW_THREADS" not in body["spin_holding_gil"]
    assert "Py_BEGIN_ALLOW_THREADS" not in body["add"]


async def ticks_while(awaitable):
    ticks = 0

    async def ticker():
        nonlocal ticks
        while True:
            await asyncio.sleep(0.001)
            ticks += 1

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.005)
    start = ticks
    result = await awaitable
    task.cancel()
    return result, ticks - start


@pytest.mark.parametrize("loop_kind", ["asyncio", "uvloop"])
def test_async_calls_keep_the_loop_serving(mod, loop_kind):
    x = np.ones(200_000)
    expected = mod.native.spin(x, 300)
    if loop_kind == "uvloop":
        uvloop = pytest.importorskip("uvloop")
        runner = uvloop.run if hasattr(uvloop, "run") else None
        if runner is None:
            uvloop.install()
            runner = asyncio.run
    else:
        runner = asyncio.run
    try:
        result, ticks = runner(ticks_while(mod.native.aio.spin(x, 300)))
    finally:
        asyncio.set_event_loop_policy(None)
    assert result == expected
    assert ticks >= 5, ticks
