/* What a change explains by itself, for the sibling-drift collector: names only the changed
 * function's scope has (its parameters and its builder's that the variant lacks, helpers
 * defined beside it, mode flags and switches the change gave it, locals derived from them,
 * names the file defines for it alone), a
 * variant it now delegates to, functions it now reaches through a call, a callee that gained
 * the parameter a rewrite passes, and a function rewritten rather than fixed. A variant kept
 * apart by any of these is not drift. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/siblings.h"
#include "engine/util.h"

#define REWRITE_UNITS 12     /* a function that lost this many units was rewritten, not fixed */
#define REWRITE_LINES 40     /* ... or had this many of its lines deleted */
#define REWRITE_MIN_LINES 15 /* ... or at least this many, and */
#define REWRITE_SHARE 30     /* ... this percentage of its lines */
#define SWEEP_SHARE 10       /* under this percentage of its units and of its lines lost, a long
                                function had one fix applied at many sites, not a rewrite */

static bool list_mentions(const sib_unit_list *l, const char *name);

/* Append a copy of name to names (*n of them, *cap allocated) unless it is there already;
 * false when it was. */
static bool add_name_once(char ***names, size_t *n, size_t *cap, const char *name)
{
    for (size_t j = 0; j < *n; j++)
        if (strcmp((*names)[j], name) == 0)
            return false;
    *ARRAY_PUSH(*names, *n, *cap) = xstrdup(name);
    return true;
}

/* True when code mentions one of names. */
bool sib_mentions_any(const char *code, char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (sib_has_word(code, names[i])) {
            return true;
        }
    return false;
}

/* True when the rewrite of r follows names only the changed function has: its replacement
 * uses one, or r bound one (a local the function now takes as a parameter instead). A line
 * dropped from code the change re-nested (r->dropped_from_moved) is not explained by the new
 * branch: `if xbf16: ... else: <the old path>` where the old path lost a line. */
bool sib_explained(const sib_removed *r, char *const *own, size_t nown, syn_lang lang)
{
    if (nown == 0 || r->dropped_from_moved)
        return false;
    if (sib_mentions_any(r->repl, own, nown))
        return true;
    char **bound = sib_bound_names(r->u, lang);
    bool hit = false;
    for (size_t i = 0; bound && bound[i] && !hit; i++)
        hit = sib_mentions_any(bound[i], own, nown);
    sib_names_free(bound);
    return hit;
}

/* True when fn or a function enclosing it (its closure: a kernel reads its builder's
 * parameters) has a parameter named name, once the variants' own words are folded out of
 * both (wn for name, wf for fn's side: `stage1_cfg` and `stage2_cfg` are one parameter). */
static bool scope_has_param(sib_side *h, const syn_func *fn, const char *name, const char *wn, const char *wf)
{
    char *want = sib_fold(name, wn);
    bool found = false;
    for (size_t i = 0; i < h->fl->n && !found; i++) {
        if (!sib_within(&h->fl->items[i], fn))
            continue;
        const sib_unit_list *l = sib_units_of(h, &h->fl->items[i]);
        for (size_t k = 0; k < l->n && !found; k++)
            if (l->items[k].kind == SIB_PARAM && l->items[k].name) {
                char *have = sib_fold(l->items[k].name, wf);
                found = strcmp(have, want) == 0;
                free(have);
            }
    }
    free(want);
    return found;
}

/* True when code starts with one of the keywords kw (NULL-terminated) as a whole word: `if x:`
 * and `if(x)`, not `iface = ...`. */
static bool starts_with_keyword(const char *code, const char *const *kw)
{
    for (int i = 0; kw[i]; i++)
        if (str_starts(code, kw[i]) && !str_ident_char(code[strlen(kw[i])]))
            return true;
    return false;
}

bool sib_controls_block(const char *code)
{
    static const char *const kw[] = {"if", "elif", "while", "for", "with", NULL};
    return starts_with_keyword(code, kw);
}

/* Add the names bound by the edited units of l that read one of names, or that sit in a block
 * an edited statement reading one of them controls (`if SHUFFLED: m = ... else: m = ...`). */
