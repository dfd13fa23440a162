"""
Which Debian package ships each top-level module, and its licence (from /usr/share/doc/PKG/copyright),
so copyleft code (GPL, LGPL, AGPL) stays out of the training data: the model ships in the .vsix.
"""
import glob
import os
import re

COPYLEFT = re.compile(r"\b(A?GPL|LGPL)", re.I)


def module_packages(dist="/usr/lib/python3/dist-packages"):
    """{top-level name: Debian package} from dpkg's file lists."""
    out = {}
    prefix = dist + "/"
    for lst in sorted(glob.glob("/var/lib/dpkg/info/*.list")):
        pkg = os.path.basename(lst)[:-5].split(":")[0]
        with open(lst, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith(prefix):
                    top = line[len(prefix):].strip().split("/")[0]
                    if top.endswith(".py"):
                        top = top[:-3]
                    out.setdefault(top, pkg)
    return out


def package_licence(pkg):
    """The licence of the package's main files ("Files: *"), else its first License: line."""
    path = f"/usr/share/doc/{pkg}/copyright"
    if not os.path.exists(path):
        return "unknown"
    text = open(path, encoding="utf-8", errors="replace").read()
    if pkg in KNOWN:
        return KNOWN[pkg]
    m = re.search(r"^Files:\s*\*\s*\n(?:.*\n)*?License:\s*(.+)", text, re.M) or re.search(r"^License:\s*(.+)", text, re.M)
    return m.group(1).strip() if m else "unparsed"


def licence_table(sources):
    """{source label: (package, licence)} for harvested source labels."""
    pkgs = module_packages()
    table = {}
    for src in sources:
        if src in ("stdlib", "stdlib-test"):
            table[src] = ("python3.11", "PSF-2.0")
        elif src.endswith("-doc"):
            table[src] = (src, package_licence(src))
        else:
            pkg = pkgs.get(src, "unknown")
            table[src] = (pkg, package_licence(pkg) if pkg != "unknown" else "unknown")
    return table


# Copyright files whose "Files: *" stanza the regex cannot read, checked by hand.
KNOWN = {"python3-pil": "HPND", "python3-markupsafe": "BSD-3-clause"}


def allowed(licence):
    return not COPYLEFT.search(licence) and licence not in ("unknown", "unparsed")
