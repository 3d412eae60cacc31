/* The units the sibling-drift collector compares, cut from a function's syntax tree:
 * statements (a compound statement contributes its header only: `if cond:`, `for (...)`,
 * `elif cond:`), the function's parameters, the arguments of calls whose arguments span
 * several lines (one keyword argument per unit, so a rewritten `x=parsed.get("x", 0),` is a
 * unit of its own), and the lines of multi-line strings that are not docstrings (code
 * templates of generators). A statement is compared whole, so a line that is only a fragment
 * of a condition is never compared on its own.
 *
 * Keys are the unit's code with comments, string contents (f-string text and interpolations
 * too) and white space removed: an edit to an error message, a comment or indentation is no
 * change. Docstrings are blanked whole, so they give no unit. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/siblings.h"
#include "engine/util.h"

#define MIN_STMT 25  /* shorter statements never count (reference §5.4, on code) */
#define MIN_ARG 12   /* shorter arguments never count */
#define MIN_PARAM 8  /* shorter parameters (squeezed) never count */
#define SHOWN_MAX 110

typedef struct cut {
    uint32_t start, end;
} cut;

/* What walking one function needs: the doc, where units go, and its lines' code, computed on
 * first need (index: line - first). */
typedef struct walk {
    const syntax_doc *d;
    sib_unit_list *out;
    int first, last;
    char **code;   /* comments and string contents blanked */
    char **plain;  /* comments blanked, strings as written */
} walk;

/* --- node classes ----------------------------------------------------------------------- */

static bool is_type(TSNode n, const char *t)
{
    return strcmp(ts_node_type(n), t) == 0;
}

/* The node classes below read a node's type string (ts_node_type), asked once per node. */

/* A definition of a function of its own (its lines are its units, not the enclosing one's). */
static bool is_func_type(const char *t)
{
    return strcmp(t, "function_definition") == 0 || strcmp(t, "decorated_definition") == 0;
}

/* A list of statements: its children are units, it is none itself. */
static bool is_container_type(const char *t)
{
    return strcmp(t, "block") == 0 || strcmp(t, "compound_statement") == 0;
}

/* A clause of a compound statement: a unit of its own (its header). */
static bool is_clause_type(const char *t)
{
    static const char *const clauses[] = {"elif_clause", "else_clause", "except_clause",
                                          "except_group_clause", "finally_clause", "case_clause",
                                          "catch_clause", NULL};
    if (!str_ends(t, "_clause")) /* most nodes: one test instead of seven */
        return false;
    for (int i = 0; clauses[i]; i++)
        if (strcmp(t, clauses[i]) == 0)
            return true;
    return false;
}

/* A statement (simple or compound; a declaration in C++), of type t. */
static bool is_stmt_type(TSNode n, const char *t)
{
    if (!ts_node_is_named(n) || strcmp(t, "compound_statement") == 0)
        return false;
    static const char *const decl[] = {"declaration", "alias_declaration", "using_declaration",
                                       "static_assert_declaration", "type_definition",
                                       "class_definition", NULL};
    for (int i = 0; decl[i]; i++)
        if (strcmp(t, decl[i]) == 0)
            return true;
    return str_ends(t, "_statement");
}

static bool is_call_type(const char *t)
{
    return strcmp(t, "call") == 0 || strcmp(t, "call_expression") == 0;
}

/* --- text of a unit --------------------------------------------------------------------- */

static const char *line_of(walk *w, char **cache, int line, bool plain)
{
    if (line < w->first || line > w->last)
        return NULL;
    char **slot = &cache[line - w->first];
    if (!*slot)
        *slot = plain ? syntax_line_nocomment(w->d, line) : syntax_line_code(w->d, line);
    return *slot;
}

/* True when a string's contents (plain[from, to)) are a name, not prose: short, no white
 * space, no interpolation (a dict key, a dtype, an arch: `"BLOCK_SIZE_K"`, `"gfx950"`). */
static bool name_like(const char *plain, size_t from, size_t to)
{
    if (to - from > 40)
        return false;
    for (size_t i = from; i < to; i++)
        if (!(isalnum((unsigned char)plain[i]) || strchr("_.:/+-", plain[i])))
            return false;
    return true;
}

