"""Word frequencies (the classic word-count exercise; cf. the "word
frequency" programs of Codon's and pyperformance's suites): a text of n
words drawn from a small vocabulary by a linear congruential generator is
built with `" ".join`, split into words with `str.split()`, and counted
in a dict[str, int]; returns a checksum of the counts of a few words and
the number of distinct words."""

VOCABULARY = ["the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was",
              "with", "be", "by", "on", "not", "he", "this", "are", "or", "his", "from",
              "at", "which", "but", "have", "an", "had", "they", "you", "were", "their",
              "one", "all", "we", "can", "her", "has", "there", "been", "if", "more",
              "when", "will", "would", "who", "so", "no", "café", "naïve", "über", "東京"]


def make_text(n: int, seed: int) -> str:
    words: list[str] = []
    s = seed
    size = len(VOCABULARY)
    for _ in range(n):
        s = (s * 1103515245 + 12345) % 2147483648
        # a skewed (Zipf-like) choice: small indices more often
        r = (s >> 8) % (size * size)
        index = size - 1 - int((r ** 0.5))
        words.append(VOCABULARY[index])
    return " ".join(words)


def count_words(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for word in text.split():
        counts[word] = counts.get(word, 0) + 1
    return counts


# pythran export word_freq(int, int)
def word_freq(n: int, seed: int) -> int:
    text = make_text(n, seed)
    counts = count_words(text)
    checksum = len(counts)
    for word in ["the", "and", "café", "東京", "missing"]:
        checksum = checksum * 31 % 1000000007 + counts.get(word, 0)
    return checksum
