"""A FIFO queue and a LIFO stack written as singly linked lists of
`Node(value, next)` objects, the textbook way (a queue keeps its head and
its tail, a stack its top): a stream of pseudo-random values (a linear
congruential generator) is pushed onto both, with pops after every few
pushes, then both are drained. Every push allocates a node and every pop
drops one, so n pushes churn 2n temporary objects. Returns a weighted sum
of the popped values, which depends on the order of the pops."""

from typing import Optional


class Node:
    value: int
    next: Optional["Node"]

    def __init__(self, value: int, next: Optional["Node"]) -> None:
        self.value = value
        self.next = next


class Queue:
    head: Optional[Node]
    tail: Optional[Node]
    size: int

    def __init__(self) -> None:
        self.head = None
        self.tail = None
        self.size = 0

    def push(self, value: int) -> None:
        node = Node(value, None)
        tail = self.tail
        if tail is None:
            self.head = node
        else:
            tail.next = node
        self.tail = node
        self.size += 1

    def pop(self) -> int:
        head = self.head
        if head is None:
            return -1
        self.head = head.next
        if self.head is None:
            self.tail = None
        self.size -= 1
        return head.value


class Stack:
    top: Optional[Node]
    size: int

    def __init__(self) -> None:
        self.top = None
        self.size = 0

    def push(self, value: int) -> None:
        self.top = Node(value, self.top)
        self.size += 1

    def pop(self) -> int:
        top = self.top
        if top is None:
            return -1
        self.top = top.next
        self.size -= 1
        return top.value


def linked_queue(n: int, seed: int) -> int:
    queue = Queue()
    stack = Stack()
    s = seed
    checksum = 0
    popped = 0
    for k in range(n):
        s = (s * 1103515245 + 12345) % 2147483648
        queue.push(s % 100000)
        stack.push(s % 1000)
        if k % 3 == 2:
            popped += 1
            checksum += (popped % 997) * queue.pop() - stack.pop()
        if k % 7 == 6:
            popped += 1
            checksum += stack.pop() * (queue.size % 13)
    while queue.size > 0:
        popped += 1
        checksum += (popped % 997) * queue.pop()
    while stack.size > 0:
        popped += 1
        checksum += (popped % 89) * stack.pop()
    return checksum
