"""
The built-in reranker "gmem-rerank-linear-v1" (issue 8): a listwise-softmax linear model over three
features of a (query, chunk) pair in the hybrid pool, trained on the held-out docstring pairs of
the embedder's harvest (never on CoSQA or anything in ../shared/eval):

    coverage  share of the query's distinct non-stop words (tokenizer.words) present in the chunk's words
    fts       the chunk's full-text (BM25) score / the pool's best full-text score (0: not in the full-text arm)
    cosine    the chunk's vector-arm cosine (0: not in the vector arm)

The pool emulates the product: the RRF union of the top-30 of each arm (BM25 only for full-text
members, cosine only for vector members). The model only reorders the pool: its scores are not
probabilities. src/models/linearReranker.ts computes the same features and applies the weights.

    /usr/bin/python3 -m training.train_reranker [--model models/builtin] [--pairs training/.cache/pairs.jsonl] [--smoke]

Writes <model>/reranker.json. Deterministic (fixed seed, full-batch gradient descent).
"""
import argparse
import json
import os
import random
import sys
import time
import zlib

import numpy as np

from .evaluate import BM25, embed, rrf
from .queries import sample_query
from .tokenizer import words
from .train import code_text, heldout

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RERANKER_ID = "gmem-rerank-linear-v1"
FEATURES = ["coverage", "fts", "cosine"]
STOPWORDS = "python how to in a an the of for with is and or do i can from on by using".split()
POOL_PER_ARM = 30
RRF_K = 60
HELDOUT_EVERY = 20
QUERY_SEED = 7
QUERY_MIX = [0.3, 0.7, 0]
L2, ITERS, LR = 1e-3, 300, 0.5


def load_table(model_dir):
    cfg = json.load(open(os.path.join(model_dir, "config.json"), encoding="utf-8"))
    raw = open(os.path.join(model_dir, "table.bin"), "rb").read()
    rows, dim = cfg["rows"], cfg["dim"]
    table = np.frombuffer(raw[: rows * dim], dtype=np.int8).reshape(rows, dim).astype(np.float32) * np.frombuffer(raw[rows * dim :], dtype="<f4")[:, None]
    vocab = {w: i for i, w in enumerate(open(os.path.join(model_dir, "vocab.txt"), encoding="utf-8").read().split("\n")[:-1])}
    return cfg, table, vocab


def query_words(q):
    """The query's distinct non-stop words in order (all its words when every one is a stop word)."""
    stop = set(STOPWORDS)
    ws = list(dict.fromkeys(w for w in words(q) if w not in stop))
    return ws or list(dict.fromkeys(words(q)))


def build(queries, gold, docs, table, vocab, buckets):
    """Per query: the pool's feature matrix [n, 3] (RRF order) and the gold's index in it (-1: not in the pool)."""
    bm = BM25(docs)
    dv = embed(table, vocab, buckets, docs, 512)
    qv = embed(table, vocab, buckets, queries, 64)
    sims = qv @ dv.T
    dwords = [set(words(d)) for d in docs]
    X, Y = [], []
    for i, q in enumerate(queries):
        b, s = bm.scores(q), sims[i]
        ob = np.argsort(-b, kind="stable")[:POOL_PER_ARM]
        ob = ob[b[ob] > 0]
        ov = np.argsort(-s, kind="stable")[:POOL_PER_ARM]
        pool = rrf(ob.tolist(), ov.tolist(), k=RRF_K, depth=POOL_PER_ARM)
        inb, inv = set(ob.tolist()), set(ov.tolist())
        qw = query_words(q)
        bmax = max(b[d] for d in ob) if len(ob) else 1
        F = [[sum(1 for w in qw if w in dwords[d]) / len(qw) if qw else 0.0, b[d] / bmax if d in inb else 0.0, s[d] if d in inv else 0.0] for d in pool]
        X.append(np.array(F, dtype=np.float32))
        Y.append(pool.index(gold[i]) if gold[i] in pool else -1)
    return X, Y


def pad(X, Y):
    """Padded [q, n, f] features, mask and gold index, for the queries whose gold is in the pool."""
    keep = [(x, y) for x, y in zip(X, Y) if y >= 0]
    n = max((len(x) for x, _ in keep), default=1)
    F = np.zeros((len(keep), n, X[0].shape[1] if X else len(FEATURES)), dtype=np.float64)
    M = np.zeros((len(keep), n), dtype=bool)
    G = np.zeros(len(keep), dtype=np.int64)
    for k, (x, y) in enumerate(keep):
        F[k, : len(x)] = x
        M[k, : len(x)] = True
        G[k] = y
    return F, M, G


