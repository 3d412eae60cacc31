/* The evidence report (evidence.h): reads the changed files' base and head, finds the changed
 * signatures and the removed guards, lists the head lines that handle each guard's subject,
 * and has evidence_calls.c find the call sites. */
#include "engine/evidence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/evidence_internal.h"
#include "engine/regex.h"
#include "engine/util.h"

#define USES_MAX 6

/* A changed file with its two texts and their signatures. */
typedef struct ev_file {
    const change_file *f;
    syn_lang lang;
    char *head, *base;
    size_t hlen, blen;
    ev_sig_list hs, bs;
    bool is_test;
} ev_file;

/* One changed signature: a base and a head signature of the same name in one file. */
typedef struct ev_change {
    const ev_file *ef;
    const ev_sig *b, *h;
} ev_change;

typedef struct ev_state {
    const change *c;
    ev_file *files;
    size_t nfiles;
    evidence_report *out;
    ev_target *targets;
    size_t ntargets, targets_cap;
    char ***param_sets;  /* the NULL-terminated name arrays the targets point at */
    size_t nsets, sets_cap;
    char **added;        /* every added line of the change, collapsed, sorted (built lazily) */
    size_t nadded;
    bool have_added;
} ev_state;

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
static evidence_item *new_item(evidence_report *r, bool sig, const char *subject, syn_lang lang)
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
static evidence_item *find_item(evidence_report *r, bool sig, const char *subject, syn_lang lang)
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
static const char *const *keep_names(ev_state *st, char **names, size_t n)
{
    char **v = xcalloc(n + 1, sizeof *v);
    memcpy(v, names, n * sizeof *v);
    *ARRAY_PUSH(st->param_sets, st->nsets, st->sets_cap) = v;
    return (const char *const *)v;
}

/* Ask for the call sites of name (its head signature sig) with the given parameters, the
 * lines going to item it (kept by index: the item array may still grow). */
static void add_target(ev_state *st, const char *name, syn_lang lang, const ev_sig *sig,
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
                evidence_item *it = find_item(st->out, true, names[k], ef->lang);
                bool fresh = !it;
                if (!it && !(it = new_item(st->out, true, names[k], ef->lang)))
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
                    add_target(st, it->subject, ef->lang, ch[m].h, keep_names(st, pn, npn), it);
                else
                    for (size_t q = 0; q < npn; q++)
                        free(pn[q]);
                free(pn);
            }
        }
    }
}

static const char *const NOISE[] = {
    "not", "is", "None", "True", "False", "and", "or", "in", "if", "else", "self", "len", "int",
    "float", "str", "bool", "tuple", "list", "dict", "set", "all", "any", "isinstance", "type",
    "return", "raise", "sizeof", "static_assert", "torch", "aiter", "np", "dtypes", "assert",
    "TORCH_CHECK", "AITER_CHECK", "const", "auto", "nullptr", "NULL", "true", "false",
    "static_cast", "reinterpret_cast", "std", "at", "c10", "size_t", "int64_t", "int32_t",
    "uint32_t", "uint64_t", "hasattr", "getattr", "callable", "zeros", "contiguous", "zero_",
    NULL};

static bool noise(const char *w, size_t n)
{
    for (size_t i = 0; NOISE[i]; i++)
        if (strlen(NOISE[i]) == n && !strncmp(NOISE[i], w, n))
            return true;
    return false;
}

/* The subject of a deleted guard's code: the first identifier of its condition that is not a
 * keyword, a type, a function called or an attribute; for a zero-init or .contiguous(), the
 * assignment target or the receiver. A new string, or NULL. */
static char *guard_subject(const char *code)
{
    const char *s = code;
    const char *kw = NULL;
    static const char *const kws[] = {"TORCH_CHECK", "AITER_CHECK", "static_assert", "assert", NULL};
    for (size_t i = 0; kws[i] && !kw; i++)
        if ((kw = strstr(code, kws[i])))
            s = kw + strlen(kws[i]);
    if (!kw) { /* x = torch.zeros(...), y = x.contiguous(): the target, else the receiver */
        const char *t = str_lskip(code);
        if (str_starts(t, "self."))
            t += 5;
        size_t k = 0;
        while (ev_ident_char(t[k]))
            k++;
        const char *e = str_lskip(t + k);
        if (k && *e == '=' && e[1] != '=')
            return xstrndup(t, k);
        s = code;
    }
    for (const char *p = s; *p; p++) {
        if (*p == ',' && kw)
            break;
        if (!ev_ident_char(*p) || (p > s && ev_ident_char(p[-1])) || (*p >= '0' && *p <= '9'))
            continue;
        size_t k = 0;
        while (ev_ident_char(p[k]))
            k++;
        const char *after = str_lskip(p + k);
        bool attr = (p > code && p[-1] == '.') || (p > code + 1 && p[-1] == '>' && p[-2] == '-') ||
                    (p > code + 1 && p[-1] == ':' && p[-2] == ':');
        if (!noise(p, k) && !attr && *after != '(' && !(after[0] == ':' && after[1] == ':'))
            return xstrndup(p, k);
        p += k - 1;
    }
    return NULL;
}

