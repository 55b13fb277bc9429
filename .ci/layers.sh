#!/usr/bin/env bash
# Fails when a module of src/ imports one above its own layer (issue 42). Each top-level
# module has a layer; code may name `crate::X` only for X in its own layer or below, and the
# commands (layer 5) not each other: a command's folder stands on the layers below. Comments
# (doc links included) are not imports and are skipped; tests inside src/ are held to the same
# rule. Run from anywhere: .ci/layers.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# Bottom to top. Keep in step with the README's source map.
layer_of() {
  case "$1" in
    exit_codes | english | board | tour) echo 0 ;; # the vocabulary
    solve) echo 1 ;;                                # finding tours
    error | input | output) echo 2 ;;               # files: atomic writes, budgets, formats
    workbook) echo 3 ;;                             # reading any workbook, writing primitives
    template) echo 4 ;;                             # practice boards, which puzzles fill in
    generate | verify | pairs | puzzle | draw) echo 5 ;; # one folder a command, independent
    cli) echo 6 ;;                                  # the command line, on top
    *) echo "unknown" ;;
  esac
}

status=0
while IFS= read -r file; do
  rel=${file#src/}
  top=${rel%%/*}
  top=${top%.rs}
  case "$top" in lib | main) continue ;; esac
  own=$(layer_of "$top")
  if [ "$own" = unknown ]; then
    echo "$file: module '$top' has no layer in .ci/layers.sh" >&2
    status=1
    continue
  fi
  # Code only: drop // comments, then list every crate::X with its line.
  while IFS=: read -r line target; do
    theirs=$(layer_of "$target")
    if [ "$theirs" = unknown ]; then
      echo "$file:$line: crate::$target has no layer in .ci/layers.sh" >&2
      status=1
    elif [ "$theirs" -gt "$own" ]; then
      echo "$file:$line: $top (layer $own) imports crate::$target (layer $theirs)" >&2
      status=1
    elif [ "$own" = 5 ] && [ "$theirs" = 5 ] && [ "$target" != "$top" ]; then
      echo "$file:$line: command $top imports command $target: move what they share down" >&2
      status=1
    fi
  done < <(awk '{ sub(/\/\/.*/, ""); while (match($0, /crate::[a-z_]+/)) {
                   print FNR ":" substr($0, RSTART + 7, RLENGTH - 7); $0 = substr($0, RSTART + RLENGTH) } }' "$file")
done < <(find src -name '*.rs' | sort)

# A grouped `use crate::{a, b}` would hide its modules from the check above.
if grep -rn 'crate::{' src >&2; then
  echo "layers: name each module in its own \`use crate::X\` line (above) so it can be checked" >&2
  status=1
fi

# No two files of src/ share a name, so a file's name says which one it is (mod.rs excepted:
# its folder names it).
dups=$(find src -name '*.rs' ! -name mod.rs -printf '%f\n' | sort | uniq -d || true)
for name in $dups; do
  echo "layers: two files of src/ are called $name:" $(find src -name "$name") >&2
  status=1
done

if [ "$status" -eq 0 ]; then
  echo "layers: no module of src/ imports one above its layer; no two files share a name"
fi
exit "$status"
