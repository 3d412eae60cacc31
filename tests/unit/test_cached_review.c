/* Reviews made with the engine's caches (per-file collector results, kept syntax trees, base
 * texts, kept indexes, incremental change building) equal cold reviews of the same text: a
 * real git repository holding our own aiter-shaped kernels (tests/fixtures/edit_sequence) is
 * edited at random — lines typed, deleted, pasted across functions, edits undone, buffers
 * saved to disk, files reverted to the base — and after every edit the warm engine's review
 * (findings with their ranges, severities, messages and evidence; each collector's status; the
 * derived families) is compared with a review by a fresh engine that sees the same files. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

#define NSTEPS 200
#define HISTORY 16

static char dir[256];

/* The files the test edits: as an open editor buffer (overlay) or on disk. */
static const char *const edited[] = {
    "csrc/kernels/rope_quant.cu",
    "csrc/include/rope_args.h",
    "aiter/ops/triton/_triton_kernels/softmax_kernel.py",
    "aiter/ops/flydsl/gemm_kernel.py",
    "aiter/ops/rope.py",
    "op_tests/test_rope.py",
    "aiter/ops/scale_variants.py",
};
#define NFILES (sizeof edited / sizeof edited[0])

/* Lines typed into C/C++ files: guards, index products, struct members, branches, directives. */
static const char *const cpp_lines[] = {
    "    TORCH_CHECK(num_heads > 0, \"need heads\");",
    "    int off = token * num_heads * head_dim;",
    "    int32_t extra_pad;",
    "    float c2 = cos_cache[token * head_dim + d] * 2.0f;",
    "    out[token * stride_token + d] = 0;",
    "    if (head_dim > 256) return;",
    "    assert(num_tokens < 65536);",
    "    auto buf = torch::empty_like(out);",
    "}",
    "{",
    "// the rotary half is read twice",
    "#if ROPE_FAST",
    "#endif",
    "    static_assert(sizeof(RopeKernelArgs) == 48, \"grown\");",
    "__global__ void extra_kernel(const float* x, float* y, int n, int s) { y[n * s] = x[0]; }",
};

/* Lines typed into Python files: asserts, Triton loads, imports, knobs, FlyDSL buffers, tests. */
static const char *const py_lines[] = {
    "    assert x.is_contiguous()",
    "    x = tl.load(x_ptr + offs)",
    "    offs = pid * BLOCK_N + tl.arange(0, BLOCK_N)",
    "    tl.store(out_ptr + offs, x)",
    "import aiter.ops.missing_module",
    "from aiter.ops.rope import rope_quant",
    "    knob = os.environ.get(\"AITER_NEW_KNOB\")",
    "    c_rsrc = fx.create_buffer_resource(c)",
    "def test_more():",
    "    assert out is not None",
    "    y = x.contiguous()",
    "    out = torch.empty_like(q)",
    "    m = row * n_cols * stride_row",
    "# TODO: remove before merging",
    "",
};

typedef struct buffer {
    char *text;                 /* current text */
    bool open;                  /* held as an overlay (else it is what is on disk) */
    char *undo[HISTORY];        /* earlier texts, newest last */
    int nundo;
} buffer;

static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* A deterministic pseudo-random number below n (xorshift). */
static size_t pick(size_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return n ? (size_t)(rng % n) : 0;
}

static void sh(const char *cmd)
{
    char *full = xasprintf("cd %s && %s >/dev/null 2>&1", dir, cmd);
    if (system(full) != 0)
        fprintf(stderr, "  command failed: %s\n", cmd);
    free(full);
}

static char *read_rel(const char *rel)
{
    char *p = xasprintf("%s/%s", dir, rel);
    size_t len;
    char *cause = NULL;
    char *t = read_file(p, 0, &len, &cause);
    free(cause);
    free(p);
    return t ? t : xstrdup("");
}

static void write_rel(const char *rel, const char *text)
{
    char *p = xasprintf("%s/%s", dir, rel);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    free(p);
}

/* Line boundaries of text: offsets of each line's start, *n lines (a last line without "\n"
 * counts), plus the end. */
static size_t *line_starts(const char *text, size_t *n)
{
    size_t len = strlen(text), cap = 0;
    size_t *st = NULL;
    *n = 0;
    *ARRAY_PUSH(st, *n, cap) = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' && i + 1 < len)
            *ARRAY_PUSH(st, *n, cap) = i + 1;
    *ARRAY_PUSH(st, *n, cap) = len;
    (*n)--;
    return st;
}

/* text with bytes [a, b) replaced by ins. */
static char *splice(const char *text, size_t a, size_t b, const char *ins)
{
    return xasprintf("%.*s%s%s", (int)a, text, ins, text + b);
}

