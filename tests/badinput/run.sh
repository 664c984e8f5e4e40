#!/usr/bin/env bash
# tests/badinput/run.sh - the bad-input catalogue: malformed inputs of every format the
# CLI reads (.npy, .npz, traces plain and .gz, INI, SCALE-Sim .cfg and topology .csv, model
# files) and malformed flags, each run through the CLI with
#   - its expected exit status (2: bad input or usage; 1: runtime failure such as an unwritable
#     output path),
#   - a fragment the message must contain (it names the file and the field at fault),
#   - the check that no output file, and no temporary file, was left behind: every case that
#     writes writes into $t/out, which must still be empty after it,
#   - a 60 s timeout, so a hang (a FIFO opened for reading, an op too large to time) fails.
# Binary fixtures are committed in tests/badinput/files/ (make-files.py regenerates them); text
# fixtures are written here.  Registered with CTest from tests/fuzz/CMakeLists.txt; run by hand:
#   MXSIM=build/mxsim MXSIM_SOURCE_DIR=. MXSIM_TEST_TMP=/tmp/bad bash tests/badinput/run.sh
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP
rm -rf "$t" && mkdir -p "$t/in" "$t/out"
src=$MXSIM_SOURCE_DIR
F=$src/tests/badinput/files
in=$t/in
out=$t/out
cfg=$src/workloads/configs/small.ini
tr=$src/traces/bert-base.trace
n=0
fails=0
partial=0         # a section this build or host cannot run was skipped: the doc table is not compared
declare -A tally  # cases by the ID's prefix (before the first '-'): sim/doc/robustness.md section 5 counts them

