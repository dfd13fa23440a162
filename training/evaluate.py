"""
Quick Python-side figures used while training: CoSQA dev (static alone, BM25, RRF) and the
held-out docstring pairs. The reported figures come from `gmem eval retrieval --embedder builtin`
(the product's own search path); these only steer the build.
"""
import json
import math
import random
from collections import Counter, defaultdict

import numpy as np

from .tokenizer import encode, words


def embed(table, vocab, buckets, texts, max_words):
    out = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
    for k, t in enumerate(texts):
        ids, ws = encode(t, vocab, buckets, max_words)
        if ids:
            v = (table[ids] * np.asarray(ws, dtype=np.float32)[:, None]).sum(0)
            n = np.linalg.norm(v)
            out[k] = v / n if n > 0 else v
    return out


class BM25:
    def __init__(self, docs, k1=1.2, b=0.75):
        self.k1, self.b = k1, b
        self.tf = [Counter(words(d)) for d in docs]
        self.len = [sum(t.values()) for t in self.tf]
        self.avg = sum(self.len) / max(1, len(self.len))
        df = Counter(w for t in self.tf for w in t)
        n = len(docs)
        self.idf = {w: math.log(1 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}
        self.post = defaultdict(list)
        for i, t in enumerate(self.tf):
            for w, c in t.items():
                self.post[w].append((i, c))

    def scores(self, q):
        s = np.zeros(len(self.tf), dtype=np.float32)
        for w in set(words(q)):
            idf = self.idf.get(w)
            if idf is None:
                continue
            for i, c in self.post[w]:
                s[i] += idf * c * (self.k1 + 1) / (c + self.k1 * (1 - self.b + self.b * self.len[i] / self.avg))
        return s


def rank_metrics(rankings, gold):
    rr = [next((1.0 / (r + 1) for r, d in enumerate(rk[:10]) if d == g), 0.0) for rk, g in zip(rankings, gold)]
    rec = [1.0 if g in rk[:10] else 0.0 for rk, g in zip(rankings, gold)]
    return rr, rec


def bootstrap(values, n=1000, seed=0):
    rng = random.Random(seed)
    m = len(values)
    means = sorted(sum(values[rng.randrange(m)] for _ in range(m)) / m for _ in range(n))
    return sum(values) / m, means[int(0.025 * n)], means[int(0.975 * n) - 1]


def rrf(a, b, k=60, depth=100):
    s = defaultdict(float)
    for rk in (a[:depth], b[:depth]):
        for r, d in enumerate(rk):
            s[d] += 1.0 / (k + r + 1)
    return sorted(s, key=lambda d: -s[d])


def retrieval(table, vocab, buckets, queries, gold, doc_ids, docs, max_words=512):
    dv = embed(table, vocab, buckets, docs, max_words)
    qv = embed(table, vocab, buckets, queries, 64)
    sims = qv @ dv.T
    bm = BM25(docs)
    vec_r, bm_r, hyb_r = [], [], []
    for qi, q in enumerate(queries):
        v = [doc_ids[j] for j in np.argsort(-sims[qi], kind="stable")[:100]]
        bs = bm.scores(q)
        b = [doc_ids[j] for j in np.argsort(-bs, kind="stable")[:100] if bs[j] > 0]
        vec_r.append(v)
        bm_r.append(b)
        hyb_r.append(rrf(b, v))
    out = {}
    for name, rk in (("static", vec_r), ("bm25", bm_r), ("rrf", hyb_r)):
        rr, rec = rank_metrics(rk, gold)
        out[name] = {"mrr10": round(sum(rr) / len(rr), 4), "r10": round(sum(rec) / len(rec), 4)}
    return out


def cosqa(table, vocab, buckets, corpus_path, queries_path):
    corpus = [json.loads(l) for l in open(corpus_path, encoding="utf-8")]
    qs = [json.loads(l) for l in open(queries_path, encoding="utf-8")]
    return retrieval(table, vocab, buckets, [q["query"] for q in qs], [q["relevant"][0] for q in qs], [c["id"] for c in corpus], [c["code"] for c in corpus])


def heldout_eval(table, vocab, buckets, held, limit=5000):
    held = held[:limit]
    return retrieval(table, vocab, buckets, [p["doc"] for p in held], list(range(len(held))), list(range(len(held))), [p["code"] for p in held])
