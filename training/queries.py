"""
Turns a docstring's first sentence into the short web-search form developers type
("Return the file's extension." -> "python get file extension"), by fixed rules and a seeded RNG.
Docstrings are declarative; search queries are imperative, short and usually say "python".
"""
import re

from .tokenizer import words

LEAD = re.compile(r"^(this (function|method|helper|routine) |helper (function )?(to|that|which) |utility (function )?(to|that|which) |a function (that|which|to) |method (to|that|which) |function (to|that|which) )", re.I)
VERB_MAP = {
    "return": ["get", "return"], "returns": ["get", "return"], "gets": ["get"], "retrieve": ["get"], "retrieves": ["get"],
    "compute": ["calculate", "compute"], "computes": ["calculate", "compute"], "calculates": ["calculate"],
    "determine": ["check"], "determines": ["check"], "tests": ["check"], "test": ["check"], "checks": ["check"],
    "creates": ["create", "make"], "create": ["create", "make"], "constructs": ["create"], "builds": ["build", "create"],
    "converts": ["convert"], "transforms": ["convert"], "removes": ["remove", "delete"], "deletes": ["delete", "remove"],
    "writes": ["write"], "reads": ["read"], "loads": ["load", "read"], "saves": ["save", "write"], "sets": ["set"],
}
ARTICLES = {"the", "a", "an", "given", "specified", "provided"}
TEMPLATES = ["python {s}", "{s} python", "how to {s} in python", "how to {s} python", "{s} in python", "{s}", "python how to {s}"]


def third_person_to_base(w):
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("sses", "shes", "ches", "xes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        return w[:-1]
    return w


def first_sentence(doc):
    s = re.split(r"(?<=[.!?])\s|[;:(]", doc, maxsplit=1)[0]
    return LEAD.sub("", s.strip())


def question_form(doc, rng):
    """One web-style rewrite of a docstring's first sentence (None if nothing usable)."""
    ws = words(first_sentence(doc))
    if len(ws) < 2:
        return None
    if ws[0] in VERB_MAP:
        ws[0] = rng.choice(VERB_MAP[ws[0]])
        if ws[0] == "check" and len(ws) > 1 and ws[1] in ("whether", "that"):
            ws[1] = "if"
    else:
        ws[0] = third_person_to_base(ws[0])
    if rng.random() < 0.6:
        ws = [w for w in ws if w not in ARTICLES] or ws
    ws = ws[: rng.randint(4, 9)]
    return rng.choice(TEMPLATES).format(s=" ".join(ws))


def name_query(name):
    """'python get file extension' from 'Reader.get_file_extension' (None for one-word names)."""
    ws = words(name.split(".")[-1])
    return "python " + " ".join(ws) if len(ws) >= 2 else None


def sample_query(rec, rng, mix):
    """One query for a record. mix: probabilities (docstring, question form, name query)."""
    r = rng.random()
    if rec.get("kind") in ("comment", "comment_fn"):
        return "python " + rec["doc"] if rng.random() < 0.5 else rec["doc"]
    if rec.get("kind") == "doc":
        alts = [rec["doc"]] + rec.get("alts", [])
        q = rng.choice(alts)
        return "python " + q if rng.random() < 0.5 else q
    if r < mix[0]:
        return rec["doc"]
    if r < mix[0] + mix[1]:
        return question_form(rec["doc"], rng) or rec["doc"]
    return name_query(rec["name"]) or question_form(rec["doc"], rng) or rec["doc"]