static void add_derived(sib_change *fc, sib_side *h, const sib_unit_list *l, char ***names, size_t *n, size_t *cap)
{
    for (size_t i = 0; i < l->n; i++) {
        const sib_unit *u = &l->items[i];
        if (!sib_any_marked(fc->added, fc->hn, u->line, u->end_line))
            continue;
        bool own = sib_mentions_any(u->code, *names, *n);
        for (size_t j = 0; j < l->n && !own; j++) {
            const sib_unit *c = &l->items[j];
            own = c->kind == SIB_STMT && c->line < u->line && u->line <= c->block_end &&
                  sib_controls_block(c->code) && sib_any_marked(fc->added, fc->hn, c->line, c->end_line) &&
                  sib_mentions_any(c->code, *names, *n);
        }
        if (!own)
            continue;
        char **bound = sib_bound_names(u, h->d->lang);
        for (size_t k = 0; bound && bound[k]; k++)
            add_name_once(names, n, cap, bound[k]);
        sib_names_free(bound);
    }
}

/* True when some function within scope (the outermost function holding a variant) is named
 * name. */
static bool scope_defines(const sib_side *h, const syn_func *scope, const char *name)
{
    for (size_t i = 0; i < h->fl->n; i++)
        if (sib_within(scope, &h->fl->items[i]) && strcmp(h->fl->items[i].name, name) == 0)
            return true;
    return false;
}

/* The name of the k-th parameter of f itself (0-based), or NULL. */
static const char *param_at(sib_side *h, const syn_func *f, size_t k)
{
    const sib_unit_list *l = sib_units_of(h, f);
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].kind == SIB_PARAM && l->items[i].name && k-- == 0)
            return l->items[i].name;
    return NULL;
}

/* True when a and b name one argument in two spellings: one is the other with a word added
 * (`x` / `x_fp4`, `w` / `w_preshuf`). Said of parameters at the same position only, where a
 * variant names its input after its own layout but takes the same tensor. */
static bool same_root(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na == nb || !na || !nb)
        return false;
    const char *s = na < nb ? a : b, *l = na < nb ? b : a;
    size_t ns = na < nb ? na : nb;
    return strncmp(s, l, ns) == 0 && l[ns] == '_' && l[ns + 1] != '\0';
}

/* True when fn's k-th parameter, name, is v's k-th parameter under a longer or shorter
 * spelling (see same_root). Asked only of a parameter the change did not add or rename: a
 * parameter renamed in one variant (`w1_scale` to `w1_scale_aiter`) is its own API. */
static bool same_position_param(sib_side *h, const syn_func *fn, const syn_func *v, const char *name)
{
    const sib_unit_list *l = sib_units_of(h, fn);
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (l->items[i].kind != SIB_PARAM || !l->items[i].name)
            continue;
        if (strcmp(l->items[i].name, name) == 0) {
            const char *other = param_at(h, v, k);
            return other && same_root(name, other);
        }
        k++;
    }
    return false;
}

/* True when fn's k-th parameter, name, was renamed by the change (b: the base side) from the
 * name v's k-th parameter has, or from one with the same root (`x` to `x_fp4` beside a
 * variant's `x`): the same argument under a new name. */
static bool renamed_from_shared(sib_side *b, sib_side *h, const syn_func *fn, const syn_func *v, const char *name)
{
    const syn_func *before = sib_counterpart(h->fl, fn, b->fl);
    if (!before)
        return false;
    const sib_unit_list *l = sib_units_of(h, fn);
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (l->items[i].kind != SIB_PARAM || !l->items[i].name)
            continue;
        if (strcmp(l->items[i].name, name) == 0) {
            const char *old = param_at(b, before, k), *other = param_at(h, v, k);
            return old && other && strcmp(old, name) != 0 && (strcmp(old, other) == 0 || same_root(old, other)) &&
                   !sib_has_param(h, fn, old);
        }
        k++;
    }
    return false;
}

/* True when some unit of l mentions name and shows the string literal whose contents are
 * lit[0, n), in either quote: the unit tests name against that value. */
static bool tests_value(const sib_unit_list *l, const char *name, const char *lit, size_t n)
{
    char *dq = xasprintf("\"%.*s\"", (int)n, lit), *sq = xasprintf("'%.*s'", (int)n, lit);
    bool found = false;
    for (size_t i = 0; i < l->n && !found; i++) {
        const char *shown = l->items[i].shown;
        found = shown && (strstr(shown, dq) || strstr(shown, sq)) && sib_has_word(l->items[i].code, name);
    }
    free(dq);
    free(sq);
    return found;
}

