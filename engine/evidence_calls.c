/* The call-site search of the evidence module (evidence_internal.h): every Python and C/C++
 * file of the head tree is read once and scanned for the names of the traced functions; each
 * occurrence that is a call (not the definition, a declaration or a comment) has its argument
 * list split at top-level commas, and the arguments given for the parameters that matter are
 * reported with how they are handled. Lexical on purpose: it must read a whole tree in a few
 * tens of milliseconds and see calls in files that do not parse. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/evidence_internal.h"
#include "engine/tree_walk.h"
#include "engine/util.h"

#define FILE_MAX (2u << 20)
#define ARGS_MAX 8192
#define LOOKBACK_LINES 6

/* True for the file names the search may read (of a parsed language). */
static bool want_code(const char *name)
{
    return syntax_lang_of_path(name) != SYN_NONE;
}

/* True when some target is of the language of path. */
static bool wanted_lang(const ev_target *t, size_t nt, const char *path)
{
    syn_lang l = syntax_lang_of_path(path);
    for (size_t i = 0; i < nt; i++)
        if (t[i].lang == l)
            return true;
    return false;
}

typedef struct path_list {
    char **items;
    size_t n, cap;
} path_list;

static void collect_path(void *data, const char *rel)
{
    path_list *l = data;
    *ARRAY_PUSH(l->items, l->n, l->cap) = xstrdup(rel);
}

/* The head text of rel: the change's for a changed file, else the regular file under root. */
static char *head_of(const change *c, const char *root, const char *rel, size_t *len)
{
    if (root && ev_not_regular(root, rel))
        return NULL;
    const change_file *f = change_find(c, rel);
    if (f) {
        if (f->is_deleted || f->is_skipped)
            return NULL;
        char *why = NULL;
        char *t = change_head_text(c, f, len, &why);
        free(why);
        return t;
    }
    if (!root)
        return NULL;
    char *full = xasprintf("%s/%s", root, rel);
    char *t = read_file(full, FILE_MAX, len, NULL);
    free(full);
    return t;
}

bool ev_not_regular(const char *root, const char *rel)
{
    char *full = xasprintf("%s/%s", root, rel);
    struct stat st;
    bool bad = lstat(full, &st) == 0 && (!S_ISREG(st.st_mode) || (size_t)st.st_size > FILE_MAX);
    free(full);
    return bad;
}

/* True when the occurrence at p (in a line starting at ls) sits in a comment. */
static bool in_comment(syn_lang lang, const char *ls, const char *p)
{
    const char *s = ls;
    while (s < p && (*s == ' ' || *s == '\t'))
        s++;
    if (lang == SYN_CPP && (*s == '*' || (s[0] == '/' && s[1] == '*')))
        return true;
    for (const char *q = ls; q < p; q++)
        if ((lang == SYN_PYTHON && *q == '#') || (lang == SYN_CPP && q[0] == '/' && q[1] == '/'))
            return true;
    return false;
}

/* True when the word ending just before e (text starting at t) is one after which a name
 * followed by "(" is still a call. */
static bool call_keyword_before(const char *t, const char *e)
{
    const char *s = e;
    while (s > t && ev_ident_char(s[-1]))
        s--;
    static const char *const kw[] = {"return", "else", "co_return", "throw", "case", "do",
                                     "new", "delete", "co_await", "co_yield", "sizeof", "await",
                                     "yield", "in", "and", "or", "not", "if", "elif", "while",
                                     "assert", "lambda", "print", NULL};
    for (size_t i = 0; kw[i]; i++)
        if (strlen(kw[i]) == (size_t)(e - s) && !strncmp(s, kw[i], (size_t)(e - s)))
            return true;
    return false;
}

/* Back from s over white space and, on earlier lines, over trailing comments (// or #). */
static const char *skip_back(syn_lang lang, const char *t, const char *s)
{
    for (;;) {
        bool crossed = false;
        while (s > t && (s[-1] == ' ' || s[-1] == '\t' || s[-1] == '\n' || s[-1] == '\r'))
            crossed |= *--s == '\n';
        if (!crossed || s == t)
            return s;
        const char *ls = s;
        while (ls > t && ls[-1] != '\n')
            ls--;
        const char *m = NULL;
        for (const char *q = ls; q < s && !m; q++)
            if ((lang == SYN_PYTHON && *q == '#') || (lang == SYN_CPP && q[0] == '/' && q[1] == '/'))
                m = q;
        if (!m)
            return s;
        s = m;
    }
}

