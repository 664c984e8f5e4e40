#!/usr/bin/env bash
# tests/sweep/report_render.sh - renders the report of the committed example sweep with headless
# Chromium: every chart SVG and index.html to PNG.  Fails when chromium exits non-zero, times out,
# or writes no PNG, an empty one, or one of the wrong size.  Skipped (77) without chromium
# (Debian: apt-get install chromium; .ci/install-deps installs it).
# MXSIM_RENDER_KEEP=DIR keeps the PNGs there for a look.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "skip: chromium not installed (apt-get install chromium)"
  exit 77
fi
t=$MXSIM_TEST_TMP
rm -rf "$t" && mkdir -p "$t/png"
cp "$MXSIM_SOURCE_DIR/reports/example/results.csv" "$MXSIM_SOURCE_DIR/reports/example/results.meta.json" "$t/" || exit 1
"$MXSIM" report "$t/results.csv" -o "$t/rep" 2>/dev/null || { echo "FAIL: mxsim report"; exit 1; }
fails=0
# png_size FILE: "W H" from the IHDR chunk
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%d %d\n", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'; }
render() { # render FILE W H
  local f=$1 w=$2 h=$3 png="$t/png/$(basename "$1").png" rc
  timeout 120 "$browser" --headless --disable-gpu --no-sandbox --hide-scrollbars --user-data-dir="$t/profile" \
    --screenshot="$png" --window-size="$w,$h" "file://$f" >"$t/chromium.log" 2>&1
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "FAIL $f: chromium exit $rc"; tail -3 "$t/chromium.log"; fails=$((fails + 1)); return
  fi
  if [ ! -s "$png" ] || [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
    echo "FAIL $f: no PNG written"; fails=$((fails + 1)); return
  fi
  if [ "$(png_size "$png")" != "$w $h" ]; then
    echo "FAIL $f: PNG is $(png_size "$png"), expected $w $h"; fails=$((fails + 1)); return
  fi
  echo "ok   $(basename "$f") -> ${w}x${h} PNG, $(wc -c <"$png") bytes"
}
n=0
for svg in "$t"/rep/*.svg; do
  w=$(grep -o 'width="[0-9]*"' "$svg" | head -1 | tr -dc 0-9)
  h=$(grep -o 'height="[0-9]*"' "$svg" | head -1 | tr -dc 0-9)
  render "$svg" "$w" "$h"
  n=$((n + 1))
done
render "$t/rep/index.html" 1200 2400
[ "$n" -eq 7 ] || { echo "FAIL: $n SVGs, expected 7"; fails=$((fails + 1)); }
if [ -n "${MXSIM_RENDER_KEEP:-}" ]; then mkdir -p "$MXSIM_RENDER_KEEP" && cp "$t"/png/*.png "$MXSIM_RENDER_KEEP"/; fi
[ "$fails" -eq 0 ] && echo "all renders ok" || echo "$fails failures"
exit $(( fails > 0 ))