/* True when v or a function enclosing it (side s) tests name against the string literal
 * lit[0, n) (lit NULL: mentions name at all). */
static bool scope_knows(sib_side *s, const syn_func *v, const char *name, const char *lit, size_t n)
{
    for (size_t i = 0; i < s->fl->n; i++) {
        if (!sib_within(&s->fl->items[i], v))
            continue;
        const sib_unit_list *l = sib_units_of(s, &s->fl->items[i]);
        if (lit ? tests_value(l, name, lit, n) : list_mentions(l, name))
            return true;
    }
    return false;
}

/* The name code compares with a value (`out_s` in `flag = out_s == "fp8"` or
 * `out_s in ("fp8", "bf16")`), as a new string, or NULL. */
static char *compared_name(const char *code)
{
    static const char *const ops[] = {" == ", " != ", " not in ", " in ", NULL};
    for (int i = 0; ops[i]; i++) {
        const char *at = strstr(code, ops[i]);
        if (!at)
            continue;
        const char *e = at;
        while (e > code && str_ident_char(e[-1]))
            e--;
        if (e < at && !isdigit((unsigned char)*e))
            return xstrndup(e, (size_t)(at - e));
        return NULL;
    }
    return NULL;
}

/* True when code compares a name with a string literal that v's scope never tests that name
 * against (the contents of a literal the code view kept: a name-like one, `"fp8"`). */
static bool compares_with_unknown_value(const char *code, sib_side *h, const syn_func *v)
{
    char *subject = compared_name(code);
    if (!subject)
        return false;
    bool unknown = false;
    for (const char *p = code; *p && !unknown; p++) {
        if (*p != '"' && *p != '\'')
            continue;
        const char *end = strchr(p + 1, *p);
        if (!end)
            break;
        unknown = end > p + 1 && !scope_knows(h, v, subject, p + 1, (size_t)(end - p - 1));
        p = end;
    }
    free(subject);
    return unknown;
}

/* Add to names the attributes an added branch u of fn's scope tests (`grouped_gather_m` in
 * `if cfg.grouped_gather_m:`) that fn's base counterpart (units bu) and v's scope never
 * mention: a configuration switch only fn reads, so what the change put under it serves a mode
 * v does not have. */
static void add_branch_attributes(sib_side *h, const syn_func *v, const sib_unit *u, const sib_unit_list *bu,
                                  char ***names, size_t *n, size_t *cap)
{
    static const char *const branch[] = {"if", "elif", NULL};
    if (!starts_with_keyword(u->code, branch))
        return;
    for (const char *c = u->code; *c;) {
        bool attr = c > u->code && (c[-1] == '.' || (c[-1] == '>' && c - 1 > u->code && c[-2] == '-'));
        const char *e = c;
        while (str_ident_char(*e))
            e++;
        if (e == c) {
            c++;
            continue;
        }
        if (attr && !isdigit((unsigned char)*c)) {
            char *w = xstrndup(c, (size_t)(e - c));
            if (!list_mentions(bu, w) && !scope_knows(h, v, w, NULL, 0))
                add_name_once(names, n, cap, w);
            free(w);
        }
        c = e;
    }
}

/* Add to names the mode flags the change gave fn's scope (fn and the functions enclosing it:
 * a kernel reads its builder's locals) that v cannot know: the attributes its added branches
 * newly test (add_branch_attributes), and the names an added statement there newly binds (its
 * base counterpart and v's scope never mention them) from comparing a name with a string v's
 * scope never tests it against (`need_fp8_out = out_s == "fp8"` in the one builder that now
 * accepts fp8 output, where the other's `out_s` checks list no "fp8"). A rewrite that follows
 * such a flag serves a mode only fn has. */
