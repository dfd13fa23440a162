"""
Question-style pairs from reStructuredText documentation (Debian *-doc packages ship the Sphinx
sources as _sources/*.rst.txt): each section heading, and the sentence that introduces a code
block ("To read a file line by line, use::"), paired with the code under it. FAQ and how-to
headings read like what developers type ("How do I convert a string to a number?").
"""
import os
import re
import textwrap

UNDERLINE = re.compile(r"^([=\-~^\"'*#+`])\1{2,}\s*$")
DIRECTIVE_CODE = re.compile(r"^\s*\.\. (code-block|code|sourcecode|testcode|doctest|ipython)::")
ROLE = re.compile(r":[a-z:]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`")


def clean(text):
    text = ROLE.sub(r"\1", text)
    text = text.replace("``", "").replace("`", "").replace("*", "")
    return " ".join(text.split())


def last_sentence(par):
    par = clean(par)
    parts = re.split(r"(?<=[.!?])\s+", par)
    return parts[-1].rstrip(":").strip() if parts else ""


def doc_pairs(text, src, file):
    """(query, code) records from one .rst text."""
    lines = text.splitlines()
    out = []
    heading = None
    para = []
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < n else ""
        if line.strip() and not line.startswith(" ") and UNDERLINE.match(nxt) and len(nxt.strip()) >= len(line.strip()) - 2:
            heading = clean(line)
            para = []
            i += 2
            continue
        intro = None
        if line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            intro = " ".join(para + [line.strip()])
        elif DIRECTIVE_CODE.match(line):
            intro = " ".join(para)
        if intro is not None:
            base = len(line) - len(line.lstrip())
            j = i + 1
            block = []
            while j < n and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > base):
                if lines[j].lstrip().startswith(":") and not block:
                    j += 1  # directive options
                    continue
                block.append(lines[j])
                j += 1
            code = textwrap.dedent("\n".join(block)).strip("\n")
            if code.count("\n") >= 0 and len(code) > 20:
                qs = []
                if heading and len(heading.split()) >= 2:
                    qs.append(heading)
                s = last_sentence(intro)
                if len(s.split()) >= 3:
                    qs.append(s)
                if qs:
                    out.append({"doc": qs[0], "alts": qs[1:], "rest": "", "code": code[:3000], "name": "", "src": src, "file": file, "kind": "doc"})
            para = []
            i = j
            continue
        if line.strip():
            para.append(line.strip())
        else:
            para = []
        i += 1
    return out


def harvest_docs(roots):
    pairs = []
    for root, src in roots:
        if not os.path.isdir(root):
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for f in sorted(filenames):
                if f.endswith((".rst.txt", ".rst", ".txt")):
                    path = os.path.join(dirpath, f)
                    try:
                        with open(path, encoding="utf-8") as fh:
                            text = fh.read()
                    except (UnicodeDecodeError, OSError):
                        continue
                    pairs.extend(doc_pairs(text, src, os.path.relpath(path, root)))
    return pairs
