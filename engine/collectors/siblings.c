/* The sibling-drift collector (rule A1): when the change rewrites or removes a statement, a
 * parameter or a keyword argument of a function, look for variants of that function in the
 * same file (names sharing a run of at least 8 characters: `_decode` / `_prefill_opt`, `_2d` /
 * `_3d`; the kernels nested in two builders of one family) that still carry it, and report
 * each (changed function, variant) pair once, on the variant's first carried line, with every
 * carried line and every place the change rewrote as related information. Python and C++/HIP
 * alike (aiter#3841, the motivating case, was a HIP kernel).
 *
 * Units, not lines, are compared (siblings_units.c), by their code without comments, prose in
 * strings or white space, with the words that tell the two names apart folded out of
 * identifiers (`stage1_out` matches `stage2_out`; siblings_names.c), and only where the
 * variant's unit sits among the same code (a neighbour matches). What is not drift, because
 * the change itself explains the divergence or there is no fix to copy:
 * - a unit the file still holds as often as before (moved within the function or into a
 *   helper the change added), or one a function the change now calls still runs (a method
 *   routed through a registered op whose wrapper calls the method that kept the line);
 * - a unit only spelled another way (siblings_spelling.c: a float literal's suffix, FlyDSL's
 *   `T.index` for `ir.IndexType.get()`, trailing zero defaults written out, a formatter's
 *   trailing comma, a call joined onto one line) or written with
 *   parameters the change renamed in place (`x` to `x_fp4`), and a launch whose kernel the
 *   function now picks into a local;
 * - a variable marked unused, an assignment nobody read or a parameter nobody used deleted, a
 *   condition that survives its rewrite (siblings_edits.c);
 * - a rewrite that uses names only the changed function's scope has: its parameters and its
 *   builder's that the variant lacks, helpers defined beside it, locals derived from them (a
 *   parameter only one variant's API has), a name the file defines for the changed variant
 *   with no counterpart for the other (`..._SPLITK_KID_MAX`, no `..._PERSISTENT_...`), or an
 *   argument passed to a callee that gained the parameter when the variant's callee has none;
 * - a variant the change also edits (looked at, kept on purpose; an import alias applied to
 *   what it launches is no look), or one the changed function now delegates to (its
 *   implementation, not its sibling);
 * - a function rewritten rather than fixed (renamed parameters are no rewrite, nor one fix
 *   applied at many sites of a long kernel), or one whose family (builder and kernel) was;
 * - docstrings, comments, message text, fragments of a statement (never units);
 * - a function the change deleted outright;
 * - a variant nothing in the head tree names (a kernel launched nowhere: dead code;
 *   siblings_refs.c).
 * The changed function of a deleted line is read from the base, so a line deleted at a
 * function's end is not blamed on the next one. Only the changed file is read, and only its
 * touched functions and their variants are cut into units, so the cost follows the change,
 * not the tree. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collector.h"
#include "engine/py_outline.h"
#include "engine/collectors/guard_kind.h"
#include "engine/collectors/siblings.h"
#include "engine/collectors/siblings_memo.h"
#include "engine/diff_lines.h"
#include "engine/syntax.h"

#define RELATED_MAX 24 /* carried lines listed per finding */
#define EXHIBIT_MAX 6  /* carried lines shown before / after / variant per finding */

/* True when a path is excluded as the reference does (tests, benchmarks, vendored code). */
static bool excluded_path(const char *p)
{
    const char *base = strrchr(p, '/');
    base = base ? base + 1 : p;
    return str_starts(p, "op_tests/") || str_starts(p, "tests/") || str_contains(p, "bench") ||
           str_contains(p, "3rdparty") || str_starts(base, "test_");
}

/* Bytes of a line compared when matching lines by their longest shared run (engine/diff_lines.h
 * reads the change's lines for this collector as for the others). */
#define SIB_RUN_CAP 120

/* --- pairs ------------------------------------------------------------------------------- */


/* A unit of a variant that carries what a changed function lost. */
typedef struct carried {
    const sib_unit *u;  /* in the variant (head) */
    const syn_func *fn; /* the changed function */
    int at;             /* the head line where it changed there */
    size_t di;          /* diff index of the deleted line there (for the evidence) */
    const char *shown;  /* how the message quotes it (borrowed from u) */
    const char *gone;   /* a name it uses that the change stopped importing, or NULL (borrowed) */
} carried;

/* What one variant carries, from one changed function or several (`_2d` and `_4d` fixed the
 * same way, `_3d` not: one finding on `_3d`). */
typedef struct pair {
    const syn_func *v;
    carried *cs;
    size_t ncs, cap;
} pair;

typedef struct pairs {
    pair *items;
    size_t n, cap;
} pairs;

typedef struct scounts {
    int files, changed_funcs, pairs, lines;
    int rewritten;     /* changed functions rewritten, not fixed (see sib_rewritten()) */
    int unused;        /* variants not reported: nothing in the head tree names them */
    int parse_errors;  /* head files with syntax errors */
    int no_head;       /* files whose head text could not be had */
    bool no_base;      /* a base rebuilt from the head failed */
    char *first_error; /* "path:line" of the first, or NULL */
} scounts;

/* True when p already lists a unit on line. */
static bool pair_has_line(const pair *p, int line)
{
    for (size_t i = 0; i < p->ncs; i++)
        if (p->cs[i].u->line == line)
            return true;
    return false;
}

/* Drop the statements of cs that hold another carried unit (a statement carried only because
 * an argument inside it is: the argument is the line to show). */
static void drop_implied(carried *cs, size_t *ncs)
{
    for (size_t i = 0; i < *ncs; i++) {
        bool inner = false;
        for (size_t j = 0; j < *ncs && !inner; j++)
            inner = j != i && cs[i].u->kind == SIB_STMT && cs[j].u->kind != SIB_STMT &&
                    cs[j].u->line >= cs[i].u->line && cs[j].u->end_line <= cs[i].u->end_line;
        if (inner) {
            memmove(&cs[i], &cs[i + 1], (*ncs - i - 1) * sizeof *cs);
            (*ncs)--;
            i--;
        }
    }
}

/* True when units a (folded with wa) and b (folded with wb) are the same code, or both
 * absent. */
static bool same_folded(const sib_unit *a, const sib_unit *b, const char *wa, const char *wb)
{
    if (!a || !b)
        return !a && !b;
    char *fa = sib_fold(a->key, wa), *fb = sib_fold(b->key, wb);
    bool same = strcmp(fa, fb) == 0;
    free(fa);
    free(fb);
    return same;
}

/* True when units a (folded with wa) and b (folded with wb) are both assignments that bind the
 * same names, whatever values they assign (`config = {...}` in both). */
