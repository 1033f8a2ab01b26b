#!/usr/bin/env python3
"""Markdown that a real renderer reads as winnow meant it.

For each page, winnow's Markdown output is rendered with cmark-gfm (the
CommonMark reference implementation with GitHub's table extension) and the
structure of the HTML that yields is compared with the structure of winnow's
own HTML output of the same page: headings (level and text), list items with
text of their own (how deeply nested, ordered or not, where they begin), table
rows (their cells' text), code blocks (their exact text, a block inside <pre>
a line, as a browser shows it) and inline code (its text). Paragraphs and links are not
compared: winnow's HTML keeps block elements (<div>, <dl>) that Markdown has no
form for.

usage:
  markdown_check.py DIR            compare DIR/NAME.md with DIR/NAME.html
                                   (the goldens: tests/golden)
  markdown_check.py --winnow W PAGE.html...
                                   run W extract -f markdown and -f html on
                                   each page and compare (bench/ over corpora)
Prints each differing page with its first difference; exits 1 when any page
differs, 77 (CTest's skip) when cmark-gfm is not installed.
"""
import html.parser
import os
import shutil
import subprocess
import sys

HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
INLINE_CODE = {"code", "kbd", "samp"}  # what winnow's HTML keeps as code
LISTS = {"ul", "ol", "menu", "dir"}
BLOCKS = {"p", "div", "li", "ul", "ol", "dl", "dt", "dd", "blockquote", "section", "article", "figure", "figcaption"}
DATA_TABLE_CELL_MAX_CHARS = 1000  # the rule of that name (src/rules/rules.h)


def squash(s):
    # a zero-width space is a break opportunity: winnow's text and Markdown
    # write it as a space, its HTML keeps the character
    return " ".join(s.replace("\u200b", " ").split())