static void add_new_modes(sib_change *fc, sib_side *b, sib_side *h, const syn_func *fn, const syn_func *v,
                          char ***names, size_t *n, size_t *cap)
{
    for (size_t f = 0; f < h->fl->n; f++) {
        const syn_func *g = &h->fl->items[f];
        const syn_func *before = sib_within(g, fn) ? sib_counterpart(h->fl, g, b->fl) : NULL;
        if (!before)
            continue;
        const sib_unit_list *gu = sib_units_of(h, g), *bu = sib_units_of(b, before);
        for (size_t i = 0; i < gu->n; i++) {
            const sib_unit *u = &gu->items[i];
            if (u->kind != SIB_STMT || !sib_any_marked(fc->added, fc->hn, u->line, u->end_line))
                continue;
            add_branch_attributes(h, v, u, bu, names, n, cap);
            if (!compares_with_unknown_value(u->code, h, v))
                continue;
            char **bound = sib_bound_names(u, h->d->lang);
            for (size_t k = 0; bound && bound[k]; k++)
                if (!list_mentions(bu, bound[k]) && !scope_knows(h, v, bound[k], NULL, 0))
                    add_name_once(names, n, cap, bound[k]);
            sib_names_free(bound);
        }
    }
}

/* The names only fn (head side) has, against variant v: the parameters of fn and of the
 * functions enclosing it that v and its enclosing functions lack, the helpers defined beside
 * it that v's family does not define, the mode flags the change gave fn (add_new_modes), and
 * the variables their edited units (re)bind from them, twice over (`n = f(p)`, `m = n - 1`, and
 * `g += p * T` for a pointer re-based on fn's own layout). A rewrite that uses one of them
 * follows fn's own API, which the variant cannot copy (a parameter only one variant has). New
 * strings in an array of *n (free each, then the array). */
char **sib_own_names(sib_change *fc, sib_side *b, sib_side *h, const syn_func *fn, const syn_func *v, size_t *n)
{
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    char *wa, *wb;
    sib_naming_words(fn, v, &wa, &wb);
    for (size_t f = 0; f < h->fl->n; f++) {
        if (!sib_within(&h->fl->items[f], fn))
            continue;
        const sib_unit_list *fu = sib_units_of(h, &h->fl->items[f]);
        for (size_t i = 0; i < fu->n; i++)
            if (fu->items[i].kind == SIB_PARAM && fu->items[i].name &&
                !scope_has_param(h, v, fu->items[i].name, wa, wb) &&
                !(&h->fl->items[f] == fn &&
                  !sib_any_marked(fc->added, fc->hn, fu->items[i].line, fu->items[i].end_line) &&
                  same_position_param(h, fn, v, fu->items[i].name)) &&
                !(&h->fl->items[f] == fn && renamed_from_shared(b, h, fn, v, fu->items[i].name)))
                *ARRAY_PUSH(names, *n, cap) = xstrdup(fu->items[i].name);
    }
    /* helpers defined beside fn (in the builder or function holding it) that v's family
     * does not define: `is_fmha_v3_i8fp8` nested next to one forward only */
    const syn_func *ftop = sib_outermost(h, fn), *vtop = sib_outermost(h, v);
    for (size_t f = 0; f < h->fl->n; f++) {
        const syn_func *g = &h->fl->items[f];
        if (g != fn && !sib_within(g, fn) && sib_within(ftop, g) && *g->name && !scope_defines(h, vtop, g->name))
            *ARRAY_PUSH(names, *n, cap) = xstrdup(g->name);
    }
    add_new_modes(fc, b, h, fn, v, &names, n, &cap);
    for (int pass = 0; pass < 2 && *n > 0; pass++)
        for (size_t f = 0; f < h->fl->n; f++)
            if (sib_within(&h->fl->items[f], fn))
                add_derived(fc, h, sib_units_of(h, &h->fl->items[f]), &names, n, &cap);
    free(wa);
    free(wb);
    return names;
}

/* True when some unit of l mentions name as a whole word. */
static bool list_mentions(const sib_unit_list *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (sib_has_word(l->items[i].code, name))
            return true;
    return false;
}

/* True when the change made fn delegate to v: an edited unit of fn calls v, or calls a
 * function of the file that calls v (a public method rerouted through a registered op whose
 * body calls the private variant). v is then fn's implementation, not its sibling. */
bool sib_delegates_to(sib_change *fc, sib_side *h, const syn_func *fn, const syn_func *v)
{
    const sib_unit_list *fu = sib_units_of(h, fn);
    for (size_t i = 0; i < fu->n; i++) {
        const sib_unit *u = &fu->items[i];
        if (!sib_any_marked(fc->added, fc->hn, u->line, u->end_line))
            continue;
        if (sib_has_word(u->code, v->name))
            return true;
        for (size_t g = 0; g < h->fl->n; g++) {
            const syn_func *callee = &h->fl->items[g];
            if (callee == fn || callee == v || !*callee->name || sib_within(callee, fn) || sib_within(fn, callee))
                continue;
            char *call = xasprintf("%s(", callee->name);
            bool calls = strstr(u->code, call) != NULL && sib_has_word(u->code, callee->name);
            free(call);
            if (calls && list_mentions(sib_units_of(h, callee), v->name))
                return true;
        }
    }
    return false;
}