static bool same_binding(const sib_unit *a, const sib_unit *b, const char *wa, const char *wb, syn_lang lang)
{
    if (!a || !b)
        return false;
    char **na = sib_bound_names(a, lang), **nb = sib_bound_names(b, lang);
    bool same = na && nb;
    size_t i = 0;
    for (; same && na[i] && nb[i]; i++) {
        char *fa = sib_fold(na[i], wa), *fb = sib_fold(nb[i], wb);
        same = strcmp(fa, fb) == 0;
        free(fa);
        free(fb);
    }
    same = same && !na[i] && !nb[i];
    sib_names_free(na);
    sib_names_free(nb);
    return same;
}

/* True when the variant's unit sits among the same code as the lost one did: its previous or
 * its next neighbour matches, or, for a check (an assert, a TORCH_CHECK), both neighbours bind
 * the same names as the lost one's did (copied code whose values the variant chose
 * differently: `config = {...}` then the assert then `grid = ...`). Copied code keeps its
 * surroundings; a generic line that only happens to recur (`if quant_type ==
 * QuantType.per_1x32:` in another dispatch) does not. A check means the same whatever values
 * feed it; another statement between re-valued neighbours (an index computed from other
 * coordinates) may not. */
static bool anchored(const sib_removed *r, const sib_unit *vprev, const sib_unit *vnext, const char *wa,
                     const char *wb, syn_lang lang)
{
    return same_folded(r->prev, vprev, wa, wb) || same_folded(r->next, vnext, wa, wb) ||
           (guards_kind(r->u->code) == GK_CHECK && same_binding(r->prev, vprev, wa, wb, lang) &&
            same_binding(r->next, vnext, wa, wb, lang));
}

/* True when var is a fake (meta) implementation of an op, by its name (`..._fake_tensors`,
 * `..._meta`): it exists to mirror the real op's checks and shapes for torch.compile. */
static bool fake_impl(const syn_func *var)
{
    return sib_name_has_word(var->name, "fake") || sib_name_has_word(var->name, "meta");
}

/* The callee of the call an argument unit u of l is passed in: the name the first line of its
 * statement opens (`f` in `y += obj.f(`, `k` in `k[grid](`), as a new string; NULL when u is
 * no argument of l or the first line opens no call. */
static char *arg_callee(const sib_unit_list *l, const sib_unit *u)
{
    if (u < l->items || u >= l->items + l->n || u->kind != SIB_ARG)
        return NULL;
    const sib_unit *end = l->items + l->n;
    for (const sib_unit *st = u + 1; st < end; st++) {
        if (st->kind != SIB_STMT || st->line > u->line || st->end_line < u->end_line)
            continue;
        const sib_unit *hd = st + 1;
        if (hd >= end || hd->kind != SIB_HEAD || hd->line != st->line)
            return NULL;
        const char *c = hd->code, *p = strrchr(c, '(');
        if (!p)
            return NULL;
        while (p > c && p[-1] == ' ')
            p--;
        if (p > c && p[-1] == ']') { /* a launch grid: `k[grid](` */
            int depth = 0;
            do {
                p--;
                depth += *p == ']';
                depth -= *p == '[';
            } while (p > c && depth > 0);
        }
        const char *e = p;
        while (p > c && str_ident_char(p[-1]))
            p--;
        return e > p ? xstrndup(p, (size_t)(e - p)) : NULL;
    }
    return NULL;
}

/* False when x (a unit of variant units vu) and u (a unit fn lost, of base units bu) are
 * arguments passed in calls to different functions, their naming words (wa for u's side, wb
 * for x's) folded out: the same argument text means nothing outside its call. */
static bool same_call(const sib_unit_list *bu, const sib_unit *u, const sib_unit_list *vu, const sib_unit *x,
                      const char *wa, const char *wb)
{
    char *cu = arg_callee(bu, u), *cx = arg_callee(vu, x);
    bool same = true;
    if (cu && cx) {
        char *fu = sib_fold(cu, wa), *fx = sib_fold(cx, wb);
        same = strcmp(fu, fx) == 0;
        free(fu);
        free(fx);
    }
    free(cu);
    free(cx);
    return same;
}

/* What variant v carries of the units fn lost, as a pair (its list owned by the caller). */
static pair carried_by(sib_change *fc, sib_side *b, sib_side *h, const syn_func *fn, const syn_func *v,
                       const sib_removed *rm, size_t nrm)
{
    char *wa, *wb;
    sib_naming_words(fn, v, &wa, &wb);
    char **folded = xcalloc(nrm ? nrm : 1, sizeof *folded);
    for (size_t i = 0; i < nrm; i++)
        folded[i] = sib_fold(rm[i].u->key, wa);
    const sib_unit_list *vu = sib_units_of(h, v);
    /* units not asked of v: fn's rewrite reads a value only fn computes, follows a local fn
     * made conditional that v binds itself (v reads its own value there), or lays a value out for
     * callees v does not call */
    bool *not_asked = xcalloc(nrm ? nrm : 1, sizeof *not_asked);
    for (size_t k = 0; k < nrm; k++)
        not_asked[k] = (rm[k].own_value && !fake_impl(v)) ||
                       (rm[k].follows && sib_list_binds(vu, rm[k].follows, h->d->lang, NULL)) ||
                       (rm[k].reshaped && sib_feeds_other_callees(h->d, fn, v, rm[k].u));
    const syn_func *bf = sib_counterpart(h->fl, fn, b->fl);
    const sib_unit_list *bu = bf ? sib_units_of(b, bf) : NULL;
    size_t nown;
    char **own = sib_own_names(fc, b, h, fn, v, &nown);
    int *prev = xcalloc(vu->n ? vu->n : 1, sizeof *prev), *next = xcalloc(vu->n ? vu->n : 1, sizeof *next);
    sib_neighbours(vu, prev, next);
    pair np = {.v = v};
    for (size_t i = 0; i < vu->n; i++) {
        const sib_unit *x = &vu->items[i];
        if (sib_any_marked(fc->added, fc->hn, x->line, x->end_line) || pair_has_line(&np, x->line))
            continue;
        char *fx = sib_fold(x->key, wb);
        for (size_t k = 0; k < nrm; k++) {
            if (not_asked[k])
                continue;
            if (strcmp(fx, folded[k]) == 0 &&
                anchored(&rm[k], prev[i] < 0 ? NULL : &vu->items[prev[i]],
                         next[i] < 0 ? NULL : &vu->items[next[i]], wa, wb, h->d->lang) &&
                !sib_explained(&rm[k], own, nown, h->d->lang) && !sib_callee_extended(b, h, &rm[k], x) && !sib_named_for_fn(&rm[k], h, wa, wb) &&
                (!bu || same_call(bu, rm[k].u, vu, x, wa, wb))) {
                *ARRAY_PUSH(np.cs, np.ncs, np.cap) = (carried){.u = x, .fn = fn, .at = rm[k].at, .di = rm[k].di, .shown = x->shown};
                break;
            }
        }
        free(fx);
    }
    free(prev);
    free(next);
    for (size_t i = 0; i < nown; i++)
        free(own[i]);
    free(own);
    drop_implied(np.cs, &np.ncs);
    for (size_t i = 0; i < nrm; i++)
        free(folded[i]);
    free(folded);
    free(not_asked);
    free(wa);
    free(wb);
    return np;
}

