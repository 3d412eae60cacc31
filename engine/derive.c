/* Rule derivation (derive.h). The family table (rules/families.txt, compiled into the binary)
 * is parsed and its regexes compiled once per engine (derive_table_load); each derivation
 * builds the line view of the change (derive_view.h), evaluates every family's `when`/`unless`
 * lines in table order (one evaluator per predicate kind, PRED_EVAL), records the first
 * triggering line per file, and handles the original's early exits and fail-open outputs. */
#include "engine/derive.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/derive_view.h"
#include "engine/regex.h"
#include "engine/util.h"

extern const unsigned char embedded_families_txt[];
extern const size_t embedded_families_txt_len;

static const char ALL_RULES[] =
    "A1 A2 A3 B1 B2 B3 B4 B5 B6 B7 C1 C2 C3 C4 D1 D1b D2 D3 D4 D5 D6 D7 D8 D10 D10b E1 E2 E3 "
    "E4 E5 F1 G1 G1b P1 P2 P3 P4 P5 P6 HK1 HK2 HK3 T1 T2 T3 T4 T5 T6 T8 D11 HK12 HK12b STEP4";
enum { ALL_RULES_COUNT = 53 };

typedef enum pred_kind {
    P_FILES, P_FILES_NOT, P_PATH, P_NEW_PATH, P_MODIFIED_PATH, P_CHANGED_PATH, P_ALL_PATHS,
    P_ADDED, P_DELETED, P_DELETED_CODE, P_LINE, P_LINE_NOT, P_ALL_ADDED_LINES, P_TITLE,
    P_TOP_DIRS, P_FIRED, P_DETECTOR,
} pred_kind;

static const struct {
    const char *name;
    pred_kind kind;
} PRED_NAMES[] = {
    {"files!", P_FILES_NOT}, {"files", P_FILES}, {"path", P_PATH}, {"new-path", P_NEW_PATH},
    {"modified-path", P_MODIFIED_PATH}, {"changed-path", P_CHANGED_PATH},
    {"all-paths", P_ALL_PATHS}, {"added", P_ADDED}, {"deleted", P_DELETED},
    {"deleted-code", P_DELETED_CODE}, {"line!", P_LINE_NOT}, {"line", P_LINE},
    {"all-added-lines", P_ALL_ADDED_LINES}, {"title", P_TITLE}, {"top-dirs", P_TOP_DIRS},
    {"fired", P_FIRED}, {"detector", P_DETECTOR},
};

typedef struct pred {
    pred_kind kind;
    regex *rx;
    int number;
    int family;          /* for P_FIRED: index of the family */
    dv_detector det;
} pred;

typedef struct clause {
    bool negated;        /* an `unless` line */
    pred *preds;
    size_t n, cap;
} clause;

typedef struct family_def {
    char *name;
    char *rules;
    bool exit_early;
    clause *clauses;
    size_t n, cap;
} family_def;

struct derive_table {
    family_def *fams;
    size_t n, cap;
    char *error;         /* why the table could not be read, or NULL */
};