/* Where the string opened by the quote at code[col] closes on the same line, or 0 when it
 * does not (in the code view its contents are blanks); *fstr says an f-string. */
static size_t string_close(const char *code, size_t clen, size_t col, bool *fstr)
{
    size_t j = col + 1;
    while (j < clen && code[j] == ' ')
        j++;
    if (j >= clen || code[j] != code[col])
        return 0;
    *fstr = false;
    for (size_t k = col; k > 0 && isalpha((unsigned char)code[k - 1]); k--)
        *fstr |= code[k - 1] == 'f' || code[k - 1] == 'F';
    return j;
}

/* The bytes [start, end) outside cuts, from the code view (into key, white space dropped;
 * into flat, white space collapsed) and from the plain view (into shown, collapsed). The
 * contents of strings are left out unless they are name-like (name_like). *l0 and *l1 get the
 * first and last line that gave the key a character. */
static void unit_text(walk *w, uint32_t start, uint32_t end, const cut *cuts, size_t ncuts,
                      strbuf *key, strbuf *flat, strbuf *shown, int *first, int *last)
{
    bool fsp = false, ssp = false;
    *first = *last = 0;
    /* the segments between cuts, so a compound statement's body is skipped, not scanned */
    for (size_t ci = 0; ci <= ncuts; ci++) {
        uint32_t s = ci == 0 ? start : cuts[ci - 1].end, e = ci < ncuts ? cuts[ci].start : end;
        if (s < start)
            s = start;
        if (e > end)
            e = end;
        if (e <= s)
            continue;
        int l0 = syntax_line_of(w->d, s), l1 = syntax_line_of(w->d, e - 1);
        for (int l = l0; l <= l1; l++) {
            size_t ls = syntax_line_start(w->d, l), len;
            if (!syntax_line_text(w->d, l, &len))
                break;
            const char *code = line_of(w, w->code, l, false), *plain = line_of(w, w->plain, l, true);
            if (!code || !plain)
                continue;
            size_t clen = strlen(code), plen = strlen(plain), named_until = 0;
            size_t c0 = s > ls ? s - ls : 0, c1 = e - ls < len ? e - ls : len;
            for (size_t col = c0; col < c1; col++) {
                char c = col < clen ? code[col] : ' ', p = col < plen ? plain[col] : ' ';
                bool fstr;
                size_t close;
                if ((c == '"' || c == '\'') && (named_until == 0 || col > named_until) &&
                    (close = string_close(code, clen, col, &fstr)) > 0 && !fstr && close <= plen &&
                    name_like(plain, col + 1, close))
                    named_until = close;
                else if (col < named_until)
                    c = p;
                if (isspace((unsigned char)c) || c == '\\') {
                    fsp = flat->len > 0;
                } else {
                    if (fsp)
                        sb_addc(flat, ' ');
                    fsp = false;
                    sb_addc(flat, c);
                    sb_addc(key, c);
                    if (!*first)
                        *first = l;
                    *last = l;
                }
                if (isspace((unsigned char)p) || p == '\\') {
                    ssp = shown->len > 0;
                } else {
                    if (ssp)
                        sb_addc(shown, ' ');
                    ssp = false;
                    sb_addc(shown, p);
                }
            }
            fsp = flat->len > 0;
            ssp = shown->len > 0;
        }
    }
}

/* Adjacent string literals are one string (`"a " "b"` split across lines is one message): fold
 * runs of blanked strings in sb, `f"" f""` or `""""`, into one `""`. */
