/* The test-quality collector (evidence for P2 and HK19): what the tests a change adds or edits
 * actually contain — test functions, assertion primitives, tolerances and shapes — read from
 * the added lines of each Python test file (under op_tests/ or tests/, or named like a test).
 *
 * "This test asserts nothing" cannot be decided from a diff (assertions often sit in a shared
 * helper), so the facts go into the status line and only three things become Hints:
 *   - every shape the file adds is 16 or smaller (P2: toy shapes);
 *   - the loosest tolerance is 0.1 or more (HK19: a comparison that passes almost anything);
 *   - a file that adds test functions and no assertion primitive at all (HK19), except in
 *     benchmarks, where that is expected.
 * Comments and string contents are blanked before matching, so a commented-out assert or a
 * message string does not count. */
#include <stdlib.h>
#include <string.h>

#include "engine/collector.h"
#include "engine/regex.h"
#include "engine/syntax.h"

#define TOY_MAX 16
#define LOOSE_TOL 0.1

typedef struct patterns {
    regex *assert_prim, *tol, *shape;
} patterns;

typedef struct file_facts {
    int tests, asserts;
    int first_test_line;
    double loosest;          /* -1 when no tolerance */
    int loosest_line;
    char loosest_text[32];
    long biggest;            /* -1 when no shape */
    int biggest_line;
    int nshapes;
    char shapes[96];         /* the first few shapes, for the message */
} file_facts;

/* The last path component of p (borrowed). */
static const char *base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* True when the file is a Python test file this collector reads. */
static bool is_test_file(const change_file *f)
{
    return str_ends(f->path, ".py") && !f->is_deleted && !f->is_skipped &&
           (str_starts(f->path, "op_tests/") || str_starts(f->path, "tests/") ||
            str_contains(base_name(f->path), "test"));
}

/* True when the file is a benchmark rather than a test. */
static bool is_bench(const char *p)
{
    const char *b = base_name(p);
    return str_starts(b, "bench") || str_starts(b, "profile") || str_contains(p, "benchmark") ||
           str_contains(p, "op_benchmarks");
}

/* Count matches of rx in s, each starting after the previous one's end. */
static int count_matches(const regex *rx, const char *s, size_t n)
{
    int k = 0;
    size_t off = 0, st, en;
    while (off <= n && rx_search(rx, s + off, n - off, &st, &en) == 1) {
        k++;
        off += en > st ? en : st + 1;
    }
    return k;
}

/* True when an added line of code defines a test function. */
static bool defines_test(const char *code)
{
    const char *s = str_lskip(code);
    if (str_starts(s, "async "))
        s = str_lskip(s + 6);
    return str_starts(s, "def test_");
}

/* Read the added lines of one file into its facts. */
static void read_file_facts(const patterns *px, const change_file *f, file_facts *ff)
{
    memset(ff, 0, sizeof *ff);
    ff->loosest = -1;
    ff->biggest = -1;
    size_t shapes_len = 0;
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind != '+')
            continue;
        char *code = syntax_text_code(SYN_PYTHON, l->text, l->len);
        size_t n = strlen(code);
        if (defines_test(code) && !ff->tests++)
            ff->first_test_line = l->new_no;
        ff->asserts += count_matches(px->assert_prim, code, n);
        size_t off = 0, st, en;
        while (off < n && rx_search(px->tol, code + off, n - off, &st, &en) == 1) {
            /* the value is the trailing number of the match */
            const char *e = code + off + en, *b = e;
            while (b > code + off + st && strchr("0123456789.eE+-", b[-1]))
                b--;
            double v = strtod(b, NULL);
            if (v > ff->loosest) {
                ff->loosest = v;
                ff->loosest_line = l->new_no;
                size_t k = (size_t)(e - b) < sizeof ff->loosest_text - 1 ? (size_t)(e - b)
                                                                         : sizeof ff->loosest_text - 1;
                memcpy(ff->loosest_text, b, k);
                ff->loosest_text[k] = '\0';
            }
            off += en > st ? en : st + 1;
        }
        off = 0;
        while (off < n && rx_search(px->shape, code + off, n - off, &st, &en) == 1) {
            const char *e = code + off + en, *b = e;
            while (b > code + off + st && b[-1] >= '0' && b[-1] <= '9')
                b--;
            long v = strtol(b, NULL, 10);
            if (v > ff->biggest) {
                ff->biggest = v;
                ff->biggest_line = l->new_no;
            }
            ff->nshapes++;
            if (shapes_len + (size_t)(e - (code + off + st)) + 3 < sizeof ff->shapes) {
                int w = snprintf(ff->shapes + shapes_len, sizeof ff->shapes - shapes_len, "%s%.*s",
                                 shapes_len ? ", " : "", (int)(e - (code + off + st)), code + off + st);
                if (w > 0)
                    shapes_len += (size_t)w;
            }
            off += en > st ? en : st + 1;
        }
        free(code);
    }
}

