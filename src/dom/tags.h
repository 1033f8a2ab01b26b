/* HTML element names winnow knows, with the layout facts the pipeline needs.
 * The parser adapter maps its own tag ids onto this table, so nothing past
 * the adapter depends on the parser library. */
#ifndef WN_TAGS_H
#define WN_TAGS_H

#include <stddef.h>
#include <stdint.h>

enum {
    WN_TF_BREAK = 1 << 0, /* starts/ends a line in text output */
    WN_TF_BLOCK = 1 << 1, /* block candidate (Kolcz & Yih's list plus HTML5 sectioning) */
    WN_TF_SKIP = 1 << 2,  /* not seen by a reader: dropped with its subtree at build */
    WN_TF_VOID = 1 << 3,
    WN_TF_HEADING = 1 << 4,
    WN_TF_LIST = 1 << 5,     /* ul, ol, dl, menu */
    WN_TF_TABLE = 1 << 6,    /* table structure tags */
    WN_TF_FORM = 1 << 7,     /* form controls */
    WN_TF_SECTION = 1 << 8,  /* HTML5 sectioning / landmark */
    WN_TF_HEADONLY = 1 << 9, /* document metadata: kept in the DOM, never shown */
    WN_TF_CODE = 1 << 10,    /* inline code: code, kbd, samp */
};

