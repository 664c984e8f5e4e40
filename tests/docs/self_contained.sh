#!/usr/bin/env bash
# Self-contained sources: no tracked file points at the research notes folder that lived beside
# the repository (a clone does not have it); every link to an anchor of references.md, anywhere
# in the tree, lands on an anchor of sim/doc/references.md; every citation key of the cost
# model's constants table has an entry there, read two ways: from the table's source
# (REFS("...") in sim/src/sweep/cost.c) and from what the library gives the CLI (mxsim cost
# --references); and the constants table of sim/doc/energy-area.md is the one the CLI
# generates today.
set -u
: "${MXSIM_SOURCE_DIR:?}"
src=$MXSIM_SOURCE_DIR
refs=$src/sim/doc/references.md
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL: $*"; fails=$((fails+1)); }
has_anchor() { grep -qF "<a id=\"$1\"></a>" "$refs"; }
lower() { tr '[:upper:]' '[:lower:]'; }

[ -f "$refs" ] || { echo "FAIL: $refs missing"; exit 1; }

# Tracked files when this is a git checkout, else every file outside build trees.
files() {
  if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$src" ls-files -z
  else
    (cd "$src" && find . \( -name .git -o -name 'build*' \) -prune -o -type f -print0)
  fi
}

# 1. No pointer outside the tree.  The patterns are split so this file does not match itself.
outside="shared""/reference|\.\./""shared"
hits=$(cd "$src" && files | xargs -0 grep -IlE -- "$outside" 2>/dev/null)
[ -z "$hits" ] && ok "no file points outside the tree" || bad "files point outside the tree: $(echo $hits)"

# 2. Every link to an anchor of references.md resolves.
n=0
for a in $(cd "$src" && files | xargs -0 grep -IohE 'references\.md#[a-z0-9-]+' 2>/dev/null | sort -u); do
  n=$((n+1))
  has_anchor "${a#references.md#}" || bad "link $a has no anchor in sim/doc/references.md"
done
[ "$n" -gt 0 ] && ok "$n distinct references.md links checked" || bad "no references.md link found"

# 3. Citation keys from the constants table's source.
keys=$(grep -oE 'REFS\("[^"]*"\)' "$src/sim/src/sweep/cost.c" | sed -E 's/REFS\("(.*)"\)/\1/' | tr ' ' '\n' | sort -u)
[ -n "$keys" ] && ok "$(echo $keys | wc -w) citation keys in cost.c" || bad "no REFS(...) in cost.c"
for k in $keys; do
  has_anchor "$(echo "$k" | lower)" || bad "cost.c cites $k: no entry in sim/doc/references.md"
done

# 4. Citation keys as the library gives them (needs the cost command: skipped without the sweep
#    module).
# (the CSV form, turned into KEY<TAB>anchor<TAB>citation lines)
if [ -n "${MXSIM:-}" ] && out=$("$MXSIM" cost --references --format csv 2>/dev/null |
    python3 -c 'import csv, sys; [print("\t".join(r)) for r in list(csv.reader(sys.stdin))[1:]]'); then
  libkeys=$(cut -f1 <<<"$out" | sort -u)
  while IFS=$'\t' read -r k anchor citation; do
    [ "$anchor" = "sim/doc/references.md#$(echo "$k" | lower)" ] || bad "$k: anchor '$anchor'"
    has_anchor "${anchor#sim/doc/references.md#}" || bad "library cites $k: no entry in sim/doc/references.md"
    [ "${#citation}" -gt 20 ] || bad "$k: citation too short: '$citation'"
  done <<<"$out"
  for k in $keys; do grep -qxF "$k" <<<"$libkeys" || bad "cost.c cites $k but the library has no citation for it"; done
  ok "$(wc -l <<<"$out") citations from mxsim cost --references"
  # energy-area.md's constants table (with its citation list) is the generated one, not a stale copy
  want=$("$MXSIM" cost --constants --format md | sed -n '/^| key |/,$p')
  have=$(sed -n '/^| key |/,/^Node scaling (SB17 Stillmaker/p' "$src/sim/doc/energy-area.md")
  [ "$want" = "$have" ] && ok "energy-area.md constants table is current" ||
    bad "sim/doc/energy-area.md section 2 differs from 'mxsim cost --constants --format md': regenerate it"
else
  echo "skip: mxsim cost --references unavailable (built without the sweep module)"
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all ok"
