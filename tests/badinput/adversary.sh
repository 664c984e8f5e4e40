#!/usr/bin/env bash
# tests/badinput/adversary.sh - an adversarial generator for the classes of issue 15: output
# paths, encodings, limits (signals: tests/cli/kill.sh).  Each case is drawn at random (seeded:
# MXSIM_ADV_SEED, MXSIM_ADV_CASES cases, default 300) and run through the CLI; the invariants are
# checked independently of which refusal the CLI picks:
#   - the exit status is 0, 1 or 2 (never a crash or a signal), within 60 s;
#   - a failure prints one "error" line naming something, a success prints none;
#   - no temporary file (.NAME.tmp.*, .mxsim-acc.*) is left anywhere in the work directory;
#   - an output path that must not change (FIFO, directory, read-only file, dangling link's
#     target, a path under a regular file) is unchanged; a symlink stays a symlink;
#   - a successful write produced a file the reading command accepts.
# Output paths: new, existing, symlink (to a file, to a missing file, chains), FIFO, directory,
# read-only file, a path under a regular file, names with blanks, quotes, '#', newlines, leading
# '-', 255-byte names, "-" (stdout).  Encodings: BOM, NUL at a random offset, CRLF, trailing
# bytes after a gzip stream, duplicate keys, random bytes, truncation at a random offset.
# Limits: dimensions at and beyond 2^31, products beyond 2^63.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
N=${MXSIM_ADV_CASES:-300}
RANDOM=${MXSIM_ADV_SEED:-4242}
"$MXSIM" trace --help > /dev/null 2>&1 || { echo "skip: built without the timing commands"; exit 77; }
MXSIM=$(cd "$(dirname "$MXSIM")" && pwd)/$(basename "$MXSIM")
src=$(cd "$MXSIM_SOURCE_DIR" && pwd)
t=$MXSIM_TEST_TMP
rm -rf "$t" && mkdir -p "$t/in" "$t/w" && cd "$t/w" || exit 1
cfg=$src/workloads/configs/small.ini
okz=$src/tests/badinput/files/ok.npz
"$MXSIM" dequantize "$okz" -o "$t/in/ok.npy" || exit 1
"$MXSIM" trace convert "$src/traces/bert-base.trace" "$t/in/ok.trace.gz" || exit 1
fails=0 n_ok=0 n_err=0

rnd_name() { # a hostile file name
  case $((RANDOM % 9)) in
    0) echo "plain" ;; 1) echo "with space" ;; 2) echo "quote'\"q" ;; 3) echo "hash#x" ;;
    4) printf 'nl\nx' ;; 5) echo "-lead" ;; 6) printf '%0250d' 0 ;; 7) echo "ütf8-名" ;; 8) echo ".hidden" ;;
  esac
}

# out_path KIND EXT: prepares an output path of that kind in $t/w; sets OUT, PROTECT (a file whose
# content must not change, or ""), KEEP_KIND (a test -X letter the path must still satisfy, or "")
out_path() {
  local ext=$2 nm; nm="$(rnd_name)"; nm=${nm:0:240}$ext
  OUT="$t/w/$nm" PROTECT="" KEEP_KIND=""
  case $1 in
    new) ;;
    existing) echo old > "$OUT" ;;
    symlink) echo old > "$t/w/target$ext"; ln -s "target$ext" "$OUT"; KEEP_KIND=L ;;
    chain) echo old > "$t/w/target$ext"; ln -s "target$ext" "$t/w/l1$ext"; ln -s "l1$ext" "$OUT"; KEEP_KIND=L ;;
    dangling) ln -s "missing$ext" "$OUT"; KEEP_KIND=L ;;
    fifo) mkfifo "$OUT"; KEEP_KIND=p ;;
    dir) mkdir "$OUT"; KEEP_KIND=d ;;
    readonly) echo keep > "$OUT"; chmod 444 "$OUT"; PROTECT=$OUT ;;
    underfile) echo keep > "$t/w/afile"; OUT="$t/w/afile/$nm"; PROTECT="$t/w/afile" ;;
    dash) OUT=- ;;
  esac
  if [ -n "$PROTECT" ]; then cksum < "$PROTECT" > "$t/protect.sum"; fi
}
kinds=(new existing symlink chain dangling fifo dir readonly underfile dash)

# mutate FILE: one encoding fault in place
mutate() {
  local f=$1 sz; sz=$(wc -c < "$f")
  case $((RANDOM % 7)) in
    0) { printf '\xef\xbb\xbf'; cat "$f"; } > "$f.m" ;;
    1) { head -c $((RANDOM % (sz + 1))) "$f"; printf '\0'; tail -c +$((RANDOM % (sz + 1) + 1)) "$f"; } > "$f.m" ;;
    2) sed 's/$/\r/' "$f" > "$f.m" ;;
    3) { cat "$f"; printf 'trailing %d\n' $RANDOM; } > "$f.m" ;;
    4) { cat "$f"; grep -m1 '=' "$f"; } > "$f.m" ;;   # a duplicate key (or op line)
    5) head -c $((RANDOM % (sz + 1))) "$f" > "$f.m" ;;
    6) { cat "$f"; head -c $((RANDOM % 64 + 1)) /dev/urandom; } > "$f.m" ;;
  esac
  mv "$f.m" "$f"
}