static void join_strings(strbuf *sb)
{
    if (!sb->len)
        return;
    char *s = sb->buf, *o = sb->buf;
    const char *p = s;
    while (*p) {
        /* a blanked string: up to two prefix letters, then "" (or '') */
        const char *q = p;
        while (q - p < 2 && isalpha((unsigned char)*q) && (p == s || !isalnum((unsigned char)p[-1])))
            q++;
        if ((q[0] == '"' && q[1] == '"') || (q[0] == '\'' && q[1] == '\'')) {
            const char *r = q + 2;
            bool more = true;
            while (more) {
                const char *t = r;
                while (*t == ' ')
                    t++;
                const char *u = t;
                while (u - t < 2 && isalpha((unsigned char)*u))
                    u++;
                more = ((u[0] == '"' && u[1] == '"') || (u[0] == '\'' && u[1] == '\''));
                if (more)
                    r = u + 2;
            }
            if (r > q + 2) {
                *o++ = '"';
                *o++ = '"';
                p = r;
                continue;
            }
        }
        *o++ = *p++;
    }
    *o = '\0';
    sb->len = (size_t)(o - s);
}

/* --- the reference's filters (§5.4), on a unit's code -------------------------------------- */

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Only brackets, commas and semicolons. */
static bool is_trivial(const char *s)
{
    for (; *s; s++)
        if (!strchr("{}()[];,:\\ \t", *s))
            return false;
    return true;
}

/* Imports, definitions, decorators, preprocessor and declarations of names. */
static bool is_noise(const char *s)
{
    static const char *const pre[] = {"from ", "import ", "def ", "async def ", "class ", "@", "#",
                                      "template", "using ", "namespace ", "typedef ", "else",
                                      "try", "finally", NULL};
    for (int i = 0; pre[i]; i++)
        if (str_starts(s, pre[i]))
            return true;
    return false;
}

/* `name = simple` (a bare rebinding) and `name: [` (a docstring-ish table). */
static bool is_rebinding(const char *s)
{
    const char *p = s;
    if (!ident_char(*p))
        return false;
    while (ident_char(*p))
        p++;
    while (*p == ' ')
        p++;
    if (*p == ':') {
        for (p++; *p == ' '; p++)
            ;
        return *p == '[';
    }
    if (*p != '=' || p[1] == '=')
        return false;
    for (p++; *p == ' '; p++)
        ;
    for (; *p; p++)
        if (!(ident_char(*p) || strchr(".\"'()", *p)) && !(*p == ';' && p[1] == '\0'))
            return false;
    return true;
}

/* Does something a fix could change: arithmetic, indexing, a comparison, a chained call, a
 * condition, a return or an assignment. */
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
    static const char *const kw[] = {"if", "return", NULL};
    for (int i = 0; kw[i]; i++) {
        size_t n = strlen(kw[i]);
        for (const char *w = strstr(s, kw[i]); w; w = strstr(w + 1, kw[i]))
            if ((w == s || !ident_char(w[-1])) && !ident_char(w[n]))
                return true;
    }
    return false;
}

/* True when an argument computes its value: a keyword argument whose value calls, indexes or
 * does arithmetic (`x=parsed.get("x", 0)`, `block_m=64 if big else 32`), not one that passes a
 * name or a constant along (`fastmath=fm_fast`, `device=out.device`, `x=x`) — those recur in
 * every call of a family; positional arguments are taken only when they do arithmetic. */
static bool computes_value(const char *flat)
{
    const char *v = flat;
    while (ident_char(*v))
        v++;
    while (*v == ' ')
        v++;
    if (v > flat && *v == '=' && v[1] != '=')
        v++;
    else
        v = flat;
    while (*v == ' ')
        v++;
    if (strpbrk(v, "([+*/%<>"))
        return true;
    for (const char *p = strchr(v, '-'); p; p = strchr(p + 1, '-'))
        if (p > v)
            return true; /* a binary minus, not a negative constant */
    return str_contains(v, " if ");
}

static bool counts(sib_kind k, const char *flat, const char *key, const char *name)
{
    switch (k) {
    case SIB_PARAM:
        return strlen(key) >= MIN_PARAM && name && strcmp(name, "self") != 0 &&
               strcmp(name, "cls") != 0;
    case SIB_ARG:
        return strlen(flat) >= MIN_ARG && computes_value(flat);
    case SIB_STMT:
    case SIB_HEAD:
    case SIB_TEXT:
        break;
    }
    return strlen(flat) >= MIN_STMT && !is_trivial(flat) && !is_noise(flat) &&
           !is_rebinding(flat) && is_substantive(flat);
}