/* Add np to ps, merged into the pair of an earlier changed function when it names the same
 * variant lines (np's list is taken over or freed). */
static void add_pair(pairs *ps, pair np)
{
    const syn_func *v = np.v;
    pair *into = NULL;
    for (size_t i = 0; i < ps->n && !into && np.ncs; i++)
        for (size_t k = 0; k < np.ncs && !into; k++)
            if (ps->items[i].v == v && pair_has_line(&ps->items[i], np.cs[k].u->line))
                into = &ps->items[i];
    if (into) {
        for (size_t k = 0; k < np.ncs; k++)
            if (!pair_has_line(into, np.cs[k].u->line))
                *ARRAY_PUSH(into->cs, into->ncs, into->cap) = np.cs[k];
        free(np.cs);
    } else if (np.ncs) {
        *ARRAY_PUSH(ps->items, ps->n, ps->cap) = np;
    } else {
        free(np.cs);
    }
}

/* The name to show for fn beside other: its plain name, or its qualified one when both plain
 * names are the same (the `kernel` nested in each of two builders). */
static const char *shown_name(const syn_func *fn, const syn_func *other)
{
    return strcmp(fn->name, other->name) == 0 ? fn->qualname : fn->name;
}

/* One finding for a pair: on the variant's first carried line, every carried line and every
 * place the change rewrote as related information, and the first carried lines as evidence
 * (before, after, the variant's line; head is f's head text). */
static void emit_pair(collector_ctx *ctx, const change_file *f, const char *head, size_t hlen, pair *p)
{
    const char *path = f->path;
    carried *cs = p->cs;
    size_t ncs = p->ncs;
    for (size_t i = 1; i < ncs; i++)
        for (size_t j = i; j > 0 && cs[j - 1].u->line > cs[j].u->line; j--) {
            carried t = cs[j];
            cs[j] = cs[j - 1];
            cs[j - 1] = t;
        }
    strbuf fns;
    sb_init(&fns);
    size_t nfns = 0;
    for (size_t i = 0; i < ncs; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = cs[j].fn == cs[i].fn;
        if (!seen)
            sb_addf(&fns, "%s`%s`", nfns++ ? " and " : "", shown_name(cs[i].fn, p->v));
    }
    char *more = ncs > 1 ? xasprintf(" (and %zu more)", ncs - 1) : xstrdup("");
    char *gone = cs[0].gone ? xasprintf(", which names `%s`, no longer imported", cs[0].gone) : xstrdup("");
    finding *fi = findings_add(ctx->out, "A1", SEV_INFORMATION, path, cs[0].u->line,
                               "`%s` still has %s this change rewrote in %s: `%s`%s%s — fix %s here "
                               "too or say why %s",
                               shown_name(p->v, cs[0].fn), ncs == 1 ? "a line" : "lines", fns.buf,
                               cs[0].shown, gone, more,
                               ncs == 1 ? "it" : "them", ncs == 1 ? "it differs" : "they differ");
    free(gone);
    free(more);
    sb_free(&fns);
    for (size_t i = 0; i < ncs && i < RELATED_MAX; i++)
        finding_add_related(fi, path, cs[i].u->line, "still has `%s`", cs[i].shown);
    if (ncs > RELATED_MAX)
        finding_add_related(fi, path, cs[RELATED_MAX].u->line, "and %zu more line(s)", ncs - RELATED_MAX);
    for (size_t i = 0; i < ncs; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = cs[j].at == cs[i].at;
        if (!seen)
            finding_add_related(fi, path, cs[i].at, "rewritten here in `%s`", shown_name(cs[i].fn, p->v));
    }
    for (size_t i = 0; i < ncs && i < EXHIBIT_MAX; i++)
        sib_add_exhibit(fi, f, cs[i].di, cs[i].at, shown_name(cs[i].fn, p->v), shown_name(p->v, cs[i].fn), head,
                        hlen, cs[i].u->line);
}

/* The shortest run rewritten_as accepts. */
#define REWRITE_RUN_MIN 12

/* The REWRITE_RUN_MIN-byte pieces of the first SIB_RUN_CAP bytes of a key, hashed into a
 * small open-addressing set: a key that holds none of them shares no run that long with it,
 * and the quadratic run search can be skipped (a collision only costs that search). */
typedef struct piece_set {
    uint64_t slot[256]; /* 0: empty */
} piece_set;

static uint64_t piece_hash(const char *p)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < REWRITE_RUN_MIN; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
    return h | 1;
}

static void pieces_of(const char *key, piece_set *ps)
{
    memset(ps, 0, sizeof *ps);
    size_t n = strlen(key);
    n = n > SIB_RUN_CAP ? SIB_RUN_CAP : n;
    for (size_t i = 0; i + REWRITE_RUN_MIN <= n; i++) {
        uint64_t h = piece_hash(key + i);
        size_t k = h & 255;
        while (ps->slot[k] && ps->slot[k] != h)
            k = (k + 1) & 255;
        ps->slot[k] = h;
    }
}

/* True when the first SIB_RUN_CAP bytes of key hold a piece of ps. */
static bool shares_piece(const char *key, const piece_set *ps)
{
    size_t n = strlen(key);
    n = n > SIB_RUN_CAP ? SIB_RUN_CAP : n;
    for (size_t i = 0; i + REWRITE_RUN_MIN <= n; i++) {
        uint64_t h = piece_hash(key + i);
        for (size_t k = h & 255; ps->slot[k]; k = (k + 1) & 255)
            if (ps->slot[k] == h)
                return true;
    }
    return false;
}

/* The edited unit of the head function of u's kind most like u (the longest run of code they
 * share, at least 12 characters and 40% of u's): what u was rewritten as, wherever git put
 * it. NULL when none is. */
static const sib_unit *rewritten_as(const sib_unit *u, const sib_unit_list *hu, const bool *edited)
{
    const sib_unit *best = NULL;
    size_t best_run = 0, ul = strlen(u->key),
           need = ul * 2 / 5 > REWRITE_RUN_MIN ? ul * 2 / 5 : REWRITE_RUN_MIN;
    piece_set ps;
    pieces_of(u->key, &ps);
    for (size_t i = 0; i < hu->n; i++) {
        if (!edited[i] || hu->items[i].kind != u->kind || !shares_piece(hu->items[i].key, &ps))
            continue;
        size_t run = diff_lines_text_run(u->key, ul, hu->items[i].key, strlen(hu->items[i].key),
                                         SIB_RUN_CAP);
        if (run >= need && run > best_run) {
            best = &hu->items[i];
            best_run = run;
        }
    }
    return best;
}