/* One random edit of a buffer's text (a new string); *what names it. */
static char *edit(const buffer *bf, bool cpp, const char **what)
{
    const char *t = bf->text;
    size_t n, len = strlen(t);
    size_t *st = line_starts(t, &n);
    size_t at = st[pick(n + 1)];
    char *out;
    switch (pick(6)) {
    case 0: { /* type a line */
        const char *line = cpp ? cpp_lines[pick(sizeof cpp_lines / sizeof *cpp_lines)]
                               : py_lines[pick(sizeof py_lines / sizeof *py_lines)];
        char *ins = xasprintf("%s\n", line);
        out = splice(t, at, at, ins);
        free(ins);
        *what = "type a line";
        break;
    }
    case 1: { /* delete 1-3 lines */
        size_t first = pick(n), last = first + 1 + pick(3);
        out = splice(t, st[first], st[last < n ? last : n], "");
        *what = "delete lines";
        break;
    }
    case 2: { /* paste a block of 1-6 lines elsewhere (often into another function) */
        size_t first = pick(n), last = first + 1 + pick(6);
        if (last > n)
            last = n;
        char *block = xstrndup(t + st[first], st[last] - st[first]);
        if (!*block || block[strlen(block) - 1] != '\n') {
            char *b2 = xasprintf("%s\n", block);
            free(block);
            block = b2;
        }
        out = splice(t, at, at, block);
        free(block);
        *what = "paste a block";
        break;
    }
    case 3: { /* a keystroke: one character typed or deleted inside a line */
        size_t p = len ? pick(len) : 0;
        const char *chars = "x1 (*+;_";
        char ins[2] = {chars[pick(8)], 0};
        out = pick(2) && len ? splice(t, p, p + 1, "") : splice(t, p, p, ins);
        *what = "keystroke";
        break;
    }
    case 4: { /* replace a line's tail (a rename or a rewritten expression) */
        size_t l = pick(n);
        size_t a = st[l] + (st[l + 1] - st[l]) / 2, b = st[l + 1] > st[l] ? st[l + 1] - 1 : st[l];
        if (b < a)
            b = a;
        out = splice(t, a, b, pick(2) ? "num_heads * head_dim)" : "_v2");
        *what = "rewrite a line";
        break;
    }
    default: { /* duplicate a whole function-sized block from the top half to the end */
        size_t first = pick(n / 2 + 1), last = first + 4 + pick(12);
        if (last > n)
            last = n;
        char *block = xstrndup(t + st[first], st[last] - st[first]);
        out = xasprintf("%s\n%s", t, block);
        free(block);
        *what = "paste at the end";
        break;
    }
    }
    free(st);
    return out;
}

static int path_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The whole review as text: findings (all fields), collector statuses, derived families. */
static char *dump(engine *e)
{
    review *r = NULL;
    char *cause = NULL;
    if (engine_review(e, &r, &cause) < 0) {
        char *s = xasprintf("(review failed: %s)", cause);
        free(cause);
        return s;
    }
    strbuf sb;
    sb_init(&sb);
    /* the files in path order: an incremental change lists re-diffed files last (collectors
     * read them in path order either way) */
    char **paths = xcalloc(r->chg->nfiles + 1, sizeof *paths);
    for (size_t i = 0; i < r->chg->nfiles; i++)
        paths[i] = r->chg->files[i].path;
    qsort(paths, r->chg->nfiles, sizeof *paths, path_cmp);
    for (size_t i = 0; i < r->chg->nfiles; i++)
        sb_addf(&sb, "file %s\n", paths[i]);
    free(paths);
    for (size_t i = 0; i < r->findings.n; i++) {
        const finding *f = &r->findings.items[i];
        sb_addf(&sb, "%s:%d:%d-%d:%d %s [%s] %s (%s%s%s)\n", f->path, f->range.line, f->range.col,
                f->range.end_line, f->range.end_col, severity_name(f->sev), f->rule_id, f->message,
                f->collector ? f->collector : "?", f->severity_note ? "; " : "",
                f->severity_note ? f->severity_note : "");
        for (size_t k = 0; k < f->nrelated; k++)
            sb_addf(&sb, "  -> %s:%d:%d %s\n", f->related[k].path, f->related[k].range.line,
                    f->related[k].range.col, f->related[k].message);
    }
    for (size_t i = 0; i < r->ncollectors; i++)
        sb_addf(&sb, "# %s\n", r->collector_status[i]);
    derive_format(&r->derived, &sb);
    review_free(r);
    return sb_detach(&sb);
}

