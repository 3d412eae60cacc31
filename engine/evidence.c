/* The evidence report (evidence.h): reads the changed files' base and head, finds the changed
 * signatures (each parameter's change, and which call-site arguments to ask about), has
 * evidence_guards.c trace the removed guards and evidence_calls.c find the call sites. */
#include "engine/evidence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/evidence_internal.h"
#include "engine/util.h"

/* One changed signature: a base and a head signature of the same name in one file. */
typedef struct ev_change {
    const ev_file *ef;
    const ev_sig *b, *h;
} ev_change;

bool ev_ident_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

char *ev_collapse(const char *text, size_t len)
{
    strbuf sb;
    sb_init(&sb);
    bool space = false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = sb.len > 0;
            continue;
        }
        if (space)
            sb_addc(&sb, ' ');
        space = false;
        sb_addc(&sb, c);
    }
    return sb_detach(&sb);
}

const char *ev_value_handling(const char *v)
{
    static const char *const none[] = {"nullptr", "None", "NULL", "std::nullopt", "c10::nullopt",
                                       "{}", "std::nullopt_t{}", NULL};
    for (size_t i = 0; none[i]; i++)
        if (!strcmp(v, none[i]))
            return "nothing";
    if (str_contains(v, "has_value") || str_contains(v, "is not None") ||
        str_contains(v, "!= nullptr") || str_contains(v, "is None") || str_contains(v, "== nullptr"))
        return "checked";
    if (str_contains(v, ".value()") || str_contains(v, "->") || v[0] == '*')
        return "unwrapped unchecked";
    return NULL;
}

void ev_add_line(evidence_item *it, const char *path, int line, const char *role,
                 const char *text, size_t len, char *detail)
{
    for (size_t i = 0; i < it->nlines; i++)
        if (it->lines[i].line == line && !strcmp(it->lines[i].path, path) &&
            !strcmp(it->lines[i].role, role)) {
            free(detail);
            return;
        }
    if (it->nlines >= EV_LINES_MAX) {
        it->nmore++;
        free(detail);
        return;
    }
    evidence_line *l = ARRAY_PUSH(it->lines, it->nlines, it->lines_cap);
    l->path = xstrdup(path);
    l->line = line;
    l->role = xstrdup(role);
    char *t = ev_collapse(text, len);
    if (strlen(t) > EVIDENCE_TEXT_MAX) {
        t[EVIDENCE_TEXT_MAX - 3] = '\0';
        char *cut = xasprintf("%s...", t);
        free(t);
        t = cut;
    }
    l->text = t;
    l->detail = detail;
}

void ev_add_what(evidence_item *it, char *what)
{
    *ARRAY_PUSH(it->what, it->nwhat, it->what_cap) = what;
}

/* A new item in the report, or NULL past the cap (counted in nleft). */
evidence_item *ev_new_item(evidence_report *r, bool sig, const char *subject, syn_lang lang)
{
    if (r->n >= EV_ITEMS_MAX) {
        r->nleft++;
        return NULL;
    }
    evidence_item *it = ARRAY_PUSH(r->items, r->n, r->cap);
    memset(it, 0, sizeof *it);
    it->is_signature = sig;
    it->subject = xstrdup(subject);
    it->lang = xstrdup(lang == SYN_CPP ? "C++" : "Python");
    return it;
}

/* The item of a subject: a signature's by name and language; a guard's by subject alone
 * (its handling is looked for in every changed file, whatever the language). */
evidence_item *ev_find_item(evidence_report *r, bool sig, const char *subject, syn_lang lang)
{
    const char *ln = lang == SYN_CPP ? "C++" : "Python";
    for (size_t i = 0; i < r->n; i++)
        if (r->items[i].is_signature == sig && !strcmp(r->items[i].subject, subject) &&
            (!sig || !strcmp(r->items[i].lang, ln)))
            return &r->items[i];
    return NULL;
}

/* Test files hold test assertions, not invariants of the code under review. */
static bool is_test_path(const char *p)
{
    const char *b = strrchr(p, '/');
    b = b ? b + 1 : p;
    return str_starts(p, "op_tests/") || str_starts(p, "tests/") || str_contains(p, "/tests/") ||
           str_starts(b, "test_") || str_ends(b, "_test.py");
}

/* Read every changed code file's head and base and their signatures. */
static void load_files(ev_state *st)
{
    const change *c = st->c;
    st->files = xcalloc(c->nfiles + 1, sizeof *st->files);
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        syn_lang lang = syntax_lang_of_path(f->path);
        if (lang == SYN_NONE || f->is_deleted || f->is_skipped ||
            (c->head_root && ev_not_regular(c->head_root, f->path)))
            continue;
        ev_file *ef = &st->files[st->nfiles++];
        ef->f = f;
        ef->lang = lang;
        ef->is_test = is_test_path(f->path);
        char *why = NULL;
        ef->head = change_head_text(c, f, &ef->hlen, &why);
        free(why);
        if (!ef->head) {
            st->out->nno_head++;
            continue;
        }
        st->out->nheads++;
        ev_signatures(lang, ef->head, ef->hlen, &ef->hs);
        if (!f->is_new)
            ef->base = change_base_from_head(f, ef->head, ef->hlen, &ef->blen);
        if (ef->base)
            ev_signatures(lang, ef->base, ef->blen, &ef->bs);
    }
}

