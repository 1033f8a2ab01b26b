/* Words and dates of the case-folded page text: the date, reply and marker
 * word lists and their tests (wn_has_date, wn_date_words_sorted), and the
 * date alone cut out of the line that holds it (wn_date_span). Used by the
 * comment records of records.c. */
#include "records_internal.h"

#include <string.h>

/* ---- words of the case-folded page text ---- */

static int word_byte(unsigned char c) { return c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

/* Calls fn on each word of t[0..n); stops when it returns non-zero. */
int wn_each_word(const char *t, size_t n, int (*fn)(const char *w, size_t len, void *ctx), void *ctx)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && !word_byte((unsigned char)t[i])) i++;
        size_t b = i;
        while (i < n && word_byte((unsigned char)t[i])) i++;
        if (i > b && fn(t + b, i - b, ctx)) return 1;
    }
    return 0;
}

static int word_in(const char *w, size_t len, const char *const *list)
{
    for (; *list; list++)
        if ((*list)[0] == w[0] && strlen(*list) == len && memcmp(*list, w, len) == 0) return 1;
    return 0;
}

static int word_has_stem(const char *w, size_t len, const char *const *stems)
{
    for (; *stems; stems++) {
        size_t m = strlen(*stems);
        for (size_t i = 0; i + m <= len; i++)
            if (memcmp(w + i, *stems, m) == 0) return 1;
    }
    return 0;
}

/* Month names (English, German, French, Spanish, Italian, Dutch; the short
 * forms that are also common words, "may", "mar", are left out) and words
 * of relative time. Kept in byte order: searched by bisection (every word
 * of a record's lines is looked up; wn_date_words_sorted checks the order). */
static const char *const date_words[] = {
    "abril",     "ago",      "agosto",   "août",     "april",     "aprile",   "august",    "augustus",  "avril",
    "ayer",      "december", "dezember", "dicembre", "diciembre", "décembre", "enero",     "febbraio",  "febrero",
    "februar",   "februari", "february", "février",  "gennaio",   "gestern",  "giugno",    "heute",     "hier",
    "hoy",       "ieri",     "januar",   "januari",  "january",   "janvier",  "juillet",   "juin",      "juli",
    "julio",     "july",     "june",     "juni",     "junio",     "luglio",   "maart",     "maggio",    "mai",
    "march",     "mars",     "marzo",    "mayo",     "mei",       "märz",     "november",  "novembre",  "noviembre",
    "october",   "octobre",  "octubre",  "oggi",     "oktober",   "ottobre",  "september", "septembre", "septiembre",
    "settembre", "today",    "yesterday"
};
#define DATE_WORDS (sizeof date_words / sizeof date_words[0])

/* w (len bytes) against the NUL-terminated s, bytewise (memcmp's order) */
static int word_cmp(const char *w, size_t len, const char *s)
{
    /* the first bytes differ at most steps of a bisection, and then they
     * decide, as they would in memcmp */
    if (len && (unsigned char)w[0] != (unsigned char)s[0]) return (unsigned char)w[0] < (unsigned char)s[0] ? -1 : 1;
    size_t m = strlen(s);
    int c = memcmp(w, s, len < m ? len : m);
    if (c) return c;
    return len < m ? -1 : len > m;
}

static int date_word_in(const char *w, size_t len)
{
    size_t lo = 0, hi = DATE_WORDS;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = word_cmp(w, len, date_words[mid]);
        if (c == 0) return 1;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return 0;
}

int wn_date_words_sorted(void)
{
    for (size_t k = 1; k < DATE_WORDS; k++)
        if (word_cmp(date_words[k - 1], strlen(date_words[k - 1]), date_words[k]) >= 0) return 0;
    return 1;
}

/* Short month names are also names and words ("Jun", "Dec"): a date only
 * with a number in the same line. */
static const char *const short_months[] = { "jan", "feb",  "apr", "jun", "jul", "aug",
                                            "sep", "sept", "oct", "nov", "dec", NULL };
int wn_date_word(const char *w, size_t len, void *ctx)
{
    const int *digits = ctx;
    return date_word_in(w, len) || (digits && *digits && word_in(w, len, short_months));
}
/* A date or a time: a month name or a word of relative time, hh:mm, or
 * d/m/y-like digits (a year alone is too common in other lines). */