def fit(X, Y, iters=ITERS):
    """Listwise softmax (the gold chunk against its pool), full-batch gradient descent from zero with L2."""
    F, M, G = pad(X, Y)
    w = np.zeros(F.shape[2])
    if not len(G):
        return w
    rows = np.arange(len(G))
    for _ in range(iters):
        z = np.where(M, F @ w, -np.inf)
        z -= z.max(1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        g = (np.einsum("qn,qnf->f", p, F) - F[rows, G].sum(0)) / len(G)
        w -= LR * (g + L2 * w)
    return w


def mrr10(X, Y, score):
    """Mean reciprocal rank at 10 of the gold when the pool is ordered by `score` (ties: pool order)."""
    out = []
    for x, y in zip(X, Y):
        if y < 0:
            out.append(0.0)
            continue
        z = score(x)
        r = int((z > z[y]).sum() + (z[:y] == z[y]).sum())
        out.append(1 / (r + 1) if r < 10 else 0.0)
    return float(np.mean(out)) if out else 0.0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=os.path.join(ROOT, "models", "builtin"), help="the embedder's folder (config.json, vocab.txt, table.bin); reranker.json is written there")
    ap.add_argument("--pairs", default=os.path.join(ROOT, "training", ".cache", "pairs.jsonl"))
    ap.add_argument("--out", default=None, help="where to write reranker.json (default: the --model folder)")
    ap.add_argument("--smoke", action="store_true", help="at most 400 pairs and 50 steps (CI)")
    args = ap.parse_args(argv)
    t0 = time.time()
    random.seed(QUERY_SEED)
    np.random.seed(QUERY_SEED)
    cfg, table, vocab = load_table(args.model)
    with open(args.pairs, encoding="utf-8") as fh:
        pairs = [json.loads(l) for l in fh]
    held = [p for p in pairs if heldout(p, HELDOUT_EVERY) and p.get("kind", "fn") == "fn"]
    data = "held-out docstring->function pairs of the embedder's harvest (crc32(file) % 20 == 0, kind 'fn'); never CoSQA or ../shared/eval"
    if args.smoke:
        # The smoke harvest is tiny: it may hold few held-out files. The smoke output only checks the pipeline.
        if len(held) < 50:
            held = [p for p in pairs if p.get("kind", "fn") == "fn"]
            data = "SMOKE: the smoke harvest's docstring pairs (not held out; pipeline check only)"
        held = held[:400]
    if len(held) < 2:
        raise SystemExit(f"train_reranker: only {len(held)} held-out pairs in {args.pairs}")
    rng = random.Random(QUERY_SEED)
    queries = [sample_query(p, rng, QUERY_MIX) for p in held]
    X, Y = build(queries, list(range(len(held))), [code_text(p, "rest") for p in held], table, vocab, cfg["buckets"])
    iters = 50 if args.smoke else ITERS
    w = fit(X, Y, iters)
    rrf = lambda x: -np.arange(len(x), dtype=np.float64)  # noqa: E731  (the pool is in RRF order)
    lin = lambda x: x @ w  # noqa: E731
    # A check on files the weights never saw: fit on half the held-out files, score the other half.
    half = np.array([(zlib.crc32(p["file"].encode()) // HELDOUT_EVERY) % 2 == 0 for p in held])
    w_half = fit([x for x, h in zip(X, half) if h], [y for y, h in zip(Y, half) if h], iters)
    Xv, Yv = [x for x, h in zip(X, half) if not h], [y for y, h in zip(Y, half) if not h]
    r4 = lambda x: round(float(x), 4)  # noqa: E731
    out = {
        "id": RERANKER_ID,
        "format": "gmem-linear-reranker/1",
        "embedder": cfg["id"],
        "features": FEATURES,
        "weights": [r4(x) for x in w],
        "stopwords": STOPWORDS,
        "pool_per_arm": POOL_PER_ARM,
        "trained_on": {
            "data": data,
            "pairs": len(held),
            "queries_with_gold_in_pool": int(sum(1 for y in Y if y >= 0)),
            "query_mix": QUERY_MIX,
            "query_seed": QUERY_SEED,
            "objective": f"listwise softmax over the RRF pool (top {POOL_PER_ARM} per arm), L2 {L2}, {iters} full-batch steps, lr {LR}",
        },
        "heldout": {
            "mrr10_rrf": r4(mrr10(X, Y, rrf)),
            "mrr10_reranked": r4(mrr10(X, Y, lin)),
            "note": "in-sample for the reranker (the pairs it was fitted on; held out from the embedder)",
            "split_check": {"fit_queries": int(half.sum()), "eval_queries": len(Xv), "mrr10_rrf": r4(mrr10(Xv, Yv, rrf)), "mrr10_reranked": r4(mrr10(Xv, Yv, lambda x: x @ w_half))},
        },
    }
    out_dir = args.out or args.model
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "reranker.json"), "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    print(json.dumps({"reranker": out["id"], "embedder": out["embedder"], "weights": out["weights"], "heldout": out["heldout"], "seconds": round(time.time() - t0)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