class Structure(html.parser.HTMLParser):
    """The compared events of one HTML document, in document order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.events = []
        self.lists = []  # open list tags
        self.capture = []  # [kind, text parts, extra] of open captures
        self.pre = 0
        self.row = None
        self.tables = []  # open tables: {"rows": [...], "layout": bool, "columns": bool}
        self.code_closed = False  # a code element just ended: one next to it joins it
        self.code_nest = 0  # open inline code elements: one inside another is the outer's text

    def _pre_block(self):
        # a block inside <pre> begins and ends a line, as a browser shows
        # it (a highlighter's <div> a line), unless one just began
        for c in self.capture:
            if c[0] == "pre" and c[1] and not "".join(c[1]).endswith("\n"):
                c[1].append("\n")

    def handle_starttag(self, tag, attrs):
        if tag in BLOCKS and not self.pre:
            self.handle_data(" ")  # blocks in a cell or heading: a space
        if tag in BLOCKS and self.pre:
            self._pre_block()
        joins = self.code_closed
        self.code_closed = False
        if tag in INLINE_CODE and not self.pre and self.code_nest:
            self.code_nest += 1
            return
        if tag in INLINE_CODE and not self.pre and joins and self.events and (self.events[-1] or ("",))[0] == "code":
            # adjacent code elements are one code span in Markdown
            self.capture.append(["code", [self.events.pop()[1]], None])
            self.code_nest = 1
            return
        if tag in LISTS:
            self.lists.append(tag)
        elif tag == "li":
            # an item takes its place where it begins (an item and a list
            # the page put after it, which Markdown nests under the item,
            # are in the same order); it counts when it ends and has text
            # (an empty <li> has no Markdown form)
            kind = self.lists[-1] if self.lists else "ul"
            self.events.append(None)
            self.capture.append(["li", [], (len(self.events) - 1, len(self.lists), "ol" if kind == "ol" else "ul")])
        elif tag in HEADINGS:
            self._layout()
            self.capture.append(["h" + tag[1], [], None])
        elif tag == "pre":
            self._layout()
            self.pre += 1
            if self.pre == 1:
                self.capture.append(["pre", [], None])
        elif tag in INLINE_CODE and not self.pre:
            self.capture.append(["code", [], None])
            self.code_nest = 1
        elif tag == "table":
            for t in self.tables:
                t["layout"] = True  # a table holding a table is layout
            self.tables.append({"rows": [], "layout": False, "columns": False})
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.capture.append(["cell", [], None])
        elif tag == "br":
            self.handle_data("\n" if self.pre else " ")

    def handle_endtag(self, tag):
        if tag in BLOCKS and not self.pre:
            self.handle_data(" ")
        if tag in BLOCKS and self.pre:
            self._pre_block()
        if tag in LISTS:
            if self.lists:
                self.lists.pop()
        elif tag in HEADINGS or tag in INLINE_CODE or tag in ("td", "th", "li") or tag == "pre":
            if tag in INLINE_CODE and not self.pre:
                self.code_nest = max(0, self.code_nest - 1)
                if self.code_nest:
                    return
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
                if self.pre:
                    return
            want = {"pre": "pre", "td": "cell", "th": "cell", "li": "li"}.get(tag, "code" if tag in INLINE_CODE else "h" + tag[-1])
            for k in range(len(self.capture) - 1, -1, -1):
                if self.capture[k][0] == want:
                    kind, parts, extra = self.capture.pop(k)
                    text = "".join(parts)
                    if kind == "li":
                        if squash(text):
                            self.events[extra[0]] = ("li",) + extra[1:]
                    elif kind == "cell":
                        if len(squash(text)) > DATA_TABLE_CELL_MAX_CHARS:
                            self._layout()
                        if self.row is not None:
                            self.row.append(squash(text))
                    elif kind == "pre":
                        self.events.append(("pre", text.strip("\n")))
                    elif squash(text):
                        self.events.append((kind, squash(text)))
                        self.code_closed = kind == "code"
                    break
        elif tag == "tr":
            if self.row is not None and len(self.row) > 1 and self.tables:
                self.tables[-1]["columns"] = True
            if self.row is not None and any(self.row):
                cells = list(self.row)
                while cells and not cells[-1]:
                    cells.pop()  # Markdown rows end at their last cell with text
                if self.tables:
                    self.tables[-1]["rows"].append(("row", tuple(cells)))
                else:
                    self.events.append(("row", tuple(cells)))
            self.row = None
        elif tag == "table" and self.tables:
            # rows of data tables only, as winnow's renderer decides
            # (src/output/lines.c, is_data_table): a layout table is written
            # as the blocks its cells hold
            t = self.tables.pop()
            if t["columns"] and not t["layout"]:
                self.events.extend(t["rows"])

    def _layout(self):
        for t in self.tables:
            t["layout"] = True

    def handle_data(self, data):
        if data:
            self.code_closed = False
        for c in self.capture:
            if c[0] == "code" and self.pre:
                # a <pre> inside inline code (<code><pre>) is a block of
                # code, which Markdown writes as one: its text is the block's
                continue
            if c[0] == "li" and c[2][1] != len(self.lists):
                # an item's own text, not its nested lists': an item that
                # holds only a list ("- - " in Markdown) is no item, as a
                # list the page put directly in a list has none
                continue
            c[1].append(data)


def structure(html_text):
    p = Structure()
    p.feed(html_text)
    p.close()
    return [e for e in p.events if e is not None]


def render(md, cmark):
    r = subprocess.run([cmark, "-e", "table", "--unsafe"], input=md.encode(), capture_output=True, check=True)
    return r.stdout.decode("utf-8", "replace")


def compare(name, md, html_out, cmark):
    a = structure(render(md, cmark))
    b = structure(html_out)
    if a == b:
        return None
    for k in range(max(len(a), len(b))):
        x = a[k] if k < len(a) else None
        y = b[k] if k < len(b) else None
        if x != y:
            return f"{name}: event {k}: markdown renders {x!r}, winnow's HTML has {y!r}"
    return None


def main(argv):
    cmark = shutil.which("cmark-gfm")
    if not cmark:
        print("markdown_check: cmark-gfm is not installed (apt-get install cmark-gfm)")
        return 77
    pages = []
    if argv and argv[0] == "--winnow":
        winnow = argv[1]
        for path in argv[2:]:
            outs = []
            for fmt in ("markdown", "html"):
                r = subprocess.run([winnow, "extract", "-q", "-f", fmt, path], capture_output=True)
                outs.append(r.stdout.decode("utf-8", "replace"))
            pages.append((path, outs[0], outs[1]))
    elif len(argv) == 1 and os.path.isdir(argv[0]):
        for f in sorted(os.listdir(argv[0])):
            if f.endswith(".md"):
                base = os.path.join(argv[0], f[:-3])
                if os.path.exists(base + ".html"):
                    with open(base + ".md", encoding="utf-8") as m, open(base + ".html", encoding="utf-8") as h:
                        pages.append((base, m.read(), h.read()))
    else:
        print(__doc__)
        return 2
    bad = 0
    for name, md, html_out in pages:
        why = compare(name, md, html_out, cmark)
        if why:
            bad += 1
            print("DIFFERS " + why)
    print(f"markdown_check: {len(pages)} pages, {bad} whose structures differ")
    return 1 if bad or not pages else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