/* Find a family by name in the part of the table read so far; -1 when absent. */
static int family_index(const derive_table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->fams[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Parse one "KIND=ARG" predicate at table line lineno into p. */
static int parse_pred(const derive_table *t, const char *tok, int lineno, pred *p, char **cause)
{
    const char *eq = strchr(tok, '=');
    memset(p, 0, sizeof *p);
    if (!eq) {
        *cause = xasprintf("families.txt:%d: predicate '%s' has no '='", lineno, tok);
        return -1;
    }
    size_t klen = (size_t)(eq - tok);
    const char *arg = eq + 1;
    size_t i;
    for (i = 0; i < sizeof PRED_NAMES / sizeof PRED_NAMES[0]; i++)
        if (strlen(PRED_NAMES[i].name) == klen && strncmp(PRED_NAMES[i].name, tok, klen) == 0)
            break;
    if (i == sizeof PRED_NAMES / sizeof PRED_NAMES[0]) {
        *cause = xasprintf("families.txt:%d: unknown predicate '%.*s'", lineno, (int)klen, tok);
        return -1;
    }
    p->kind = PRED_NAMES[i].kind;
    switch (p->kind) {
    case P_TOP_DIRS:
        p->number = atoi(arg);
        return 0;
    case P_FIRED:
        p->family = family_index(t, arg);
        if (p->family < 0) {
            *cause = xasprintf("families.txt:%d: fired= names unknown or later family '%s'", lineno, arg);
            return -1;
        }
        return 0;
    case P_DETECTOR:
        p->det = dv_find_detector(arg);
        if (!p->det) {
            *cause = xasprintf("families.txt:%d: unknown detector '%s'", lineno, arg);
            return -1;
        }
        return 0;
    default: {
        char *why = NULL;
        p->rx = rx_compile(arg, false, &why);
        if (!p->rx) {
            *cause = xasprintf("families.txt:%d: %s", lineno, why);
            free(why);
            return -1;
        }
        return 0;
    }
    }
}

/* Parse the embedded table into t; on error set t->error. */
static void table_parse(derive_table *t)
{
    char *text = xstrndup((const char *)embedded_families_txt, embedded_families_txt_len);
    char *save = NULL;
    int lineno = 0;
    char *cause = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\r')
            line[--n] = '\0';
        if (!n || line[0] == '#')
            continue;
        char *fields[16] = {0};
        size_t nf = 0;
        char *fsave = NULL;
        for (char *f = strtok_r(line, "\t", &fsave); f && nf < 16; f = strtok_r(NULL, "\t", &fsave))
            fields[nf++] = f;
        if (nf == 0)
            continue;
        if (strcmp(fields[0], "family") == 0) {
            if (nf < 3) {
                cause = xasprintf("families.txt:%d: family needs a name and rule ids", lineno);
                break;
            }
            family_def *fd = ARRAY_PUSH(t->fams, t->n, t->cap);
            fd->name = xstrdup(fields[1]);
            fd->rules = xstrdup(fields[2]);
            fd->exit_early = nf > 3 && strcmp(fields[3], "exit") == 0;
        } else if (strcmp(fields[0], "when") == 0 || strcmp(fields[0], "unless") == 0) {
            if (!t->n || nf < 2) {
                cause = xasprintf("families.txt:%d: '%s' outside a family or empty", lineno, fields[0]);
                break;
            }
            family_def *fd = &t->fams[t->n - 1];
            clause *cl = ARRAY_PUSH(fd->clauses, fd->n, fd->cap);
            cl->negated = fields[0][0] == 'u';
            for (size_t k = 1; k < nf && !cause; k++) {
                pred *p = ARRAY_PUSH(cl->preds, cl->n, cl->cap);
                if (parse_pred(t, fields[k], lineno, p, &cause) < 0)
                    cl->n--;
            }
            if (cause)
                break;
        } else {
            cause = xasprintf("families.txt:%d: unknown line kind '%s'", lineno, fields[0]);
            break;
        }
    }
    free(text);
    if (!cause && t->n == 0)
        cause = xstrdup("families.txt: no families");
    t->error = cause;
}

derive_table *derive_table_load(void)
{
    derive_table *t = xcalloc(1, sizeof *t);
    table_parse(t);
    return t;
}

const char *derive_table_error(const derive_table *t)
{
    return t->error;
}

void derive_table_free(derive_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        family_def *fd = &t->fams[i];
        for (size_t j = 0; j < fd->n; j++) {
            for (size_t k = 0; k < fd->clauses[j].n; k++)
                rx_free(fd->clauses[j].preds[k].rx);
            free(fd->clauses[j].preds);
        }
        free(fd->clauses);
        free(fd->name);
        free(fd->rules);
    }
    free(t->fams);
    free(t->error);
    free(t);
}

/* ---- evaluation --------------------------------------------------------------------------- */