/* Append a unit of kind k over [start, end) minus cuts; false when it has no code. */
static bool add_unit(walk *w, sib_kind k, uint32_t start, uint32_t end, const cut *cuts,
                     size_t ncuts, char *name)
{
    strbuf key, flat, shown;
    sb_init(&key);
    sb_init(&flat);
    sb_init(&shown);
    int first, last;
    unit_text(w, start, end, cuts, ncuts, &key, &flat, &shown, &first, &last);
    join_strings(&key);
    join_strings(&flat);
    if (!key.len) {
        sb_free(&key);
        sb_free(&flat);
        sb_free(&shown);
        free(name);
        return false;
    }
    sib_unit *u = ARRAY_PUSH(w->out->items, w->out->n, w->out->cap);
    memset(u, 0, sizeof *u);
    u->kind = k;
    u->line = first;
    u->end_line = last;
    u->block_end = syntax_line_of(w->d, end > start ? end - 1 : end);
    u->counts = counts(k, flat.buf, key.buf, name);
    /* compared in one spelling: literals and type aliases written another way are the same */
    u->key = sib_canonical_key(flat.buf);
    sb_free(&key);
    u->code = sb_detach(&flat);
    u->name = name;
    if (shown.len > SHOWN_MAX) {
        shown.len = SHOWN_MAX - 3;
        while (shown.len > 0 && ((unsigned char)shown.buf[shown.len] & 0xC0) == 0x80)
            shown.len--; /* never cut a UTF-8 sequence */
        shown.buf[shown.len] = '\0';
        sb_adds(&shown, "...");
    }
    u->shown = sb_detach(&shown);
    return true;
}

/* --- walking ---------------------------------------------------------------------------- */

static void walk_region(walk *w, TSNode n);
static void walk_unit(walk *w, TSNode n, sib_kind k);

/* True when a positional argument does arithmetic (a binary + - * / % outside strings): an
 * offset or a size, not a bare name or a constant that appears in every call. */
static bool does_arith(const char *s)
{
    char prev = '(', q = 0;
    for (; *s; s++) {
        char c = *s;
        if (q) {
            if (c == '\\' && s[1])
                s++;
            else if (c == q)
                q = 0;
            continue;
        }
        if (c == '"' || c == '\'') {
            q = c;
        } else if (strchr("+-*/%", c) && !strchr("(,[{=+-*/%<>", prev) &&
                   !(c == '-' && s[1] == '>')) {
            return true;
        }
        if (!isspace((unsigned char)c))
            prev = c;
    }
    return false;
}

/* Arguments of a call spanning several lines become units of their own: keyword arguments,
 * and positional ones that do arithmetic. */
static void call_args(walk *w, TSNode call)
{
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
    if (ts_node_is_null(args) || syntax_node_line(args) == syntax_node_end_line(args))
        return;
    TSTreeCursor c = ts_tree_cursor_new(args);
    for (bool more = ts_tree_cursor_goto_first_child(&c); more; more = ts_tree_cursor_goto_next_sibling(&c)) {
        TSNode a = ts_tree_cursor_current_node(&c);
        if (!ts_node_is_named(a) || is_type(a, "comment"))
            continue;
        bool take = is_type(a, "keyword_argument");
        if (!take) {
            char *t = syntax_node_text(w->d, a);
            take = does_arith(t);
            free(t);
        }
        if (take)
            add_unit(w, SIB_ARG, ts_node_start_byte(a), ts_node_end_byte(a), NULL, 0, NULL);
    }
    ts_tree_cursor_delete(&c);
}

/* The inner lines of a multi-line string (blanked by the code view, so they never reach a
 * statement's key) become text units, compared as written: in a generator they are the
 * generated kernel's code. */