/* True when the name at p is declared or defined there rather than called: Python "def",
 * "class"; C++ a type word (or a '*', '&', '>' after one) before the possibly qualified name.
 * *receiver is set when the name is reached through '.' or '->'. */
static bool is_declaration(syn_lang lang, const char *t, const char *p, bool *receiver)
{
    const char *s = p;
    *receiver = false;
    if (lang == SYN_CPP) /* ns::Cls::name: look before the qualification */
        while (s - t >= 3 && s[-1] == ':' && s[-2] == ':') {
            s -= 2;
            while (s > t && (ev_ident_char(s[-1]) || s[-1] == '>' || s[-1] == '<'))
                s--;
        }
    s = skip_back(lang, t, s);
    if (s == t)
        return false;
    char c = s[-1];
    if (c == '.' || (c == '>' && s - t >= 2 && s[-2] == '-')) {
        *receiver = true;
        return false;
    }
    if (lang == SYN_PYTHON) {
        bool def = s - t >= 3 && ev_ident_char(c) && !strncmp(s - 3, "def", 3) &&
                   (s - t == 3 || !ev_ident_char(s[-4]));
        bool cls = s - t >= 5 && !strncmp(s - 5, "class", 5) && (s - t == 5 || !ev_ident_char(s[-6]));
        return def || cls;
    }
    if (c == '~')
        return true;
    if (ev_ident_char(c))
        return !call_keyword_before(t, s);
    if (c == '*' || c == '&' || c == '>') {
        const char *q = s - 1;
        while (q > t && (q[-1] == '*' || q[-1] == '&' || q[-1] == ' '))
            q--;
        return q > t && (ev_ident_char(q[-1]) || q[-1] == '>') && !call_keyword_before(t, q);
    }
    return false;
}

/* Skip balanced "<...>" (template arguments) at p; returns p when there is none. */
static const char *skip_angles(const char *p, const char *end)
{
    if (p >= end || *p != '<')
        return p;
    int depth = 0;
    for (const char *q = p; q < end && q - p < 256; q++) {
        if (*q == '<')
            depth++;
        else if (*q == '>' && --depth == 0)
            return q + 1;
        else if (*q == ';' || *q == '{' || *q == '}')
            break;
    }
    return p;
}

/* The '(' opening the call's arguments after the name ending at p (C++: template arguments
 * and a <<<...>>> launch configuration may come first), or NULL when it is not a call. */
static const char *call_paren(syn_lang lang, const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (lang == SYN_CPP) {
        if (p + 2 < end && !strncmp(p, "<<<", 3)) {
            const char *e = memmem(p, (size_t)(end - p), ">>>", 3);
            if (!e)
                return NULL;
            p = e + 3;
        } else {
            p = skip_angles(p, end);
            while (p < end && (*p == ' ' || *p == '\t'))
                p++;
            if (p + 2 < end && !strncmp(p, "<<<", 3)) {
                const char *e = memmem(p, (size_t)(end - p), ">>>", 3);
                if (!e)
                    return NULL;
                p = e + 3;
            }
        }
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
            p++;
    }
    return p < end && *p == '(' ? p : NULL;
}

typedef struct call_args {
    char **v;          /* each argument, collapsed */
    size_t n, cap;
} call_args;

static void args_free(call_args *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

/* Split the arguments of the call whose '(' is at open; false when the list does not close
 * within ARGS_MAX bytes. */
static bool split_args(const char *open, const char *end, call_args *a)
{
    int depth = 0;
    char quote = 0;
    const char *start = open + 1;
    for (const char *q = open; q < end && q - open < ARGS_MAX; q++) {
        char c = *q;
        if (quote) {
            if (c == '\\' && q + 1 < end)
                q++;
            else if (c == quote || c == '\n')
                quote = 0;
            continue;
        }
        if (c == '"' || c == '\'')
            quote = c;
        else if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
            char *t = ev_collapse(start, (size_t)(q - start));
            if (*t || a->n)
                *ARRAY_PUSH(a->v, a->n, a->cap) = t;
            else
                free(t);
            return true;
        } else if (c == ',' && depth == 1) {
            *ARRAY_PUSH(a->v, a->n, a->cap) = ev_collapse(start, (size_t)(q - start));
            start = q + 1;
        }
    }
    return false;
}