/* sib_piece_moved for u, asked of the whole statement when u is only its first line (the
 * piece taken out may sit on the lines after it: `.to(` then `tl.float32)`). */
static bool piece_moved(sib_change *fc, sib_side *b, sib_side *h, const syn_func *hf, const sib_unit_list *bu,
                        const sib_unit_list *hu, const bool *edited, const sib_unit *u, const sib_unit *twin)
{
    if (u->kind != SIB_HEAD)
        return sib_piece_moved(fc, b, h, hf, u, twin);
    for (size_t i = 0; i < bu->n; i++)
        if (bu->items[i].kind == SIB_STMT && bu->items[i].line == u->line)
            return sib_piece_moved(fc, b, h, hf, &bu->items[i], rewritten_as(&bu->items[i], hu, edited));
    return false;
}

/* True when one of the n functions fns of side h has a unit of this key. */
static bool in_callees(sib_side *h, const syn_func **fns, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (sib_key_count(h, fns[i], key) > 0)
            return true;
    return false;
}

/* True when key a is key b but for one run of tokens of a that b writes as a single name,
 * a parameter of g (side h): the value a computed there is now passed in. The run of a holds
 * no `,` or `;` (one expression, not a list). */
static bool value_now_a_param(const char *a, const char *b, sib_side *h, const syn_func *g)
{
    size_t na, nb;
    sib_tok *ta = sib_tokens(a, &na), *tb = sib_tokens(b, &nb);
    bool yes = false;
    size_t pre = 0, suf = 0;
    while (pre < na && pre < nb && ta[pre].n == tb[pre].n && memcmp(ta[pre].s, tb[pre].s, ta[pre].n) == 0)
        pre++;
    while (suf < na - pre && suf < nb - pre && ta[na - 1 - suf].n == tb[nb - 1 - suf].n &&
           memcmp(ta[na - 1 - suf].s, tb[nb - 1 - suf].s, ta[na - 1 - suf].n) == 0)
        suf++;
    if (nb - pre - suf == 1 && na > pre + suf && tb[pre].ident) {
        char *name = xstrndup(tb[pre].s, tb[pre].n);
        yes = sib_has_param(h, g, name);
        free(name);
        for (size_t k = pre; k < na - suf && yes; k++)
            yes = !(ta[k].n == 1 && (ta[k].s[0] == ',' || ta[k].s[0] == ';'));
    }
    free(ta);
    free(tb);
    return yes;
}

/* True when one of the n functions fns of side h (what the changed function now calls) holds u
 * with one value turned into a parameter of that function: a kernel body moved into a device
 * function that now takes its block index (`num_rows * blockIdx.x` there as
 * `num_rows * bf_block_idx`). The code still runs, through the callee, with the value the
 * caller passes. */
static bool in_callees_as_param(sib_side *h, const syn_func **fns, size_t n, const sib_unit *u)
{
    for (size_t i = 0; i < n; i++) {
        const sib_unit_list *gu = sib_units_of(h, fns[i]);
        for (size_t k = 0; k < gu->n; k++)
            if (gu->items[k].kind == u->kind && value_now_a_param(u->key, gu->items[k].key, h, fns[i]))
                return true;
    }
    return false;
}

/* True when call g passes every keyword argument of call c with the same value. */
static bool same_keywords(const syn_call *c, const syn_call *g)
{
    bool all = true;
    for (size_t a = 0; a < c->nargs && all; a++) {
        if (!c->args[a].keyword)
            continue;
        const syn_arg *ga = syntax_call_arg(g, -1, c->args[a].keyword);
        char *ka = sib_text_key(c->args[a].text, strlen(c->args[a].text)),
             *kg = ga ? sib_text_key(ga->text, strlen(ga->text)) : NULL;
        all = kg && strcmp(ka, kg) == 0;
        free(ka);
        free(kg);
    }
    return all;
}

/* True when one of the n functions fns of side h that the change added to the file (a helper
 * with no counterpart in base side b) makes the call u (a Python statement of b's doc) made on
 * its first line, with keyword arguments: the same callee with the same keyword values. The
 * computation moved into the new helper (`partial(get_quant(t), transpose_scale=True)` cached
 * by `_get_quant_func_transpose(t)`), whatever the helper now passes positionally. */
static bool in_new_callee_as_call(sib_side *b, sib_side *h, const syn_func **fns, size_t n, const sib_unit *u)
{
    if (h->d->lang != SYN_PYTHON || u->kind != SIB_STMT)
        return false;
    bool fresh = false;
    for (size_t i = 0; i < n && !fresh; i++)
        fresh = sib_counterpart(h->fl, fns[i], b->fl) == NULL;
    if (!fresh)
        return false;
    syn_call_list lost = {0};
    syntax_calls(b->d, u->line, u->line, &lost);
    const syn_call *c = lost.n ? &lost.items[0] : NULL; /* the outermost: the first to start */
    bool moved = false;
    if (c && c->nargs > c->npositional)
        for (size_t i = 0; i < n && !moved; i++) {
            if (sib_counterpart(h->fl, fns[i], b->fl))
                continue;
            syn_call_list there = {0};
            syntax_calls(h->d, fns[i]->start_line, fns[i]->end_line, &there);
            for (size_t k = 0; k < there.n && !moved; k++)
                moved = strcmp(there.items[k].callee, c->callee) == 0 && same_keywords(c, &there.items[k]);
            syn_call_list_free(&there);
        }
    syn_call_list_free(&lost);
    return moved;
}

/* True when an edited unit of hu (edited[i]) has this key: the code written again. */
static bool written_in(const char *key, const sib_unit_list *hu, const bool *edited)
{
    for (size_t i = 0; i < hu->n; i++)
        if (edited[i] && strcmp(hu->items[i].key, key) == 0)
            return true;
    return false;
}

/* Which units of l (a head function's) the change edited: a new array of l->n flags. */
static bool *edited_flags(const sib_change *fc, const sib_unit_list *l)
{
    bool *t = xcalloc(l->n ? l->n : 1, sizeof *t);
    for (size_t k = 0; k < l->n; k++)
        t[k] = sib_any_marked(fc->added, fc->hn, l->items[k].line, l->items[k].end_line);
    return t;
}

/* The head units of hf (hu, edited: those the change edited) and of every function
 * enclosing it, each with its edited units marked: what a kernel nested in a builder can read
 * (scope[0] is hf's; free with edited_scope_free). */
