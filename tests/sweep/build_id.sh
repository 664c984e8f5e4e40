#!/usr/bin/env bash
# The build identifier sweep parts carry (sim/src/sweep/sweep_part_build_id.cmake) follows the
# code: on a copy of the sources it is "src-" + 16 hex digits, the same on a rerun (and the header
# is then not rewritten), another for any change of a file under sim/src, sim/include or sim/cli
# or of CMakeLists.txt, committed or not, the same again when the change is undone, and not
# changed by a file elsewhere (docs).  Without git the commit is "unknown".
set -u
: "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
src=$MXSIM_SOURCE_DIR
t=$MXSIM_TEST_TMP; rm -rf "$t" && mkdir -p "$t"
. "$src/tests/lib/expect.sh"
command -v cmake >/dev/null || { echo "skip: cmake not on PATH"; exit 77; }
script=$src/sim/src/sweep/sweep_part_build_id.cmake
tree=$t/tree
mkdir -p "$tree/sim/src/sweep" "$tree/sim/include" "$tree/sim/cli" "$tree/sim/doc"
cp -r "$src/sim/src" "$src/sim/include" "$src/sim/cli" "$tree/sim/" && cp "$src/CMakeLists.txt" "$tree/"
echo "# doc" > "$tree/sim/doc/x.md"
# a failed script prints no identifier (it printed "FAILED", which differs from every identifier, so
# the "changes it" checks passed on it); changed() requires a real one
id() { cmake -DMXSIM_SRC="$tree" -DMXSIM_OUT="$t/id.h" -P "$script" > /dev/null 2>&1 \
  && sed -n 's/^#define MXSIM_BUILD_ID "\(.*\)"$/\1/p' "$t/id.h"; }
changed() { local x; x=$(id); [ -n "$x" ] && [ "$x" != "$a" ]; }
a=$(id)
[[ $a =~ ^src-[0-9a-f]{16}$ ]] && ok "identifier $a" || bad "identifier '$a'"
grep -q '^#define MXSIM_BUILD_COMMIT "unknown"$' "$t/id.h" && ok "no git checkout: commit unknown" || bad "commit: $(cat "$t/id.h")"
touch -d '2001-01-01' "$t/id.h"
[ "$(id)" = "$a" ] && ok "same sources, same identifier" || bad "identifier changed on a rerun"
[ "$(stat -c %Y "$t/id.h")" = "$(date -d '2001-01-01' +%s)" ] && ok "unchanged header not rewritten" || bad "header rewritten"
f=$(cd "$tree" && ls sim/src/sweep/*.c | head -n 1)
cp "$tree/$f" "$t/saved.c"
echo "/* an edit */" >> "$tree/$f"
b=$(id)
[ -n "$b" ] && [ "$b" != "$a" ] && ok "an edit of $f changes it ($b)" || bad "edit of $f: '$b'"
cp "$t/saved.c" "$tree/$f"
[ "$(id)" = "$a" ] && ok "undone: the first identifier again" || bad "undone edit: another identifier"
echo "/* x */" > "$tree/sim/include/new.h"
changed && ok "a new header changes it" || bad "a new header did not change it"
rm "$tree/sim/include/new.h"
echo "# more" >> "$tree/sim/doc/x.md"
[ "$(id)" = "$a" ] && ok "a doc change does not" || bad "a doc change changed it"
sed -i 's/-ffp-contract=off/-ffp-contract=fast/' "$tree/CMakeLists.txt"
changed && ok "a CMakeLists.txt change (compile flags) changes it" || bad "CMakeLists.txt change ignored"
[ "$fails" -eq 0 ] && echo "all passed" || { echo "$fails failed"; exit 1; }
