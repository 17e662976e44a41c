"""binary-trees, the allocation benchmark of the Computer Language
Benchmarks Game (the task as its site states it, written here with a
`Node` class): build perfect binary trees of `Node(left, right)` objects,
walk them to count their nodes, drop them; one long-lived tree stays
alive meanwhile. For each depth d = 4, 6, ..., max_depth, 2^(max_depth -
d + 4) trees of depth d are made and checked. Returns the sum of the
node counts, each depth's total weighted by the depth, so that a wrong
count anywhere changes it."""

from typing import Optional


class Node:
    left: Optional["Node"]
    right: Optional["Node"]

    def __init__(self, left: Optional["Node"], right: Optional["Node"]) -> None:
        self.left = left
        self.right = right


def make_tree(depth: int) -> Node:
    if depth == 0:
        return Node(None, None)
    depth -= 1
    return Node(make_tree(depth), make_tree(depth))


def check(tree: Node) -> int:
    left = tree.left
    right = tree.right
    if left is None or right is None:
        return 1
    return 1 + check(left) + check(right)


def binary_trees(max_depth: int) -> int:
    min_depth = 4
    if max_depth < min_depth + 2:
        max_depth = min_depth + 2
    checksum = check(make_tree(max_depth + 1))     # the stretch tree
    long_lived = make_tree(max_depth)
    depth = min_depth
    while depth <= max_depth:
        iterations = 1 << (max_depth - depth + min_depth)
        total = 0
        for _ in range(iterations):
            total += check(make_tree(depth))
        checksum += depth * total
        depth += 2
    return checksum + check(long_lived)
