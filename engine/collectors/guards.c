/* The removed-guards collector (rules D4 and B7): finds the asserts, TORCH_CHECK/AITER_CHECK,
 * static_asserts, zero-initialisations (torch.zeros, ::zeros, .zero_(), memset) and
 * .contiguous() calls that the change deletes, outside comments and strings, and sorts each
 * into moved (the same statement is added elsewhere), changed (an added guard on the same
 * subject with a different condition) or gone. Gone and changed guards are findings on the
 * head line where the deletion happened; moved ones are hints that say where they went.
 *
 * Better than the original's line regex: comments and string contents are blanked first (from
 * the tree when the file parses), multi-line guards are joined into one statement, the
 * "same subject" test ignores message strings and also pairs guards that share their checked
 * variable, a changed bound says which way it moved (tightened → B7, loosened → D4), a
 * zeros→empty swap is tied to the comment that required the zeros (aiter#4043), and a guard
 * whose subject is still checked in the head of a changed file drops to a hint (aiter#5143).
 * Deleted guards in test files are test assertions, not invariants, and are not reported. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collector.h"
#include "engine/syntax.h"

#define QUOTE_MAX 120
#define JOIN_MAX 8
#define EVIDENCE_MAX 3
#define ZERO_NEAR 8

typedef enum gkind { GK_NONE, GK_CHECK, GK_ZERO, GK_CONTIG } gkind;

/* A changed file as the collector sees it: head and base text, parsed when possible. */
typedef struct gfile {
    const change_file *f;
    syn_lang lang;
    char *head;
    size_t head_len;
    const syntax_doc *hdoc; /* from the shared cache, or owned below */
    const syntax_doc *bdoc;
    syntax_doc *hown, *bown;
    char **dcode;        /* per diff line: its code (comments gone, strings blanked) */
    char **dtext;        /* per diff line: its text with comments blanked, strings kept */
    bool is_test;
} gfile;

/* A guard statement (deleted or added), or for added lines any statement. */
typedef struct gstmt {
    gfile *gf;
    size_t di;           /* its first diff line */
    int head_line;       /* head line (for a deleted statement: where the deletion happened) */
    char *text;          /* as written, lines joined by one space, stripped */
    char *norm;          /* without white space, for equality */
    char *code;          /* code view, joined */
    gkind kind;
    bool is_empty_alloc; /* an added allocation with torch.empty / ::empty / new_empty */
    char *target;        /* assignment target, or NULL */
    char *subject;       /* the checked symbol, or NULL */
} gstmt;

typedef struct gstmt_list {
    gstmt *items;
    size_t n, cap;
} gstmt_list;

/* --- text helpers ------------------------------------------------------------------------ */

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Position of word w in s as a whole identifier (or as a prefix of one when prefix is set), or
 * NULL. */
static const char *find_word(const char *s, const char *w, bool prefix)
{
    size_t n = strlen(w);
    for (const char *p = strstr(s, w); p; p = strstr(p + 1, w)) {
        if (p > s && ident_char(p[-1]))
            continue;
        if (!prefix && ident_char(p[n]))
            continue;
        return p;
    }
    return NULL;
}

/* The kind of guard a line of code holds (strings and comments already blanked). */
static gkind guard_kind(const char *code)
{
    const char *p = str_lskip(code);
    if (*p == '#') {
        /* a preprocessor line: `#define AITER_CHECK(...)` defines the guard, it is none */
        p = str_lskip(p + 1);
        if (str_starts(p, "define") || str_starts(p, "include") || str_starts(p, "undef"))
            return GK_NONE;
    }
    if (find_word(code, "assert", false) || find_word(code, "static_assert", false) ||
        find_word(code, "_Static_assert", false) || find_word(code, "TORCH_CHECK", true) ||
        find_word(code, "AITER_CHECK", true) || find_word(code, "TORCH_INTERNAL_ASSERT", true))
        return GK_CHECK;
    if (strstr(code, "torch.zeros") || strstr(code, "::zeros") || strstr(code, ".new_zeros(") ||
        strstr(code, ".zero_()") || find_word(code, "memset", false) ||
        find_word(code, "hipMemset", false) || find_word(code, "hipMemsetAsync", false))
        return GK_ZERO;
    if (strstr(code, ".contiguous()"))
        return GK_CONTIG;
    return GK_NONE;
}

/* True when an added line of code allocates without initialising. */
static bool is_empty_alloc(const char *code)
{
    return strstr(code, "torch.empty") || strstr(code, "::empty") || strstr(code, ".new_empty(") ||
           strstr(code, "empty_like(");
}

/* A copy of s without any white space. */
static char *no_space(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    for (; *s; s++)
        if (!isspace((unsigned char)*s))
            sb_addc(&sb, *s);
    return sb_detach(&sb);
}

/* A copy of s, stripped, shortened to QUOTE_MAX bytes with "…" when longer. */
static char *quote(const char *s)
{
    char *t = str_strip(s);
    if (strlen(t) > QUOTE_MAX) {
        size_t cut = QUOTE_MAX;
        while (cut > 0 && ((unsigned char)t[cut] & 0xC0) == 0x80)
            cut--;
        t[cut] = '\0';
        char *r = xasprintf("%s…", t);
        free(t);
        return r;
    }
    return t;
}

/* Net count of '(' minus ')' (and '[' ']') in code. */
static int paren_balance(const char *code)
{
    int d = 0;
    for (; *code; code++) {
        if (*code == '(' || *code == '[' || *code == '{')
            d++;
        else if (*code == ')' || *code == ']' || *code == '}')
            d--;
    }
    return d;
}

/* True when a path is a test (its asserts check results, they guard nothing). */
static bool is_test_path(const char *p)
{
    const char *base = strrchr(p, '/');
    base = base ? base + 1 : p;
    return str_starts(p, "op_tests/") || str_starts(p, "tests/") || str_starts(p, "test/") ||
           str_contains(p, "/tests/") || str_contains(p, "/test/") || str_starts(base, "test_") ||
           str_ends(p, "_test.py") || str_ends(p, "_test.cpp") || str_ends(p, "_test.cu");
}

/* Noise identifiers that say nothing about what a guard checks (the reference's list, plus
 * C++ words and the guard keywords themselves). */
