"""Prints a kiln-vector-report as one line per record, so that tests can
check the numbers with FileCheck without depending on JSON layout."""
import json
import sys


def show(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return format(value, ".6g")
    return str(value)


def fields(record, keys):
    return " ".join(f"{key}={show(record[key])}" for key in keys)


def main():
    with open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin as source:
        report = json.load(source)
    print("report", fields(report, ["schema", "vector_register_bits", "weighting"]))
    for function in report["functions"]:
        print("function", function["name"],
              fields(function, ["file", "line", "coverage", "lane_utilization",
                                "vector_elements", "scalar_elements", "vector_ops",
                                "scalar_ops", "overhead_ops"]))
        for block in function["basic_blocks"]:
            classes = ",".join(f"{name}:{count}"
                               for name, count in sorted(block["classes"].items())
                               if count)
            print("  block", block["name"],
                  fields(block, ["line", "frequency", "coverage", "lane_utilization",
                                 "vector_ops", "scalar_ops", "overhead_ops",
                                 "vector_elements", "scalar_elements"]),
                  f"classes={classes}")
        for line in function["lines"]:
            print(f"  line {line['file']}:{line['line']}",
                  fields(line, ["coverage", "lane_utilization", "vector_ops",
                                "scalar_ops", "vector_elements", "scalar_elements"]))
        for loop in function["loops"]:
            print("  loop", loop["header"],
                  fields(loop, ["line", "depth", "coverage", "vector_ops", "scalar_ops"]))
        for call in function["scalarized_calls"]:
            print("  scalarized", fields(call, ["line", "callee", "elements"]))
        for inst in function["instructions"]:
            print(f"  inst {inst['block']} {inst['line']}:{inst['column']}",
                  f"'{inst['opcode']}'",
                  fields(inst, ["class", "elements", "element_bits", "vector", "work",
                                "frequency"]))


main()
