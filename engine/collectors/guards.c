/* The removed-guards collector (rules D4 and B7): finds the asserts, TORCH_CHECK/AITER_CHECK,
 * static_asserts, zero-initialisations (torch.zeros, ::zeros, .zero_(), memset) and
 * .contiguous() calls that the change deletes, outside comments and strings, and sorts each
 * into kept, moved, changed or gone (guards_report.c). Gone and changed guards are findings on
 * the head line where the deletion happened; moved ones are hints that say where they went.
 *
 * Better than the original's line regex: comments and string contents are blanked first (from
 * the tree when the file parses), multi-line guards are joined into one statement (through
 * unchanged lines when only the macro line was rewritten), a rewritten condition that says the
 * same thing is kept (guards_cond.c), a guard that moved into a helper the change adds is
 * followed there, a changed bound says which way it moved (tightened → B7, loosened → D4), a
 * zeros→empty swap is tied to the comment that required the zeros (aiter#4043), a guard whose
 * invariant is still checked on the same path drops to a hint (aiter#5143), and a guard whose
 * whole function is deleted is not a finding (guards_flow.c). Deleted guards in test files are
 * test assertions, not invariants, and are not reported. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/guards.h"
#include "engine/diff_lines.h"

#define JOIN_MAX 8

/* --- reading the change ------------------------------------------------------------------ */

/* A file as the collector sees it, before anything is read. */
static void gfile_init(gfile *gf, const change_file *f)
{
    memset(gf, 0, sizeof *gf);
    gf->f = f;
    gf->lang = syntax_lang_of_path(f->path);
    gf->is_test = guards_is_test_path(f->path);
}

/* Read a file's head text (not parsed). */
static void gfile_load_head(collector_ctx *ctx, gfile *gf)
{
    const change_file *f = gf->f;
    gf->ctx = ctx;
    if (f->is_deleted || gf->head)
        return;
    char *cause = NULL;
    gf->head = change_head_text(ctx->chg, f, &gf->head_len, &cause);
    free(cause);
}

/* Parse a file's head and, when want_base, its base (its head text already read), and list
 * their functions. */
static void gfile_parse(gfile *gf, bool want_base, int *nbase_missing)
{
    const change_file *f = gf->f;
    collector_ctx *ctx = gf->ctx;
    char *cause = NULL;
    gf->trees_read = want_base;
    if (gf->lang != SYN_NONE && gf->head) {
        gf->hdoc = collector_doc(ctx, f, false, gf->head, gf->head_len, &gf->hown, &cause);
        free(cause);
        cause = NULL;
    }
    if (gf->lang != SYN_NONE && !f->is_new && want_base) {
        size_t blen = 0;
        char *base = collector_base_text(ctx, f, &blen, &cause);
        free(cause);
        cause = NULL;
        if (!base && (gf->head || f->is_deleted))
            base = change_base_from_head(f, gf->head ? gf->head : "", gf->head ? gf->head_len : 0, &blen);
        if (base) {
            gf->bdoc = collector_doc(ctx, f, true, base, blen, &gf->bown, &cause);
            free(cause);
            cause = NULL;
            free(base);
        } else {
            (*nbase_missing)++;
        }
    }
    /* the cache keeps each doc's functions: an unchanged base is not walked again */
    gf->funcs_shared = ctx->syn && !gf->hown && !gf->bown;
    if (gf->hdoc && gf->funcs_shared)
        gf->hfuncs = *syntax_cache_functions(ctx->syn, gf->hdoc);
    else if (gf->hdoc)
        syntax_functions(gf->hdoc, &gf->hfuncs);
    if (gf->bdoc && gf->funcs_shared)
        gf->bfuncs = *syntax_cache_functions(ctx->syn, gf->bdoc);
    else if (gf->bdoc)
        syntax_functions(gf->bdoc, &gf->bfuncs);
    gf->head_nlines = gf->hdoc ? gf->hdoc->nlines : 0;
    if (gf->hdoc && gf->hdoc->has_errors) {
        int col;
        gf->head_errors = true;
        gf->error_line = syntax_first_error(gf->hdoc, &col, NULL);
    }
}

void guards_gfile_trees(gfile *gf)
{
    int ignored = 0;
    if (!gf->trees_read && gf->ctx)
        gfile_parse(gf, true, &ignored);
}