typedef struct eval_ctx {
    const dv_change *v;
    const bool *fired;
    bool *in_scope;          /* per file: passes the files=/files!= filters of this clause */
    bool failed;             /* a regex hit a matching limit */
    /* where the clause fired, per file (line 0: the file, no particular line; -1: none).
       Sites from line-level predicates (added, deleted, line, detector) win over sites from
       path predicates, so a hint sits on the line that triggered, not on every file. */
    int *site_line;
    int *path_site;
    bool line_level;
} eval_ctx;

static int search(eval_ctx *e, const regex *rx, const char *s, size_t n)
{
    int r = rx_search(rx, s, n, NULL, NULL);
    if (r < 0)
        e->failed = true;
    return r == 1;
}

/* Keep the earlier of two sites (line 0 is weaker than any line). */
static void keep_first(int *slot, int line)
{
    if (*slot < 0 || (line > 0 && (*slot == 0 || line < *slot)))
        *slot = line;
}

/* Mark a line-level site in file i. */
static void mark(eval_ctx *e, size_t i, int line)
{
    keep_first(&e->site_line[i], line);
}

/* For a pattern over joined lines: find per file the first single line that matches. */
static void mark_lines(eval_ctx *e, const regex *rx, bool deleted, bool code_only)
{
    for (size_t i = 0; i < e->v->nfiles; i++) {
        if (!e->in_scope[i])
            continue;
        const dv_file *f = &e->v->files[i];
        const dv_line *ls = deleted ? f->dels : f->adds;
        size_t n = deleted ? f->ndels : f->nadds;
        for (size_t k = 0; k < n; k++) {
            if (code_only && dv_is_comment_line(ls[k].text, ls[k].len))
                continue;
            if (search(e, rx, ls[k].text, ls[k].len)) {
                mark(e, i, ls[k].head_line);
                break;
            }
        }
    }
}

/* Joined text of the in-scope files' added (or deleted, optionally non-comment) lines. */
static char *joined(eval_ctx *e, bool deleted, bool code_only, size_t *len)
{
    strbuf sb;
    sb_init(&sb);
    bool first = true;
    for (size_t i = 0; i < e->v->nfiles; i++) {
        if (!e->in_scope[i])
            continue;
        const dv_file *f = &e->v->files[i];
        const dv_line *ls = deleted ? f->dels : f->adds;
        size_t n = deleted ? f->ndels : f->nadds;
        for (size_t k = 0; k < n; k++) {
            if (code_only && dv_is_comment_line(ls[k].text, ls[k].len))
                continue;
            if (!first)
                sb_addc(&sb, '\n');
            sb_add(&sb, ls[k].text, ls[k].len);
            first = false;
        }
    }
    *len = sb.len;
    return sb_detach(&sb);
}

static bool has_changes(const dv_file *f)
{
    return f->nadds > 0 || f->ndels > 0;
}

/* Evaluate a path predicate over in-scope files, marking the files that match. */
static bool eval_paths(eval_ctx *e, const pred *p)
{
    bool any = false;
    for (size_t i = 0; i < e->v->nfiles; i++) {
        const dv_file *f = &e->v->files[i];
        if (!e->in_scope[i])
            continue;
        if (p->kind == P_NEW_PATH && !f->is_new)
            continue;
        if (p->kind == P_MODIFIED_PATH && (f->is_new || !has_changes(f)))
            continue;
        if (p->kind == P_CHANGED_PATH && !has_changes(f))
            continue;
        if (search(e, p->rx, f->path, strlen(f->path))) {
            any = true;
            keep_first(&e->path_site[i], f->first_line);
        }
    }
    return any;
}

/* all-paths=: every in-scope path matches (and there is one). */
static bool ev_all_paths(eval_ctx *e, const pred *p)
{
    size_t n = 0;
    for (size_t i = 0; i < e->v->nfiles; i++) {
        if (!e->in_scope[i])
            continue;
        n++;
        if (!search(e, p->rx, e->v->files[i].path, strlen(e->v->files[i].path)))
            return false;
    }
    return n > 0;
}

/* added= / deleted= / deleted-code=: the pattern over the joined lines, each file's first
 * matching line marked. */