/* The keyword of a Python argument "name=value" (length in *klen), or NULL. */
static const char *keyword_of(const char *arg, size_t *klen)
{
    size_t k = 0;
    while (ev_ident_char(arg[k]))
        k++;
    size_t e = k;
    while (arg[e] == ' ')
        e++;
    if (!k || arg[e] != '=' || arg[e + 1] == '=')
        return NULL;
    *klen = k;
    return arg;
}

/* The line (1-based) of offset off in t, counting from a known (line, offset) pair. */
static int line_at(const char *t, size_t off, int *cache_line, size_t *cache_off)
{
    if (off < *cache_off) {
        *cache_line = 1;
        *cache_off = 0;
    }
    for (size_t i = *cache_off; i < off; i++)
        if (t[i] == '\n')
            (*cache_line)++;
    *cache_off = off;
    return *cache_line;
}

/* A line of t checking ident (is not None, != nullptr, has_value, if ident) within the
 * LOOKBACK_LINES lines before the one starting at ls; its line number, or 0. */
static int checked_before(const char *t, const char *ls, int line, const char *ident)
{
    const char *p = ls;
    size_t il = strlen(ident);
    for (int back = 1; back <= LOOKBACK_LINES && p > t; back++) {
        const char *e = p - 1;
        p = e;
        while (p > t && p[-1] != '\n')
            p--;
        for (const char *q = p; q + il <= e; q++) {
            if (strncmp(q, ident, il) || (q > p && ev_ident_char(q[-1])) || ev_ident_char(q[il]))
                continue;
            const char *after = q + il;
            size_t rest = (size_t)(e - after);
            char *tail = xstrndup(after, rest);
            char *head = xstrndup(p, (size_t)(q - p));
            bool chk = str_starts(str_lskip(tail), "is not None") ||
                       str_starts(str_lskip(tail), "!= nullptr") || str_contains(tail, "has_value") ||
                       ((str_contains(head, "if ") || str_contains(head, "if(")) &&
                        (str_starts(str_lskip(tail), ")") || str_starts(str_lskip(tail), ":")));
            free(tail);
            free(head);
            if (chk)
                return line - back;
        }
    }
    return 0;
}

/* What a call passes for parameter pi of the target (a phrase for the evidence line). */
static void describe_arg(const ev_target *tg, const call_args *a, bool receiver, int pi,
                         const char *t, const char *ls, int line, strbuf *out)
{
    const ev_param *p = &tg->sig->p[pi];
    const char *value = NULL;
    for (size_t i = 0; i < a->n && !value; i++) {
        size_t kl;
        const char *kw = tg->lang == SYN_PYTHON ? keyword_of(a->v[i], &kl) : NULL;
        if (kw && kl == strlen(p->name) && !strncmp(kw, p->name, kl))
            value = str_lskip(strchr(a->v[i], '=') + 1);
    }
    int pos = p->kw_only ? -1 : pi - (tg->sig->is_method && receiver ? 1 : 0);
    bool splat = false;
    for (size_t i = 0; !value && pos >= 0 && i < a->n; i++) {
        size_t kl;
        if (a->v[i][0] == '*') {
            splat = true;
            break;
        }
        if (tg->lang == SYN_PYTHON && keyword_of(a->v[i], &kl))
            break;
        if ((int)i == pos)
            value = a->v[i];
    }
    if (out->len)
        sb_adds(out, "; ");
    char *label = *p->name ? xstrdup(p->name) : xasprintf("parameter %d", pi + 1);
    if (value) {
        sb_addf(out, "%s ← %s", label, value);
        const char *how = ev_value_handling(value);
        int at = 0;
        if (!how) {
            size_t k = 0;
            while (ev_ident_char(value[k]))
                k++;
            if (k && !value[k])
                at = checked_before(t, ls, line, value);
        }
        if (how)
            sb_addf(out, " (%s)", how);
        else if (at)
            sb_addf(out, " (checked at line %d)", at);
    } else if (splat) {
        sb_addf(out, "%s: passed through a *args/**kwargs splat", label);
    } else if (p->dflt) {
        sb_addf(out, "%s not passed (default %s)", label, p->dflt);
    } else {
        sb_addf(out, "%s not passed, and it has no default", label);
    }
    free(label);
}

