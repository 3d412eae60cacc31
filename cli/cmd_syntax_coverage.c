/* `review-lsp syntax-coverage DIR`: a debugging command (not in --help) that measures how much
 * of a tree the syntax layer reads. Every C/C++/HIP file (.c .cc .cpp .cxx .h .hpp .cuh .cu .hip
 * .inl) and every Python file below DIR is parsed the way the collectors parse a file (the
 * default preprocessor view, HIP words and decoration macros from the file and the first-party
 * headers it includes blanked), and the command prints, per language, the files with ERROR
 * nodes, the share of bytes inside ERROR nodes, the files whose root node is ERROR, the bytes
 * left out in branches the view does not select, the parse time, and the ten worst files.
 * bench/syntax_coverage.sh drives it. `--show FILE` (relative to DIR) lists one file's ERROR
 * and MISSING nodes instead, to see what the parser stumbles on; `--reparse FILE` times the
 * incremental update of FILE after a one-character edit, the syntax layer's keystroke cost. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "engine/syntax.h"
#include "engine/tree_walk.h"
#include "engine/util.h"

#define COVERAGE_MAX_FILE (2u << 20)
#define WORST_SHOWN 10

/* One parsed file's figures. */
typedef struct cov_file {
    char *path;
    size_t bytes, error_bytes, hidden_bytes;
    int first_error;       /* line of the first ERROR/MISSING node, 0 when none */
    bool root_error;
} cov_file;

/* The figures of one language over the tree. */
typedef struct cov_lang {
    const char *name;
    cov_file *files;
    size_t n, cap;
    size_t unreadable;
    double parse_ms;
} cov_lang;

typedef struct cov_run {
    const char *root;
    syntax_headers *headers;  /* decoration macros of first-party headers, read once */
    cov_lang cpp, py;
} cov_run;

static bool is_cpp_name(const char *name)
{
    static const char *const ext[] = {".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".cuh", ".cu",
                                      ".hip", ".inl", NULL};
    for (int i = 0; ext[i]; i++)
        if (str_ends(name, ext[i]))
            return true;
    return false;
}

static bool wanted(const char *name)
{
    return is_cpp_name(name) || str_ends(name, ".py");
}

/* CPU time of this thread: parse cost that does not depend on what else the machine runs. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Parse one file and record its figures. */
static void visit(void *data, const char *rel)
{
    cov_run *r = data;
    bool cpp = is_cpp_name(rel);
    cov_lang *l = cpp ? &r->cpp : &r->py;
    char *full = xasprintf("%s/%s", r->root, rel), *cause = NULL;
    size_t len = 0;
    char *text = read_file(full, COVERAGE_MAX_FILE, &len, &cause);
    free(full);
    if (!text) {
        free(cause);
        l->unreadable++;
        return;
    }
    double t0 = now_ms();
    syntax_doc *d = cpp ? syntax_parse_file(r->headers, rel, text, len, NULL, &cause)
                        : syntax_parse(SYN_PYTHON, text, len, &cause);
    l->parse_ms += now_ms() - t0;
    free(text);
    if (!d) {
        free(cause);
        l->unreadable++;
        return;
    }
    cov_file *f = ARRAY_PUSH(l->files, l->n, l->cap);
    memset(f, 0, sizeof *f);
    f->path = xstrdup(rel);
    f->bytes = len;
    f->error_bytes = syntax_error_bytes(d, &f->root_error);
    f->hidden_bytes = syntax_hidden_bytes(d);
    f->first_error = d->has_errors ? syntax_first_error(d, NULL, NULL) : 0;
    syntax_free(d);
}

static int worse_first(const void *a, const void *b)
{
    const cov_file *x = a, *y = b;
    if (x->error_bytes != y->error_bytes)
        return x->error_bytes > y->error_bytes ? -1 : 1;
    return strcmp(x->path, y->path);
}