static bool ev_lines(eval_ctx *e, const pred *p)
{
    bool del = p->kind != P_ADDED, code = p->kind == P_DELETED_CODE;
    size_t len;
    char *text = joined(e, del, code, &len);
    bool ok = search(e, p->rx, text, len);
    free(text);
    if (ok)
        mark_lines(e, p->rx, del, code);
    return ok;
}

/* all-added-lines=: every non-blank added line matches. */
static bool ev_all_added(eval_ctx *e, const pred *p)
{
    const dv_change *v = e->v;
    bool ok = true;
    for (size_t i = 0; i < v->nfiles && ok; i++) {
        if (!e->in_scope[i])
            continue;
        for (size_t j = 0; j < v->files[i].nadds && ok; j++) {
            const dv_line *l = &v->files[i].adds[j];
            char *s = xstrndup(l->text, l->len);
            char *st = str_strip(s);
            free(s);
            if (st[0])
                ok = search(e, p->rx, st, strlen(st));
            free(st);
        }
    }
    /* the original asks only that the joined added text is non-empty, so two blank added
       lines and nothing else count as a bump */
    size_t total = 0, nlines = 0;
    for (size_t i = 0; i < v->nfiles; i++)
        if (e->in_scope[i])
            for (size_t j = 0; j < v->files[i].nadds; j++) {
                total += v->files[i].adds[j].len;
                nlines++;
            }
    return ok && (total > 0 || nlines > 1);
}

/* title=: the lower-cased title matches. */
static bool ev_title(eval_ctx *e, const pred *p)
{
    return search(e, p->rx, e->v->title_lower, strlen(e->v->title_lower));
}

/* top-dirs=N: the change spans at least N top-level directories. */
static bool ev_top_dirs(eval_ctx *e, const pred *p)
{
    const dv_change *v = e->v;
    size_t distinct = 0;
    for (size_t i = 0; i < v->nfiles; i++) {
        const char *pi = v->files[i].path;
        size_t li = strcspn(pi, "/");
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) {
            const char *pj = v->files[j].path;
            seen = strcspn(pj, "/") == li && strncmp(pi, pj, li) == 0;
        }
        if (!seen)
            distinct++;
    }
    return distinct >= (size_t)p->number;
}

/* fired=: an earlier family of the table fired. */
static bool ev_fired(eval_ctx *e, const pred *p)
{
    return e->fired[p->family];
}

/* detector=: a named detector (derive_detectors.c) says so, on the line it names. */
static bool ev_detector(eval_ctx *e, const pred *p)
{
    const dv_file *sf = NULL;
    int sl = 0;
    bool ok = p->det(e->v, &sf, &sl);
    if (ok && sf)
        mark(e, (size_t)(sf - e->v->files), sl);
    return ok;
}

/* The filters and the line predicates are read in passes of their own: here they hold. */
static bool ev_pass(eval_ctx *e, const pred *p)
{
    (void)e;
    (void)p;
    return true;
}

/* How each predicate kind is evaluated, and whether it places a family on a line (a site on a
 * line wins over a site on a file). */
static const struct {
    bool (*eval)(eval_ctx *e, const pred *p);
    bool line_level;
} PRED_EVAL[] = {
    [P_FILES] = {ev_pass, false},           [P_FILES_NOT] = {ev_pass, false},
    [P_PATH] = {eval_paths, false},         [P_NEW_PATH] = {eval_paths, false},
    [P_MODIFIED_PATH] = {eval_paths, false}, [P_CHANGED_PATH] = {eval_paths, false},
    [P_ALL_PATHS] = {ev_all_paths, false},  [P_ADDED] = {ev_lines, true},
    [P_DELETED] = {ev_lines, true},         [P_DELETED_CODE] = {ev_lines, true},
    [P_LINE] = {ev_pass, true},             [P_LINE_NOT] = {ev_pass, false},
    [P_ALL_ADDED_LINES] = {ev_all_added, false}, [P_TITLE] = {ev_title, false},
    [P_TOP_DIRS] = {ev_top_dirs, false},    [P_FIRED] = {ev_fired, false},
    [P_DETECTOR] = {ev_detector, true},
};