/* True when a changed line's code view must come from its tree: lines that look like guards
 * (which may sit in a docstring or block comment), comment lines (which may be evidence) and
 * docstring quotes; a blank line reads the same either way. */
static bool line_needs_tree(syn_lang lang, const diff_line *l)
{
    if (str_blank_n(l->text, l->len))
        return false;
    char *lex = syntax_text_code(lang, l->text, l->len);
    bool need = guards_kind(lex) != GK_NONE || guards_is_empty_alloc(lex) || !*str_lskip(lex) ||
                memmem(l->text, l->len, "\"\"\"", 3) || memmem(l->text, l->len, "'''", 3);
    free(lex);
    return need;
}

/* Which changed lines need their tree (need[i]), and whether any deleted one does. */
static bool lines_needing_trees(const gfile *gf, bool *need)
{
    const change_file *f = gf->f;
    syn_lang lx = gf->lang == SYN_NONE ? SYN_CPP : gf->lang;
    bool base = false;
    for (size_t i = 0; i < f->nlines; i++) {
        need[i] = f->lines[i].kind != ' ' && line_needs_tree(lx, &f->lines[i]);
        base |= need[i] && f->lines[i].kind == '-';
    }
    return base;
}

/* True when a changed line of f is read from a tree (need, from lines_needing_trees). */
static bool any_need(const change_file *f, const bool *need)
{
    for (size_t i = 0; i < f->nlines; i++)
        if (need[i])
            return true;
    return false;
}

/* Compute every diff line's code view (from the trees where need says they matter). */
static void gfile_line_views(gfile *gf, const bool *need)
{
    const change_file *f = gf->f;
    gf->dcode = xcalloc(f->nlines ? f->nlines : 1, sizeof *gf->dcode);
    gf->dtext = xcalloc(f->nlines ? f->nlines : 1, sizeof *gf->dtext);
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind == ' ') {
            /* a context line is read only as the continuation of a rewritten guard's first
             * line: lexically is enough */
            syn_lang lx = gf->lang == SYN_NONE ? SYN_CPP : gf->lang;
            gf->dcode[i] = syntax_text_code(lx, l->text, l->len);
            gf->dtext[i] = syntax_text_nocomment(lx, l->text, l->len);
            continue;
        }
        char *c = NULL;
        const syntax_doc *d = l->kind == '-' ? gf->bdoc : gf->hdoc;
        int no = l->kind == '-' ? l->old_no : l->new_no;
        if (d && need[i]) {
            size_t len;
            const char *t = syntax_line_text(d, no, &len);
            size_t ln = l->len;
            if (t && len > 0 && t[len - 1] == '\r')
                len--;
            if (ln > 0 && l->text[ln - 1] == '\r')
                ln--;
            if (t && len == ln && memcmp(t, l->text, len) == 0) {
                c = syntax_line_code(d, no);
                gf->dtext[i] = syntax_line_nocomment(d, no);
            }
        }
        syn_lang lx = gf->lang == SYN_NONE ? SYN_CPP : gf->lang;
        gf->dcode[i] = c ? c : syntax_text_code(lx, l->text, l->len);
        if (!gf->dtext[i])
            gf->dtext[i] = syntax_text_nocomment(lx, l->text, l->len);
    }
}

static void gfile_free(gfile *gf)
{
    for (size_t i = 0; !gf->texts_borrowed && i < gf->f->nlines; i++) {
        free(gf->dcode[i]);
        free(gf->dtext[i]);
    }
    if (!gf->texts_borrowed) {
        free(gf->dcode);
        free(gf->dtext);
    }
    free(gf->head);
    for (size_t i = 0; gf->hcalls && i < gf->hfuncs.n; i++)
        if (gf->hcalls[i]) {
            syn_call_list_free(gf->hcalls[i]);
            free(gf->hcalls[i]);
        }
    free(gf->hcalls);
    free(gf->hkind);
    if (!gf->funcs_shared) {
        syn_func_list_free(&gf->hfuncs);
        syn_func_list_free(&gf->bfuncs);
    }
    syntax_free(gf->hown);
    syntax_free(gf->bown);
    strset_free(&gf->defines);
}

