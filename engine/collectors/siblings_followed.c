/* Rewrites that followed something only the changed function has, for the sibling-drift
 * collector. Unlike the choices in siblings_choices.c, these are asked of each variant: the
 * same rewrite can be drift in one variant and not in another. Two kinds:
 * - a line that followed a local bound anew (sib_follows_rebound): the rewrite stops reading
 *   a local whose binding the change put under a branch it edited, so the value exists on
 *   some paths only (aiter#4470: the scale descriptor built only `if X_SCALE_TDM:`, so the buffer's shape
 *   stopped reading it). A variant binding that local itself reads its own value there; one
 *   handed it by a caller is still asked;
 * - a value reshaped for the function's own callee (sib_reshaped_binding,
 *   sib_feeds_other_callees): the rewrite binds the same locals to a value the old line bound
 *   with `.view(`, `.reshape(`, `.permute(` ... called on it (aiter#2657's
 *   `cos = self.cos_cache.view(self.cos_cache.shape[0], -1)` for
 *   `cos, sin = self.cos_cache, self.sin_cache`), and no call those locals feed in the
 *   changed function is one they feed in the variant: the layout served a kernel only the
 *   changed function calls (the Triton rope op, not the HIP one). A variant feeding one of
 *   the same callees is still asked. */
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/siblings.h"
#include "engine/strset.h"
#include "engine/syntax.h"
#include "engine/util.h"

/* True when unit x binds name. */
static bool binds(const sib_unit *x, const char *name, syn_lang lang)
{
    char **bound = sib_bound_names(x, lang);
    bool yes = false;
    for (size_t k = 0; bound && bound[k] && !yes; k++)
        yes = strcmp(bound[k], name) == 0;
    sib_names_free(bound);
    return yes;
}

/* --- a value reshaped for the function's own callee ---------------------------------------- */

static const char *const reshape_calls[] = {".view(", ".reshape(", ".flatten(", ".unsqueeze(", ".squeeze(",
                                            ".permute(", ".transpose(", ".expand(", NULL};

/* True when code calls a method that only reshapes a tensor (`.view(`, `.reshape(`,
 * `.flatten(`, `.unsqueeze(`, `.squeeze(`, `.permute(`, `.transpose(`, `.expand(`): the same
 * values laid out for a consumer. */
static bool reshapes(const char *code)
{
    for (int i = 0; reshape_calls[i]; i++)
        if (strstr(code, reshape_calls[i]))
            return true;
    return false;
}

/* True when the right side of new_key (a key) is one element of old_key's right side (a
 * comma-separated list, brackets respected) with a reshape called on it: `self.cos_cache
 * .view(...)` for `self.cos_cache,self.sin_cache`. */
static bool views_old_value(const char *new_key, const char *old_key)
{
    const char *nr = sib_right_side(new_key), *orr = sib_right_side(old_key);
    if (nr == new_key || orr == old_key)
        return false;
    const char *start = orr;
    int depth = 0;
    for (const char *p = orr;; p++) {
        if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if ((*p == ')' || *p == ']' || *p == '}') && depth > 0)
            depth--;
        if (*p && (*p != ',' || depth > 0))
            continue;
        size_t n = (size_t)(p - start);
        if (n > 0 && strncmp(nr, start, n) == 0)
            for (int i = 0; reshape_calls[i]; i++)
                if (str_starts(nr + n, reshape_calls[i]))
                    return true;
        if (!*p)
            return false;
        start = p + 1;
    }
}

bool sib_reshaped_binding(const sib_unit *u, const sib_unit_list *after, const bool *after_touched, int first,
                          int last, syn_lang lang)
{
    if (lang != SYN_PYTHON || first <= 0 || last < first || reshapes(u->code))
        return false;
    char **names = sib_bound_names(u, lang);
    bool all = names != NULL;
    for (size_t k = 0; names && names[k] && all; k++) {
        bool found = false;
        for (size_t i = 0; i < after->n && !found; i++) {
            const sib_unit *a = &after->items[i];
            found = after_touched[i] && a->line >= first && a->line <= last && views_old_value(a->key, u->key) &&
                    binds(a, names[k], lang);
        }
        all = found;
    }
    sib_names_free(names);
    return all;
}

/* What fn (of d) imports in its own body under the name alias (`import aiter.ops.triton.rope
 * .rope as ops`, `from aiter import ops`), as "module" or "module.name", a new string; NULL
 * when it imports nothing under that name (ims: the imports of fn's lines). Two functions each
 * importing a different module as `ops` call different things by the same name. */
