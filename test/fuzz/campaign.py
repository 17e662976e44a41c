"""Command line for fuzzing campaigns:

    PYTHONPATH=test /usr/bin/python3 -m fuzz --count 1000 --seed 42 --out /tmp/kiln-fuzz

writes OUT/summary.md (counts per class, time, grouped failures, fallback
reasons, message differences) and OUT/repros/repro_<class>_<seed>_<n>.py (reduced,
standalone). Exit status 1 when a mismatch, crash or build failure was found.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

from . import generator
from .harness import run_campaign


def write_summary(report, path, args):
    lines = [f"# Kiln fuzz campaign, seed {report.seed}", "",
             f"`{' '.join(sys.argv)}`", "", "| class | count |", "|---|---|"]
    for cls in ("compiled", "mismatch", "crash", "build", "known", "fallback", "message",
                "inexact"):
        lines.append(f"| {cls} | {report.counts.get(cls, 0)} |")
    lines.append(f"| calls compared | {report.compared} |")
    lines.append(f"| calls discarded (outside the documented domain) | {report.discarded} |")
    lines += ["", "time: " + ", ".join(f"{k} {v:.1f} s" for k, v in report.seconds.items()), ""]
    if report.failures:
        lines += ["## Failures (one reduced repro per distinct key)", ""]
        groups = {}
        for f in report.failures:
            groups.setdefault(f.key, []).append(f)
        for key, members in groups.items():
            lines.append(f"- `{key}`: {len(members)} program(s) "
                         f"({', '.join(str(m.index) for m in members[:10])})")
            for m in members:
                if m.repro:
                    lines.append(f"  - repro: `{m.repro}`: {m.detail.splitlines()[0][:300]}")
    if report.known:
        lines += ["", "## Known defects the generator avoids, seen anyway (not failures)", ""]
        lines += [f"- {n} x {switch}: {generator.KNOWN_DEFECT_SWITCHES[switch]}"
                  for switch, n in report.known.most_common()]
    if report.fallback_reasons:
        lines += ["", "## Fallbacks of generated (in-subset) functions", ""]
        lines += [f"- {n} x {r}" for r, n in report.fallback_reasons.most_common()]
    if report.messages:
        lines += ["", "## Message differences", ""]
        lines += [f"- {n} x {r}" + (f" (first: {report.message_examples[r]})"
                  if r in report.message_examples else "")
                  for r, n in report.messages.most_common(30)]
    if report.discard_reasons:
        lines += ["", "## Discarded inputs", ""]
        lines += [f"- {n} x {r}" for r, n in report.discard_reasons.most_common()]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=500, help="generated functions")
    parser.add_argument("--seed", type=int, default=None, help="default: a fresh random seed")
    parser.add_argument("--out", default=None, help="output directory")
    parser.add_argument("--per-module", type=int, default=25,
                        help="functions per `kiln build` (default 25)")
    parser.add_argument("--avoid", default="", help="comma-separated known-defect switches "
                        f"({', '.join(generator.KNOWN_DEFECT_SWITCHES)})")
    parser.add_argument("--array-weight", type=float, default=1.0,
                        help="scale the weights of the array statements (default 1)")
    parser.add_argument("--list-rate", type=float, default=generator.Config.list_rate,
                        help="share of programs with lists (default "
                        f"{generator.Config.list_rate}; 1: every program)")
    parser.add_argument("--dict-rate", type=float, default=generator.Config.dict_rate,
                        help="share of programs with dicts (default "
                        f"{generator.Config.dict_rate}; 1: every program)")
    parser.add_argument("--set-rate", type=float, default=generator.Config.set_rate,
                        help="share of programs with sets (default "
                        f"{generator.Config.set_rate}; 1: every program)")
    parser.add_argument("--slice-rate", type=float, default=generator.Config.slice_rate,
                        help="share of the list programs with list slices and index loops "
                        f"(default {generator.Config.slice_rate})")
    parser.add_argument("--tail-rate", type=float, default=generator.Config.tail_rate,
                        help="share of programs with divmod, range values, generator "
                        f"reductions and f-string raises (default {generator.Config.tail_rate}"
                        "; 1: every program)")
    parser.add_argument("--rebind-rate", type=float, default=generator.Config.rebind_rate,
                        help="share of programs whose exported function rebinds names to "
                             "values of other types (rebind_constructs.py)")
    parser.add_argument("--specialize-rate", type=float,
                        default=generator.Config.specialize_rate,
                        help="share of programs whose helpers are called at several argument "
                             "types (specialize_constructs.py)")
    parser.add_argument("--sorting-rate", type=float, default=generator.SORTING_RATE,
                        help="chance of np.sort/searchsorted/unique/bincount/histogram at each "
                             "place one may go (default "
                             f"{generator.SORTING_RATE})")
    parser.add_argument("--str-rate", type=float, default=generator.Config.str_rate,
                        help="share of programs with strings (default "
                        f"{generator.Config.str_rate}; 1: every program)")
    parser.add_argument("--class-rate", type=float, default=generator.Config.class_rate,
                        help="share of programs with exported classes (default "
                        f"{generator.Config.class_rate}; 1: every program)")
    parser.add_argument("--list-field-rate", type=float,
                        default=generator.Config.list_field_rate,
                        help="share of the plain classes of class programs with list fields "
                        f"(default {generator.Config.list_field_rate}; 1: every one)")
    parser.add_argument("--parallel-every", type=int, default=generator.Config.parallel_every,
                        help="one exported function in this many is @kiln.export(parallel=True)"
                        f" (default {generator.Config.parallel_every}; 0: none)")
    parser.add_argument("--no-reduce", action="store_true")
    parser.add_argument("--reduce-budget", type=float, default=120.0,
                        help="seconds of reduction per distinct failure")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    out = args.out or f"/tmp/kiln-fuzz-{seed}"
    os.makedirs(out, exist_ok=True)
    generator.SORTING_RATE = args.sorting_rate      # read where the generator draws
    config = generator.Config(avoid={a for a in args.avoid.split(",") if a},
                              array_weight=args.array_weight, list_rate=args.list_rate,
                              dict_rate=args.dict_rate, set_rate=args.set_rate,
                              slice_rate=args.slice_rate, tail_rate=args.tail_rate,
                              rebind_rate=args.rebind_rate,
                              specialize_rate=args.specialize_rate,
                              str_rate=args.str_rate,
                              class_rate=args.class_rate,
                              list_field_rate=args.list_field_rate,
                              parallel_every=args.parallel_every)
    print(f"kiln fuzz: seed {seed}, {args.count} functions, output in {out}", flush=True)
    started = time.monotonic()
    report = run_campaign(seed, args.count, os.path.join(out, "work"), config,
                          per_module=args.per_module, log=lambda t: print(t, flush=True),
                          reduce=not args.no_reduce, reduce_budget=args.reduce_budget,
                          repro_dir=os.path.join(out, "repros"))
    write_summary(report, os.path.join(out, "summary.md"), args)
    print(report.summary())
    print(f"kiln fuzz: {time.monotonic() - started:.1f} s; summary in {out}/summary.md")
    return 1 if any(report.counts.get(c) for c in ("mismatch", "crash", "build")) else 0


if __name__ == "__main__":
    sys.exit(main())