/* True when the change rewrote bf (base) rather than fixed it: it lost REWRITE_UNITS units or
 * more, or the change deleted REWRITE_LINES of its lines, or REWRITE_SHARE percent of them
 * (at least REWRITE_MIN_LINES), not counting the renamed_lines that only wrote parameters
 * under their new names (a rename is not a rewrite). A long kernel that lost less than
 * SWEEP_SHARE percent of both its units (ncounted: those compared) and its lines had one fix
 * applied at many sites (a 64-bit offset at each of its loads), not a rewrite. Its variants
 * are another implementation now, and listing every line they still share would say only
 * that they were not rewritten too. */
bool sib_rewritten(const sib_change *fc, const syn_func *bf, size_t nlost, size_t ncounted, int renamed_lines)
{
    int del = -renamed_lines, lines = bf->end_line - bf->start_line + 1;
    for (int l = bf->start_line; l <= bf->end_line && l <= fc->bn; l++)
        del += fc->deleted[l];
    bool sweep = nlost * 100 < ncounted * SWEEP_SHARE && del * 100 < lines * SWEEP_SHARE;
    return !sweep && (nlost >= REWRITE_UNITS || del >= REWRITE_LINES ||
                      (del >= REWRITE_MIN_LINES && del * 100 >= lines * REWRITE_SHARE));
}

/* True when code calls name: the whole word followed by `(` (`f(`, `obj.f(`,
 * `torch.ops.aiter.f(`), or by a C++ template's arguments and then `(` (`impl<T, 4>(`). */
static bool calls_name(const char *code, const char *name)
{
    size_t n = strlen(name), len = strlen(code);
    for (const char *p = str_find_word(code, len, name); p;
         p = str_find_word(p + 1, len - (size_t)(p + 1 - code), name)) {
        const char *q = p + n;
        while (*q == ' ')
            q++;
        if (*q == '<') { /* a C++ template's arguments before the call's: `impl<T, 4>(` */
            int depth = 0;
            for (; *q && !strchr(";{}", *q); q++) {
                depth += *q == '<';
                depth -= *q == '>';
                if (depth == 0)
                    break;
            }
            if (*q != '>')
                continue;
            q++;
            while (*q == ' ')
                q++;
        }
        if (*q == '(')
            return true;
    }
    return false;
}

/* True when g is a function other than fn and not nested in it or around it. */
static bool apart(const syn_func *g, const syn_func *fn)
{
    return g != fn && *g->name && !sib_within(g, fn) && !sib_within(fn, g);
}

/* Append to *out the functions of h apart from fn that some unit of l (only those edited, when
 * edited_only) calls. */
static void add_callees(sib_change *fc, sib_side *h, const syn_func *fn, const sib_unit_list *l, bool edited_only,
                        const syn_func ***out, size_t *n, size_t *cap)
{
    for (size_t g = 0; g < h->fl->n; g++) {
        const syn_func *callee = &h->fl->items[g];
        bool have = !apart(callee, fn);
        for (size_t k = 0; k < *n && !have; k++)
            have = (*out)[k] == callee;
        for (size_t i = 0; i < l->n && !have; i++) {
            const sib_unit *u = &l->items[i];
            if ((!edited_only || sib_any_marked(fc->added, fc->hn, u->line, u->end_line)) &&
                calls_name(u->code, callee->name)) {
                *ARRAY_PUSH(*out, *n, *cap) = callee;
                have = true;
            }
        }
    }
}

const syn_func **sib_reached(sib_change *fc, sib_side *h, const syn_func *fn, size_t *n)
{
    const syn_func **out = NULL;
    size_t cap = 0;
    *n = 0;
    add_callees(fc, h, fn, sib_units_of(h, fn), true, &out, n, &cap);
    size_t direct = *n;
    for (size_t i = 0; i < direct; i++)
        add_callees(fc, h, fn, sib_units_of(h, out[i]), false, &out, n, &cap);
    return out;
}

