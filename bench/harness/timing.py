"""Minimum-of-repeats timing, side by side.

Each implementation first gets a batch size (calls per batch) that makes
one batch last at least the target time, so clock resolution and the
batch's own overhead vanish. Then every repeat runs one batch of every
implementation, the order rotating from repeat to repeat, so a slow
moment of the machine hits all of them alike. The minimum per call over
the repeats is the figure reported (the least disturbed run); the median
is kept too."""

import gc


def batch_size(runner, target_seconds, max_calls=1 << 24):
    runner.seconds_per_call(1)  # warm caches, page in the code
    calls = 1
    while True:
        elapsed = runner.seconds_per_call(calls) * calls
        if elapsed >= target_seconds or calls >= max_calls:
            return calls
        guess = int(calls * target_seconds / elapsed * 1.2) + 1 if elapsed > 0 else calls * 16
        calls = min(max(guess, 2 * calls), 16 * calls)


def side_by_side(runners: dict, repeats: int, target_seconds: float) -> dict:
    sizes = {key: batch_size(runner, target_seconds) for key, runner in runners.items()}
    samples = {key: [] for key in runners}
    order = list(runners)
    gc_was_enabled = gc.isenabled()
    gc.disable()  # a collection inside one batch would only add noise
    try:
        for repeat in range(repeats):
            shift = repeat % len(order)
            for key in order[shift:] + order[:shift]:
                samples[key].append(runners[key].seconds_per_call(sizes[key]))
    finally:
        if gc_was_enabled:
            gc.enable()
    results = {}
    for key, values in samples.items():
        ordered = sorted(values)
        results[key] = {"seconds": ordered[0], "median_seconds": ordered[len(ordered) // 2],
                        "repeats": len(values), "calls_per_batch": sizes[key]}
    return results