/* X(ident, "name", flags) */
#define WN_TAG_LIST(X)                                                                                                 \
    X(UNKNOWN, "unknown", 0)                                                                                           \
    X(TEXT, "#text", 0)                                                                                                \
    X(DOCUMENT, "#document", 0)                                                                                        \
    X(A, "a", 0)                                                                                                       \
    X(ABBR, "abbr", 0)                                                                                                 \
    X(ADDRESS, "address", WN_TF_BREAK)                                                                                 \
    X(AREA, "area", WN_TF_VOID)                                                                                        \
    X(ARTICLE, "article", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_SECTION)                                                   \
    X(ASIDE, "aside", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_SECTION)                                                       \
    X(AUDIO, "audio", WN_TF_SKIP)                                                                                      \
    X(B, "b", 0)                                                                                                       \
    X(BASE, "base", WN_TF_VOID)                                                                                        \
    X(BDI, "bdi", 0)                                                                                                   \
    X(BDO, "bdo", 0)                                                                                                   \
    X(BLOCKQUOTE, "blockquote", WN_TF_BREAK | WN_TF_BLOCK)                                                             \
    X(BODY, "body", WN_TF_BREAK)                                                                                       \
    X(BR, "br", WN_TF_VOID)                                                                                            \
    X(BUTTON, "button", WN_TF_FORM)                                                                                    \
    X(CANVAS, "canvas", WN_TF_SKIP)                                                                                    \
    X(CAPTION, "caption", WN_TF_BREAK | WN_TF_TABLE)                                                                   \
    X(CENTER, "center", WN_TF_BREAK | WN_TF_BLOCK)                                                                     \
    X(CITE, "cite", 0)                                                                                                 \
    X(CODE, "code", WN_TF_CODE)                                                                                        \
    X(COL, "col", WN_TF_VOID | WN_TF_TABLE)                                                                            \
    X(COLGROUP, "colgroup", WN_TF_TABLE)                                                                               \
    X(DATA, "data", 0)                                                                                                 \
    X(DATALIST, "datalist", WN_TF_SKIP)                                                                                \
    X(DD, "dd", WN_TF_BREAK | WN_TF_BLOCK)                                                                             \
    X(DEL, "del", 0)                                                                                                   \
    X(DETAILS, "details", WN_TF_BREAK | WN_TF_BLOCK)                                                                   \
    X(DFN, "dfn", 0)                                                                                                   \
    X(DIALOG, "dialog", WN_TF_BREAK | WN_TF_BLOCK)                                                                     \
    X(DIR, "dir", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_LIST)                                                              \
    X(DIV, "div", WN_TF_BREAK | WN_TF_BLOCK)                                                                           \
    X(DL, "dl", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_LIST)                                                                \
    X(DT, "dt", WN_TF_BREAK | WN_TF_BLOCK)                                                                             \
    X(EM, "em", 0)                                                                                                     \
    X(EMBED, "embed", WN_TF_VOID | WN_TF_SKIP)                                                                         \
    X(FIELDSET, "fieldset", WN_TF_BREAK | WN_TF_BLOCK)                                                                 \
    X(FIGCAPTION, "figcaption", WN_TF_BREAK | WN_TF_BLOCK)                                                             \
    X(FIGURE, "figure", WN_TF_BREAK | WN_TF_BLOCK)                                                                     \
    X(FONT, "font", 0)                                                                                                 \
    X(FOOTER, "footer", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_SECTION)                                                     \
    X(FORM, "form", WN_TF_BREAK | WN_TF_BLOCK)                                                                         \
    X(FRAME, "frame", WN_TF_VOID)                                                                                      \
    X(FRAMESET, "frameset", WN_TF_BREAK)                                                                               \
    X(H1, "h1", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_HEADING)                                                             \
    X(H2, "h2", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_HEADING)                                                             \
    X(H3, "h3", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_HEADING)                                                             \
    X(H4, "h4", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_HEADING)                                                             \
    X(H5, "h5", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_HEADING)                                                             \
    X(H6, "h6", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_HEADING)                                                             \
    X(HEAD, "head", WN_TF_HEADONLY)                                                                                    \
    X(HEADER, "header", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_SECTION)                                                     \
    X(HGROUP, "hgroup", WN_TF_BREAK | WN_TF_BLOCK)                                                                     \
    X(HR, "hr", WN_TF_BREAK | WN_TF_VOID)                                                                              \
    X(HTML, "html", WN_TF_BREAK)                                                                                       \
    X(I, "i", 0)                                                                                                       \
    X(IFRAME, "iframe", WN_TF_SKIP)                                                                                    \
    X(IMG, "img", WN_TF_VOID)                                                                                          \
    X(INPUT, "input", WN_TF_VOID | WN_TF_FORM)                                                                         \
    X(INS, "ins", 0)                                                                                                   \
    X(KBD, "kbd", WN_TF_CODE)                                                                                          \
    X(LABEL, "label", WN_TF_FORM)                                                                                      \
    X(LEGEND, "legend", WN_TF_BREAK)                                                                                   \
    X(LI, "li", WN_TF_BREAK | WN_TF_BLOCK)                                                                             \
    X(LINK, "link", WN_TF_VOID)                                                                                        \
    X(MAIN, "main", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_SECTION)                                                         \
    X(MAP, "map", 0)                                                                                                   \
    X(MARK, "mark", 0)                                                                                                 \
    X(MATH, "math", 0)                                                                                                 \
    X(MENU, "menu", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_LIST)                                                            \
    X(META, "meta", WN_TF_VOID)                                                                                        \
    X(METER, "meter", 0)                                                                                               \
    X(NAV, "nav", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_SECTION)                                                           \
    X(NOEMBED, "noembed", WN_TF_SKIP) /* raw text no current browser shows */                                          \
    X(NOFRAMES, "noframes", 0)                                                                                         \
    X(NOSCRIPT, "noscript", WN_TF_SKIP)                                                                                \
    X(OBJECT, "object", 0) /* its fallback content is what readers see today */                                        \
    X(OL, "ol", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_LIST)                                                                \
    X(OPTGROUP, "optgroup", WN_TF_FORM)                                                                                \
    X(OPTION, "option", WN_TF_FORM)                                                                                    \
    X(OUTPUT, "output", 0)                                                                                             \
    X(P, "p", WN_TF_BREAK | WN_TF_BLOCK)                                                                               \
    X(PARAM, "param", WN_TF_VOID | WN_TF_SKIP)                                                                         \
    X(PICTURE, "picture", 0)                                                                                           \
    X(PRE, "pre", WN_TF_BREAK | WN_TF_BLOCK)                                                                           \
    X(PROGRESS, "progress", 0)                                                                                         \
    X(Q, "q", 0)                                                                                                       \
    X(RP, "rp", 0)                                                                                                     \
    X(RT, "rt", 0)                                                                                                     \
    X(RUBY, "ruby", 0)                                                                                                 \
    X(S, "s", 0)                                                                                                       \
    X(SAMP, "samp", WN_TF_CODE)                                                                                        \
    X(SCRIPT, "script", WN_TF_SKIP)                                                                                    \
    X(SECTION, "section", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_SECTION)                                                   \
    X(SELECT, "select", WN_TF_FORM | WN_TF_SKIP)                                                                       \
    X(SMALL, "small", WN_TF_BLOCK)                                                                                     \
    X(SOURCE, "source", WN_TF_VOID | WN_TF_SKIP)                                                                       \
    X(SPAN, "span", 0)                                                                                                 \
    X(STRIKE, "strike", 0)                                                                                             \
    X(STRONG, "strong", 0)                                                                                             \
    X(STYLE, "style", WN_TF_SKIP)                                                                                      \
    X(SUB, "sub", 0)                                                                                                   \
    X(SUMMARY, "summary", WN_TF_BREAK | WN_TF_BLOCK)                                                                   \
    X(SUP, "sup", 0)                                                                                                   \
    X(SVG, "svg", WN_TF_SKIP)                                                                                          \
    X(TABLE, "table", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_TABLE)                                                         \
    X(TBODY, "tbody", WN_TF_BREAK | WN_TF_TABLE)                                                                       \
    X(TD, "td", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_TABLE)                                                               \
    X(TEMPLATE, "template", WN_TF_SKIP)                                                                                \
    X(TEXTAREA, "textarea", WN_TF_FORM | WN_TF_SKIP)                                                                   \
    X(TFOOT, "tfoot", WN_TF_BREAK | WN_TF_TABLE)                                                                       \
    X(TH, "th", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_TABLE)                                                               \
    X(THEAD, "thead", WN_TF_BREAK | WN_TF_TABLE)                                                                       \
    X(TIME, "time", 0)                                                                                                 \
    X(TITLE, "title", WN_TF_HEADONLY)                                                                                  \
    X(TR, "tr", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_TABLE)                                                               \
    X(TRACK, "track", WN_TF_VOID | WN_TF_SKIP)                                                                         \
    X(TT, "tt", 0)                                                                                                     \
    X(U, "u", 0)                                                                                                       \
    X(UL, "ul", WN_TF_BREAK | WN_TF_BLOCK | WN_TF_LIST)                                                                \
    X(VAR, "var", 0)                                                                                                   \
    X(VIDEO, "video", WN_TF_SKIP)                                                                                      \
    X(WBR, "wbr", WN_TF_VOID)                                                                                          \
    X(XMP, "xmp", WN_TF_BREAK)                                                                                         \
    X(PLAINTEXT, "plaintext", WN_TF_BREAK)                                                                             \
    X(LISTING, "listing", WN_TF_BREAK)

typedef enum wn_tag {
#define WN_X(id, name, flags) WN_TAG_##id,
    WN_TAG_LIST(WN_X)
#undef WN_X
        WN_TAG_COUNT
} wn_tag;

extern const char *const wn_tag_names[WN_TAG_COUNT];
extern const uint16_t wn_tag_flags[WN_TAG_COUNT];

/* Lookup by lower-case name; WN_TAG_UNKNOWN when not in the table. */
wn_tag wn_tag_lookup(const char *name, size_t len);

static inline int wn_tag_has(unsigned tag, unsigned flag)
{
    return tag < WN_TAG_COUNT && (wn_tag_flags[tag] & flag) != 0;
}

#endif
