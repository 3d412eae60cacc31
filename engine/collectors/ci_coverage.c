/* The CI-coverage collector (rules HK12 and HK12b): a new test file that no CI job runs, and a
 * new test_*.py that pytest collects nothing from.
 *
 * HK12 reads the tree's own CI definition, as the original does: .github/scripts/split_tests.sh
 * (a TEST_DIR="op_tests" scanned at -maxdepth 1 covers the top of op_tests/; every other
 * TEST_DIR="op_tests/…" covers that tree) and the workflows under .github/workflows, where only
 * lines that run something (pytest, python, a .sh script) count — a path merely named in a
 * workflow (pr-title-tags naming op_tests/flydsl_tests/ to pick a label) is not a path that
 * runs, and counting it hid aiter#4821. A workflow gated on a pull-request label
 * (labels.*.name) that calls run_X_tests makes op_tests/X_tests label-gated: skipped unless the
 * label is set. A tree with no workflows at all cannot be judged and HK12 is skipped.
 *
 * HK12b: a new test_*.py written as a main() script with no `def test_…` or `class Test…`,
 * when no file of the change is collectable at all (the style is tolerated in aiter; it only
 * matters when it is the change's whole test, which is when HK6 reads as satisfied while the
 * code is untested). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/collector.h"
#include "engine/regex.h"

#define CI_FILE_MAX (1u << 20)
#define MAIN_SCRIPT_MIN 300

typedef struct dirs {
    char **d;
    size_t n, cap;
} dirs;

typedef struct ci_view {
    bool have_ci;            /* workflows or the split script exist */
    bool top;                /* op_tests/ scanned at depth 1 */
    dirs trees;              /* covered recursively */
    dirs gated;              /* label-gated */
} ci_view;

/* The last path component of p (borrowed). */
static const char *base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* True when root/rel is a directory. */
static bool is_dir(const char *root, const char *rel)
{
    return gate_is_dir(root, rel);
}

/* True when dirs holds d. */
static bool dirs_has(const dirs *ds, const char *d)
{
    for (size_t i = 0; i < ds->n; i++)
        if (strcmp(ds->d[i], d) == 0)
            return true;
    return false;
}

/* Free a list of directories. */
static void dirs_free(dirs *ds)
{
    for (size_t i = 0; i < ds->n; i++)
        free(ds->d[i]);
    free(ds->d);
}

/* True when path lies under directory d. */
static bool under(const char *path, const char *d)
{
    size_t n = strlen(d);
    return strncmp(path, d, n) == 0 && path[n] == '/';
}

/* Collect every `op_tests/…` path on a workflow line that runs something. */
static void scan_workflow_line(const char *root, const char *line, size_t len, ci_view *v)
{
    for (size_t i = 0; i + 9 <= len; i++) {
        if (strncmp(line + i, "op_tests/", 9) != 0 ||
            (i > 0 && (line[i - 1] == '_' || (line[i - 1] >= 'a' && line[i - 1] <= 'z'))))
            continue;
        size_t e = i + 9;
        while (e < len && (line[e] == '_' || line[e] == '/' || (line[e] >= 'a' && line[e] <= 'z') ||
                           (line[e] >= 'A' && line[e] <= 'Z') || (line[e] >= '0' && line[e] <= '9')))
            e++;
        if (e == i + 9) {
            i = e;
            continue;
        }
        char *d = xstrndup(line + i, e - i);
        size_t dl = strlen(d);
        while (dl && d[dl - 1] == '/')
            d[--dl] = '\0';
        if (!is_dir(root, d)) {
            char *slash = strrchr(d, '/');
            if (slash)
                *slash = '\0';
        }
        if (is_dir(root, d) && !dirs_has(&v->trees, d))
            *ARRAY_PUSH(v->trees.d, v->trees.n, v->trees.cap) = d;
        else
            free(d);
        i = e;
    }
}

/* Read one workflow file: covered directories from lines that run something, label-gated
 * directories when the workflow gates on a label. */
