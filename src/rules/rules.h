/* The rule table: every threshold and weight of the scorer and the
 * selection, named and defaulted once, with its reason.
 *
 * Each row: NAME, default, off (the value that disables the rule, or for a
 * parameter the value that reduces it to the plain method), stage, reason.
 * Code reads a value as WN_RULE(d, NAME) from the page's table, which is
 * the engine's copy: winnow_engine_set_rule() changes it, so a test can run
 * a page with one rule off and check that its expectation then fails
 * (the `rule` lines of tests/data/pages/expected.tsv pin every row).
 *
 * A folder of its own (with why.h, the reasons), under the page record and
 * every stage: each of them reads the table, none of it reads them. */
#ifndef WN_RULES_H
#define WN_RULES_H

#include <stddef.h>

#define WN_RULES(X)                                                                                                    \
    /* page scorer (src/score/page_score.c) */                                                                         \
    X(LINK_LIST_SHARE, 0.5f, 1e30f, "score",                                                                           \
      "a unit with more than this share of its characters in links is a link list: its value is -characters (a "       \
      "heading too: a teaser's linked title)")                                                                         \
    X(LINK_PENALTY, 1.5f, 0.0f, "score",                                                                               \
      "each link character in a unit costs this many plain characters of value (links in running text are few)")       \
    X(FRAGMENT_CHARS, 30.0f, 0.0f, "score",                                                                            \
      "a unit without a stop or comma and under this many plain characters is a fragment (a label, a date, a "         \
      "button): value -FRAGMENT_PENALTY x characters")                                                                 \
    X(FRAGMENT_PENALTY, 0.25f, 0.0f, "score", "the value per character of a fragment, negated")                        \
    X(UNPUNCTUATED_CHARS, 80.0f, 0.0f, "score",                                                                        \
      "a unit without a stop or comma under this many plain characters counts UNPUNCTUATED_WEIGHT of its value")       \
    X(UNPUNCTUATED_WEIGHT, 0.5f, 1.0f, "score", "weight of a short unpunctuated unit's value")                         \
    X(HEADING_PROSE_CHARS, 200.0f, 1e30f, "score",                                                                     \
      "a heading is a title (value 0) unless it runs on for this many characters with HEADING_PROSE_MARKS stops or "   \
      "commas: a subtitle used for a whole summary")                                                                   \
    X(HEADING_PROSE_MARKS, 2.0f, 1e30f, "score", "stops and commas that make a long heading running text")             \
    X(SPECIFIC_NAME_SHARE, 0.9f, 0.0f, "score",                                                                        \
      "a name that says only comments or gallery is trusted up to this share of the running text: the comments of "    \
      "a short article can outweigh it")                                                                               \
    X(DISCUSSION_SHARE, 0.9f, 1e30f, "score",                                                                          \
      "when more than this share of the running text lies under comment (gallery) names, the page is a discussion "    \
      "(a gallery) and those names mark the content")                                                                  \
    X(COMMENT_MARKER_MAX_SHARE, 0.9f, 0.0f, "score",                                                                   \
      "siblings after an empty <a name=comments> are comments when they hold less than this share of the running "     \
      "text and running text comes before the marker")                                                                 \
    X(META_MAX_CHARS, 200.0f, 0.0f, "score",                                                                           \
      "a unit under a byline/date/tag name counts no positive value when shorter than this; a long one is body "       \
      "text")                                                                                                          \
    X(CONTENT_LANDMARK_BOOST, 1.25f, 1.0f, "score",                                                                    \
      "running text inside <article>, <main>, itemprop=articleBody or a content name counts this many times")          \
    X(SCRIPT_MIN_CHARS, 40.0f, 1e30f, "score",                                                                         \
      "script shown as text is judged on units of at least this many characters")                                      \
    X(SCRIPT_CODE_SHARE, 0.03f, 1e30f, "score",                                                                        \
      "a unit is script shown as text when braces, '=' and ';' outside <pre>/<code> exceed this share of it and it "   \
      "has SCRIPT_MIN_MARKS browser-script words, or {{placeholders}}")                                                \
    X(SCRIPT_MIN_MARKS, 2.0f, 1e30f, "score",                                                                          \
      "browser-script words (document., window., function, var, typeof) a script unit needs")                          \
    X(SCRIPT_STRONG_MARKS, 4.0f, 1e30f, "score",                                                                       \
      "a unit with this many distinct browser-script words is script at SCRIPT_CODE_SHARE / SCRIPT_STRONG_DIVISOR: "   \
      "old scripts written without semicolons and braces on every line")                                               \
    X(SCRIPT_STRONG_DIVISOR, 3.0f, 1.0f, "score",                                                                      \
      "the code share a unit with SCRIPT_STRONG_MARKS script words needs is SCRIPT_CODE_SHARE divided by this (a "     \
      "third); 1: the full share, as for any other unit")                                                              \
    X(RIGHTS_NOTICE_MAX_CHARS, 300.0f, 0.0f, "score",                                                                  \
      "a unit of at most this many characters that reserves the rights (\"All rights reserved\", \"Alle Rechte "       \
      "vorbehalten\", or opening with (c)/copyright and a year) is a legal line under the article, not its text")      \
    X(RIGHTS_YEAR_CHARS, 24.0f, 0.0f, "score",                                                                         \
      "a unit opening with (c) or copyright reserves the rights when a year begins within this many bytes after "      \
      "the sign (\"(c) 2008 AFP\", \"Copyright (c) 1998 ...\"); otherwise only a rights phrase after the "             \
      "holder's name makes it a notice")                                                                               \
    X(CREDIT_LINE_MAX_CHARS, 120.0f, 0.0f, "score",                                                                    \
      "a unit of at most this many characters opening with a credit word (\"Photo:\", \"Image via\", \"Foto:\", "      \
      "\"Bild:\") or ending with a picture agency (\"/Getty Images\", \"Shutterstock\", \"/AFP\") is a photo's "       \
      "credit written as text: left out, weightless like a caption")                                                   \
    X(CAPTION_MAX_CHARS, 400.0f, -1.0f, "score",                                                                       \
      "<figcaption> and elements named for a caption holding at most this many characters are a photo's caption, "     \
      "beside the article like a gallery (gold texts leave them out); a larger one is the story in a box with an "     \
      "image")                                                                                                         \
    X(FIGCAPTION_MAX_CHARS, 1500.0f, -1.0f, "score",                                                                   \
      "a <figcaption> (a caption by its element, not by a name) of at most this many characters is a caption: "        \
      "agency photo captions run to several sentences")                                                                \
    X(CAPTION_INLINE_SHARE, 0.5f, 0.0f, "score",                                                                       \
      "a line whose text is at least this share inline caption elements (<span class=caption> beside a credit) "       \
      "is the photo's caption as a whole")                                                                             \
    X(CAPTION_FIGURE, 1.0f, 0.0f, "score",                                                                             \
      "a <figure> holding a picture, of caption size, is the picture's caption and credit (a <cite> beside the "       \
      "<figcaption>); a figure of a quote or a code listing holds no picture")                                         \
    X(CAPTION_CREDIT, 1.0f, 0.0f, "score",                                                                             \
      "an element named for a credit (photo_credit, image-credit), of caption size, beside a picture is the "          \
      "photo's credit")                                                                                                \
    X(CAPTION_MAX_SHARE, 0.7f, 0.0f, "score",                                                                          \
      "captions are beside the article only while all of them together hold less than this share of the page's "       \
      "running text: where they carry it (a tutorial's steps under its screenshots, a photo essay) they are content")  \
    X(HEADER_SCOPED, 1.0f, 0.0f, "score",                                                                              \
      "a <header> inside a <section> is that section's header, not the site's banner (HTML-AAM; one inside "           \
      "<article> or <main> always is)")                                                                                \
    X(NAME_LAYOUT_SHARE, 0.5f, 1e30f, "score",                                                                         \
      "a boilerplate class/id name is a layout name, not a verdict, on an element holding this share of the "          \
      "page's running text, or when all the elements of its class together hold it (a wrapper on every paragraph)")    \
    X(NAME_LAYOUT_MAX_LINKS, 0.15f, 1e30f, "score",                                                                    \
      "a class repeated on wrappers is a layout name only when their text is running text, less than this share "      \
      "of it in links: repeated teasers (a headline link each) stay what their name says")                             \
    X(NAME_LAYOUT_TOKENS, 1.0f, 0.0f, "score",                                                                         \
      "a class is a layout name too when each of its tokens that names boilerplate is borne by elements holding "      \
      "that share together: a builder's widgets each carry their own id but one 'widget' token; so is an id's stem "   \
      "without its digits, on a builder's generated ids (widget_1756919659078)")                                       \
    X(FORM_MAX_PROSE, 400.0f, 1e30f, "score",                                                                          \
      "a <form> is a search, login or comment form (boilerplate) unless it holds this much running text (value, "      \
      "about characters): then it wraps the page, as ASP.NET's one form around every page does")                       \
    X(TABLIST_MAX_PROSE, 400.0f, 1e30f, "score",                                                                       \
      "an element with role=tablist is a strip of tab labels (navigation) unless it holds this much running text "     \
      "(value, about characters): then it wraps its panels, an accordion of questions and answers")                    \
    X(OVERLAY_HOLDS_TITLE, 1.0f, 0.0f, "score",                                                                        \
      "an overlay name (modal, popup, dialog) on an element holding the page's title heading is the frame of an "      \
      "article shown in a modal, not a cookie or newsletter box (1: on, 0: off)")                                      \
    X(OVERLAY_SPECIFIC, 1.0f, 0.0f, "score",                                                                           \
      "an overlay name (pop-over, modal, sign-up) on an element that leaves the page's title heading outside it "      \
      "is trusted like a comment name, up to SPECIFIC_NAME_SHARE of the running text: a registration box with "        \
      "pages of terms is no layout wrapper (1: on, 0: off)")                                                           \
    X(OVERLAY_DECLARED, 1.0f, 0.0f, "score",                                                                           \
      "a dialog its markup declares (<dialog>, role=dialog or alertdialog, aria-modal=true) is trusted boilerplate "   \
      "however much running text it holds, unless it holds the page's title heading: a privacy policy waiting in "     \
      "the footer outweighs a product's description (1: on, 0: off)")                                                  \
    X(NAV_DECLARED, 1.0f, 0.0f, "score",                                                                               \
      "a <nav> is trusted boilerplate however much running text it holds, unless it holds the page's title "           \
      "heading: a shop's mega-menu of category words outweighs its product (1: on, 0: off)")                           \
    X(NAME_SETTING_WORDS, 1.0f, 0.0f, "score",                                                                         \
      "a boilerplate word followed in one class word by a word of alignment or placement (align, aligned, "            \
      "alignment, position) names a setting of some part, not the part: a page builder's accordion of "                \
      "\"pane-header-alignment-left\" is no page header, a theme's \"sidebar-position-left\" box no sidebar "          \
      "(1: on, 0: off)")                                                                                               \
    X(ID_ANCHOR_WORDS, 4.0f, 1e30f, "score",                                                                           \
      "an id of this many words or more is an anchor made from a heading (\"sharing-with-a-single-developer\"), "      \
      "not a layout name: it gives no hints (src/blocks/hints.c, fed by the pipeline)")                                \
    /* node classifier (src/classify/apply.c) */                                                                       \
    X(CLASSIFIER_WEIGHT, 0.25f, 0.0f, "classify",                                                                      \
      "how far the smoothed node classifier moves a unit's value towards +characters (content) or -characters "        \
      "(template): 0.25 and 0.35 do best on the corpora, 0.5 and above lose on l3s-gn1 and readability")               \
    X(SMOOTH_PENALTY, 0.01f, 0.0f, "classify",                                                                         \
      "the isotonic smoothing's penalty scale (the paper's 0.01): a node's score may differ from its parent's at a "   \
      "cost of this times the page's characters over the node's; 0: no penalty, each node keeps its own score")        \
    X(SMOOTH_MIN_AREA, 20.0f, 0.0f, "classify",                                                                        \
      "elements of fewer characters (about a line) are folded into their parent for the smoothing, as the paper "      \
      "folds boxes under 2000 square pixels; 0: every element is smoothed on its own")                                 \
    /* comment records told by structure (src/score/records.c): a record's signs */                                    \
    X(COMMENT_LINE_CHARS, 100.0f, 0.0f, "records",                                                                     \
      "a record's header or footer line (an author, a date, 'Reply') holds at most this many characters; a date "      \
      "is looked for in such lines, and longer units are the record's body")                                           \
    X(COMMENT_AUTHOR_CHARS, 40.0f, 0.0f, "records",                                                                    \
      "an author's name is an element of its own of at most this many characters, without digits or a stop")           \
    X(COMMENT_AUTHOR_WORDS, 4.0f, 0.0f, "records", "an author's name has one to this many words")                      \
    X(COMMENT_AUTHOR_ELEMENTS, 2.0f, 1e30f, "records",                                                                 \
      "an author's name is an element of its own: it holds at most this many elements, itself counted (a name in "     \
      "a <b> in a link); a line with more inside it (a place after two icons) is no name")                             \
    X(COMMENT_HEADLINE_WORDS, 4.0f, 1e30f, "records",                                                                  \
      "a record with a heading, or a link filling most of its line, of more than this many words is a story with "     \
      "its headline (a teaser, a live blog's entry), not a comment")                                                   \
    X(COMMENT_HEADING_LINK, 1.0f, 0.0f, "records",                                                                     \
      "a record whose heading is mostly a link to another page of the site (not to a place on the page) is a "         \
      "story's teaser under its title, however few its words, not a comment")                                          \
    X(COMMENT_HEADLINE_LINK_SHARE, 0.5f, 1e30f, "records",                                                             \
      "a link holding at least this share of its line's characters (or of its heading's) is the line: a headline "     \
      "of COMMENT_HEADLINE_WORDS, or a heading that links another page (COMMENT_HEADING_LINK); a link inside a "       \
      "comment's sentence is not")                                                                                     \
    X(COMMENT_MARKER_CHARS, 60.0f, 0.0f, "records",                                                                    \
      "a line of at most this many characters saying comments or replies ('12 comments', 'Leave a reply') just "       \
      "before a run heads a thread: then one sign besides a date or a reply link makes a record a comment")            \
    X(COMMENT_MARKER_LINES, 6.0f, 0.0f, "records",                                                                     \
      "a comments line (COMMENT_MARKER_CHARS) heads a run when it is among this many lines just before it (under "     \
      "the run's parent, or before the parent): a 'Leave a reply' box further up heads nothing")                       \
    X(COMMENT_LINK_CHARS, 40.0f, 0.0f, "records",                                                                      \
      "a reply link ('Reply', 'Quote') or a permalink (a link to #id) holds at most this many characters")             \
    /* comment records told by structure (src/score/records.c): the run */                                             \
    X(COMMENT_MIN_RECORDS, 3.0f, 1e30f, "records",                                                                     \
      "sibling elements of one shape (tag and class tokens, or child tags) that make a run of records: two alike "     \
      "siblings are too common (a figure pair, two columns)")                                                          \
    X(COMMENT_HEADER_SHARE, 0.6f, 1e30f, "records",                                                                    \
      "share of a run's records that look like comments (a short line with a date or a reply link, and a second "      \
      "sign: an author, an avatar, a permalink; one sign after a 'N comments' heading)")                               \
    X(COMMENT_MIN_LINES, 2.0f, 1.0f, "records",                                                                        \
      "lines (units with text of their own) a record needs to look like a comment: a header or footer line and a "     \
      "body; a one-line record with a date and an anchor is a changelog's entry")                                      \
    X(COMMENT_MIN_SIGNS, 2.0f, 1.0f, "records",                                                                        \
      "signs (a date, a reply link, an author, an avatar, a permalink) a record with a date or a reply link needs "    \
      "to look like a comment without a comments line before the run: a date alone is a dated list's item")            \
    X(COMMENT_MAX_LINKS, 0.35f, 0.0f, "records",                                                                       \
      "a run of records with more than this share of its text in links is a teaser or link list, not comments")        \
    X(COMMENT_POST_RATIO, 1.0f, 1e30f, "records",                                                                      \
      "running text before a run, as a multiple of its median record, that makes the run comments under a post; "      \
      "a forum thread (the first post opens the run, no longer text before it) stays content")                         \
    X(COMMENT_MIN_POST, 150.0f, 1e30f, "records",                                                                      \
      "least running text before a run (about 25 words) for it to be comments under a post")                           \
    X(COMMENT_MAX_RECORD, 2.0f, 1e30f, "records",                                                                      \
      "a run whose largest record holds more than this multiple of the post's running text is a set of layout "        \
      "sections (one of them holds the article), not comments")                                                        \
    X(COMMENT_MAX_AFTER, 0.5f, 1e30f, "records",                                                                       \
      "comments close the text: a run followed by more running text than this share of the post's is quotes or "       \
      "embedded posts inside the article")                                                                             \
    X(POSTS_MICRODATA, 1.0f, 0.0f, "records",                                                                          \
      "a thread page's posts are the items its schema.org microdata marks as postings, comments, questions and "       \
      "answers, with their own text, author and date properties, when it marks two or more (1: on, 0: off)")           \
    X(POSTS_MIN_RECORDS, 2.0f, 1e30f, "records",                                                                       \
      "without microdata, a thread page's posts are a run of at least this many sibling records of one shape "         \
      "showing an author and a date (as comments are read)")                                                           \
    X(POSTS_MIN_SHARE, 0.15f, 1e30f, "records",                                                                        \
      "the run of post records found by structure holds at least this share of the page's running text (not a "        \
      "list of latest posts beside the thread)")                                                                       \
    X(POSTS_INNER_SHARE, 0.5f, 1e30f, "records",                                                                       \
      "a run of post records inside a record of the run found holding this share of its running text is the "          \
      "thread (the page's header, thread and footer are no posts); a post's quotes hold less")                         \
    /* teaser records told by structure (src/score/records.c) */                                                       \
    X(TEASER_MIN_RECORDS, 3.0f, 1e30f, "records",                                                                      \
      "records of one shape (or pairs: <dt>/<dd>, heading/paragraph) that make a run of teasers")                      \
    X(TEASER_SHARE, 0.6f, 1e30f, "records",                                                                            \
      "share of a run's records that open with a headline link over a short summary: a list of other stories")         \
    X(TEASER_HEADLINE_WORDS, 3.0f, 1e30f, "records",                                                                   \
      "words of a teaser's headline link (fewer: a name, a 'More' link)")                                              \
    X(TEASER_LINK_LINE_SHARE, 0.5f, 0.0f, "records",                                                                   \
      "a teaser's headline link holds at least this share of its line's characters: a link that opens a sentence "     \
      "('Chapter 1 - gives an overview') is the text's own")                                                           \
    X(TEASER_CARD_WORDS, 1.0f, 1e30f, "records",                                                                       \
      "words of a teaser's headline link under a picture that links the same page (a card: a product's or a "          \
      "recipe's name over its summary); other headlines need TEASER_HEADLINE_WORDS")                                   \
    X(TEASER_CARD_SHARE, 0.6f, 1e30f, "records",                                                                       \
      "share of a teaser run's records that are cards (a picture and a headline linking one other page over a "        \
      "summary): such a run is a list of other pages wherever it stands, without the TEASER_NEAR_TEXT test")           \
    X(TEASER_MIN_SUMMARY, 40.0f, 1e30f, "records",                                                                     \
      "least unlinked characters under a teaser's headline (a sentence of summary)")                                   \
    X(TEASER_MAX_SUMMARY, 400.0f, 0.0f, "records",                                                                     \
      "most unlinked characters under a teaser's headline: longer records are sections or posts, not teasers")         \
    X(TEASER_MIN_EXCERPT, 150.0f, 1e30f, "records",                                                                    \
      "least characters of an excerpt's passage: a shorter line ending '...' is a list item's 'and more'")             \
    X(TEASER_MAX_EXCERPT, 1200.0f, 0.0f, "records",                                                                    \
      "most characters of an excerpt (a record whose one passage ends cut short with an ellipsis, beside a link or "   \
      "a picture): a run of such records is a list of other posts")                                                    \
    X(TEASER_EXCERPT_SHARE, 0.4f, 1e30f, "records",                                                                    \
      "share of a run's records that are excerpts cut short that makes it a list of other posts (the others are "      \
      "posts short enough to be shown whole)")                                                                         \
    X(TEASER_EXCERPT_POST_RATIO, 1.0f, 1e30f, "records",                                                               \
      "running text beside a run of excerpts, as a multiple of its median record, that makes it a list beside a "      \
      "post (excerpts say what they are: a lower bar than TEASER_POST_RATIO, and no TEASER_NEAR_TEXT test)")           \
    X(TEASER_NEAR_TEXT, 1.0f, 0.0f, "records",                                                                         \
      "running text beside a teaser run under its parent and grandparent, as a multiple of its median record: "        \
      "a run among an article's paragraphs (a 'See also' list) is the article's own text")                             \
    X(TEASER_POST_RATIO, 3.0f, 1e30f, "records",                                                                       \
      "running text beside a teaser run, as a multiple of its median record, that makes the run teasers beside "       \
      "an article")                                                                                                    \
    /* selection (src/select: the strategies and passes) */                                                            \
    X(SELECT_DECAY, 0.8f, 1.0f, "select",                                                                              \
      "weight of a unit's value per level above it when blocks are summed: 0.7-0.9 do well on the corpora; 1.0 "       \
      "(a plain subtree sum) takes in teaser lists, 0.5 loses deeply wrapped articles")                                \
    X(KEEP_FRAGMENT_MAX_LINKS, 0.5f, -1.0f, "select",                                                                  \
      "inside the content block a unit without running text (a subheading, a cell, a caption) stays unless more "      \
      "than this share of it is links")                                                                                \
    X(ONE_LINK_PLAIN_CHARS, 15.0f, 1e30f, "select",                                                                    \
      "inside the content block a unit that is a sentence (it ends with a stop, or its link shows an address: a "      \
      "URL, a mail address) around a single link stays, though mostly link, when this many of its characters "         \
      "are not the link's: one link is no link list")                                                                  \
    X(TABLE_CELL_MAX_LINKS, 0.5f, -1.0f, "select",                                                                     \
      "inside the content block a table cell that is a link (a film title, an infobox value) stays when no more "      \
      "than this share of its table's text is links: a table is data, not a menu")                                     \
    X(JOIN_SHARE, 0.2f, 1e30f, "select",                                                                               \
      "a sibling of the best block scoring this share of its score joins it (an article split by an ad or figure)")    \
    X(JOIN_MIN_VALUE, 40.0f, 1e30f, "select", "the least score with which a sibling joins the best block")             \
    X(THREAD_MIN_RECORDS, 2.0f, 1e30f, "select",                                                                       \
      "a best block inside one of at least this many sibling records of one shape, most opening with a short "         \
      "line that dates it (a post's author and date), with less running text before them than in the first, is "       \
      "one post of a forum thread: the thread's posts are kept, all of them")                                          \
    X(TRAILING_PARAGRAPH, 1.0f, 0.0f, "select",                                                                        \
      "a <p> of running text ending a sentence right after a content block of three or more kept <p>s joins it: "      \
      "the HTML5 parser moves a last unclosed <p> out of a <font> that held the story (2000s markup)")                 \
    X(CODE_BLOCK_PROSE, 40.0f, 0.0f, "select",                                                                         \
      "a code sample (<pre>, <code>, a highlighter's wrapper) found as the best block yields to the nearest "          \
      "ancestor, up to four levels, holding this much running-text value beside it (about eight words): the post "     \
      "around its code, whose short paragraphs and lists score under the sample")                                      \
    X(JOIN_SECTIONS, 1.0f, 0.0f, "select",                                                                             \
      "when no sibling joins, an article split into sections each wrapped more than once (the best block is the "      \
      "inner wrapper of one; the outer wrappers add nothing but links) is joined at the sections' level: siblings of " \
      "the same tag and class as its outermost "                                                                       \
      "wrapper scoring JOIN_MIN_VALUE join (1: on, 0: off)")                                                           \
    X(REGION_MIN_CONFIDENCE, 0.3f, 1e30f, "select",                                                                    \
      "a page the page type stage calls a thread, a product, a listing, a landing page or documentation with at "      \
      "least this probability is selected as a page made of parts (the region strategy, select/region.c); below it, "  \
      "or for an article, as an article")                                                                              \
    X(REGION_ARTICLE_SHARE, 0.7f, 2.0f, "select",                                                                      \
      "region strategy: when the article strategy's block holds this share of the region's running-text value and "    \
      "REGION_ARTICLE_CHARS of the characters the region would keep, the page is an article after all and nothing "    \
      "is added (its other boxes are the site's)")                                                                     \
    X(REGION_ARTICLE_CHARS, 0.2f, 2.0f, "select",                                                                      \
      "the share of the characters the region would keep (the block's and the parts') that the article strategy's "    \
      "block must hold to make the page an article after all: a shop's intro over its cards does not")                 \
    X(REGION_MIN_CARDS, 3.0f, 1e30f, "select",                                                                         \
      "region strategy (a page made of parts): links are kept as part of a card, a record with this many siblings "    \
      "of its shape that says more than its link (an item's name over its price); a menu's items do not")              \
    X(REGION_CARD_WORDS, 6.0f, 1e30f, "select",                                                                        \
      "region strategy: a record all of whose text is links is a card when it holds this many words (a shop's "        \
      "linked item: its name, rating and price), not a menu's item of a word or two")                                  \
    X(REGION_DROP_COMMENTS, 1.0f, 0.0f, "select",                                                                      \
      "region strategy: on any page but a thread, reader comments (by name or after a comments marker), bylines and "  \
      "tags are no part (1: on, 0: off)")                                                                              \
    X(REGION_SKIP_DIALOGS, 1.0f, 0.0f, "select",                                                                       \
      "region strategy: a dialog (<dialog>, role=dialog, aria-modal=true) waits to be opened and is no part of the "   \
      "page's content (1: on, 0: off)")                                                                                \
    X(REGION_CARD_FIRST_CLASS, 1.0f, 0.0f, "select",                                                                   \
      "cards are siblings of one tag and one first class token, not one whole class list (a shop's cards add each "    \
      "item's id, category and stock: product post-15859 instock); not on a thread, whose posts are no cards")         \
    X(REGION_CARD_LEVELS, 8.0f, 0.0f, "select", "how many levels above a unit of links its card may be")               \
    X(REGION_CARD_WRAPPERS, 1.0f, 0.0f, "select",                                                                      \
      "region strategy: a level up from a unit of links counts toward REGION_CARD_LEVELS only where its parent holds " \
      "text beside it, so a card whose link sits inside a dozen wrappers is still found (1: on, 0: every level "       \
      "counts)")                                                                                                       \
    X(PRODUCT_NAME_SHARE, 0.8f, 2.0f, "select",                                                                        \
      "product strategy (select/product.c): the <h1> naming the JSON-LD Product carries this share of its name's "     \
      "words (else the first <h1> is the name)")                                                                       \
    X(PRODUCT_DESC_SHARE, 0.6f, 2.0f, "select",                                                                        \
      "product strategy: the unit that is the product's description quotes this share of the first 24 words of the "   \
      "JSON-LD Product's (or the page's) description; without it and the name the region strategy's selection stays")  \
    X(PRODUCT_SECTION_PROSE, 150.0f, 0.0f, "select",                                                                   \
      "product strategy: around the element holding the product's name and description, a section with this much "     \
      "running text (characters) is the product's (its description, its features); one without, and without "          \
      "specifications, is the shop's (a gallery's controls, other products, delivery and returns)")                    \
    X(PRODUCT_SPEC_ROWS, 3.0f, 1e30f, "select",                                                                        \
      "product strategy: a section with this many key/value rows (a table's rows of two cells, a definition list's "   \
      "terms) is the product's specifications")                                                                        \
    X(PRODUCT_RUN_MIN, 3.0f, 1e30f, "select",                                                                          \
      "product strategy: a run of this many sibling records of one shape is a list: reviews when PRODUCT_RUN_SHARE "   \
      "of them show a date, other products when as many are cards (PRODUCT_CARD_WORDS); either is left out")           \
    X(PRODUCT_RUN_SHARE, 0.6f, 2.0f, "select",                                                                         \
      "product strategy: the share of a run's records that must be dated (reviews) or cards (other products)")         \
    X(PRODUCT_REVIEW_NAMES, 1.0f, 0.0f, "select",                                                                      \
      "product strategy: an element whose class or id has the word review or reviews (a shop's reviews, its rating "   \
      "summary) is left out, unless it holds the <h1> (1: on, 0: off)")                                                \
    X(PRODUCT_CARD_WORDS, 40.0f, 0.0f, "select",                                                                       \
      "product strategy: a record with a link, a picture and at most this many words is another product's card")       \
    X(SECTIONS_MIN, 3.0f, 0.0f, "select",                                                                              \
      "when no sibling joins, a best block that is (or lies in) one of this many sibling sections of one shape, each " \
      "opening with a heading (a manual page's DESCRIPTION, OPTIONS, HOOKS), keeps the others holding running text")   \
    X(SECTIONS_LEVELS, 3.0f, 0.0f, "select", "how many levels above the best block its headed section may be")         \
    X(JOIN_WRAPPER_SHARE, 0.2f, 1e30f, "select",                                                                       \
      "when no sibling or section joins and the best block's outer wrappers add no text, a sibling of the outermost "  \
      "wrapper lying past one or more elements without text (an embedded player or frame, an ad slot) joins, "         \
      "whatever its class, when it scores this share of the wrapper's score (and JOIN_MIN_VALUE): an article body "    \
      "split by an embed. A box right beside the body (a bio, a note) does not")                                       \
    X(TABLE_WHOLE, 1.0f, 0.0f, "select",                                                                               \
      "a data table's body (or head or foot) found as the best block comes with its whole table: the caption and "     \
      "the header row name the columns of its data (1: on, 0: off)")                                                   \
    X(TABLE_LEAD, 1.0f, 0.0f, "select",                                                                                \
      "when the content block is a data table (a caption or header cells) or its body, the table's siblings before "   \
      "it scoring JOIN_MIN_VALUE join: the introduction of a list article, which the table outscores many times, "     \
      "so that few or none join at JOIN_SHARE (1: on, 0: off)")                                                        \
    X(TABLE_HEADER_NAME, 1.0f, 0.0f, "select",                                                                         \
      "inside a kept data table a header cell (<th>) whose only boilerplate name is a header's ('headerSort' of a "    \
      "sortable table) is the column's header, kept (1: on, 0: off)")                                                  \
    X(MAIN_SECTIONS, 1.0f, 0.0f, "select",                                                                             \
      "when the content block is a <section> of <main>, a sibling <section> whose only boilerplate is its own "        \
      "related name ('more-features') joins when it is running text scoring before hints JOIN_SHARE of the block's "   \
      "(and JOIN_MIN_VALUE) and no heading of it is a link (teasers): <main> says it is main content (1: on, 0: off)") \
    X(STRADDLE_MIN_CHARS, 40.0f, 1e30f, "select",                                                                      \
      "text inside the content block whose unit begins above it (an inline run: a dateline, then the story's first "   \
      "sentences in a <span> that holds the paragraphs) is kept with the block when it is this many characters "       \
      "(a sentence; less: a dateline or a byline) and that unit is not a link list")                                   \
    X(TITLE_WORD_SHARE, 0.8f, 2.0f, "select",                                                                          \
      "a unit is the headline when this share of its words are the <title>'s and they cover TITLE_COVER of it "        \
      "(or it is a heading carrying 3 or more of them)")                                                               \
    X(TITLE_COVER, 0.5f, 2.0f, "select", "share of the <title>'s words a headline must carry")                         \
    X(HEADLINE_LINK_BOX, 1.0f, 0.0f, "select",                                                                         \
      "before the content block a unit that is mostly links inside a <nav> or the page's own <header> (the "           \
      "site's name linking its home page) is no headline however well it matches <title>; one linking the page "       \
      "itself is")                                                                                                     \
    X(TITLE_PART_COVER, 0.8f, 0.0f, "select",                                                                          \
      "a heading (<h1>-<h3>, a title name) of two or more words covering this share of one part of the <title> "       \
      "(its parts split by spaced separators: 'Il forno - Diario di Valle') is the headline, though the site's "       \
      "part makes it short of TITLE_COVER of the whole")                                                               \
    X(HEADLINE_NOT_CAPTION, 1.0f, 0.0f, "select",                                                                      \
      "a photo's caption (in a <figcaption> or <figure>) or a byline ('by ...', in the byline words of "               \
      "BYLINE_MAX_WORDS) is never the headline, however well its words match <title> (a recipe's picture "             \
      "captioned with its name, a book's authors named in its title)")                                                 \
    X(TITLE_DECLARED, 1.0f, 0.0f, "select",                                                                            \
      "a unit whose words are the page's declared title (og:title, JSON-LD headline) as TITLE_WORD_SHARE and "         \
      "TITLE_COVER say is title-like too, when that title has words the <title> lacks (a <title> naming only "         \
      "the site on every page)")                                                                                       \
    X(TITLE_BREADCRUMB, 1.0f, 0.0f, "select",                                                                          \
      "a breadcrumb trail (a closing guillemet or angle with no opening one, a spaced '>') is never the headline: "    \
      "its words are the <title>'s site and section part")                                                             \
    X(TITLE_MIN_CHARS, 4.0f, 8.0f, "select",                                                                           \
      "least characters (not counting spaces) of a headline of two or more words (\"PhD life\", \"Über uns\"); "      \
      "a one-word unit must be a part of a title written without spaces")                                              \
    X(HEADLINE_INSIDE_TEXT, 200.0f, 1e30f, "select",                                                                   \
      "a unit inside the content block matching the <title> is its headline only before this many characters of "      \
      "kept running text; after them it is a section's heading repeating the title when an <h1> before the block "     \
      "matches the title too, and that <h1> is the headline")                                                          \
    X(INLINE_HEADLINE_GAP, 300.0f, -1.0f, "select",                                                                    \
      "an inline element (<font><b>Headline</b></font><br>) of a unit that holds more text (a line with the byline, "  \
      "or the unit around the content block) is the headline when its words are the title's and at most this many "    \
      "characters of text lie between it and the block; its own text is kept, not the unit's")                         \
    X(NEAR_HEADLINE_LINES, 12.0f, 0.0f, "select",                                                                      \
      "when no line matches the <title> (it names the site or a section), the headline is looked for among this "      \
      "many lines before the content block: the nearest short line, not a link, a caption or a closed sentence, "      \
      "sharing NEAR_HEADLINE_SHARED word stems (and a third of its own) with the block's first lines")                 \
    X(NEAR_HEADLINE_SHARED, 2.0f, 1e9f, "select",                                                                      \
      "word stems (words of four letters or more, by their first five) a line before the content block shares "        \
      "with its first lines to be its headline: a story's lead repeats its headline's words, a section name's not")    \
    X(END_HEADING_ORPHAN, 1.0f, 0.0f, "select",                                                                        \
      "a heading closing the block's kept text, of the size END_LABEL_ORPHAN takes, with nothing kept after it is "    \
      "a section of nothing (its list or thread left out, or empty): it goes, as a closing colon label does")          \
    X(LIST_LABEL_MAX_CHARS, 60.0f, 0.0f, "select",                                                                     \
      "a kept line of at most this many characters, without a stop and not itself links, whose next element with "     \
      "text is a list of links left out whole, is that list's label ('TODAY'S HOT TOPICS', 'More from ...'): it "      \
      "goes with the list")                                                                                            \
    X(AD_LABEL_MAX_WORDS, 4.0f, 0.0f, "select",                                                                        \
      "a kept line inside the content block of at most this many words, without a stop or a link and holding no "      \
      "other unit, is an ad slot's label ('Advertisement', 'Story continues below') and dropped when AD_LABEL_SLOT "   \
      "or AD_LABEL_WORDS finds it one")                                                                                \
    X(AD_LABEL_SLOT, 1.0f, 0.0f, "select",                                                                             \
      "an ad label's structural evidence: its box (the line and its wrappers holding no other text) holds an "         \
      "element without text named for an ad, where the ad goes, or is itself named so or aria-hidden; not for a "      \
      "heading (1: on, 0: off)")                                                                                       \
    X(AD_LABEL_WORDS, 1.0f, 0.0f, "select",                                                                            \
      "an ad label's words: the line is one of a small multilingual table of ad labels (ad_labels in drop_end.c: "     \
      "advertisement, story continues below, anzeige, werbung, publicidad, advertentie, reklama, annons, and the "     \
      "same in French, Italian, Russian, Japanese, Korean and Chinese), for slots a script fills leaving nothing in "  \
      "the page (1: on, 0: off)")                                                                                      \
    X(LINE_GUTTER, 1.0f, 0.0f, "select",                                                                               \
      "a table cell of line numbers (1, 2, ... N, one a line) beside a cell of code in the same row is a code "        \
      "highlighter's gutter, no text of the page")                                                                     \
    X(END_PLUG_MAX_CHARS, 300.0f, 0.0f, "select",                                                                      \
      "the last lines kept in the content block (up to three) of at most this many characters with links to "          \
      "social network profiles are plugs (follow us, follow the author), dropped; a link to one post (a quoted "       \
      "tweet), a hashtag or a group makes no plug")                                                                    \
    X(END_PLUG_LINK_SHARE, 0.15f, 0.0f, "select",                                                                      \
      "share of an end plug's characters in its links to profiles: a closing paragraph with a short linked "           \
      "name in it is the story's")                                                                                     \
    X(END_LIST_MIN_ITEMS, 3.0f, 0.0f, "select",                                                                        \
      "a short label line closing the block's kept text followed by at least this many short lines, each "             \
      "END_LIST_LINK_SHARE links, is a related-stories list inside the article's element: dropped with its label")     \
    X(END_LIST_MAX_CHARS, 200.0f, 0.0f, "select", "most characters of an end list's line (a headline, a teaser)")      \
    X(END_LIST_LINK_SHARE, 0.3f, 1e30f, "select",                                                                      \
      "least share of an end list line's characters in links (WIRED links half of each headline)")                     \
    X(END_LIST_LABEL_CHARS, 60.0f, 0.0f, "select",                                                                     \
      "most characters of an end list's label: a line without links or a stop (\"More stories\", \"Read on:\")")       \
    X(END_LIST_LABEL_WORDS, 6.0f, 0.0f, "select",                                                                      \
      "most words of an end list's label: a sentence introducing a list (\"The modules of this chapter are:\") is "    \
      "text")                                                                                                          \
    X(END_LABEL_ORPHAN, 1.0f, 0.0f, "select",                                                                          \
      "an end list's label (a short line without links or a stop) ending in a colon and closing the block's kept "     \
      "text with no list kept after it (\"Related:\", \"More about:\") introduces nothing: dropped")                   \
    X(DATELINE_MAX_CHARS, 80.0f, 0.0f, "select",                                                                       \
      "a line of at most this many characters with a number and a date or time, at the top of the content block "      \
      "before its first sentence, is a dateline (\"Published 10:02 AM EST Nov 19, 2019\"), not the article's text")    \
    X(DATELINE_OTHER_WORDS, 6.0f, -1.0f, "select",                                                                     \
      "a dateline has at most this many words of four or more letters that are not part of its date "                  \
      "(\"Published\", \"Last updated\", a byline's name and title); headings and sentences are never datelines")      \
    X(DATELINE_TOP_LINES, 4.0f, 0.0f, "select",                                                                        \
      "datelines are looked for among this many first lines of the content block (a list of dated items further "      \
      "down, a changelog or a user list, is the text)")                                                                \
    X(DATELINE_MAX_LINES, 2.0f, 0.0f, "select",                                                                        \
      "most datelines dropped at the top of a content block (a date, a time)")                                         \
    X(BYLINE_MAX_WORDS, 8.0f, 0.0f, "select",                                                                          \
      "a line at the top of the content block that opens with a byline word (by, von, par, por, di, door) followed "   \
      "by at most this many words, not a sentence, is a byline: left out with the datelines")                          \
    X(STANDFIRST_MIN_VALUE, 100.0f, 1e30f, "select",                                                                   \
      "running text between an outside headline and the content block (a standfirst, a video description) worth "      \
      "this much value (about 20 words) is kept; not captions, not among links")                                       \
    X(STANDFIRST_HEADINGS, 1.0f, 0.0f, "select",                                                                       \
      "a heading (not a link) between the headline and the content block whose next line was kept as standfirst "      \
      "is that text's heading: a listicle's item titles above its gallery (1: on, 0: off)")                            \
    X(LONE_MIN_VALUE, 300.0f, 1e30f, "select",                                                                         \
      "site mode: a paragraph outside the content block that no other page of the site has is kept when worth "        \
      "this much value (about 200 characters of running text after the unique bonus)")                                 \
    X(LONE_MAX_LINK_DENSITY, 0.15f, 0.0f, "select",                                                                    \
      "standfirsts and lone paragraphs are kept only when their parent has less than this share of link text")         \
    /* the precision/recall dial (src/select/favor.c): neutral here; the favor presets set them */                     \
    X(FAVOR_TRIM_EDGES, 0.0f, 0.0f, "select",                                                                          \
      "favor precision (1: on): units that are not running text, or mostly links, before the first and after the "     \
      "last kept running text are left out (headings before it stay)")                                                 \
    X(FAVOR_WIDEN_LEVELS, 0.0f, 0.0f, "select",                                                                        \
      "favor recall: the content block widens by this many ancestors, every keepable unit there kept")                 \
    X(FAVOR_RUNNING_MIN_VALUE, 1e30f, 1e30f, "select",                                                                 \
      "favor recall: running text anywhere outside boilerplate worth this much value is kept")                         \
    /* the learned unit decision (src/select/units.c) */                                                               \
    X(UNIT_MODEL, 1.0f, 0.0f, "select",                                                                                \
      "the learned unit decision runs when the engine has a units model (1: on, 0: off, the rules' decision stands)")  \
    X(UNIT_KEEP_MIN, 0.4f, 0.0f, "select",                                                                             \
      "the learned unit decision: a unit the rules kept stays when the units model's probability that it is main "     \
      "content is at least this")                                                                                      \
    X(UNIT_ADD_MIN, 0.7f, 1.01f, "select",                                                                             \
      "the learned unit decision: a unit the rules left out comes in when the units model's probability is at "        \
      "least this")                                                                                                    \
    X(UNIT_MAX_DROP, 0.1f, 1e30f, "select",                                                                            \
      "the learned unit decision drops nothing on a page where the units it would drop hold more than this share "     \
      "of the words the rules kept (a model that disowns the page's text is not believed)")                            \
    X(UNIT_MAX_DROP_THREAD, 0.3f, 0.0f, "select",                                                                      \
      "the same share on a page read as a thread, when larger: its drops are many small lines (votes, badges, "        \
      "signatures, one under each post), not the text of the page")                                                    \
    X(UNIT_MAX_ADD, 1.0f, 1e30f, "select",                                                                             \
      "the learned unit decision adds nothing on a page where the units it would add hold more than this share of "    \
      "the words the rules kept")                                                                                      \
    X(ANCHOR_SHARE, 0.2f, 0.0f, "select",                                                                              \
      "the best block inside the headline's article (the region around the title-matching heading holding no other "   \
      "headline of its rank) replaces a best block outside it, or one holding other articles too, when it scores "     \
      "at least this share of it: the next article of an endless page or a teaser list loses to the page's own")       \
    X(ANCHOR_PEER_MIN_WORDS, 4.0f, 1e9f, "select",                                                                     \
      "a heading of the headline's tag is another article's headline when it has at least this many words "            \
      "(a one-word widget title is not)")                                                                              \
    X(LISTING_MIN_TEASERS, 3.0f, 0.0f, "select",                                                                       \
      "a page showing at least this many teasers (a heading of TEASER_HEADLINE_WORDS linking to another page over "    \
      "a summary of TEASER_MIN_SUMMARY..TEASER_MAX_SUMMARY characters) whose content block is one of them, its "       \
      "summary alone, is a listing page: no main content (a section front, a tag page), not one story's teaser")       \
    X(REPEAT_MIN_CHARS, 100.0f, 0.0f, "select",                                                                        \
      "an element of at least this many characters and two kept lines or more, kept whole, whose text is the text of " \
      "an element kept earlier (not around it) is left out: a responsive page renders a section once per screen "      \
      "size and its style sheet shows one (0: off)")                                                                   \
    X(QUOTE_SEEN_MIN_CHARS, 40.0f, 0.0f, "select",                                                                     \
      "on a thread, a quote (<blockquote>, <aside>) of at least this many characters whose kept lines are in the "     \
      "page's text before it, all but an attribution of COMMENT_LINE_CHARS, is left out: a reply quoting part of an "  \
      "earlier post (0: off)")                                                                                         \
    X(REPEAT_QUOTE_UNITS, 1.0f, 0.0f, "select",                                                                        \
      "on a thread or a product's page, a copy of REPEAT_MIN_CHARS characters or more goes even when it is one "       \
      "line: a reply quoting a one-paragraph post whole; a quote (<blockquote>, <aside>) that holds nothing else "     \
      "but an attribution of COMMENT_LINE_CHARS goes whole (1: on, 0: off: two lines or more, as elsewhere)")          \
    X(REGION_LANDING_PROMOS, 1.0f, 0.0f, "select",                                                                     \
      "on a landing page (typed service) the region strategy keeps parts named for promotion (promo, banner, "         \
      "sponsor: an ad's names): there they are the company's own offers, and an ad slot holds no text "                \
      "(1: on, 0: off)")                                                                                               \
    X(REGION_MARKED_CARDS, 1.0f, 0.0f, "select",                                                                       \
      "region strategy: a record the markup marks as one item (an <article>, or a link that holds a heading or "       \
      "two units of text: a teaser's linked title, date and summary) is a card however few its siblings, when it "     \
      "says more than its link, holds no best block, the region has no record's cards and such items hold more "       \
      "than half of what it keeps; a tag page of one post keeps the post (1: on, 0: off: REGION_MIN_CARDS siblings)")  \
    X(REGION_ITEM_HEADERS, 1.0f, 0.0f, "select",                                                                       \
      "region strategy: a name of header or footer inside an <article> of the region, or a <section> holding "         \
      "less than FRAME_MAX_SHARE of the page's text, names that item's header (a teaser's title in its "               \
      "\"post-header\"), not the page's frame, unless the item itself lies in a header or footer (1: on, 0: off)")     \
    X(PARTS_THIN_SHARE, 0.05f, 0.0f, "select",                                                                         \
      "an article selection keeping less than this share of the page's visible text is tried again by the region "     \
      "strategy (the page's parts: a listing's cards, a landing page's sections) and that one is kept when it keeps "  \
      "PARTS_GAIN times as much")                                                                                      \
    X(PARTS_GAIN, 3.0f, 1e30f, "select",                                                                               \
      "the parts replace a thin article selection when they keep this many times its characters")                      \
    X(PARTS_UNSURE_SHARE, 0.2f, 0.0f, "select",                                                                        \
      "PARTS_THIN_SHARE on a page the type stage is unsure is an article (PARTS_UNSURE_CONF): a landing page or a "    \
      "listing the type model half took for an article is tried as a page of parts more readily (0: as any article)")  \
    X(PARTS_UNSURE_LINKS, 0.25f, 1e30f, "select",                                                                      \
      "parts found past PARTS_THIN_SHARE (on an unsure article) are not kept when more than this share of what they "  \
      "add is link text and the article's selection holds PARTS_STORY_CHARS: the teasers around a news story")         \
    X(PARTS_STORY_CHARS, 1000.0f, 1e30f, "select",                                                                     \
      "characters of an unsure article's selection that make it a story the teasers of PARTS_UNSURE_LINKS do not "     \
      "replace (a listing's introduction or one card holds fewer)")                                                    \
    X(PARTS_UNSURE_CONF, 0.5f, 0.0f, "select",                                                                         \
      "an article of this probability or less, or a page of another kind below REGION_MIN_CONFIDENCE, is one the "     \
      "type "                                                                                                          \
      "stage is unsure of (PARTS_UNSURE_SHARE)")                                                                       \
    X(PARTS_MIN_CHARS, 500.0f, 0.0f, "select",                                                                         \
      "and when they keep this many characters: an article whose body a script loads, its headline left, is no "       \
      "page of parts for the few teasers around it")                                                                   \
    X(SELF_LINK_HEADING, 1.0f, 0.0f, "select",                                                                         \
      "a heading that is one link to the page itself or to a place on it (the page's URL path, rel=bookmark, "         \
      "#anchor; not the site's root) is a heading, not a link away: inside the content it stays, and it can be "       \
      "the page's headline and title heading (a permalinked post title, a section heading linking its anchor)")        \
    X(FRAME_MAX_SHARE, 0.5f, 0.0f, "select",                                                                           \
      "a block inside the page's own <header> or <footer> (role banner or contentinfo; not an <article>'s or "         \
      "<main>'s) is never the content block while that landmark holds less than this share of the page's text: "       \
      "the site's tagline, bio or license line is no page's content; with no block elsewhere, no main content")        \
    X(FRAME_SECTION_SCOPE, 1.0f, 0.0f, "select",                                                                       \
      "a <header> or <footer> inside a <section>, <aside> or <nav> holding less than FRAME_MAX_SHARE of the "          \
      "page's text, and not itself inside the page's header or footer, is that part's (HTML5 scopes it to its "        \
      "nearest sectioning element, as an article's), not the page's own: a shop's cards that put each product's "      \
      "name and price in a <header> are no frame (1: on, 0: off: only <article> and <main> scope them)")               \
    /* fallback (src/select/fallback.c) */                                                                             \
    X(FALLBACK_WEAK_SHARE, 0.15f, 0.0f, "fallback",                                                                    \
      "a selection is weak when it keeps less than this share of the running text of the best block found "            \
      "without hints: a hint sank the article and a bio, a caption or the headline alone was left")                    \
    X(FALLBACK_MIN_PROSE, 200.0f, 1e30f, "fallback",                                                                   \
      "characters (not counting spaces: about 40 words) of running text a page must have in one block before an "      \
      "empty or tiny selection is second-guessed, and that a fallback candidate must keep")                            \
    X(FALLBACK_SKIP_DIALOGS, 1.0f, 0.0f, "fallback",                                                                   \
      "no candidate lies in a dialog (<dialog>, role=dialog, aria-modal=true) and its text is no running text of a "   \
      "candidate: a privacy policy waiting in the footer is no product's text (1: on, 0: off)")                        \
    X(FALLBACK_GAIN, 3.0f, 1e30f, "fallback",                                                                          \
      "a fallback candidate replaces the selection only when it keeps this many times its running text")               \
    X(FALLBACK_INNER_TRUST, 0.5f, 0.0f, "fallback",                                                                    \
      "inside a fallback block a boilerplate name is trusted on elements holding less than this share of the "         \
      "block's running text (never the kind of name that sank the block)")                                             \
    X(FALLBACK_DESC_MIN_WORDS, 6.0f, 1e30f, "fallback",                                                                \
      "a page description shorter than this many words is no evidence of where the article is")                        \
    X(FALLBACK_DESC_SHARE, 0.6f, 2.0f, "fallback",                                                                     \
      "the paragraph the description quotes holds at least this share of its first 24 words")                          \
    /* the selection's named shares and sizes (src/select, src/score/headline.c, src/score/links.h) */                 \
    X(LINKS_MOSTLY_SHARE, 0.5f, 1e30f, "select",                                                                       \
      "a line, box or paragraph with more than this share of its characters in links is mostly links (a "              \
      "navigation bar's label, a list's item, no headline, no post of a thread); off, nothing is")                     \
    X(TITLE_MAX_CHARS, 300.0f, 1e30f, "select",                                                                        \
      "most characters of a title-like unit: a longer one repeating the <title>'s words is a paragraph (a "            \
      "standfirst the site put in its <title> after the headline), not the headline")                                  \
    X(CODE_BLOCK_SHARE, 0.8f, 1e30f, "select",                                                                         \
      "a block is a code sample when at least this share of its text is in <code> or a <pre> of code: a "              \
      "highlighter's wrapper, its gutter of line numbers a fifth at most (CODE_BLOCK_PROSE, LINE_GUTTER)")             \
    X(PRE_CHARS_PER_SYMBOL, 200.0f, 0.0f, "select",                                                                    \
      "a <pre> is code when it has a brace or an '=' glued to code for every this many characters (a wire story "      \
      "set in <pre> has none); off, only a <code> inside makes it code")                                               \
    X(HEADLINE_ASIDE_IMAGE_CHARS, 400.0f, 0.0f, "select",                                                              \
      "a box with a picture holding less than this many characters is a photo's caption or a teaser: no line "         \
      "in it is the headline NEAR_HEADLINE_LINES looks for")                                                           \
    X(LEAD_CHARS, 1500.0f, 1e30f, "select",                                                                            \
      "characters of the content block's first lines (about 250 words) whose word stems a headline found by "          \
      "NEAR_HEADLINE_SHARED shares: a headline's words come back in the lead, not further down")                       \
    X(NEAR_HEADLINE_MAX_CHARS, 200.0f, 1e30f, "select",                                                                \
      "most characters of a headline looked for by NEAR_HEADLINE_LINES (a longer line is a paragraph)")                \
    X(NEAR_HEADLINE_MAX_WORDS, 25.0f, 1e30f, "select",                                                                 \
      "most words of a headline looked for by NEAR_HEADLINE_LINES (a longer line is a sentence)")                      \
    X(HEADLINE_LINES_BEFORE, 60.0f, 0.0f, "select",                                                                    \
      "the headline matching the <title> is looked for among this many units before the content block (a share "       \
      "bar, a sidebar or an ad may come between); further up is the page's top, the site's name")                      \
    X(H1_HEADLINE_MAX_CHARS, 400.0f, 1e30f, "select",                                                                  \
      "with no unit matching the <title>, the last <h1> before the content block is its headline when it holds "       \
      "at most this many characters (a longer <h1> wraps a page's text, not a title)")                                 \
    X(HEADLINE_INSIDE_UNITS, 8.0f, 0.0f, "select",                                                                     \
      "the headline is looked for among the content block's first this many kept units before the lines above it "     \
      "(a headline the site model took for template, as other pages link to it)")                                      \
    X(TITLE_MAX_WORDS, 40.0f, 1e30f, "select",                                                                         \
      "most words of a title-like unit: a longer one is running text that happens to use the <title>'s words")         \
    X(TITLE_HEADING_WORDS, 3.0f, 1e30f, "select",                                                                      \
      "a heading (<h1>-<h3>, a title name) carrying this many of the <title>'s words, all but a few of its own, is "   \
      "the headline short of TITLE_COVER: the <title> adds a long subtitle or section name")                           \
    X(HEADLINE_MIN_CHARS, 10.0f, 0.0f, "select",                                                                       \
      "least characters of a headline found without the <title> (the last <h1>, a line NEAR_HEADLINE_LINES finds): "   \
      "a shorter one is a label or a site's initials")                                                                 \
    X(HEADLINE_ABOVE_LINES, 6.0f, 0.0f, "select",                                                                      \
      "lines above a headline found by NEAR_HEADLINE_LINES whose running text (STANDFIRST_MIN_VALUE) makes it a "      \
      "section's heading inside a longer text (a manual, a report), not the headline")                                 \
    X(CODE_BLOCK_LEVELS, 4.0f, 0.0f, "select",                                                                         \
      "levels above a code sample (its highlighter's wrappers not counted) where CODE_BLOCK_PROSE looks for the "      \
      "post around it")                                                                                                \
    X(THREAD_MAX_LEVELS, 5.0f, 0.0f, "select",                                                                         \
      "levels from the best block up (itself first) where THREAD_MIN_RECORDS looks for the record of a forum "         \
      "thread's post it lies in")                                                                                      \
    X(END_PLUG_MAX_LINES, 3.0f, 0.0f, "select",                                                                        \
      "most end plugs (END_PLUG_MAX_CHARS) dropped from the end of the content block, the last first")                 \
    X(DATELINE_WHOLE_RATIO, 2.0f, 1e30f, "select",                                                                     \
      "a line at the top of the content block is read as a dateline with the short lines inside it (a byline over "    \
      "its date) up to this multiple of DATELINE_MAX_CHARS; a longer one by its own text alone (loose date spans "     \
      "at the top of the story's element)")                                                                            \
    X(TITLE_PART_PARTS, 3.0f, 1e30f, "select",                                                                         \
      "a unit of one \"word\" (CJK text has no spaces) is title-like when it is a part of the <title> making up at "   \
      "least one in this many of its bytes: a shorter part is the site's or a section's name")                         \
    /* output (src/output/lines.c) */                                                                                  \
    X(DATA_TABLE_CELL_MAX_CHARS, 1000.0f, 1e30f, "output",                                                             \
      "a table with a cell of more than this many characters is a layout table (a page set in a table), its "          \
      "cells written as the blocks they hold; a data table is written row by row, its cells on one line")              \
    X(INLINE_SIBLING_SPACE, 1.0f, 0.0f, "output",                                                                      \
      "an inline element written flush against an element sibling before it, both with a class and the two "           \
      "classes different (a field's name and its value), is set apart by a space where letters or digits meet: "       \
      "\"Number of Pages240 Pages\" reads \"Number of Pages 240 Pages\" (1: on, 0: off)")                              \
    /* site model (src/score/site_score.c) */                                                                          \
    X(SITE_TEMPLATE_PERCENT, 10.0f, 1e30f, "site",                                                                     \
      "a block or a text chunk found on at least this percent of the site's other pages (and on SITE_MIN_PAGES of "    \
      "them) is the site's template")                                                                                  \
    X(SITE_MIN_PAGES, 2.0f, 1.0f, "site",                                                                              \
      "template text is on at least this many other pages (in aged counts half a page less; with fewer other "         \
      "pages, on all of them): one other page sharing a paragraph (a follow-up story's background) is no template")    \
    X(SITE_UNIQUE_BOOST, 1.5f, 1.0f, "site",                                                                           \
      "running text that no other page of the site has counts this many times its value")                              \
    X(SITE_BOX_MIN_UNITS, 3.0f, 1e30f, "site",                                                                         \
      "a box of at least this many text units that is SITE_BOX_TEMPLATE_SHARE template is template as a whole, "       \
      "its changing items too (a 'most popular' list under a fixed heading)")                                          \
    X(SITE_BOX_TEMPLATE_SHARE, 0.3f, 1e30f, "site",                                                                    \
      "share of a box's text that is the site's template for the whole box to be template")                            \
    X(SITE_BOX_MAX_SHARE, 0.5f, 1e30f, "site",                                                                         \
      "a box holding this share of the page's running text (not template) is the article, whatever recurs in it")      \
    /* status (src/pipeline/pipeline.c) */                                                                             \
    X(THIN_PAGE_CHARS, 500.0f, 1e30f, "status",                                                                        \
      "a page with more than this many characters of visible text whose main content is only its headline and at "     \
      "most THIN_MAX_WORDS words, the rest left out, is WINNOW_THIN_MAIN, with a warning: never an article cut to "    \
      "its headline that looks like success")                                                                          \
    X(THIN_MAX_WORDS, 20.0f, -1.0f, "status",                                                                          \
      "main content of at most this many words besides its headline (a line, a sentence: a byline, a date, a "         \
      "label) is thin; a CJK character counts half a word, as a CJK word is two characters or so")                     \
    /* parse (src/parse/copy.c, fed by the pipeline) */                                                                \
    X(MERGED_LINK_SHARE, 0.5f, 1e30f, "parse",                                                                         \
      "past the node budget, text merged into one node is link text when more than this share of it was in links: "    \
      "a page of a million links stays a link list")                                                                   \
    X(NOSCRIPT_MAX_TEXT, 1000.0f, 0.0f, "parse",                                                                       \
      "a page showing fewer than this many characters of text (not white space) is parsed again with the markup of "   \
      "its body's <noscript> elements built, when they hold NOSCRIPT_MIN_RATIO times its text: a page a script "       \
      "renders, its content kept for readers without scripts (a forum thread, a product grid)")                        \
    X(NOSCRIPT_MIN_RATIO, 2.0f, 1e30f, "parse",                                                                        \
      "the <noscript> text a page needs, as a multiple of the text it shows, to be parsed again with it built")        \
    X(LD_BODY_MAX_TEXT, 1000.0f, 0.0f, "parse",                                                                        \
      "a page showing fewer than this many characters of text (not white space) is parsed again from its JSON-LD "     \
      "article (its headline and articleBody, a paragraph a line) when the articleBody holds LD_BODY_MIN_RATIO "       \
      "times its text: a page a script renders, its text given to search engines")                                     \
    X(LD_BODY_MIN_RATIO, 2.0f, 1e30f, "parse",                                                                         \
      "the articleBody text a page needs, as a multiple of the text it shows, to be parsed again from it")             \
    X(UNREAD_TEXT, 1.0f, 0.0f, "parse",                                                                                \
      "text no reader reads there is hidden: a <span> repeating the text just before it (after that text itself, or "  \
      "beside an aria-hidden copy: a shop's price or title printed once for the eye and once for screen readers), "    \
      "and a UUID alone in a span beside one-letter spans (a label spelled out between hidden identifiers); "          \
      "not in code (1: on, 0: off)")                                                                                   \
    X(HIDDEN_MAX_TEXT, 1000.0f, 0.0f, "parse",                                                                         \
      "a page showing fewer than this many characters of text (not white space) and hiding elements in a way "         \
      "scripts undo (the hidden attribute, visibility:hidden) is parsed again with them shown: React streams a "       \
      "server-rendered page's content into <div hidden>, Next.js hides its wrapper until the styles load")             \
    X(HIDDEN_MIN_RATIO, 5.0f, 1e30f, "parse",                                                                          \
      "that parse is kept when it shows this multiple of the text the page showed, else the page is parsed as it was") \
    X(DISPLAY_MIN_KEPT, 200.0f, 0.0f, "parse",                                                                         \
      "a page of visible text whose extraction kept less than this many characters and that hides elements with "      \
      "display:none is extracted again with them shown, and that extraction is kept when it keeps this many "          \
      "characters: a shop or news page whose main part a script shows once it has loaded (0: never again)")            \
    X(HIDDEN_TABPANEL, 1.0f, 0.0f, "parse",                                                                            \
      "a tab's panel (role=\"tabpanel\") hidden by the hidden attribute or display:none is built all the same: "       \
      "its content is a click away, whichever tab the markup shows first (code samples per language, a product's "     \
      "specifications) (1: on, 0: off)")                                                                               \
    X(HIDDEN_CLOSED, 1.0f, 0.0f, "parse",                                                                              \
      "a <dialog> without the open attribute and an element with the popover attribute are hidden, as a browser's "    \
      "own style sheet hides them until a script or a click opens them (a sign-up modal, a notification prompt) "      \
      "(1: on, 0: off)")                                                                                               \
    X(HIDDEN_CONTROLLED, 1.0f, 0.0f, "parse",                                                                          \
      "an element hidden by the hidden attribute or display:none whose id an earlier element with aria-expanded "      \
      "names in aria-controls is built all the same: an accordion's panel, a FAQ's answer, a click away (1: on, "      \
      "0: off)")                                                                                                       \
    /* metadata (src/meta/meta.c, fed by the pipeline) */                                                              \
    X(TITLE_MATCH_MIN_WORDS, 2.0f, 0.0f, "meta",                                                                       \
      "two titles (a JSON-LD headline and the <title>, og:title or an <h1>; og:title and og:site_name) match when "    \
      "one's words are a run of the other's, a run shorter than this many words only when it is all of both")

