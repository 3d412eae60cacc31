/* The removed guards of the evidence report (evidence.h): the subject of every guard line the
 * change deletes (not in a test file, not re-added as it was), the head lines of the changed
 * files that check it, unwrap it (with the call and argument such a line sits in) or declare it
 * optional, and, when the subject is a parameter of the function the guard was in, that
 * function's call sites (through evidence_calls.c). */
#include <stdlib.h>
#include <string.h>

#include "engine/evidence_internal.h"
#include "engine/regex.h"
#include "engine/util.h"

#define USES_MAX 6

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
    if (ev_find_item(st->out, true, b->name, ef->lang)) {
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
    ev_add_target(st, h->name, ef->lang, h, ev_keep_names(st, &one, 1), it);
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
void ev_trace_guards(ev_state *st)
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
            evidence_item *it = ev_find_item(st->out, false, sym, ef->lang);
            bool fresh = !it;
            if (it || (it = ev_new_item(st->out, false, sym, ef->lang))) {
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