/* True for callees that only wrap a value (casts, checks), which say nothing of where it goes. */
static bool wrapper_call(const char *name)
{
    static const char *const w[] = {"TORCH_CHECK", "AITER_CHECK", "static_assert", "assert",
                                    "isinstance", "len", "int", "float", "bool", "str", NULL};
    for (size_t i = 0; w[i]; i++)
        if (!strcmp(name, w[i]))
            return true;
    return str_ends(name, "_cast");
}

/* The name of the function called by the '(' at open: before it, perhaps a HIP launch
 * configuration (<<<...>>>) and template arguments, then the (last component of the) name.
 * Sets *len; NULL when the parenthesis follows no name (a grouping). */
static const char *callee_before(const char *t, const char *open, size_t *len)
{
    const char *e = open;
    while (e > t && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
        e--;
    if (e - t >= 3 && !strncmp(e - 3, ">>>", 3)) {
        const char *s = e - 3;
        while (s - t >= 3 && strncmp(s - 3, "<<<", 3))
            s--;
        e = s - t >= 3 ? s - 3 : t;
        while (e > t && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
    }
    if (e > t && e[-1] == '>') { /* template arguments */
        int d = 0;
        const char *s = e;
        for (; s > t && e - s < 256; s--) {
            if (s[-1] == '>')
                d++;
            else if (s[-1] == '<' && --d == 0) {
                s--;
                break;
            }
        }
        e = s;
    }
    const char *s = e;
    while (s > t && ev_ident_char(s[-1]))
        s--;
    if (s == e || (*s >= '0' && *s <= '9'))
        return NULL;
    *len = (size_t)(e - s);
    return s;
}

/* When the subject at `at` (in the head text of ef) sits in an argument of a call other than a
 * cast or a check, which: "argument 4 of rope_kernel (the call at line 32)". Read lexically,
 * outward from the subject. A new string, or NULL. */
static char *call_context(const ev_file *ef, const char *at, int line)
{
    const char *t = ef->head;
    int depth = 0;
    for (const char *p = at; p > t && at - p < 4096;) {
        char c = *--p;
        if (c == ')' || c == ']' || c == '}') {
            depth++;
        } else if ((c == '[' || c == '{') && depth-- == 0) {
            return NULL;
        } else if (c == ';' && depth == 0) {
            return NULL;
        } else if (c == '(' && depth > 0) {
            depth--;
        } else if (c == '(') {
            size_t nl = 0;
            const char *name = callee_before(t, p, &nl);
            char *callee = name ? xstrndup(name, nl) : NULL;
            if (!callee || wrapper_call(callee)) {
                free(callee);
                continue;
            }
            size_t arg = 0;
            const char *arg_start = p + 1;
            int d = 0;
            for (const char *q = p + 1; q < at; q++) {
                if (*q == '(' || *q == '[' || *q == '{')
                    d++;
                else if (*q == ')' || *q == ']' || *q == '}')
                    d--;
                else if (*q == ',' && d == 0) {
                    arg++;
                    arg_start = q + 1;
                }
            }
            int cl = line;
            for (const char *q = p; q < at; q++)
                cl -= *q == '\n';
            const char *a = str_lskip(arg_start);
            size_t k = 0;
            while (ev_ident_char(a[k]))
                k++;
            const char *eq = str_lskip(a + k);
            char *r = ef->lang == SYN_PYTHON && k && *eq == '=' && eq[1] != '='
                          ? xasprintf("passed as %.*s= to %s (the call at line %d)", (int)k, a,
                                      callee, cl)
                          : xasprintf("argument %zu of %s (the call at line %d)", arg + 1, callee, cl);
            free(callee);
            return r;
        }
    }
    return NULL;
}

/* The head lines of the changed files that check, unwrap or declare optional the subject. */
static void subject_lines(ev_state *st, evidence_item *it, const char *sym)
{
    char *pc = xasprintf(
        "\\b%1$s\\s*(!=|==)\\s*(nullptr|NULL|None)\\b|\\b(nullptr|NULL)\\s*(!=|==)\\s*%1$s\\b|"
        "\\b%1$s\\s+is\\s+(not\\s+)?None\\b|\\b%1$s\\s*(\\.|->)\\s*(has_value|defined)\\s*\\(|"
        "\\bif\\s*\\(\\s*!?\\s*%1$s\\s*\\)|\\bif\\s+(not\\s+)?%1$s\\s*:|"
        "\\b(assert|TORCH_CHECK|AITER_CHECK)\\b.*\\b%1$s\\b", sym);
    char *pu = xasprintf("\\b%1$s\\s*(\\.\\s*value(_or)?\\s*\\(|->)", sym);
    char *po = xasprintf("optional\\s*<[^;]*>\\s*[&*]?\\s*%1$s\\b|\\b%1$s\\s*:\\s*(typing\\.)?"
                         "Optional\\[|\\b%1$s\\s*:[^=,)]*\\|\\s*None\\b|"
                         "\\b%1$s\\s*(:[^=,)]*)?=\\s*None\\b", sym);
    regex *rc = rx_compile(pc, false, NULL), *ru = rx_compile(pu, false, NULL),
          *ro = rx_compile(po, false, NULL);
    free(pc);
    free(pu);
    free(po);
    size_t nuses = 0, nroles = 0;
    evidence_line uses[USES_MAX];
    size_t sl = strlen(sym);
    for (size_t i = 0; rc && ru && ro && i < st->nfiles; i++) {
        const ev_file *ef = &st->files[i];
        if (!ef->head || ef->is_test)
            continue;
        const char *t = ef->head, *end = t + ef->hlen;
        int line = 1;
        for (const char *ls = t; ls < end; line++) {
            const char *le = memchr(ls, '\n', (size_t)(end - ls));
            size_t len = le ? (size_t)(le - ls) : (size_t)(end - ls);
            const char *hit = sl <= len ? memmem(ls, len, sym, sl) : NULL;
            if (hit) {
                char *code = syntax_text_code(ef->lang, ls, len);
                bool c = rx_test(rc, code), u = rx_test(ru, code), o = rx_test(ro, code);
                const char *role = c && u ? "checked unwrap" : c ? "checks" : o ? "declares optional"
                                 : u ? "unwraps" : NULL;
                bool word = false;
                for (const char *q = code; !word && (q = strstr(q, sym)); q += sl)
                    word = (q == code || !ev_ident_char(q[-1])) && !ev_ident_char(q[sl]);
                if (role) {
                    ev_add_line(it, ef->f->path, line, role, ls, len, call_context(ef, hit, line));
                    nroles++;
                } else if (word && nuses < USES_MAX) {
                    uses[nuses++] = (evidence_line){(char *)ef->f->path, line, NULL,
                                                    xstrndup(ls, len), NULL};
                }
                free(code);
            }
            ls = le ? le + 1 : end;
        }
    }
    for (size_t i = 0; i < nuses; i++) {
        if (!nroles)
            ev_add_line(it, uses[i].path, uses[i].line, "uses", uses[i].text, strlen(uses[i].text), NULL);
        free(uses[i].text);
    }
    if (!nroles && rc)
        it->note = xasprintf("no line of the changed files checks `%s`, unwraps it or declares it "
                             "optional%s", sym, nuses ? "; its uses are listed" : "");
    rx_free(rc);
    rx_free(ru);
    rx_free(ro);
}

/* The innermost base definition of ef around old line n, or NULL. */
static const ev_sig *base_function_at(const ev_file *ef, int n)
{
    const ev_sig *best = NULL;
    for (size_t i = 0; i < ef->bs.n; i++) {
        const ev_sig *s = &ef->bs.items[i];
        if (s->def_first && s->def_first <= n && n <= s->def_last &&
            (!best || s->def_first > best->def_first))
            best = s;
    }
    return best;
}

/* The head definition named name in ef (a declaration when there is none), or NULL. */
static const ev_sig *head_function(const ev_file *ef, const char *name)
{
    const ev_sig *decl = NULL;
    for (size_t i = 0; i < ef->hs.n; i++)
        if (!strcmp(ef->hs.items[i].name, name)) {
            if (ef->hs.items[i].def_first)
                return &ef->hs.items[i];
            if (!decl)
                decl = &ef->hs.items[i];
        }
    return decl;
}

/* When sym is a parameter of the function the guard was in, have its call sites traced (or
 * point at the signature item that already traces them). */
static void guard_function(ev_state *st, evidence_item *it, const ev_file *ef, int old_no,
                          const char *sym)
{
    const ev_sig *b = base_function_at(ef, old_no);
    if (!b || ev_param_index(b, sym) < 0)
        return;
    const ev_sig *h = head_function(ef, b->name);
    if (!h || ev_param_index(h, sym) < 0)
        return;
    if (find_item(st->out, true, b->name, ef->lang)) {
        char *note = xasprintf("%s%s`%s` is a parameter of %s (%s), whose parameters changed: its "
                               "call sites are listed there", it->note ? it->note : "",
                               it->note ? "; " : "", sym, b->name,
                               ef->lang == SYN_CPP ? "C++" : "Python");
        if (!it->note || !str_contains(it->note, note + (it->note ? strlen(it->note) + 2 : 0))) {
            free(it->note);
            it->note = note;
        } else {
            free(note);
        }
        return;
    }
    for (size_t i = 0; i < st->ntargets; i++)
        if (st->targets[i].item_index == (size_t)(it - st->out->items) &&
            !strcmp(st->targets[i].name, b->name))
            return;
    char *one = xstrdup(sym);
    add_target(st, h->name, ef->lang, h, keep_names(st, &one, 1), it);
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* True when the stripped text of a deleted line comes back as an added line anywhere. */
static bool returns_unchanged(ev_state *st, const char *text, size_t len)
{
    if (!st->have_added) {
        size_t cap = 0;
        for (size_t i = 0; i < st->c->nfiles; i++)
            for (size_t k = 0; k < st->c->files[i].nlines; k++) {
                const diff_line *l = &st->c->files[i].lines[k];
                if (l->kind == '+')
                    *ARRAY_PUSH(st->added, st->nadded, cap) = ev_collapse(l->text, l->len);
            }
        if (st->nadded)
            qsort(st->added, st->nadded, sizeof *st->added, str_cmp);
        st->have_added = true;
    }
    char *s = ev_collapse(text, len);
    bool back = st->nadded && bsearch(&s, st->added, st->nadded, sizeof *st->added, str_cmp);
    free(s);
    return back;
}

/* One item per subject of the guards the change deletes. */
static void trace_guards(ev_state *st)
{
    regex *g = rx_compile("\\b(assert|AITER_CHECK|TORCH_CHECK|static_assert)\\b|\\.contiguous\\(\\)|"
                          "\\btorch\\.zeros\\b|\\.zero_\\(\\)", false, NULL);
    for (size_t i = 0; g && i < st->nfiles; i++) {
        const ev_file *ef = &st->files[i];
        if (ef->is_test)
            continue;
        for (size_t k = 0; k < ef->f->nlines; k++) {
            const diff_line *l = &ef->f->lines[k];
            if (l->kind != '-')
                continue;
            char *code = syntax_text_code(ef->lang, l->text, l->len);
            char *sym = rx_test(g, code) && !returns_unchanged(st, l->text, l->len)
                            ? guard_subject(code) : NULL;
            free(code);
            if (!sym)
                continue;
            evidence_item *it = find_item(st->out, false, sym, ef->lang);
            bool fresh = !it;
            if (it || (it = new_item(st->out, false, sym, ef->lang))) {
                char *t = ev_collapse(l->text, l->len);
                ev_add_what(it, xasprintf("%s:%d: %s", ef->f->path, l->new_no, t));
                free(t);
                st->out->nguards++;
                if (fresh)
                    subject_lines(st, it, sym);
                guard_function(st, it, ef, l->old_no, sym);
            }
            free(sym);
        }
    }
    rx_free(g);
}

static int line_cmp(const void *a, const void *b)
{
    const evidence_line *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : x->line - y->line;
}

/* With REVIEW_LSP_TIMING set, the time a step took on stderr (as the engine's steps). */
static void step_time(const char *step, struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (getenv("REVIEW_LSP_TIMING"))
        fprintf(stderr, "review-lsp: evidence %s %.2f ms\n", step,
                (t1.tv_sec - t0->tv_sec) * 1e3 + (t1.tv_nsec - t0->tv_nsec) / 1e6);
    *t0 = t1;
}

void evidence_collect(const change *c, const char *root, evidence_report *out)
{
    memset(out, 0, sizeof *out);
    ev_state st = {.c = c, .out = out};
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    load_files(&st);
    step_time("parse", &t0);
    trace_signatures(&st);
    trace_guards(&st);
    step_time("signatures and guards", &t0);
    for (size_t i = 0; i < st.ntargets; i++)
        st.targets[i].item = &out->items[st.targets[i].item_index];
    out->nfiles = ev_find_calls(c, root, st.targets, st.ntargets);
    step_time("call sites", &t0);
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
