"""
Training step: a static embedding model (one token table; weighted sum of the rows of a text's
tokens, L2-normalised — the same as a mean pool for cosine) trained with a symmetric InfoNCE loss
over in-batch negatives. Seeds are fixed and torch runs deterministic CPU kernels, so the same
pairs and settings give the same table.
"""
import random
import time
import zlib
from collections import Counter

import numpy as np
import torch
import torch.nn.functional as F

from .queries import sample_query
from .tokenizer import encode, ngram_buckets, words


def build_vocab(pairs, size, min_count=2):
    c = Counter()
    for p in pairs:
        c.update(words(p["doc"]))
        for a in p.get("alts", []):
            c.update(words(a))
        c.update(words(p["code"])[:512])
    c.update(["python", "how", "to", "in", "get", "check", "if", "make", "calculate", "delete"])
    items = sorted((w for w, n in c.items() if n >= min_count), key=lambda w: (-c[w], w))[:size]
    return {w: i for i, w in enumerate(items)}


def heldout(p, every):
    return zlib.crc32(p["file"].encode()) % every == 0


def code_text(p, doc_part):
    """The code side as people's code looks (CodeSearchNet keeps docstrings): the function with no
    docstring, with the rest of it ("rest"), or with all of it ("full")."""
    doc = {"rest": p.get("rest", ""), "full": (p["doc"] + "\n\n" + p.get("rest", "")).strip() if p.get("kind") is None else ""}.get(doc_part, "")
    if doc:
        lines = p["code"].split("\n", 1)
        return lines[0] + '\n    """' + doc + '"""\n' + (lines[1] if len(lines) > 1 else "")
    return p["code"]


def doc_part(p, cfg):
    """Which docstring part a pair's code keeps, fixed per pair: the whole docstring in a
    `full_doc_rate` share (chosen by crc32 of the key), else the rest of it in half the pairs."""
    h = zlib.crc32(p["key"].encode())
    if (h % 1000) / 1000 < cfg.get("full_doc_rate", 0.0):
        return "full"
    return "rest" if h % 2 == 0 else "none"


def packed(encoded):
    """Flat ids/weights/offsets tensors for EmbeddingBag from a list of (ids, weights)."""
    ids, ws, offs = [], [], []
    for i, w in encoded:
        offs.append(len(ids))
        ids.extend(i)
        ws.extend(w)
    return torch.tensor(ids, dtype=torch.long), torch.tensor(ws, dtype=torch.float32), torch.tensor(offs, dtype=torch.long)


class StaticModel(torch.nn.Module):
    def __init__(self, rows, dim):
        super().__init__()
        self.table = torch.nn.EmbeddingBag(rows, dim, mode="sum")
        torch.nn.init.normal_(self.table.weight, std=0.1)

    def forward(self, ids, weights, offsets):
        return F.normalize(self.table(ids, offsets, per_sample_weights=weights), dim=-1, eps=1e-8)


def encode_query(text, vocab, buckets, rng, cfg):
    """Training-time query encoding: word dropout, and some known words sent through their
    n-grams so the fallback buckets learn to stand in for whole words (misspellings)."""
    ids, ws = [], []
    ws_words = words(text)[: cfg["max_query_words"]]
    for w in ws_words:
        if len(ws_words) > 1 and rng.random() < cfg["word_dropout"]:
            continue
        i = vocab.get(w)
        if i is not None and rng.random() >= cfg["subword_rate"]:
            ids.append(i)
            ws.append(1.0)
        elif buckets:
            g = ngram_buckets(w, buckets)
            ids.extend(len(vocab) + x for x in g)
            ws.extend([1.0 / len(g)] * len(g))
    return ids, ws


def train(pairs, cfg, log=print):
    random.seed(cfg["seed"])
    np.random.seed(cfg["seed"])
    torch.manual_seed(cfg["seed"])
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(cfg["threads"])
    # Extra kinds (comment pairs) are sampled: each epoch takes all base pairs and a fresh random
    # draw of each extra kind sized so that it makes up `kind_share[kind]` of the epoch. A kind
    # with no share is left out entirely (so share 0 reproduces a model trained without it).
    shares = {k: v for k, v in cfg.get("kind_share", {}).items() if v > 0}
    pairs = [p for p in pairs if p.get("kind") in (None, "doc") or p.get("kind") in shares]
    train_all = [p for p in pairs if not heldout(p, cfg["heldout_every"])]
    held = [p for p in pairs if heldout(p, cfg["heldout_every"])]
    train_pairs = [p for p in train_all if p.get("kind") in (None, "doc")] + [p for p in train_all if p.get("kind") in shares]
    n_base = sum(1 for p in train_pairs if p.get("kind") in (None, "doc"))
    extra = {}
    for k in sorted(shares):
        idx = [i for i, p in enumerate(train_pairs) if p.get("kind") == k]
        extra[k] = (idx, min(len(idx), round(shares[k] / max(1e-9, 1 - sum(shares.values())) * n_base)))
    vocab = build_vocab(train_pairs, cfg["vocab"])
    buckets = cfg["buckets"]
    log(f"train {n_base} pairs + {', '.join(f'{k} {m} of {len(i)} per epoch' for k, (i, m) in extra.items()) or 'no extra kinds'}, held-out {len(held)}, vocab {len(vocab)}, buckets {buckets}")
    t0 = time.time()
    codes = [encode(code_text(p, doc_part(p, cfg)), vocab, buckets, cfg["max_code_words"]) for p in train_pairs]
    log(f"encoded code in {time.time() - t0:.0f}s")
    model = StaticModel(len(vocab) + buckets, cfg["dim"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    bs = cfg["batch"]
    steps_per_epoch = (n_base + sum(m for _, m in extra.values())) // bs
    total = max(1, steps_per_epoch * cfg["epochs"]) if cfg.get("max_steps") is None else cfg["max_steps"]
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg["lr"], total_steps=total, pct_start=0.1)
    rng = random.Random(cfg["seed"])
    gen = torch.Generator().manual_seed(cfg["seed"])
    step = 0
    for epoch in range(cfg["epochs"]):
        if extra:
            pool = list(range(n_base))
            for k, (idx, m) in extra.items():
                pick = torch.randperm(len(idx), generator=gen)[:m].tolist()
                pool.extend(idx[j] for j in pick)
            order = [pool[j] for j in torch.randperm(len(pool), generator=gen).tolist()]
        else:
            order = torch.randperm(len(train_pairs), generator=gen).tolist()
        t1, tot = time.time(), 0.0
        for b in range(steps_per_epoch):
            if step >= total:
                break
            idx = order[b * bs:(b + 1) * bs]
            q = packed([encode_query(sample_query(train_pairs[i], rng, cfg["mix"]), vocab, buckets, rng, cfg) for i in idx])
            cid, cw, coff = packed([codes[i] for i in idx])
            keep = torch.rand(cid.shape[0], generator=gen) >= cfg["token_dropout"]
            cw = cw * keep
            qv = model(*q)
            cv = model(cid, cw, coff)
            logits = qv @ cv.T / cfg["temperature"]
            target = torch.arange(len(idx))
            loss = (F.cross_entropy(logits, target) + F.cross_entropy(logits.T, target)) / 2
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            tot += loss.item()
        log(f"epoch {epoch + 1}: loss {tot / max(1, steps_per_epoch):.3f} ({time.time() - t1:.0f}s)")
        if step >= total:
            break
    return model.table.weight.detach().clone(), vocab, held
