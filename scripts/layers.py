#!/usr/bin/env python3
"""Layering check of the library's source tree (make check: test layers.src).

Every folder of src/ is one node (a file directly in src/ is a node of its
own, named after it: doc.h is "doc"); the layers below list the nodes from
the bottom up. The check fails, naming what it found, when

  1. the folders' #include "..." graph has a cycle (folder A includes a
     header of B and B one of A, or a longer ring);
  2. a folder includes a header of a folder listed above it, or a folder
     is missing from the list (place a new folder before it can be used);
  3. a function wn_* declared in a header of one folder is defined in a .c
     of another: then calling it would not show as an include of the folder
     that defines it;
  4. a folder calls a public winnow_* function (declared in include/, seen
     by every file) that a folder above it defines.

Calls need declarations, so with rules 3 and 4 the include graph is also
the call graph: a layer that calls only downward includes only downward.
Includes are resolved as the compiler does for "...": the including file's
folder, then src/, then include/ (public headers, declarations only: no
node). Comments and string literals are ignored.

usage: scripts/layers.py [CHECKOUT]   check CHECKOUT (default: this one)
       scripts/layers.py --self-test  check the checker on small trees with
                                      a cycle, an upward include, an upward
                                      call and a stray declaration: each must
                                      fail, the clean tree pass
Exit status: 0 clean, 1 a rule broken, 2 usage errors.
"""
import os
import re
import sys
import tempfile

# Bottom up. A node may include and call only nodes listed before it.
LAYERS = [
    "util",      # arena, buffers, struct versions, status names, URL hosts, FNV
    "input",     # bytes in: WARC, JSON lines, files
    "decode",    # bytes -> UTF-8
    "dom",       # the tree's types and walks
    "parse",     # UTF-8 -> DOM
    "text",      # code points, character classes, case folding
    "meta",      # DOM -> title, author, date... (reads the DOM alone)
    "blocks",    # DOM -> per-node statistics, the block list
    "rules",     # the rule table and the reasons a unit was kept or left out
    "doc",       # the page record (doc.h): the stages' shared state
    "site",      # site signals, models, their store and partials; the site handle
    "score",     # page score, comment and teaser records; the site model's verdict
    "smooth",    # isotonic smoothing of the classifier's scores
    "classify",  # the node classifier
    "pagetype",  # the kind of page (reads the DOM, statistics, metadata, comment records)
    "select",    # labels -> the main content
    "confidence",  # the chance that what was kept is the main content
    "output",    # the page -> text, Markdown, HTML, JSON
    "pipeline",  # the stages in order, per page; the engine's state
    "api",       # the public facade (winnow.h)
    # above the library's core: clients of the pipeline and the facade
    "apps",      # near-duplicates, search, keywords, classification
    "report",    # winnow annotate, site --report
    "train",     # classifier training
]

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
# comments and literals, replaced by a space (strings keep their quotes so
# that #include "..." stays readable: includes are read before stripping)
STRIP = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
DECL = re.compile(r'^[A-Za-z_][\w \t*]*?\b(wn_\w+)\s*\([^;{}]*\)\s*(?:__attribute__\s*\(\(.*?\)\)\s*)?;', re.M | re.S)
DEFN = re.compile(r'^([A-Za-z_][\w \t*]*?)\b((?:wn|winnow)_\w+)\s*\([^;{}]*\)\s*\{', re.M | re.S)
PUBLIC_CALL = re.compile(r'\b(winnow_\w+)\s*\(')


def strip(text):
    return STRIP.sub(lambda m: '""' if m.group(0).startswith('"') else " ", text)


def node_of(src, path):
    rel = os.path.relpath(path, src)
    parts = rel.split(os.sep)
    return parts[0] if len(parts) > 1 else os.path.splitext(parts[0])[0]


def sources(src):
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith((".c", ".h")):
                yield os.path.join(dirpath, f)


def resolve(root, src, path, name):
    for base in (os.path.dirname(path), src, os.path.join(root, "include")):
        p = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(p):
            return p
    return None


