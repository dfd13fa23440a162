"""
Comment -> code pairs: a full-line comment ("# remove duplicates while keeping order") paired with
the code it describes, from the same sources harvest_code.py walks (same exclusions). Inline
comments read like what developers type into a search box far more than docstrings do: short,
imperative, informal.

Two variants, each record with its own `kind`:
- "comment": the statement block that follows the comment at the same indentation (until a blank
  line, a dedent, or the next comment at that indentation; 1..MAX_BLOCK_LINES lines, nested lines
  included);
- "comment_fn": the whole enclosing function (≤ MAX_FN_LINES lines) minus that comment, since
  CoSQA's targets are whole functions.

Skipped: tool directives (noqa, type:, pragma, pylint:, fmt:, …), TODO/FIXME/XXX, licence and
copyright lines, encoding/shebang lines, separators, comments of < 3 words, and commented-out code
(a comment line that parses as Python and looks like code).
"""
import ast
import hashlib
import keyword
import re
import textwrap
import warnings

from .harvest_code import read_sources, walk_functions
from .tokenizer import words

MAX_BLOCK_LINES = 15
MAX_FN_LINES = 60
MAX_COMMENT_WORDS = 48
SKIP = re.compile(
    r"noqa|type:|pragma|pylint|flake8|fmt:|isort:|mypy|pyright|nosec|nocover|no cover|noinspection|"
    r"\btodo\b|\bfixme\b|\bxxx\b|\bhack\b|copyright|licen[cs]e|spdx|coding[:=]|-\*-|^!|vim:|emacs|https?:|^see\b",
    re.I,
)
CODE_CHARS = re.compile(r"[=()\[\]{}.:'\"<>+*/%@]")
KEYWORDS = set(keyword.kwlist)
STARTS_DEF = re.compile(r"^\s*(@|def\s|async\s+def\s|class\s)")


def indent_of(line):
    return len(line) - len(line.lstrip())


def comment_text(line):
    return line.strip().lstrip("#").strip()


def looks_like_code(text):
    """Commented-out code: parses as Python and has code punctuation, or starts with a keyword."""
    if not text:
        return False
    first = text.split()[0]
    if first in KEYWORDS and first not in ("if", "and", "or", "not", "in", "is", "for", "while", "with", "as"):
        return True
    if not CODE_CHARS.search(text):
        return False
    for candidate in (text, text + " pass" if text.endswith(":") else None):
        if candidate is None:
            continue
        try:
            ast.parse(candidate)
            return True
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            pass
    return False


def usable(texts):
    """The comment's query text, or None when the comment is not a description."""
    if any(SKIP.search(t) for t in texts) or any(looks_like_code(t) for t in texts):
        return None
    text = " ".join(" ".join(texts).split())
    letters = sum(ch.isalpha() for ch in text)
    if not text or letters < 0.6 * len(text):
        return None
    ws = words(text)
    if len(ws) < 3:
        return None
    if len(ws) > MAX_COMMENT_WORDS:
        return None
    return text


def string_lines(tree):
    """0-based line numbers inside multi-line string literals (a '#' there is not a comment)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Constant, ast.JoinedStr)) and getattr(node, "end_lineno", None) and node.end_lineno > node.lineno:
            out.update(range(node.lineno - 1, node.end_lineno))
    return out


def functions(tree):
    """(start0, end0 inclusive, qualified name) of every function, decorators included."""
    return [
        ((fn.decorator_list[0].lineno if fn.decorator_list else fn.lineno) - 1, fn.end_lineno - 1, prefix + fn.name)
        for fn, prefix in walk_functions(tree)
    ]


def comment_pairs(source, relpath, src):
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    lines = source.splitlines()
    n = len(lines)
    in_string = string_lines(tree)
    fns = functions(tree)
    out = []

    def enclosing(i):
        best = None
        for s, e, name in fns:
            if s <= i <= e and (best is None or s > best[0]):
                best = (s, e, name)
        return best

    i = 0
    while i < n:
        line = lines[i]
        if not line.lstrip().startswith("#") or i in in_string:
            i += 1
            continue
        ind = indent_of(line)
        j = i
        texts = []
        while j < n and lines[j].lstrip().startswith("#") and indent_of(lines[j]) == ind and j not in in_string:
            texts.append(comment_text(lines[j]))
            j += 1
        first_code = j
        i = j
        if first_code >= n or not lines[first_code].strip() or indent_of(lines[first_code]) != ind:
            continue
        if STARTS_DEF.match(lines[first_code]):
            continue  # a comment above a def/class: the docstring harvest covers functions
        text = usable(texts)
        if text is None:
            continue
        k = first_code
        while k < n and lines[k].strip():
            li = indent_of(lines[k])
            if k > first_code and (li < ind or (li == ind and lines[k].lstrip().startswith("#"))):
                break
            k += 1
        block = lines[first_code:k]
        if not (1 <= len(block) <= MAX_BLOCK_LINES):
            continue
        code = textwrap.dedent("\n".join(block)).strip("\n")
        if len(words(code)) < 2:
            continue
        fn = enclosing(first_code)
        rec = {"doc": text, "rest": "", "code": code, "name": fn[2] if fn else "", "src": src, "file": relpath, "kind": "comment"}
        if fn:
            rec["fn_full"] = textwrap.dedent("\n".join(lines[fn[0]:fn[1] + 1])).strip("\n")
            if fn[1] - fn[0] + 1 <= MAX_FN_LINES:
                fn_lines = lines[fn[0]:first_code - len(texts)] + lines[first_code:fn[1] + 1]
                rec["fn"] = textwrap.dedent("\n".join(fn_lines)).strip("\n")
        out.append(rec)
    return out


def harvest_comments(roots):
    """All comment records from the given (root, label-function) list, in a fixed order."""
    pairs = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # ast.parse of comment text ("1st pass")
        for text, rel, src in read_sources(roots):
            pairs.extend(comment_pairs(text, rel, src))
    return pairs


def shingles(ws, size=10):
    return {hashlib.sha1(" ".join(ws[i:i + size]).encode()).digest()[:8] for i in range(max(0, len(ws) - size + 1))}


def variants(recs, code_key):
    """The 'comment' (block) and 'comment_fn' (enclosing function) records of harvested comments;
    each carries `fn_key`, the code_key of its whole enclosing function (for the CoSQA check)."""
    out = []
    fn_keys = {}
    for r in recs:
        base = {k: v for k, v in r.items() if k not in ("fn", "fn_full")}
        if r.get("fn_full"):
            full = r["fn_full"]
            if full not in fn_keys:
                fn_keys[full] = code_key(full)
            base["fn_key"] = fn_keys[full]
        out.append(base)
        if r.get("fn"):
            out.append(dict(base, code=r["fn"], kind="comment_fn"))
    return out


class Containment:
    """Is a code's word sequence contained in some CoSQA snippet? (every 10-word shingle of it
    occurs in the corpus; codes under 10 words are not checked)."""

    def __init__(self, corpus_codes, size=10):
        self.size = size
        self.index = set()
        for c in corpus_codes:
            self.index |= shingles(words(c), size)

    def __call__(self, code):
        ws = words(code)
        if len(ws) < self.size:
            return False
        return shingles(ws, self.size) <= self.index


COMMENT_KINDS = ("comment", "comment_fn")
