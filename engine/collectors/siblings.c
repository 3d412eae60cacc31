/* The sibling-drift collector (rule A1): when the change rewrites or removes a line inside a
 * function, look for variants of that function in the same file (names sharing a run of at
 * least 8 characters: `_decode` / `_prefill_opt`, `_2d` / `_3d`) that still carry the old
 * line, and put the finding on the variant's line, with the changed line as related
 * information. Python and C++/HIP alike (aiter#3841, the motivating case, was a HIP kernel).
 *
 * Better than the original's regex scan: functions come from the tree (nested defs, methods,
 * decorated, templates, kernels), the changed function of a deleted line is read from the
 * base (so a line deleted at a function's end is not blamed on the next one, and a function
 * the change deleted outright is no fix to copy), lines are compared as code (comments and
 * white space ignored), a line the change moved within its function is not a change, and a
 * variant line the change itself added is not drift. The trivial-line filters are the
 * reference's. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collector.h"
#include "engine/suppress.h" /* text_line_at */
#include "engine/syntax.h"

#define MIN_COMMON 8      /* longest common substring of two variant names */
#define MIN_LINE 25       /* shorter deleted lines never count */
#define PER_VARIANT_MAX 5 /* findings per variant */
#define VARIANTS_MAX 3    /* variants flagged per changed line, closest names first */

/* --- line filters (reference §5.4) ------------------------------------------------------- */

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* True when s (stripped code) is only brackets, commas and semicolons. */
static bool is_trivial(const char *s)
{
    for (; *s; s++)
        if (!strchr("{}()[];,\\ \t", *s))
            return false;
    return true;
}

/* True for imports, definitions, decorators and preprocessor lines. */
static bool is_noise_line(const char *s)
{
    static const char *const pre[] = {"from ", "import ", "def ", "async def ", "class ", "@", "#",
                                      "template", "using ", "namespace ", "typedef ", NULL};
    for (int i = 0; pre[i]; i++)
        if (str_starts(s, pre[i]))
            return true;
    return false;
}

/* True for `name = simple` (a bare rebinding, also `name=name,` passing a keyword argument
 * through) and `name: [` (docstring-ish tables). */
static bool is_rebinding(const char *s)
{
    const char *p = s;
    if (!ident_char(*p))
        return false;
    while (ident_char(*p))
        p++;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == ':') {
        p++;
        while (*p == ' ')
            p++;
        return *p == '[';
    }
    if (*p != '=' || p[1] == '=')
        return false;
    for (p++; *p; p++)
        if (!(ident_char(*p) || strchr(".\"'() \t;,", *p)))
            return false;
    return true;
}

/* True when s does something a fix could change: arithmetic, indexing, a comparison, a call
 * chained on a result, a condition, a return or an assignment. */
static bool is_substantive(const char *s)
{
    if (strpbrk(s, "-+*/%<>="))
        return true;
    for (const char *p = s; *p; p++) {
        if (*p == '[' && p > s && ident_char(p[-1]))
            return true;
        if (*p == ')') {
            const char *q = p + 1;
            while (*q == ' ')
                q++;
            if (*q == '.')
                return true;
        }
    }
    const char *w;
    if ((w = strstr(s, "if")) && (w == s || !ident_char(w[-1])) && !ident_char(w[2]))
        return true;
    if ((w = strstr(s, "return")) && (w == s || !ident_char(w[-1])) && !ident_char(w[6]))
        return true;
    return false;
}

/* A copy of s without white space. */
static char *no_space(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    for (; *s; s++)
        if (!isspace((unsigned char)*s))
            sb_addc(&sb, *s);
    return sb_detach(&sb);
}

/* Length of the longest common substring of a and b. */
static size_t common_run(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), best = 0;
    size_t *prev = xcalloc(nb + 1, sizeof *prev), *cur = xcalloc(nb + 1, sizeof *cur);
    for (size_t i = 1; i <= na; i++) {
        for (size_t j = 1; j <= nb; j++) {
            cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : 0;
            if (cur[j] > best)
                best = cur[j];
        }
        size_t *t = prev;
        prev = cur;
        cur = t;
    }
    free(prev);
    free(cur);
    return best;
}

/* True when a path is excluded as the reference does (tests, benchmarks, vendored code). */
static bool excluded_path(const char *p)
{
    const char *base = strrchr(p, '/');
    base = base ? base + 1 : p;
    return str_starts(p, "op_tests/") || str_starts(p, "tests/") || str_contains(p, "bench") ||
           str_contains(p, "3rdparty") || str_starts(base, "test_");
}

