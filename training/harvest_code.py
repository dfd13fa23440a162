"""
Docstring -> function pairs from Python sources, via `ast`.

Each record: {"doc": first docstring paragraph, "rest": the rest of the docstring, "code": the
function without its docstring, "name": qualified name, "src": top-level package, "file": path}.
Query variants (question forms, name queries) are derived at training time (queries.py), so the
harvest stays a plain, cacheable extraction.
"""
import ast
import os
import re
import textwrap

# Projects used for evaluation: their code must never be trained on (any path component).
EXCLUDED = {
    "django", "sympy", "matplotlib", "mpl_toolkits", "sklearn", "scikit_learn", "sphinx", "astropy",
    "pylint", "xarray", "flask", "requests", "seaborn", "pytest", "_pytest",
}
SKIP_DOC = re.compile(r"^(see |same as |alias |deprecated|backward[- ]compat|for internal use|todo\b|xxx\b)", re.I)
TRIVIAL = {"pass", "...", "raise NotImplementedError", "raise NotImplementedError()"}


def excluded(path):
    return any(part in EXCLUDED or part.split("-")[0] in EXCLUDED for part in path.split(os.sep))


def first_paragraph(doc):
    parts = re.split(r"\n\s*\n", doc.strip(), maxsplit=1)
    head = " ".join(parts[0].split())
    return head, (parts[1] if len(parts) > 1 else "")


def walk_functions(node, prefix=""):
    """(function node, qualified prefix such as "Class.") of every function and method under
    `node`, nested ones included, depth first in source order."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef):
            yield from walk_functions(child, prefix + child.name + ".")
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield child, prefix
            yield from walk_functions(child, prefix + child.name + ".")


def function_pairs(source, relpath, src):
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    lines = source.splitlines()

    def one(fn, prefix):
        doc = ast.get_docstring(fn)
        if not doc or not fn.body or not isinstance(fn.body[0], ast.Expr):
            return None
        head, rest = first_paragraph(doc)
        if len(head.split()) < 3 or len(head) > 400 or SKIP_DOC.match(head):
            return None
        ds = fn.body[0]
        body_nodes = fn.body[1:]
        if not body_nodes:
            return None
        start = (fn.decorator_list[0].lineno if fn.decorator_list else fn.lineno) - 1
        code_lines = lines[start:ds.lineno - 1] + lines[ds.end_lineno:fn.end_lineno]
        code = textwrap.dedent("\n".join(code_lines)).strip("\n")
        body_text = "\n".join(lines[ds.end_lineno:fn.end_lineno]).strip()
        if body_text in TRIVIAL or len(code_lines) > 200:
            return None
        return {"doc": head, "rest": rest.strip()[:1500], "code": code, "name": prefix + fn.name, "src": src, "file": relpath}

    out = []
    for fn, prefix in walk_functions(tree):
        rec = one(fn, prefix)
        if rec:
            out.append(rec)
    return out


def walk_sources(root, src_of):
    """Yields (path, relpath, src) for .py files under root, skipping evaluation projects."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not excluded(os.path.relpath(os.path.join(dirpath, d), root)))
        for f in sorted(filenames):
            if not f.endswith(".py"):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            if excluded(rel):
                continue
            yield path, rel, src_of(rel)


def read_sources(roots):
    """(text, rel, src) of every readable source file under the (root, label-function) list, in a
    fixed order; undecodable or unreadable files are skipped."""
    for root, src_of in roots:
        for path, rel, src in walk_sources(root, src_of):
            try:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
            except (UnicodeDecodeError, OSError):
                continue
            yield text, rel, src


def harvest(roots):
    """All pairs from the given {root: label-function} mapping, in a fixed order."""
    pairs = []
    for text, rel, src in read_sources(roots):
        pairs.extend(function_pairs(text, rel, src))
    return pairs
