#!/usr/bin/env python3
"""Writes runtime/kiln_unicode.h, the Unicode tables of runtime/kiln_str.c.

    /usr/bin/python3 runtime/make_unicode_tables.py runtime/kiln_unicode.h
    /usr/bin/python3 runtime/make_unicode_tables.py --check runtime/kiln_unicode.h

Kiln's str follows CPython 3.11, whose Unicode database is 14.0.0: the
tables are read off that CPython's own str methods (str.isalpha(),
str.lower(), ...), so that they answer as CPython does, not as some other
reading of the Unicode files would. A Python with another database is
refused unless --any-version says to use it anyway. The output depends
only on the database: the same Python writes the same bytes.

--check compares the file with what would be written and fails when they
differ (test/runtime/kiln_unicode_tables.test).

What the tables hold, and why each is enough, is checked here for every
code point before anything is written:
  - one property mask per range of code points (the str.is* methods, plus
    what str.lower()'s final-sigma rule reads);
  - lower() and upper() mappings as runs of code points sharing one offset
    (every one or every other code point), and the few mappings to 2 or 3
    code points;
  - the code points of the digits zero of the decimal digit runs (int() and
    float() read Unicode decimal digits).
"""

import argparse
import bisect
import sys
import unicodedata

EXPECTED_VERSION = "14.0.0"
CODE_POINTS = 0x110000

# Property bits (kiln_unicode.h's KILN_UNICODE_* names).
BITS = [
    ("ALPHA", "str.isalpha()"),
    ("DECIMAL", "str.isdecimal()"),
    ("DIGIT", "str.isdigit()"),
    ("NUMERIC", "str.isnumeric()"),
    ("ALNUM", "str.isalnum()"),
    ("SPACE", "str.isspace(); also strip() and split() whitespace"),
    ("LOWER", "a lowercase letter: a string holding one is not isupper()"),
    ("UPPER", "an uppercase letter: a string holding one is not islower()"),
    ("TITLE", "a titlecase letter (Lt): neither islower() nor isupper()"),
    ("CASE_IGNORABLE", "skipped when lower() looks for a cased neighbour of a capital sigma"),
]
BIT = {name: 1 << i for i, (name, _) in enumerate(BITS)}

SIGMA, SMALL_SIGMA, FINAL_SIGMA = "\u03a3", "\u03c3", "\u03c2"


def properties(code):
    """The property mask of one code point, from CPython's str methods."""
    ch = chr(code)
    mask = 0
    for name, test in (("ALPHA", ch.isalpha), ("DECIMAL", ch.isdecimal),
                       ("DIGIT", ch.isdigit), ("NUMERIC", ch.isnumeric),
                       ("ALNUM", ch.isalnum), ("SPACE", ch.isspace)):
        if test():
            mask |= BIT[name]
    title = unicodedata.category(ch) == "Lt"
    # islower() fails on an uppercase or titlecase letter and needs a
    # lowercase one; isupper() the other way round. A letter next to "A"
    # spoils isupper() exactly when it is lowercase or titlecase, and
    # next to "a" spoils islower() exactly when it is uppercase or
    # titlecase: that tells each apart without CPython's internal flags.
    if title:
        mask |= BIT["TITLE"]
    else:
        if not ("A" + ch).isupper():
            mask |= BIT["LOWER"]
        if not ("a" + ch).islower():
            mask |= BIT["UPPER"]
    # A capital sigma is final after a cased letter, skipping
    # case-ignorable ones: after "A" + ch it is final when ch is
    # case-ignorable or cased, right after ch alone only when ch is cased
    # and not case-ignorable. (Whether a case-ignorable letter is also
    # cased never matters: it is always skipped.)
    after_cased = ("A" + ch + SIGMA).lower()[-1] == FINAL_SIGMA
    after_alone = (ch + SIGMA).lower()[-1] == FINAL_SIGMA
    if after_cased and not after_alone:
        mask |= BIT["CASE_IGNORABLE"]
    return mask