static bool is_noise(const char *w)
{
    static const char *const noise[] = {
        "not", "is", "None", "True", "False", "and", "or", "in", "if", "else", "self", "len",
        "int", "float", "str", "bool", "tuple", "list", "dict", "set", "all", "any",
        "isinstance", "type", "return", "raise", "sizeof", "static_assert", "torch", "aiter",
        "np", "dtypes", "assert", "TORCH_CHECK", "AITER_CHECK", "TORCH_INTERNAL_ASSERT",
        "_Static_assert", "nullptr", "NULL", "true", "false", "const", "auto", "std", "tl",
        "gl", "ck_tile", "static_cast", "reinterpret_cast", "decltype", "this", "none", "null",
        "true", "false", "and", "or", "not", NULL,
    };
    for (int i = 0; noise[i]; i++)
        if (strcmp(w, noise[i]) == 0)
            return true;
    return str_starts(w, "TORCH_CHECK") || str_starts(w, "AITER_CHECK");
}

/* Generic attribute/method names: part of a check's property, never its subject. */
static bool is_generic_attr(const char *w)
{
    static const char *const g[] = {
        "size", "sizes", "numel", "shape", "dtype", "device", "dim", "ndim", "stride",
        "strides", "is_contiguous", "contiguous", "data_ptr", "item", "value", "has_value",
        "is_cuda", "scalar_type", "element_size", "nbytes", "get", "data", NULL,
    };
    for (int i = 0; g[i]; i++)
        if (strcmp(w, g[i]) == 0)
            return true;
    return false;
}

/* The code after a guard keyword: from just past "assert" / "TORCH_CHECK(" etc. */
static const char *after_keyword(const char *code)
{
    static const char *const kw[] = {"static_assert", "_Static_assert", "TORCH_INTERNAL_ASSERT",
                                     "TORCH_CHECK", "AITER_CHECK", "assert", NULL};
    for (int i = 0; kw[i]; i++) {
        const char *p = find_word(code, kw[i], i >= 2 && i <= 4);
        if (!p)
            continue;
        p += strlen(kw[i]);
        while (ident_char(*p))
            p++; /* TORCH_CHECK_EQ */
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '(')
            p++;
        return p;
    }
    return code;
}

/* The condition part of a check: after the keyword, up to its first top-level ','. */
static char *condition_of(const char *code)
{
    const char *p = after_keyword(code);
    int depth = 0;
    const char *e = p;
    for (; *e; e++) {
        if (*e == '(' || *e == '[' || *e == '{')
            depth++;
        else if (*e == ')' || *e == ']' || *e == '}') {
            if (depth == 0)
                break;
            depth--;
        } else if (*e == ',' && depth == 0)
            break;
    }
    return xstrndup(p, (size_t)(e - p));
}

typedef struct words {
    char **w;
    size_t n, cap;
} words;

static void words_free(words *ws)
{
    for (size_t i = 0; i < ws->n; i++)
        free(ws->w[i]);
    free(ws->w);
    memset(ws, 0, sizeof *ws);
}

static bool words_has(const words *ws, const char *w)
{
    for (size_t i = 0; i < ws->n; i++)
        if (strcmp(ws->w[i], w) == 0)
            return true;
    return false;
}

/* Identifiers of code (not numbers), de-duplicated, skipping noise; with attrs false, also
 * skipping identifiers that follow '.' or '->' (attribute and method names); min_len bounds
 * their length; lower folds case. */
static void idents(const char *code, bool attrs, size_t min_len, bool lower, words *out)
{
    for (const char *p = code; *p;) {
        if (!(isalpha((unsigned char)*p) || *p == '_') || (p > code && ident_char(p[-1]))) {
            p++;
            continue;
        }
        const char *e = p;
        while (ident_char(*e))
            e++;
        bool after_dot = (p > code && p[-1] == '.') || (p > code + 1 && p[-2] == '-' && p[-1] == '>');
        char *w = xstrndup(p, (size_t)(e - p));
        if (lower)
            for (char *c = w; *c; c++)
                *c = (char)tolower((unsigned char)*c);
        if (strlen(w) >= min_len && !is_noise(w) && (attrs || !after_dot) && !words_has(out, w))
            *ARRAY_PUSH(out->w, out->n, out->cap) = w;
        else
            free(w);
        p = e;
    }
}

/* The symbol a statement guards: for a check, the first non-noise name in its condition; for
 * a zero-init or contiguous call, the assignment target or the receiver. */
static char *subject_of(const char *code, gkind k, const char *target)
{
    if (k == GK_CHECK) {
        /* the first name that is not noise, not an attribute and not a called function */
        char *cond = condition_of(code);
        char *r = NULL;
        for (const char *p = cond; *p && !r;) {
            if (!(isalpha((unsigned char)*p) || *p == '_') || (p > cond && ident_char(p[-1]))) {
                p++;
                continue;
            }
            const char *e = p;
            while (ident_char(*e))
                e++;
            while (e[0] == ':' && e[1] == ':' && (isalpha((unsigned char)e[2]) || e[2] == '_')) {
                e += 2; /* T::K_TILES, ns::kMax: the qualified name is the subject */
                while (ident_char(*e))
                    e++;
            }
            const char *after = e;
            while (*after == ' ' || *after == '\t')
                after++;
            bool attr = (p > cond && p[-1] == '.') || (p > cond + 1 && p[-2] == '-' && p[-1] == '>') ||
                        (p > cond + 1 && p[-2] == ':' && p[-1] == ':');
            char *w = xstrndup(p, (size_t)(e - p));
            bool templ = *e == '<' && e[1] != '=' && e[1] != '<'; /* foo<T>(x), not a < b */
            if (!attr && *after != '(' && !templ && !is_noise(w) && !is_generic_attr(w))
                r = w;
            else
                free(w);
            p = e;
        }
        free(cond);
        return r;
    }
    if (target)
        return xstrdup(target);
    const char *m = strstr(code, k == GK_ZERO ? ".zero_()" : ".contiguous()");
    if (m) {
        const char *s = m;
        while (s > code && ident_char(s[-1]))
            s--;
        if (s < m)
            return xstrndup(s, (size_t)(m - s));
    }
    return NULL;
}

/* The assignment target of a statement ("out" in `out = torch.zeros(...)`,
 * `auto out = torch::zeros(...)`, `self.out: T = ...`), or NULL. */