/* Record the call of tg whose name starts at p. */
static void record_call(const ev_target *tg, const char *rel, const char *t, const char *p,
                        const char *open, const char *end, int line, bool receiver)
{
    call_args a = {0};
    if (!split_args(open, end, &a)) {
        args_free(&a);
        return;
    }
    const char *ls = p;
    while (ls > t && ls[-1] != '\n')
        ls--;
    const char *le = strchr(ls, '\n');
    strbuf d;
    sb_init(&d);
    for (size_t i = 0; tg->params && tg->params[i]; i++) {
        int pi = ev_param_index(tg->sig, tg->params[i]);
        if (pi >= 0)
            describe_arg(tg, &a, receiver, pi, t, ls, line, &d);
    }
    int takes = (int)tg->sig->np - (tg->sig->is_method && receiver ? 1 : 0);
    bool splat = false;
    for (size_t i = 0; i < tg->sig->np; i++)
        splat |= tg->sig->p[i].splat;
    if (!splat && (int)a.n > takes)
        sb_addf(&d, "%spasses %zu arguments, the head takes %d", d.len ? "; " : "", a.n, takes);
    ev_add_line(tg->item, rel, line, "call", ls, le ? (size_t)(le - ls) : strlen(ls),
                d.len ? sb_detach(&d) : NULL);
    sb_free(&d);
    args_free(&a);
}

/* Scan one file's text for calls of the targets of its language. */
static void scan_file(const char *rel, const char *t, size_t len, ev_target *tg, size_t nt)
{
    syn_lang lang = syntax_lang_of_path(rel);
    const char *end = t + len;
    for (size_t k = 0; k < nt; k++) {
        if (tg[k].lang != lang)
            continue;
        size_t nl = strlen(tg[k].name);
        int cline = 1;
        size_t coff = 0;
        for (const char *p = t; (p = memmem(p, (size_t)(end - p), tg[k].name, nl)); p += nl) {
            if ((p > t && ev_ident_char(p[-1])) || (p + nl < end && ev_ident_char(p[nl])))
                continue;
            const char *open = call_paren(lang, p + nl, end);
            bool receiver;
            if (!open || is_declaration(lang, t, p, &receiver))
                continue;
            const char *ls = p;
            while (ls > t && ls[-1] != '\n')
                ls--;
            if (in_comment(lang, ls, p))
                continue;
            int line = line_at(t, (size_t)(p - t), &cline, &coff);
            record_call(&tg[k], rel, t, p, open, end, line, receiver);
        }
    }
}

size_t ev_find_calls(const change *c, const char *root, ev_target *t, size_t nt)
{
    if (!nt)
        return 0;
    path_list paths = {0};
    if (root)
        tree_walk(root, want_code, collect_path, &paths);
    for (size_t i = 0; i < c->nfiles; i++) { /* changed files the walk cannot see */
        const change_file *f = &c->files[i];
        bool listed = false;
        for (size_t k = 0; k < paths.n && !listed; k++)
            listed = !strcmp(paths.items[k], f->path);
        if (!listed && want_code(f->path) && !tree_walk_in_skipped_dir(f->path))
            collect_path(&paths, f->path);
    }
    size_t nread = 0;
    for (size_t i = 0; i < paths.n; i++) {
        size_t len = 0;
        char *text = wanted_lang(t, nt, paths.items[i]) ? head_of(c, root, paths.items[i], &len)
                                                        : NULL;
        if (text) {
            nread++;
            scan_file(paths.items[i], text, len, t, nt);
        }
        free(text);
        free(paths.items[i]);
    }
    free(paths.items);
    return nread;
}