static void read_workflow(const char *root, const char *text, size_t len, const regex *runs,
                          ci_view *v, dirs *gated_here)
{
    for (const char *p = text; p < text + len;) {
        const char *e = memchr(p, '\n', (size_t)(text + len - p));
        size_t n = e ? (size_t)(e - p) : (size_t)(text + len - p);
        if (rx_search(runs, p, n, NULL, NULL) == 1)
            scan_workflow_line(root, p, n, v);
        p += n + 1;
    }
    if (!strstr(text, "labels.*.name"))
        return;
    for (const char *p = strstr(text, "run_"); p; p = strstr(p + 4, "run_")) {
        const char *s = p + 4, *e = s;
        while (*e == '_' || (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') ||
               (*e >= '0' && *e <= '9'))
            e++;
        /* run_(\w+)_tests: the word must end in "_tests" */
        if (e - s <= 6 || strncmp(e - 6, "_tests", 6) != 0)
            continue;
        char *name = xstrndup(s, (size_t)(e - 6 - s));
        char *d = xasprintf("op_tests/%s_tests", name);
        if (is_dir(root, d) && !dirs_has(gated_here, d)) {
            *ARRAY_PUSH(gated_here->d, gated_here->n, gated_here->cap) = d;
            free(name);
        } else {
            free(d);
            free(name);
        }
    }
}

/* Build the CI view of the tree under root. */
static void read_ci(const char *root, ci_view *v)
{
    memset(v, 0, sizeof *v);
    size_t len;
    char *t = gate_read(root, ".github/scripts/split_tests.sh", CI_FILE_MAX, &len, NULL);
    if (t) {
        v->have_ci = true;
        if (strstr(t, "TEST_DIR=\"op_tests\"") && strstr(t, "-maxdepth 1"))
            v->top = true;
        for (const char *p = strstr(t, "TEST_DIR=\"op_tests/"); p;
             p = strstr(p + 1, "TEST_DIR=\"op_tests/")) {
            const char *s = p + 10, *e = s;
            while (*e == '_' || *e == '/' || (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') ||
                   (*e >= '0' && *e <= '9'))
                e++;
            if (*e != '"')
                continue;
            char *d = xstrndup(s, (size_t)(e - s));
            if (!dirs_has(&v->trees, d))
                *ARRAY_PUSH(v->trees.d, v->trees.n, v->trees.cap) = d;
            else
                free(d);
        }
        free(t);
    }
    const char *wf = ".github/workflows";
    DIR *dp = gate_opendir(root, wf);
    if (dp) {
        regex *runs = rx_compile("pytest|python3?\\s|run_tests\\.sh|split_tests\\.sh|\\.sh\\b",
                                 false, NULL);
        /* read in name order so the result does not depend on the directory's order */
        dirs names = {0};
        struct dirent *de;
        while ((de = readdir(dp)))
            if (str_ends(de->d_name, ".yml") || str_ends(de->d_name, ".yaml"))
                *ARRAY_PUSH(names.d, names.n, names.cap) = xstrdup(de->d_name);
        closedir(dp);
        for (size_t i = 0; i < names.n; i++)
            for (size_t k = i + 1; k < names.n; k++)
                if (strcmp(names.d[k], names.d[i]) < 0) {
                    char *tmp = names.d[i];
                    names.d[i] = names.d[k];
                    names.d[k] = tmp;
                }
        for (size_t i = 0; i < names.n; i++) {
            char *p = xasprintf("%s/%s", wf, names.d[i]);
            char *txt = gate_read(root, p, CI_FILE_MAX, &len, NULL);
            free(p);
            if (!txt)
                continue;
            v->have_ci = true;
            read_workflow(root, txt, len, runs, v, &v->gated);
            free(txt);
        }
        dirs_free(&names);
        rx_free(runs);
    }
    /* a label-gated directory is not covered, whatever else names it */
    for (size_t g = 0; g < v->gated.n; g++)
        for (size_t i = 0; i < v->trees.n; i++)
            if (strcmp(v->trees.d[i], v->gated.d[g]) == 0) {
                free(v->trees.d[i]);
                v->trees.d[i] = v->trees.d[--v->trees.n];
                break;
            }
}

/* True when base is test_*.py. */
static bool is_test_name(const char *b)
{
    return str_starts(b, "test_") && str_ends(b, ".py") && strlen(b) > 8;
}

/* The added text of f joined with "\n" (caller frees). */
static char *added_text(const change_file *f)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '+') {
            if (sb.len)
                sb_addc(&sb, '\n');
            sb_add(&sb, f->lines[i].text, f->lines[i].len);
        }
    return sb_detach(&sb);
}

/* The line of a main()-script entry among the added lines (`if __name__`, `def main`), or 1. */
static int script_entry_line(const change_file *f)
{
    int def_main = 0;
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind != '+')
            continue;
        const char *s = str_lskip(l->text);
        if (str_starts(s, "if __name__"))
            return l->new_no;
        if (!def_main && str_starts(s, "def main("))
            def_main = l->new_no;
    }
    return def_main ? def_main : 1;
}

/* HK12b: new test_*.py files with nothing to collect, when nothing in the change is
 * collectable. Returns the number of findings. */
