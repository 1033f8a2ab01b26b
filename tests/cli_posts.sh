#!/usr/bin/env bash
# A thread's posts as records (issue 28): "posts" in -f json and -f jsonl,
# the first post and every reply in order with author and date, on a page
# the page type stage calls a forum or forced to one with --page-type forum;
# [] on a page that is no thread, null on a failed page's line; the text
# output the same with or without them.
#
# usage: cli_posts.sh WINNOW_BINARY
set -u
winnow=${1:?usage: cli_posts.sh WINNOW_BINARY}
command -v python3 >/dev/null || { echo "python3 not found: skipped"; exit 0; }
here=$(cd "$(dirname "$0")" && pwd)
pages="$here/data/pages"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winnow-posts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:print_stacktrace=1:exitcode=86"

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; [ -f "${2:-}" ] && sed -n '1,12p' "$2" | sed 's/^/     | /'; return 0; }

# key NAME FILE PYTHON_EXPR: the JSON in FILE (one object, or the lines of
# JSON lines) read as j (the first line as j, all as js); EXPR true
key() {
  python3 - "$2" "$3" <<'PY' && ok "$1" || bad "$1" "$2"
import json, sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if l.strip()]
js = [json.loads(l) for l in lines]
j = js[0]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

thread="$pages/synthetic-thread-posts.html"
story="$pages/synthetic-story-comments.html"
printf '' > "$tmp/empty.html"
want='[("alice", "March 3, 2024 9:15 AM", "My kettle has"), ("bob42", "March 3, 2024 10:02 AM", "Citric acid"), ("carol", "March 4, 2024 8:40 PM", "I agree with bob42"), ("alice", "March 5, 2024 7:05 AM", "Thank you both")]'
same="[(p['author'], p['date']) for p in j['posts']] == [(a, d) for a, d, t in $want] and all(p['text'].startswith(t) for p, (a, d, t) in zip(j['posts'], $want))"

"$winnow" extract -f json --page-type forum "$thread" > "$tmp/j" 2>"$tmp/err"
key "json --page-type forum: four posts in order, each with author, date, text" "$tmp/j" "$same"
key "json: each post is {author, date, text}" "$tmp/j" "all(sorted(p) == ['author', 'date', 'text'] for p in j['posts'])"
"$winnow" extract -f jsonl --page-type forum "$thread" > "$tmp/l" 2>"$tmp/err"
key "jsonl --page-type forum: the same posts" "$tmp/l" "$same"
"$winnow" extract -f json --page-type article "$thread" > "$tmp/ja" 2>"$tmp/err"
key "json --page-type article: the thread read as an article has no posts" "$tmp/ja" "j['posts'] == []"
"$winnow" extract -f json "$story" > "$tmp/js" 2>"$tmp/err"
key "json: a story with comments has comments, no posts" "$tmp/js" "j['page_type'] != 'forum' and j['posts'] == [] and len(j['comments']) > 0"
"$winnow" extract -q -f jsonl --page-type forum "$thread" "$tmp/empty.html" "$story" > "$tmp/l2" 2>"$tmp/err"
key "jsonl: every line has posts; a failed page's are null" "$tmp/l2" \
  "len(js) == 3 and len(js[0]['posts']) == 4 and js[1]['status'] == 'WINNOW_E_EMPTY' and js[1]['posts'] is None and isinstance(js[2]['posts'], list)"
"$winnow" extract -f json --page-type forum "$pages/synthetic-qa-microdata.html" > "$tmp/jq" 2>"$tmp/err"
key "json: a question and its answers from microdata, their comments left out" "$tmp/jq" \
  "[p['author'] for p in j['posts']] == ['dough', 'levain', 'crumb']"

# the posts take nothing from the text nor add to it: the text is the same
# with the posts' search turned off
"$winnow" extract --page-type forum "$thread" > "$tmp/t" 2>"$tmp/err"
"$winnow" extract --page-type forum --rule POSTS_MICRODATA=0 --rule POSTS_MIN_RECORDS=1e30 "$thread" > "$tmp/t0" 2>"$tmp/err"
"$winnow" extract -f json --page-type forum --rule POSTS_MICRODATA=0 --rule POSTS_MIN_RECORDS=1e30 "$thread" > "$tmp/j0" 2>"$tmp/err"
key "json: no posts with their search turned off" "$tmp/j0" "j['posts'] == []"
cmp -s "$tmp/t" "$tmp/t0" && ok "text: the same with or without the posts" || bad "text: differs without the posts" "$tmp/t0"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