/* Add line j of the diff to a statement being built. */
static void stmt_add_line(const gfile *gf, size_t j, strbuf *text, strbuf *code, strbuf *bare)
{
    const change_file *f = gf->f;
    char *t = xstrndup(f->lines[j].text, f->lines[j].len);
    char *ts = str_strip(t), *cs = str_strip(gf->dcode[j]), *bs = str_strip(gf->dtext[j]);
    /* a macro body's line continuation is not part of the statement */
    if (gf->lang != SYN_PYTHON) {
        if (str_ends(cs, "\\"))
            cs[strlen(cs) - 1] = ' ';
        if (str_ends(bs, "\\"))
            bs[strlen(bs) - 1] = ' ';
        for (size_t n = strlen(cs); n > 0 && cs[n - 1] == ' '; n--)
            cs[n - 1] = '\0';
        for (size_t n = strlen(bs); n > 0 && bs[n - 1] == ' '; n--)
            bs[n - 1] = '\0';
    }
    if (text->len)
        sb_addc(text, ' ');
    sb_adds(text, ts);
    if (code->len)
        sb_addc(code, ' ');
    sb_adds(code, cs);
    if (bare->len)
        sb_addc(bare, ' ');
    sb_adds(bare, bs);
    free(t);
    free(ts);
    free(cs);
    free(bs);
}

/* Build the statement starting at diff line i of kind k: a guard's line joined with the
 * following lines while brackets are open or the line continues — lines of the same kind, and
 * unchanged lines when only the first line was rewritten (`TORCH_CHECK(` became `AITER_CHECK(`
 * over the same arguments); lines of the other side are passed over. Returns how many diff
 * lines of kind k it took from i. */
static size_t build_stmt(gfile *gf, size_t i, char kind, gstmt *s)
{
    const change_file *f = gf->f;
    strbuf text, code, bare;
    sb_init(&text);
    sb_init(&code);
    sb_init(&bare);
    /* only a guard is joined with its continuation lines: the keyword must be on line i */
    bool join = guards_kind(gf->dcode[i]) != GK_NONE;
    size_t j = i, used = 0, taken = 0;
    int depth = 0;
    bool same_kind_run = true;
    for (; j < f->nlines && taken < JOIN_MAX; j++) {
        char k = f->lines[j].kind;
        if (k != kind && k != ' ') {
            same_kind_run = false;
            continue;
        }
        if (k == kind && same_kind_run)
            used = j - i + 1;
        else
            same_kind_run = false;
        stmt_add_line(gf, j, &text, &code, &bare);
        taken++;
        const char *cl = gf->dcode[j];
        depth += guards_paren_balance(cl);
        char *cs = str_strip(cl);
        bool cont = gf->lang == SYN_PYTHON && str_ends(cs, "\\");
        bool ends = str_ends(cs, ";");
        free(cs);
        if (!join || (depth <= 0 && !cont) || (depth <= 0 && ends))
            break;
    }
    memset(s, 0, sizeof *s);
    s->gf = gf;
    s->di = i;
    s->text = sb_detach(&text);
    s->code = sb_detach(&code);
    s->bare = sb_detach(&bare);
    s->norm = guards_no_space(s->bare);
    s->cond = guards_condition_in(s->code, s->bare);
    s->nf = guards_normal_new();
    s->kind = guards_kind(s->code);
    s->old_line = kind == '-' ? f->lines[i].old_no : 0;
    /* only a deleted guard needs its exact anchor (the similarity search costs) */
    s->head_line = kind == '-' && s->kind != GK_NONE
                       ? diff_lines_deleted_head(f, i, gf->head_nlines, 160)
                       : f->lines[i].new_no;
    s->is_empty_alloc = kind == '+' && guards_is_empty_alloc(s->code);
    s->target = guards_target(s->code);
    s->subject = guards_subject(s->code, s->kind, s->target);
    if (s->kind == GK_CHECK) {
        char *cond = guards_condition(s->code);
        guards_idents(cond, true, 4, true, &s->words);
        free(cond);
        s->call = guards_first_call(s->code);
    }
    return used ? used : 1;
}

/* Free a statement's strings. */
static void gstmt_clear(gstmt *s)
{
    free(s->text);
    free(s->norm);
    free(s->code);
    free(s->bare);
    free(s->cond);
    guards_normal_free(s->nf);
    guards_words_free(&s->words);
    free(s->call);
    free(s->target);
    free(s->subject);
}

