#!/usr/bin/env bash
# tests/cli/outpaths.sh - what -o does to each kind of existing path (sim/doc/robustness.md):
#   regular file   replaced atomically (rename), permission bits kept
#   symlink        followed: the file it names is replaced, the link stays a link
#   dangling link  refused, exit 1
#   char device    written in place (a mknod copy of /dev/null stays a device)
#   FIFO           refused, exit 1, left as it is (use -o - for a pipe)
#   directory      refused, exit 1
#   read-only file refused, exit 1, untouched (also for root)
#   -              standard output, for every writing command
# plus the all-or-nothing access traces of `run --detail --access-trace` when op 3 fails.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
MXSIM=$(cd "$(dirname "$MXSIM")" && pwd)/$(basename "$MXSIM")
src=$(cd "$MXSIM_SOURCE_DIR" && pwd)
t=$MXSIM_TEST_TMP
rm -rf "$t" && mkdir -p "$t" && cd "$t" || exit 1  # a stray file named "-" would land here
ok_npz=$src/tests/badinput/files/ok.npz
cfg=$src/workloads/configs/small.ini
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# expect CODE LABEL -- command...
expect() {
  local code=$1 label=$2; shift 3
  "$@" > "$t/stdout" 2> "$t/err"; local rc=$?
  if [ "$rc" -eq "$code" ]; then ok "[$code] $label"; else bad "$label: exit $rc, expected $code"; head -2 "$t/err"; fi
}
"$MXSIM" dequantize "$ok_npz" -o "$t/in.npy" || { echo "FAIL: cannot make an input"; exit 1; }

# regular file: permission bits kept
"$MXSIM" quantize "$t/in.npy" -o "$t/r.npz" && chmod 640 "$t/r.npz"
expect 0 "regular file replaced" -- "$MXSIM" quantize "$t/in.npy" -o "$t/r.npz"
[ "$(stat -c %a "$t/r.npz")" = 640 ] && ok "mode 640 kept" || bad "mode of the replaced file: $(stat -c %a "$t/r.npz")"

# symlink followed
: > "$t/target.npz"
ln -s target.npz "$t/link.npz"
expect 0 "symlink followed" -- "$MXSIM" quantize "$t/in.npy" -o "$t/link.npz"
[ -L "$t/link.npz" ] && [ -s "$t/target.npz" ] && ok "link kept, its target written" || bad "symlink replaced or target empty"
ln -s nowhere.npz "$t/dangling.npz"
expect 1 "dangling symlink refused" -- "$MXSIM" quantize "$t/in.npy" -o "$t/dangling.npz"
[ -L "$t/dangling.npz" ] && [ ! -e "$t/nowhere.npz" ] && ok "dangling link untouched" || bad "dangling link changed"

# character device: written in place (needs mknod: root)
if mknod "$t/null" c 1 3 2>/dev/null; then
  expect 0 "character device written in place" -- "$MXSIM" quantize "$t/in.npy" -o "$t/null"
  [ -c "$t/null" ] && ok "device still a device" || bad "device replaced by a $(stat -c %F "$t/null")"
  expect 0 "table to a character device" -- "$MXSIM" info "$ok_npz" --format csv -o "$t/null"
  [ -c "$t/null" ] && ok "device still a device after a table" || bad "device replaced"
else
  expect 0 "/dev/null written in place" -- "$MXSIM" quantize "$t/in.npy" -o /dev/null
  echo "skip mknod (not root)"
fi

# FIFO: refused, never blocks, never replaced
mkfifo "$t/fifo"
expect 1 "FIFO refused" -- timeout 20 "$MXSIM" quantize "$t/in.npy" -o "$t/fifo"
grep -q "is a FIFO" "$t/err" && ok "message names the FIFO" || bad "message: $(cat "$t/err")"
[ -p "$t/fifo" ] && ok "FIFO left as it is" || bad "FIFO replaced"
expect 1 "FIFO refused for a trace" -- timeout 20 "$MXSIM" trace convert "$src/traces/bert-base.trace" "$t/fifo"

# directory
mkdir "$t/dir.npz"
expect 1 "directory refused" -- "$MXSIM" quantize "$t/in.npy" -o "$t/dir.npz"

# read-only file: exit 1, untouched (root included)
"$MXSIM" quantize "$t/in.npy" --group-size 16 -o "$t/ro.npz" && chmod 444 "$t/ro.npz"
sum=$(cksum < "$t/ro.npz")
expect 1 "read-only file refused" -- "$MXSIM" quantize "$t/in.npy" -o "$t/ro.npz"
[ "$(cksum < "$t/ro.npz")" = "$sum" ] && [ "$(stat -c %a "$t/ro.npz")" = 444 ] && ok "read-only file untouched" || bad "read-only file changed"
ls -A "$t" | grep -q '\.tmp\.' && bad "temporary file left: $(ls -A "$t" | grep '\.tmp\.')" || ok "no temporary file left"