typedef enum wn_rule_id {
#define WN_RULE_ENUM(name, def, off, stage, why) WN_RULE_##name,
    WN_RULES(WN_RULE_ENUM)
#undef WN_RULE_ENUM
        WN_RULE_COUNT
} wn_rule_id;

typedef struct wn_rule_def {
    const char *name, *stage, *why;
    float def, off;
} wn_rule_def;

extern const wn_rule_def wn_rule_defs[WN_RULE_COUNT];

/* A page's rule values (the engine's table); defaults when tab is NULL. */
typedef struct wn_rules {
    float v[WN_RULE_COUNT];
} wn_rules;

void wn_rules_default(wn_rules *r);
/* Index of a rule by name, -1 when unknown. */
int wn_rule_find(const char *name);
/* The values rule i takes (rules.c's range table): 0 with [*lo, *hi] and
 * what they are in words, -1 when the rule has no range entry. Its off
 * value is valid besides. */
int wn_rule_range(int i, double *lo, double *hi, const char **what);
/* 0 when rule i takes value, else -1 with why in err. */
int wn_rule_check(int i, double value, char *err, size_t cap);

/* The presets of the precision/recall dial (winnow_options.favor): the
 * rows a setting changes and their values, with the reason. */
typedef struct wn_favor_row {
    int favor; /* WINNOW_FAVOR_PRECISION or WINNOW_FAVOR_RECALL */
    wn_rule_id rule;
    float value;
    const char *why;
} wn_favor_row;

extern const wn_favor_row wn_favor_rows[];
extern const int wn_favor_row_count;
/* Sets r's rows for setting favor (a winnow_favor; balanced changes
 * nothing). 0, or -1 for a value out of range. */
int wn_rules_favor(wn_rules *r, int favor);

#define WN_RULE(d, name) ((d)->rules->v[WN_RULE_##name])

#endif