/* A fresh engine's review of what the warm one sees: the disk plus the open buffers. */
static char *cold_dump(const buffer *bufs)
{
    char *cause = NULL;
    engine *e = engine_open_repo(dir, NULL, &cause);
    if (!e) {
        char *s = xasprintf("(open failed: %s)", cause);
        free(cause);
        return s;
    }
    for (size_t i = 0; i < NFILES; i++)
        if (bufs[i].open)
            engine_set_overlay(e, edited[i], bufs[i].text, strlen(bufs[i].text));
    char *s = dump(e);
    engine_free(e);
    return s;
}

/* Print the first line where two dumps differ. */
static void show_difference(const char *warm, const char *cold)
{
    size_t i = 0, line_start = 0;
    while (warm[i] && warm[i] == cold[i]) {
        if (warm[i] == '\n')
            line_start = i + 1;
        i++;
    }
    fprintf(stderr, "  warm: %.*s\n  cold: %.*s\n", (int)strcspn(warm + line_start, "\n"),
            warm + line_start, (int)strcspn(cold + line_start, "\n"), cold + line_start);
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/review-lsp-cached.%d", (int)getpid());
    char *cmd = xasprintf("rm -rf %s && mkdir -p %s && cp -r tests/fixtures/edit_sequence/. %s && "
                          "rm %s/README.md", dir, dir, dir, dir);
    if (system(cmd) != 0)
        fprintf(stderr, "  cannot make %s\n", dir);
    free(cmd);
    sh("git init -q -b main && git config user.email t@example.com && git config user.name t && "
       "git add -A && git commit -q -m base");
}

