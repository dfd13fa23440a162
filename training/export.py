"""
Export step: the trained table as per-row int8 (one float32 scale per row), the vocabulary, a
config, and the tokenizer fixture the TypeScript test compares against.
"""
import hashlib
import json
import os

import numpy as np

from .tokenizer import MAX_WORD_CHARS, NGRAM, encode, words

FIXTURE_TEXTS = [
    "python check if a variable is iterable",
    "how to read a file line by line in python",
    "def getHTTPResponseCode(self, url_2):\n    return self._conn.get(url_2).status",
    "dictinaries permisions recieve seperate",  # misspellings: n-gram fallback
    "XMLHttpRequest parse_JSON v2 ABCDef ÄÖÜ émoji 🎉 tabs\tand\nnewlines",
    "",
    "!!! ### ...",
    "zzqxj qwertyuiopasdfghjklzxcvbnm1234567890qwerty",
]


def quantize(table):
    scale = np.abs(table).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.round(table / scale[:, None]), -127, 127).astype(np.int8)
    return q, scale.astype(np.float32)


def export(table, vocab, buckets, cfg, out_dir, fixture_path, model_id):
    os.makedirs(out_dir, exist_ok=True)
    q, scale = quantize(table.astype(np.float32))
    blob = q.tobytes() + scale.astype("<f4").tobytes()
    with open(os.path.join(out_dir, "table.bin"), "wb") as fh:
        fh.write(blob)
    ordered = sorted(vocab, key=vocab.get)
    with open(os.path.join(out_dir, "vocab.txt"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(ordered) + "\n")
    config = {
        "id": model_id,
        "format": "gmem-static-table/1",
        "dim": int(table.shape[1]),
        "output_dim": cfg["output_dim"],
        "rows": int(table.shape[0]),
        "vocab_size": len(vocab),
        "buckets": buckets,
        "ngram": NGRAM,
        "max_word_chars": MAX_WORD_CHARS,
        "max_words": cfg["max_code_words_inference"],
        "table": "table.bin: int8 [rows x dim] row-major, then float32 LE scale [rows]",
        "table_sha256": hashlib.sha256(blob).hexdigest(),
    }
    with open(os.path.join(out_dir, "config.json"), "w", encoding="utf-8") as fh:
        json.dump(config, fh, indent=1)
    deq = q.astype(np.float32) * scale[:, None]
    cases = []
    for t in FIXTURE_TEXTS:
        ids, ws = encode(t, vocab, buckets, config["max_words"])
        v = (deq[ids] * np.asarray(ws, dtype=np.float32)[:, None]).sum(0) if ids else np.zeros(deq.shape[1], np.float32)
        n = float(np.linalg.norm(v))
        v = v / n if n > 0 else v
        cases.append({"text": t, "words": words(t), "ids": ids, "weights": [round(w, 8) for w in ws], "vector_head": [round(float(x), 6) for x in v[:8]]})
    os.makedirs(os.path.dirname(fixture_path), exist_ok=True)
    with open(fixture_path, "w", encoding="utf-8") as fh:
        json.dump({"model_id": model_id, "generated_by": "training/export.py (Python side)", "cases": cases}, fh, indent=1, ensure_ascii=False)
    return config, deq