/* The first function of h that code calls, other than skip; NULL when none. */
static const syn_func *first_callee(const sib_side *h, const char *code, const syn_func *skip)
{
    const syn_func *best = NULL;
    const char *at = NULL;
    for (size_t g = 0; g < h->fl->n; g++) {
        const syn_func *f = &h->fl->items[g];
        if (f == skip || !*f->name || !calls_name(code, f->name) || (skip && strcmp(f->name, skip->name) == 0))
            continue;
        const char *p = strstr(code, f->name);
        if (!at || p < at) {
            best = f;
            at = p;
        }
    }
    return best;
}

/* True when f has a parameter named name. */
bool sib_has_param(sib_side *h, const syn_func *f, const char *name)
{
    const sib_unit_list *l = sib_units_of(h, f);
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].kind == SIB_PARAM && l->items[i].name && strcmp(l->items[i].name, name) == 0)
            return true;
    return false;
}

bool sib_callee_extended(sib_side *b, sib_side *h, const sib_removed *r, const sib_unit *x)
{
    const syn_func *called = first_callee(h, r->u->code, NULL);
    if (!called || !calls_name(r->repl, called->name))
        return false;
    const syn_func *other = calls_name(x->code, called->name) ? NULL : first_callee(h, x->code, called);
    const syn_func *before = sib_counterpart(h->fl, called, b->fl);
    if (!other || !before)
        return false;
    const sib_unit_list *l = sib_units_of(h, called);
    bool gained = false;
    for (size_t i = 0; i < l->n; i++) {
        const sib_unit *p = &l->items[i];
        if (p->kind != SIB_PARAM || !p->name || sib_has_param(b, before, p->name))
            continue;
        if (sib_has_param(h, other, p->name))
            return false; /* the variant's callee takes it too: it could be passed there */
        gained = true;
    }
    return gained;
}

/* True when the head text of d names an identifier that is probe once word is folded out of
 * it (and that holds word, unless word is empty: then probe itself). */
static bool counterpart_named(const syntax_doc *d, const char *probe, const char *word)
{
    const char *t = d->text;
    size_t len = d->len;
    for (size_t i = 0; i < len;) {
        if (!(isalpha((unsigned char)t[i]) || t[i] == '_') || (i > 0 && str_ident_char(t[i - 1]))) {
            i++;
            continue;
        }
        size_t e = i;
        while (e < len && str_ident_char(t[e]))
            e++;
        char *id = xstrndup(t + i, e - i);
        bool hit;
        if (!*word) {
            hit = strcmp(id, probe) == 0;
        } else {
            char *f = sib_fold(id, word);
            hit = strcmp(f, id) != 0 && strcmp(f, probe) == 0;
            free(f);
        }
        free(id);
        if (hit)
            return true;
        i = e;
    }
    return false;
}

/* True when the text of d binds id (`id = ...`, `constexpr int id = ...`) or fl defines a
 * function of that name: a name whose every counterpart would be defined here too. */
static bool defined_here(const syntax_doc *d, const syn_func_list *fl, const char *id)
{
    for (size_t i = 0; i < fl->n; i++)
        if (strcmp(fl->items[i].name, id) == 0)
            return true;
    size_t n = strlen(id);
    for (const char *p = str_find_word(d->text, d->len, id); p;
         p = str_find_word(p + 1, d->len - (size_t)(p + 1 - d->text), id)) {
        const char *q = p + n;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '=' && q[1] != '=')
            return true;
    }
    return false;
}

bool sib_named_for_fn(const sib_removed *r, const sib_side *h, const char *wa, const char *wb)
{
    const syntax_doc *hd = h->d;
    if (!*wa)
        return false;
    const char *p = r->repl;
    while (*p) {
        if (!(isalpha((unsigned char)*p) || *p == '_')) {
            p++;
            continue;
        }
        const char *e = p;
        while (str_ident_char(*e))
            e++;
        char *id = xstrndup(p, (size_t)(e - p));
        char *f = sib_fold(id, wa);
        bool own = strcmp(f, id) != 0 && !sib_has_word(r->u->code, id) && defined_here(hd, h->fl, id) &&
                   !counterpart_named(hd, f, wb);
        free(f);
        free(id);
        if (own)
            return true;
        p = e;
    }
    return false;
}
