"""
The tokeniser shared by training and the TypeScript loader (src/models/staticTokenizer.ts).

Words: the ASCII regex below over the text, lower-cased (identifiers split on case and on every
non-alphanumeric). A word in the vocabulary maps to its id; any other word maps to the hashed
character trigrams of "<word>" (FNV-1a 32-bit, modulo `buckets`, offset by the vocabulary size),
each weighted 1/n so an unknown word weighs as much as a known one. That fallback is what lets a
misspelling ("dictinaries") or an unseen identifier still land near its neighbours.

Keep it ASCII and byte-for-byte simple: JavaScript's Unicode case rules and `\\w` differ from
Python's, so anything cleverer would drift between the two sides.
"""
import re

WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
NGRAM = 3
MAX_WORD_CHARS = 24  # longer runs are hashes/base64; their first 24 chars are plenty


def words(text):
    """Lower-cased words of a text, in order."""
    return [m.group(0).lower() for m in WORD.finditer(text)]


def fnv1a(s):
    """FNV-1a 32-bit over the string's char codes (all ASCII here)."""
    h = 0x811C9DC5
    for ch in s:
        h ^= ord(ch)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def ngram_buckets(word, buckets):
    """Bucket indices (0..buckets-1) of the character trigrams of <word>, in order."""
    w = "<" + word[:MAX_WORD_CHARS] + ">"
    return [fnv1a(w[i:i + NGRAM]) % buckets for i in range(len(w) - NGRAM + 1)]


def encode(text, vocab, buckets, max_words):
    """(ids, weights) for the first `max_words` words of `text` (see the module comment)."""
    ids, weights = [], []
    for w in words(text)[:max_words]:
        i = vocab.get(w)
        if i is not None:
            ids.append(i)
            weights.append(1.0)
        elif buckets > 0:
            grams = ngram_buckets(w, buckets)
            for g in grams:
                ids.append(len(vocab) + g)
                weights.append(1.0 / len(grams))
    return ids, weights