static sib_edited_units *edited_scope(sib_change *fc, sib_side *h, const syn_func *hf, const sib_unit_list *hu,
                                      const bool *edited, size_t *n)
{
    sib_edited_units *sc = NULL;
    size_t cap = 0;
    *n = 0;
    *ARRAY_PUSH(sc, *n, cap) = (sib_edited_units){hu, edited};
    for (size_t i = 0; i < h->fl->n; i++) {
        const syn_func *g = &h->fl->items[i];
        if (g == hf || !sib_within(g, hf))
            continue;
        const sib_unit_list *gu = sib_units_of(h, g);
        *ARRAY_PUSH(sc, *n, cap) = (sib_edited_units){gu, edited_flags(fc, gu)};
    }
    return sc;
}

static void edited_scope_free(sib_edited_units *sc, size_t n)
{
    for (size_t i = 1; i < n; i++)
        free((bool *)sc[i].touched);
    free(sc);
}

/* The units fn (base bf, head hf) lost: counted units holding a deleted line whose key the
 * head function has fewer of, and the touched functions of the file too (not moved). */
static sib_removed *lost_units(sib_change *fc, sib_side *b, sib_side *h, const syn_func *bf, const syn_func *hf, size_t *n,
                               int *renamed_lines)
{
    sib_removed *rm = NULL;
    size_t cap = 0;
    *n = 0;
    const sib_unit_list *bu = sib_units_of(b, bf), *hu = sib_units_of(h, hf);
    int *prev = xcalloc(bu->n ? bu->n : 1, sizeof *prev), *next = xcalloc(bu->n ? bu->n : 1, sizeof *next);
    sib_neighbours(bu, prev, next);
    bool *edited = edited_flags(fc, hu);
    size_t nreach;
    const syn_func **reach = sib_reached(fc, h, hf, &nreach);
    bool *renamed = xcalloc((size_t)fc->bn + 2, sizeof *renamed);
    sib_locals *bl = NULL, *hl = NULL; /* built for the first unit that needs them */
    sib_edited_units *scope = NULL;    /* likewise */
    size_t nscope = 0;
    for (size_t i = 0; i < bu->n; i++) {
        const sib_unit *u = &bu->items[i];
        if (!u->counts || !sib_any_marked(fc->deleted, fc->bn, u->line, u->end_line))
            continue;
        if (sib_key_count(h, hf, u->key) >= sib_key_count(b, bf, u->key))
            continue;
        if (sib_touched_count(h, fc->touched_h, fc->nth, u->key) >= sib_touched_count(b, fc->touched_b, fc->ntb, u->key) ||
            sib_written_again(fc, b, h, u->key))
            continue; /* moved, not rewritten */
        if (sib_param_renamed(u, bu, hu, edited)) {
            for (int l = u->line; l <= u->end_line && l <= fc->bn; l++)
                renamed[l] = fc->deleted[l];
            continue; /* its parameters' new names, the same code */
        }
        if (sib_param_made_optional(u, hu))
            continue; /* an API relaxed for this function alone */
        if (!bl) {
            bl = sib_locals_of(bu, b->d->lang);
            hl = sib_locals_of(hu, h->d->lang);
        }
        if (sib_local_renamed(u, bl, hl, hu, edited))
            continue; /* the same value under a new name */
        if (sib_renamed(u, hu, edited) || sib_dead_store(b->d, bf, u) || sib_unused_param(b->d, bf, u) ||
            sib_respelled(u, hu, edited, b->d->lang) || sib_rewrapped(u, bu, hu) ||
            sib_kwarg_into_dict(u, fc->f, hf->start_line, hf->end_line, b->d->lang) ||
            sib_callee_selected(u, hu, edited, b->d->lang) ||
            sib_hoisted(u, hu, edited))
            continue;
        if (in_callees(h, reach, nreach, u->key) || in_callees_as_param(h, reach, nreach, u) ||
            in_new_callee_as_call(b, h, reach, nreach, u))
            continue; /* still run, through the function the change now calls */
        const sib_unit *twin = rewritten_as(u, hu, edited);
        size_t di = sib_first_deleted(fc->f, u->line, u->end_line);
        int first = 0, last = 0; /* the head lines added in u's place */
        sib_block_added(fc->f, di, &first, &last);
        if (sib_condition_kept(u, twin) || sib_own_choice(u, twin, hu, edited, first, last) ||
            sib_labelled_optimisation(fc->f, di) || sib_version_branch_retired(u, bu, hu) ||
            piece_moved(fc, b, h, hf, bu, hu, edited, u, twin))
            continue;
        bool dup = false;
        for (size_t k = 0; k < *n && !dup; k++)
            dup = strcmp(rm[k].u->key, u->key) == 0;
        if (dup)
            continue;
        sib_removed *r = ARRAY_PUSH(rm, *n, cap);
        r->u = u;
        r->prev = prev[i] < 0 ? NULL : &bu->items[prev[i]];
        r->next = next[i] < 0 ? NULL : &bu->items[next[i]];
        r->at = di < fc->f->nlines ? diff_lines_deleted_head(fc->f, di, fc->hn, SIB_RUN_CAP) : hf->name_line;
        if (r->at < hf->start_line || r->at > hf->end_line)
            r->at = r->at < hf->start_line ? hf->start_line : hf->end_line;
        r->repl = di < fc->f->nlines ? sib_replacement(fc->f, di) : xstrdup("");
        r->di = di;
        if (!scope)
            scope = edited_scope(fc, h, hf, hu, edited, &nscope);
        r->own_value = sib_reads_new_local(b->d, twin, bu, scope, nscope, first, last, h->d->lang);
        r->dropped_from_moved = !twin && r->prev && r->next && written_in(r->prev->key, hu, edited) &&
                                written_in(r->next->key, hu, edited);
        if (twin) {
            char *both = xasprintf("%s%s\n", r->repl, twin->code);
            free(r->repl);
            r->repl = both;
        }
        r->reshaped = sib_reshaped_binding(u, hu, edited, first, last, h->d->lang);
        /* a line deleted with nothing in its place followed nothing */
        r->follows = twin || !str_blank_n(r->repl, strlen(r->repl))
                         ? sib_follows_rebound(u, r->repl, twin ? twin->line : r->at, bu, hu, edited, h->d->lang)
                         : NULL;
    }
    sib_locals_free(bl);
    sib_locals_free(hl);
    if (scope)
        edited_scope_free(scope, nscope);
    *renamed_lines = 0;
    for (int l = 1; l <= fc->bn; l++)
        *renamed_lines += renamed[l];
    free(renamed);
    free(reach);
    free(edited);
    free(prev);
    free(next);
    return rm;
}

/* How many units of fn (side s) are compared (substantial enough to count). */
static size_t counted_units(sib_side *s, const syn_func *fn)
{
    const sib_unit_list *l = sib_units_of(s, fn);
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += l->items[i].counts;
    return n;
}

