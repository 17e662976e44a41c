"""A priority queue written by hand as a binary heap in a list (what
`heapq` does, as textbooks write it): `append` and sift-up to push,
`pop` of the last item and sift-down to pop the smallest. A stream of
random keys is pushed, with one pop after every three pushes, then the
heap is drained; the order of the popped keys is checked by a weighted
sum."""


def heap_push(heap: list[int], key: int) -> None:
    heap.append(key)
    i = len(heap) - 1
    while i > 0:
        parent = (i - 1) // 2
        if heap[parent] <= key:
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = key


def heap_pop(heap: list[int]) -> int:
    smallest = heap[0]
    last = heap.pop()
    n = len(heap)
    if n > 0:
        i = 0
        while True:
            child = 2 * i + 1
            if child >= n:
                break
            if child + 1 < n and heap[child + 1] < heap[child]:
                child += 1
            if heap[child] >= last:
                break
            heap[i] = heap[child]
            i = child
        heap[i] = last
    return smallest


# pythran export run(int, int)
def run(n: int, seed: int) -> int:
    heap: list[int] = []
    checksum = 0
    popped = 0
    s = seed
    for k in range(n):
        s = (s * 1103515245 + 12345) % 2147483648
        heap_push(heap, s % 1000000)
        if k % 3 == 2:
            popped += 1
            checksum += popped % 1000 * heap_pop(heap)
    while heap:
        popped += 1
        checksum += popped % 1000 * heap_pop(heap)
    return checksum