static char *target_of(const char *code)
{
    int depth = 0;
    for (const char *p = code; *p; p++) {
        if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if (*p == ')' || *p == ']' || *p == '}')
            depth--;
        else if (*p == '=' && depth == 0 && p[1] != '=' && p > code &&
                 !strchr("=!<>+-*/%&|^", p[-1])) {
            const char *e = p;
            while (e > code && isspace((unsigned char)e[-1]))
                e--;
            /* a Python annotation `x: T = ...`: the name is before the ':' */
            const char *colon = NULL;
            for (const char *q = code; q < e; q++)
                if (*q == ':' && q[1] != ':' && (q == code || q[-1] != ':'))
                    colon = q;
            if (colon) {
                e = colon;
                while (e > code && isspace((unsigned char)e[-1]))
                    e--;
            }
            const char *s = e;
            while (s > code && ident_char(s[-1]))
                s--;
            return s < e ? xstrndup(s, (size_t)(e - s)) : NULL;
        }
    }
    return NULL;
}

/* The number right after the first occurrence of op (as an operator) in code; false if none. */
static bool bound_after(const char *code, const char *op, long long *v)
{
    size_t n = strlen(op);
    for (const char *p = strstr(code, op); p; p = strstr(p + 1, op)) {
        if (p > code && strchr("<>=!", p[-1]))
            continue;
        if (strchr("<>=", p[n]) && !(n == 1 && op[0] == '%'))
            continue;
        const char *q = p + n;
        while (*q == ' ' || *q == '\t')
            q++;
        if (!isdigit((unsigned char)*q))
            continue;
        char *end;
        *v = strtoll(q, &end, 0);
        return true;
    }
    return false;
}

/* True when code tests a name against None / nullptr / has_value (a presence check). */
static bool is_presence_check(const char *code)
{
    return strstr(code, "is not None") || strstr(code, "is None") || strstr(code, "nullptr") ||
           strstr(code, "has_value") || find_word(code, "NULL", false);
}

/* True when a condition is one call of a named function (`is_aligned(x, 16)`), not a method
 * of the subject. */
static bool named_predicate(const char *cond)
{
    const char *p = str_lskip(cond);
    if (!(isalpha((unsigned char)*p) || *p == '_'))
        return false;
    while (ident_char(*p) || *p == ':')
        p++;
    while (*p == ' ')
        p++;
    if (*p != '(')
        return false;
    int depth = 0;
    for (; *p; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')' && --depth == 0)
            return !*str_lskip(p + 1);
    }
    return false;
}

/* Describe how a check changed, and whether it got stricter (B7) rather than weaker or just
 * different (D4). */
static char *describe_change(const char *old_code, const char *new_code, bool *stricter)
{
    static const char *const ops[] = {"<=", ">=", "<", ">", "%", NULL};
    *stricter = false;
    char *oc = condition_of(old_code), *nc = condition_of(new_code);
    char *r = NULL;
    for (int i = 0; ops[i] && !r; i++) {
        long long a, b;
        if (!bound_after(oc, ops[i], &a) || !bound_after(nc, ops[i], &b) || a == b)
            continue;
        bool tighter = ops[i][0] == '<' ? b < a : ops[i][0] == '>' ? b > a : (a && b > a && b % a == 0);
        bool looser = ops[i][0] == '<' ? b > a : ops[i][0] == '>' ? b < a : (b && a > b && a % b == 0);
        if (tighter) {
            *stricter = true;
            r = xasprintf("bound tightened: %s %lld became %s %lld", ops[i], a, ops[i], b);
        } else if (looser) {
            r = xasprintf("bound loosened: %s %lld became %s %lld", ops[i], a, ops[i], b);
        }
    }
    if (!r && strstr(oc, "==") &&
        (find_word(nc, "in", false) || strstr(nc, "||") || find_word(nc, "or", false)))
        r = xstrdup("an equality became a membership test: more values now pass");
    if (!r && is_presence_check(oc) && !is_presence_check(nc))
        r = xstrdup("a presence check became a value check: nothing checks the absent case now");
    if (!r && named_predicate(nc) && !named_predicate(oc)) {
        char *name = xstrndup(str_lskip(nc), strcspn(str_lskip(nc), " \t("));
        r = xasprintf("replaced by the named predicate `%s`: check that it covers the old condition",
                      name);
        free(name);
        *stricter = false;
    }
    if (!r && !strstr(nc, oc) && strstr(oc, nc) && strlen(nc) < strlen(oc))
        r = xstrdup("part of the condition was dropped");
    if (!r)
        r = xstrdup("same subject, different condition");
    free(oc);
    free(nc);
    return r;
}

/* --- reading the change ------------------------------------------------------------------ */