# run LABEL -- cmd...: checks the invariants
check() {
  local label=$1; shift 2
  local rc
  timeout 60 "$@" > "$t/stdout" 2> "$t/stderr" < /dev/null; rc=$?
  local why=""
  case $rc in 0) n_ok=$((n_ok + 1)) ;; 1|2) n_err=$((n_err + 1)) ;; *) why="exit $rc" ;; esac
  if [ "$rc" -ne 0 ] && [ "$rc" -le 2 ] && ! grep -q "error\|mxsim" "$t/stderr"; then why="$why; no message"; fi
  local left; left=$(find "$t" -name '.*.tmp.*' -o -name '*.tmp.??????' -o -name '.mxsim-acc.*' | head -3)
  [ -z "$left" ] || why="$why; temporary left: $left"
  if [ -n "$PROTECT" ] && ! cksum < "$PROTECT" | cmp -s - "$t/protect.sum"; then why="$why; $PROTECT changed"; fi
  if [ -n "$KEEP_KIND" ] && ! test -"$KEEP_KIND" "$OUT"; then why="$why; $OUT is no longer of kind -$KEEP_KIND"; fi
  if [ -n "$why" ]; then
    fails=$((fails + 1)); echo "FAIL [$label] $why: $*" | tr '\n' ' '; echo; head -2 "$t/stderr" | sed 's/^/       /'
  fi
  return $rc
}

for ((i = 0; i < N; i++)); do
  chmod -R u+w "$t/w" 2> /dev/null; rm -rf "$t/w" && mkdir "$t/w"
  k=${kinds[RANDOM % ${#kinds[@]}]}
  case $((RANDOM % 8)) in
    0) out_path "$k" .npz
       check "$i quantize -> $k" -- "$MXSIM" quantize --group-size 16 "$t/in/ok.npy" -o "$OUT" \
         && [ "$OUT" != - ] && [ -f "$OUT" ] && { "$MXSIM" info "$OUT" > /dev/null || { fails=$((fails + 1)); echo "FAIL [$i] unreadable output"; }; } ;;
    1) out_path "$k" .npy
       check "$i dequantize -> $k" -- "$MXSIM" dequantize "$okz" -o "$OUT" ;;
    2) out_path "$k" .trace.gz
       check "$i trace convert -> $k" -- "$MXSIM" trace convert "$src/traces/bert-base.trace" "$OUT" \
         && [ "$OUT" != - ] && [ -f "$OUT" ] && { "$MXSIM" trace check "$OUT" > /dev/null || { fails=$((fails + 1)); echo "FAIL [$i] unreadable trace"; }; } ;;
    3) out_path "$k" .csv
       check "$i run -> $k" -- "$MXSIM" run --config "$cfg" "$src/traces/bert-base.trace" --format csv -o "$OUT" ;;
    4) out_path "$k" .gz   # access traces of a 2-op detailed run: all or nothing
       printf 'mxsim-trace 1\ngemm name=a m=8 n=8 k=32\ngemm name=b m=16 n=16 k=64\n' > "$t/in/two.trace"
       check "$i run --detail --access-trace $k" -- "$MXSIM" run --config "$cfg" --detail --access-trace "$OUT" "$t/in/two.trace" -o /dev/null
       na=$(find "$t/w" -maxdepth 1 -name '*.[01].gz' | wc -l)
       [ "$na" -eq 0 ] || [ "$na" -eq 2 ] || { fails=$((fails + 1)); echo "FAIL [$i] $na of 2 access traces"; } ;;
    5) PROTECT="" KEEP_KIND="" OUT=/dev/null   # encodings: a mutated input of a random format
       case $((RANDOM % 5)) in
         0) cp "$src/traces/bert-base.trace" "$t/in/m.trace"; mutate "$t/in/m.trace"; check "$i mutated trace" -- "$MXSIM" trace check "$t/in/m.trace" ;;
         1) cp "$cfg" "$t/in/m.ini"; mutate "$t/in/m.ini"; check "$i mutated ini" -- "$MXSIM" config --config "$t/in/m.ini" --dump ;;
         2) cp "$src/workloads/models/bert-base.model" "$t/in/m.model"; mutate "$t/in/m.model"; check "$i mutated model" -- "$MXSIM" trace gen "$t/in/m.model" -o - ;;
         3) cp "$t/in/ok.trace.gz" "$t/in/m.trace.gz"; mutate "$t/in/m.trace.gz"; check "$i mutated gz" -- "$MXSIM" trace check "$t/in/m.trace.gz" ;;
         4) cp "$t/in/ok.npy" "$t/in/m.npy"; mutate "$t/in/m.npy"; check "$i mutated npy" -- "$MXSIM" quantize --group-size 16 "$t/in/m.npy" -o - ;;
       esac > /dev/null ;;
    *) PROTECT="" KEEP_KIND="" OUT=/dev/null   # limits: dimensions around 2^31 and products past 2^63
       dims=(1 2147483647 2147483648 2147483649 4294967296 9223372036854775807 -1 0 65536)
       printf 'mxsim-trace 1\ngemm name=a m=%s n=%s k=%s repeat=%s\n' "${dims[RANDOM % 9]}" "${dims[RANDOM % 9]}" \
         "${dims[RANDOM % 9]}" "${dims[RANDOM % 9]}" > "$t/in/lim.trace"
       check "$i limits" -- "$MXSIM" run --config "$cfg" "$t/in/lim.trace" -o /dev/null --format csv ;;
  esac
done
echo "adversary: $N cases ($n_ok accepted, $n_err refused with exit 1 or 2), $fails failed"
[ "$fails" -eq 0 ]
