"""Prints each module-level count of two kiln-ir-stats files, before -> after,
and fails unless every count named on the command line went down."""

import json
import sys


def main(before_path, after_path, *must_decrease):
    with open(before_path) as before_file, open(after_path) as after_file:
        before, after = json.load(before_file), json.load(after_file)
    failed = False
    for key in must_decrease:
        print(f"{key}: {before[key]} -> {after[key]}")
        if not after[key] < before[key]:
            print(f"error: {key} did not go down", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