static int uncollectable(collector_ctx *ctx)
{
    const change *c = ctx->chg;
    regex *coll = rx_compile("(?m)^def test_\\w+|^\\s+def test_\\w+|^class Test\\w+|"
                             "^\\s*async def test_\\w+", false, NULL);
    bool any_collectable = false;
    size_t ncand = 0;
    const change_file **cand = xcalloc(c->nfiles + 1, sizeof *cand);
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        if (f->is_deleted || !is_test_name(base_name(f->path)))
            continue;
        char *add = added_text(f);
        if (rx_search(coll, add, strlen(add), NULL, NULL) == 1)
            any_collectable = true;
        else if (f->is_new && strlen(add) > MAIN_SCRIPT_MIN)
            cand[ncand++] = f;
        free(add);
    }
    rx_free(coll);
    int found = 0;
    for (size_t i = 0; !any_collectable && i < ncand; i++) {
        findings_add(ctx->out, "HK12b", SEV_HINT, cand[i]->path, script_entry_line(cand[i]), "%s is named like a test but has no def test_… or class "
                     "Test…, so pytest collects nothing from it, and no other file of the "
                     "change adds a collectable test", base_name(cand[i]->path));
        found++;
    }
    free(cand);
    return found;
}

/* Run the collector over the change. */
static void ci_coverage_run(collector_ctx *ctx)
{
    const change *c = ctx->chg;
    size_t nnew = 0;
    for (size_t i = 0; i < c->nfiles; i++)
        nnew += c->files[i].is_new && !c->files[i].is_deleted &&
                is_test_name(base_name(c->files[i].path));
    int nb = uncollectable(ctx);
    if (!nnew) {
        collector_status(ctx, "nothing found: no new test file in the change, so CI "
                         "reachability was not exercised");
        return;
    }
    const char *root = ctx->root ? ctx->root : c->head_root;
    if (!root) {
        if (nb)
            collector_status(ctx, "found %d new test file%s pytest collects nothing from; "
                             "skipped HK12: no head tree to read the CI workflows from",
                             nb, nb == 1 ? "" : "s");
        else
            collector_status(ctx, "skipped: no head tree to read the CI workflows from");
        return;
    }
    ci_view v;
    read_ci(root, &v);
    int na = 0;
    if (v.have_ci) {
        for (size_t i = 0; i < c->nfiles; i++) {
            const change_file *f = &c->files[i];
            if (!f->is_new || f->is_deleted || !is_test_name(base_name(f->path)))
                continue;
            const char *slash = strrchr(f->path, '/');
            if (v.top && slash && (size_t)(slash - f->path) == 8 && str_starts(f->path, "op_tests/"))
                continue;
            bool covered = false;
            for (size_t k = 0; k < v.trees.n && !covered; k++)
                covered = under(f->path, v.trees.d[k]);
            if (covered)
                continue;
            const char *gate = NULL;
            for (size_t k = 0; k < v.gated.n && !gate; k++)
                if (under(f->path, v.gated.d[k]))
                    gate = v.gated.d[k];
            finding *fd;
            if (gate) {
                /* op_tests/multigpu_tests -> the "multigpu" label */
                const char *lb = gate + 9;
                int ll = (int)(strlen(lb) - 6);
                fd = findings_add(ctx->out, "HK12", SEV_INFORMATION, f->path, 1,
                                  "CI runs %s only when the `%.*s` label is set: skipped by "
                                  "default, so a merge without the label never runs it",
                                  base_name(f->path), ll, lb);
            } else {
                strbuf cov;
                sb_init(&cov);
                if (v.top)
                    sb_adds(&cov, "op_tests/ at depth 1");
                for (size_t k = 0; k < v.trees.n && k < 4; k++)
                    sb_addf(&cov, "%s%s/", cov.len ? ", " : "", v.trees.d[k]);
                if (v.trees.n > 4)
                    sb_addf(&cov, " and %zu more", v.trees.n - 4);
                fd = findings_add(ctx->out, "HK12", SEV_INFORMATION, f->path, 1,
                                  "no CI job runs tests in %.*s/ (the workflows run %s) — move "
                                  "%s where CI runs it, or say how it is run",
                                  slash ? (int)(slash - f->path) : 1, slash ? f->path : ".",
                                  cov.len ? cov.buf : "no op_tests directory", base_name(f->path));
                sb_free(&cov);
            }
            (void)fd;
            na++;
        }
    }
    if (!v.have_ci)
        collector_status(ctx, "%s%s%sskipped HK12: the tree has no .github/workflows or "
                         ".github/scripts/split_tests.sh to read", nb ? "found " : "",
                         nb ? (nb == 1 ? "1 new test file pytest collects nothing from" :
                                         "new test files pytest collects nothing from") : "",
                         nb ? "; " : "");
    else if (na || nb)
        collector_status(ctx, "found %d: %d new test file%s no CI job runs, %d pytest collects "
                         "nothing from", na + nb, na, na == 1 ? "" : "s", nb);
    else
        collector_status(ctx, "nothing found: every new test file lands where a CI job runs it");
    dirs_free(&v.trees);
    dirs_free(&v.gated);
}

const collector collector_ci_coverage = {
    .name = "ci_coverage",
    .rules = "HK12 HK12b",
    .run = ci_coverage_run,
};