/* Load a file's head and base and compute every diff line's code view. */
static void gfile_load(collector_ctx *ctx, gfile *gf, const change_file *f, int *nbase_missing)
{
    memset(gf, 0, sizeof *gf);
    gf->f = f;
    gf->lang = syntax_lang_of_path(f->path);
    gf->is_test = is_test_path(f->path);
    char *cause = NULL;
    if (!f->is_deleted) {
        gf->head = change_head_text(ctx->chg, f, &gf->head_len, &cause);
        free(cause);
        cause = NULL;
    }
    if (gf->lang != SYN_NONE && gf->head) {
        gf->hdoc = collector_doc(ctx, f, false, gf->head, gf->head_len, &gf->hown, &cause);
        free(cause);
        cause = NULL;
    }
    if (gf->lang != SYN_NONE && !f->is_new) {
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
    gf->dcode = xcalloc(f->nlines ? f->nlines : 1, sizeof *gf->dcode);
    gf->dtext = xcalloc(f->nlines ? f->nlines : 1, sizeof *gf->dtext);
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind == ' ') {
            /* context lines are never read as code */
            gf->dcode[i] = xstrdup("");
            gf->dtext[i] = xstrdup("");
            continue;
        }
        char *c = NULL;
        const syntax_doc *d = l->kind == '-' ? gf->bdoc : gf->hdoc;
        int no = l->kind == '-' ? l->old_no : l->new_no;
        syn_lang lx0 = gf->lang == SYN_NONE ? SYN_CPP : gf->lang;
        char *lex = syntax_text_code(lx0, l->text, l->len);
        /* the tree decides only where it matters: lines that look like guards (which may sit
         * in a docstring or block comment), comment lines (which may be evidence) and
         * docstring quotes */
        bool need_tree = guard_kind(lex) != GK_NONE || is_empty_alloc(lex) || !*str_lskip(lex) ||
                         memmem(l->text, l->len, "\"\"\"", 3) || memmem(l->text, l->len, "'''", 3);
        free(lex);
        if (d && need_tree) {
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
    for (size_t i = 0; i < gf->f->nlines; i++) {
        free(gf->dcode[i]);
        free(gf->dtext[i]);
    }
    free(gf->dcode);
    free(gf->dtext);
    free(gf->head);
    syntax_free(gf->hown);
    syntax_free(gf->bown);
}

/* Length of the longest run of bytes shared by a[0..an) and b[0..bn), white space runs
 * counted as they are; capped inputs keep it cheap. */
static size_t text_run(const char *a, size_t an, const char *b, size_t bn)
{
    if (an > 160)
        an = 160;
    if (bn > 160)
        bn = 160;
    size_t best = 0, prev[161] = {0}, cur[161] = {0};
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

/* The head line for deleted diff line i: in a block of deletions followed by additions (a
 * rewrite), the added line most like it; otherwise where the deletion happened. Clamped to
 * the head's last line. */
static int deleted_head_line(const gfile *gf, size_t i)
{
    const change_file *f = gf->f;
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
    int last = gf->hdoc ? gf->hdoc->nlines : 0;
    if (last > 0 && line > last)
        line = last;
    return line < 1 ? 1 : line;
}

/* Build the statement starting at diff line i of kind k: the line joined with the following
 * lines of the same kind while brackets are open or the line continues. Returns how many
 * diff lines it took. */
static size_t build_stmt(gfile *gf, size_t i, char kind, gstmt *s)
{
    const change_file *f = gf->f;
    strbuf text, code, bare;
    sb_init(&text);
    sb_init(&code);
    sb_init(&bare);
    /* only a guard is joined with its continuation lines: the keyword must be on line i */
    bool join = guard_kind(gf->dcode[i]) != GK_NONE;
    size_t j = i;
    int depth = 0;
    for (; j < f->nlines && j - i < JOIN_MAX && f->lines[j].kind == kind; j++) {
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
        }
        if (text.len)
            sb_addc(&text, ' ');
        sb_adds(&text, ts);
        if (code.len)
            sb_addc(&code, ' ');
        sb_adds(&code, cs);
        sb_adds(&bare, bs);
        depth += paren_balance(gf->dcode[j]);
        bool cont = gf->lang == SYN_PYTHON && str_ends(cs, "\\");
        bool ends = str_ends(cs, ";");
        free(t);
        free(ts);
        free(cs);
        free(bs);
        if (!join || (depth <= 0 && !cont) || (depth <= 0 && ends)) {
            j++;
            break;
        }
    }
    memset(s, 0, sizeof *s);
    s->gf = gf;
    s->di = i;
    s->text = sb_detach(&text);
    s->code = sb_detach(&code);
    s->norm = no_space(bare.buf ? bare.buf : "");
    s->kind = guard_kind(s->code);
    /* only a deleted guard needs its exact anchor (the similarity search costs) */
    s->head_line = kind == '-' && s->kind != GK_NONE ? deleted_head_line(gf, i) : f->lines[i].new_no;
    s->is_empty_alloc = kind == '+' && is_empty_alloc(s->code);
    s->target = target_of(s->code);
    s->subject = subject_of(s->code, s->kind, s->target);
    sb_free(&text);
    sb_free(&code);
    sb_free(&bare);
    return j > i ? j - i : 1;
}

/* Free a statement's strings. */
static void gstmt_clear(gstmt *s)
{
    free(s->text);
    free(s->norm);
    free(s->code);
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

/* --- classification ---------------------------------------------------------------------- */

/* How well an added guard matches a deleted one on subject: 0 for no match, higher for a
 * better one (shared checked symbol counts most, then shared words, then place). */
static int subject_score(const gstmt *del, const gstmt *add)
{
    /* a zero-init or contiguous call is kept (same target) or not: it has no "bound" */
    if (add->kind != del->kind || del->kind != GK_CHECK || strcmp(add->norm, del->norm) == 0)
        return 0;
    char *dc = del->kind == GK_CHECK ? condition_of(del->code) : xstrdup(del->code);
    char *ac = add->kind == GK_CHECK ? condition_of(add->code) : xstrdup(add->code);
    words dw = {0}, aw = {0};
    idents(dc, true, 4, true, &dw);
    idents(ac, true, 4, true, &aw);
    int overlap = 0;
    for (size_t i = 0; i < dw.n; i++)
        if (words_has(&aw, dw.w[i]))
            overlap++;
    words_free(&dw);
    words_free(&aw);
    free(dc);
    free(ac);
    bool same_subject = del->subject && add->subject && strcmp(del->subject, add->subject) == 0;
    if (del->kind != GK_CHECK && del->target && add->target && strcmp(del->target, add->target) != 0)
        return 0;
    if (!same_subject && overlap < 2)
        return 0;
    int score = 10 * overlap + (same_subject ? 50 : 0);
    if (add->gf == del->gf) {
        int dist = abs(add->head_line - del->head_line);
        score += 20 + (dist < 20 ? 20 - dist : 0);
    }
    return score;
}

/* The symbol with the attribute chain that follows it in code, without white space:
 * "q.dtype" in `q.dtype == x`, "x.shape[1]", "p->size(0)"; NULL when sym is absent. */
static char *property_key(const char *code, const char *sym)
{
    char *n = no_space(code);
    const char *p = find_word(n, sym, false);
    if (!p) {
        free(n);
        return NULL;
    }
    const char *e = p + strlen(sym);
    for (;;) {
        if (*e == '.' || (*e == '-' && e[1] == '>')) {
            e += *e == '.' ? 1 : 2;
            while (ident_char(*e))
                e++;
        } else if (*e == '[' || *e == '(') {
            char open = *e, close = open == '[' ? ']' : ')';
            int depth = 0;
            for (; *e; e++) {
                if (*e == open)
                    depth++;
                else if (*e == close && --depth == 0) {
                    e++;
                    break;
                }
            }
        } else {
            break;
        }
    }
    char *r = xstrndup(p, (size_t)(e - p));
    free(n);
    return r;
}

/* True when code contains fmt (one %s) filled with sym. */
static bool has_filled(const char *code, const char *fmt, const char *sym)
{
    char *pat = xasprintf(fmt, sym);
    const char *p = strstr(code, pat);
    /* the symbol must not be the tail of a longer name */
    bool r = false;
    for (; p; p = strstr(p + 1, pat)) {
        if (fmt[0] == '%' && p > code && ident_char(p[-1]))
            continue;
        r = true;
        break;
    }
    free(pat);
    return r;
}

/* True when code tests sym for presence (None, nullptr, has_value, truthiness). */
static bool tests_presence(const char *code, const char *sym)
{
    return has_filled(code, "%s is not None", sym) || has_filled(code, "%s is None", sym) ||
           has_filled(code, "%s != nullptr", sym) || has_filled(code, "%s == nullptr", sym) ||
           has_filled(code, "%s.has_value()", sym) || has_filled(code, "!%s", sym) ||
           has_filled(code, "if %s:", sym) || has_filled(code, "if not %s", sym) ||
           has_filled(code, "if (%s)", sym);
}

/* True when the head line code still enforces what a deleted guard enforced on its subject:
 * the same kind of check on the same symbol somewhere else. */
static bool enforces(const gstmt *del, const char *code)
{
    const char *sym = del->subject;
    if (!sym || !find_word(code, sym, false))
        return false;
    if (del->kind == GK_ZERO)
        return has_filled(code, "%s.zero_()", sym) || has_filled(code, "%s.fill_(0", sym) ||
               (guard_kind(code) == GK_ZERO && !is_empty_alloc(code));
    if (del->kind == GK_CONTIG)
        return strstr(code, "contiguous()") != NULL;
    char *cond = condition_of(del->code);
    words dw = {0};
    idents(cond, true, 1, false, &dw);
    bool presence = is_presence_check(cond) || (dw.n == 1 && strcmp(dw.w[0], sym) == 0);
    bool r = false;
    if (presence) {
        r = tests_presence(code, sym);
    } else if (guard_kind(code) == GK_CHECK) {
        /* another check must test the same property of the symbol (`q.dtype`, `x.shape[1]`)
         * against the same thing (share a name besides those), or be the same condition */
        char *hc = condition_of(code);
        char *key = property_key(cond, sym);
        char *n1 = no_space(cond), *n2 = no_space(hc);
        if (strcmp(n1, n2) == 0) {
            r = true;
        } else if (key && strstr(n2, key)) {
            words hw = {0};
            idents(hc, true, 1, false, &hw);
            for (size_t i = 0; i < dw.n && !r; i++)
                if (strcmp(dw.w[i], sym) != 0 && !strstr(key, dw.w[i]) && words_has(&hw, dw.w[i]))
                    r = true;
            words_free(&hw);
        }
        free(n1);
        free(n2);
        free(key);
        free(hc);
    }
    words_free(&dw);
    free(cond);
    return r;
}

/* True when a comment's text says the memory must be zero or is read back. */
static bool comment_requires_zero(const char *text)
{
    char *t = xstrdup(text);
    for (char *c = t; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    bool r = strstr(t, "read back") || strstr(t, "reads back") || strstr(t, "read as zero") ||
             strstr(t, "zero-init") || strstr(t, "zero init") || strstr(t, "zeroed") ||
             strstr(t, "must be zero") || strstr(t, "must be 0") || strstr(t, "uninitiali") ||
             strstr(t, "garbage") ||
             (strstr(t, "must") && (strstr(t, "zero") || strstr(t, "read")));
    free(t);
    return r;
}

/* A comment line in the diff (added or deleted) is one whose code view is blank but whose
 * text is not. */
static bool is_comment_line(const gfile *gf, size_t i)
{
    const diff_line *l = &gf->f->lines[i];
    const char *c = str_lskip(gf->dcode[i]);
    const char *t = l->text;
    while (*t == ' ' || *t == '\t')
        t++;
    return !*c && *t && *t != '\r';
}

typedef struct zero_evidence {
    bool found;
    bool deleted;     /* the comment was deleted by the change */
    int line;         /* head line (for a deleted comment, where it was deleted) */
    char *text;
} zero_evidence;

/* The comment block around diff line i (adjacent comment lines of the same kind), joined
 * into one line with the continuation lines' markers dropped. */
static char *comment_block(const gfile *gf, size_t i)
{
    const change_file *f = gf->f;
    char kind = f->lines[i].kind;
    size_t s = i, e = i + 1;
    while (s > 0 && i - s < 4 && f->lines[s - 1].kind == kind && is_comment_line(gf, s - 1))
        s--;
    while (e < f->nlines && e - i < 4 && f->lines[e].kind == kind && is_comment_line(gf, e))
        e++;
    strbuf sb;
    sb_init(&sb);
    for (size_t k = s; k < e; k++) {
        char *t = xstrndup(f->lines[k].text, f->lines[k].len);
        char *st = str_strip(t);
        const char *p = st;
        if (k > s)
            while (*p == '#' || *p == '/' || *p == '*' || *p == ' ')
                p++;
        if (sb.len && *p)
            sb_addc(&sb, ' ');
        sb_adds(&sb, p);
        free(t);
        free(st);
    }
    return sb_detach(&sb);
}

/* Look for the comment that required zeros near a zeros→empty swap: the nearest deleted
 * comment block saying so in the hunk region, else an added one, else a head comment near the
 * new allocation. */
static void find_zero_comment(const gfile *gf, const gstmt *del, const gstmt *add, zero_evidence *ev)
{
    memset(ev, 0, sizeof *ev);
    const change_file *f = gf->f;
    size_t lo = del->di > 12 ? del->di - 12 : 0, hi = del->di + 12 < f->nlines ? del->di + 12 : f->nlines;
    for (int pass = 0; pass < 2 && !ev->found; pass++) {
        size_t best = 0, best_dist = (size_t)-1;
        char *best_text = NULL;
        for (size_t i = lo; i < hi; i++) {
            const diff_line *l = &f->lines[i];
            if ((pass == 0 ? l->kind != '-' : l->kind != '+') || !is_comment_line(gf, i))
                continue;
            char *t = comment_block(gf, i);
            size_t dist = i < del->di ? del->di - i : i - del->di;
            if (comment_requires_zero(t) && dist < best_dist) {
                free(best_text);
                best_text = t;
                best = i;
                best_dist = dist;
            } else {
                free(t);
            }
        }
        if (best_text) {
            ev->found = true;
            ev->deleted = pass == 0;
            ev->line = f->lines[best].new_no;
            ev->text = quote(best_text);
            free(best_text);
        }
    }
    if (!ev->found && gf->hdoc) {
        syn_comment_list cl = {0};
        int at = add ? add->head_line : del->head_line;
        syntax_comments(gf->hdoc, at > 6 ? at - 6 : 1, at + 6, &cl);
        int best_dist = 1 << 30;
        for (size_t i = 0; i < cl.n; i++) {
            int dist = abs(cl.items[i].line - at);
            if (comment_requires_zero(cl.items[i].text) && dist < best_dist) {
                free(ev->text);
                ev->found = true;
                ev->line = cl.items[i].line;
                ev->text = quote(cl.items[i].text);
                best_dist = dist;
            }
        }
        syn_comment_list_free(&cl);
    }
}

typedef struct enforcement {
    const gfile *gf;
    int line;
    char *text;
} enforcement;

/* Search the head of every changed file for lines that still enforce del's invariant,
 * skipping the line `skip` of file `skip_gf` (the changed guard's new form). */
static size_t find_enforcement(gfile *files, size_t nfiles, const gstmt *del, const gfile *skip_gf,
                               int skip, enforcement *out)
{
    size_t n = 0;
    if (!del->subject)
        return 0;
    for (size_t k = 0; k < nfiles && n < EVIDENCE_MAX; k++) {
        gfile *gf = &files[k];
        if (!gf->head || gf->lang == SYN_NONE || gf->is_test)
            continue;
        int line = 0;
        for (const char *p = gf->head, *end = gf->head + gf->head_len; p < end && n < EVIDENCE_MAX;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t len = (size_t)((nl ? nl : end) - p);
            line++;
            if (!(gf == skip_gf && line == skip) && memmem(p, len, del->subject, strlen(del->subject))) {
                char *code = gf->hdoc ? syntax_line_code(gf->hdoc, line) : NULL;
                if (!code)
                    code = syntax_text_code(gf->lang, p, len);
                if (enforces(del, code)) {
                    char *raw = xstrndup(p, len);
                    out[n].gf = gf;
                    out[n].line = line;
                    out[n].text = quote(raw);
                    free(raw);
                    n++;
                }
                free(code);
            }
            p = nl ? nl + 1 : end;
        }
    }
    return n;
}

/* --- the collector ----------------------------------------------------------------------- */

typedef struct gcounts {
    int gone, changed, zero, moved, hinted, in_tests, in_deleted, kept, dropped;
} gcounts;

/* A condition without white space, with the spellings that changed when aiter moved from
 * torch types to its own (`.scalar_type() == at::kInt` → `.dtype() == AITER_DTYPE_i32`)
 * brought to one form, so such a rewrite reads as the same check. */
static char *canonical_condition(const char *cond)
{
    static const char *const map[][2] = {
        {".scalar_type()", ".dtype()"},
        {"at::ScalarType::Int", "i32"},      {"torch::kInt32", "i32"},   {"at::kInt", "i32"},
        {"torch::kInt", "i32"},              {"AITER_DTYPE_i32", "i32"},
        {"at::ScalarType::Long", "i64"},     {"torch::kInt64", "i64"},   {"at::kLong", "i64"},
        {"torch::kLong", "i64"},             {"AITER_DTYPE_i64", "i64"},
        {"at::ScalarType::BFloat16", "bf16"}, {"torch::kBFloat16", "bf16"},
        {"at::kBFloat16", "bf16"},           {"AITER_DTYPE_bf16", "bf16"},
        {"at::ScalarType::Half", "fp16"},    {"torch::kFloat16", "fp16"}, {"at::kHalf", "fp16"},
        {"torch::kHalf", "fp16"},            {"AITER_DTYPE_fp16", "fp16"},
        {"at::ScalarType::Float", "fp32"},   {"torch::kFloat32", "fp32"}, {"at::kFloat", "fp32"},
        {"torch::kFloat", "fp32"},           {"AITER_DTYPE_fp32", "fp32"},
    };
    char *cur = no_space(cond);
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++) {
        size_t n = strlen(map[k][0]);
        if (!strstr(cur, map[k][0]))
            continue;
        strbuf sb;
        sb_init(&sb);
        for (const char *p = cur; *p;) {
            /* whole tokens only: at::kInt must not match inside at::kInt64 */
            if (strncmp(p, map[k][0], n) == 0 && !ident_char(p[n])) {
                sb_adds(&sb, map[k][1]);
                p += n;
            } else {
                sb_addc(&sb, *p++);
            }
        }
        free(cur);
        cur = sb_detach(&sb);
    }
    return cur;
}

/* True when an added statement keeps what a deleted one enforced: the same check condition
 * (the macro or message may differ: TORCH_CHECK → AITER_CHECK), or a zero-init / contiguous
 * call of the same target. */
static bool equivalent(const gstmt *del, const gstmt *add)
{
    if (add->kind != del->kind)
        return false;
    if (del->kind != GK_CHECK)
        return del->target && add->target && strcmp(del->target, add->target) == 0;
    char *a = condition_of(del->code), *b = condition_of(add->code);
    char *na = canonical_condition(a), *nb = canonical_condition(b);
    bool r = *na && strcmp(na, nb) == 0;
    free(a);
    free(b);
    free(na);
    free(nb);
    return r;
}

/* True when the head of a guard's file no longer mentions its subject at all (the buffer or
 * variable it guarded was removed with it). */
static bool subject_gone(const gstmt *del)
{
    const char *sym = del->subject ? del->subject : del->target;
    if (!sym || !del->gf->head)
        return false;
    const char *last = strrchr(sym, ':');
    return find_word(del->gf->head, last ? last + 1 : sym, false) == NULL;
}

/* Add the evidence that the invariant still holds to a finding (and lower it to a hint). */
static void attach_enforcement(finding *fi, enforcement *ev, size_t nev, gcounts *c)
{
    if (!nev)
        return;
    fi->sev = SEV_HINT;
    c->hinted++;
    for (size_t i = 0; i < nev; i++)
        finding_add_related(fi, ev[i].gf->f->path, ev[i].line, "still checked here: %s", ev[i].text);
    char *m = xasprintf("%s (still checked at %s:%d, so probably safe)", fi->message,
                        ev[0].gf->f->path, ev[0].line);
    free(fi->message);
    fi->message = m;
}

static void free_enforcement(enforcement *ev, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(ev[i].text);
}

/* Report one deleted guard according to its class. */
static void report(collector_ctx *ctx, gfile *files, size_t nfiles, const gstmt *del,
                   const gstmt_list *added, const gstmt_list *test_added, gcounts *c)
{
    const char *path = del->gf->f->path;
    char *old = quote(del->text);
    /* moved: the same statement added anywhere (same file preferred) */
    const gstmt *moved = NULL;
    for (size_t i = 0; i < added->n; i++) {
        const gstmt *a = &added->items[i];
        if (strcmp(a->norm, del->norm) == 0 && (!moved || (a->gf == del->gf && moved->gf != del->gf)))
            moved = a;
    }
    bool reworded = false;
    if (!moved) {
        /* the same condition under another macro or message: in place it is kept, elsewhere
         * it moved */
        for (size_t i = 0; i < added->n; i++) {
            const gstmt *a = &added->items[i];
            if (equivalent(del, a) &&
                (!moved || (a->gf == del->gf && (moved->gf != del->gf ||
                                                 abs(a->head_line - del->head_line) <
                                                     abs(moved->head_line - del->head_line)))))
                moved = a;
        }
        reworded = moved != NULL;
    }
    if (moved && moved->gf == del->gf && abs(moved->head_line - del->head_line) <= 3) {
        /* re-added where it was (re-indented, reworded, macro renamed): kept, not moved */
        c->kept++;
        free(old);
        return;
    }
    if (moved) {
        finding *fi = findings_add(ctx->out, "D4", SEV_HINT, path, del->head_line, "guards",
                                   "guard moved, not removed: `%s` is now at %s:%d%s", old,
                                   moved->gf->f->path, moved->head_line, reworded ? " (reworded)" : "");
        finding_add_related(fi, moved->gf->f->path, moved->head_line, "the guard now");
        c->moved++;
        free(old);
        return;
    }
    if (del->kind != GK_CHECK && subject_gone(del)) {
        c->dropped++; /* the buffer itself is gone, not its initialisation */
        free(old);
        return;
    }
    /* zeros → empty: the D4 case of aiter#4043 */
    if (del->kind == GK_ZERO) {
        const gstmt *swap = NULL;
        for (size_t i = 0; i < added->n; i++) {
            const gstmt *a = &added->items[i];
            if (a->gf != del->gf || !a->is_empty_alloc || abs(a->head_line - del->head_line) > ZERO_NEAR)
                continue;
            if (del->target && a->target && strcmp(del->target, a->target) != 0)
                continue;
            if (!swap || abs(a->head_line - del->head_line) < abs(swap->head_line - del->head_line))
                swap = a;
        }
        if (swap) {
            zero_evidence ze;
            find_zero_comment(del->gf, del, swap, &ze);
            char *neu = quote(swap->text);
            finding *fi;
            if (ze.found) {
                fi = findings_add(ctx->out, "D4", SEV_WARNING, path, del->head_line, "guards",
                                  "zero-initialisation removed: `%s` became `%s`, but the %scomment "
                                  "%s \"%s\" — cite the spec, asm or test that makes it safe",
                                  old, neu, ze.deleted ? "deleted " : "", ze.deleted ? "said" : "says",
                                  ze.text);
                finding_add_related(fi, path, ze.line, "%s: %s",
                                    ze.deleted ? "the deleted comment (removed here)" : "the comment", ze.text);
            } else {
                fi = findings_add(ctx->out, "D4", SEV_INFORMATION, path, del->head_line, "guards",
                                  "zero-initialisation removed: `%s` became `%s` — every element "
                                  "must now be written before it is read",
                                  old, neu);
            }
            finding_add_related(fi, path, swap->head_line, "the uninitialised allocation");
            enforcement ev[EVIDENCE_MAX];
            size_t nev = find_enforcement(files, nfiles, del, NULL, 0, ev);
            attach_enforcement(fi, ev, nev, c);
            free_enforcement(ev, nev);
            free(ze.text);
            free(neu);
            c->zero++;
            free(old);
            return;
        }
    }
    /* changed: the best added guard on the same subject */
    const gstmt *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < added->n; i++) {
        int sc = subject_score(del, &added->items[i]);
        if (sc > best_score) {
            best_score = sc;
            best = &added->items[i];
        }
    }
    enforcement ev[EVIDENCE_MAX];
    size_t nev = find_enforcement(files, nfiles, del, best ? best->gf : NULL, best ? best->head_line : 0, ev);
    finding *fi;
    if (best) {
        char *neu = quote(best->text);
        bool stricter = false;
        char *how = describe_change(del->code, best->code, &stricter);
        if (strcmp(how, "same subject, different condition") == 0 && del->subject &&
            best->subject && strcmp(del->subject, best->subject) != 0) {
            free(how);
            how = xasprintf("it now checks `%s` instead of `%s`", best->subject, del->subject);
        }
        if (str_starts(how, "replaced by the named predicate"))
            fi = findings_add(ctx->out, "D4", SEV_HINT, path, del->head_line, "guards",
                              "guard replaced: `%s` became `%s` (%s)", old, neu, how);
        else if (stricter)
            fi = findings_add(ctx->out, "B7", SEV_INFORMATION, path, del->head_line, "guards",
                              "guard tightened: `%s` became `%s` (%s) — check the kernel's padding "
                              "before turning these shapes away",
                              old, neu, how);
        else
            fi = findings_add(ctx->out, "D4", SEV_WARNING, path, del->head_line, "guards",
                              "guard changed: `%s` became `%s` (%s) — cite why the old invariant no "
                              "longer holds",
                              old, neu, how);
        finding_add_related(fi, best->gf->f->path, best->head_line, "the new guard: %s", neu);
        free(how);
        free(neu);
        c->changed++;
    } else {
        const char *what = del->kind == GK_ZERO ? "zero-initialisation removed"
                           : del->kind == GK_CONTIG ? ".contiguous() removed"
                                                    : "guard removed";
        if (del->kind == GK_CHECK && subject_gone(del)) {
            fi = findings_add(ctx->out, "D4", SEV_HINT, path, del->head_line, "guards",
                              "%s: `%s` is deleted, and `%s` no longer appears in this file — "
                              "check that nothing else now needs the invariant",
                              what, old, del->subject);
            c->hinted++;
        } else {
            /* a dropped zero-init with no swap for empty is weaker evidence than a dropped
             * check or .contiguous(): the allocation was usually restructured */
            fi = findings_add(ctx->out, "D4", del->kind == GK_ZERO ? SEV_INFORMATION : SEV_WARNING,
                              path, del->head_line, "guards",
                              "%s: `%s` is deleted and no guard on %s%s%s replaces it — cite why "
                              "the invariant no longer holds",
                              what, old, del->subject ? "`" : "the same subject",
                              del->subject ? del->subject : "", del->subject ? "`" : "");
        }
        c->gone++;
        for (size_t i = 0; i < test_added->n; i++) {
            const gstmt *a = &test_added->items[i];
            if (strcmp(a->norm, del->norm) == 0) {
                finding_add_related(fi, a->gf->f->path, a->head_line,
                                    "re-added only in a test, which guards nothing at run time");
                break;
            }
        }
    }
    attach_enforcement(fi, ev, nev, c);
    free_enforcement(ev, nev);
    free(old);
}

/* Run the collector over the whole change. */
static void guards_run(collector_ctx *ctx)
{
    const change *chg = ctx->chg;
    gfile *files = xcalloc(chg->nfiles ? chg->nfiles : 1, sizeof *files);
    size_t nfiles = 0;
    int nbase_missing = 0;
    gstmt_list dels = {0}, adds = {0}, test_adds = {0};
    for (size_t k = 0; k < chg->nfiles; k++) {
        const change_file *f = &chg->files[k];
        if (f->is_skipped || f->is_binary || (f->ndel == 0 && f->nadd == 0))
            continue;
        gfile *gf = &files[nfiles++];
        gfile_load(ctx, gf, f, &nbase_missing);
    }
    gcounts c = {0};
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
                *ARRAY_PUSH(test_adds.items, test_adds.n, test_adds.cap) = s;
            } else if (l->kind == '+') {
                *ARRAY_PUSH(adds.items, adds.n, adds.cap) = s;
            } else if (s.kind != GK_NONE && gf->lang != SYN_NONE && !gf->is_test && !f->is_deleted) {
                *ARRAY_PUSH(dels.items, dels.n, dels.cap) = s;
            } else {
                if (s.kind != GK_NONE && gf->is_test)
                    c.in_tests++;
                else if (s.kind != GK_NONE && f->is_deleted)
                    c.in_deleted++;
                gstmt_clear(&s);
            }
            /* an added statement is also worth matching line by line (a guard re-added inside
             * a longer statement); deleted guards are matched as whole statements */
            i += l->kind == '+' ? 1 : used;
        }
    }
    for (size_t i = 0; i < dels.n; i++) {
        /* the same guard deleted twice onto one head line (a block moved out) reads once */
        bool dup = false;
        for (size_t k = 0; k < i && !dup; k++)
            dup = dels.items[k].gf == dels.items[i].gf &&
                  dels.items[k].head_line == dels.items[i].head_line &&
                  strcmp(dels.items[k].norm, dels.items[i].norm) == 0;
        if (!dup)
            report(ctx, files, nfiles, &dels.items[i], &adds, &test_adds, &c);
    }
    int nfound = c.gone + c.changed + c.zero;
    strbuf extra;
    sb_init(&extra);
    if (c.kept)
        sb_addf(&extra, "; %d re-added in place with the same condition", c.kept);
    if (c.dropped)
        sb_addf(&extra, "; %d zero-init/contiguous calls went with their buffer", c.dropped);
    if (c.in_tests)
        sb_addf(&extra, "; %d in test files ignored", c.in_tests);
    if (c.in_deleted)
        sb_addf(&extra, "; %d in deleted files ignored", c.in_deleted);
    if (nbase_missing)
        sb_addf(&extra, "; base text unavailable for %d file(s), comments judged line by line",
                nbase_missing);
    /* parse errors are for the log: say where the first one is, never make a finding of it */
    int nerr = 0;
    for (size_t k = 0; k < nfiles; k++) {
        const syntax_doc *d = files[k].hdoc && files[k].hdoc->has_errors ? files[k].hdoc : NULL;
        if (!d)
            continue;
        if (nerr++ == 0) {
            int col;
            int line = syntax_first_error(d, &col, NULL);
            sb_addf(&extra, "; syntax errors in the head of %s (first at line %d)", files[k].f->path, line);
        }
    }
    if (nerr > 1)
        sb_addf(&extra, " and %d more file(s)", nerr - 1);
    if (dels.n == 0)
        collector_status(ctx, "nothing found: this change deletes no assert, check, zero-init or "
                              "contiguous call%s", extra.buf ? extra.buf : "");
    else if (nfound == 0)
        collector_status(ctx, "nothing found: %zu deleted guard(s), all re-added (%d moved "
                              "elsewhere, hints say where)%s", dels.n, c.moved,
                         extra.buf ? extra.buf : "");
    else
        collector_status(ctx, "found %d: %d gone, %d changed, %d zero-init swapped for empty; %d "
                              "moved (hints); %d lowered to hints (still checked elsewhere, or "
                              "their subject is gone)%s",
                         nfound, c.gone, c.changed, c.zero, c.moved, c.hinted,
                         extra.buf ? extra.buf : "");
    sb_free(&extra);
    gstmt_list_free(&dels);
    gstmt_list_free(&adds);
    gstmt_list_free(&test_adds);
    for (size_t k = 0; k < nfiles; k++)
        gfile_free(&files[k]);
    free(files);
}

const collector collector_guards = {
    .name = "guards",
    .rules = "D4 B7",
    .run = guards_run,
};
