#!/usr/bin/env python3
"""Synthetic pages of one shape for the memory benchmark (bench/memory.sh).

usage: mem_pages.py SHAPE MEGABYTES OUT.html

Shapes:
  flat    sibling <div>s, each with a short sentence, all children of <body>
  nested  runs of 400 nested <div>s (under the parser's depth cap of 512),
          a sentence at every level, then closed
  links   <a href> links, about 54 bytes each, in one <div>
  attrs   <span>s with five attributes each (class, id, data-*, title)
  text    one <p> holding a single text node of words and sentences
  spans10 <span>s with ten attributes each and no white space between them
          (issue 29: the tree builder's string pool once made this quadratic)
  oneattr one <div> with as many attributes as the size allows

The page grows until it reaches the size (10^6 bytes a megabyte); the same
arguments always give the same bytes.
"""
import sys

WORDS = ("the quick brown fox jumps over lazy dogs while seven wizards "
         "quietly judge boxing matches near old river banks").split()


def sentence(i, n=6):
    return " ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(n)) + "."


def units(shape):
    i = 0
    if shape == "flat":
        while True:
            yield "<div>Item %d: %s</div>\n" % (i, sentence(i, 3))
            i += 1
    elif shape == "nested":
        while True:
            depth = 400
            parts = []
            for d in range(depth):
                parts.append("<div>%s\n" % sentence(i + d, 2))
            parts.append("</div>" * depth + "\n")
            yield "".join(parts)
            i += depth
    elif shape == "links":
        while True:
            yield '<a href="https://example.com/p/%07d">link %d</a>\n' % (i, i)
            i += 1
    elif shape == "attrs":
        while True:
            yield ('<span class="c%d box item" id="s%d" data-kind="k%d" '
                   'data-ref="/r/%d" title="t%d">%s</span>\n' % (i % 97, i, i % 13, i, i, WORDS[i % len(WORDS)]))
            i += 1
    elif shape == "spans10":
        while True:
            yield ('<span class="c%d" id="s%d" title="t" data-a="1" data-b="2" data-c="3" data-d="4" '
                   'lang="en" dir="ltr" role="note">%s</span>' % (i % 10, i, WORDS[i % len(WORDS)]))
            i += 1
    elif shape == "oneattr":
        while True:
            yield ' a%d="%d"' % (i, i % 10)
            i += 1
    elif shape == "text":
        while True:
            yield sentence(i, 12) + " "
            i += 1
    else:
        raise SystemExit("unknown shape %r (flat, nested, links, attrs, text, spans10, oneattr)" % shape)


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    shape, mb, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    target = int(mb * 1e6)
    head = ("<!DOCTYPE html>\n<html><head><title>%s page</title></head>\n<body>\n" % shape)
    if shape == "links":
        head += "<div>\n"
    elif shape == "text":
        head += "<p>"
    elif shape == "oneattr":
        head += "<div"
    tail = {"links": "</div>\n", "text": "</p>\n", "oneattr": ">one element</div>\n"}.get(shape, "") + "</body></html>\n"
    size = len(head) + len(tail)
    chunks = [head]
    for u in units(shape):
        if size + len(u) > target:
            break
        chunks.append(u)
        size += len(u)
    chunks.append(tail)
    with open(out, "w", encoding="ascii") as f:
        f.write("".join(chunks))


if __name__ == "__main__":
    main()