/* Scope the clause: every file in, then the files= / files!= filters applied. */
static void scope_clause(eval_ctx *e, const clause *cl)
{
    const dv_change *v = e->v;
    e->line_level = false;
    for (size_t i = 0; i < v->nfiles; i++) {
        e->in_scope[i] = true;
        e->site_line[i] = -1;
        e->path_site[i] = -1;
    }
    for (size_t k = 0; k < cl->n; k++) {
        const pred *p = &cl->preds[k];
        e->line_level |= PRED_EVAL[p->kind].line_level;
        if (p->kind != P_FILES && p->kind != P_FILES_NOT)
            continue;
        for (size_t i = 0; i < v->nfiles; i++) {
            bool m = search(e, p->rx, v->files[i].path, strlen(v->files[i].path));
            if (m != (p->kind == P_FILES))
                e->in_scope[i] = false;
        }
    }
}

/* line= / line!=: some added line of an in-scope file satisfies all of them at once; each
 * file's first such line is marked. */
static bool eval_line_preds(eval_ctx *e, const clause *cl)
{
    const dv_change *v = e->v;
    bool any = false;
    for (size_t i = 0; i < v->nfiles; i++) {
        if (!e->in_scope[i])
            continue;
        for (size_t j = 0; j < v->files[i].nadds; j++) {
            const dv_line *l = &v->files[i].adds[j];
            bool ok = true;
            for (size_t k = 0; k < cl->n && ok; k++) {
                const pred *p = &cl->preds[k];
                if (p->kind == P_LINE)
                    ok = search(e, p->rx, l->text, l->len);
                else if (p->kind == P_LINE_NOT)
                    ok = !search(e, p->rx, l->text, l->len);
            }
            if (ok) {
                any = true;
                mark(e, i, l->head_line);
                break;
            }
        }
    }
    return any;
}

/* Evaluate one clause; true when all its predicates hold. Sites are marked as a side effect. */
static bool eval_clause(eval_ctx *e, const clause *cl)
{
    scope_clause(e, cl);
    bool line_preds = false;
    for (size_t k = 0; k < cl->n; k++) {
        const pred *p = &cl->preds[k];
        line_preds |= p->kind == P_LINE || p->kind == P_LINE_NOT;
        if (!PRED_EVAL[p->kind].eval(e, p))
            return false;
    }
    if (line_preds && !eval_line_preds(e, cl))
        return false;
    if (!e->line_level)
        for (size_t i = 0; i < e->v->nfiles; i++)
            e->site_line[i] = e->path_site[i];
    return true;
}

static void add_site(derived_family *df, const char *path, int line)
{
    derive_site *s = ARRAY_PUSH(df->sites, df->nsites, df->sites_cap);
    s->path = path;
    s->line = line;
}

static derived_family *add_family(derive_result *r, const char *name, const char *rules)
{
    derived_family *df = ARRAY_PUSH(r->fams, r->n, r->cap);
    memset(df, 0, sizeof *df);
    df->name = xstrdup(name);
    df->rules = xstrdup(rules);
    return df;
}

/* Free what one derived family owns. */
static void family_clear(derived_family *df)
{
    free(df->sites);
    free((char *)df->name); /* const for the readers; the result's own copies */
    free((char *)df->rules);
}

/* True when the raw diff is GitHub's JSON error body for a diff over its line cap. */
static bool is_too_large_body(const change *c)
{
    if (!c->raw_diff)
        return false;
    const char *s = str_lskip(c->raw_diff);
    return s[0] == '{' && strstr(c->raw_diff, "exceeded the maximum number of lines") != NULL;
}

