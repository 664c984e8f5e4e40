#!/usr/bin/env bash
# The install target and pkg-config file work: install into a scratch prefix, then build and run
# a program against the installed header and shared library found through pkg-config only.
set -eu
: "${MXSIM:?}" "${MXSIM_TEST_TMP:?}"
command -v pkg-config >/dev/null || { echo "skipped: pkg-config not installed"; exit 77; }
build=$(dirname "$MXSIM")
rm -rf "$MXSIM_TEST_TMP" && mkdir -p "$MXSIM_TEST_TMP"
prefix=$MXSIM_TEST_TMP/prefix
cmake --install "$build" --prefix "$prefix" > /dev/null
export PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name mxsim.pc)")
cat > "$MXSIM_TEST_TMP/use.c" <<'C'
#include <mxsim.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    /* E = 0, m = 1 decodes to 2^-132 under mase-cuda's kernel (0x0002), 2^-133 under OCP. */
    if (mxsim_decode_bf16(MXSIM_PROFILE_MASE_CUDA, 0, 1) != 0x0002) return 1;
    if (mxsim_decode_bf16(MXSIM_PROFILE_OCP, 0, 1) != 0x0001) return 1;
    printf("mxsim %s\n", mxsim_version());
    return strcmp(mxsim_version(), MXSIM_VERSION_STRING) != 0;
}
C
cc "$MXSIM_TEST_TMP/use.c" $(pkg-config --cflags --libs mxsim) -Wl,-rpath,"$(pkg-config --variable=libdir mxsim)" -o "$MXSIM_TEST_TMP/use"
"$MXSIM_TEST_TMP/use"
"$prefix/bin/mxsim" --version
# --card NAME from anywhere: the installed copy finds its data next to the executable
# (PREFIX/share/mxsim/gpus), not only under the source root
if "$prefix/bin/mxsim" help compare-gpu > /dev/null 2>&1; then
  src=$(cd "$(dirname "$0")/../.." && pwd)
  (cd "$MXSIM_TEST_TMP" && "$prefix/bin/mxsim" compare-gpu --card h200 \
     --measured "$src/reports/gpu/NVIDIA-H200-2026-11-26/bench.csv" --quiet > card.out)
  grep -q "h200: training" "$MXSIM_TEST_TMP/card.out"
  # a card that exists nowhere: the message lists every place looked in
  if (cd "$MXSIM_TEST_TMP" && "$prefix/bin/mxsim" compare-gpu --card nosuch --measured x --quiet 2> card.err); then exit 1; fi
  grep -q "looked in: workloads/gpus/nosuch.ini, .*share/mxsim/gpus/nosuch.ini" "$MXSIM_TEST_TMP/card.err"
  echo "compare-gpu --card h200 works from $MXSIM_TEST_TMP through the installed data"
fi