static void teardown(void)
{
    char *cmd = xasprintf("rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "  cannot remove %s\n", dir);
    free(cmd);
}

/* Apply one random step to the buffers and the warm engine; returns its name. */
static const char *step(engine *e, buffer *bufs)
{
    size_t k = pick(NFILES);
    buffer *bf = &bufs[k];
    size_t what = pick(20);
    if (what == 0 && bf->open) { /* save: the buffer goes to disk and is closed */
        write_rel(edited[k], bf->text);
        engine_drop_overlay(e, edited[k]);
        engine_mark_dirty(e, edited[k]);
        bf->open = false;
        return "save and close";
    }
    if (what == 1) { /* revert the file to the base on disk */
        char *cmd = xasprintf("git checkout -q -- %s", edited[k]);
        sh(cmd);
        free(cmd);
        free(bf->text);
        bf->text = read_rel(edited[k]);
        if (bf->open)
            engine_set_overlay(e, edited[k], bf->text, strlen(bf->text));
        engine_mark_dirty(e, edited[k]);
        return "revert to base";
    }
    const char *name = "undo";
    char *next;
    if (what <= 4 && bf->nundo > 0) {
        next = bf->undo[--bf->nundo];
    } else {
        bool cpp = str_ends(edited[k], ".cu") || str_ends(edited[k], ".h");
        next = edit(bf, cpp, &name);
        if (bf->nundo == HISTORY) {
            free(bf->undo[0]);
            memmove(bf->undo, bf->undo + 1, (HISTORY - 1) * sizeof *bf->undo);
            bf->nundo--;
        }
        bf->undo[bf->nundo++] = xstrdup(bf->text);
    }
    free(bf->text);
    bf->text = next;
    bf->open = true;
    engine_set_overlay(e, edited[k], bf->text, strlen(bf->text));
    return name;
}

/* The fixture repository committed, a warm engine over it (incremental, caches on) and each
 * edited file's text read into bufs; NULL (the repository removed) when it cannot open. */
static engine *open_warm(buffer *bufs)
{
    setup();
    char *cause = NULL;
    engine *e = engine_open_repo(dir, NULL, &cause);
    CHECK(e != NULL);
    if (!e) {
        free(cause);
        teardown();
        return NULL;
    }
    engine_set_incremental(e, true);
    memset(bufs, 0, NFILES * sizeof *bufs);
    for (size_t i = 0; i < NFILES; i++)
        bufs[i].text = read_rel(edited[i]);
    return e;
}

/* Free what open_warm made and remove the repository. */
static void close_warm(engine *e, buffer *bufs)
{
    for (size_t i = 0; i < NFILES; i++) {
        free(bufs[i].text);
        for (int u = 0; u < bufs[i].nundo; u++)
            free(bufs[i].undo[u]);
    }
    engine_free(e);
    teardown();
}

TEST(cached_reviews_equal_cold_reviews_over_random_edits)
{
    buffer bufs[NFILES];
    engine *e = open_warm(bufs);
    if (!e)
        return;
    int mismatches = 0, nonempty = 0;
    for (int s = 0; s < NSTEPS && mismatches < 3; s++) {
        const char *what = step(e, bufs);
        char *warm = dump(e), *cold = cold_dump(bufs);
        nonempty += strstr(warm, "\nfile ") != NULL || str_starts(warm, "file ");
        if (strcmp(warm, cold) != 0) {
            fprintf(stderr, "  step %d (%s): the cached review differs from a cold one\n", s, what);
            show_difference(warm, cold);
            mismatches++;
        }
        free(warm);
        free(cold);
    }
    CHECK_INT(mismatches, 0);
    CHECK(nonempty > NSTEPS / 2); /* the edits did make a change to review */
    close_warm(e, bufs);
}

/* The units of sibling variants are kept between reviews (keyed by their text and the line
 * they start at): a warm review must pair the same lines as a cold one when the variants move
 * down, when the edited function changes again, and when a variant rewrites the line in a text
 * of the same length. */
TEST(kept_sibling_units_follow_moved_and_edited_variants)
{
    enum { SCALE = NFILES - 1 };
    buffer bufs[NFILES];
    engine *e = open_warm(bufs);
    if (!e)
        return;
    const char *clamp = "    y = torch.clamp(y, min=-448.0, max=448.0)\n";
    /* each step: the text of scale_variants.py, and the A1 lines the review must name */
    char *base = xstrdup(bufs[SCALE].text);
    const char *first = strstr(base, clamp);
    char *lost = first ? splice(base, (size_t)(first - base), (size_t)(first - base) + strlen(clamp), "") : xstrdup(base);
    char *moved = xasprintf("# scaling helpers\n\n%s", lost);
    char *typed = NULL, *dropped = NULL;
    const char *at = strstr(moved, "    y = x * factor\n");
    typed = at ? splice(moved, (size_t)(at - moved), (size_t)(at - moved) + 18, "    y = x * factor * 1.0")
               : xstrdup(moved);
    const char *fp8 = strstr(typed, "def scale_rows_fp8");
    const char *fp8_clamp = fp8 ? strstr(fp8, clamp) : NULL;
    /* the same length and line: only the text tells the kept units apart */
    dropped = fp8_clamp ? splice(typed, (size_t)(fp8_clamp - typed), (size_t)(fp8_clamp - typed) + strlen(clamp),
                                 "    y = torch.clamp(y, min=-240.0, max=240.0)\n")
                        : xstrdup(typed);
    struct {
        const char *what, *text, *want, *not_want;
    } steps[] = {
        {"the line lost", lost, "aiter/ops/scale_variants.py:14:", NULL},
        {"two lines above", moved, "aiter/ops/scale_variants.py:16:", "aiter/ops/scale_variants.py:14:"},
        {"the changed function typed in", typed, "aiter/ops/scale_variants.py:26:", NULL},
        {"one variant rewrites it too", dropped, "aiter/ops/scale_variants.py:26:", "aiter/ops/scale_variants.py:16:"},
    };
    for (size_t s = 0; s < sizeof steps / sizeof *steps; s++) {
        free(bufs[SCALE].text);
        bufs[SCALE].text = xstrdup(steps[s].text);
        bufs[SCALE].open = true;
        engine_set_overlay(e, edited[SCALE], bufs[SCALE].text, strlen(bufs[SCALE].text));
        char *warm = dump(e), *cold = cold_dump(bufs);
        if (strcmp(warm, cold) != 0) {
            fprintf(stderr, "  %s: the kept review differs from a cold one\n", steps[s].what);
            show_difference(warm, cold);
        }
        CHECK(strcmp(warm, cold) == 0);
        char *a1 = xasprintf("%s", steps[s].want);
        bool has = false;
        for (const char *p = strstr(warm, a1); p && !has; p = strstr(p + 1, a1))
            has = strstr(p, "[A1]") && strcspn(p, "\n") > (size_t)(strstr(p, "[A1]") - p);
        if (!has)
            fprintf(stderr, "  %s: no A1 finding at %s\n%s\n", steps[s].what, steps[s].want, warm);
        CHECK(has);
        if (steps[s].not_want) {
            bool stale = false;
            for (const char *p = strstr(warm, steps[s].not_want); p && !stale; p = strstr(p + 1, steps[s].not_want))
                stale = strstr(p, "[A1]") && strcspn(p, "\n") > (size_t)(strstr(p, "[A1]") - p);
            CHECK(!stale);
        }
        free(a1);
        free(warm);
        free(cold);
    }
    free(base);
    free(lost);
    free(moved);
    free(typed);
    free(dropped);
    close_warm(e, bufs);
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(cached_reviews_equal_cold_reviews_over_random_edits),
        UNIT_CASE(kept_sibling_units_follow_moved_and_edited_variants),
    };
    return unit_main("test_cached_review", cases, sizeof cases / sizeof cases[0]);
}