/* True when the change edited variant var (head side) other than by renaming, where it
 * only refers to them, module-level names the file renamed (an import given an alias). */
/* True when every changed line of var (head side) that holds code lies in its signature: on
 * its definition's first line or on one of its parameters. A changed line no unit covers (a
 * comment, a blank line, a closing bracket) says nothing either way. */
static bool signature_only(sib_change *fc, sib_side *h, const syn_func *var)
{
    const sib_unit_list *vu = sib_units_of(h, var);
    for (int l = var->start_line; l <= var->end_line && l <= fc->hn; l++) {
        if (!fc->changed[l] || l == var->name_line)
            continue;
        bool in_param = false, in_other = false;
        for (size_t i = 0; i < vu->n; i++) {
            const sib_unit *u = &vu->items[i];
            if (u->line > l || u->end_line < l)
                continue;
            if (u->kind == SIB_PARAM)
                in_param = true;
            else
                in_other = true;
        }
        if (in_other && !in_param)
            return false;
    }
    return true;
}

static bool looked_at(sib_change *fc, sib_side *b, sib_side *h, const syn_func *var)
{
    if (!sib_any_marked(fc->changed, fc->hn, var->start_line, var->end_line))
        return false;
    if (fake_impl(var) && signature_only(fc, h, var))
        return false; /* a fake op given the real op's new parameters: its checks not looked at */
    const syn_func *before = sib_counterpart(h->fl, var, b->fl);
    return !before || !sib_import_renamed_only(fc->added, fc->hn, fc->deleted, fc->bn, sib_units_of(b, before),
                                               sib_units_of(h, var), h->d->lang);
}

/* A touched function of the file, and what it lost (read only when it has a variant). */
typedef struct changed {
    const syn_func *bf, *hf; /* base and head (NULL: deleted outright or renamed) */
    bool lost_read;          /* rm, nrm and rewritten computed */
    sib_removed *rm;
    size_t nrm;
    bool rewritten;
} changed;

/* Read the units x lost, once. */
static void read_lost(sib_change *fc, sib_side *b, sib_side *h, changed *x)
{
    if (x->lost_read)
        return;
    x->lost_read = true;
    int renamed_lines;
    x->rm = lost_units(fc, b, h, x->bf, x->hf, &x->nrm, &renamed_lines);
    x->rewritten = x->nrm > 0 && sib_rewritten(fc, x->bf, x->nrm, counted_units(b, x->bf), renamed_lines);
}

/* True when head function var is a variant of fn the change did not look at (looked: what
 * looked_at said of each head function, 0 not asked yet, 1 yes, 2 no). */
static bool open_variant(sib_change *fc, sib_side *b, sib_side *h, const syn_func *fn, size_t v,
                         signed char *looked)
{
    const syn_func *var = &h->fl->items[v];
    if (!sib_is_variant(fn, var))
        return false;
    if (!looked[v])
        looked[v] = looked_at(fc, b, h, var) ? 1 : 2;
    return looked[v] == 2;
}

/* True when the change deleted a line of the signature (from `def` to the first line of its
 * body, which is the `def` line itself for a one-line stub) of one of the touched functions
 * (ch, fc->ntb of them) that still exists: where a parameter may have been retyped. */
static bool signature_line_deleted(const sib_change *fc, const changed *ch)
{
    for (size_t t = 0; t < fc->ntb; t++)
        if (ch[t].hf && sib_any_marked(fc->deleted, fc->bn, ch[t].bf->name_line, ch[t].bf->body_line))
            return true;
    return false;
}

/* Add to ps the parameters of variants still annotated with a name the change stopped
 * importing, where a changed function (ch, fc->ntb of them) retyped its parameter of the same
 * name away from it (siblings_unimported.c; names: the nn names the change stopped
 * importing, borrowed by the carries until they are reported). Every variant is asked, one the
 * change looked at too: the module does not import until they follow, whatever the author
 * meant to keep. */
static void unimported_carries(sib_change *fc, sib_side *b, sib_side *h, const changed *ch, char *const *names,
                               size_t nn, pairs *ps)
{
    for (size_t t = 0; t < fc->ntb && nn; t++) {
        if (!ch[t].hf)
            continue;
        const sib_unit_list *bu = sib_units_of(b, ch[t].bf), *hu = sib_units_of(h, ch[t].hf);
        for (size_t i = 0; i < bu->n; i++) {
            const sib_unit *p = &bu->items[i];
            const char *gone = p->name ? sib_annotation_names(p, names, nn) : NULL;
            if (!gone || !sib_any_marked(fc->deleted, fc->bn, p->line, p->end_line))
                continue;
            const sib_unit *now = sib_param_named(hu, p->name);
            if (!now || (now->ann && sib_has_word(now->ann, gone)))
                continue; /* the parameter went, or still names it */
            for (size_t v = 0; v < h->fl->n; v++) {
                const syn_func *var = &h->fl->items[v];
                if (!sib_is_variant(ch[t].hf, var))
                    continue;
                const sib_unit *x = sib_param_named(sib_units_of(h, var), p->name);
                if (!x || !x->ann || !x->ann_shown || !sib_has_word(x->ann, gone))
                    continue;
                pair np = {.v = var};
                *ARRAY_PUSH(np.cs, np.ncs, np.cap) =
                    (carried){.u = x, .fn = ch[t].hf, .at = now->line,
                              .di = sib_first_deleted(fc->f, p->line, p->end_line), .shown = x->ann_shown,
                              .gone = gone};
                add_pair(ps, np);
            }
        }
    }
}

/* Compare every touched function of the file with its variants (head: the file's head text,
 * for the evidence). What a function lost is read only when it has a variant to compare
 * with, or when a function of its family has one (its rewrite then covers the family). */
