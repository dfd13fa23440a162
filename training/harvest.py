"""
Harvest step: docstring->function pairs (stdlib + installed Debian python3-* packages, minus the
evaluation projects) and heading/intro->code-block pairs (Debian *-doc Sphinx sources), deduplicated
on code and against the CoSQA corpus. Writes one JSON line per pair and a stats JSON.
"""
import ast
import glob
import hashlib
import json
import os
import sys

from .harvest_code import harvest, EXCLUDED
from .harvest_comments import COMMENT_KINDS, Containment, harvest_comments, variants
from .harvest_docs import harvest_docs
from .licences import allowed, licence_table
from .tokenizer import words

STDLIB = "/usr/lib/python3.11"
DIST = "/usr/lib/python3/dist-packages"
DOC_ROOTS = [
    ("/usr/share/doc/python3.11/html/_sources", "python3.11-doc"),
    ("/usr/share/doc/python-pandas-doc/html/_sources", "python-pandas-doc"),
    ("/usr/share/doc/python-sqlalchemy-doc/html/_sources", "python-sqlalchemy-doc"),
]
COSQA_CORPUS = os.environ.get("GMEM_COSQA_CORPUS", "/work/shared/eval/corpus/cosqa_corpus.jsonl")


def stdlib_label(rel):
    parts = rel.split(os.sep)
    return "stdlib-test" if any(p in ("test", "tests", "idlelib") for p in parts) else "stdlib"


def dist_label(rel):
    top = rel.split(os.sep)[0]
    return top[:-3] if top.endswith(".py") else top


def code_key(code):
    """Normalised identity of a function: its words with any docstring removed."""
    try:
        tree = ast.parse(code)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body and isinstance(node.body[0], ast.Expr) and isinstance(getattr(node.body[0], "value", None), ast.Constant) and isinstance(node.body[0].value.value, str):
                node.body[0].value.value = ""
        code = ast.unparse(tree)
    except (SyntaxError, ValueError, RecursionError):
        pass
    return hashlib.sha1(" ".join(words(code)).encode()).hexdigest()


def run(out_path, stats_path, smoke=False):
    if smoke:
        roots = [(os.path.join(STDLIB, "json"), lambda rel: "stdlib"), (os.path.join(STDLIB, "email"), lambda rel: "stdlib")]
        doc_roots = [(os.path.join(DOC_ROOTS[0][0], "faq"), DOC_ROOTS[0][1])]
    else:
        roots = [(STDLIB, stdlib_label), (DIST, dist_label)]
        doc_roots = DOC_ROOTS
    stdlib_skip = ("site-packages", "dist-packages")
    code_pairs = [p for p in harvest(roots) if not p["file"].startswith(stdlib_skip)]
    doc_pairs = harvest_docs(doc_roots)
    comment_recs = [p for p in harvest_comments(roots) if not p["file"].startswith(stdlib_skip)]
    comment_pairs = variants(comment_recs, code_key)
    raw = len(code_pairs) + len(doc_pairs) + len(comment_pairs)

    seen, unique = set(), []
    for p in code_pairs + doc_pairs + comment_pairs:
        if p.get("kind") == "doc":
            k = hashlib.sha1((p["doc"] + "\0" + p["code"]).encode()).hexdigest()
        elif p.get("kind") in COMMENT_KINDS:
            k = hashlib.sha1((p["kind"] + "\0" + " ".join(words(p["doc"])) + "\0" + code_key(p["code"])).encode()).hexdigest()
        else:
            k = code_key(p["code"])
        if k not in seen:
            seen.add(k)
            p["key"] = k
            unique.append(p)

    licences = licence_table(sorted({p["src"] for p in unique}))
    copyleft = [p for p in unique if not allowed(licences[p["src"]][1])]
    unique = [p for p in unique if allowed(licences[p["src"]][1])]

    cosqa_keys, cosqa_codes = {}, []
    if os.path.exists(COSQA_CORPUS):
        with open(COSQA_CORPUS, encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                cosqa_keys.setdefault(code_key(row["code"]), []).append(row["id"])
                cosqa_codes.append(row["code"])
    elif not smoke:
        sys.exit(f"harvest: {COSQA_CORPUS} is needed to deduplicate against CoSQA (set GMEM_COSQA_CORPUS)")
    contained = Containment(cosqa_codes)

    def overlaps(p):
        """Docstring/doc pairs: the same code_key as a CoSQA snippet. Comment pairs: their
        enclosing function has a CoSQA snippet's code_key, or the paired code's words occur
        verbatim inside a CoSQA snippet."""
        if p.get("kind") in COMMENT_KINDS:
            if p.get("fn_key") in cosqa_keys:
                return "function"
            if code_key(p["code"]) in cosqa_keys:
                return "function"
            return "contained" if contained(p["code"]) else None
        return "function" if p["key"] in cosqa_keys else None

    why = [overlaps(p) for p in unique]
    kept = [p for p, w in zip(unique, why) if w is None]
    removed = [p for p, w in zip(unique, why) if w is not None and p.get("kind") not in COMMENT_KINDS]
    removed_comments = [(p, w) for p, w in zip(unique, why) if w is not None and p.get("kind") in COMMENT_KINDS]
    for p in kept:
        p.pop("fn_key", None)

    with open(out_path, "w", encoding="utf-8") as fh:
        for p in kept:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    by_src, by_kind = {}, {}
    for p in kept:
        by_src[p["src"]] = by_src.get(p["src"], 0) + 1
        by_kind[p.get("kind") or "docstring"] = by_kind.get(p.get("kind") or "docstring", 0) + 1
    stats = {
        "raw_pairs": raw,
        "code_pairs_raw": len(code_pairs),
        "doc_pairs_raw": len(doc_pairs),
        "comment_pairs_raw": {k: sum(1 for p in comment_pairs if p["kind"] == k) for k in COMMENT_KINDS},
        "comment_cosqa_overlap_removed": {k: {w: sum(1 for p, x in removed_comments if p["kind"] == k and x == w) for w in ("function", "contained")} for k in COMMENT_KINDS},
        "comment_cosqa_overlap_examples": [p["kind"] + " " + p["src"] + ":" + p["name"] + " " + w for p, w in removed_comments[:20]],
        "after_exact_dedup": len(unique),
        "cosqa_overlap_removed": len(removed),
        "cosqa_overlap_examples": [p["src"] + ":" + p["name"] for p in removed[:20]],
        "cosqa_corpus_snippets_matched": sorted({i for p in removed for i in cosqa_keys[p["key"]]}),
        "copyleft_removed": len(copyleft),
        "copyleft_removed_by_kind": {k: sum(1 for p in copyleft if (p.get("kind") or "docstring") == k) for k in ("docstring", "doc") + COMMENT_KINDS},
        "licences": {k: {"package": v[0], "licence": v[1], "used": allowed(v[1])} for k, v in licences.items()},
        "kept": len(kept),
        "kept_by_kind": by_kind,
        "excluded_projects": sorted(EXCLUDED),
        "by_source": dict(sorted(by_src.items(), key=lambda kv: -kv[1])),
    }
    with open(stats_path, "w", encoding="utf-8") as fh:
        json.dump(stats, fh, indent=1)
    return stats