int wn_has_date(const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9') continue;
        size_t b = i;
        while (i < n && t[i] >= '0' && t[i] <= '9') i++;
        size_t len = i - b;
        /* hh:mm, minutes under 60, not a reference like 9:84:64 or 38:4349 */
        /* and hours under 24: "41:12" is a verse, not a time */
        int hour = len == 1 ? t[b] - '0' : len == 2 ? (t[b] - '0') * 10 + (t[b + 1] - '0') : 99;
        if (i + 2 < n && len <= 2 && hour < 24 && t[i] == ':' && t[i + 1] >= '0' && t[i + 1] <= '5' &&
            t[i + 2] >= '0' && t[i + 2] <= '9' &&
            (i + 3 == n || (t[i + 3] != ':' && (t[i + 3] < '0' || t[i + 3] > '9'))))
            return 1;
        if (i + 1 < n && len <= 4 && (t[i] == '/' || t[i] == '.' || t[i] == '-') && t[i + 1] >= '0' &&
            t[i + 1] <= '9') {
            size_t j = i + 1;
            while (j < n && t[j] >= '0' && t[j] <= '9') j++;
            /* a year last, of two or four digits: "3.7.2" and "v2.0.0" are versions */
            size_t y = j + 1;
            while (y < n && t[y] >= '0' && t[y] <= '9') y++;
            if (j + 1 < n && j - i - 1 <= 2 && t[j] == t[i] && (y - j - 1 == 2 || y - j - 1 == 4)) return 1;
        }
        if (i > b) i--;
    }
    int digits = 0;
    for (size_t i = 0; i < n && !digits; i++) digits = t[i] >= '0' && t[i] <= '9';
    return wn_each_word(t, n, wn_date_word, &digits);
}

/* A date whose month is also a word ("may 11, 2024", "11 mar 2024"):
 * the month between a day and a year, or after both. wn_has_date leaves
 * these months out, being words; a post's header line is read with this
 * too. */
int wn_has_word_month_date(const char *t, size_t n)
{
    enum { TOKENS = 24 };
    size_t tb[TOKENS], tl[TOKENS], nt = 0, i = 0;
    while (i < n && nt < TOKENS) {
        while (i < n && !word_byte((unsigned char)t[i])) i++;
        size_t b = i;
        while (i < n && word_byte((unsigned char)t[i])) i++;
        if (i > b) {
            tb[nt] = b;
            tl[nt++] = i - b;
        }
    }
#define WN_NUM(k, lo, hi)                                                                                              \
    ((k) < nt && tl[k] >= (lo) && tl[k] <= (hi) && t[tb[k]] >= '0' && t[tb[k]] <= '9' &&                               \
     t[tb[k] + tl[k] - 1] >= '0' && t[tb[k] + tl[k] - 1] <= '9')
    for (size_t k = 0; k < nt; k++) {
        if (tl[k] != 3 || (memcmp(t + tb[k], "may", 3) && memcmp(t + tb[k], "mar", 3))) continue;
        if ((WN_NUM(k + 1, 1, 2) && WN_NUM(k + 2, 4, 4)) || (k > 0 && WN_NUM(k - 1, 1, 2) && WN_NUM(k + 1, 4, 4)))
            return 1;
    }
#undef WN_NUM
    return 0;
}

/* Words of a relative date ("3 hours ago", "yesterday"). */
static const char *const relative_words[] = { "ago", "ayer", "geleden", "gestern", "heute",     "hier",
                                              "hoy", "ieri", "oggi",    "today",   "yesterday", NULL };
int wn_relative_word(const char *w, size_t len, void *ctx)
{
    (void)ctx;
    return word_in(w, len, relative_words);
}

static const char *const reply_words[] = { "reply",       "antworten", "répondre", "responder", "rispondi",  "reageer",
                                           "beantworten", "odpowiedz", "responda", "quote",     "permalink", NULL };
int wn_reply_word(const char *w, size_t len, void *ctx)
{
    (void)ctx;
    return word_in(w, len, reply_words);
}

/* "12 comments", "Leave a reply", "3 thoughts on ...", "Kommentare (4)". */
static const char *const marker_stems[] = { "comment", "kommentar", "comentario", "reactie",  "respons",    "replies",
                                            "reply",   "thoughts",  "discussion", "reacties", "comentário", NULL };
int wn_marker_word(const char *w, size_t len, void *ctx)
{
    (void)ctx;
    return word_has_stem(w, len, marker_stems);
}

/* ---- the date alone, out of the line that holds it ----
 *
 * A record's date is the smallest element holding one, and that is often
 * the whole header line: "Re:Finally by lunchbox on Monday March 03, 2014
 * @10:32AM (#4411)" is one <div> whose date is plain text beside a link.
 * The date field keeps the words around the first date word or time:
 * weekdays, numbers, times, units of relative time ("9 hours ago"), and
 * the words that join them inside a date ("at", "de"); the rest of the
 * line (a title, "by", the author, "on", a comment number) is cut off.
 * A line with no such word is kept whole. */
static const char *const weekdays[] = { "monday",   "tuesday",  "wednesday",  "thursday",  "friday",   "saturday",
                                        "sunday",   "mon",      "tue",        "tues",      "wed",      "thu",
                                        "thur",     "thurs",    "fri",        "sat",       "sun",      "montag",
                                        "dienstag", "mittwoch", "donnerstag", "freitag",   "samstag",  "sonntag",
                                        "lundi",    "mardi",    "mercredi",   "jeudi",     "vendredi", "samedi",
                                        "dimanche", "lunes",    "martes",     "miércoles", "jueves",   "viernes",
                                        "sábado",   "domingo",  NULL };