/* True when a line of the change of kind ('+' head numbers, '-' base numbers) is in [a, b]. */
static bool touched(const change_file *f, char kind, int a, int b)
{
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        int no = kind == '+' ? l->new_no : l->old_no;
        if (l->kind == kind && no >= a && no <= b)
            return true;
    }
    return false;
}

/* The parameter of s matching p (by name, or by position when unnamed), or NULL. */
static const ev_param *same_param(const ev_sig *s, const ev_param *p, size_t pos, size_t *at)
{
    for (size_t i = 0; i < s->np; i++)
        if (*p->name ? !strcmp(s->p[i].name, p->name) : (i == pos && !*s->p[i].name)) {
            *at = i;
            return &s->p[i];
        }
    return NULL;
}

/* Describe how the parameters of b became those of h; the names a call must be asked about
 * are added to *names (NULL-terminated, owned). Returns how many changes were listed. */
static int param_changes(evidence_item *it, const ev_sig *b, const ev_sig *h, char ***names,
                         size_t *nn, size_t *cap)
{
    int n = 0;
    for (size_t i = 0; i < h->np; i++) {
        const ev_param *hp = &h->p[i];
        size_t j = 0;
        const ev_param *bp = same_param(b, hp, i, &j);
        char *w = NULL;
        if (!bp)
            w = xasprintf("added `%s` (parameter %zu)", hp->text, i + 1);
        else if (strcmp(bp->key, hp->key))
            w = xasprintf("%s: `%s` → `%s`", *hp->name ? hp->name : "parameter", bp->text, hp->text);
        else if (i != j)
            w = xasprintf("%s moved from parameter %zu to %zu", hp->name, j + 1, i + 1);
        if (!w)
            continue;
        ev_add_what(it, w);
        n++;
        if (!hp->splat) /* an unnamed parameter is asked about by its position */
            *ARRAY_PUSH(*names, *nn, *cap) = *hp->name ? xstrdup(hp->name) : xasprintf("#%zu", i);
    }
    for (size_t j = 0; j < b->np; j++) {
        size_t i;
        if (!same_param(h, &b->p[j], j, &i)) {
            ev_add_what(it, xasprintf("removed `%s` (was parameter %zu)", b->p[j].text, j + 1));
            n++;
        }
    }
    return n;
}

/* Pair the base and head signatures named name in ef whose parameter lists differ. */
static size_t pair_changes(const ev_file *ef, const char *name, ev_change *out, size_t max)
{
    const ev_sig *bs[64], *hs[64];
    size_t nb = 0, nh = 0, n = 0;
    for (size_t i = 0; i < ef->bs.n && nb < 64; i++)
        if (!strcmp(ef->bs.items[i].name, name))
            bs[nb++] = &ef->bs.items[i];
    for (size_t i = 0; i < ef->hs.n && nh < 64; i++)
        if (!strcmp(ef->hs.items[i].name, name))
            hs[nh++] = &ef->hs.items[i];
    /* the same parameter list on both sides is not a change, wherever it moved */
    for (size_t i = 0; i < nh; i++)
        for (size_t k = 0; k < nb; k++)
            if (bs[k] && hs[i] && !strcmp(bs[k]->key, hs[i]->key)) {
                bs[k] = NULL;
                hs[i] = NULL;
            }
    size_t k = 0;
    for (size_t i = 0; i < nh && n < max; i++) {
        if (!hs[i])
            continue;
        while (k < nb && !bs[k])
            k++;
        if (k == nb)
            break;
        out[n++] = (ev_change){ef, bs[k++], hs[i]};
    }
    return n;
}

/* The names of the signatures of ef that the change touches (unique, borrowed). */
static size_t touched_names(const ev_file *ef, const char **names, size_t max)
{
    size_t n = 0;
    for (int side = 0; side < 2; side++) {
        const ev_sig_list *l = side ? &ef->bs : &ef->hs;
        for (size_t i = 0; i < l->n && n < max; i++) {
            const ev_sig *s = &l->items[i];
            if (!touched(ef->f, side ? '-' : '+', s->first, s->last))
                continue;
            bool seen = false;
            for (size_t k = 0; k < n && !seen; k++)
                seen = !strcmp(names[k], s->name);
            if (!seen)
                names[n++] = s->name;
        }
    }
    return n;
}

/* Keep the parameter-name array (NULL-terminated) for a target and return it. */
const char *const *ev_keep_names(ev_state *st, char **names, size_t n)
{
    char **v = xcalloc(n + 1, sizeof *v);
    memcpy(v, names, n * sizeof *v);
    *ARRAY_PUSH(st->param_sets, st->nsets, st->sets_cap) = v;
    return (const char *const *)v;
}

/* Ask for the call sites of name (its head signature sig) with the given parameters, the
 * lines going to item it (kept by index: the item array may still grow). */
