#!/usr/bin/env bash
# The committed card results (reports/gpu/*/): every verify.csv has 0 mismatches and is complete (a
# log of its folder, or its README for a merged file, says a verify finished with as many checks), and every
# bench_ext.csv (issue 16: roofline and NVML power per bench row) re-derives from its own inputs:
# tensor_us = 2MNK / (INT8 1979 or BF16 989.5 TOPS, x SMs/132), epilogue_us = M N (K/G) instr / (128 lanes x
# SMs x 1.83 GHz; SMs from the folder's log, else 132) with the SASS-counted instr (3.2 for the Hopper kernel, 3.0 for the others),
# dram_us = the row's bytes at the copy bandwidth of the same run (bench.csv's d2d-copy row); the
# bf16-path Hopper kernel (cfg 11: cfg 0 at G = 32 on the large shapes in the builds whose bench has
# "-cfg8" rows, i.e. since cfg 11 existed) at the BF16 peak, 1 instruction, and the bytes of its
# pre-pass (int8 + scales read, bf16 written) and of its bf16 reads,
# bound_us = their maximum, frac_of_bound = bound_us / median_us, ratio = cuBLAS bf16 / median of the
# same shape, joules_per_op x TOPS/W = 2MNK / 1e12.  The GPU outputs themselves are re-derived with
# the C model by tests/unit/test_gpu_golden.c (tests/golden/gpu/).  The probes' CSVs re-derive too
# (below).  Power of the runs whose log says "NVML power: instantaneous" (since commit debb5a6; the
# log of bench_ext.csv is session.log or bench.log, of bench_ext_runN.csv bench_runN.log or session_runN.log;
# a file with power rows and no such log is named, or counted for the runs before that commit): every row with power
# has 10 W < power_w < 1500 W and a power loop whose time per call (joules_per_op / power_w) is within
# 0.5-2x of the row's median: the energy counter of the earlier runs implied up to 2.1x.
# Exit 77 when nothing is committed.
set -u
: "${MXSIM_SOURCE_DIR:?}"
shopt -s nullglob
fails=0; n=0
for v in "$MXSIM_SOURCE_DIR"/reports/gpu/*/verify*.csv; do
  out=$(awk -F, 'NR>1{n++; m+=$NF} END{if(n==0||m!=0) printf "FAIL %s: %d checks, %d mismatches\n", FILENAME, n, m; else printf "ok   %s: %d checks, 0 mismatches\n", FILENAME, n}' "$v")
  # a verify cut short (a crash, a timeout) leaves a CSV of fewer rows than any finished run: mxsim-gpu
  # prints "verify...: N checks" only when it finishes, so some log of the folder must give this N (or
  # its README, for a file merged from two runs and said so)
  rows=$(awk 'END{print NR-1}' "$v")
  if ! { grep -hoE 'verify[^:]*: [0-9]+ checks' "$(dirname "$v")"/*.log "$(dirname "$v")"/*.txt 2>/dev/null | grep -qE ": $rows checks\$" ||
         grep -qE "$(basename "$v")\` has $rows checks" "$(dirname "$v")/README.md" 2>/dev/null; }; then
    out="FAIL $v: $rows rows, and no log of its folder says a verify finished with $rows checks (cut short?)"
  fi
  echo "$out"; n=$((n+1)); fails=$((fails + $(echo "$out" | grep -c '^FAIL')))
done
for e in "$MXSIM_SOURCE_DIR"/reports/gpu/*/bench_ext*.csv; do
  b=${e/bench_ext/bench}
  [ -f "$b" ] || { echo "FAIL $e: no $b"; fails=$((fails+1)); continue; }
  # the card's SM count, as mxsim-gpu info logged it (gpu_session.sh); the folders before that line
  # are all 132-SM cards (H100 SXM, H200)
  sms=$(grep -ho 'cc [0-9.]*, [0-9]* SMs' "$(dirname "$e")"/*.log 2>/dev/null | head -1 | grep -o '[0-9]* SMs' | grep -o '[0-9]*')
  out=$(awk -F, -v sms="${sms:-132}" '
    FNR==1 {next}
    FILENAME==ARGV[1] { if ($7=="d2d-copy") copy=$9; if ($7=="mxk-gemm-mxint8-cfg8") has8=1; next }
    { M=$3; N=$4; K=$5; G=$6; m=$7; us=$8; key=$3"x"$4"x"$5
      if (m=="cublas-bf16") bf[key]=us
      kind = m=="cublas-bf16" ? 1 : m=="cublaslt-int8" ? 2 : 0
      macs = M*N*K
      big = (M > 16) && (int((M+127)/128)*int((N+127)/128) >= 132)
      # a row whose kernel handed the call on names the one that ran ("-ranN", "-ransimt": mxsim-gpu)
      ran = ""; if (match(m, /-ran[0-9a-z]+$/)) { ran = substr(m, RSTART+4); m0 = substr(m, 1, RSTART-1) } else m0 = m
      if (ran == "" && (m0 ~ /cfg11$/ || (m0=="mxk-gemm-mxint8" && big && G==32 && has8)) || ran == "11") kind = 3
      t = 2*macs/((kind==1 || kind==3 ? 989.5e12 : 1979e12)*sms/132)*1e6
      instr = kind==3 ? 1.0 : (ran == "" && (m0 ~ /cfg[78]$/ || (m0=="mxk-gemm-mxint8" && big)) || ran == "8") ? 3.2 : 3.0
      ep = (kind==0 || kind==3) ? M*N*(K/G)*instr/(128*sms*1.83e9)*1e6 : 0
      by = kind==3 ? (M*K+N*K)*(1+1/G+4)+4*M*N : kind==0 ? (M*K+N*K)*(1+1/G)+4*M*N : kind==1 ? 2*(M*K+N*K)+2*M*N : (M*K+N*K)+4*M*N
      dr = by/(copy*1e3)
      bd = t; if (ep>bd) bd=ep; if (dr>bd) bd=dr
      bad = ""
      if (abs($12-t) > 0.002*t+0.002) bad = bad " tensor_us " $12 "!=" t
      if (abs($13-ep) > 0.002*ep+0.002) bad = bad " epilogue_us " $13 "!=" ep
      if (abs($14-dr) > 0.002*dr+0.002) bad = bad " dram_us " $14 "!=" dr
      if (abs($11-bd) > 0.002*bd+0.002) bad = bad " bound_us " $11 "!=" bd
      if (abs($15-bd/us) > 0.002) bad = bad " frac " $15 "!=" bd/us
      if ((key in bf) && abs($9-bf[key]/us) > 0.002*bf[key]/us+0.001) bad = bad " ratio " $9 "!=" bf[key]/us
      if ($17>0 && $18>0 && abs($17*$18*1e12/(2*macs)-1) > 0.01+0.0006/$18) bad = bad " J/op x TOPS/W != ops"
      rows++
      if (bad != "") { printf "FAIL %s %s %s G=%s:%s\n", FILENAME, m, key, G, bad; nb++ }
    }
    function abs(x) { return x<0 ? -x : x }
    END { if (rows==0) print "FAIL " FILENAME ": no rows"; else if (!nb) printf "ok   %s: %d rows re-derived\n", FILENAME, rows }' "$b" "$e")
  echo "$out"; n=$((n+1)); fails=$((fails + $(echo "$out" | grep -c '^FAIL')))
done
[ "${old_power:-0}" -gt 0 ] && echo "skip ${old_power} bench_ext files of runs before instantaneous NVML power (commit debb5a6): power not re-checked"
# The probes (kernels/README "Probes"): stream_probe.csv's GB/s = bytes / median_us; wgmma_probe.csv's
for e in "$MXSIM_SOURCE_DIR"/reports/gpu/*/bench_ext*.csv; do
  # its log: session.log or bench.log for bench_ext.csv, bench_runN.log or session_runN.log for bench_ext_runN.csv
  r=$(basename "$e" .csv); r=${r#bench_ext}; d=$(dirname "$e"); log=
  for c in "$d/session$r.log" "$d/bench$r.log"; do [ -f "$c" ] && grep -q "NVML power: instantaneous" "$c" && log=$c; done
  if [ -z "$log" ]; then
    # older runs (an energy counter, before commit debb5a6: counted) and runs whose log did not come
    # back while another run of the folder says instantaneous (named)
    if awk -F, 'FNR>1 && $16>0 {p=1} END{exit !p}' "$e"; then
      if grep -lq "NVML power: instantaneous" "$d"/*.log 2>/dev/null; then
        echo "skip $e: power rows, but no log of this run says 'NVML power: instantaneous' while another run's does (an earlier power method, or a log that did not come back): power not re-checked"
      else old_power=$((${old_power:-0} + 1)); fi
    fi
    continue
  fi
  out=$(awk -F, 'FNR==1 {next} $16>0 { loop = 1e6*$17/$16; rows++
      if ($16 <= 10 || $16 >= 1500 || loop < 0.5*$8 || loop > 2*$8) { printf "FAIL %s %s %sx%sx%s G=%s: %s W, loop %.1f us/call against median %s\n", FILENAME, $7, $3, $4, $5, $6, $16, loop, $8; nb++ } }
    END { if (!rows) print "FAIL " FILENAME ": no power rows"; else if (!nb) printf "ok   %s: %d power rows (instantaneous NVML) consistent\n", FILENAME, rows }' "$e")
  echo "$out"; n=$((n+1)); fails=$((fails + $(echo "$out" | grep -c '^FAIL')))
done
# fraction of the int8 peak = MACs / (SMs x 4096 x clock x us), the MACs of NWG warpgroups x the
# probe's fixed work (16384 wgmma m64n128k32 per warpgroup, the two-set rows' data k-steps included, their
# bias wgmmas not; ring and promo rows: 4096 stages of 4; n64 rows: 16384 m64n64k32, i.e. 8192 of the
# unit), SMs and clock from the file's first line; probe_mixed rows: fraction = 256 / clocks per chain of 4.
for f in "$MXSIM_SOURCE_DIR"/reports/gpu/*/stream_probe.csv; do
  out=$(awk -F, 'NR==1 {next} { rows++; if ($5 <= 0 || ($7 - $2/$5/1e3)^2 > 0.06^2) { printf "FAIL %s line %d: GBps %s != %s / %s us\n", FILENAME, NR, $7, $2, $5; nb++ } }
    END { if (!rows) print "FAIL " FILENAME ": no rows"; else if (!nb) printf "ok   %s: %d rows re-derived\n", FILENAME, rows }' "$f")
  echo "$out"; n=$((n+1)); fails=$((fails + $(echo "$out" | grep -c '^FAIL')))
done
for f in "$MXSIM_SOURCE_DIR"/reports/gpu/*/wgmma_probe*.csv; do
  out=$(awk -F, 'NR==1 { if (match($0, /([0-9]+) SMs, max SM clock ([0-9.]+) GHz/)) { split(substr($0, RSTART, RLENGTH), w, " "); sms=w[1]; ghz=w[6] }; next }
    $1=="card" {next}
    $2 ~ /^mixed-kind/ { rows++   # probe_mixed: fraction = 4 x 64 clocks / the measured clocks per chain of 4
      if ($3 <= 0 || ($4-256/$3)^2 > 0.003^2) { printf "FAIL %s line %d: fraction %s != 256 / %s\n", FILENAME, NR, $4, $3; nb++ }
      next }
    { rows++; nwg=$2; us=$5
      macs = ($4 ~ /ring|promo/) ? sms*nwg*4096*4*262144 : ($4 ~ /^n64/) ? sms*nwg*8192*262144 : sms*nwg*16384*262144
      fr = (sms && ghz && us > 0) ? macs/(sms*4096*ghz*1e9*us*1e-6) : -1
      if (fr < 0 || (fr-$6)^2 > 0.002^2) { printf "FAIL %s line %d: fraction %s != %.4f\n", FILENAME, NR, $6, fr; nb++ } }
    END { if (!rows) print "FAIL " FILENAME ": no rows"; else if (!nb) printf "ok   %s: %d rows re-derived\n", FILENAME, rows }' "$f")
  echo "$out"; n=$((n+1)); fails=$((fails + $(echo "$out" | grep -c '^FAIL')))
done
[ $n -gt 0 ] || { echo "skipped: no committed reports/gpu results"; exit 77; }
[ "$fails" = 0 ] && echo "gpu_reports: all ok" || { echo "gpu_reports: $fails failures"; exit 1; }