/* --- reading the change ------------------------------------------------------------------ */

/* Length of the longest run of bytes shared by a[0..an) and b[0..bn), white space runs
 * counted as they are; capped inputs keep it cheap. */
static size_t text_run(const char *a, size_t an, const char *b, size_t bn)
{
    if (an > 120)
        an = 120;
    if (bn > 120)
        bn = 120;
    size_t best = 0, prev[121] = {0}, cur[121] = {0};
    for (size_t i = 1; i <= an; i++) {
        for (size_t j = 1; j <= bn; j++) {
            cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : 0;
            if (cur[j] > best)
                best = cur[j];
        }
        memcpy(prev, cur, sizeof prev);
    }
    return best;
}

/* The head line for deleted diff line i: in a rewrite (deletions followed by additions) the
 * added line most like it; otherwise where the deletion happened. */
static int deleted_head_line(const change_file *f, size_t i, int last)
{
    size_t s = i, e = i;
    while (s > 0 && f->lines[s - 1].kind == '-')
        s--;
    while (e < f->nlines && f->lines[e].kind == '-')
        e++;
    size_t a = e;
    while (a < f->nlines && f->lines[a].kind == '+')
        a++;
    int line = f->lines[i].new_no;
    if (a > e) {
        /* the added line most like the deleted one (longest shared run of text), else the
         * one at the same position in the block */
        size_t k = i - s, pick = k < a - e ? e + k : a - 1, best = 0;
        if (e - s <= 24 && a - e <= 24)
            for (size_t j = e; j < a; j++) {
                size_t run = text_run(f->lines[i].text, f->lines[i].len, f->lines[j].text, f->lines[j].len);
                if (run > best || (run == best && run > 0 && j == e + k)) {
                    best = run;
                    pick = j;
                }
            }
        if (best >= 8 || k < a - e)
            line = f->lines[pick].new_no;
    }
    if (last > 0 && line > last)
        line = last;
    return line < 1 ? 1 : line;
}

/* A line of doc d (or, without a doc, text) with its comments removed, stripped. */
static char *norm_code(const syntax_doc *d, int line, syn_lang lang, const char *text, size_t len)
{
    char *c = NULL;
    if (d) {
        size_t tl;
        const char *t = syntax_line_text(d, line, &tl);
        size_t a = tl, b = len;
        if (t && a > 0 && t[a - 1] == '\r')
            a--;
        if (text && b > 0 && text[b - 1] == '\r')
            b--;
        if (t && (!text || (a == b && memcmp(t, text, a) == 0)))
            c = syntax_line_nocomment(d, line);
    }
    if (!c && text)
        c = syntax_text_nocomment(lang, text, len);
    if (!c)
        return xstrdup("");
    char *s = str_strip(c);
    free(c);
    return s;
}

/* --- the collector ----------------------------------------------------------------------- */

typedef struct scounts {
    int files, changed_funcs, variants, found;
    int parse_errors;        /* head files with syntax errors */
    int no_head;             /* files whose head text could not be had */
    char *first_error;       /* "path:line" of the first, or NULL */
} scounts;

typedef struct hit {
    const syn_func *variant;
    int line;
} hit;

/* True when function a lies inside b or b inside a. */
static bool nested(const syn_func *a, const syn_func *b)
{
    return (a->start_byte <= b->start_byte && b->end_byte <= a->end_byte) ||
           (b->start_byte <= a->start_byte && a->end_byte <= b->end_byte);
}

/* The head function a deleted line belongs to: by its base function's qualified name when the
 * base parsed (NULL when that function is gone from the head), else by its head position. */
static const syn_func *changed_function(const syn_func_list *hf, const syn_func_list *bf, bool have_base,
                                        int old_no, int head_line, bool *in_signature)
{
    *in_signature = false;
    if (have_base) {
        const syn_func *b = syntax_enclosing_function(bf, old_no);
        if (!b)
            return NULL;
        *in_signature = old_no < b->body_line || old_no == b->name_line;
        for (size_t i = 0; i < hf->n; i++)
            if (strcmp(hf->items[i].qualname, b->qualname) == 0)
                return &hf->items[i];
        return NULL;
    }
    const syn_func *h = syntax_enclosing_function(hf, head_line);
    if (!h || h->start_line == head_line)
        h = syntax_enclosing_function(hf, head_line - 1);
    return h;
}

/* The functions of doc d: the shared cache's list when there is one, else computed into
 * local (which the caller frees). */