static void gstmt_list_free(gstmt_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        gstmt_clear(&l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* Read every changed file's diff lines into statements: deleted guards (outside tests and
 * deleted files), added statements of the library, and statements added to tests. */
static void collect_statements(gfile *files, size_t nfiles, gstmt_list *dels, gstmt_list *adds,
                               gstmt_list *test_adds, gcounts *c)
{
    for (size_t k = 0; k < nfiles; k++) {
        gfile *gf = &files[k];
        const change_file *f = gf->f;
        for (size_t i = 0; i < f->nlines;) {
            const diff_line *l = &f->lines[i];
            if (l->kind == ' ') {
                i++;
                continue;
            }
            gstmt s;
            size_t used = build_stmt(gf, i, l->kind, &s);
            if (!*s.norm) {
                gstmt_clear(&s);
                i += used;
                continue;
            }
            if (l->kind == '+' && gf->is_test) {
                /* a guard moved into a test no longer guards the library */
                *ARRAY_PUSH(test_adds->items, test_adds->n, test_adds->cap) = s;
            } else if (l->kind == '+') {
                *ARRAY_PUSH(adds->items, adds->n, adds->cap) = s;
            } else if (s.kind != GK_NONE && gf->lang != SYN_NONE && !gf->is_test && !f->is_deleted) {
                *ARRAY_PUSH(dels->items, dels->n, dels->cap) = s;
            } else {
                if (s.kind != GK_NONE && gf->is_test)
                    c->in_tests++;
                else if (s.kind != GK_NONE && f->is_deleted)
                    c->in_deleted++;
                gstmt_clear(&s);
            }
            /* an added statement is also worth matching line by line (a guard re-added inside
             * a longer statement); deleted guards are matched as whole statements */
            i += l->kind == '+' ? 1 : used;
        }
    }
}

/* Sort every deleted guard into kept, moved, changed or gone, with its finding. */
static void report_all(collector_ctx *ctx, gfile *files, size_t nfiles, gstmt_list *dels,
                       const gstmt_list *adds, const gstmt_list *test_adds, gcounts *c)
{
    for (size_t i = 0; i < dels->n; i++) {
        /* a function rewritten elsewhere in its file: its guards' findings go with it */
        const syn_func *to = guards_relocated(dels->items[i].gf, &dels->items[i]);
        if (to) {
            dels->items[i].head_line = to->name_line;
            dels->items[i].moved_to = to->body_line;
        }
    }
    for (size_t i = 0; i < dels->n; i++) {
        /* the same guard deleted twice onto one head line (a block moved out) reads once */
        bool dup = false;
        for (size_t k = 0; k < i && !dup; k++)
            dup = dels->items[k].gf == dels->items[i].gf &&
                  dels->items[k].head_line == dels->items[i].head_line &&
                  strcmp(dels->items[k].norm, dels->items[i].norm) == 0;
        if (!dup)
            guards_report(ctx, files, nfiles, &dels->items[i], adds, test_adds, c);
    }
}

/* Set the collector's status line from what the classification counted. */
static void status_line(collector_ctx *ctx, const gfile *files, size_t nfiles, size_t ndels,
                        const gcounts *c, int nbase_missing, const collector_coverage *cov)
{
    int nfound = c->gone + c->changed + c->zero + c->conditional;
    strbuf extra;
    sb_init(&extra);
    if (c->kept)
        sb_addf(&extra, "; %d re-added in place with the same condition", c->kept);
    if (c->dropped)
        sb_addf(&extra, "; %d zero-init/contiguous calls went with their buffer", c->dropped);
    if (c->conditional)
        sb_addf(&extra, "; %d re-added under a condition", c->conditional);
    if (c->path_gone)
        sb_addf(&extra, "; %d guard%s went with their deleted code", c->path_gone,
                c->path_gone == 1 ? "" : "s");
    if (c->in_tests)
        sb_addf(&extra, "; %d in test files ignored", c->in_tests);
    if (c->in_deleted)
        sb_addf(&extra, "; %d in deleted files ignored", c->in_deleted);
    if (nbase_missing)
        sb_addf(&extra, "; base text unavailable for %d file(s), comments judged line by line",
                nbase_missing);
    /* parse errors are for the log: say where the first one is, never make a finding of it */
    int nerr = 0;
    for (size_t k = 0; k < nfiles; k++) {
        if (!files[k].head_errors)
            continue;
        if (nerr++ == 0)
            sb_addf(&extra, "; syntax errors in the head of %s (first at line %d)", files[k].f->path,
                    files[k].error_line);
    }
    collector_coverage_join(cov, nfiles, &extra);
    if (nerr > 1)
        sb_addf(&extra, " and %d more file(s)", nerr - 1);
    const char *x = extra.buf ? extra.buf : "";
    if (ndels == 0)
        collector_status(ctx, "nothing found: this change deletes no assert, check, zero-init or "
                              "contiguous call%s", x);
    else if (nfound == 0)
        collector_status(ctx, "nothing found: %zu deleted guard(s), none lost (%d moved, "
                              "hints say where; %d still enforced or gone with what they "
                              "guarded, hints)%s", ndels, c->moved, c->hinted, x);
    else
        collector_status(ctx, "found %d: %d gone, %d changed, %d zero-init swapped for empty; %d "
                              "moved (hints); %d lowered to hints (still checked elsewhere, or "
                              "their subject is gone)%s",
                         nfound, c->gone, c->changed, c->zero, c->moved, c->hinted, x);
    sb_free(&extra);
}

/* What one file's stage keeps: its diff lines' code views and what the status line says of it.
 * Enough to find the guards the change deletes without its trees. */
typedef struct gfacts {
    char **dcode, **dtext;
    size_t nlines;
    int head_nlines, error_line;
    bool head_errors, base_missing;
    bool code_same;          /* only comments or layout changed: nothing was read */
    collector_coverage cov;  /* how much of its added C/C++ code the parser read */
} gfacts;

static void gfacts_free(void *p)
{
    gfacts *t = p;
    for (size_t i = 0; i < t->nlines; i++) {
        free(t->dcode[i]);
        free(t->dtext[i]);
    }
    free(t->dcode);
    free(t->dtext);
    free(t);
}

/* The files it reads: every changed file that is read (not binary or skipped). */
static bool reads(const change_file *f)
{
    return !f->is_skipped && !f->is_binary && (f->ndel || f->nadd);
}

/* The runner parses a Python file ahead only when a changed line is read from a tree. */
static bool parse_ahead(collector_ctx *ctx, const change_file *f, const char *head, size_t hlen,
                        const struct py_outline *o)
{
    gfile gf;
    gfile_init(&gf, f);
    if (gf.lang != SYN_PYTHON)
        return true;
    bool *need = xcalloc(f->nlines + 1, sizeof *need);
    lines_needing_trees(&gf, need);
    bool any = any_need(f, need);
    free(need);
    return any;
}

/* The per-file stage: read the file's head and base and keep its diff lines' code views. */
static void guards_file(collector_file_ctx *fx)
{
    gfile gf;
    gfile_init(&gf, fx->f);
    int nbase_missing = 0;
    /* a C/C++ head is parsed always (its errors are reported; other collectors share it), a
     * Python one only when a changed line is read from a tree; the base only when a deleted
     * line is read from it (the change-wide stage reads more trees where it needs them) */
    bool *need = xcalloc(fx->f->nlines + 1, sizeof *need);
    if (fx->code_same) {
        /* only comments and layout changed: no changed line holds new code, so no guard was
         * deleted or added here and no tree needs reading */
        gfile_line_views(&gf, need);
        for (size_t i = 0; i < fx->f->nlines; i++)
            if (fx->f->lines[i].kind != ' ') {
                free(gf.dcode[i]);
                free(gf.dtext[i]);
                gf.dcode[i] = xstrdup("");
                gf.dtext[i] = xstrdup("");
            }
    } else {
        bool want_base = lines_needing_trees(&gf, need);
        gfile_load_head(fx->review, &gf);
        if (gf.lang != SYN_PYTHON || any_need(fx->f, need))
            gfile_parse(&gf, want_base, &nbase_missing);
        gfile_line_views(&gf, need);
    }
    free(need);
    gfacts *t = xcalloc(1, sizeof *t);
    t->code_same = fx->code_same;
    t->dcode = gf.dcode;
    t->dtext = gf.dtext;
    t->nlines = fx->f->nlines;
    t->head_nlines = gf.head_nlines;
    t->error_line = gf.error_line;
    t->head_errors = gf.head_errors;
    t->base_missing = nbase_missing > 0;
    if (!fx->code_same)
        collector_file_coverage(fx->review, fx->f, false, &t->cov);
    gf.texts_borrowed = true;
    gfile_free(&gf);
    fx->facts = t;
}

/* A file of the change-wide stage, from its per-file facts (its trees not read yet). */
static void gfile_from_facts(gfile *gf, const change_file *f, const gfacts *t)
{
    gfile_init(gf, f);
    gf->dcode = t->dcode;
    gf->dtext = t->dtext;
    gf->texts_borrowed = true;
    gf->head_nlines = t->head_nlines;
    gf->error_line = t->error_line;
    gf->head_errors = t->head_errors;
}

/* Add gf to the files whose trees the change-wide stage reads first (want, n of them), once;
 * the new count. */
static size_t want_trees(gfile **want, size_t n, gfile *gf)
{
    if (gf->trees_read)
        return n;
    for (size_t i = 0; i < n; i++)
        if (want[i] == gf)
            return n;
    want[n] = gf;
    return n + 1;
}

/* guards_gfile_trees for the n files of want, two at a time when a second thread parses ahead:
 * the second file's docs are queued, the first's are parsed here meanwhile, then the second's
 * are taken (the trees are the same whichever thread parses them). */
static void read_trees(gfile **want, size_t n)
{
    for (size_t i = 0; i < n; i += 2) {
        collector_ctx *ctx = want[i]->ctx;
        if (i + 1 < n && ctx && ctx->parse_ahead && ctx->syn && !want[i + 1]->trees_read)
            collector_parse_ahead(ctx, want[i + 1]->f);
        guards_gfile_trees(want[i]);
        if (i + 1 < n)
            guards_gfile_trees(want[i + 1]);
    }
}

/* The change-wide stage: the statements of every file; when the change deletes a guard, every
 * file's trees are read and each deleted guard sorted into kept, moved, changed or gone. */
static void guards_change(collector_ctx *ctx, const collector_files *files)
{
    gfile *gfs = xcalloc(files->n + 1, sizeof *gfs);
    collector_coverage *cov = xcalloc(files->n + 1, sizeof *cov);
    int nbase_missing = 0;
    for (size_t k = 0; k < files->n; k++) {
        const gfacts *t = files->items[k].facts;
        gfile_from_facts(&gfs[k], files->items[k].f, t);
        nbase_missing += t->base_missing;
        cov[k] = t->cov;
        cov[k].path = files->items[k].f->path; /* the kept count may be an earlier review's */
    }
    gcounts c = {0};
    gstmt_list dels = {0}, adds = {0}, test_adds = {0};
    collect_statements(gfs, files->n, &dels, &adds, &test_adds, &c);
    if (dels.n) {
        /* every head text, but trees only where a deleted guard is judged from them: its own
         * file and files that add a guard or an allocation (compared with it in their scope);
         * the searches through other files read a file's trees when its text names what they
         * look for (guards_gfile_trees) */
        for (size_t k = 0; k < files->n; k++)
            gfile_load_head(ctx, &gfs[k]);
        gfile **want = xcalloc(dels.n + adds.n + test_adds.n + 1, sizeof *want);
        size_t nwant = 0;
        for (size_t i = 0; i < dels.n; i++)
            nwant = want_trees(want, nwant, dels.items[i].gf);
        for (size_t i = 0; i < adds.n; i++)
            if (adds.items[i].kind != GK_NONE || adds.items[i].is_empty_alloc)
                nwant = want_trees(want, nwant, adds.items[i].gf);
        for (size_t i = 0; i < test_adds.n; i++)
            if (test_adds.items[i].kind != GK_NONE)
                nwant = want_trees(want, nwant, test_adds.items[i].gf);
        read_trees(want, nwant);
        free(want);
        report_all(ctx, gfs, files->n, &dels, &adds, &test_adds, &c);
    }
    /* every file the coverage note counts (added C/C++ lines) is one guards reads */
    status_line(ctx, gfs, files->n, dels.n, &c, nbase_missing, cov);
    size_t nsame = 0;
    for (size_t k = 0; k < files->n; k++)
        nsame += ((const gfacts *)files->items[k].facts)->code_same;
    collector_status_code_same(ctx, nsame);
    free(cov);
    gstmt_list_free(&dels);
    gstmt_list_free(&adds);
    gstmt_list_free(&test_adds);
    for (size_t k = 0; k < files->n; k++)
        gfile_free(&gfs[k]);
    free(gfs);
}

const collector collector_guards = {
    .name = "guards",
    .rules = "D4 B7",
    .langs = COLLECT_ANY,
    .reads = reads,
    .file_stage = guards_file,
    .parse_ahead = parse_ahead,
    .code_same_untreed = true, /* guards_file reads its changed lines as blank */
    .free_facts = gfacts_free,
    .change_stage = guards_change,
};