static double pct(size_t part, size_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Print one language's figures. */
static void report(const cov_lang *l)
{
    size_t bytes = 0, err = 0, hidden = 0, with_err = 0, with_any = 0, root_err = 0;
    for (size_t i = 0; i < l->n; i++) {
        const cov_file *f = &l->files[i];
        bytes += f->bytes;
        err += f->error_bytes;
        hidden += f->hidden_bytes;
        with_err += f->error_bytes > 0;
        with_any += f->first_error > 0;
        root_err += f->root_error;
    }
    printf("%s: %zu files, %zu bytes, parsed in %.0f ms (CPU)", l->name, l->n, bytes, l->parse_ms);
    if (l->unreadable)
        printf(" (%zu unreadable or too large, skipped)", l->unreadable);
    printf("\n  files with ERROR nodes:        %zu (%.1f%%)\n", with_err, pct(with_err, l->n));
    printf("  files with ERROR or MISSING:   %zu (%.1f%%)\n", with_any, pct(with_any, l->n));
    printf("  bytes inside ERROR nodes:      %zu (%.2f%%)\n", err, pct(err, bytes));
    printf("  files whose root is ERROR:     %zu\n", root_err);
    printf("  bytes in unselected branches:  %zu (%.2f%%)\n", hidden, pct(hidden, bytes));
    if (with_err == 0)
        return;
    printf("  worst files (bytes inside ERROR nodes):\n");
    for (size_t i = 0; i < l->n && i < WORST_SHOWN && l->files[i].error_bytes; i++) {
        const cov_file *f = &l->files[i];
        printf("    %6.2f%% %8zu  %s (first error line %d%s)\n", pct(f->error_bytes, f->bytes),
               f->error_bytes, f->path, f->first_error, f->root_error ? ", root is ERROR" : "");
    }
}

/* Print the outermost ERROR and MISSING nodes under n (line, length, first bytes). */
static void show_errors(const syntax_doc *d, TSNode n, int depth, int *shown)
{
    bool err = strcmp(ts_node_type(n), "ERROR") == 0;
    if ((err || ts_node_is_missing(n)) && (*shown)++ < 200) {
        size_t a = ts_node_start_byte(n), b = ts_node_end_byte(n), k = a;
        while (k < b && k - a < 70 && d->text[k] != '\n')
            k++;
        printf("  %s line %d-%d (%zu bytes): %.*s\n", err ? "ERROR" : "MISSING",
               syntax_node_line(n), syntax_node_end_line(n), b - a, (int)(k - a), d->text + a);
        return;
    }
    if (!ts_node_has_error(n) || depth > 400)
        return;
    for (uint32_t i = 0; i < ts_node_child_count(n); i++)
        show_errors(d, ts_node_child(n, i), depth + 1, shown);
}

/* `--show FILE`: the ERROR and MISSING nodes of one file below DIR. */
static int show_file(const char *root, const char *rel)
{
    syntax_headers *hs = syntax_headers_new(root);
    char *full = xasprintf("%s/%s", root, rel), *cause = NULL;
    size_t len = 0;
    char *text = read_file(full, COVERAGE_MAX_FILE, &len, &cause);
    syntax_doc *d = text ? syntax_parse_file(hs, rel, text, len, NULL, &cause) : NULL;
    if (!d) {
        fprintf(stderr, "review-lsp syntax-coverage: %s\n", cause ? cause : full);
    } else {
        int shown = 0;
        printf("%s: %zu bytes inside ERROR nodes, %zu in unselected branches\n", rel,
               syntax_error_bytes(d, NULL), syntax_hidden_bytes(d));
        show_errors(d, ts_tree_root_node(d->tree), 0, &shown);
    }
    syntax_free(d);
    free(text);
    free(cause);
    free(full);
    syntax_headers_free(hs);
    return d ? EXIT_OK : EXIT_USAGE;
}

static int double_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* `--reparse FILE`: the cost of the server's keystroke path in the syntax layer: FILE (below
 * DIR) is kept in a syntax cache as an open document is, a character is typed and deleted
 * again in its middle line 200 times, and the CPU time of each incremental update (masking,
 * view, decorations, reparse) is reported as median and 99th percentile. */
static int reparse_file(const char *root, const char *rel)
{
    enum { EDITS = 200 };
    char *full = xasprintf("%s/%s", root, rel), *cause = NULL;
    size_t len = 0;
    char *text = read_file(full, COVERAGE_MAX_FILE, &len, &cause);
    free(full);
    if (!text) {
        fprintf(stderr, "review-lsp syntax-coverage: %s\n", cause);
        free(cause);
        return EXIT_USAGE;
    }
    syntax_headers *hs = syntax_headers_new(root);
    char *deco = syntax_headers_decorations(hs, rel, text, len, NULL, NULL);
    syntax_parse_opts o = {.decorations = deco};
    syn_lang lang = syntax_lang_of_path(rel);
    syntax_cache *c = syntax_cache_new();
    size_t mid = len / 2;
    while (mid < len && text[mid] != '\n')
        mid++;
    mid = mid < len ? mid + 1 : len;
    char *typed = xmalloc(len + 2);
    memcpy(typed, text, mid);
    typed[mid] = 'x';
    memcpy(typed + mid + 1, text + mid, len - mid);
    double ms[EDITS];
    const syntax_doc *d = syntax_cache_get_with(c, "head", lang, text, len, &o, &cause);
    for (int i = 0; d && i < EDITS; i++) {
        double t0 = now_ms();
        d = i % 2 ? syntax_cache_get_with(c, "head", lang, text, len, &o, &cause)
                  : syntax_cache_get_with(c, "head", lang, typed, len + 1, &o, &cause);
        ms[i] = now_ms() - t0;
    }
    if (d) {
        qsort(ms, EDITS, sizeof *ms, double_cmp);
        printf("%s: %zu bytes, %d one-character edits: incremental update median %.3f ms, "
               "p99 %.3f ms (CPU)\n", rel, len, EDITS, ms[EDITS / 2], ms[EDITS * 99 / 100]);
    } else {
        fprintf(stderr, "review-lsp syntax-coverage: %s\n", cause ? cause : "parse failed");
    }
    free(cause);
    free(typed);
    free(deco);
    free(text);
    syntax_cache_free(c);
    syntax_headers_free(hs);
    return d ? EXIT_OK : EXIT_USAGE;
}

static void lang_free(cov_lang *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->files[i].path);
    free(l->files);
}

int cmd_syntax_coverage(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--show") == 0)
        return show_file(argv[0], argv[2]);
    if (argc == 3 && strcmp(argv[1], "--reparse") == 0)
        return reparse_file(argv[0], argv[2]);
    if (argc != 1 || argv[0][0] == '-') {
        fprintf(stderr, "usage: review-lsp syntax-coverage DIR [--show FILE | --reparse FILE]\n");
        return EXIT_USAGE;
    }
    cov_run r = {.root = argv[0]};
    r.cpp.name = "C/C++/HIP";
    r.py.name = "Python";
    r.headers = syntax_headers_new(argv[0]);
    tree_walk(argv[0], wanted, visit, &r);
    qsort(r.cpp.files, r.cpp.n, sizeof *r.cpp.files, worse_first);
    qsort(r.py.files, r.py.n, sizeof *r.py.files, worse_first);
    printf("syntax coverage of %s\n", argv[0]);
    report(&r.cpp);
    report(&r.py);
    lang_free(&r.cpp);
    lang_free(&r.py);
    syntax_headers_free(r.headers);
    return EXIT_OK;
}