static const syn_func_list *functions_of(collector_ctx *ctx, const syntax_doc *d, syn_func_list *local)
{
    const syn_func_list *l = ctx->syn ? syntax_cache_functions(ctx->syn, d) : NULL;
    if (l)
        return l;
    syntax_functions(d, local);
    return local;
}


/* A line of text, stripped (new string; "" when the line is not there). */
static char *stripped_line(const char *text, size_t len, int line)
{
    const char *l;
    size_t n;
    if (!text_line_at(text, len, line, &l, &n))
        return xstrdup("");
    char *raw = xstrndup(l, n), *st = str_strip(raw);
    free(raw);
    return st;
}

/* True when a diff line holds no code: blank, or only a comment. */
static bool no_code(const diff_line *l)
{
    size_t k = 0;
    while (k < l->len && isspace((unsigned char)l->text[k]))
        k++;
    const char *t = l->text + k;
    size_t n = l->len - k;
    return n == 0 || t[0] == '#' || t[0] == '*' || (n > 1 && t[0] == '/' && (t[1] == '/' || t[1] == '*'));
}

/* The added line that took deleted diff line i's place: in the run of added lines right after
 * its run of deleted lines, the code line (comments and blank lines skipped) at the same
 * position (the last when there are fewer), or -1 when the change adds no code there. */
static long replacement_of(const change_file *f, size_t i)
{
    size_t first = i, end = i;
    while (first > 0 && f->lines[first - 1].kind == '-')
        first--;
    while (end < f->nlines && f->lines[end].kind == '-')
        end++;
    long pick = -1;
    size_t ncode = 0;
    for (size_t k = end; k < f->nlines && f->lines[k].kind == '+'; k++) {
        if (no_code(&f->lines[k]))
            continue;
        if (ncode++ <= i - first)
            pick = (long)k;
    }
    return pick;
}

/* The rewritten line beside the variant's: the changed function's line before and after the
 * change, aligned over the variant's line that still has the old text. */
