#!/usr/bin/env bash
# CLI behaviour: exit codes (0 ok, 1 runtime, 2 usage/bad input), messages naming file and field,
# no partial output on failure, help everywhere, and bit-identical results across threads/SIMD.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP
rm -rf "$t" && mkdir -p "$t"
data=$MXSIM_SOURCE_DIR/workloads/data
fails=0

# expect CODE FRAGMENT -- command...   (FRAGMENT must appear in stderr+stdout; "" = any)
expect() {
  local code=$1 frag=$2; shift 3
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" -ne "$code" ]; then
    echo "FAIL: exit $rc, expected $code: $*"; echo "$out" | head -5; fails=$((fails+1)); return
  fi
  if [ -n "$frag" ] && ! grep -qF -- "$frag" <<<"$out"; then
    echo "FAIL: output lacks '$frag': $*"; echo "$out" | head -5; fails=$((fails+1)); return
  fi
  echo "ok   [$code] $*"
}
absent() { if [ -e "$1" ]; then echo "FAIL: $1 was left behind"; fails=$((fails+1)); fi; }

expect 0 "mxsim 0." -- "$MXSIM" --version
expect 0 "commands:" -- "$MXSIM" --help
expect 0 "commands:" -- "$MXSIM" help
expect 2 "" -- "$MXSIM"
expect 2 "unknown command" -- "$MXSIM" frobnicate
for c in quantize dequantize gemm compare info help; do
  expect 0 "usage: mxsim $c" -- "$MXSIM" "$c" --help
  expect 0 "usage: mxsim $c" -- "$MXSIM" help "$c"
done

# round trip on bundled data
expect 0 "" -- "$MXSIM" quantize --group-size 32 "$data/act_64x768.npy" -o "$t/a.npz"
expect 0 "" -- "$MXSIM" quantize --group-size 32 --compress "$data/weight_256x768.npy" -o "$t/w.npz"
expect 0 'mxint8,mxint8,"(64, 768)",ocp,32,1,1536' -- "$MXSIM" info --format csv "$t/a.npz"
expect 0 "" -- "$MXSIM" gemm "$t/a.npz" "$t/w.npz" -o "$t/c.npy"
expect 0 'dense,f32,"(64, 256)",,,,' -- "$MXSIM" info --format csv "$t/c.npy"
expect 0 "" -- "$MXSIM" gemm --out-dtype bf16 "$t/a.npz" "$t/w.npz" -o "$t/cb.npy"
expect 0 'dense,u16,"(64, 256)"' -- "$MXSIM" info --format csv "$t/cb.npy"
expect 0 "" -- "$MXSIM" dequantize --dtype bf16 "$t/a.npz" -o "$t/ab.npy"
expect 0 'dense,u16,"(64, 768)"' -- "$MXSIM" info --format csv "$t/ab.npy"
# bf16 input path: the same values given as bf16 bits and as float32 quantize to the same codes
# under OCP (its exponent and rounding are exact, so the input dtype cannot matter)
expect 0 "" -- "$MXSIM" dequantize --dtype f32 "$t/a.npz" -o "$t/a_f.npy"
expect 0 "" -- "$MXSIM" quantize --in-dtype bf16 --group-size 32 "$t/ab.npy" -o "$t/a_from_bf16.npz"
expect 0 "" -- "$MXSIM" quantize --in-dtype f32 --group-size 32 "$t/a_f.npy" -o "$t/a_from_f32.npz"
expect 0 "" -- "$MXSIM" dequantize "$t/a_from_bf16.npz" -o "$t/x1.npy"
expect 0 "" -- "$MXSIM" dequantize "$t/a_from_f32.npz" -o "$t/x2.npy"
expect 0 "x2.npy,49152,0,0," -- "$MXSIM" compare --format csv "$t/x1.npy" "$t/x2.npy"
# SQNR of the MXINT8 product against the float64 one is sane (computed, not compared to a golden)
expect 0 "sqnr_db" -- "$MXSIM" compare "$data/ref_64x256.npy" "$t/c.npy"
# a one-ulp error at 1.0 is 2^-23 = 1.19209e-07: shown in significant digits (6 decimals printed 0.000000)
python3 -c 'import struct,sys; h="{'"'"'descr'"'"': '"'"'<f4'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (1,), }"; h+=" "*(63-(10+len(h))%64)+"\n"; sys.stdout.buffer.write(b"\x93NUMPY\x01\x00"+struct.pack("<H",len(h))+h.encode()+struct.pack("<f",float(sys.argv[1])))' 1.0 > "$t/one.npy"
python3 -c 'import struct,sys; h="{'"'"'descr'"'"': '"'"'<f4'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (1,), }"; h+=" "*(63-(10+len(h))%64)+"\n"; sys.stdout.buffer.write(b"\x93NUMPY\x01\x00"+struct.pack("<H",len(h))+h.encode()+struct.pack("<f",float(sys.argv[1])))' 1.00000011920928955 > "$t/oneulp.npy"
expect 0 ",1,0,138.47379800543135,1.1920928955078125e-07,1.1920928955078125e-07,1.1920928955078125e-07" -- "$MXSIM" compare --format csv "$t/one.npy" "$t/oneulp.npy"