def check_properties(masks):
    """The C side computes islower(), isupper() and the final sigma from
    these bits: check that this gives CPython's answer for each code
    point."""
    cased = BIT["LOWER"] | BIT["UPPER"] | BIT["TITLE"]
    for code, mask in enumerate(masks):
        ch = chr(code)
        if mask & BIT["LOWER"] and mask & BIT["UPPER"]:
            raise SystemExit(f"U+{code:04X} is both lowercase and uppercase")
        if ch.islower() != bool(mask & BIT["LOWER"]) or ch.isupper() != bool(mask & BIT["UPPER"]):
            raise SystemExit(f"U+{code:04X}: islower()/isupper() not from the bits")
        alone = (ch + SIGMA).lower()[-1] == FINAL_SIGMA
        if alone != bool(mask & cased and not mask & BIT["CASE_IGNORABLE"]):
            raise SystemExit(f"U+{code:04X}: cased for the final sigma not from the bits")


def case_runs(method):
    """Runs (first, last, stride, delta) of code points c in first..last,
    every `stride`-th, that method maps to chr(c + delta); and the longer
    mappings, each as a run of one with stride 0 whose delta indexes the
    special mappings. Runs never overlap, so a binary search finds the one
    a code point may be in."""
    mapped = {}
    for code in range(CODE_POINTS):
        result = method(chr(code))
        if result != chr(code):
            mapped[code] = result
    codes = sorted(mapped)
    runs, specials = [], []
    i = 0
    while i < len(codes):
        first = codes[i]
        result = mapped[first]
        if len(result) > 1:
            runs.append((first, first, 0, len(specials)))
            specials.append([ord(c) for c in result])
            i += 1
            continue
        delta = ord(result) - first
        stride = None
        j = i
        while j + 1 < len(codes):
            following = codes[j + 1]
            if len(mapped[following]) != 1 or ord(mapped[following]) - following != delta:
                break
            gap = following - codes[j]
            if stride is None and gap in (1, 2):
                stride = gap
            elif gap != stride:
                break
            j += 1
        runs.append((first, codes[j], stride or 1, delta))
        i = j + 1
    # Check: the runs give method's result for every code point.
    starts = [run[0] for run in runs]
    for code in range(CODE_POINTS):
        k = bisect.bisect_right(starts, code) - 1
        result = [code]
        if k >= 0:
            first, last, stride, delta = runs[k]
            if code <= last:
                if stride == 0:
                    result = specials[delta]
                elif (code - first) % stride == 0:
                    result = [code + delta]
        if "".join(map(chr, result)) != method(chr(code)):
            raise SystemExit(f"U+{code:04X}: the case runs do not give {method.__name__}()")
    if max(len(s) for s in specials) > 3:
        raise SystemExit("a case mapping longer than 3 code points")
    return runs, specials


def decimal_zeros(masks):
    """The first code point (digit zero) of each run of decimal digits: a
    decimal digit's value is its distance from the nearest zero at or below
    it."""
    zeros = []
    for code, mask in enumerate(masks):
        if mask & BIT["DECIMAL"]:
            value = unicodedata.decimal(chr(code))
            if value == 0:
                zeros.append(code)
    for code, mask in enumerate(masks):
        if mask & BIT["DECIMAL"]:
            k = bisect.bisect_right(zeros, code) - 1
            if k < 0 or code - zeros[k] != unicodedata.decimal(chr(code)):
                raise SystemExit(f"U+{code:04X}: decimal value not its distance from a zero")
            # int() reads it as that digit.
            if int(chr(code)) != code - zeros[k]:
                raise SystemExit(f"U+{code:04X}: int() disagrees")
    return zeros


def wrap(items, indent="  ", width=100):
    lines, line = [], indent
    for item in items:
        piece = item + ","
        if len(line) + len(piece) + 1 > width and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += piece + " "
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)