/* Compile the patterns, once for every file stage (the collector's shared things). */
static void *patterns_new(void)
{
    patterns *px = xcalloc(1, sizeof *px);
    px->assert_prim = rx_compile("\\bassert\\b|assert_close|allclose|checkAllclose|"
                                 "pytest\\.raises|\\.approx|np\\.testing|torch\\.testing",
                                 false, NULL);
    px->tol = rx_compile("\\b(?:atol|rtol)\\s*=\\s*\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?", false, NULL);
    px->shape = rx_compile("\\b(?:M|N|K|batch|num_tokens|seqlen|seq_len)\\s*[=:]\\s*\\d+",
                           false, NULL);
    return px;
}

static void patterns_free(void *p)
{
    patterns *px = p;
    rx_free(px->assert_prim);
    rx_free(px->tol);
    rx_free(px->shape);
    free(px);
}

/* What one file's stage read, for the status line. */
typedef struct tq_facts {
    bool read;           /* it adds a test, an assertion, a tolerance or a shape */
    int found, tests, asserts;
} tq_facts;

/* The files it reads: Python test files that gain lines. */
static bool reads(const change_file *f)
{
    return is_test_file(f) && f->nadd > 0;
}

/* The per-file stage: the file's facts, and a Hint for each weak check or toy shape set. */
static void test_quality_file(collector_file_ctx *fx)
{
    const change_file *f = fx->f;
    file_facts ff;
    read_file_facts(fx->shared, f, &ff);
    tq_facts *t = xcalloc(1, sizeof *t);
    fx->facts = t;
    if (!ff.tests && !ff.asserts && ff.loosest < 0 && ff.biggest < 0)
        return;
    t->read = true;
    t->tests = ff.tests;
    t->asserts = ff.asserts;
    bool bench = is_bench(f->path);
    if (ff.biggest >= 0 && ff.biggest <= TOY_MAX) {
        findings_add(fx->out, "P2", SEV_HINT, f->path, ff.biggest_line,
                     "every shape this %s adds is %d or smaller (%s) — P2 asks for "
                     "production sizes as well", bench ? "benchmark" : "test", TOY_MAX,
                     ff.shapes);
        t->found++;
    }
    if (!bench && ff.loosest >= LOOSE_TOL) {
        findings_add(fx->out, "HK19", SEV_HINT, f->path, ff.loosest_line,
                     "tolerance %s is loose for a kernel comparison: a result this far off "
                     "still passes", ff.loosest_text);
        t->found++;
    }
    if (!bench && ff.tests && !ff.asserts) {
        findings_add(fx->out, "HK19", SEV_HINT, f->path, ff.first_test_line,
                     "%d test function%s added and no assertion primitive (assert, "
                     "allclose, checkAllclose, assert_close, pytest.raises) in the added "
                     "lines — the check may live in a helper, or there may be none",
                     ff.tests, ff.tests == 1 ? "" : "s");
        t->found++;
    }
}

/* The change-wide stage: the status line from every file's facts. */
static void test_quality_change(collector_ctx *ctx, const collector_files *files)
{
    if (!files->n) {
        collector_status(ctx, "nothing found: no test file touched");
        return;
    }
    size_t ntest = files->n, nread = 0;
    int found = 0, tests = 0, asserts = 0;
    for (size_t i = 0; i < files->n; i++) {
        const tq_facts *t = files->items[i].facts;
        if (!t || !t->read)
            continue;
        nread++;
        found += t->found;
        tests += t->tests;
        asserts += t->asserts;
    }
    if (!nread)
        collector_status(ctx, "nothing found: %zu test file%s touched, none adds a test, an "
                         "assertion, a tolerance or a shape", ntest, ntest == 1 ? "" : "s");
    else if (found)
        collector_status(ctx, "found %d weak check%s or toy shape set%s in %zu test file%s (%d "
                         "test function%s, %d assertion primitive%s added)", found,
                         found == 1 ? "" : "s", found == 1 ? "" : "s", nread,
                         nread == 1 ? "" : "s", tests, tests == 1 ? "" : "s", asserts,
                         asserts == 1 ? "" : "s");
    else
        collector_status(ctx, "nothing found: %zu test file%s read (%d test function%s, %d "
                         "assertion primitive%s added), no loose tolerance or toy-only shapes",
                         nread, nread == 1 ? "" : "s", tests, tests == 1 ? "" : "s", asserts,
                         asserts == 1 ? "" : "s");
}

const collector collector_test_quality = {
    .name = "test_quality",
    .rules = "P2 HK19",
    .langs = COLLECT_PYTHON,
    .reads = reads,
    .file_stage = test_quality_file,
    .parse_ahead = collector_never_parses_ahead, /* diff lines only */
    .shared_new = patterns_new,
    .shared_free = patterns_free,
    .change_stage = test_quality_change,
};