static void string_lines(walk *w, TSNode s)
{
    int l0 = syntax_node_line(s), l1 = syntax_node_end_line(s);
    for (int l = l0 + 1; l < l1 && l - l0 < 400; l++) {
        size_t len;
        const char *t = syntax_line_text(w->d, l, &len);
        if (!t)
            break;
        char *raw = xstrndup(t, len), *shown = str_strip(raw);
        free(raw);
        if (!*shown) {
            free(shown);
            continue;
        }
        sib_unit *u = ARRAY_PUSH(w->out->items, w->out->n, w->out->cap);
        memset(u, 0, sizeof *u);
        u->kind = SIB_TEXT;
        u->line = u->end_line = l;
        strbuf key;
        sb_init(&key);
        for (const char *p = shown; *p; p++)
            if (!isspace((unsigned char)*p))
                sb_addc(&key, *p);
        u->key = sb_detach(&key);
        u->counts = counts(SIB_TEXT, shown, u->key, NULL);
        u->code = xstrdup(shown);
        u->shown = shown;
    }
}

/* True for a call whose arguments are a message, not code: exceptions, warnings, logging. */
static bool is_message_call(const syntax_doc *d, TSNode call)
{
    TSNode f = ts_node_child_by_field_name(call, "function", 8);
    if (ts_node_is_null(f))
        return false;
    uint32_t s = ts_node_start_byte(f), e = ts_node_end_byte(f);
    char t[96];
    if (e < s || e - s >= sizeof t)
        return false;
    memcpy(t, d->text + s, e - s);
    t[e - s] = '\0';
    return str_ends(t, "Error") || str_ends(t, "Exception") || str_ends(t, "Warning") ||
           str_contains(t, "warn") || str_contains(t, "print") || str_contains(t, "log") ||
           str_contains(t, "format");
}

#define COLLECT_DEPTH 128 /* deeper expressions are not looked into */

/* Inside unit node top, collect the cuts (nested statements, bodies, clauses, functions) and
 * turn calls and strings met on the way into their units; cut nodes other than functions are
 * walked afterwards by the caller. One cursor walks the whole subtree. */
static void collect(walk *w, TSNode top, bool msg, cut **cuts, size_t *ncuts, size_t *cap,
                    TSNode **later, size_t *nlater, size_t *lcap)
{
    bool msgs[COLLECT_DEPTH + 1];
    TSNode parents[COLLECT_DEPTH + 1];
    int depth = 1;
    msgs[0] = msg;
    parents[0] = top;
    TSTreeCursor c = ts_tree_cursor_new(top);
    bool more = ts_tree_cursor_goto_first_child(&c);
    while (more) {
        TSNode k = ts_tree_cursor_current_node(&c), n = parents[depth - 1];
        const char *kt = ts_node_type(k);
        const char *fld = ts_tree_cursor_current_field_name(&c);
        bool stmt_here = depth == 1 && is_stmt_type(k, kt) &&
                         !(fld && (strcmp(fld, "initializer") == 0 || strcmp(fld, "condition") == 0 ||
                                   strcmp(fld, "update") == 0));
        bool descend = false;
        if (is_func_type(kt) || is_container_type(kt) || is_clause_type(kt) || stmt_here) {
            cut *x = ARRAY_PUSH(*cuts, *ncuts, *cap);
            x->start = ts_node_start_byte(k);
            x->end = ts_node_end_byte(k);
            if (!is_func_type(kt))
                *ARRAY_PUSH(*later, *nlater, *lcap) = k;
        } else {
            bool kmsg = msgs[depth - 1];
            if (is_call_type(kt)) {
                call_args(w, k);
                kmsg |= is_message_call(w->d, k);
            }
            /* a docstring is a string that is its statement's only child */
            if (strcmp(kt, "string") == 0 && !kmsg && w->d->lang == SYN_PYTHON &&
                !(is_type(n, "expression_statement") && ts_node_named_child_count(n) == 1) &&
                syntax_node_end_line(k) - syntax_node_line(k) >= 2)
                string_lines(w, k);
            if (depth < COLLECT_DEPTH && ts_tree_cursor_goto_first_child(&c)) {
                msgs[depth] = kmsg;
                parents[depth] = k;
                depth++;
                descend = true;
            }
        }
        if (descend)
            continue;
        while (!(more = ts_tree_cursor_goto_next_sibling(&c)) && depth > 1) {
            ts_tree_cursor_goto_parent(&c);
            depth--;
        }
    }
    ts_tree_cursor_delete(&c);
}