def find_cycle(graph):
    """One cycle of the graph as a list of nodes (first == last), or None."""
    color, stack = {}, []

    def visit(n):
        color[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if color.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if not color.get(m):
                c = visit(m)
                if c:
                    return c
        stack.pop()
        color[n] = 2
        return None

    for n in sorted(graph):
        if not color.get(n):
            c = visit(n)
            if c:
                return c
    return None


def cycles(graph):
    """A cycle through each strongly connected set of nodes (more than one)."""
    reach = {}
    for n in graph:
        seen, todo = set(), [n]
        while todo:
            for m in graph.get(todo.pop(), ()):
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        reach[n] = seen
    found, done = [], set()
    for n in sorted(graph):
        if n in done or n not in reach[n]:
            continue
        scc = {m for m in reach[n] if n in reach.get(m, ())}
        done |= scc
        found.append((sorted(scc), find_cycle({a: graph[a] & scc for a in scc})))
    return found


def check(root, layers):
    """The broken rules of the tree at root, as messages."""
    src = os.path.join(root, "src")
    rank = {n: i for i, n in enumerate(layers)}
    problems = []
    graph = {}      # node -> nodes it includes or calls
    why = {}        # (a, b) -> the first file and header or function behind the edge
    declared = {}   # wn_* -> (node, header) of its declaration
    defined = {}    # wn_* / winnow_* -> (node, file) of its definition
    code = {}
    for path in sources(src):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        node = node_of(src, path)
        graph.setdefault(node, set())
        rel = os.path.relpath(path, root)
        for name in INCLUDE.findall(text):
            target = resolve(root, src, path, name)
            if not target or not target.startswith(src + os.sep):
                continue  # system and public headers
            other = node_of(src, target)
            if other != node:
                graph[node].add(other)
                why.setdefault((node, other), "%s includes %s" % (rel, os.path.relpath(target, root)))
        body = strip(text)
        code[path] = body
        if path.endswith(".h"):
            for m in DECL.finditer(body):
                declared.setdefault(m.group(1), (node, rel))
        for m in DEFN.finditer(body):
            if "static" not in m.group(1).split() and not m.group(1).strip().startswith("#"):
                defined.setdefault(m.group(2), (node, rel))
    for fn, (node, header) in sorted(declared.items()):
        if fn in defined and defined[fn][0] != node:
            problems.append("%s is declared in %s but defined in %s: a caller including the header calls into %s "
                            "unseen" % (fn, header, defined[fn][1], defined[fn][0]))
    for path, body in code.items():
        node = node_of(src, path)
        for fn in set(PUBLIC_CALL.findall(body)):
            owner = defined.get(fn)
            if owner and owner[0] != node:
                graph[node].add(owner[0])
                why.setdefault((node, owner[0]), "%s calls %s (%s)" % (os.path.relpath(path, root), fn, owner[1]))
    for scc, cycle in cycles(graph):
        steps = ["  %s -> %s: %s" % (a, b, why[(a, b)]) for a, b in zip(cycle, cycle[1:])]
        problems.append("cycle between folders %s (each of %s reaches the others):\n%s"
                        % (" -> ".join(cycle), ", ".join(scc), "\n".join(steps)))
    for node in sorted(graph):
        if node not in rank:
            problems.append("src/%s is in no layer: add it to LAYERS in scripts/layers.py, above what it uses"
                            % node)
    for a in sorted(graph):
        for b in sorted(graph[a]):
            if a in rank and b in rank and rank[b] >= rank[a]:
                problems.append("%s depends on %s, a layer at or above it: %s" % (a, b, why[(a, b)]))
    return problems


def write(root, files):
    for name, text in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


def self_test():
    """The checker on small trees: the clean one passes, each broken one fails."""
    clean = {
        "src/low/low.h": "int wn_low(void);\n",
        "src/low/low.c": '#include "low.h"\nint wn_low(void) { return 1; }\n',
        "src/high/high.h": '#include "../low/low.h"\nint wn_high(void);\n',
        "src/high/high.c": '#include "high.h"\n/* winnow_top() is not a call */\n'
                           'int wn_high(void) { return wn_low(); }\n',
        "src/top/top.c": '#include "high/high.h"\nint winnow_top(void) { return wn_high(); }\n',
    }
    layers = ["low", "high", "top"]
    # each broken tree: its changes, and words the first problem must say
    alone = "int winnow_top(void) { return 0; }\n"  # top using nothing: no cycle through it
    broken = {
        "include cycle": ({"src/low/low.c": '#include "low.h"\n#include "../high/high.h"\n'
                                            'int wn_low(void) { return 1; }\n'}, "cycle between folders"),
        "call cycle": ({"src/low/low.c": '#include "low.h"\nint wn_low(void) { return winnow_top(); }\n'},
                       "cycle between folders"),
        "upward include": ({"src/top/top.c": alone, "src/top/top.h": "int winnow_top(void);\n",
                            "src/low/extra.c": '#include "../top/top.h"\n'}, "a layer at or above it"),
        "upward public call": ({"src/top/top.c": alone,
                                "src/low/low.c": '#include "low.h"\nint wn_low(void) { return winnow_top(); }\n'},
                               "a layer at or above it"),
        "declared here, defined there": ({"src/low/low.h": "int wn_low(void);\nint wn_stray(void);\n",
                                          "src/top/stray.c": "int wn_stray(void) { return 0; }\n"},
                                         "declared in src/low/low.h but defined in src/top/stray.c"),
        "folder in no layer": ({"src/new/new.c": '#include "../low/low.h"\n'}, "src/new is in no layer"),
    }
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "clean")
        write(root, clean)
        got = check(root, layers)
        if got:
            print("self-test: the clean tree failed:\n" + "\n".join(got))
            failed += 1
        for i, (what, (change, says)) in enumerate(sorted(broken.items())):
            root = os.path.join(tmp, "broken%d" % i)
            write(root, dict(clean, **change))
            got = check(root, layers)
            if not any(says in p for p in got):
                print("self-test: a tree with an %s was not told (%s)" % (what, "; ".join(got) or "it passed"))
                failed += 1
            else:
                print("self-test: %s found: %s" % (what, next(p for p in got if says in p).splitlines()[0]))
    print("self-test: %s" % ("failed" if failed else "every broken tree failed, the clean one passed"))
    return 1 if failed else 0


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-") and argv[1] != "--self-test"):
        sys.stderr.write(__doc__)
        return 2
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    root = os.path.abspath(root)
    if not os.path.isdir(os.path.join(root, "src")):
        sys.stderr.write("layers: %s has no src/\n" % root)
        return 2
    problems = check(root, LAYERS)
    for p in problems:
        print("layers: " + p)
    if problems:
        return 1
    print("layers: %d folders, no cycle, every dependency downward" % len(LAYERS))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