# bad ID CODE FRAGMENT -- command...
bad() {
  local id=$1 code=$2 frag=$3; shift 4
  local o rc left
  n=$((n + 1)); tally[${id%%-*}]=$(( ${tally[${id%%-*}]:-0} + 1 ))
  o=$(timeout 60 "$@" 2>&1 </dev/null); rc=$?
  left=$(ls -A "$out")
  if [ "$rc" -eq 124 ]; then
    echo "FAIL [$id] timed out after 60 s: $*"; fails=$((fails + 1))
  elif [ "$rc" -ne "$code" ]; then
    echo "FAIL [$id] exit $rc, expected $code: $*"; echo "$o" | head -3 | sed 's/^/       /'; fails=$((fails + 1))
  elif ! grep -qF -- "$frag" <<<"$o"; then
    echo "FAIL [$id] message lacks '$frag': $*"; echo "$o" | head -3 | sed 's/^/       /'; fails=$((fails + 1))
  elif [ -n "$left" ]; then
    echo "FAIL [$id] left behind in $out: $left"; fails=$((fails + 1))
  else
    echo "ok   [$id] exit $code, '$frag'"
  fi
  rm -rf "${out:?}"/* "$out"/.[!.]* 2>/dev/null
}

# ---- .npy (quantize reads one) ----------------------------------------------------------------
: > "$in/empty.npy"
bad npy-empty 2 "empty.npy: empty file (0 bytes)" -- "$MXSIM" quantize "$in/empty.npy" -o "$out/x.npz"
bad npy-garbage 2 "garbage.npy: bad magic" -- "$MXSIM" quantize "$F/garbage.npy" -o "$out/x.npz"
bad npy-truncated 2 "truncated.npy: truncated: header declares 256 bytes" -- "$MXSIM" quantize "$F/truncated.npy" -o "$out/x.npz"
bad npy-trailing 2 "trailing.npy: trailing data" -- "$MXSIM" quantize "$F/trailing.npy" -o "$out/x.npz"
bad npy-header-past-end 2 "header length field says 65535 bytes" -- "$MXSIM" info "$F/header_len_past_end.npy"
bad npy-version 2 ".npy format version 9.0 is not supported" -- "$MXSIM" info "$F/version9.npy"
bad npy-dtype-f64 2 "'descr': dtype '<f8' is not supported" -- "$MXSIM" quantize "$F/f64.npy" -o "$out/x.npz"
bad npy-dtype-int8 2 "dtype int8 '|i1', expected float32 or bf16" -- "$MXSIM" quantize "$F/int8_for_quantize.npy" -o "$out/x.npz"
bad npy-shape-overflow 2 "(1099511627776, 1099511627776): element count overflows" -- "$MXSIM" quantize "$F/overflow_shape.npy" -o "$out/x.npz"
bad npy-shape-overflow-with-zero 2 "(0, 4611686018427387904, 4611686018427387904): element count overflows" -- "$MXSIM" quantize "$F/overflow_shape_with_zero.npy" -o "$out/x.npz"
bad npy-shape-64gib 2 "exceeds the 64 GiB tensor limit" -- "$MXSIM" quantize "$F/over_64gib.npy" -o "$out/x.npz"
bad npy-nine-dims 2 "'shape': more than 8 dimensions" -- "$MXSIM" info "$F/nine_dims.npy"
bad npy-fortran 2 "'fortran_order': True is not supported" -- "$MXSIM" quantize "$F/fortran.npy" -o "$out/x.npz"
bad npy-unknown-key 2 "unexpected key 'extra'" -- "$MXSIM" info "$F/unknown_key.npy"
bad npy-directory 2 "is a directory, expected a regular file" -- "$MXSIM" quantize "$in" -o "$out/x.npz"
bad npy-missing 2 "nope.npy: cannot open: No such file" -- "$MXSIM" quantize "$in/nope.npy" -o "$out/x.npz"

# ---- .npz (dequantize and gemm read them) -----------------------------------------------------
bad npz-truncated 2 "truncated.npz: end of central directory record not found" -- "$MXSIM" dequantize "$F/truncated.npz" -o "$out/x.npy"
bad npz-crc 2 "member 'mantissa': CRC-32 mismatch" -- "$MXSIM" dequantize "$F/crc_mismatch.npz" -o "$out/x.npy"
bad npz-bomb 2 "more than deflate can produce" -- "$MXSIM" dequantize "$F/declared_size_bomb.npz" -o "$out/x.npy"
bad npz-missing-member 2 "member 'profile' is missing" -- "$MXSIM" dequantize "$F/missing_profile.npz" -o "$out/x.npy"
bad npz-extra-member 2 "member 'extra': unexpected member" -- "$MXSIM" dequantize "$F/extra_member.npz" -o "$out/x.npy"
bad npz-profile 2 "unknown profile 'fp8'" -- "$MXSIM" dequantize "$F/unknown_profile.npz" -o "$out/x.npy"
bad npz-scale-shape 2 "scale: shape (2, 2) does not match" -- "$MXSIM" gemm "$F/scale_shape.npz" "$F/ok.npz" -o "$out/c.npy"
bad npz-group 2 "group_size=5 does not divide axis 1" -- "$MXSIM" dequantize "$F/group_not_dividing.npz" -o "$out/x.npy"
bad npz-mantissa-dtype 2 "mantissa: dtype float32 '<f4', expected int8 '|i1'" -- "$MXSIM" dequantize "$F/mantissa_float.npz" -o "$out/x.npy"
bad npz-axis 2 "axis=7: out of range" -- "$MXSIM" info "$F/axis_out_of_range.npz"
bad npz-is-npy 2 "not a ZIP/.npz archive" -- "$MXSIM" gemm "$F/truncated.npy" "$F/ok.npz" -o "$out/c.npy"

# ---- traces: text and .gz ---------------------------------------------------------------------
: > "$in/empty.trace"
printf 'mxsim-trace 1\ngemm name=a m=1\0 n=1 k=32\n' > "$in/nul.trace"
printf 'mxsim-trace 1\ngemm name=a m=2147483649 n=1 k=32\n' > "$in/dim.trace"
printf 'mxsim-trace 1\ngemm name=a m=2147483648 n=2147483648 k=2147483648 repeat=1099511627776\n' > "$in/overflow.trace"
# just above the limit: the message's value must show it above (2.5e+17 read as equal to it)
printf 'mxsim-trace 1\ngemm name=a m=250000001 n=31250000 k=32\n' > "$in/just-over.trace"
printf 'mxsim-trace 1\ngemm name=a m=524288 n=524288 k=524288\n' > "$in/tiles.trace"
"$MXSIM" trace convert "$tr" "$in/ok.trace.gz" || { echo "FAIL: cannot make a .gz trace"; fails=$((fails + 1)); }
head -c 60 "$in/ok.trace.gz" > "$in/truncated.trace.gz"
cp "$in/ok.trace.gz" "$in/corrupt.trace.gz"
printf '\x55\x55\x55\x55' | dd of="$in/corrupt.trace.gz" bs=1 seek=30 conv=notrunc status=none
sz=$(wc -c < "$in/ok.trace.gz")
head -c $((sz - 8)) "$in/ok.trace.gz" > "$in/no_trailer.trace.gz"
mkfifo "$in/fifo.trace"
bad trace-empty 2 "empty.trace:1: empty trace: header 'mxsim-trace 2' (or 1) missing" -- "$MXSIM" trace check "$in/empty.trace"
bad trace-nul 2 "binary data (NUL byte)" -- "$MXSIM" run --config "$cfg" "$in/nul.trace" -o "$out/r.csv"
printf 'GIF89a\x01\x02 not a trace\n' > "$in/garbage.trace"
bad trace-garbage 2 "garbage.trace:1: expected header 'mxsim-trace 1'" -- "$MXSIM" trace check "$in/garbage.trace"
bad trace-binary 2 "binary data (NUL byte)" -- "$MXSIM" trace check "$F/version9.npy"
bad trace-gz-truncated 2 "truncated gzip stream" -- "$MXSIM" run --config "$cfg" "$in/truncated.trace.gz" -o "$out/r.csv"
bad trace-gz-no-trailer 2 "truncated gzip stream" -- "$MXSIM" trace convert "$in/no_trailer.trace.gz" "$out/x.trace"
bad trace-gz-corrupt 2 "gzip stream" -- "$MXSIM" trace check "$in/corrupt.trace.gz"
bad trace-dim 2 "field 'm': 2147483649 must be in 1..2147483648" -- "$MXSIM" trace check "$in/dim.trace"
bad trace-overflow 2 "m*n*k*repeat (MACs) = 1.088903574e+40 is above the counters' limit of 2.5e17" -- "$MXSIM" run --config "$cfg" "$in/overflow.trace" -o "$out/r.csv"
bad trace-overflow-just-over 2 "m*n*k*repeat (MACs) = 2.50000001e+17 is above the counters' limit of 2.5e17" -- "$MXSIM" run --config "$cfg" "$in/just-over.trace" -o "$out/r.csv"
# 2^57 MACs in about 2^40 tiles: no tile-count limit, the analytic engine crosses identical tiles in periods (issue 14)
bad trace-many-tiles 0 "TOTAL" -- "$MXSIM" run --config "$cfg" "$in/tiles.trace"
bad trace-directory 2 "is a directory, expected a regular file" -- "$MXSIM" run --config "$cfg" "$in" -o "$out/r.csv"
bad trace-fifo 2 "is a FIFO, expected a regular file" -- "$MXSIM" trace check "$in/fifo.trace"
# keys an op would carry and nothing would read; a control byte echoed as \xNN, not to the terminal
printf 'mxsim-trace 2\ndequant name=d m=8 n=64 b_role=weight\n' > "$in/dq-role.trace"
bad trace-b-role-dequant 2 "dq-role.trace:2: field 'b_role': only gemm has a B operand" -- "$MXSIM" trace check "$in/dq-role.trace"
printf 'mxsim-trace 1\ngemm name=a m=64 n=64 k=256 a=int8 b=int8 group=7 out=fp32\n' > "$in/i8-group.trace"
bad trace-group-int8 2 "i8-group.trace:2: field 'group': an int8 x int8 gemm with out=fp32 has no scale groups" -- "$MXSIM" run --config "$cfg" "$in/i8-group.trace" -o "$out/r.csv"
printf 'mxsim-trace 1\ngemm name=a m=1 n=1 k=32 \033[2J=1\n' > "$in/esc.trace"
bad trace-control-byte 2 "esc.trace:2: field '\\x1B[2J': unknown key" -- "$MXSIM" trace check "$in/esc.trace"
# sweep --data: an op named ../x read DIR/../x.a.npy
mkdir -p "$in/dd/sub"; cp "$F/f32_2x3.npy" "$in/dd/x.a.npy" 2>/dev/null || printf 'x' > "$in/dd/x.a.npy"
printf 'mxsim-trace 1\ngemm name=../x m=4 n=8 k=32\n' > "$in/slash.trace"
bad trace-data-traversal 2 "op '../x': field 'name': a name with '/' or a leading '.' cannot name a file in the data directory" -- "$MXSIM" sweep --config "$cfg" "$in/slash.trace" --group-size 32 --data "$in/dd/sub" -q -o "$out/s.csv"
bad trace-missing 2 "cannot open: No such file" -- "$MXSIM" run --config "$cfg" "$in/nope.trace" -o "$out/r.csv"

# ---- INI configurations -----------------------------------------------------------------------
ini() { printf "$2" > "$in/$1.ini"; }
ini nan '[dram]\nbw_bytes_per_cycle = nan\n'
ini inf '[clock]\nmhz = inf\n'
ini unknown '[array]\nrows = 8\nspeed = 3\n'
ini section '[array\nrows = 8\n'
ini novalue '[array]\nrows =\n'
ini intover '[array]\nrows = 99999999999999999999\n'
ini enum '[array]\ndataflow = rs\n'
ini pes '[array]\nrows = 4096\ncols = 4096\n'
printf '[array]\nrows = 8\0\n' > "$in/nul.ini"
bad ini-nan 2 "nan.ini:2: field 'dram.bw_bytes_per_cycle': 'nan' is not a number" -- "$MXSIM" run --config "$in/nan.ini" "$tr" -o "$out/r.csv"
bad ini-inf 2 "inf.ini:2: field 'clock.mhz': 'inf' is not a number" -- "$MXSIM" run --config "$in/inf.ini" "$tr" -o "$out/r.csv"
bad ini-unknown-key 2 "unknown.ini:3: field 'array.speed': unknown key" -- "$MXSIM" run --config "$in/unknown.ini" "$tr" -o "$out/r.csv"
bad ini-section 2 "section.ini:1: malformed section header" -- "$MXSIM" config --config "$in/section.ini" --dump
bad ini-empty-value 2 "novalue.ini:2: field 'rows': empty value" -- "$MXSIM" run --config "$in/novalue.ini" "$tr" -o "$out/r.csv"
bad ini-int-overflow 2 "intover.ini:2: field 'array.rows': '99999999999999999999' is not an integer" -- "$MXSIM" config --config "$in/intover.ini" --dump
bad ini-enum 2 "enum.ini:2: field 'array.dataflow': 'rs' is not one of os|ws|is" -- "$MXSIM" run --config "$in/enum.ini" "$tr" -o "$out/r.csv"
bad ini-too-many-pes 2 "PEs: at most 2^22" -- "$MXSIM" run --config "$in/pes.ini" "$tr" -o "$out/r.csv"
bad ini-nul 2 "nul.ini: contains a NUL byte" -- "$MXSIM" run --config "$in/nul.ini" "$tr" -o "$out/r.csv"
bad ini-binary 2 "version9.npy" -- "$MXSIM" run --config "$F/version9.npy" "$tr" -o "$out/r.csv"
bad ini-directory 2 "is a directory, expected a regular file" -- "$MXSIM" run --config "$in" "$tr" -o "$out/r.csv"

# ---- SCALE-Sim .cfg and topology .csv ---------------------------------------------------------
scfg() { printf "$2" > "$in/$1.cfg"; }
scfg bw '[architecture_presets]\nArrayHeight: 8\nBandwidth: 1e-300\n[run_presets]\nInterfaceBandwidth: USER\n'
scfg key '[architecture_presets]\nArrayHeight: 8\nWarpSpeed: 9\n'
scfg iface '[run_presets]\nInterfaceBandwidth: MAYBE\n'
scfg nanh '[architecture_presets]\nArrayHeight: nan\n'
printf 'Layer, M, N, K, X,\nl0, 1, 2, 3, 4,\n' > "$in/cols.csv"
printf 'Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\nc,2147483648,2147483648,2147483648,2147483648,4,1,1,\n' > "$in/im2col.csv"
printf 'Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\nc,8,8,3,9,4,1,1,\n' > "$in/filter.csv"
printf 'Layer, M, N, K,\nl0, nan, 2, 3,\n' > "$in/nan.csv"
printf 'Layer, M, N, K,\nl0, 1, 2, 3,\nl1, 4, 5, 6\n' > "$in/comma.csv"
bad cfg-bandwidth 2 "bw.cfg:3: field 'Bandwidth': '1e-300' is not a whole number of words per cycle in 1..65536" -- "$MXSIM" run --config "$in/bw.cfg" "$tr" -o "$out/r.csv"
bad cfg-unknown-key 2 "key.cfg:3: field 'WarpSpeed': unknown SCALE-Sim key" -- "$MXSIM" run --config "$in/key.cfg" "$tr" -o "$out/r.csv"
bad cfg-interface 2 "iface.cfg:2: field 'InterfaceBandwidth': 'MAYBE' is not CALC or USER" -- "$MXSIM" config --config "$in/iface.cfg" --dump
bad cfg-nan 2 "nanh.cfg:2: field 'array.rows': 'nan' is not an integer" -- "$MXSIM" run --config "$in/nanh.cfg" "$tr" -o "$out/r.csv"
scfg cont '[architecture_presets]\nDataflow : ws\n  MemoryBanks: 1\n'
bad cfg-continuation 2 "cont.cfg:3: 'MemoryBanks: 1' is indented deeper than the key on line 2" -- "$MXSIM" run --config "$in/cont.cfg" "$tr" -o "$out/r.csv"
scfg userbw '[architecture_presets]\nBandwidth: 0\n[run_presets]\nInterfaceBandwidth: USER\n'
bad cfg-user-bandwidth-0 2 "userbw.cfg:2: field 'Bandwidth': '0' is not a whole number of words per cycle in 1..65536 (read because InterfaceBandwidth is USER)" -- "$MXSIM" run --config "$in/userbw.cfg" "$tr" -o "$out/r.csv"
bad csv-columns 2 "cols.csv:2: 5 values: a row has 4 (Layer, M, N, K) or 8" -- "$MXSIM" run --config "$cfg" "$in/cols.csv" -o "$out/r.csv"
printf '[general]\nrun_name = x\n' > "$in/ss.conf"
bad cfg-scalesim-not-cfg 2 "ss.conf:2: field 'general.run_name': unknown key (not in the configuration field table) (section [general] is SCALE-Sim's: a SCALE-Sim configuration is read as one when its name ends in .cfg)" -- "$MXSIM" run --config "$in/ss.conf" "$tr" -o "$out/r.csv"
printf 'Layer, M, N, K,\nl0, 1, 2, 3,\n' > "$in/topo.txt"
bad csv-topology-not-csv 2 "topo.txt:1: expected header 'mxsim-trace 1' (a comma-separated line: a SCALE-Sim topology is read as one when its name ends in .csv)" -- "$MXSIM" run --config "$cfg" "$in/topo.txt" -o "$out/r.csv"
printf 'Layer, M, N, K,\nl0, 1, , 3,\n' > "$in/emptyv.csv"
bad csv-empty-value 2 "emptyv.csv:2: field 'N': value 3 is empty" -- "$MXSIM" run --config "$cfg" "$in/emptyv.csv" -o "$out/r.csv"
printf 'Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\nc0, 8, 8, 3, 3, , 8, 1,\n' > "$in/emptyc.csv"
bad csv-empty-conv-value 2 "emptyc.csv:2: field 'Channels': value 6 is empty" -- "$MXSIM" run --config "$cfg" "$in/emptyc.csv" -o "$out/r.csv"
printf 'Layer;M;N;K;\nl0;1;2;3;\n' > "$in/semi.csv"
bad csv-semicolons 2 "semi.csv:2: 0 values (SCALE-Sim drops 'l0;1;2;3;', the text after the last comma): a row has 4" -- "$MXSIM" run --config "$cfg" "$in/semi.csv" -o "$out/r.csv"
bad csv-semicolons-hint 2 "the line separates its values with ';': a topology's are separated by ','" -- "$MXSIM" run --config "$cfg" "$in/semi.csv" -o "$out/r.csv"
printf 'Layer, M, N, K,\nf\xe9, 1, 2, 3,\n' > "$in/latin.csv"
bad csv-name-not-utf8 2 "latin.csv:2: field 'name': not UTF-8 text (byte 0xE9 at offset 1; save the file as UTF-8)" -- "$MXSIM" run --config "$cfg" "$in/latin.csv" -o "$out/r.csv"
bad csv-im2col-overflow 2 "im2col.csv:2: im2col dims overflow 2^31" -- "$MXSIM" trace check "$in/im2col.csv"
bad csv-filter 2 "filter.csv:2: field 'Filter Width': filter larger than the input" -- "$MXSIM" trace check "$in/filter.csv"
bad csv-nan 2 "nan.csv:2: field 'M': 'nan' is not an integer" -- "$MXSIM" trace convert "$in/nan.csv" "$out/x.trace"
bad csv-trailing-comma 2 "comma.csv:3: missing trailing comma" -- "$MXSIM" trace convert --require-comma "$in/comma.csv" "$out/x.trace"

# ---- model definitions (mxsim trace gen) ------------------------------------------------------
printf 'layer = conv c 1 1 2 2 1 1 2 0\n' > "$in/filter.model"
printf 'hidden = 2147483648\nlayers = 2147483648\nheads = 2147483648\nkv_heads = 2147483648\nhead_dim = 2147483648\nffn = 1\nseq = 1\n' > "$in/overflow.model"
printf 'hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 1\nseq = 1\ndepth = 3\n' > "$in/key.model"
printf 'layer = gemm g 4 8 -16\n' > "$in/neg.model"
bad model-filter 2 "filter.model:1: field 'layer': filter larger than the input" -- "$MXSIM" trace gen "$in/filter.model" -o "$out/x.trace"
bad model-overflow 2 "overflow.model:5: field 'head_dim': (heads + 2 kv_heads) x head_dim, the QKV projection's N = more than 2^63, above 2^31" -- "$MXSIM" trace gen "$in/overflow.model" -o "$out/x.trace"
# model files a user writes by hand (session-14 audit with published configurations): the names of
# layers and parameters, derived sizes past the trace's limits, line ends, the default mode
printf 'layer = gemm %s 1 10 10\n' "$(printf 'l%.0s' $(seq 70))" > "$in/longlayer.model"
printf 'hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 8\nffn_gated = 0\nseq = 4\nlayer = gemm qkv_proj 1 10 10\n' > "$in/clash.model"
printf 'layer = gemm a 1 10 10\nlayer = gemm b 1 10 10\nlayer = gemm a 2 10 10\n' > "$in/twice.model"
printf 'layer = gemm a 1 10 10\nparam = emb 100 1 embedding\nparam = emb 100 1 embedding\n' > "$in/param2.model"
printf 'layer = gemm a 1 10 10\nparam = emb 100 0 embedding\n' > "$in/param0.model"
printf 'hidden = 64\r\nlayers = 1\rheads = 2\r\n' > "$in/cr.model"
printf 'hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 8\nctx = 16\n' > "$in/nomode.model"
printf 'hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 1073741825\nffn_gated = 1\nseq = 4\n' > "$in/gated.model"
printf 'hidden = 64\nlayers = 1\nheads = 32\nkv_heads = 1\nhead_dim = 32\nffn = 8\nseq = 134217728\n' > "$in/gqa_m.model"
bad model-layer-name-long 2 "longlayer.model:1: field 'layer': name 'llllllllllllllllllll...' must be 1..63 characters" -- "$MXSIM" trace gen "$in/longlayer.model" -o "$out/x.trace"
bad model-layer-name-clash 2 "clash.model:8: field 'layer': name 'qkv_proj' is already an op of the transformer keys" -- "$MXSIM" trace gen "$in/clash.model" -o "$out/x.trace"
bad model-layer-name-twice 2 "twice.model:3: field 'layer': name 'a' is already the layer of line 1" -- "$MXSIM" trace gen "$in/twice.model" -o "$out/x.trace"
bad model-param-twice 2 "param2.model:3: param 'emb': field 'name': given twice (use COUNT for copies)" -- "$MXSIM" trace gen "$in/param2.model" -o "$out/x.trace"
bad model-param-count0 2 "param0.model:2: param 'emb': field 'count' out of range" -- "$MXSIM" trace gen "$in/param0.model" -o "$out/x.trace"
printf 'layer = gemm a 1 10 10\nparam = emb 1099511627776 1099511627776 embedding\n' > "$in/parambig.model"
bad model-param-overflow 2 "parambig.model:2: param 'emb': field 'count': 1099511627776 x 1099511627776 elements in fp32 pass 2^63 bytes" -- "$MXSIM" trace gen "$in/parambig.model" -o "$out/x.trace"
bad model-cr-line-ends 2 "cr.model:2: a CR line end without LF" -- "$MXSIM" trace gen "$in/cr.model" -o "$out/x.trace"
bad model-no-mode 2 "nomode.model: field 'seq': missing for a transformer in prefill mode (the mode when no 'mode' key is given)" -- "$MXSIM" trace gen "$in/nomode.model" -o "$out/x.trace"
bad model-gated-n 2 "gated.model:5: field 'ffn': 2 x ffn, the gated FFN's N = 2147483650, above 2^31" -- "$MXSIM" trace gen "$in/gated.model" -o "$out/x.trace"
bad model-gqa-m 2 "gqa_m.model:7: field 'seq': seq x heads / kv_heads, the attention GEMMs' M = 4294967296, above 2^31" -- "$MXSIM" trace gen "$in/gqa_m.model" -o "$out/x.trace"
printf 'mxsim-trace 2\ngemm name=a m=1 n=10 k=10 b_role=weight\nparam name=emb elems=100 why=embedding\nparam name=emb elems=100 why=embedding\n' > "$in/param2.trace"
bad trace-param-twice 2 "param2.trace:4: param 'emb': field 'name': given twice (use COUNT for copies)" -- "$MXSIM" trace check "$in/param2.trace"
bad model-unknown-key 2 "key.model:7: field 'depth': unknown key" -- "$MXSIM" trace gen "$in/key.model" -o "$out/x.trace"
bad model-negative 2 "neg.model:1: field 'layer': '-16' is not a valid number" -- "$MXSIM" trace gen "$in/neg.model" -o "$out/x.trace"

# ---- flags --------------------------------------------------------------------------------------
bad flag-set-no-eq 2 "--set 'x': expected key=value" -- "$MXSIM" run --config "$cfg" --set x "$tr" -o "$out/r.csv"
bad flag-set-nan 2 "--set: field 'dram.bw_bytes_per_cycle': 'nan' is not a number" -- "$MXSIM" run --config "$cfg" --set dram.bw_bytes_per_cycle=nan "$tr" -o "$out/r.csv"
bad flag-set-unknown 2 "--set: field 'array.speed': unknown key" -- "$MXSIM" run --config "$cfg" --set array.speed=3 "$tr" -o "$out/r.csv"
bad flag-array 2 "--array" -- "$MXSIM" run --config "$cfg" --array 8 "$tr" -o "$out/r.csv"
bad flag-format 2 "--format" -- "$MXSIM" run --config "$cfg" --format xml "$tr" -o "$out/r.csv"
bad flag-group-size 2 "field 'mx.group_size': 0 out of range" -- "$MXSIM" run --config "$cfg" --group-size 0 "$tr" -o "$out/r.csv"
bad flag-threads 2 "--threads 5000: must be in 0..1024" -- "$MXSIM" gemm --threads 5000 "$F/ok.npz" "$F/ok.npz" -o "$out/c.npy"
bad flag-group-overflow 2 "--group-size '99999999999999999999': not an integer" -- "$MXSIM" quantize --group-size 99999999999999999999 "$F/fortran.npy" -o "$out/x.npz"
bad flag-sweep-axis 2 "field 'mx.group_size': 0 out of range" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 0 --quiet -o "$out/s.csv"
bad flag-sweep-data-missing 2 "accuracy data directory '/no/such/dir': No such file or directory" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 32 --data /no/such/dir --quiet -o "$out/s.csv"
bad flag-cost-node 2 "node_nm: 3 nm is not in the Stillmaker & Baas table" -- "$MXSIM" cost --config "$cfg" --node 3
bad flag-report-input 2 "garbage.npy:2: field 'column 1': a bare carriage return" -- "$MXSIM" report "$F/garbage.npy" -o "$out/rep"
bad flag-unknown 2 "unknown option" -- "$MXSIM" run --config "$cfg" --frobnicate "$tr" -o "$out/r.csv"

# ---- sweep results: CSV + JSON sidecar (mxsim report reads them) ------------------------------
# Each case edits one field of the committed example sweep, found by its column name (line 1: the
# header; $tl: the first TOTAL row), and takes its sidecar along, or edits the sidecar.
ex=$src/reports/example/results.csv
exm=$src/reports/example/results.meta.json
edit() { awk -F, -v OFS=, -v L="$1" -v N="$2" -v V="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == N) C = i }
                                                         NR == L { $C = V } { print }' "$ex"; }
case_csv() { edit "$2" "$3" "$4" > "$in/$1.csv"; cp "$exm" "$in/$1.meta.json"; }
tl=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "op") C = i } NR > 1 && $C == "TOTAL" { print NR; exit }' "$ex")
nc=$(head -1 "$ex" | awk -F, '{ print NF }')
case_csv r_nan "$tl" energy_mj 12x
bad report-not-number 2 "r_nan.csv:$tl: field 'energy_mj': not a number, got '12x'" -- "$MXSIM" report "$in/r_nan.csv" -o "$out/rep"
case_csv r_neg "$tl" time_us -3
bad report-negative-time 2 "r_neg.csv:$tl: field 'time_us': expected a finite number >= 0, got '-3'" -- "$MXSIM" report "$in/r_neg.csv" -o "$out/rep"
case_csv r_inf "$tl" energy_mj inf
bad report-inf-energy 2 "r_inf.csv:$tl: field 'energy_mj': expected a finite number >= 0, got 'inf'" -- "$MXSIM" report "$in/r_inf.csv" -o "$out/rep"
case_csv r_wide $((tl + 1)) status ok,extra
bad report-row-width 2 "r_wide.csv:$((tl + 1)): field 'row': $((nc + 1)) values, header has $nc" -- "$MXSIM" report "$in/r_wide.csv" -o "$out/rep"
case_csv r_nosqnr 1 sqnr_db sqnr
bad report-missing-column 2 "r_nosqnr.csv: field 'sqnr_db': column missing" -- "$MXSIM" report "$in/r_nosqnr.csv" -o "$out/rep"
case_csv r_key 1 point point
sed 's/"csv_fnv1a64"/"csv_fnv1a64_"/' "$exm" > "$in/r_key.meta.json"
bad report-sidecar-unknown-key 2 "r_key.meta.json:4: field 'csv_fnv1a64_': unknown key" -- "$MXSIM" report "$in/r_key.csv" -o "$out/rep"
bad report-out-dash 2 "-o -: the report is a directory" -- "$MXSIM" report "$ex" -o -
case_csv r_axis "$tl" array.size 7
bad report-axis-value 2 "r_axis.csv:$tl: field 'array.size': '7' is not one of the axis' values in" -- "$MXSIM" report "$in/r_axis.csv" -o "$out/rep"
case_csv r_dup 1 array.size time_us
bad report-duplicate-column 2 "r_dup.csv:1: field 'header': column 'time_us' appears twice" -- "$MXSIM" report "$in/r_dup.csv" -o "$out/rep"
case_csv r_quote "$tl" op 'TO"TAL'
bad report-stray-quote 2 "r_quote.csv:$tl: field 'op': a quote inside an unquoted field" -- "$MXSIM" report "$in/r_quote.csv" -o "$out/rep"
{ printf 'point'; for i in $(seq 2000); do printf ',c%d' "$i"; done; echo; } > "$in/r_cols.csv"
bad report-too-many-columns 2 "r_cols.csv:1: field 'header': more than 1024 columns" -- "$MXSIM" report "$in/r_cols.csv" -o "$out/rep"
: > "$in/r_empty.csv"
bad report-empty 2 "r_empty.csv: field 'header': no header row" -- "$MXSIM" report "$in/r_empty.csv" -o "$out/rep"
bad report-directory 2 "$in: is a directory, expected a regular file" -- "$MXSIM" report "$in" -o "$out/rep"
cp "$ex" "$in/r_nometa.csv"
bad report-no-sidecar 2 "r_nometa.meta.json: field 'sidecar': missing" -- "$MXSIM" report "$in/r_nometa.csv" -o "$out/rep"
cp "$ex" "$in/r_v1.csv"; sed 's/"version": 2/"version": 1/' "$exm" > "$in/r_v1.meta.json"
bad report-sidecar-version 2 "r_v1.meta.json:3: field 'version': this mxsim reads version 2" -- "$MXSIM" report "$in/r_v1.csv" -o "$out/rep"
cp "$ex" "$in/r_pts.csv"; sed 's/"points": 25/"points": 24/' "$exm" > "$in/r_pts.meta.json"
bad report-sidecar-points 2 "r_pts.csv:226: field 'point': more TOTAL rows than the 24 points" -- "$MXSIM" report "$in/r_pts.csv" -o "$out/rep"
cp "$ex" "$in/r_deep.csv"; { printf '{"a": '; for i in $(seq 40); do printf '['; done; for i in $(seq 40); do printf ']'; done; echo '}'; } > "$in/r_deep.meta.json"
bad report-sidecar-deep 2 "r_deep.meta.json:1: field 'json': nested deeper than 32 levels" -- "$MXSIM" report "$in/r_deep.csv" -o "$out/rep"
cp "$ex" "$in/r_trunc.csv"; head -c 300 "$exm" > "$in/r_trunc.meta.json"
bad report-sidecar-truncated 2 "r_trunc.meta.json:" -- "$MXSIM" report "$in/r_trunc.csv" -o "$out/rep"
cp "$ex" "$in/r_unit.csv"; python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); m["axes"][0]["unit"]=8; json.dump(m, open(sys.argv[2], "w"), indent=1)' "$exm" "$in/r_unit.meta.json"
bad report-sidecar-type 2 "r_unit.meta.json:15: field 'axes[0].unit': expected a string, got a number" -- "$MXSIM" report "$in/r_unit.csv" -o "$out/rep"

# ---- unwritable outputs: a runtime failure (1), and still nothing left behind --------------------
: > "$in/regular"
bad out-no-dir 1 "$out/no-such-dir/r.csv" -- "$MXSIM" run --config "$cfg" "$tr" -o "$out/no-such-dir/r.csv"
"$MXSIM" dequantize "$F/ok.npz" -o "$in/ok.npy" || { echo "FAIL: cannot make a .npy"; fails=$((fails + 1)); }
bad out-under-file 1 "$in/regular/x.npz" -- "$MXSIM" quantize --group-size 16 "$in/ok.npy" -o "$in/regular/x.npz"
bad out-is-dir 1 "$out/" -- "$MXSIM" run --config "$cfg" "$tr" -o "$out/"
mkdir -p "$in/dir.trace"
bad out-dir-name 1 "$in/dir.trace" -- "$MXSIM" trace convert "$tr" "$in/dir.trace"
[ -z "$(ls -A "$in/dir.trace")" ] && [ ! -s "$in/regular" ] || { echo "FAIL: files left in $in"; fails=$((fails + 1)); }
bad out-npy-no-dir 1 "$out/none/c.npy" -- "$MXSIM" dequantize "$F/ok.npz" -o "$out/none/c.npy"
bad out-report-under-file 1 "$in/regular: exists and is not a directory" -- "$MXSIM" report "$ex" -o "$in/regular/rep"

# ---- robustness v2 (issue 15): NUL bytes, gzip trailing data, duplicate keys, output paths ------
printf 'name = x\nlayer = gemm a 4 8 16\n\0layer = gemm b 4 8 16\n' > "$in/nul.model"
bad model-nul 2 "nul.model:3: contains a NUL byte" -- "$MXSIM" trace gen "$in/nul.model" -o "$out/x.trace"
printf 'hidden = 64\nlayers = 1\nhidden = 128\n' > "$in/dup.model"
bad model-duplicate 2 "dup.model:3: field 'hidden': duplicate key (first on line 1)" -- "$MXSIM" trace gen "$in/dup.model" -o "$out/x.trace"
printf 'name = a\nname = b\nlayer = gemm a 4 8 16\n' > "$in/dupname.model"
bad model-duplicate-name 2 "dupname.model:2: field 'name': duplicate key (first on line 1)" -- "$MXSIM" trace gen "$in/dupname.model" -o "$out/x.trace"
cp "$in/ok.trace.gz" "$in/trailing.trace.gz"; echo "appended text" >> "$in/trailing.trace.gz"
bad trace-gz-trailing 2 "trailing data at byte $(wc -c < "$in/ok.trace.gz") after the gzip stream" -- "$MXSIM" trace check "$in/trailing.trace.gz"
printf '[array]\nrows = 8\ncols = 8\nrows = 16\n' > "$in/dup.ini"
bad ini-duplicate 2 "dup.ini:4: field 'array.rows': duplicate key (first on line 2)" -- "$MXSIM" run --config "$in/dup.ini" "$tr" -o "$out/r.csv"
printf 'array.rows = 8\n[array]\nrows = 16\n' > "$in/dup2.ini"
bad ini-duplicate-spelled-twice 2 "dup2.ini:3: field 'array.rows': duplicate key (first on line 1)" -- "$MXSIM" config --config "$in/dup2.ini" --dump
printf '[architecture_presets]\nArrayHeight: 8\narrayheight: 16\n' > "$in/dup.cfg"
bad cfg-duplicate 2 "dup.cfg:3: field 'architecture_presets.arrayheight': duplicate key (first on line 2)" -- "$MXSIM" config --config "$in/dup.cfg" --dump
printf '\xef\xbb\xbf[array]\nrows = 8\nrows = 9\n' > "$in/bomdup.ini"
bad ini-bom-then-duplicate 2 "bomdup.ini:3: field 'array.rows': duplicate key (first on line 2)" -- "$MXSIM" config --config "$in/bomdup.ini" --dump
if [ -f "$src/workloads/gpus/h200.ini" ] && "$MXSIM" help compare-gpu > /dev/null 2>&1; then
  { head -3 "$src/workloads/gpus/h200.ini"; printf '\0'; tail -n +4 "$src/workloads/gpus/h200.ini"; } > "$in/nul-card.ini"
  bench=$src/reports/gpu/NVIDIA-H200-2026-11-26/bench.csv
  bad gpu-card-nul 2 "nul-card.ini:4: contains a NUL byte" -- "$MXSIM" compare-gpu --card "$in/nul-card.ini" --measured "$bench" --quiet
  { head -5 "$bench"; printf '\0'; tail -n +6 "$bench"; } > "$in/nul-bench.csv"
  bad gpu-bench-nul 2 "nul-bench.csv:6: contains a NUL byte" -- "$MXSIM" compare-gpu --card "$src/workloads/gpus/h200.ini" --measured "$in/nul-bench.csv" --quiet
  rm -rf "$out/cg"
  bad gpu-max-mape-before-work 2 "--max-mape: 'abc' is not a positive percentage" -- "$MXSIM" compare-gpu --card "$src/workloads/gpus/h200.ini" --measured "$bench" --quiet --max-mape abc -o "$out/cg"
  bad gpu-out-dash 2 "-o -: compare-gpu writes a directory" -- "$MXSIM" compare-gpu --card "$src/workloads/gpus/h200.ini" --measured "$bench" --quiet -o -
  bad gpu-max-mape-hex 2 "--max-mape: '0x10' is not a positive percentage" -- "$MXSIM" compare-gpu --card "$src/workloads/gpus/h200.ini" --measured "$bench" --quiet --max-mape 0x10 -o "$out/cg"
  # a bench of the current kernels (cfg 8 rows) given to the first model: refused, pointing at the cross-card model
  printf 'card,shape,M,N,K,G,method,median_us,rate,unit,ratio\nX,s,16,64,64,32,mxk-gemm-mxint8-cfg8,1,1,TOPS,1\n' > "$in/hopper-bench.csv"
  bad gpu-bench-hopper-kernel 2 "hopper-bench.csv:2: method: kernel 'mxk-gemm-mxint8-cfg8' is not in this model" -- "$MXSIM" compare-gpu --card "$src/workloads/gpus/h200.ini" --measured "$in/hopper-bench.csv" --quiet
  # the cross-card model's readers (sim/src/gpumodel/xcard.c): power CSV and bench CSV
  xc=$src/workloads/gpus/h100-xcard.ini
  printf 'card,shape,M,N,K,G,method,median_us,power_w,joules_per_op\nX,s,1,1,1,0,m,1,-5,1\n' > "$in/power-neg.csv"
  bad xpower-negative 2 "power-neg.csv:2: field 9 (power_w): not a number >= 0" -- "$MXSIM" compare-gpu --trace "$tr" --config "$cfg" --xcard "$xc" --power "$in/power-neg.csv" -o "$out/cmp"
  printf '\n\nX,s,1,1,1,0,m,1,5,1\n' > "$in/power-headerless.csv"
  bad xpower-no-header 2 "power-headerless.csv:3: header: expected card" -- "$MXSIM" compare-gpu --trace "$tr" --config "$cfg" --xcard "$xc" --power "$in/power-headerless.csv" -o "$out/cmp"
  { printf 'card'; for i in $(seq 30); do printf ',c%d' "$i"; done; printf '\n'; } > "$in/power-wide.csv"
  bad xpower-too-many-fields 2 "power-wide.csv:1: more than 23 fields" -- "$MXSIM" compare-gpu --trace "$tr" --config "$cfg" --xcard "$xc" --power "$in/power-wide.csv" -o "$out/cmp"
  mkdir -p "$in/xb"
  printf 'card,shape,M,N,K,G,method,median_us,rate,unit,ratio\nX,copy,1,1,0,0,d2d-copy,abc,1,GB/s,1\n' > "$in/xb/bench.csv"
  h100=$src/reports/gpu/NVIDIA-H100-80GB-HBM3-2026-11-26
  bad xbench-field 2 "bench.csv:2: field 5 (K)" -- "$MXSIM" gpu-calibrate --from "$in/xb" --from-card "$xc" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  # a row shorter than a wide header was checked through fields it never set; a header with N and K
  # swapped was read by position; a power row with two extra fields gave power_w from dram_us (audit
  # of the twenty-fifth session)
  mkdir -p "$in/xs" "$in/xnk"
  printf 'card,shape,M,N,K,G,method,median_us,rate,unit,ratio,note
X,copy,1,1,1,0,d2d-copy,5
' > "$in/xs/bench.csv"
  bad xbench-short-row 2 "bench.csv:2: expected 12 fields (as the header), found 8" -- "$MXSIM" gpu-calibrate --from "$in/xs" --from-card "$xc" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  printf 'card,shape,M,K,N,G,method,median_us,rate,unit,ratio
X,s,1,1,1,0,m,5,1,x,1
' > "$in/xnk/bench.csv"
  bad xbench-header-swapped 2 "bench.csv:1: header: expected card,shape,M,N,K,G,method,median_us" -- "$MXSIM" gpu-calibrate --from "$in/xnk" --from-card "$xc" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  printf 'card,shape,M,N,K,G,method,median_us,power_w,joules_per_op
X,s,1,1,1,0,m,1,x,y,500,1
' > "$in/power-shift.csv"
  bad xpower-extra-fields 2 "power-shift.csv:2: expected 10 fields (as the header), found 12" -- "$MXSIM" compare-gpu --trace "$tr" --config "$cfg" --xcard "$xc" --power "$in/power-shift.csv" -o "$out/cmp"
  # a folder is its bench.csv and its bench_run*.csv: a bad row in a later run names that file
  mkdir -p "$in/xr"
  cp "$h100/bench.csv" "$in/xr/bench.csv"
  { head -2 "$h100/bench.csv"; printf 'X,s,16,4096,4096,32,mxk-gemm-mxint8-cfg9,-3,1,u,1\n'; } > "$in/xr/bench_run2.csv"
  bad xbench-run-field 2 "bench_run2.csv:3: field 8 (median_us)" -- "$MXSIM" gpu-calibrate --from "$in/xr" --from-card "$xc" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  # a run's build tag (xcard-runs.txt's third field, passed as BUILD:FOLDER): decode1, prebf16 and prerow are known
  bad xbench-build-tag 2 "unknown build 'decode7' (known: decode1, prebf16, prerow)" -- "$MXSIM" gpu-calibrate --from "decode7:$h100" --from-card "$xc" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  # the list of runs itself (tests/gpumodel/xcard.sh): a bad build tag or card, named with file and line
  printf '# runs\nh100 %s\nh200 %s prebf17\n' "$h100" "$h100" > "$in/xruns-tag.txt"
  bad xcard-runs-tag 2 "xruns-tag.txt:3: field 3 (build): 'prebf17' is not decode1, prebf16, prerow, launch or unseen" -- env MXSIM="$MXSIM" MXSIM_SOURCE_DIR="$src" MXSIM_XCARD_RUNS="$in/xruns-tag.txt" "$src/tests/gpumodel/xcard.sh"
  printf 'a100 %s\n' "$h100" > "$in/xruns-card.txt"
  bad xcard-runs-card 2 "xruns-card.txt:1: field 1 (card): 'a100' is not h100 or h200" -- env MXSIM="$MXSIM" MXSIM_SOURCE_DIR="$src" MXSIM_XCARD_RUNS="$in/xruns-card.txt" "$src/tests/gpumodel/xcard.sh"
  # the power file of a card (xcard.sh --power-of, as compare_best.sh asks it): an unknown card
  bad xcard-power-of-card 2 "card 'a100' is not h100 or h200" -- env MXSIM_SOURCE_DIR="$src" "$src/tests/gpumodel/xcard.sh" --power-of a100
  # the cross-card file's L2 size (the dequant+cuBLAS L2 reuse term): not a number, missing
  sed 's/^l2.mb = .*/l2.mb = lots/' "$xc" > "$in/xc-l2.ini"
  bad xcard-l2-nan 2 "xc-l2.ini:14: l2.mb: not a number" -- "$MXSIM" gpu-calibrate --from "$h100" --from-card "$in/xc-l2.ini" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  # the cross-card file's reader: a value with two words, a ';' inside a value, a line without '=', a duplicate key
  sed 's/^sm.count = .*/sm.count = 132 66/' "$xc" > "$in/xc-2w.ini"
  bad xcard-two-words 2 "xc-2w.ini:9: expected one key and one value" -- "$MXSIM" gpu-calibrate --from "$h100" --from-card "$in/xc-2w.ini" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  sed 's/^sm.count = .*/sm.count = 132;66/' "$xc" > "$in/xc-semi.ini"
  bad xcard-semicolon 2 "xc-semi.ini:9: sm.count: not a number" -- "$MXSIM" gpu-calibrate --from "$h100" --from-card "$in/xc-semi.ini" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  sed 's/^sm.count = \(.*\)/sm.count \1/' "$xc" > "$in/xc-noeq.ini"
  bad xcard-no-equals 2 "xc-noeq.ini:9: expected 'key = value'" -- "$MXSIM" gpu-calibrate --from "$h100" --from-card "$in/xc-noeq.ini" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  { cat "$xc"; echo "sm.count = 132"; } > "$in/xc-dup.ini"
  bad xcard-duplicate 2 "sm.count: duplicate key (first on line 9)" -- "$MXSIM" gpu-calibrate --from "$h100" --from-card "$in/xc-dup.ini" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  # the card file as a file (the reader used fopen/fgets: a FIFO or /dev/zero hung past SIGTERM, a NUL
  # dropped the rest of its line, 0x84 read as 132)
  mkfifo "$in/xc.fifo"
  bad xcard-fifo 2 "xc.fifo: is a FIFO, expected a regular file" -- "$MXSIM" gpu-calibrate --from "$h100" --from-card "$in/xc.fifo" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  bad xcard-directory 2 "in: is a directory, expected a regular file" -- "$MXSIM" compare-gpu --trace "$tr" --config "$cfg" --xcard "$in" --power "$src/reports/gpu/NVIDIA-H100-80GB-HBM3-2026-11-27-final8/bench_ext_run3.csv" -o "$out/cmp"
  sed 's/^sm.count = .*/sm.count = 132@ junk/' "$xc" | tr '@' '\000' > "$in/xc-nul.ini"
  bad xcard-nul 2 "xc-nul.ini:9: contains a NUL byte" -- "$MXSIM" gpu-calibrate --from "$h100" --from-card "$in/xc-nul.ini" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  sed 's/^sm.count = .*/sm.count = 0x84/' "$xc" > "$in/xc-hex.ini"
  bad xcard-hex 2 "xc-hex.ini:9: sm.count: not a number (decimal)" -- "$MXSIM" gpu-calibrate --from "$h100" --from-card "$in/xc-hex.ini" --to "$h100" --to-card "$xc" -o "$out/cal.csv"
  grep -v '^l2.mb' "$xc" > "$in/xc-nol2.ini"
  bad xcard-l2-missing 2 "xc-nol2.ini: every [datasheet] value is required" -- "$MXSIM" gpu-calibrate --from "$h100" --from-card "$xc" --to "$h100" --to-card "$in/xc-nol2.ini" -o "$out/cal.csv"
  # compare-gpu --xcard --power: a missing calibrated field (read as 0: NaN or 64x-too-fast times), a
  # power file of another card, a power row twice or with power 0 (sim/doc/gpu-model.md section 2.1)
  grep -v '^mem_eff' "$xc" > "$in/xc-noeff.ini"
  bad xcard-mem-eff-missing 2 "mxsim compare-gpu: error: $in/xc-noeff.ini:$(grep -n '^\[calibrated on' "$xc" | cut -d: -f1): [calibrated on ...]: field 'mem_eff' missing" -- "$MXSIM" compare-gpu --trace "$tr" --config "$cfg" --xcard "$in/xc-noeff.ini" --power "$src/reports/gpu/NVIDIA-H100-80GB-HBM3-2026-11-27-final8/bench_ext_run3.csv" -o "$out/cmp"
  bad xpower-other-card 2 "field 'card': the power file measured card 'NVIDIA H200', but the card file $xc is card 'h100'" -- "$MXSIM" compare-gpu --trace "$tr" --config "$cfg" --xcard "$xc" --power "$src/reports/gpu/NVIDIA-H200-2026-11-27-final8/bench_ext_run3.csv" -o "$out/cmp"
  printf 'card,shape,M,N,K,G,method,median_us,power_w,joules_per_op\nX,s,1,1,1,0,m,1,50,1\nX,s,1,1,1,0,m,2,60,1\n' > "$in/power-dup.csv"
  bad xpower-duplicate 2 "power-dup.csv:3: row: the same method, M, N, K, G as line 2" -- "$MXSIM" compare-gpu --trace "$tr" --config "$cfg" --xcard "$xc" --power "$in/power-dup.csv" -o "$out/cmp"
  printf 'card,shape,M,N,K,G,method,median_us,power_w,joules_per_op\nX,s,1,1,1,0,m,1,0,1\n' > "$in/power-zero.csv"
  bad xpower-zero 2 "power-zero.csv:2: field 9 (power_w): '0' is not a board power in [20, 1500] W" -- "$MXSIM" compare-gpu --trace "$tr" --config "$cfg" --xcard "$xc" --power "$in/power-zero.csv" -o "$out/cmp"
else
  echo "skip [gpu cases]: this build has no GPU model (MXSIM_WITH_GPUMODEL=OFF)"; partial=1
fi
bad flag-vdd-nan 2 "--vdd 'nan': not a number" -- "$MXSIM" cost --config "$cfg" --vdd nan
bad flag-vdd-negative 2 "--vdd -1: must be in 0.5..1.2" -- "$MXSIM" cost --config "$cfg" --vdd -1
bad flag-vdd-below-fit 2 "vdd_v: 0.55 V is below 0.586 V, where the Stillmaker & Baas 65 nm energy fit has its minimum" -- "$MXSIM" cost --config "$cfg" --node 65 --vdd 0.55
# an output that is the same file as an input (directly, through another spelling, or a hard link): refused before any work, the input intact
printf 'Layer, M, N, K,\nl0, 64, 64, 64,\n' > "$in/topo.csv"; cp "$in/topo.csv" "$in/topo.orig"
bad out-is-input 2 "output '$in/topo.csv' is the same file as the input '$in/topo.csv'" -- "$MXSIM" run --config "$cfg" "$in/topo.csv" -o "$in/topo.csv"
bad out-is-input-spelled 2 "is the same file as the input '$in/topo.csv'" -- "$MXSIM" run --config "$cfg" "$in/topo.csv" --out="$in/./topo.csv"
ln "$in/ok.npy" "$in/ok-link.npy"
bad out-is-input-hardlink 2 "output '$in/ok-link.npy' is the same file as the input '$in/ok.npy'" -- "$MXSIM" compare "$in/ok.npy" "$in/ok.npy" -o "$in/ok-link.npy" --format csv
cmp -s "$in/topo.csv" "$in/topo.orig" || { echo "FAIL: the input topology was overwritten"; fails=$((fails + 1)); }
# options a command would ignore: trace convert/check -o, memory's repeated G, a trace with nothing to size
bad trace-convert-o 2 "convert: -o has no meaning here (the output is the second argument, OUT)" -- "$MXSIM" trace convert "$tr" "$out/a.trace" -o "$out/b.trace"
bad trace-check-o 2 "check: -o has no meaning here" -- "$MXSIM" trace check "$tr" -o "$out/c.txt"
bad memory-group-twice 2 "memory: group size 32 given twice" -- "$MXSIM" memory --config "$cfg" --group-size 32 --group-size 32 "$tr" -o "$out/m.csv"
printf 'mxsim-trace 1\ndequant name=a m=64 n=64\n' > "$in/dqonly.trace"
bad memory-nothing-to-size 2 "dqonly.trace: no GEMM op and no param line: nothing to size" -- "$MXSIM" memory --config "$cfg" "$in/dqonly.trace" -o "$out/m.csv"
# a shorthand of run and a --set of the same field (the --set used to win silently)
bad run-shorthand-vs-set-g 2 "--group-size 16 and --set mx.group_size=32 both set mx.group_size" -- "$MXSIM" run --config "$cfg" "$tr" --group-size 16 --set mx.group_size=32 -o "$out/r.csv"
bad run-shorthand-vs-set-array 2 "--array 8x8 and --set array.rows=16 both set array.rows" -- "$MXSIM" run --config "$cfg" "$tr" --set array.rows=16 --array 8x8 -o "$out/r.csv"
# options that did nothing: run --columns with a trace or configuration, cost --constants --references,
# cost --constants --node 3 in csv (md refused it), report --meta twice, a special file of 0 bytes as a config
bad run-columns-trace 2 "--columns lists the statistic columns: it reads no TRACE" -- "$MXSIM" run --columns "$tr"
bad run-columns-config 2 "--columns lists the statistic columns: --config has no meaning with it" -- "$MXSIM" run --columns --config /nonexistent.ini
bad cost-constants-references 2 "--constants and --references print different tables: give one" -- "$MXSIM" cost --constants --references
bad cost-constants-node-csv 2 "node_nm: 3 nm is not in the Stillmaker & Baas table" -- "$MXSIM" cost --constants --node 3 --format csv
bad report-meta-twice 2 "given twice (it takes one value): --meta" -- "$MXSIM" report "$in/topo.csv" --meta a.json --meta b.json -o "$out/rep"
if [ -r /proc/self/status ]; then
  bad config-special-file 2 "holds more than the 0 bytes its size says" -- "$MXSIM" config --config /proc/self/status --dump
else
  echo "skip [config-special-file]: no /proc on this host"; partial=1
fi
# numbers: the message shows the text given (10.0000001 was printed as 10), a subnormal is a number
# out of range (it was "not a number"), hexadecimal reals are refused as hexadecimal integers are
bad flag-overhead-just-above 2 "--overhead 10.0000001: must be in 1..10" -- "$MXSIM" cost --overhead 10.0000001
bad flag-overhead-hex 2 "--overhead '0x2': not a number (decimal)" -- "$MXSIM" cost --overhead 0x2
bad set-real-subnormal 2 "field 'clock.mhz': 1e-320 out of range 1..100000 MHz" -- "$MXSIM" config --set clock.mhz=1e-320 --dump
bad set-real-hex 2 "field 'clock.mhz': '0x1p9' is not a number" -- "$MXSIM" config --set clock.mhz=0x1p9 --dump
# SCALE-Sim layer names: a rewritten name that collides, a name cut at 63 characters; conv geometry a text trace cannot hold
printf 'Layer name,IFMAP Height,IFMAP Width,Filter Height,Filter Width,Channels,Num Filter,Strides,\nconv 1,8,8,3,3,4,8,1,\nconv_1,8,8,3,3,4,8,1,\n' > "$in/namedup.csv"
bad csv-name-collision 2 "namedup.csv:3: field 'Layer name': 'conv_1' and the layer on line 2 both read as 'conv_1'" -- "$MXSIM" trace check "$in/namedup.csv"
printf 'Layer name,M,N,K,\n%s,8,8,8,\n' "$(printf 'x%.0s' $(seq 70))" > "$in/namelong.csv"
bad csv-name-too-long 2 "is longer than 63 characters" -- "$MXSIM" trace check "$in/namelong.csv"
# an op named TOTAL: every output's summary row is TOTAL (a second one was printed, and report refused the sweep)
printf 'mxsim-trace 2\ngemm name=TOTAL m=16 n=16 k=32\ngemm name=y m=64 n=64 k=64\n' > "$in/total.trace"
bad trace-op-total 2 "total.trace:2: op 'TOTAL': field 'name': TOTAL is reserved for the summary row of every output" -- "$MXSIM" run --config "$cfg" "$in/total.trace"
printf 'Layer name,M,N,K,\nTOTAL,8,8,8,\n' > "$in/total.csv"
bad csv-layer-total 2 "total.csv:2: op 'TOTAL': field 'name': TOTAL is reserved" -- "$MXSIM" trace check "$in/total.csv"
printf 'Layer name,IFMAP Height,IFMAP Width,Filter Height,Filter Width,Channels,Num Filter,Strides,\nc1,8,8,3,3,4,8,1,\n' > "$in/conv1.csv"
bad csv-convert-compat-conv 2 "convert: 1 conv layers of $in/conv1.csv would lose the geometry SCALE-Sim compat timing uses" -- "$MXSIM" trace convert --scalesim-compat "$in/conv1.csv" "$out/c.trace"
# a SCALE-Sim .cfg takes comments on whole lines only, as its configparser: an inline one is part of the value
printf '[general]\nrun_name = t\n[architecture_presets]\nArrayHeight: 8\nArrayWidth: 8\nIfmapSramSzkB: 64\nFilterSramSzkB: 64\nOfmapSramSzkB: 64\nIfmapOffset: 0\nFilterOffset: 10000000\nOfmapOffset: 20000000\nDataflow : ws # weight stationary\n[run_presets]\nInterfaceBandwidth: CALC\n' > "$in/inline.cfg"
bad cfg-inline-comment 2 "inline.cfg:12: field 'Dataflow': 'ws # weight stationary'" -- "$MXSIM" run --config "$in/inline.cfg" "$in/conv1.csv" -o "$out/r.csv"
bad flag-int-leading-blank 2 "-j ' 2': not an integer" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 32 -j ' 2' --quiet -o "$out/s.csv"
bad flag-int-plus 2 "-j '+2': not an integer" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 32 -j +2 --quiet -o "$out/s.csv"
printf 'Layer,M,N,K,\n' > "$in/hdronly.csv"
bad csv-header-only 2 "hdronly.csv: no layer rows after the header" -- "$MXSIM" trace check "$in/hdronly.csv"
# outputs whose names the command derives (a report's files in -o DIR, a sweep's sidecar, op i's
# access trace F.i.gz) that are one of its inputs: refused before anything is written
if "$MXSIM" sweep --help >/dev/null 2>&1; then
  mkdir -p "$in/rep"; "$MXSIM" sweep --config "$cfg" "$tr" --group-size 32 -q --no-accuracy -o "$in/rep/cycles.csv" >/dev/null 2>&1
  cp "$in/rep/cycles.csv" "$in/rep.orig"
  bad out-is-input-report-chart 2 "output '$in/rep/cycles.csv' is the same file as the input '$in/rep/cycles.csv'" -- "$MXSIM" report "$in/rep/cycles.csv" -o "$in/rep"
  cmp -s "$in/rep/cycles.csv" "$in/rep.orig" && [ ! -e "$in/rep/index.html" ] || { echo "FAIL: report replaced its input or wrote part of its output"; fails=$((fails + 1)); }
  cp "$cfg" "$in/sw.meta.json"
  bad out-is-input-sweep-sidecar 2 "output '$in/sw.meta.json' is the same file as the input '$in/sw.meta.json'" -- "$MXSIM" sweep --config "$in/sw.meta.json" "$tr" --group-size 32 -q --no-accuracy -o "$in/sw.csv"
  cmp -s "$in/sw.meta.json" "$cfg" && [ ! -e "$in/sw.csv" ] || { echo "FAIL: sweep replaced its config or wrote its CSV"; fails=$((fails + 1)); }
else
  echo "skip [sweep output cases]: this build has no sweep"; partial=1
fi
printf 'mxsim-trace 1\ngemm name=a m=8 n=8 k=64\ngemm name=b m=8 n=8 k=64\n' > "$in/acc.0.gz"; cp "$in/acc.0.gz" "$in/acc.orig"
bad out-is-input-access-trace 2 "output '$in/acc.0.gz' is the same file as the input '$in/acc.0.gz'" -- "$MXSIM" run --config "$cfg" --detail --access-trace "$in/acc.gz" "$in/acc.0.gz" -o "$out/r.csv"
cmp -s "$in/acc.0.gz" "$in/acc.orig" || { echo "FAIL: run --access-trace replaced its input trace"; fails=$((fails + 1)); }
# a single-value option given twice (the second used to win silently), and a --set key given twice
bad opt-given-twice 2 "--group-size given twice ('8', then '16'); it takes one value" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 8 --group-size 16
bad set-key-twice 2 "--set given twice for 'array.rows'" -- "$MXSIM" run --config "$cfg" --set array.rows=8 --set array.rows=64 "$tr"
# ---- sweep (fixB): overlapping axes, limits known up front, --data that feeds no op -----------
# setup (text fixtures, written in $in like the others; the names need not hold valid .npy data:
# the name check comes before any file is read)
mkdir -p "$in/data_misnamed" "$in/data_empty"
printf 'x' > "$in/data_misnamed/QKV_proj.a.npy"
printf 'not data\n' > "$in/data_empty/README.txt"
bad flag-sweep-axis-overlap-width 2 "--array-width 8,16 and --sweep array.rows=32 both set array.rows" -- "$MXSIM" sweep --config "$cfg" "$tr" --array-width 8,16 --sweep array.rows=32 --quiet -o "$out/s.csv"
bad flag-sweep-axis-overlap-size 2 "--array-width 8,16 and --sweep array.size=32 both set array.rows" -- "$MXSIM" sweep --config "$cfg" "$tr" --array-width 8,16 --sweep array.size=32 --quiet -o "$out/s.csv"
bad flag-sweep-axis-overlap-group 2 "--group-size 8 and --sweep mx.group_size=32 both set mx.group_size" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 8 --sweep mx.group_size=32 --quiet -o "$out/s.csv"
bad flag-sweep-axis-overlap-profile 2 "--profile mase and --sweep numerics.profile=ocp,mase both set the numerics profile" -- "$MXSIM" sweep --config "$cfg" "$tr" --profile mase --sweep numerics.profile=ocp,mase --quiet -o "$out/s.csv"
bad flag-sweep-point-pe-limit 2 "sweep axis 'array.size': the point array.size=4096 is invalid: config: field 'array.rows' x 'array.cols' = 16777216 PEs: at most 2^22" -- "$MXSIM" sweep --config "$cfg" "$tr" --array-width 8,4096 --quiet -o "$out/s.csv"
bad flag-sweep-point-pe-limit-pair 2 "the point array.rows=4096, array.cols=2048 is invalid" -- "$MXSIM" sweep --config "$cfg" "$tr" --sweep array.rows=16,4096 --sweep array.cols=16,2048 --quiet -o "$out/s.csv"
bad flag-sweep-data-misnamed 2 "data_misnamed/QKV_proj.a.npy: field 'name': no op of" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 32 --data "$in/data_misnamed" --quiet -o "$out/s.csv"
bad flag-sweep-data-misnamed-hint 2 "did you mean 'qkv_proj.a.npy'?" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 32 --data "$in/data_misnamed" --quiet -o "$out/s.csv"
bad flag-sweep-data-no-op 2 "data_empty': no op of" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 32 --data "$in/data_empty" --quiet -o "$out/s.csv"
# a --set of a field an axis sets: every point took the axis value and the --set was dropped
bad flag-sweep-set-vs-group 2 "--group-size 16,32 and --set mx.group_size=64 both set mx.group_size" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 16,32 --set mx.group_size=64 --quiet -o "$out/s.csv"
bad flag-sweep-set-vs-axis 2 "--sweep array.rows=4,8 and --set array.rows=4 both set array.rows" -- "$MXSIM" sweep --config "$cfg" "$tr" --sweep array.rows=4,8 --set array.rows=4 --quiet -o "$out/s.csv"
bad flag-sweep-set-vs-width 2 "--array-width 8 and --set array.cols=4 both set array.cols" -- "$MXSIM" sweep --config "$cfg" "$tr" --array-width 8 --set array.cols=4 --quiet -o "$out/s.csv"
# a sweep part edited and its CRC redone: the options and base configuration are checked as the
# sweep command checks them (a profile of 4 in the options and every point crashed meta_json)
printf 'mxsim-trace 1\ngemm name=g m=64 n=64 k=256\n' > "$in/part.trace"
"$MXSIM" sweep --config "$cfg" "$in/part.trace" --group-size 16,32 --quiet --no-accuracy --shard 0/1 -o "$in/one.part"
python3 "$src/tests/badinput/part_edit.py" "$in/one.part" "$in/prof.part" 4 104 '<q' 4 profile
bad merge-part-profile 2 "prof.part: corrupt part file (section 'options')" -- "$MXSIM" merge "$in/prof.part" -o "$out/m.csv"
python3 "$src/tests/badinput/part_edit.py" "$in/one.part" "$in/ovh.part" 4 80 '<d' -1
bad merge-part-overhead 2 "ovh.part: corrupt part file (section 'options')" -- "$MXSIM" merge "$in/ovh.part" -o "$out/m.csv"
python3 "$src/tests/badinput/part_edit.py" "$in/one.part" "$in/df.part" 2 48 '<q' 7
bad merge-part-base 2 "df.part: corrupt part file (section 'base')" -- "$MXSIM" merge "$in/df.part" -o "$out/m.csv"
# an access trace whose directory is missing: one clear message (a second, generic one followed), and
# the op buffers freed (LeakSanitizer in the sanitizer build)
bad out-access-trace-no-dir 1 "cannot create a private directory next to it" -- "$MXSIM" run --config "$cfg" --detail --access-trace "$out/nodir/x.gz" "$in/part.trace"
n_msg=$("$MXSIM" run --config "$cfg" --detail --access-trace "$out/nodir/x.gz" "$in/part.trace" 2>&1 >/dev/null | wc -l)
[ "$n_msg" -eq 1 ] || { echo "FAIL [out-access-trace-no-dir] $n_msg lines of message, expected the one"; fails=$((fails + 1)); }
bad flag-sweep-compat-vs-axis 2 "--scalesim-compat and --sweep report.scalesim_compat=0,1 both set report.scalesim_compat" -- "$MXSIM" sweep --config "$cfg" "$in/part.trace" --scalesim-compat --sweep report.scalesim_compat=0,1 --quiet --no-accuracy -o "$out/s.csv"
# --data with a NaN (its SQNR came out NaN under status "ok"): a float32 [1, 768] .npy written by hand
mkdir -p "$in/data_nan"
python3 -c 'import struct,sys; h="{'"'"'descr'"'"': '"'"'<f4'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (1, 768), }"; h+=" "*(63-(10+len(h))%64)+"\n"; v=[0.5]*768; v[5]=float("nan"); sys.stdout.buffer.write(b"\x93NUMPY\x01\x00"+struct.pack("<H",len(h))+h.encode()+struct.pack("<768f",*v))' > "$in/data_nan/qkv_proj.a.npy"
bad flag-sweep-data-nan 2 "qkv_proj.a.npy: element (0, 5) is NaN: accuracy data must be finite" -- "$MXSIM" sweep --config "$cfg" "$tr" --group-size 32 --data "$in/data_nan" --quiet -o "$out/s.csv"
bad flag-sweep-data-no-accuracy 2 "--data has no effect with --no-accuracy" -- "$MXSIM" sweep --config "$cfg" "$tr" --data "$in/data_empty" --no-accuracy --quiet -o "$out/s.csv"
# ---- fixA (audit of the CLI): counts past 2^63, bandwidths the model cannot hold, INI comments,
# ---- --access-trace names.  Setup lines first, then the cases (all verified against build-fixA).
# (place after the ini() and scfg() helpers of tests/badinput/run.sh, which the setup lines use)
printf 'mxsim-trace 1\ngemm name=big m=524288 n=524288 k=524288\n' > "$in/lanes.trace"
printf 'mxsim-trace 1\ndequant name=dq m=2147483648 n=67108864\n' > "$in/dq.trace"
printf 'mxsim-trace 1\ngemm name=a m=8 n=8 k=32\ngemm name=b m=16 n=16 k=64\n' > "$in/two.trace"
ini semicolon '[array]\nrows = 16;32\n'
ini hashval '[array]\ndataflow = os#ws\n'
ini bwstep '[dram]\nbw_bytes_per_cycle = 0.0014\n'
ini compatbw '[dram]\nbw_bytes_per_cycle = 1.5\n[report]\nscalesim_compat = 1\n'
ini fracbw '[dram]\nbw_bytes_per_cycle = 1.5\n'
scfg bw1e9 '[architecture_presets]\nArrayHeight: 8\nBandwidth: 1e9\n[run_presets]\nInterfaceBandwidth: USER\n'
scfg bwfrac '[architecture_presets]\nArrayHeight: 8\nBandwidth: 1.9\n[run_presets]\nInterfaceBandwidth: USER\n'
scfg semi '[architecture_presets]\nArrayHeight: 8;9\n'
bad trace-lane-slots 2 "lanes.trace:2: op 'big': field 'n_lane_slots'" -- "$MXSIM" run --config "$cfg" --set pe.lanes=1024 "$in/lanes.trace" -o "$out/r.csv"
bad trace-dequant-request 2 "dq.trace:2: op 'dq': field 'cycles_total': the count passes 2^63" -- "$MXSIM" run --config "$cfg" --set dram.bw_bytes_per_cycle=0.0009765625 "$in/dq.trace" -o "$out/r.csv"
bad ini-semicolon-in-value 2 "semicolon.ini:2: field 'array.rows': '16;32' is not an integer" -- "$MXSIM" run --config "$in/semicolon.ini" "$tr" -o "$out/r.csv"
bad ini-hash-in-value 2 "hashval.ini:2: field 'array.dataflow': 'os#ws' is not one of os|ws|is" -- "$MXSIM" config --config "$in/hashval.ini" --dump
bad ini-bw-step 2 "bwstep.ini:2: field 'dram.bw_bytes_per_cycle': 0.0014 is not within 0.1% of a multiple of the model's step of 1/1024" -- "$MXSIM" run --config "$in/bwstep.ini" "$tr" -o "$out/r.csv"
bad ini-bw-compat-fraction 2 "compatbw.ini:2: field 'dram.bw_bytes_per_cycle': 1.5 is not a whole number" -- "$MXSIM" run --config "$in/compatbw.ini" "$tr" -o "$out/r.csv"
bad flag-bw-step 2 "--set: field 'dram.bw_bytes_per_cycle': 0.0014 is not within 0.1% of a multiple of the model's step of 1/1024" -- "$MXSIM" run --config "$cfg" --set dram.bw_bytes_per_cycle=0.0014 "$tr" -o "$out/r.csv"
bad flag-bw-compat-fraction 2 "--set: field 'dram.bw_bytes_per_cycle': 1.9 is not a whole number" -- "$MXSIM" run --config "$cfg" --scalesim-compat --set dram.bw_bytes_per_cycle=1.9 "$tr" -o "$out/r.csv"
bad flag-compat-on-fraction 2 "field 'dram.bw_bytes_per_cycle': 1.5 is not a whole number" -- "$MXSIM" run --config "$in/fracbw.ini" --scalesim-compat "$tr" -o "$out/r.csv"
bad cfg-bandwidth-above-max 2 "bw1e9.cfg:3: field 'Bandwidth': '1e9' words/cycle out of range 1..65536" -- "$MXSIM" run --config "$in/bw1e9.cfg" "$tr" -o "$out/r.csv"
bad cfg-bandwidth-fraction 2 "bwfrac.cfg:3: field 'Bandwidth': '1.9' is not a whole number" -- "$MXSIM" run --config "$in/bwfrac.cfg" "$tr" -o "$out/r.csv"
bad cfg-semicolon-in-value 2 "semi.cfg:2: field 'array.rows': '8;9' is not an integer" -- "$MXSIM" config --config "$in/semi.cfg" --dump
bad flag-access-trace-stdout 2 "--access-trace: '-' (standard output) is refused" -- "$MXSIM" run --config "$cfg" --detail --access-trace - "$in/two.trace" -o "$out/r.csv"
bad flag-access-trace-not-gz 2 "the access trace is gzip-compressed: its name must end in .gz" -- "$MXSIM" run --config "$cfg" --detail --access-trace "$out/acc.txt" "$in/two.trace" -o "$out/r.csv"
# model files: a size of 0 (batch 0 ran as 1), a key the mode does not read (seq in decode, ctx in prefill)
printf 'hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 128\nseq = 16\nbatch = 0\n' > "$in/batch0.model"
bad model-batch-zero 2 "batch0.model:7: field 'batch': '0' is not an integer in 1..2^31" -- "$MXSIM" trace gen "$in/batch0.model" -o "$out/m.trace"
printf 'hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 128\nseq = 16\nmode = decode\nctx = 64\n' > "$in/dseq.model"
bad model-decode-seq 2 "dseq.model:6: field 'seq': not read in decode mode" -- "$MXSIM" trace gen "$in/dseq.model" -o "$out/m.trace"
printf 'hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 128\nseq = 16\nctx = 64\n' > "$in/pctx.model"
bad model-prefill-ctx 2 "pctx.model:7: field 'ctx': only read in decode mode" -- "$MXSIM" trace gen "$in/pctx.model" -o "$out/m.trace"
# grouped-query attention needs heads a multiple of kv_heads; decode cannot go without its KV cache
printf 'hidden = 64\nlayers = 1\nheads = 6\nkv_heads = 4\nhead_dim = 32\nffn = 128\nseq = 16\n' > "$in/gqa.model"
bad model-kv-heads-not-dividing 2 "gqa.model:4: field 'kv_heads': 4 does not divide heads = 6" -- "$MXSIM" trace gen "$in/gqa.model" -o "$out/m.trace"
printf 'hidden = 64\nlayers = 1\nheads = 2\nkv_heads = 4\nhead_dim = 32\nffn = 128\nseq = 16\n' > "$in/gqa2.model"
bad model-kv-heads-above-heads 2 "gqa2.model:4: field 'kv_heads': 4 does not divide heads = 2" -- "$MXSIM" trace gen "$in/gqa2.model" -o "$out/m.trace"
printf 'hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 128\nmode = decode\nctx = 64\nkv_cache = 0\n' > "$in/nocache.model"
bad model-decode-without-cache 2 "nocache.model:8: field 'kv_cache': decode reads the KV cache" -- "$MXSIM" trace gen "$in/nocache.model" -o "$out/m.trace"
printf 'hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 128\nseq = 16\nkv_cache = 2\n' > "$in/cache2.model"
bad model-kv-cache-two 2 "cache2.model:7: field 'kv_cache': '2' is not 0 or 1" -- "$MXSIM" trace gen "$in/cache2.model" -o "$out/m.trace"
printf 'hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 128\nseq = 16\nffn_gated = 2\n' > "$in/gated2.model"
bad model-gated-flag 2 "gated2.model:7: field 'ffn_gated': '2' is not 0 or 1" -- "$MXSIM" trace gen "$in/gated2.model" -o "$out/m.trace"
printf 'hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 128\nseq = 16\nffn_gated = -0\n' > "$in/gated0.model"
bad model-gated-minus-zero 2 "gated0.model:7: field 'ffn_gated': '-0' is not 0 or 1" -- "$MXSIM" trace gen "$in/gated0.model" -o "$out/m.trace"
# ffn_gated has no default (a gated model read as plain lost a third of its FFN); a layer's b_role
printf 'hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 128\nseq = 16\n' > "$in/nogate.model"
bad model-gated-missing 2 "nogate.model: field 'ffn_gated': missing for a transformer" -- "$MXSIM" trace gen "$in/nogate.model" -o "$out/m.trace"
printf 'layer = gemm a 4 4 4 2 b_role=cache\n' > "$in/role.model"
bad model-layer-role 2 "role.model:1: field 'layer': b_role 'cache' is not weight, kv or act" -- "$MXSIM" trace gen "$in/role.model" -o "$out/m.trace"
# mixture of experts: experts_per_token belongs to an `experts` FFN and is at most experts; a layer's or
# a trace op's b_tensors (distinct stored B tensors) needs a stored B (weight or kv) and a version-2 trace
MOE='hidden = 64\nlayers = 1\nheads = 2\nhead_dim = 32\nffn = 128\nffn_gated = 1\nseq = 16\n'
printf "${MOE}experts_per_token = 2\n" > "$in/moek.model"
bad model-moe-k-without-experts 2 "moek.model:8: field 'experts_per_token': only read with 'experts'" -- "$MXSIM" trace gen "$in/moek.model" -o "$out/m.trace"
printf "${MOE}routing = uniform\n" > "$in/moer.model"
bad model-routing-without-experts 2 "moer.model:8: field 'routing': only read with 'experts'" -- "$MXSIM" trace gen "$in/moer.model" -o "$out/m.trace"
printf "${MOE}experts = 4\nexperts_per_token = 2\nrouting = random\n" > "$in/moer2.model"
bad model-routing-unknown 2 "moer2.model:10: field 'routing': 'random' is not balanced or uniform" -- "$MXSIM" trace gen "$in/moer2.model" -o "$out/m.trace"
printf "${MOE}experts = 4\nshared_ffn = 64\n" > "$in/moenok.model"
bad model-moe-k-missing 2 "moenok.model: field 'experts_per_token': missing for the mixture-of-experts FFN ('experts', line 8)" -- "$MXSIM" trace gen "$in/moenok.model" -o "$out/m.trace"
printf "${MOE}experts = 4\nexperts_per_token = 5\n" > "$in/moek5.model"
bad model-moe-k-above-experts 2 "moek5.model:9: field 'experts_per_token': 5 is more than experts = 4" -- "$MXSIM" trace gen "$in/moek5.model" -o "$out/m.trace"
printf "${MOE}shared_ffn = 64\n" > "$in/moeshf.model"
bad model-moe-shared-without-experts 2 "moeshf.model:8: field 'shared_ffn': only read with 'experts'" -- "$MXSIM" trace gen "$in/moeshf.model" -o "$out/m.trace"
# layers that differ (window_layers, dense_layers) and multi-head latent attention: keys read only
# with the key they refine, the ones they need, counts within layers, no KV heads or prefill cache with MLA
printf "${MOE}window_layers = 1\n" > "$in/winl.model"
bad model-window-layers-without-window 2 "winl.model:8: field 'window_layers': only read with 'window'" -- "$MXSIM" trace gen "$in/winl.model" -o "$out/m.trace"
printf "${MOE}window = 8\nwindow_layers = 2\n" > "$in/winl2.model"
bad model-window-layers-above-layers 2 "winl2.model:9: field 'window_layers': 2 is more than layers = 1" -- "$MXSIM" trace gen "$in/winl2.model" -o "$out/m.trace"
printf "${MOE}dense_layers = 1\ndense_ffn = 64\n" > "$in/dense.model"
bad model-dense-without-experts 2 "dense.model:8: field 'dense_layers': only read with 'experts'" -- "$MXSIM" trace gen "$in/dense.model" -o "$out/m.trace"
printf "${MOE}experts = 4\nexperts_per_token = 2\ndense_layers = 1\ndense_ffn = 64\n" > "$in/denseall.model"
bad model-dense-all-layers 2 "denseall.model:10: field 'dense_layers': 1 leaves no mixture-of-experts layer" -- "$MXSIM" trace gen "$in/denseall.model" -o "$out/m.trace"
printf "${MOE}experts = 4\nexperts_per_token = 2\ndense_ffn = 64\n" > "$in/dffn.model"
bad model-dense-ffn-alone 2 "dffn.model:10: field 'dense_ffn': only read with 'dense_layers'" -- "$MXSIM" trace gen "$in/dffn.model" -o "$out/m.trace"
printf 'hidden = 64\nlayers = 2\nheads = 2\nhead_dim = 32\nffn = 128\nffn_gated = 1\nseq = 16\nexperts = 4\nexperts_per_token = 2\ndense_layers = 1\n' > "$in/dnoffn.model"
bad model-dense-ffn-missing 2 "dnoffn.model: field 'dense_ffn': missing for the dense layers ('dense_layers', line 10)" -- "$MXSIM" trace gen "$in/dnoffn.model" -o "$out/m.trace"
printf "${MOE}rope_head_dim = 16\n" > "$in/rope.model"
bad model-mla-rope-without-latent 2 "rope.model:8: field 'rope_head_dim': only read with 'kv_lora_rank'" -- "$MXSIM" trace gen "$in/rope.model" -o "$out/m.trace"
printf "${MOE}kv_lora_rank = 32\nrope_head_dim = 16\n" > "$in/mlanov.model"
bad model-mla-v-head-missing 2 "mlanov.model: field 'v_head_dim': missing for multi-head latent attention ('kv_lora_rank', line 8)" -- "$MXSIM" trace gen "$in/mlanov.model" -o "$out/m.trace"
printf "${MOE}kv_lora_rank = 32\nrope_head_dim = 16\nv_head_dim = 32\nkv_heads = 1\n" > "$in/mlakvh.model"
bad model-mla-kv-heads 2 "mlakvh.model:11: field 'kv_heads': not read with 'kv_lora_rank'" -- "$MXSIM" trace gen "$in/mlakvh.model" -o "$out/m.trace"
printf "${MOE}kv_lora_rank = 32\nrope_head_dim = 16\nv_head_dim = 32\nkv_cache = 1\n" > "$in/mlakvc.model"
bad model-mla-prefill-cache 2 "mlakvc.model:11: field 'kv_cache': prefill with multi-head latent attention" -- "$MXSIM" trace gen "$in/mlakvc.model" -o "$out/m.trace"
printf "${MOE}kv_lora_rank = 32\nrope_head_dim = 16\nv_head_dim = 2147483647\n" > "$in/mlabig.model"
bad model-mla-dims-overflow 2 "mlabig.model:10: field 'v_head_dim': heads x (head_dim + v_head_dim), kv_b_proj's N = 4294967358, above 2^31" -- "$MXSIM" trace gen "$in/mlabig.model" -o "$out/m.trace"
printf 'layer = gemm a 4 4 4 2 b_role=act b_tensors=1\n' > "$in/btact.model"
bad model-layer-b-tensors-act 2 "btact.model:1: field 'layer': b_tensors with b_role=act" -- "$MXSIM" trace gen "$in/btact.model" -o "$out/m.trace"
printf 'layer = gemm a 4 4 4 2 b_tensors=-1\n' > "$in/bt0.model"
bad model-layer-b-tensors-negative 2 "bt0.model:1: field 'layer': b_tensors '-1' is not an integer in 0..2^40" -- "$MXSIM" trace gen "$in/bt0.model" -o "$out/m.trace"
printf 'mxsim-trace 2\ngemm name=a m=1 n=10 k=10 b_tensors=3\n' > "$in/btnorole.trace"
bad trace-b-tensors-no-role 2 "btnorole.trace:2: field 'b_tensors': only a gemm with b_role=weight or b_role=kv" -- "$MXSIM" memory --config "$cfg" "$in/btnorole.trace" -o "$out/m.csv"
printf 'mxsim-trace 2\ngemm name=a m=1 n=10 k=10 b_role=weight b_tensors=2 b_tensors=2\n' > "$in/bttwice.trace"
bad trace-b-tensors-twice 2 "bttwice.trace:2: field 'b_tensors': given twice" -- "$MXSIM" memory --config "$cfg" "$in/bttwice.trace" -o "$out/m.csv"
printf 'mxsim-trace 1\ngemm name=a m=1 n=10 k=10 b_tensors=3\n' > "$in/btv1.trace"
bad trace-b-tensors-version1 2 "btv1.trace:2: field 'b_tensors': unknown key in a version-1 trace (a version-2 key: make the header 'mxsim-trace 2')" -- "$MXSIM" run --config "$cfg" "$in/btv1.trace" -o "$out/r.csv"
# SCALE-Sim interop: keys v2 reads without a default, dataflow case, v3-only features, topology rows
V2A='[general]\nrun_name = x\n[architecture_presets]\nArrayHeight: 8\nArrayWidth: 8\nIfmapSramSzkB: 1\nFilterSramSzkB: 1\nOfmapSramSzkB: 1\nIfmapOffset: 0\nFilterOffset: 10000000\nOfmapOffset: 20000000\n'
scfg ss_norun "${V2A}Dataflow : os\nBandwidth : 2\n"
scfg ss_nobw "${V2A}Dataflow : os\n[run_presets]\nInterfaceBandwidth: USER\n"
scfg ss_nodf "${V2A}Bandwidth : 2\n[run_presets]\nInterfaceBandwidth: CALC\n"
scfg ss_norows '[general]\nrun_name = x\n[architecture_presets]\nArrayWidth: 8\nIfmapSramSzkB: 1\nFilterSramSzkB: 1\nOfmapSramSzkB: 1\nIfmapOffset: 0\nFilterOffset: 0\nOfmapOffset: 0\nDataflow : os\n[run_presets]\nInterfaceBandwidth: CALC\n'
scfg ss_upper "${V2A}Dataflow : WS\nBandwidth : 2\n[run_presets]\nInterfaceBandwidth: USER\n"
scfg ss_section "${V2A}Dataflow : os\n[run_presets]\nInterfaceBandwidth: CALC\nArrayHeight: 16\n"
scfg ss_sparse "${V2A}Dataflow : ws\nBandwidth : 2\n[sparsity]\nSparsitySupport : true\n[run_presets]\nInterfaceBandwidth: USER\n"
scfg ss_layout "${V2A}Dataflow : ws\nBandwidth : 2\n[layout]\nIfmapCustomLayout: True\n[run_presets]\nInterfaceBandwidth: USER\n"
scfg ss_ramulator "${V2A}Dataflow : ws\nBandwidth : 2\n[run_presets]\nInterfaceBandwidth: USER\nUseRamulatorTrace: True\n"
scfg ss_bankbw "${V2A}Dataflow : ws\nBandwidth : 2\n[layout]\nIfmapSRAMBankBandwidth: 10\n[run_presets]\nInterfaceBandwidth: USER\n"
scfg ss_banknum "${V2A}Dataflow : ws\nBandwidth : 4\n[layout]\nIfmapSRAMBankBandwidth: 4\nIfmapSRAMBankNum: 3\n[run_presets]\nInterfaceBandwidth: USER\n"
scfg ss_reqbuf "${V2A}Dataflow : ws\nBandwidth : 4\nReadRequestBuffer: 3.5\n[run_presets]\nInterfaceBandwidth: CALC\nUseRamulatorTrace: False\n"
scfg ss_ulimit "${V2A}Dataflow : os\nBandwidth : 4\n[run_presets]\nInterfaceBandwidth: USER\n"
printf 'Conv1, 32, 32, 3, 3, 3, 16, 2,\nConv2, 16, 16, 3, 3, 16, 16, 1,\n' > "$in/ss_headerless.csv"
printf '\nLayer, M, N, K,\ng, 1, 2, 3,\n' > "$in/ss_blank1.csv"
printf 'Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides, Sparsity,\nCONV_1, 5, 5, 3, 3, 2, 6, 1, 2:4,\n' > "$in/ss_sparse.csv"
printf 'Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\nConvA, 32, 32, 3, 3, 8, 16, 2, 1\n' > "$in/ss_nocomma9.csv"
printf 'Layer, M, N, K,\ng, 1, 2, 3,\nc, 5, 5, 3, 3, 2, 6, 1,\n' > "$in/ss_mixed.csv"
printf 'Layer, M, N, K,\nbig, 4096, 4096, 4096,\n' > "$in/ss_big.csv"
bad cfg-missing-section 2 "ss_norun.cfg: [run_presets] InterfaceBandwidth: missing (no such section): SCALE-Sim v2 reads it with no default (it stops with NoSectionError)" -- "$MXSIM" run --config "$in/ss_norun.cfg" "$tr" -o "$out/r.csv"
bad cfg-missing-bandwidth 2 "ss_nobw.cfg: [architecture_presets] Bandwidth: missing: SCALE-Sim v2 reads it with no default (it stops with NoOptionError)" -- "$MXSIM" run --config "$in/ss_nobw.cfg" "$tr" -o "$out/r.csv"
bad cfg-missing-dataflow 2 "ss_nodf.cfg: [architecture_presets] Dataflow: missing" -- "$MXSIM" config --config "$in/ss_nodf.cfg" --dump
bad cfg-missing-rows 2 "ss_norows.cfg: [architecture_presets] ArrayHeight: missing" -- "$MXSIM" config --config "$in/ss_norows.cfg" --dump
bad cfg-dataflow-upper 2 "ss_upper.cfg:12: field 'Dataflow': 'WS': SCALE-Sim v2 accepts only os, ws or is, in lower case (for any other value it prints 'WARNING: Invalid dataflow' and runs os)" -- "$MXSIM" run --config "$in/ss_upper.cfg" "$tr" -o "$out/r.csv"
bad cfg-wrong-section 2 "ss_section.cfg:15: field 'ArrayHeight' in [run_presets]: SCALE-Sim reads it only from [architecture_presets]" -- "$MXSIM" config --config "$in/ss_section.cfg" --dump
bad cfg-v3-sparsity 2 "ss_sparse.cfg:15: field 'SparsitySupport': 'true': SCALE-Sim v3's sparsity is not modelled" -- "$MXSIM" run --config "$in/ss_sparse.cfg" "$tr" -o "$out/r.csv"
bad cfg-v3-layout 2 "ss_layout.cfg:15: field 'IfmapCustomLayout': 'True': SCALE-Sim v3's custom SRAM layout (bank conflicts) is not modelled" -- "$MXSIM" config --config "$in/ss_layout.cfg" --dump
bad cfg-v3-ramulator 2 "ss_ramulator.cfg:16: field 'UseRamulatorTrace': 'True': SCALE-Sim v3's Ramulator DRAM timing is not modelled" -- "$MXSIM" config --config "$in/ss_ramulator.cfg" --dump
bad cfg-v3-bank-bandwidth 2 "ss_bankbw.cfg:15: field 'IfmapSRAMBankBandwidth': '10' differs from Bandwidth '2' (line 13)" -- "$MXSIM" config --config "$in/ss_bankbw.cfg" --dump
bad cfg-v3-bank-count 2 "ss_banknum.cfg:16: field 'IfmapSRAMBankNum': 3: under InterfaceBandwidth USER SCALE-Sim v3 splits the ifmap buffer's bandwidth (4 words/cycle) over its banks" -- "$MXSIM" run --config "$in/ss_banknum.cfg" "$tr" -o "$out/r.csv"
printf 'Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\nConvA, 32, 32, 3, 3, 8, 16, 2, 1,\n' > "$in/ss_v3s9.csv"
bad topo-v3-ninth-number 2 "ss_v3s9.csv:2: field 'Sparsity' (value 9): '1': SCALE-Sim v3 reads a conv row's 9th value as its N:M sparsity ratio" -- "$MXSIM" run --config "$src/tests/timing/scalesim/configs/v3/scale.cfg" "$in/ss_v3s9.csv" -o "$out/r.csv"
bad sweep-scalesim-version-topology 2 "--sweep report.scalesim_version=v2,v3: $in/ss_v3s9.csv reads differently as SCALE-Sim 3.0.0 and 2.0.2" -- "$MXSIM" sweep --config "$src/tests/timing/scalesim/configs/v2/scale.cfg" --sweep report.scalesim_version=v2,v3 "$in/ss_v3s9.csv" -q --no-accuracy -o "$out/sw.csv"
# not a bad input: on a native base (small.ini) every point of a version axis reads the file natively
if "$MXSIM" sweep --config "$cfg" --sweep report.scalesim_version=v2,v3 "$in/ss_v3s9.csv" -q --no-accuracy -o "$in/sw-native.csv" 2>/dev/null; then
  echo "ok   [sweep-version-native-base] a version axis on a native base runs"
