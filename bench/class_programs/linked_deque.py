"""A double-ended queue written as a doubly linked list of `Node(value,
prev, next)` objects, the textbook way (the deque keeps its head and its
tail; each node points to both neighbours, so every pair of neighbours is
a reference cycle): a stream of pseudo-random values (a linear
congruential generator) is pushed at either end and popped from either
end, and the deque is rotated now and then (the tail moved to the front).
What is left when it returns is garbage made of cycles, which CPython's
cycle collector frees (instances of Kiln's, mypyc's and Cython's classes
take part in it too). Returns a weighted sum of the popped values."""

from typing import Optional


class Node:
    value: int
    prev: Optional["Node"]
    next: Optional["Node"]

    def __init__(self, value: int) -> None:
        self.value = value
        self.prev = None
        self.next = None


class Deque:
    head: Optional[Node]
    tail: Optional[Node]
    size: int

    def __init__(self) -> None:
        self.head = None
        self.tail = None
        self.size = 0

    def push_front(self, value: int) -> None:
        node = Node(value)
        head = self.head
        if head is None:
            self.tail = node
        else:
            node.next = head
            head.prev = node
        self.head = node
        self.size += 1

    def push_back(self, value: int) -> None:
        node = Node(value)
        tail = self.tail
        if tail is None:
            self.head = node
        else:
            node.prev = tail
            tail.next = node
        self.tail = node
        self.size += 1

    def pop_front(self) -> int:
        head = self.head
        if head is None:
            return 0
        after = head.next
        self.head = after
        if after is None:
            self.tail = None
        else:
            after.prev = None
        head.next = None
        self.size -= 1
        return head.value

    def pop_back(self) -> int:
        tail = self.tail
        if tail is None:
            return 0
        before = tail.prev
        self.tail = before
        if before is None:
            self.head = None
        else:
            before.next = None
        tail.prev = None
        self.size -= 1
        return tail.value

    def rotate(self) -> None:
        """The tail becomes the head."""
        if self.size > 1:
            self.push_front(self.pop_back())


def linked_deque(n: int, seed: int) -> int:
    deque = Deque()
    s = seed
    checksum = 0
    for k in range(n):
        s = (s * 1103515245 + 12345) % 2147483648
        if s % 2 == 0:
            deque.push_front(s % 10007)
        else:
            deque.push_back(s % 10009)
        if k % 5 == 4:
            checksum += (k % 101) * deque.pop_front()
        if k % 7 == 6:
            checksum -= (k % 103) * deque.pop_back()
        if k % 11 == 10:
            deque.rotate()
    return checksum * 1000 + deque.size