def generate(version):
    masks = [properties(code) for code in range(CODE_POINTS)]
    check_properties(masks)
    starts = [0] + [c for c in range(1, CODE_POINTS) if masks[c] != masks[c - 1]]
    lower_runs, lower_specials = case_runs(str.lower)
    upper_runs, upper_specials = case_runs(str.upper)
    zeros = decimal_zeros(masks)

    out = []
    emit = out.append
    emit(f"""/* Generated by runtime/make_unicode_tables.py from the Unicode database of
   CPython's unicodedata, version {version}. Do not edit: run
     /usr/bin/python3 runtime/make_unicode_tables.py runtime/kiln_unicode.h
   (test/runtime/kiln_unicode_tables.test checks that this file is current).

   The Unicode tables of runtime/kiln_str.c, read off CPython's own str
   methods so that Kiln's str answers as CPython 3.11's does. */
#ifndef KILN_UNICODE_H
#define KILN_UNICODE_H

#include <stdint.h>

#define KILN_UNICODE_VERSION "{version}"

/* The property bits of a code point. */""")
    for name, meaning in BITS:
        emit(f"#define KILN_UNICODE_{name} 0x{BIT[name]:x} /* {meaning} */")
    emit("")
    emit("/* The properties of code points 0..255. */")
    emit("static const uint16_t kiln_unicode_latin1[256] = {")
    emit(wrap([str(m) for m in masks[:256]]))
    emit("};")
    emit("")
    emit(f"""/* Code points kiln_unicode_starts[i] .. kiln_unicode_starts[i + 1] - 1 (the
   last entry: up to 0x10FFFF) have the properties kiln_unicode_masks[i]. */
#define KILN_UNICODE_RANGES {len(starts)}
static const uint32_t kiln_unicode_starts[KILN_UNICODE_RANGES] = {{""")
    emit(wrap([f"0x{c:X}" for c in starts]))
    emit("};")
    emit("static const uint16_t kiln_unicode_masks[KILN_UNICODE_RANGES] = {")
    emit(wrap([str(masks[c]) for c in starts]))
    emit("};")
    emit("""
/* A case mapping: code points first, first + stride, ... up to last map to
   themselves plus delta (the code points between them, when stride is 2,
   map to themselves); stride 0: `first` maps to the 2 or 3 code points of
   the special mappings' row `delta` (0 ends a shorter one). Sorted by
   `first`, not overlapping; code points in no run map to themselves. */
typedef struct {
  uint32_t first;
  uint32_t last;
  int32_t delta;
  int32_t stride;
} kiln_unicode_case_run;
""")
    for name, runs, specials in (("lower", lower_runs, lower_specials),
                                 ("upper", upper_runs, upper_specials)):
        emit(f"/* str.{name}() of one code point. */")
        emit(f"#define KILN_UNICODE_{name.upper()}_RUNS {len(runs)}")
        emit(f"static const kiln_unicode_case_run kiln_unicode_{name}_runs[] = {{")
        emit(wrap([f"{{0x{a:X}, 0x{b:X}, {d}, {s}}}" for a, b, s, d in runs]))
        emit("};")
        emit(f"static const uint32_t kiln_unicode_{name}_specials[][3] = {{")
        emit(wrap(["{" + ", ".join(f"0x{c:X}" for c in s + [0] * (3 - len(s))) + "}"
                   for s in specials]))
        emit("};")
        emit("")
    emit(f"""/* The digit zero of each run of decimal digits (str.isdecimal()): a decimal
   digit's value is its distance from the greatest of these not above it. */
#define KILN_UNICODE_DECIMAL_ZEROS {len(zeros)}
static const uint32_t kiln_unicode_decimal_zeros[KILN_UNICODE_DECIMAL_ZEROS] = {{""")
    emit(wrap([f"0x{c:X}" for c in zeros]))
    emit("};")
    emit("")
    emit("#endif /* KILN_UNICODE_H */")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("output", help="the header to write (or to check)")
    parser.add_argument("--check", action="store_true",
                        help="fail if the header differs from what would be written")
    parser.add_argument("--any-version", action="store_true",
                        help=f"use this Python's Unicode database even if not {EXPECTED_VERSION}")
    args = parser.parse_args()
    version = unicodedata.unidata_version
    if version != EXPECTED_VERSION and not args.any_version:
        raise SystemExit(
            f"{sys.executable} has Unicode {version}; Kiln's str follows CPython 3.11's "
            f"{EXPECTED_VERSION}: run this with a CPython 3.11, or pass --any-version")
    text = generate(version)
    if args.check:
        try:
            with open(args.output, encoding="utf-8") as f:
                current = f.read()
        except OSError as error:
            raise SystemExit(f"cannot read {args.output}: {error}")
        if current != text:
            raise SystemExit(f"{args.output} is not what {sys.argv[0]} writes: run it again")
        print(f"{args.output} is current (Unicode {version})")
        return
    with open(args.output, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


if __name__ == "__main__":
    main()
