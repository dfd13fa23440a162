"""
One command: harvest -> train -> evaluate -> export.

    /usr/bin/python3 -m training.build            # full rebuild into models/builtin/ (~15-25 min on 2 cores)
    /usr/bin/python3 -m training.build --smoke    # tiny data, few steps, into a temp dir (~1 min)

Debian's python3 is required (python3-torch, python3-numpy). Fixed seeds; the same installed
packages give the same model.
"""
import argparse
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL_ID = "gmem-static-code-v2"

CONFIG = {
    "seed": 13,
    "threads": 1,  # one thread: as fast as two on the shared machine, and the same table on any load
    "vocab": 30000,
    "buckets": 16384,
    "dim": 256,
    "output_dim": 384,  # the store's vector width; the extra dimensions are zero (cosine unchanged)
    "batch": 512,
    "epochs": 10,
    "lr": 3e-3,
    "temperature": 0.05,
    "token_dropout": 0.1,
    "word_dropout": 0.1,
    "subword_rate": 0.05,
    "mix": [0.4, 0.4, 0.2],  # docstring / question form / name query
    "full_doc_rate": 0.0,  # code keeping its whole docstring; 0.3 was tried: no change (MODEL_CARD.md)
    "max_query_words": 64,
    "max_code_words": 256,
    "max_code_words_inference": 512,
    "heldout_every": 20,
    # comment -> following-block pairs make up 30% of each epoch (a fresh draw per epoch; train.py);
    # comment -> whole enclosing function is harvested too but not used (MODEL_CARD.md)
    "kind_share": {"comment": 0.3, "comment_fn": 0.0},
}
SMOKE = {"vocab": 2000, "buckets": 512, "dim": 32, "batch": 64, "epochs": 2, "max_steps": 8}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smoke", action="store_true", help="tiny harvest, few steps, export to a temp dir")
    ap.add_argument("--reuse-harvest", action="store_true", help="reuse training/.cache/pairs.jsonl")
    ap.add_argument("--out", default=None, help="model folder (default models/builtin, or a temp dir with --smoke)")
    ap.add_argument("--set", action="append", default=[], help="override a setting, e.g. --set epochs=10")
    ap.add_argument("--no-export", action="store_true")
    args = ap.parse_args(argv)

    import torch  # noqa: F401  (fail early with a clear message)
    from . import evaluate, export, harvest, train

    cfg = dict(CONFIG)
    if args.smoke:
        cfg.update(SMOKE)
    for kv in args.set:
        k, v = kv.split("=", 1)
        cfg[k] = json.loads(v)
    cache = os.path.join(ROOT, "training", ".cache") if not args.smoke else tempfile.mkdtemp(prefix="gmem-train-")
    os.makedirs(cache, exist_ok=True)
    pairs_path = os.path.join(cache, "pairs.jsonl")
    stats_path = os.path.join(cache, "harvest_stats.json")
    t0 = time.time()
    if not (args.reuse_harvest and os.path.exists(pairs_path)):
        stats = harvest.run(pairs_path, stats_path, smoke=args.smoke)
        print(f"harvest: {stats['kept']} pairs ({stats['raw_pairs']} raw, {stats['cosqa_overlap_removed']} CoSQA overlaps removed) in {time.time() - t0:.0f}s", flush=True)
    with open(pairs_path, encoding="utf-8") as fh:
        pairs = [json.loads(l) for l in fh]
    t1 = time.time()
    table, vocab, held = train.train(pairs, cfg, log=lambda m: print(m, flush=True))
    print(f"trained in {time.time() - t1:.0f}s", flush=True)
    out_dir = args.out or (os.path.join(cache, "model") if args.smoke else os.path.join(ROOT, "models", "builtin"))
    if args.no_export:
        out_dir = os.path.join(cache, "model")
    # The shipped model's fixture feeds the TypeScript unit test; any other export keeps its own.
    shipped = os.path.abspath(out_dir) == os.path.join(ROOT, "models", "builtin")
    fixture = os.path.join(ROOT, "test", "fixtures", "builtin", "tokenizer_cases.json") if shipped else os.path.join(out_dir, "tokenizer_cases.json")
    config, deq = export.export(table.numpy(), vocab, cfg["buckets"], cfg, out_dir, fixture, MODEL_ID)
    # Held-out figures stay on the docstring and doc-heading pairs (comparable across runs); the
    # held-out comment pairs are reported on their own.
    report = {"settings": cfg, "rows": config["rows"], "heldout": evaluate.heldout_eval(deq, vocab, cfg["buckets"], [p for p in held if p.get("kind") in (None, "doc")])}
    held_comments = [p for p in held if p.get("kind") == "comment"]
    if held_comments:
        report["heldout_comment"] = evaluate.heldout_eval(deq, vocab, cfg["buckets"], held_comments)
    corpus, dev = harvest.COSQA_CORPUS, os.path.join(os.path.dirname(os.path.dirname(harvest.COSQA_CORPUS)), "dev", "cosqa_dev.jsonl")
    if not args.smoke and os.path.exists(dev):
        report["cosqa_dev_python"] = evaluate.cosqa(deq, vocab, cfg["buckets"], corpus, dev)
    with open(os.path.join(cache, "report.json"), "w") as fh:
        json.dump(report, fh, indent=1)
    print(json.dumps({k: v for k, v in report.items() if k != "settings"}), flush=True)
    # The built-in reranker is fitted on this model's cosines (reranker.json beside it; < 1 min).
    from . import train_reranker
    train_reranker.main(["--model", out_dir, "--pairs", pairs_path] + (["--smoke"] if args.smoke else []))
    print(f"exported {out_dir} in {time.time() - t0:.0f}s total", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
