# A file is parsed only when a collector reads something from its tree. Its head: guards when a
# changed line may be a guard, a comment or a docstring quote; siblings when a function the
# change touches may have a variant in the file (by the def blocks and names its text shows);
# imports when an import statement an added line is in is not a plain column-0 one (and an
# imported module only for a name no column-0 statement of it binds); index_width when an
# added line is in a def whose decorators or header mark device code; triton_masks when an
# added line's statement spells load or store. Its base: guards for a deleted line read from
# the tree, siblings when a touched function has a variant. A change of plain code parses
# nothing, and finds the same. Counted from the timing line, parsing on one thread so the
# count is the reviewing thread's.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

new_repo repo
mkdir -p repo/aiter/ops
cat > repo/aiter/ops/report.py <<'PY'
import json


def load_config(path):
    with open(path) as f:
        data = json.load(f)
    data["loaded"] = True
    return data


def save_report(path, rows):
    with open(path, "w") as f:
        json.dump(rows, f)
    return len(rows)
PY
cat > repo/aiter/ops/scale.py <<'PY'
import torch


def scale_rows(x, factor):
    y = x * factor
    y = torch.clamp(y, min=-448.0, max=448.0)
    return y


def scale_rows_fp8(x, factor):
    y = x * factor
    y = torch.clamp(y, min=-448.0, max=448.0)
    return y.to(torch.float8_e4m3fnuz)
PY
commit_all repo base

# parses: the number of docs one review parsed, from its timing line
parses() {
  sed -n 's/.*cache totals: \([0-9]*\) parses.*/\1/p' "$1"
}
review() { # review NAME: check the working tree, timing to NAME.err, JSON to NAME.json
  (cd repo && REVIEW_LSP_PARSE_AHEAD=0 REVIEW_LSP_TIMING=1 "$BIN" check --format json \
     >"$TMPD/$1.json" 2>"$TMPD/$1.err")
}

# plain code deleted from a function with no variant: neither side is parsed
sed -i '/data\["loaded"\] = True/d' repo/aiter/ops/report.py
review plain
expect_eq plain-deletion-parses-nothing "$(parses plain.err)" 0
expect_contains plain-deletion-siblings-still-reviews-it "$(cat plain.json)" \
  "no variant of the 0 changed function(s) that have variants"
git -C repo checkout -q -- .

# a deleted comment line in a change of code: guards reads the base's tree to tell a comment
# from code; the comment deleted alone leaves the code as it was, and nothing is parsed
sed -i 's/    data\["loaded"\] = True/    # mark it loaded/' repo/aiter/ops/report.py
git -C repo commit -qam 'comment'
sed -i '/# mark it loaded/d' repo/aiter/ops/report.py
review comment_alone
expect_eq deleted-comment-alone-parses-nothing "$(parses comment_alone.err)" 0
sed -i 's/    return len(rows)/    return len(rows) + 1/' repo/aiter/ops/report.py
review comment
expect_eq deleted-comment-parses-the-base-too "$(parses comment.err)" 2
git -C repo checkout -q -- .

# a function with a variant loses a line the variant keeps: the base is read, the pair found
sed -i '0,/    y = torch.clamp/{/    y = torch.clamp/d}' repo/aiter/ops/scale.py
review variant
expect_eq function-with-a-variant-parses-the-base "$(parses variant.err)" 2
expect_contains variant-still-carries-the-line "$(cat variant.json)" '"rule": "A1"'
expect_contains variant-pair-named "$(cat variant.json)" "scale_rows_fp8"
git -C repo checkout -q -- .

# a plain column-0 import of a name a column-0 def binds: read from both texts, nothing parsed
sed -i 's/^import json$/import json\nfrom aiter.ops.scale import scale_rows/' repo/aiter/ops/report.py
review plain_import
expect_eq plain-import-parses-nothing "$(parses plain_import.err)" 0
expect_contains plain-import-is-counted "$(cat plain_import.json)" \
  "the 1 first-party imported name the change adds resolve"
git -C repo checkout -q -- .

# the same import inside a function, and one of a name the module lacks: the head is parsed
# (an indented import may sit in a try block), and so is the module (no column-0 binding)
sed -i 's/^    with open(path) as f:$/    from aiter.ops.scale import scale_rows, shift_rows\n    with open(path) as f:/' \
  repo/aiter/ops/report.py
review nested_import
expect_eq nested-import-parses-head-and-module "$(parses nested_import.err)" 2
expect_contains nested-import-missing-name-found "$(cat nested_import.json)" \
  "\`shift_rows\` is defined neither in aiter/ops/scale.py"
git -C repo checkout -q -- .

# names imported from many modules: each module's names are listed once for the review and
# stay valid while more are listed (the sanitizer build reads them after the list has grown)
for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
  printf 'def f%s():\n    return %s\n' "$i" "$i" > "repo/aiter/ops/mod$i.py"
done
commit_all repo modules
{
  for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
    echo "from aiter.ops.mod$i import f$i"
  done
  for i in 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0; do
    echo "from aiter.ops.mod$i import f$i as g$i"
  done
} > repo/aiter/ops/uses_all.py
review many_modules
expect_eq many-modules-parse-nothing "$(parses many_modules.err)" 0
expect_contains many-modules-all-resolve "$(cat many_modules.json)" \
  "the 36 first-party imported names the change adds resolve"