static void add_pair_exhibit(finding *fi, const change_file *f, size_t i, int at, const char *fn,
                             const char *var, const char *head, size_t hlen, int var_line)
{
    exhibit *e = finding_add_exhibit(fi, EXHIBIT_PAIR, "`%s` rewrote a line `%s` still has", fn, var);
    char *before = xstrndup(f->lines[i].text, f->lines[i].len), *b = str_strip(before);
    exhibit_add_line(e, "before", f->path, at, b);
    free(before);
    free(b);
    long r = replacement_of(f, i);
    if (r >= 0) {
        char *after = stripped_line(head, hlen, f->lines[r].new_no);
        exhibit_add_line(e, "after", f->path, f->lines[r].new_no, after);
        free(after);
    } else {
        exhibit_add_line(e, "after", NULL, 0, "(deleted)");
    }
    char *kept = stripped_line(head, hlen, var_line);
    exhibit_add_line(e, "variant", f->path, var_line, kept);
    free(kept);
}
/* Review one file. */
static void siblings_file(collector_ctx *ctx, const change_file *f, scounts *c, bool *no_base)
{
    syn_lang lang = syntax_lang_of_path(f->path);
    char *cause = NULL;
    size_t hlen = 0, blen = 0;
    char *head = change_head_text(ctx->chg, f, &hlen, &cause);
    free(cause);
    cause = NULL;
    if (!head) {
        c->no_head++;
        return;
    }
    syntax_doc *hown = NULL, *bown = NULL;
    const syntax_doc *hd = collector_doc(ctx, f, false, head, hlen, &hown, &cause);
    free(cause);
    cause = NULL;
    if (!hd) {
        free(head);
        return;
    }
    if (hd->has_errors && c->parse_errors++ == 0) {
        int col;
        c->first_error = xasprintf("%s:%d", f->path, syntax_first_error(hd, &col, NULL));
    }
    syn_func_list hlocal = {0}, blocal = {0};
    const syn_func_list *hfp = functions_of(ctx, hd, &hlocal), *bfp = &blocal;
    if (hfp->n < 2) {
        syn_func_list_free(&hlocal);
        syntax_free(hown);
        free(head);
        return;
    }
    c->files++;
    char *base = collector_base_text(ctx, f, &blen, &cause);
    free(cause);
    cause = NULL;
    if (!base)
        base = change_base_from_head(f, head, hlen, &blen);
    const syntax_doc *bd = base ? collector_doc(ctx, f, true, base, blen, &bown, &cause) : NULL;
    free(cause);
    free(base);
    if (bd)
        bfp = functions_of(ctx, bd, &blocal);
    else
        *no_base = true;
    const syn_func_list hf = *hfp, bf = *bfp; /* borrowed views */

    /* what the change added to this file: normalised added lines and their head line numbers */
    char **added = xcalloc(f->nlines ? f->nlines : 1, sizeof *added);
    bool *added_line = xcalloc((size_t)hd->nlines + 2, sizeof *added_line);
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind != '+')
            continue;
        char *code = norm_code(hd, l->new_no, lang, l->text, l->len);
        added[i] = no_space(code);
        free(code);
        if (l->new_no >= 1 && l->new_no <= hd->nlines)
            added_line[l->new_no] = true;
    }
    /* head lines' normalised code, computed on demand */
    char **hnorm = xcalloc((size_t)hd->nlines + 2, sizeof *hnorm);
    hit *hits = NULL;
    size_t nhits = 0, hits_cap = 0;
    const syn_func **seen_funcs = NULL;
    size_t nseen = 0, seen_cap = 0;
    const syn_func *ord_fn = NULL;
    size_t *order = xcalloc(hf.n ? hf.n : 1, sizeof *order), *runs = xcalloc(hf.n ? hf.n : 1, sizeof *runs);
    size_t nord = 0;

    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind != '-')
            continue;
        char *code = norm_code(bd, l->old_no, lang, l->text, l->len);
        bool keep = strlen(code) >= MIN_LINE && !is_trivial(code) && !is_noise_line(code) &&
                    !is_rebinding(code) && is_substantive(code);
        char *key = keep ? no_space(code) : NULL;
        int at = keep ? deleted_head_line(f, i, hd->nlines) : l->new_no;
        bool in_sig = false;
        const syn_func *fn = keep ? changed_function(&hf, &bf, bd != NULL, l->old_no, at, &in_sig) : NULL;
        if (!fn || in_sig)
            keep = false;
        else if (at > fn->end_line)
            at = fn->end_line; /* deleted at the function's end: point at its last line */
        /* moved within the file, not changed */
        for (size_t k = 0; keep && k < f->nlines; k++)
            if (added[k] && strcmp(added[k], key) == 0)
                keep = false;
        if (keep) {
            bool counted = false;
            for (size_t k = 0; k < nseen; k++)
                counted |= seen_funcs[k] == fn;
            if (!counted) {
                *ARRAY_PUSH(seen_funcs, nseen, seen_cap) = fn;
                c->changed_funcs++;
            }
        }
        /* the variants, closest names first (longest shared run), at most VARIANTS_MAX; the
         * list is kept while consecutive deleted lines belong to the same function */
        if (keep && fn != ord_fn) {
            ord_fn = fn;
            nord = 0;
            for (size_t v = 0; v < hf.n; v++) {
                const syn_func *var = &hf.items[v];
                if (var == fn || nested(var, fn) || !*var->name || strcmp(var->name, fn->name) == 0)
                    continue;
                runs[v] = common_run(fn->name, var->name);
                if (runs[v] < MIN_COMMON)
                    continue;
                size_t at_ = nord++;
                while (at_ > 0 && runs[order[at_ - 1]] < runs[v]) {
                    order[at_] = order[at_ - 1];
                    at_--;
                }
                order[at_] = v;
            }
        }
        int lines_flagged_variants = 0;
        for (size_t oi = 0; keep && oi < nord && lines_flagged_variants < VARIANTS_MAX; oi++) {
            const syn_func *var = &hf.items[order[oi]];
            bool flagged = false;
            int per_variant = 0;
            for (size_t k = 0; k < nhits; k++)
                per_variant += hits[k].variant == var;
            for (int ln = var->body_line; ln <= var->end_line && per_variant < PER_VARIANT_MAX; ln++) {
                if (ln < 1 || ln > hd->nlines || added_line[ln])
                    continue;
                /* a line of a function nested in the variant belongs to that function */
                const syn_func *owner = syntax_enclosing_function(&hf, ln);
                if (owner != var)
                    continue;
                if (!hnorm[ln]) {
                    char *hc = norm_code(hd, ln, lang, NULL, 0);
                    hnorm[ln] = no_space(hc);
                    free(hc);
                }
                if (strcmp(hnorm[ln], key) != 0)
                    continue;
                bool dup = false;
                for (size_t k = 0; k < nhits; k++)
                    dup |= hits[k].line == ln;
                if (dup)
                    continue;
                hit *h = ARRAY_PUSH(hits, nhits, hits_cap);
                h->variant = var;
                h->line = ln;
                per_variant++;
                flagged = true;
                char *raw = xstrndup(l->text, l->len), *q = str_strip(raw);
                free(raw);
                finding *fi = findings_add(ctx->out, "A1", SEV_INFORMATION, f->path, ln,
                                           "`%s` still has the line this change rewrote in `%s`: "
                                           "`%s` — fix it here too or say why it differs",
                                           var->name, fn->name, q);
                finding_add_related(fi, f->path, at, "changed here in `%s`", fn->name);
                add_pair_exhibit(fi, f, i, at, fn->name, var->name, head, hlen, ln);
                free(q);
                c->found++;
            }
            lines_flagged_variants += flagged;
        }
        free(key);
        free(code);
    }
    /* count distinct variants with hits */
    for (size_t k = 0; k < nhits; k++) {
        bool first = true;
        for (size_t j = 0; j < k; j++)
            first &= hits[j].variant != hits[k].variant;
        c->variants += first;
    }
    for (size_t i = 0; i < f->nlines; i++)
        free(added[i]);
    free(added);
    free(added_line);
    for (int ln = 0; ln <= hd->nlines + 1; ln++)
        free(hnorm[ln]);
    free(hnorm);
    free(hits);
    free(seen_funcs);
    free(order);
    free(runs);
    syn_func_list_free(&hlocal);
    syn_func_list_free(&blocal);
    syntax_free(hown);
    syntax_free(bown);
    free(head);
}

