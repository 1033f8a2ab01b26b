#!/usr/bin/env python3
"""The documentation against the tree it documents.

usage: docs_check.py SOURCE_DIR

- every function the public headers declare (include/winnow.h,
  winnow_apps.h, winnow_keywords.h: the WINNOW_API declarations) is named
  in docs/api.md;
- every relative link of README.md and docs/*.md ([text](path),
  ![alt](path), outside code) names a file or folder that exists, and a
  #fragment names a heading of the Markdown file it points into (GitHub's
  anchors: lower case, punctuation dropped, spaces as hyphens).

Prints one line per problem and "N passed, M failed"; exit status 1 when
anything failed.
"""
import glob
import os
import re
import sys

HEADERS = ["include/winnow.h", "include/winnow_apps.h", "include/winnow_keywords.h"]
DECL = re.compile(r"\bWINNOW_API\b[^;{]*?\b(winnow_[a-z0-9_]+)\s*\(", re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def public_functions(root):
    names = []
    for h in HEADERS:
        with open(os.path.join(root, h), encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)  # comments name calls too
        names += DECL.findall(text)
    return names


def prose(text):
    """text without fenced code blocks and code spans (their brackets are no links)"""
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading):
    s = re.sub(r"`", "", heading.strip().lower())
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)
    seen, out = {}, set()
    for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, re.M):
        s = slug(m.group(1))
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else "%s-%d" % (s, n))
    return out


def check_links(root, doc):
    problems = []
    path = os.path.join(root, doc)
    with open(path, encoding="utf-8") as f:
        text = prose(f.read())
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        file_part, _, fragment = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        if not os.path.exists(dest):
            problems.append("%s: link to %s: no such file" % (doc, target))
            continue
        if fragment and dest.endswith(".md") and fragment not in anchors(dest):
            problems.append("%s: link to %s: %s has no heading with anchor #%s"
                            % (doc, target, os.path.relpath(dest, root), fragment))
    return problems


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    root = sys.argv[1]
    passed = failed = 0

    with open(os.path.join(root, "docs/api.md"), encoding="utf-8") as f:
        api = f.read()
    names = public_functions(root)
    if len(names) < 50:  # the pattern lost the declarations: fail rather than check nothing
        print("FAIL: only %d public functions found in %s" % (len(names), ", ".join(HEADERS)))
        failed += 1
    for name in names:
        if re.search(r"\b%s\b" % re.escape(name), api):
            passed += 1
        else:
            print("FAIL: %s (declared in the public headers) is not named in docs/api.md" % name)
            failed += 1

    docs = ["README.md"] + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs/*.md")))
    for doc in docs:
        problems = check_links(root, doc)
        for p in problems:
            print("FAIL: " + p)
        failed += len(problems)
        passed += not problems

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