git -C repo checkout -q -- .
rm -f repo/aiter/ops/uses_all.py

# a plain line added to a function without variants: no collector reads a tree, nothing parsed
sed -i 's/^    data\["loaded"\] = True$/    data["loaded"] = True\n    data["checked"] = False/' repo/aiter/ops/report.py
review plain_addition
expect_eq plain-addition-parses-nothing "$(parses plain_addition.err)" 0
git -C repo checkout -q -- .

# the same line added inside a Triton kernel: index_width reads device code, so the head is parsed
cat > repo/aiter/ops/kern.py <<'PY'
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    return offs
PY
commit_all repo kernel
sed -i 's/^    return offs$/    last = pid * n\n    return offs/' repo/aiter/ops/kern.py
review kernel_addition
expect_eq kernel-addition-parses-the-head "$(parses kernel_addition.err)" 1
git -C repo checkout -q -- .

# a C/C++ file whose comments are rewrapped (aiter#4061's shape) has the same code: no collector
# that judges code reads it, nothing is parsed, and each status line says it was left out; the
# same file with a token changed is read as before
mkdir -p repo/csrc/kernels
cat > repo/csrc/kernels/rows.cu <<'CU'
// Zero one row per block: each thread
// clears four elements.
__global__ void zero_rows(float* x, int n) {
    int i = blockIdx.x * n + threadIdx.x; /* the row's
                                             first element */
    TORCH_CHECK(n > 0);
    x[i] = 0.0f;
}
CU
commit_all repo cuda
cat > repo/csrc/kernels/rows.cu <<'CU'
// Zero one row per block: each thread clears four elements.
__global__ void zero_rows(float* x, int n) {
    int i = blockIdx.x * n + threadIdx.x; // the row's first element
    TORCH_CHECK(n > 0);
    x[i] = 0.0f;
}
CU
review comments_only
expect_eq rewrapped-comments-parse-nothing "$(parses comments_only.err)" 0
expect_contains rewrapped-comments-left-out-by-guards \
  "$(grep '"guards: ' comments_only.json)" "besides 1 file(s) whose code did not change"
for c in siblings index_width struct_abi; do
  expect_contains "rewrapped-comments-left-out-by-$c" "$(grep "\"$c: " comments_only.json)" \
    "nothing found: the code of the 1 changed file(s) it reads did not change"
done
sed -i 's/    TORCH_CHECK(n > 0);/    TORCH_CHECK(n >= 0);/' repo/csrc/kernels/rows.cu
review comments_and_code
expect_not_contains code-change-read-as-before "$(cat comments_and_code.json)" "whose code did not change"
expect_contains code-change-guard-judged "$(cat comments_and_code.json)" '"rule": "D4"'
git -C repo checkout -q -- .

# a Python file a formatter swept (aiter#4062's shape: calls wrapped with trailing commas,
# quotes swapped, comments moved) has the same code: no collector that judges code reads it,
# nothing is parsed, and each status line says it was left out; the same sweep with one token
# changed in one of two variants is read as before, and the variant that kept it is found
cat > repo/aiter/ops/scale.py <<'PY'
import torch


def scale_rows(x, factor):
    y = x * factor  # scale
    y = torch.clamp(
        y,
        min=-448.0,
        max=448.0,
    )
    return y


def scale_rows_fp8(x, factor):
    y = x * factor
    y = torch.clamp(
        y,
        min=-448.0,
        max=448.0,
    )
    return y.to(torch.float8_e4m3fnuz)
PY
review py_format_only
expect_eq formatter-sweep-parses-nothing "$(parses py_format_only.err)" 0
expect_contains formatter-sweep-left-out-by-guards \
  "$(grep '"guards: ' py_format_only.json)" "besides 1 file(s) whose code did not change"
for c in siblings index_width; do
  expect_contains "formatter-sweep-left-out-by-$c" "$(grep "\"$c: " py_format_only.json)" \
    "nothing found: the code of the 1 changed file(s) it reads did not change"
done
# the packet says the axis looked and found nothing: it was not skipped
(cd repo && "$BIN" packet --out "$TMPD/py_format_packet" >/dev/null 2>&1)
expect_contains formatter-sweep-packet-siblings-not-skipped \
  "$(head -n 3 "$TMPD/py_format_packet/siblings.txt")" "the code of the 1 changed file(s) it reads did not change"
git -C repo checkout -q -- .
# the same wrapping in scale_rows only, with its bounds changed: scale_rows_fp8 is not edited
sed -i '0,/    y = torch.clamp(y, min=-448.0, max=448.0)/s//    y = torch.clamp(\n        y,\n        min=-240.0,\n        max=240.0,\n    )/' \
  repo/aiter/ops/scale.py
review py_format_and_code
expect_eq formatter-sweep-with-code-parses-both-sides "$(parses py_format_and_code.err)" 2
expect_not_contains formatter-sweep-with-code-read-as-before "$(cat py_format_and_code.json)" \
  "whose code did not change"
expect_contains formatter-sweep-with-code-variant-found "$(grep -A12 '"rule": "A1"' py_format_and_code.json)" \
  "scale_rows_fp8"