/* The files it reads: changed Python and C++ files that existed before and lose lines (new
 * files, tests and benchmarks are not checked). */
static bool reads(const change_file *f)
{
    return !f->is_new && !f->is_deleted && !f->is_skipped && !f->is_binary && f->ndel != 0 &&
           syntax_lang_of_path(f->path) != SYN_NONE && !excluded_path(f->path);
}

/* What one file's stage counted, for the status line. */
typedef struct sib_facts {
    scounts c;
    bool no_base;
    int error_line;          /* the head's first syntax error (c.parse_errors set), else 0 */
} sib_facts;

/* The per-file stage: variants of the file's changed functions still carrying its old lines. */
static void siblings_stage(collector_file_ctx *fx)
{
    sib_facts *t = xcalloc(1, sizeof *t);
    siblings_file(fx->review, fx->f, &t->c, &t->no_base);
    if (t->c.first_error) {
        const char *colon = strrchr(t->c.first_error, ':');
        t->error_line = colon ? atoi(colon + 1) : 0;
        free(t->c.first_error);
        t->c.first_error = NULL;
    }
    fx->facts = t;
}

/* The change-wide stage: the status line from every file's counts. */
static void siblings_change(collector_ctx *ctx, const collector_files *files)
{
    scounts c = {0};
    bool no_base = false;
    int candidates = (int)files->n;
    for (size_t i = 0; i < files->n; i++) {
        const sib_facts *t = files->items[i].facts;
        c.files += t->c.files;
        c.changed_funcs += t->c.changed_funcs;
        c.variants += t->c.variants;
        c.found += t->c.found;
        c.no_head += t->c.no_head;
        if (t->c.parse_errors && c.parse_errors++ == 0)
            c.first_error = xasprintf("%s:%d", files->items[i].f->path, t->error_line);
        no_base |= t->no_base;
    }
    strbuf nb;
    sb_init(&nb);
    if (no_base)
        sb_adds(&nb, " (base text unavailable: changed functions placed by head position)");
    if (c.parse_errors)
        sb_addf(&nb, "; syntax errors in %d head file(s), first at %s (functions read where "
                     "the parser recovered)", c.parse_errors, c.first_error);
    const char *note = nb.buf ? nb.buf : "";
    if (candidates > 0 && c.no_head == candidates)
        collector_status(ctx, "skipped: the head text of the %d changed file(s) is not available "
                              "(with --diff, give --root DIR)", candidates);
    else if (candidates == 0)
        collector_status(ctx, "skipped: no changed Python or C++ file with deleted lines (new files, "
                              "tests and benchmarks are not checked)");
    else if (c.found == 0)
        collector_status(ctx, "nothing found: no variant of the %d changed function(s) still carries "
                              "a changed line (%d file(s) with two or more functions)%s",
                         c.changed_funcs, c.files, note);
    else
        collector_status(ctx, "found %d line(s) in %d variant(s) still carrying what %d changed "
                              "function(s) rewrote%s",
                         c.found, c.variants, c.changed_funcs, note);
    sb_free(&nb);
    free(c.first_error);
}

const collector collector_siblings = {
    .name = "siblings",
    .rules = "A1",
    .langs = COLLECT_PYTHON | COLLECT_CPP,
    .reads = reads,
    .file_stage = siblings_stage,
    .change_stage = siblings_change,
};