void ev_add_target(ev_state *st, const char *name, syn_lang lang, const ev_sig *sig,
                       const char *const *params, const evidence_item *it)
{
    ev_target *t = ARRAY_PUSH(st->targets, st->ntargets, st->targets_cap);
    *t = (ev_target){name, lang, sig, params, NULL, (size_t)(it - st->out->items)};
}

/* One item per changed signature (name and language), with a call-site target. */
static void trace_signatures(ev_state *st)
{
    for (size_t i = 0; i < st->nfiles; i++) {
        const ev_file *ef = &st->files[i];
        if (!ef->base)
            continue;
        const char *names[256];
        size_t nn = touched_names(ef, names, 256);
        for (size_t k = 0; k < nn; k++) {
            ev_change ch[16];
            size_t nc = pair_changes(ef, names[k], ch, 16);
            for (size_t m = 0; m < nc; m++) {
                evidence_item *it = ev_find_item(st->out, true, names[k], ef->lang);
                bool fresh = !it;
                if (!it && !(it = ev_new_item(st->out, true, names[k], ef->lang)))
                    return;
                ev_add_what(it, xasprintf("%s:%d: %s", ef->f->path, ch[m].h->line,
                                          ch[m].h->def_first ? "definition" : "declaration"));
                ev_add_what(it, xasprintf("base %s", ch[m].b->params));
                ev_add_what(it, xasprintf("head %s", ch[m].h->params));
                char **pn = NULL;
                size_t npn = 0, cap = 0;
                param_changes(it, ch[m].b, ch[m].h, &pn, &npn, &cap);
                st->out->nsignatures++;
                if (fresh) /* call sites once per function, with the first head signature */
                    ev_add_target(st, it->subject, ef->lang, ch[m].h, ev_keep_names(st, pn, npn), it);
                else
                    for (size_t q = 0; q < npn; q++)
                        free(pn[q]);
                free(pn);
            }
        }
    }
}

static int line_cmp(const void *a, const void *b)
{
    const evidence_line *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : x->line - y->line;
}

/* With timing, the time a step took on stderr (as the engine's steps). */
static void step_time(bool timing, const char *step, struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (timing)
        fprintf(stderr, "review-lsp: evidence %s %.2f ms\n", step,
                (t1.tv_sec - t0->tv_sec) * 1e3 + (t1.tv_nsec - t0->tv_nsec) / 1e6);
    *t0 = t1;
}

void evidence_collect(const change *c, const char *root, bool timing, evidence_report *out)
{
    memset(out, 0, sizeof *out);
    ev_state st = {.c = c, .out = out};
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    load_files(&st);
    step_time(timing, "parse", &t0);
    trace_signatures(&st);
    ev_trace_guards(&st);
    step_time(timing, "signatures and guards", &t0);
    for (size_t i = 0; i < st.ntargets; i++)
        st.targets[i].item = &out->items[st.targets[i].item_index];
    out->nfiles = ev_find_calls(c, root, st.targets, st.ntargets);
    step_time(timing, "call sites", &t0);
    strbuf lim;
    sb_init(&lim);
    if (out->nno_head)
        sb_addf(&lim, "the head text of %zu changed file%s is not available (a diff with no head "
                      "tree), so %s lines and signatures were not read", out->nno_head,
                out->nno_head == 1 ? "" : "s", out->nno_head == 1 ? "its" : "their");
    if (!root && st.ntargets)
        sb_addf(&lim, "%sno head tree was given, so call sites were looked for in the changed "
                      "files only", lim.len ? "; " : "");
    out->limits = lim.len ? sb_detach(&lim) : NULL;
    sb_free(&lim);
    for (size_t i = 0; i < out->n; i++)
        if (out->items[i].nlines > 1)
            qsort(out->items[i].lines, out->items[i].nlines, sizeof *out->items[i].lines, line_cmp);
    for (size_t i = 0; i < st.nfiles; i++) {
        free(st.files[i].head);
        free(st.files[i].base);
        ev_sig_list_free(&st.files[i].hs);
        ev_sig_list_free(&st.files[i].bs);
    }
    free(st.files);
    for (size_t i = 0; i < st.nsets; i++) {
        for (size_t k = 0; st.param_sets[i][k]; k++)
            free(st.param_sets[i][k]);
        free(st.param_sets[i]);
    }
    free(st.param_sets);
    free(st.targets);
    for (size_t i = 0; i < st.nadded; i++)
        free(st.added[i]);
    free(st.added);
}

void evidence_report_free(evidence_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        evidence_item *it = &r->items[i];
        for (size_t k = 0; k < it->nwhat; k++)
            free(it->what[k]);
        free(it->what);
        for (size_t k = 0; k < it->nlines; k++) {
            free(it->lines[k].path);
            free(it->lines[k].role);
            free(it->lines[k].text);
            free(it->lines[k].detail);
        }
        free(it->lines);
        free(it->subject);
        free(it->lang);
        free(it->note);
    }
    free(r->items);
    free(r->limits);
    memset(r, 0, sizeof *r);
}