/* A statement or clause: one unit of its text minus what it holds, then what it holds. */
static void walk_unit(walk *w, TSNode n, sib_kind k)
{
    cut *cuts = NULL;
    size_t ncuts = 0, cap = 0, nlater = 0, lcap = 0;
    TSNode *later = NULL;
    bool msg = is_type(n, "raise_statement") || is_type(n, "assert_statement") ||
               is_type(n, "throw_statement");
    collect(w, n, msg, &cuts, &ncuts, &cap, &later, &nlater, &lcap);
    /* a cut inside a call's arguments is met before its call's own units: keep order of
     * bytes for unit_text */
    for (size_t i = 1; i < ncuts; i++)
        for (size_t j = i; j > 0 && cuts[j - 1].start > cuts[j].start; j--) {
            cut t = cuts[j];
            cuts[j] = cuts[j - 1];
            cuts[j - 1] = t;
        }
    uint32_t start = ts_node_start_byte(n);
    if (add_unit(w, k, start, ts_node_end_byte(n), cuts, ncuts, NULL)) {
        /* a statement over several lines: its first line too (the call it makes) */
        const sib_unit *u = &w->out->items[w->out->n - 1];
        if (u->end_line > u->line && u->line == syntax_line_of(w->d, start)) {
            uint32_t eol = (uint32_t)syntax_line_start(w->d, u->line + 1);
            add_unit(w, SIB_HEAD, start, eol, cuts, ncuts, NULL);
        }
    }
    for (size_t i = 0; i < nlater; i++)
        walk_region(w, later[i]);
    free(cuts);
    free(later);
}

/* Any node of a function body: statements and clauses become units; other nodes (blocks,
 * preprocessor conditionals, expression wrappers) are looked into. */
static void walk_region(walk *w, TSNode n)
{
    const char *t = ts_node_type(n);
    if (is_func_type(t))
        return;
    if (is_stmt_type(n, t) || is_clause_type(t)) {
        walk_unit(w, n, SIB_STMT);
        return;
    }
    TSTreeCursor c = ts_tree_cursor_new(n);
    for (bool more = ts_tree_cursor_goto_first_child(&c); more; more = ts_tree_cursor_goto_next_sibling(&c)) {
        TSNode k = ts_tree_cursor_current_node(&c);
        if (ts_node_is_named(k))
            walk_region(w, k);
    }
    ts_tree_cursor_delete(&c);
}

/* The name of a parameter: Python's first identifier, C++'s last one in the declarator. */
static char *param_name(const syntax_doc *d, TSNode p)
{
    TSNode best = {{0}, NULL, NULL};
    TSNode stack[64];
    int sp = 0;
    TSNode decl = ts_node_child_by_field_name(p, "declarator", 10);
    stack[sp++] = d->lang == SYN_CPP && !ts_node_is_null(decl) ? decl : p;
    /* a template's type parameter (`typename DTYPE_B`) is named by a type identifier */
    const char *want = str_ends(ts_node_type(p), "type_parameter_declaration") ? "type_identifier" : "identifier";
    while (sp > 0) {
        TSNode n = stack[--sp];
        if (is_type(n, want)) {
            if (d->lang == SYN_PYTHON)
                return syntax_node_text(d, n);
            best = n;
            continue;
        }
        if (d->lang == SYN_PYTHON && (is_type(n, "type") || is_type(n, "default")))
            continue;
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = c; i > 0 && sp < 64; i--)
            stack[sp++] = ts_node_named_child(n, i - 1);
    }
    return ts_node_is_null(best) ? NULL : syntax_node_text(d, best);
}

/* A Python parameter's type annotation, from the end of its name to the end of the type, when
 * it is not a `constexpr`: annotations do nothing at run time (`float = None` and
 * `float | None = None` are one parameter), a Triton/Gluon `constexpr` does (it specialises
 * the kernel). */
