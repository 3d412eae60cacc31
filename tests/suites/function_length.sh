# No function longer than 120 lines in engine/, cli/ and lsp/ (the allowed exceptions are
# listed, with why, in tests/function_length_allow.txt), and the checker itself finds a long
# function, a short one and a stale exception in files written here.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

out=$(cd "$ROOT" && python3 scripts/function_length.py --allow tests/function_length_allow.txt \
      engine cli lsp 2>&1)
expect_rc tree-within-limit $? 0
[ -n "$out" ] && printf '%s\n' "$out" >&2

# long NAME N: a C file holding function NAME whose body has N statements.
long() {
  printf '/* generated */\nstatic int %s(int x)\n{\n' "$1"
  i=0
  while [ $i -lt "$2" ]; do printf '    x += %d;\n' $i; i=$((i + 1)); done
  printf '    return x;\n}\n\nstatic const int table[] = {\n    1,\n};\n'
}
mkdir -p src
long short_enough 100 > src/a.c
long far_too_long 130 > src/b.c
out=$(python3 "$ROOT/scripts/function_length.py" src 2>&1)
expect_rc finds-a-long-function $? 1
expect_contains names-it-with-its-length "$out" "src/b.c:2: far_too_long is 134 lines (at most 120)"
expect_not_contains leaves-a-short-one "$out" "short_enough"

printf 'src/b.c far_too_long  reason\n' > allow.txt
python3 "$ROOT/scripts/function_length.py" --allow allow.txt src >/dev/null 2>&1
expect_rc an-allowed-one-passes $? 0
printf 'src/b.c far_too_long  reason\nsrc/a.c short_enough  reason\n' > allow.txt
out=$(python3 "$ROOT/scripts/function_length.py" --allow allow.txt src 2>&1)
expect_rc a-stale-exception-fails $? 1
expect_contains says-to-drop-it "$out" "src/a.c: short_enough is allowed to be long but is not"