void derive_run(const derive_table *t, const change *c, const char *title, derive_result *out)
{
    memset(out, 0, sizeof *out);
    if (t->error) {
        out->status = DERIVE_FAILED;
        out->failure = xstrdup(t->error);
        return;
    }
    dv_change v;
    dv_build(&v, c, title ? title : c->title);
    out->nfiles = v.nfiles;
    bool *fired = xcalloc(t->n, sizeof *fired);
    eval_ctx e = {&v, fired, xcalloc(v.nfiles + 1, sizeof(bool)), false,
                  xcalloc(v.nfiles + 1, sizeof(int)), xcalloc(v.nfiles + 1, sizeof(int)), false};
    int *best = xcalloc(v.nfiles + 1, sizeof(int));

    for (size_t fi = 0; fi < t->n; fi++) {
        const family_def *fd = &t->fams[fi];
        bool hit = false, vetoed = false;
        for (size_t i = 0; i < v.nfiles; i++)
            best[i] = -1;
        for (size_t k = 0; k < fd->n && !vetoed; k++) {
            const clause *cl = &fd->clauses[k];
            bool holds = eval_clause(&e, cl);
            if (cl->negated) {
                vetoed = holds;
            } else if (holds) {
                if (!hit)
                    for (size_t i = 0; i < v.nfiles; i++)
                        best[i] = e.site_line[i];
                hit = true;
            }
        }
        if (e.failed)
            break;
        if (!hit || vetoed)
            continue;
        fired[fi] = true;
        if (fd->exit_early) {
            for (size_t i = 0; i < out->n; i++)
                family_clear(&out->fams[i]);
            out->n = 0;
            add_family(out, fd->name, fd->rules);
            break;
        }
        derived_family *df = add_family(out, fd->name, fd->rules);
        for (size_t i = 0; i < v.nfiles; i++) {
            /* Sites must outlive the view: point them at the change's own path strings. */
            const change_file *cf = best[i] >= 0 ? change_find(c, v.files[i].path) : NULL;
            if (cf)
                add_site(df, cf->path, best[i]);
        }
    }
    if (e.failed) {
        derive_result_clear(out);
        out->status = DERIVE_FAILED;
        out->failure = xstrdup("a pattern hit the regex engine's matching limit");
    } else if (out->n == 0) {
        out->status = is_too_large_body(c) ? DERIVE_TOO_LARGE : DERIVE_UNDERIVABLE;
    }
    free(best);
    free(e.in_scope);
    free(e.site_line);
    free(e.path_site);
    free(fired);
    dv_free(&v);
}

void derive_result_clear(derive_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        family_clear(&r->fams[i]);
    free(r->fams);
    free(r->failure);
    memset(r, 0, sizeof *r);
}

const char *derive_all_rules(void)
{
    return ALL_RULES;
}

/* Count distinct space-separated tokens over all derived families' rule strings. */
static size_t distinct_rules(const derive_result *r)
{
    char **seen = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < r->n; i++) {
        char *copy = xstrdup(r->fams[i].rules);
        char *save = NULL;
        for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            bool dup = false;
            for (size_t k = 0; k < n && !dup; k++)
                dup = strcmp(seen[k], t) == 0;
            if (!dup)
                *ARRAY_PUSH(seen, n, cap) = xstrdup(t);
        }
        free(copy);
    }
    for (size_t k = 0; k < n; k++)
        free(seen[k]);
    free(seen);
    return n;
}

void derive_format(const derive_result *r, strbuf *out)
{
    switch (r->status) {
    case DERIVE_FAILED:
        sb_addf(out, "    [derivation-failed     ] %s\n", ALL_RULES);
        return;
    case DERIVE_TOO_LARGE:
        sb_addf(out, "    [diff-too-large        ] %s\n", ALL_RULES);
        return;
    case DERIVE_UNDERIVABLE:
        sb_addf(out, "    [underivable           ] %s\n", ALL_RULES);
        return;
    case DERIVE_OK:
        break;
    }
    sb_addf(out, "  files=%zu  types=%zu  rules=%zu/%d\n", r->nfiles, r->n, distinct_rules(r),
            ALL_RULES_COUNT);
    for (size_t i = 0; i < r->n; i++)
        sb_addf(out, "    [%-20s] %s\n", r->fams[i].name, r->fams[i].rules);
}