static char *local_module(const syn_import_list *ims, const char *alias)
{
    for (size_t i = 0; i < ims->n; i++) {
        const syn_import *im = &ims->items[i];
        const char *bound = im->alias ? im->alias : im->name;
        if (!im->is_include && bound && strcmp(bound, alias) == 0)
            return im->name ? xasprintf("%s.%s", im->module, im->name) : xstrdup(im->module);
    }
    return NULL;
}

/* Add to out every call within fn (of d) passing one of names as a whole argument, by its
 * last name, qualified with the module its receiver names when fn imports that module under
 * the receiver's name itself. */
static void consumers(const syntax_doc *d, const syn_func *fn, char *const *names, strset *out)
{
    syn_call_list calls = {0};
    syntax_calls(d, fn->start_line, fn->end_line, &calls);
    syn_import_list ims = {0};
    line_run body = {fn->start_line, fn->end_line};
    syntax_imports_touching(d, &body, 1, &ims);
    for (size_t c = 0; c < calls.n; c++) {
        const syn_call *call = &calls.items[c];
        bool feeds = false;
        for (size_t a = 0; a < call->nargs && !feeds; a++) {
            char *arg = str_strip(call->args[a].text);
            for (size_t k = 0; names[k] && !feeds; k++)
                feeds = strcmp(arg, names[k]) == 0;
            free(arg);
        }
        if (!feeds || !call->name)
            continue;
        char *mod = call->receiver ? local_module(&ims, call->receiver) : NULL;
        char *callee = mod ? xasprintf("%s.%s", mod, call->name) : xstrdup(call->name);
        strset_add(out, callee);
        free(callee);
        free(mod);
    }
    syn_call_list_free(&calls);
    syn_import_list_free(&ims);
}

bool sib_feeds_other_callees(const syntax_doc *d, const syn_func *fn, const syn_func *v, const sib_unit *u)
{
    char **names = sib_bound_names(u, d->lang);
    if (!names)
        return false;
    strset mine = {0}, theirs = {0};
    consumers(d, fn, names, &mine);
    consumers(d, v, names, &theirs);
    bool apart = mine.n > 0 && theirs.n > 0;
    for (size_t i = 0; i < mine.n && apart; i++)
        apart = !strset_has(&theirs, strset_at(&mine, i));
    strset_free(&mine);
    strset_free(&theirs);
    sib_names_free(names);
    return apart;
}

/* --- a line that follows a local bound anew ------------------------------------------------ */

/* True when the last unit of after binding name that starts before head line at was put under
 * a branch or loop the change edited: edited itself (after_touched) and inside an edited
 * `if`/`while`/`for`/`with` (the value is now bound on some paths only). A binding the diff
 * only re-aligned is not. */
static bool made_conditional(const sib_unit_list *after, const bool *after_touched, const char *name, int at,
                             syn_lang lang)
{
    const sib_unit *last = NULL;
    for (size_t i = 0; i < after->n; i++) {
        const sib_unit *x = &after->items[i];
        if (x->line < at && (!last || x->line >= last->line) && binds(x, name, lang))
            last = x;
    }
    if (!last || !after_touched[last - after->items])
        return false;
    for (size_t i = 0; i < after->n; i++) {
        const sib_unit *s = &after->items[i];
        if (after_touched[i] && s->kind == SIB_STMT && s->line < last->line && s->block_end >= last->end_line &&
            sib_controls_block(s->code))
            return true;
    }
    return false;
}

bool sib_list_binds(const sib_unit_list *l, const char *name, syn_lang lang, const sib_unit *skip)
{
    for (size_t i = 0; i < l->n; i++)
        if (&l->items[i] != skip && binds(&l->items[i], name, lang))
            return true;
    return false;
}

char *sib_follows_rebound(const sib_unit *u, const char *repl, int at, const sib_unit_list *before,
                          const sib_unit_list *after, const bool *after_touched, syn_lang lang)
{
    size_t nt;
    sib_tok *t = sib_tokens(u->code, &nt);
    char **own = sib_bound_names(u, lang);
    char *found = NULL;
    for (size_t k = 0; k < nt && !found; k++) {
        if (!t[k].ident || (k > 0 && t[k - 1].n == 1 && t[k - 1].s[0] == '.') ||
            (k + 1 < nt && t[k + 1].n == 1 && t[k + 1].s[0] == '('))
            continue; /* not a variable read: an attribute, a call */
        char *name = xstrndup(t[k].s, t[k].n);
        bool binds_it = false;
        for (size_t j = 0; own && own[j] && !binds_it; j++)
            binds_it = strcmp(own[j], name) == 0;
        if (!binds_it && !sib_has_word(repl, name) && sib_list_binds(before, name, lang, u) &&
            made_conditional(after, after_touched, name, at, lang))
            found = name;
        else
            free(name);
    }
    sib_names_free(own);
    free(t);
    return found;
}
