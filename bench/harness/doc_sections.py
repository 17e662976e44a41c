"""The generated sections of docs/performance.md: each bench script owns the
text between its two markers and rewrites only that."""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
PERFORMANCE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "performance.md")


def write_result(name: str, text: str) -> None:
    """bench/results/<name>.md: the table of the latest run."""
    results = os.path.join(os.path.dirname(HERE), "results")
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, f"{name}.md"), "w", encoding="utf-8") as handle:
        handle.write(text)


def replace_section(begin: str, end: str, section: str) -> None:
    """Puts `section` (which starts with `begin` and ends with `end`) in
    place of the old one, or at the end of docs/performance.md."""
    with open(PERFORMANCE, encoding="utf-8") as handle:
        doc = handle.read()
    if begin in doc:
        doc = doc[:doc.index(begin)] + section + doc[doc.index(end) + len(end):]
    else:
        doc = doc.rstrip("\n") + "\n\n" + section + "\n"
    with open(PERFORMANCE, "w", encoding="utf-8") as handle:
        handle.write(doc)
