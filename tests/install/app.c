/* A program of a library user: extracts a page's main text through the
 * installed winnow.h and libwinnow (tests/install.sh builds it with
 * pkg-config, with the README's link lines and with find_package). */
#include <stdio.h>
#include <stdlib.h>

#include <winnow.h>

static const char page[] =
    "<html><head><title>Install check</title></head><body>"
    "<nav><a href=\"/\">Home</a> <a href=\"/about\">About</a> <a href=\"/contact\">Contact</a></nav>"
    "<article><h1>Install check</h1>"
    "<p>The installed library extracts this paragraph, which is long enough to be the main "
    "content of the page, and the program prints it.</p>"
    "<p>A second paragraph of running text, with full sentences, keeps the page an article.</p>"
    "</article><footer>Copyright notice of the test page</footer></body></html>";

int main(void)
{
    winnow_engine *e = NULL;
    winnow_engine_new(NULL, &e);
    if (!e) return 1;
    winnow_input in = { sizeof in, page, sizeof page - 1, NULL, NULL, NULL };
    winnow_doc *doc = NULL;
    winnow_status s = winnow_extract(e, &in, &doc);
    if (WINNOW_FAILED(s)) {
        fprintf(stderr, "%s: %s\n", winnow_status_name(s), winnow_engine_error(e));
        winnow_engine_free(e);
        return 1;
    }
    char *text = NULL;
    int ok = winnow_render_alloc(doc, WINNOW_FORMAT_TEXT, &text, NULL) == WINNOW_OK;
    if (ok) printf("winnow %s\n%s\n", winnow_version(), text);
    free(text);
    winnow_doc_free(doc);
    winnow_engine_free(e);
    return ok ? 0 : 1;
}