# determinism: every thread count and SIMD path gives the same bytes
for args in "--threads 1" "--threads 2" "--threads 3 --simd scalar" "--simd scalar" "--threads 7"; do
  # shellcheck disable=SC2086
  "$MXSIM" gemm $args "$t/a.npz" "$t/w.npz" -o "$t/c2.npy" || { echo "FAIL gemm $args"; fails=$((fails+1)); }
  cmp -s "$t/c.npy" "$t/c2.npy" && echo "ok   identical output with $args" || { echo "FAIL: output differs with $args"; fails=$((fails+1)); }
done

# bad input: exit 2, message names the file and field, nothing left behind
expect 2 "does not divide axis" -- "$MXSIM" quantize --group-size 7 "$data/act_64x768.npy" -o "$t/bad1.npz"; absent "$t/bad1.npz"
expect 2 "--group-size 'abc': not an integer" -- "$MXSIM" quantize --group-size abc "$data/act_64x768.npy" -o "$t/bad2.npz"; absent "$t/bad2.npz"
expect 2 "--group-size 0: must be in" -- "$MXSIM" quantize --group-size 0 "$data/act_64x768.npy" -o "$t/bad3.npz"
expect 2 "--profile 'foo'" -- "$MXSIM" quantize --profile foo "$data/act_64x768.npy" -o "$t/bad4.npz"
expect 2 "axis=5" -- "$MXSIM" quantize --axis 5 "$data/act_64x768.npy" -o "$t/bad5.npz"; absent "$t/bad5.npz"
expect 2 "missing -o" -- "$MXSIM" quantize "$data/act_64x768.npy"
expect 2 "unknown option '--bogus'" -- "$MXSIM" gemm --bogus "$t/a.npz" "$t/w.npz" -o "$t/bad6.npy"
expect 2 "--acc 'kulisch'" -- "$MXSIM" gemm --acc kulisch "$t/a.npz" "$t/w.npz" -o "$t/bad7.npy"
expect 2 "a.npz" -- "$MXSIM" quantize "$t/a.npz" -o "$t/bad8.npz"; absent "$t/bad8.npz"
expect 2 "dtype float32 '<f4', expected uint16" -- "$MXSIM" quantize --in-dtype bf16 "$data/act_64x768.npy" -o "$t/bad9.npz"
# K mismatch: a is 64x768, quantize a 256x768 weight along axis 0 to get a different layout
expect 0 "" -- "$MXSIM" quantize --group-size 32 --axis 0 "$data/weight_256x768.npy" -o "$t/w0.npz"
expect 2 "grouped along axis 0" -- "$MXSIM" gemm "$t/a.npz" "$t/w0.npz" -o "$t/bad10.npy"; absent "$t/bad10.npy"
expect 0 "" -- "$MXSIM" quantize --group-size 64 "$data/weight_256x768.npy" -o "$t/w64.npz"
expect 2 "group_size mismatch" -- "$MXSIM" gemm "$t/a.npz" "$t/w64.npz" -o "$t/bad11.npy"; absent "$t/bad11.npy"
# truncated and missing files
head -c 1000 "$data/act_64x768.npy" > "$t/trunc.npy"
expect 2 "trunc.npy" -- "$MXSIM" quantize "$t/trunc.npy" -o "$t/bad12.npz"; absent "$t/bad12.npz"
head -c 500 "$t/a.npz" > "$t/trunc.npz"
expect 2 "trunc.npz" -- "$MXSIM" gemm "$t/trunc.npz" "$t/w.npz" -o "$t/bad13.npy"; absent "$t/bad13.npy"
: > "$t/empty.npy"
expect 2 "empty.npy" -- "$MXSIM" info "$t/empty.npy"
expect 2 "nonexistent.npy" -- "$MXSIM" quantize "$t/nonexistent.npy" -o "$t/bad14.npz"
expect 2 "" -- "$MXSIM" quantize "$t" -o "$t/bad15.npz"; absent "$t/bad15.npz"
# unwritable output location: runtime failure (1), no file
expect 1 "no-such-dir" -- "$MXSIM" gemm "$t/a.npz" "$t/w.npz" -o "$t/no-such-dir/c.npy"
ls "$t" | grep -q '\.tmp' && { echo "FAIL: temporary files left in $t"; fails=$((fails+1)); }

echo "$fails failures"
[ "$fails" -eq 0 ]