static void compare_file(collector_ctx *ctx, sib_change *fc, sib_side *b, sib_side *h, const char *head, size_t hlen,
                         scounts *c)
{
    changed *ch = xcalloc(fc->ntb ? fc->ntb : 1, sizeof *ch);
    signed char *looked = xcalloc(h->fl->n ? h->fl->n : 1, 1);
    for (size_t t = 0; t < fc->ntb; t++) {
        ch[t].bf = fc->touched_b[t];
        ch[t].hf = sib_counterpart(b->fl, ch[t].bf, h->fl);
    }
    pairs ps = {0};
    for (size_t t = 0; t < fc->ntb; t++) {
        if (!ch[t].hf)
            continue; /* deleted outright or renamed: no fix to copy */
        bool any = false;
        for (size_t v = 0; v < h->fl->n && !any; v++)
            any = open_variant(fc, b, h, ch[t].hf, v, looked);
        if (!any)
            continue;
        read_lost(fc, b, h, &ch[t]);
        if (ch[t].nrm == 0)
            continue;
        /* a function whose family (the outermost function holding it: a builder and its
         * kernel) was rewritten is part of that rewrite */
        const syn_func *top = sib_outermost(h, ch[t].hf);
        bool in_rewrite = false;
        for (size_t k = 0; k < fc->ntb && !in_rewrite; k++) {
            if (!ch[k].hf || !sib_within(top, ch[k].hf))
                continue;
            read_lost(fc, b, h, &ch[k]);
            in_rewrite = ch[k].rewritten;
        }
        if (in_rewrite) {
            c->rewritten++;
            continue;
        }
        c->changed_funcs++;
        for (size_t v = 0; v < h->fl->n; v++) {
            const syn_func *var = &h->fl->items[v];
            /* a variant the change also edits was looked at: what it keeps, it keeps on purpose;
             * one the changed function now delegates to is its implementation (asked last: it
             * reads every function of the file, and most variants carry nothing) */
            if (!open_variant(fc, b, h, ch[t].hf, v, looked))
                continue;
            pair np = carried_by(fc, b, h, ch[t].hf, var, ch[t].rm, ch[t].nrm);
            if (np.ncs && !sib_delegates_to(fc, h, ch[t].hf, var))
                add_pair(&ps, np);
            else
                free(np.cs);
        }
    }
    size_t nn = 0;
    char **gone = NULL;
    if (signature_line_deleted(fc, ch))
        gone = sib_unimported_names(b->d, h->d, fc->deleted, fc->bn, &nn);
    unimported_carries(fc, b, h, ch, gone, nn, &ps);
    for (size_t t = 0; t < fc->ntb; t++) {
        for (size_t i = 0; i < ch[t].nrm; i++) {
            free(ch[t].rm[i].repl);
            free(ch[t].rm[i].follows);
        }
        free(ch[t].rm);
    }
    free(ch);
    free(looked);
    for (size_t i = 0; i < ps.n; i++) {
        /* a variant nothing in the tree runs is dead code: asked last, of the few pairs found */
        if (sib_unused_variant(ctx->root, fc->f->path, h->d, ps.items[i].v)) {
            c->unused++;
        } else {
            emit_pair(ctx, fc->f, head, hlen, &ps.items[i]);
            c->pairs++;
            c->lines += (int)ps.items[i].ncs;
        }
        free(ps.items[i].cs);
    }
    free(ps.items);
    for (size_t i = 0; i < nn; i++)
        free(gone[i]);
    free(gone);
}

/* The units kept between reviews (the server's), made on first use; NULL in a batch review. */
static sib_memo *memo_of(collector_ctx *ctx)
{
    if (!ctx->state)
        return NULL;
    if (!*ctx->state)
        *ctx->state = sib_memo_new();
    return *ctx->state;
}

/* The lines (of a head of nlines lines) that make a function holding one touched: added lines
 * and the lines next to a deletion (mark, nlines + 3 entries); and the words deleted lines
 * spell (a function deleted whole may pair its name's other definition). */
static bool *touching_lines(const change_file *f, int nlines, strset *deleted_words)
{
    bool *mark = xcalloc((size_t)nlines + 3, sizeof *mark);
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        int lo = l->kind == '+' ? l->new_no : l->new_no - 1, hi = l->kind == '+' ? l->new_no : l->new_no + 1;
        for (int k = lo < 1 ? 1 : lo; l->kind != ' ' && k <= hi && k <= nlines; k++)
            mark[k] = true;
        for (size_t a = 0; l->kind == '-' && a < l->len;) {
            size_t b = a;
            while (b < l->len && str_ident_char(l->text[b]))
                b++;
            if (b > a) {
                char *w = xstrndup(l->text + a, b - a);
                strset_add(deleted_words, w);
                free(w);
            }
            a = b > a ? b : a + 1;
        }
    }
    return mark;
}

/* A head's functions as the touched test reads them: name and lines, from the parse or from
 * the outline. */
typedef struct fn_span {
    const char *name;
    int first, last;
} fn_span;

/* Which of the n functions the change can touch (a new array): those holding an added line or
 * a line next to a deletion, those whose name a deleted line spells (a function deleted whole
 * may pair its name's other definition), and every function named like one of them (a
 * counterpart is found by name). */
static bool *touched_functions(const change_file *f, int nlines, const fn_span *fns, size_t n)
{
    strset deleted_words = {0};
    bool *mark = touching_lines(f, nlines, &deleted_words);
    bool *touched = xcalloc(n + 1, sizeof *touched);
    for (size_t i = 0; i < n; i++)
        touched[i] = sib_any_marked(mark, nlines, fns[i].first, fns[i].last) ||
                     strset_has(&deleted_words, fns[i].name);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n && !touched[i]; k++)
            touched[i] = touched[k] && strcmp(fns[i].name, fns[k].name) == 0 && k != i;
    strset_free(&deleted_words);
    free(mark);
    return touched;
}

/* False when no function the change can touch (touched_functions) has a variant in the head
 * (hfl, nlines lines), so comparing needs no base. Asked before the base is parsed; never
 * false where compare_file could pair. */
static bool may_have_variants(const change_file *f, const syn_func_list *hfl, int nlines)
{
    fn_span *sp = xcalloc(hfl->n + 1, sizeof *sp);
    for (size_t i = 0; i < hfl->n; i++)
        sp[i] = (fn_span){hfl->items[i].name, hfl->items[i].start_line, hfl->items[i].end_line};
    bool *touched = touched_functions(f, nlines, sp, hfl->n);
    bool any = false;
    for (size_t i = 0; i < hfl->n && !any; i++)
        for (size_t v = 0; v < hfl->n && touched[i] && !any; v++)
            any = sib_is_variant(&hfl->items[i], &hfl->items[v]);
    free(touched);
    free(sp);
    return any;
}

/* may_have_variants from a Python head's outline, before it is parsed: its def blocks hold at
 * least the lines of the functions the parse finds, and sib_names_may_vary accepts every pair
 * sib_is_variant does, so this is false only where may_have_variants would be. */
