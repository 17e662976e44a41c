"""Graph reachability with a visited set: breadth-first search from
node 0 of an implicit graph of n nodes in which node v has edges to
(v * 3 + 1) % n, (v * 7 + seed) % n and v // 2 (no adjacency lists: the
edges are computed), the frontier a list used as a queue, the visited
nodes a set[int]; then, for every 64th node reached, how many of its
neighbours were reached too (set lookups). Returns a checksum of the
count reached, the levels and the lookups."""


def neighbours(v: int, n: int, seed: int) -> list[int]:
    return [(v * 3 + 1) % n, (v * 7 + seed) % n, v // 2]


# pythran export reachable(int, int)
def reachable(n: int, seed: int) -> int:
    seen: set[int] = {0}
    frontier: list[int] = [0]
    levels = 0
    while len(frontier) > 0:
        following: list[int] = []
        for v in frontier:
            for w in neighbours(v, n, seed):
                if w not in seen:
                    seen.add(w)
                    following.append(w)
        frontier = following
        levels += 1
    linked = 0
    for v in range(0, n, 64):
        if v in seen:
            for w in neighbours(v, n, seed):
                if w in seen:
                    linked += 1
    return len(seen) * 1000003 + levels * 1009 + linked
