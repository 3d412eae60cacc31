# A file's base is parsed only when a collector reads something from its tree: guards when a
# deleted line may be a guard, a comment or a docstring quote (its code view then comes from
# the tree); siblings when a function the change touches has a variant in the file. A change
# of plain code in functions without variants parses its heads only, and finds the same.
# Counted from the timing line, parsing on one thread so the count is the reviewing thread's.
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

# plain code deleted from a function with no variant: the head is read, the base is not
sed -i '/data\["loaded"\] = True/d' repo/aiter/ops/report.py
review plain
expect_eq plain-deletion-parses-the-head-only "$(parses plain.err)" 1
expect_contains plain-deletion-siblings-still-reviews-it "$(cat plain.json)" \
  "no variant of the 0 changed function(s) that have variants"
git -C repo checkout -q -- .

# a deleted comment line: guards reads the base's tree to tell a comment from code
sed -i 's/    data\["loaded"\] = True/    # mark it loaded/' repo/aiter/ops/report.py
git -C repo commit -qam 'comment'
sed -i '/# mark it loaded/d' repo/aiter/ops/report.py
review comment
expect_eq deleted-comment-parses-the-base-too "$(parses comment.err)" 2
git -C repo checkout -q -- .

# a function with a variant loses a line the variant keeps: the base is read, the pair found
sed -i '0,/    y = torch.clamp/{/    y = torch.clamp/d}' repo/aiter/ops/scale.py
review variant
expect_eq function-with-a-variant-parses-the-base "$(parses variant.err)" 2
expect_contains variant-still-carries-the-line "$(cat variant.json)" '"rule": "A1"'
expect_contains variant-pair-named "$(cat variant.json)" "scale_rows_fp8"