# -o - : standard output, for every writing command
"$MXSIM" quantize "$t/in.npy" -o "$t/q.npz"
"$MXSIM" quantize "$t/in.npy" -o - > "$t/q-stdout.npz" && cmp -s "$t/q.npz" "$t/q-stdout.npz" \
  && ok "quantize -o -" || bad "quantize -o - differs from -o FILE"
"$MXSIM" dequantize "$ok_npz" -o - > "$t/d-stdout.npy" && cmp -s "$t/in.npy" "$t/d-stdout.npy" \
  && ok "dequantize -o -" || bad "dequantize -o -"
"$MXSIM" gemm "$ok_npz" "$ok_npz" -o "$t/c.npy" 2>/dev/null; g=$?
if [ $g -eq 0 ]; then
  "$MXSIM" gemm "$ok_npz" "$ok_npz" -o - > "$t/c-stdout.npy" && cmp -s "$t/c.npy" "$t/c-stdout.npy" && ok "gemm -o -" || bad "gemm -o -"
fi
"$MXSIM" info "$ok_npz" -o - > "$t/info.txt" && [ -s "$t/info.txt" ] && [ ! -e ./- ] && ok "info -o -" || bad "info -o -"
if "$MXSIM" trace --help > /dev/null 2>&1; then
  "$MXSIM" trace convert "$src/traces/bert-base.trace" - > "$t/tr-stdout.trace" && "$MXSIM" trace check "$t/tr-stdout.trace" > /dev/null \
    && ok "trace convert IN -" || bad "trace convert IN -"
  "$MXSIM" trace gen "$src/workloads/models/bert-base.model" -o - > "$t/gen.trace" && "$MXSIM" trace check "$t/gen.trace" > /dev/null \
    && ok "trace gen -o -" || bad "trace gen -o -"
  "$MXSIM" run "$src/traces/bert-base.trace" --config "$cfg" -o - --format csv > "$t/run.csv" && head -1 "$t/run.csv" | grep -q '^op,' \
    && ok "run -o -" || bad "run -o -"
  "$MXSIM" config --config "$cfg" --dump -o - > "$t/cfg.txt" && [ -s "$t/cfg.txt" ] && ok "config --dump -o -" || bad "config -o -"
  # access traces: op 3 fails, so none of the three is written
  printf 'mxsim-trace 1\ngemm name=a m=8 n=8 k=32\ngemm name=b m=16 n=16 k=64\ngemm name=c m=100000 n=100000 k=100000\n' > "$t/bad3.trace"
  mkdir "$t/acc"
  expect 2 "--detail run failing on op 3" -- "$MXSIM" run "$t/bad3.trace" --config "$cfg" --detail --access-trace "$t/acc/F.gz" -o "$t/acc/r.csv"
  [ -z "$(ls -A "$t/acc")" ] && ok "no access trace, no temporary left" || bad "left behind: $(ls -A "$t/acc")"
  printf 'mxsim-trace 1\ngemm name=a m=8 n=8 k=32\ngemm name=b m=16 n=16 k=64\n' > "$t/ok2.trace"
  expect 0 "--detail run of two ops" -- "$MXSIM" run "$t/ok2.trace" --config "$cfg" --detail --access-trace "$t/acc/F.gz" -o "$t/acc/r.csv"
  [ "$(ls -A "$t/acc" | tr '\n' ' ')" = "F.0.gz F.1.gz r.csv " ] && ok "both access traces and the table" || bad "left: $(ls -A "$t/acc")"
  gzip -t "$t/acc/F.0.gz" "$t/acc/F.1.gz" && ok "access traces are complete gzip files" || bad "gzip -t"
  # a target that cannot be written (a directory) fails the whole set and leaves no trace
  rm -f "$t/acc"/*; mkdir "$t/acc/F.1.gz"
  expect 1 "access-trace target is a directory" -- "$MXSIM" run "$t/ok2.trace" --config "$cfg" --detail --access-trace "$t/acc/F.gz" -o "$t/acc/r.csv"
  [ "$(ls -A "$t/acc")" = "F.1.gz" ] && ok "nothing written when one target is bad" || bad "left: $(ls -A "$t/acc")"
fi
if "$MXSIM" sweep --help > /dev/null 2>&1; then
  "$MXSIM" sweep "$src/traces/bert-base.trace" --config "$cfg" --group-size 32 --quiet -o - --format csv > "$t/sw.csv" \
    && head -1 "$t/sw.csv" | grep -q ',' && [ ! -e "./-.meta.json" ] && ok "sweep -o -" || bad "sweep -o -"
fi
echo "outpaths: $fails failed"
[ "$fails" -eq 0 ]