static bool annotation_cut(const syntax_doc *d, TSNode p, cut *out)
{
    if (d->lang != SYN_PYTHON || !(is_type(p, "typed_parameter") || is_type(p, "typed_default_parameter")))
        return false;
    TSNode type = ts_node_child_by_field_name(p, "type", 4), name = ts_node_named_child(p, 0);
    if (ts_node_is_null(type) || ts_node_is_null(name) || ts_node_end_byte(name) > ts_node_start_byte(type))
        return false;
    uint32_t s = ts_node_start_byte(type), e = ts_node_end_byte(type);
    for (uint32_t i = s; i + 9 <= e; i++)
        if (memcmp(d->text + i, "constexpr", 9) == 0)
            return false;
    out->start = ts_node_end_byte(name);
    out->end = e;
    return true;
}

/* Keep on u (a parameter unit just cut with its annotation left out, ann the cut) the
 * annotation's code, white space dropped, and the parameter as written with it. */
static void keep_annotation(walk *w, sib_unit *u, uint32_t start, uint32_t end, const cut *ann)
{
    strbuf key, flat, shown;
    sb_init(&key);
    sb_init(&flat);
    sb_init(&shown);
    int first, last;
    unit_text(w, ann->start, ann->end, NULL, 0, &key, &flat, &shown, &first, &last);
    u->ann = sb_detach(&key);
    sb_free(&flat);
    sb_free(&shown);
    sb_init(&key);
    sb_init(&flat);
    sb_init(&shown);
    unit_text(w, start, end, NULL, 0, &key, &flat, &shown, &first, &last);
    u->ann_shown = sb_detach(&shown);
    sb_free(&key);
    sb_free(&flat);
}

/* The parameter list node of a function definition (null node if none). */
static TSNode param_list(TSNode def)
{
    TSNode p = ts_node_child_by_field_name(def, "parameters", 10);
    if (!ts_node_is_null(p))
        return p;
    TSNode n = ts_node_child_by_field_name(def, "declarator", 10);
    for (int guard = 0; !ts_node_is_null(n) && guard < 16; guard++) {
        if (is_type(n, "function_declarator"))
            return ts_node_child_by_field_name(n, "parameters", 10);
        TSNode next = ts_node_child_by_field_name(n, "declarator", 10);
        if (ts_node_is_null(next)) {
            uint32_t c = ts_node_named_child_count(n);
            next = c ? ts_node_named_child(n, c - 1) : next;
        }
        n = next;
    }
    TSNode null = {{0}, NULL, NULL};
    return null;
}

/* The function_definition node of fn: descend from the root through the nodes holding the
 * definition's last byte and its name line. *tparams gets the template parameter list of the
 * innermost template_declaration passed on the way (C++), or a null node. */
static TSNode def_node(const syntax_doc *d, const syn_func *fn, TSNode *tparams)
{
    size_t name_end = syntax_line_start(d, fn->name_line + 1);
    TSNode null = {{0}, NULL, NULL}, found = null;
    *tparams = null;
    /* one cursor down the tree; at each level it jumps to the first child reaching the
     * definition's last byte (the ones before it end too early), so a module of hundreds of
     * definitions is not walked child by child for each of them */
    TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(d->tree));
    uint32_t last = fn->end_byte ? fn->end_byte - 1 : 0;
    for (int depth = 0; depth < 200; depth++) {
        TSNode n = ts_tree_cursor_current_node(&c);
        if (is_type(n, "template_declaration"))
            *tparams = ts_node_child_by_field_name(n, "parameters", 10);
        if (is_type(n, "function_definition") && ts_node_end_byte(n) == fn->end_byte) {
            found = n;
            break;
        }
        bool next = ts_tree_cursor_goto_first_child_for_byte(&c, last) >= 0;
        while (next) {
            TSNode ch = ts_tree_cursor_current_node(&c);
            if (ts_node_start_byte(ch) <= name_end && ts_node_end_byte(ch) >= fn->end_byte)
                break;
            next = ts_tree_cursor_goto_next_sibling(&c);
        }
        if (!next)
            break;
    }
    ts_tree_cursor_delete(&c);
    return found;
}