else echo "FAIL [sweep-version-native-base] a version axis on a native base was refused"; fails=$((fails + 1)); fi
bad trace-scalesim-version-value 2 "--scalesim-version 'v4': expected v2 or v3" -- "$MXSIM" trace check --scalesim-compat --scalesim-version v4 "$in/ss_v3s9.csv"
bad trace-scalesim-version-alone 2 "--scalesim-version reads rows under --scalesim-compat: give both" -- "$MXSIM" trace check --scalesim-version v3 "$in/ss_v3s9.csv"
bad cfg-v3-integer 2 "ss_reqbuf.cfg:14: field 'ReadRequestBuffer': '3.5' is not an integer: SCALE-Sim v3, whose file this is (key UseRamulatorTrace, line 17), reads it with int() and stops" -- "$MXSIM" config --config "$in/ss_reqbuf.cfg" --dump
# configparser features SCALE-Sim relies on that mxsim does not model: named, not misread
scfg ss_default '[DEFAULT]\nDataflow = is\n[general]\nrun_name = x\n'
bad cfg-default-section 2 "ss_default.cfg:2: field 'Dataflow' in [DEFAULT]: configparser gives [DEFAULT]'s keys to every section" -- "$MXSIM" config --config "$in/ss_default.cfg" --dump
scfg ss_interp '[architecture_presets]\nArrayWidth: 8\nArrayHeight: %%(arraywidth)s\n'
bad cfg-interpolation 2 "ss_interp.cfg:3: field 'ArrayHeight': '%(arraywidth)s': configparser's %(name)s interpolation is not expanded" -- "$MXSIM" config --config "$in/ss_interp.cfg" --dump
scfg ss_spaced '[ architecture_presets ]\nArrayHeight: 16\n'
bad cfg-section-blanks 2 "ss_spaced.cfg:2: field 'ArrayHeight' in [ architecture_presets ]: SCALE-Sim reads it only from [architecture_presets]" -- "$MXSIM" config --config "$in/ss_spaced.cfg" --dump
bad csv-headerless 2 "ss_headerless.csv:1: the first line is a layer ('Conv1', 8 values), not a header: SCALE-Sim skips the first line whatever it holds, so it would silently drop this layer; add a header line" -- "$MXSIM" trace convert "$in/ss_headerless.csv" "$out/x.trace"
bad csv-blank-first-line 2 "ss_blank1.csv:1: empty line: SCALE-Sim takes the first line as the header" -- "$MXSIM" trace check "$in/ss_blank1.csv"
bad csv-v3-sparsity 2 "ss_sparse.csv:2: field 'Sparsity' (value 9): '2:4' is SCALE-Sim v3's N:M sparsity ratio" -- "$MXSIM" run --config "$cfg" "$in/ss_sparse.csv" -o "$out/r.csv"
bad csv-nine-without-comma 2 "ss_nocomma9.csv:2: no trailing comma after '1': SCALE-Sim drops the text after the last comma, so it reads the first 8 values" -- "$MXSIM" trace check "$in/ss_nocomma9.csv"
bad csv-mixed-kinds 2 "ss_mixed.csv:3: a conv row (8 values) after GEMM rows (line 2)" -- "$MXSIM" trace check "$in/ss_mixed.csv"
bad scalesim-user-limit 2 "ss_big.csv:2: op 'big': SCALE-Sim's USER bandwidth (InterfaceBandwidth: USER) is stepped demand row by demand row, at most 2^32 buffer-column visits and 2^26 operand elements per op; this op takes 2.59e+10 visits" -- "$MXSIM" run --config "$in/ss_ulimit.cfg" "$in/ss_big.csv" -o "$out/r.csv"
# trace header without its space, a group above MXSIM_MAX_GROUP (the message says the real range), a trace of no ops
printf 'mxsim-trace1\ngemm name=a m=8 n=8 k=32\n' > "$in/hdr-nospace.trace"
bad trace-header-no-space 2 "hdr-nospace.trace:1: expected header 'mxsim-trace 1'" -- "$MXSIM" trace check "$in/hdr-nospace.trace"
printf 'mxsim-trace 1\ngemm name=a m=8 n=8 k=32 group=100000\n' > "$in/grp-big.trace"
bad trace-group-range 2 "grp-big.trace:2: field 'group': 100000 must be in 1..65536" -- "$MXSIM" trace check "$in/grp-big.trace"
# operand formats on an op that has none (the timing ignored them: a dequant reads MXINT8)
printf 'mxsim-trace 1\ndequant name=d m=4 n=64 a=int8\n' > "$in/dq-fmt.trace"
bad trace-dequant-operand-format 2 "dq-fmt.trace:2: field 'a': only gemm has operand formats" -- "$MXSIM" trace check "$in/dq-fmt.trace"
# two empty arrays: no SQNR (+Inf read as a perfect match)
python3 -c 'import sys; h="{'"'"'descr'"'"': '"'"'<f4'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (0, 4), }"; h += " " * (63 - (10 + len(h)) % 64) + "\n"; open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h.encode())' "$in/empty04.npy"
bad npy-compare-empty 2 "nothing to compare: shape (0, 4) has no elements" -- "$MXSIM" compare "$in/empty04.npy" "$in/empty04.npy"
printf 'mxsim-trace 1\n# nothing else\n' > "$in/noops.trace"
bad run-no-ops 2 "noops.trace: trace has no ops" -- "$MXSIM" run --config "$cfg" "$in/noops.trace" -o "$out/r.csv"
mkfifo "$in/out.fifo"
bad out-fifo 1 "is a FIFO, refused as an output" -- "$MXSIM" quantize --group-size 16 "$in/ok.npy" -o "$in/out.fifo"
[ -p "$in/out.fifo" ] || { echo "FAIL: the FIFO was replaced"; fails=$((fails + 1)); }
"$MXSIM" quantize --group-size 16 "$in/ok.npy" -o "$in/ro.npz" && chmod 444 "$in/ro.npz"
bad out-read-only 1 "not writable (read-only file): left untouched" -- "$MXSIM" quantize --group-size 32 "$in/ok.npy" -o "$in/ro.npz"
# a large legal input under a 200 MB address-space limit: a clear out-of-memory error, exit 1
python3 -c 'import sys; h="{'"'"'descr'"'"': '"'"'<f4'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (8192, 16384), }"; h += " " * (63 - (10 + len(h)) % 64) + "\n"; open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h.encode())' "$in/big.npy" \
  && truncate -s $((128 + 8192 * 16384 * 4)) "$in/big.npy"
