"""np.einsum's kernels: Python source written for one subscripts string
(`einsum_source`), which frontend/kernels/__init__.py then instantiates
like linalg.py's functions (RESULT: the operands' promoted dtype).

The kernel is the contraction spelled out: a loop per output label (in
the output's order), inside them a loop per summed label (in order of first
appearance), the product of the operands' elements summed in that order
(numpy sums in its own order: equal to rounding). A label's size is
broadcast as numpy's einsum does (an axis of size 1 meets any other size);
a label repeated in one operand (`ii->i`, `ii`) reads the diagonal, its
sizes equal or numpy's ValueError. The compile-time errors are numpy's
(`parse` raises them as ValueError for typecheck/linalg_typing.py)."""

from __future__ import annotations

import string

LABELS = set(string.ascii_letters)


def parse(subscripts: str, operands: int) -> tuple:
    """(input label strings, output label string) of an explicit or
    implicit (`ij,jk`: the labels seen once, sorted) subscripts string;
    ValueError with numpy's message for what numpy refuses, and for
    ellipses, which Kiln does not compile yet."""
    text = subscripts.replace(" ", "")
    if "." in text:
        raise ValueError("np.einsum with an ellipsis ('...') is not supported yet")
    if "->" in text:
        inputs, output = text.split("->", 1)
    else:
        inputs, output = text, None
    terms = inputs.split(",")
    if len(terms) < operands:
        raise ValueError("more operands provided to einstein sum function than specified in "
                         "the subscripts string")
    if len(terms) > operands:
        raise ValueError("fewer operands provided to einstein sum function than specified in "
                         "the subscripts string")
    for label in inputs.replace(",", "") + (output or ""):
        if label not in LABELS:
            raise ValueError(f"invalid subscript '{label}' in einstein sum subscripts string, "
                             "subscripts must be letters")
    if output is None:
        counts = {}
        for label in inputs.replace(",", ""):
            counts[label] = counts.get(label, 0) + 1
        output = "".join(sorted((l for l, c in counts.items() if c == 1),
                                key=lambda l: (l.islower(), l)))
    for label in output:
        if output.count(label) > 1:
            raise ValueError(f"einstein sum subscripts string includes output subscript "
                             f"'{label}' multiple times")
        if label not in inputs:
            raise ValueError(f"einstein sum subscripts string included output subscript "
                             f"'{label}' which never appeared in an input")
    return terms, output


def einsum_source(terms: list, output: str) -> str:
    """The kernel `einsum(a0, a1, ...)` for these subscripts."""
    operands = [f"a{k}" for k in range(len(terms))]
    lines = [f"def einsum({', '.join(operands)}):"]
    first = {}          # label -> (operand, axis) where its size is first read
    for k, term in enumerate(terms):
        for axis, label in enumerate(term):
            lines.append(f"    d{k}_{axis} = a{k}.shape[{axis}]")
            if label in term[:axis]:
                before = term.index(label)
                lines += [f"    if d{k}_{before} != d{k}_{axis}:",
                          f"        raise ValueError(f\"dimensions in single operand for "
                          f"collapsing index '{label}' don't match ({{d{k}_{before}}} != "
                          f"{{d{k}_{axis}}})\")"]
    for k, term in enumerate(terms):
        for axis, label in enumerate(term):
            if label not in first:
                first[label] = (k, axis)
                lines.append(f"    n_{label} = d{k}_{axis}")
                continue
            lines += [f"    if n_{label} == 1:",
                      f"        n_{label} = d{k}_{axis}",
                      f"    elif d{k}_{axis} != 1 and d{k}_{axis} != n_{label}:",
                      f"        raise ValueError(f\"operands could not be broadcast together: "
                      f"subscript '{label}' has sizes {{n_{label}}} and {{d{k}_{axis}}}\")"]
    for k, term in enumerate(terms):
        for axis in range(len(term)):
            lines.append(f"    s{k}_{axis} = 1 if d{k}_{axis} > 1 else 0")
    summed = [label for label in first if label not in output]
    depth = 1
    if output:
        shape = ", ".join(f"n_{label}" for label in output)
        lines.append(f"    out = np.zeros(({shape},), dtype=RESULT)")
        for label in output:
            lines.append("    " * depth + f"for i_{label} in range(n_{label}):")
            depth += 1
    lines.append("    " * depth + "total = RESULT(0)")
    inner = depth
    for label in summed:
        lines.append("    " * inner + f"for i_{label} in range(n_{label}):")
        inner += 1
    factors = []
    for k, term in enumerate(terms):
        index = ", ".join(f"i_{label} * s{k}_{axis}" for axis, label in enumerate(term))
        factors.append(f"RESULT(a{k}[{index}])")
    lines.append("    " * inner + f"total += {' * '.join(factors)}")
    if output:
        target = ", ".join(f"i_{label}" for label in output)
        lines.append("    " * depth + f"out[{target}] = total")
        lines.append("    return out")
    else:
        lines.append("    return total")
    return "\n".join(lines) + "\n"