void sib_units(const syntax_doc *d, const syn_func *fn, sib_unit_list *out)
{
    TSNode tparams;
    TSNode def = def_node(d, fn, &tparams);
    if (ts_node_is_null(def))
        return;
    walk w = {.d = d, .out = out, .first = fn->start_line, .last = fn->end_line};
    size_t nl = (size_t)(w.last - w.first + 1);
    w.code = xcalloc(nl, sizeof *w.code);
    w.plain = xcalloc(nl, sizeof *w.plain);
    TSNode params = param_list(def);
    if (!ts_node_is_null(params)) {
        uint32_t n = ts_node_named_child_count(params);
        for (uint32_t i = 0; i < n; i++) {
            TSNode p = ts_node_named_child(params, i);
            if (is_type(p, "comment"))
                continue;
            cut ann;
            bool cut_ann = annotation_cut(d, p, &ann);
            if (add_unit(&w, SIB_PARAM, ts_node_start_byte(p), ts_node_end_byte(p), cut_ann ? &ann : NULL,
                         cut_ann ? 1 : 0, param_name(d, p)) &&
                cut_ann)
                keep_annotation(&w, &w.out->items[w.out->n - 1], ts_node_start_byte(p), ts_node_end_byte(p), &ann);
        }
    }
    /* a C++ template's parameters name its API too (`typename DTYPE_B`), but are never lost
     * units themselves */
    if (!ts_node_is_null(tparams)) {
        uint32_t n = ts_node_named_child_count(tparams);
        for (uint32_t i = 0; i < n; i++) {
            TSNode p = ts_node_named_child(tparams, i);
            char *name = param_name(d, p);
            if (name && add_unit(&w, SIB_PARAM, ts_node_start_byte(p), ts_node_end_byte(p), NULL, 0, name))
                w.out->items[w.out->n - 1].counts = false;
        }
    }
    TSNode body = ts_node_child_by_field_name(def, "body", 4);
    if (!ts_node_is_null(body))
        walk_region(&w, body);
    for (size_t i = 0; i < nl; i++) {
        free(w.code[i]);
        free(w.plain[i]);
    }
    free(w.code);
    free(w.plain);
}

void sib_unit_list_free(sib_unit_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].key);
        free(l->items[i].code);
        free(l->items[i].shown);
        free(l->items[i].name);
        free(l->items[i].ann);
        free(l->items[i].ann_shown);
    }
    free(l->items);
    l->items = NULL;
    l->n = l->cap = 0;
}

/* The sequence a kind of unit belongs to. */
static int sequence_of(sib_kind k)
{
    return k == SIB_PARAM ? 0 : k == SIB_ARG ? 2 : 1;
}

void sib_neighbours(const sib_unit_list *l, int *prev, int *next)
{
    size_t n = l->n, m = 0;
    size_t *ord = xcalloc(n ? n : 1, sizeof *ord);
    for (size_t i = 0; i < n; i++) {
        prev[i] = next[i] = -1;
        if (l->items[i].kind == SIB_HEAD)
            continue;
        /* insertion by (sequence, line, position in l): lists are short */
        size_t at = m++;
        const sib_unit *u = &l->items[i];
        while (at > 0) {
            const sib_unit *o = &l->items[ord[at - 1]];
            int so = sequence_of(o->kind), su = sequence_of(u->kind);
            if (so < su || (so == su && o->line <= u->line))
                break;
            ord[at] = ord[at - 1];
            at--;
        }
        ord[at] = i;
    }
    for (size_t k = 0; k + 1 < m; k++)
        if (sequence_of(l->items[ord[k]].kind) == sequence_of(l->items[ord[k + 1]].kind)) {
            next[ord[k]] = (int)ord[k + 1];
            prev[ord[k + 1]] = (int)ord[k];
        }
    for (size_t i = 0; i < n; i++)
        if (l->items[i].kind == SIB_HEAD)
            for (size_t j = 0; j < n; j++)
                if (l->items[j].kind == SIB_STMT && l->items[j].line == l->items[i].line) {
                    prev[i] = prev[j];
                    next[i] = next[j];
                    break;
                }
    free(ord);
}