if bash -c 'ulimit -v 200000 && exec "$0" --version' "$MXSIM" > /dev/null 2>&1; then
  bad limit-address-space 1 "out of memory" -- bash -c 'ulimit -v 200000 && exec "$0" quantize "$1" -o "$2"' "$MXSIM" "$in/big.npy" "$out/big.npz"
else  # AddressSanitizer reserves terabytes of address space: it cannot start under ulimit -v
  echo "skip [limit-address-space]: this build cannot start under ulimit -v 200000 (a sanitizer build)"
  n=$((n + 1)); tally[limit]=$(( ${tally[limit]:-0} + 1 ))  # still a case of the catalogue
fi

# The catalogue's table in sim/doc/robustness.md: rows "| `p1`, `p2` | a + b | ..." count the cases
# of each prefix; every prefix run must be in it with its count, and it may name no other.
doc="$MXSIM_SOURCE_DIR/sim/doc/robustness.md"
declare -A docn
while IFS='|' read -r _ c1 c2 _; do
  mapfile -t ps < <(grep -oE '`[a-z0-9]+`' <<<"$c1" | tr -d '`')
  mapfile -t cs < <(grep -oE '[0-9]+' <<<"$c2")
  if [ "${#ps[@]}" -ne "${#cs[@]}" ]; then
    echo "FAIL [doc] robustness.md row '$c1' has ${#ps[@]} prefixes and ${#cs[@]} counts"; fails=$((fails + 1)); continue
  fi
  for i in "${!ps[@]}"; do docn[${ps[$i]}]=${cs[$i]}; done
done < <(sed -n '/^| ID prefix | cases |/,/^$/p' "$doc" | grep -E '^\| `')
[ "${#docn[@]}" -gt 0 ] || { echo "FAIL [doc] no catalogue table in $doc"; fails=$((fails + 1)); }
[ "$partial" -eq 0 ] || { echo "skip [doc]: sections were skipped, so the counts are not the catalogue's"; docn=(); tally=(); }
declare -A seen
for p in "${!tally[@]}" "${!docn[@]}"; do
  [ -n "${seen[$p]:-}" ] && continue; seen[$p]=1
  if [ "${tally[$p]:-0}" != "${docn[$p]:-0}" ]; then
    echo "FAIL [doc] prefix '$p': robustness.md counts ${docn[$p]:-0} cases, this catalogue has ${tally[$p]:-0}"; fails=$((fails + 1))
  fi
done

echo "$n cases, $fails failures"
[ "$fails" -eq 0 ]
