#!/usr/bin/env bash
# The example reports of docs/cli.md and their screenshots (docs/*.png), made
# again from the pages they show:
#   annotate-aljazeera.png  winnow annotate of an AEB page (tests/data/pages:
#                           in the repository), opened at #content
#   annotate-hover.png      the same, the mouse on a photo caption
#   annotate-forbes.png     winnow annotate of a Big9 page with reader
#                           comments (bench/big9 13-successful_1), at #comments
#   site-forbes.png         winnow site --report of the ten 2013 Forbes pages
#                           of Big9, learned as one site, at #content
# The reports go to $OUT (default /tmp/winnow-docs); the screenshots to
# docs/. Needs chromium and ../shared/bench (BENCH_DIR).
#
# usage: docs/make-examples.sh [WINNOW]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
winnow=$(realpath "${1:-$here/../build/winnow}")
cd "$here/.."  # paths in the reports relative to the repository
here=docs
bench=${BENCH_DIR:-../shared/bench}
out=${OUT:-/tmp/winnow-docs}
rm -rf "$out"
mkdir -p "$out"

shot() { # REPORT FRAGMENT HEIGHT PNG
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="1200,$3" \
    --user-data-dir="$out/profile" --screenshot="$4" "file://$(realpath "$1")$2" 2>/dev/null
  echo "$4: $(stat -c %s "$4") bytes"
}

"$winnow" annotate "$here/../tests/data/pages/aeb-aljazeera.com.html" -o "$out/aljazeera.html"
shot "$out/aljazeera.html" "#content" 1300 "$here/annotate-aljazeera.png"

# hovering the caption of the Al Jazeera page: the block's details (through
# the DevTools protocol of bench/report_sweep.py: a mouse move, a screenshot)
python3 - "$out/aljazeera.html" "$here/annotate-hover.png" "$out/profile-hover" <<'PY'
import base64, shutil, sys, time
sys.path.insert(0, "bench")
from report_sweep import Browser
report, png, profile = sys.argv[1:]
b = Browser(shutil.which("chromium"), profile)
b.send("Page.navigate", {"url": "file://" + __import__("os").path.abspath(report) + "#content"}, session=True)
b.wait("Page.loadEventFired")
box = b.send("Runtime.evaluate", {"returnByValue": True, "expression":
    "document.querySelector('[data-wn-why=caption]').getAttribute('data-wn-box')"}, session=True)
x, y, w, h = map(int, box["result"]["value"].split())
b.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x + 40, "y": y + h // 2}, session=True)
time.sleep(0.3)
shot = b.send("Page.captureScreenshot", {"format": "png", "clip": {"x": 0, "y": max(0, y - 260), "width": 1200,
                                                                    "height": 560, "scale": 1}}, session=True)
open(png, "wb").write(base64.b64decode(shot["data"]))
b.close()
PY
echo "$here/annotate-hover.png: $(stat -c %s "$here/annotate-hover.png") bytes"

"$winnow" annotate "$bench/big9/html/13-successful_1.html" -o "$out/forbes.html"
shot "$out/forbes.html" "#comments" 1300 "$here/annotate-forbes.png"

mapfile -t forbes < <(awk -F'\t' -v d="$bench/big9/html" '$3 == "forbes.com@2013" {print d "/" $1 ".html"}' \
                          "$bench/big9/manifest.tsv")
"$winnow" learn -q --site forbes.com "${forbes[@]}" --db "$out/forbes.db"
"$winnow" site forbes.com --db "$out/forbes.db" --report "${forbes[@]}" -o "$out/site-forbes.html"
shot "$out/site-forbes.html" "#content" 1200 "$here/site-forbes.png"