/* units of relative time, the halves of the day, time zones, and the two
 * month names too common as words to find a date by ("may", "mar"), but
 * part of one beside a date word or a time */
static const char *const date_units[] = {
    "second", "seconds", "sec", "secs", "minute", "minutes", "min", "mins", "hour", "hours", "hr", "hrs", "day", "days",
    "week", "weeks", "month", "months", "year", "years", "am", "pm", "a.m.", "p.m.", "utc", "gmt", "pst", "pdt", "est",
    "edt", "cst", "cdt", "mst", "mdt", "cet", "cest", "bst", "ist", "jst", "aest", "aedt", "may", "mar",
    /* "over a year ago", "about 3 hours ago" */
    "a", "an", "over", "about", "almost", "nearly", "just", "less", "more", "than", NULL
};
/* only between two parts of a date: "March 3 at 10:32", "3 de marzo de
 * 2014", "Feb 18, 2026 | 8:50 am" */
static const char *const date_joins[] = { "at",           "@",  "-",  "\xe2\x80\x93", "|",        "\xc2\xb7",
                                          "\xe2\x80\xa2", "of", "de", "um",           "\xc3\xa0", NULL };

enum { DATE_NONE, DATE_JOIN, DATE_PART, DATE_ANCHOR };

/* What the token w (len bytes, as on the page) is to a date. */
static int date_token(const char *w, size_t len)
{
    char low[40];
    while (len && (w[len - 1] == ',' || w[len - 1] == ';')) len--;
    if (len == 0 || len >= sizeof low) return DATE_NONE;
    for (size_t k = 0; k < len; k++) low[k] = (w[k] >= 'A' && w[k] <= 'Z') ? (char)(w[k] - 'A' + 'a') : w[k];
    low[len] = '\0';
    if (wn_has_date(low, len)) return DATE_ANCHOR;
    if (word_in(low, len, date_joins)) return DATE_JOIN;
    /* a weekday or a month short form may end with a period: "Mon.", "Jan." */
    size_t wl = len > 1 && low[len - 1] == '.' ? len - 1 : len;
    int one = 1;
    if (word_in(low, wl, weekdays) || word_in(low, len, date_units) || wn_date_word(low, wl, &one)) return DATE_PART;
    /* a time with seconds, a zone offset: digits and ':', '+', '-', '.'
     * ("13:55:04", "+00:00"), which wn_has_date does not take alone */
    size_t digits = 0, other = 0;
    for (size_t k = 0; k < len; k++) {
        if (low[k] >= '0' && low[k] <= '9')
            digits++;
        else if (low[k] == ':' || low[k] == '+' || low[k] == '-' || low[k] == '.')
            other++;
        else
            break;
    }
    if (digits && other && digits + other == len && len <= 10) return DATE_PART;
    /* a day or a year: up to four digits, maybe an ordinal or a period */
    size_t d = 0;
    while (d < len && low[d] >= '0' && low[d] <= '9') d++;
    if (d == 0 || d > 4) return DATE_NONE;
    const char *rest = low + d;
    if (!*rest || strcmp(rest, ".") == 0 || strcmp(rest, "st") == 0 || strcmp(rest, "nd") == 0 ||
        strcmp(rest, "rd") == 0 || strcmp(rest, "th") == 0)
        return DATE_PART;
    return DATE_NONE;
}

/* The span of s that is its date: *b and *e, or all of s when no token
 * of it is a date word or time. */
void wn_date_span(const char *s, size_t n, size_t *b, size_t *e)
{
    enum { MAX_TOKENS = 64 }; /* a date line is short: past this, kept whole */
    size_t tb[MAX_TOKENS], te[MAX_TOKENS];
    int kind[MAX_TOKENS];
    size_t nt = 0, i = 0;
    *b = 0;
    *e = n;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
        if (i >= n) break;
        if (nt == MAX_TOKENS) return;
        tb[nt] = i;
        while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r') i++;
        te[nt] = i;
        kind[nt] = date_token(s + tb[nt], te[nt] - tb[nt]);
        nt++;
    }
    size_t a = 0;
    while (a < nt && kind[a] != DATE_ANCHOR) a++;
    if (a == nt) return;
    size_t first = a, last = a;
    while (first > 0 && kind[first - 1] != DATE_NONE) first--;
    while (last + 1 < nt && kind[last + 1] != DATE_NONE) last++;
    while (first < a && kind[first] == DATE_JOIN) first++;
    while (last > a && kind[last] == DATE_JOIN) last--;
    *b = tb[first];
    *e = te[last];
    while (*e > *b && (s[*e - 1] == ',' || s[*e - 1] == ';')) (*e)--;
    /* "(last edited Sep 08, 2008 12:59PM)": a bracket whose mate was cut off goes too */
    int open = 0, close = 0;
    for (size_t k = *b; k < *e; k++) {
        open += s[k] == '(';
        close += s[k] == ')';
    }
    if (open > close && s[*b] == '(') (*b)++;
    if (close > open && *e > *b && s[*e - 1] == ')') (*e)--;
}
