"""Connected components by union-find (disjoint sets with union by size
and path halving, the textbook structure) over sparse node ids: m random
edges between n nodes whose ids are scattered 40-bit numbers, so the
parent pointers and the set sizes live in dicts from id to id and from id
to size, as they do when the ids are not 0..n-1. Returns the number of
components * 10^6 + the largest component's size."""


def find(parent: dict[int, int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


# pythran export union_find(int, int, int)
def union_find(n: int, m: int, seed: int) -> int:
    ids: list[int] = []
    s = seed
    for _ in range(n):
        s = (s * 1103515245 + 12345) % 2147483648
        ids.append(s * 512 + 1)
    parent: dict[int, int] = {}
    size: dict[int, int] = {}
    for node in ids:
        parent[node] = node
        size[node] = 1
    for _ in range(m):
        s = (s * 1103515245 + 12345) % 2147483648
        a = ids[s % n]
        s = (s * 1103515245 + 12345) % 2147483648
        b = ids[s % n]
        ra = find(parent, a)
        rb = find(parent, b)
        if ra != rb:
            if size[ra] < size[rb]:
                ra, rb = rb, ra
            parent[rb] = ra
            size[ra] += size[rb]
            del size[rb]
    largest = 0
    for root, count in size.items():
        if count > largest:
            largest = count
    return len(size) * 1000000 + largest