static bool may_have_variants_unparsed(const change_file *f, const py_outline *o)
{
    fn_span *sp = xcalloc(o->ndefs + 1, sizeof *sp);
    for (size_t i = 0; i < o->ndefs; i++)
        sp[i] = (fn_span){o->defs[i].name, o->defs[i].first_line, o->defs[i].end_line};
    bool *touched = touched_functions(f, o->nlines, sp, o->ndefs);
    bool any = false;
    for (size_t i = 0; i < o->ndefs && !any; i++)
        for (size_t v = 0; v < o->ndefs && touched[i] && !any; v++)
            any = v != i && sib_names_may_vary(o->defs[i].name, o->defs[i].indent > 0, o->defs[v].name,
                                               o->defs[v].indent > 0);
    free(touched);
    free(sp);
    return any;
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

/* Review one file: parse head and base, then compare. */
static void siblings_file(collector_ctx *ctx, const change_file *f, scounts *c)
{
    char *cause = NULL;
    size_t hlen = 0, blen = 0;
    char *head = change_head_text(ctx->chg, f, &hlen, &cause);
    free(cause);
    cause = NULL;
    if (!head) {
        c->no_head++;
        return;
    }
    if (syntax_lang_of_path(f->path) == SYN_PYTHON) {
        /* a Python file whose touched functions cannot have a variant is not parsed */
        py_outline *own = NULL;
        const py_outline *o = collector_outline(ctx, f, head, hlen, &own);
        bool may = may_have_variants_unparsed(f, o);
        if (!may && o->ndefs >= 2)
            c->files++;
        py_outline_free(own);
        if (!may) {
            free(head);
            return;
        }
    }
    syntax_doc *hown = NULL, *bown = NULL;
    const syntax_doc *hd = collector_doc(ctx, f, false, head, hlen, &hown, &cause);
    free(cause);
    cause = NULL;
    syn_func_list hlocal = {0}, blocal = {0};
    const syn_func_list *hfl = hd ? functions_of(ctx, hd, &hlocal) : NULL;
    if (!hd || hfl->n < 2) {
        syn_func_list_free(&hlocal);
        syntax_free(hown);
        free(head);
        return;
    }
    if (hd->has_errors && c->parse_errors++ == 0) {
        int col;
        c->first_error = xasprintf("%s:%d", f->path, syntax_first_error(hd, &col, NULL));
    }
    c->files++;
    if (!may_have_variants(f, hfl, hd->nlines)) {
        syn_func_list_free(&hlocal);
        syntax_free(hown);
        free(head);
        return; /* nothing to compare: the base is not read */
    }
    char *base = collector_base_text(ctx, f, &blen, &cause);
    free(cause);
    cause = NULL;
    if (!base)
        base = change_base_from_head(f, head, hlen, &blen);
    const syntax_doc *bd = base ? collector_doc(ctx, f, true, base, blen, &bown, &cause) : NULL;
    free(cause);
    free(base);
    if (bd) {
        sib_side b, h;
        sib_side_init(&b, bd, functions_of(ctx, bd, &blocal));
        sib_side_init(&h, hd, hfl);
        b.memo = h.memo = memo_of(ctx);
        sib_change fc;
        sib_change_init(&fc, f, &b, &h);
        compare_file(ctx, &fc, &b, &h, head, hlen, c);
        sib_change_free(&fc);
        sib_side_free(&b);
        sib_side_free(&h);
    } else {
        c->no_base = true;
    }
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

/* The runner parses a Python file ahead only when its touched functions may have variants. */
static bool parse_ahead(collector_ctx *ctx, const change_file *f, const char *head, size_t hlen,
                        const py_outline *o)
{
    return !o || may_have_variants_unparsed(f, o);
}

/* What one file's stage counted, for the status line. */
typedef struct sib_facts {
    scounts c;                /* first_error is moved to error_line */
    int error_line;           /* the head's first syntax error (c.parse_errors set), else 0 */
    collector_coverage cov;   /* how much of its added C/C++ code the parser read */
} sib_facts;

/* The per-file stage: variants of the file's changed functions still carrying what it rewrote. */
static void siblings_stage(collector_file_ctx *fx)
{
    sib_facts *t = xcalloc(1, sizeof *t);
    siblings_file(fx->review, fx->f, &t->c);
    if (t->c.first_error) {
        const char *colon = strrchr(t->c.first_error, ':');
        t->error_line = colon ? atoi(colon + 1) : 0;
        free(t->c.first_error);
        t->c.first_error = NULL;
    }
    collector_file_coverage(fx->review, fx->f, false, &t->cov);
    fx->facts = t;
}

/* The change-wide stage: the status line from every file's counts. */
static void siblings_change(collector_ctx *ctx, const collector_files *files)
{
    if (ctx->state)
        sib_memo_trim(*ctx->state); /* what this review did not ask for goes */
    scounts c = {0};
    int candidates = (int)files->n;
    for (size_t i = 0; i < files->n; i++) {
        const sib_facts *t = files->items[i].facts;
        c.files += t->c.files;
        c.changed_funcs += t->c.changed_funcs;
        c.pairs += t->c.pairs;
        c.lines += t->c.lines;
        c.rewritten += t->c.rewritten;
        c.unused += t->c.unused;
        c.no_head += t->c.no_head;
        c.no_base |= t->c.no_base;
        if (t->c.parse_errors && c.parse_errors++ == 0)
            c.first_error = xasprintf("%s:%d", files->items[i].f->path, t->error_line);
    }
    strbuf nb;
    sb_init(&nb);
    if (c.no_base)
        sb_adds(&nb, " (the base text of some file was unavailable: not compared)");
    if (c.parse_errors)
        sb_addf(&nb, "; syntax errors in %d head file(s), first at %s (functions read where "
                     "the parser recovered)", c.parse_errors, c.first_error);
    if (c.rewritten)
        sb_addf(&nb, "; %d changed function(s) not compared: rewritten rather than fixed",
                c.rewritten);
    if (c.unused)
        sb_addf(&nb, "; %d variant(s) still carrying a rewritten unit not reported: defined but "
                     "named nowhere else in the tree (dead code)", c.unused);
    /* added C/C++ lines no parse read, or read only in another #if branch: said, not hidden */
    collector_coverage_from_facts(ctx, files, offsetof(sib_facts, cov), &nb);
    const char *note = nb.buf ? nb.buf : "";
    if (candidates > 0 && c.no_head == candidates)
        collector_status(ctx, "skipped: the head text of the %d changed file(s) is not available "
                              "(with --diff, give --root DIR)", candidates);
    else if (candidates == 0)
        collector_status(ctx, "skipped: no changed Python or C++ file with deleted lines (new files, "
                              "tests and benchmarks are not checked)");
    else if (c.pairs == 0)
        collector_status(ctx, "nothing found: no variant of the %d changed function(s) that have variants "
                              "still carries what the change rewrote (%d file(s) with two or more functions)%s",
                         c.changed_funcs, c.files, note);
    else
        collector_status(ctx, "found %d variant(s) still carrying %d unit(s) that %d changed "
                              "function(s) rewrote%s",
                         c.pairs, c.lines, c.changed_funcs, note);
    sb_free(&nb);
    free(c.first_error);
}

const collector collector_siblings = {
    .name = "siblings",
    .rules = "A1",
    .langs = COLLECT_PYTHON | COLLECT_CPP,
    .reads = reads,
    .judges_code = true,
    .file_stage = siblings_stage,
    .parse_ahead = parse_ahead,
    .change_stage = siblings_change,
    .free_state = sib_memo_free,
};
