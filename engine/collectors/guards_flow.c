/* Where a guard sits in the code, for the removed-guards collector: its function, the branches
 * around it, whether another check dominates it, whether its whole code path went with the
 * change, and the helpers the change adds that a guard moved into.
 *
 * "Still checked elsewhere" only counts when the other check runs on every path through the
 * deleted guard's place: a check in a sibling `else if` branch guards other inputs (aiter#4806
 * relaxed `% 8` to `% k_pad_alignment` in one branch while another branch kept its own `% 8`).
 * Branches are read from the tree: if/elif/else, switch cases and match cases, loop bodies and
 * exception handlers each make a branch; a check in an if's condition covers that if, and the
 * code after it when its branch leaves (raise, return, throw). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/guards.h"
#include "engine/diff_lines.h"
#include "engine/strset.h"

#define STEPS_MAX 64
#define PARAMS_MAX 32

const syn_func *guards_function_at(const syn_func_list *l, int line)
{
    return l ? syntax_enclosing_function(l, line) : NULL;
}

/* --- branches ---------------------------------------------------------------------------- */

/* One step into a branch: the branching node and which of its children was taken. */
typedef struct bstep {
    TSNode at, child;
} bstep;

/* The branches around a node, from the node up to (not past) its function, and the nearest
 * branching node whose condition holds the node (null when none). */
typedef struct bpath {
    bstep steps[STEPS_MAX];
    size_t n;
    TSNode cond_of;
    bool has_cond;
} bpath;

static bool type_is(TSNode n, const char *t)
{
    return !ts_node_is_null(n) && strcmp(ts_node_type(n), t) == 0;
}

static bool is_function_node(TSNode n)
{
    return type_is(n, "function_definition") || type_is(n, "lambda_expression") ||
           type_is(n, "lambda");
}

/* The index of child among parent's children, and its field name (NULL if none). */
static uint32_t child_index(TSNode parent, TSNode child, const char **fieldname)
{
    uint32_t n = ts_node_child_count(parent);
    for (uint32_t i = 0; i < n; i++)
        if (ts_node_eq(ts_node_child(parent, i), child)) {
            *fieldname = ts_node_field_name_for_child(parent, i);
            return i;
        }
    *fieldname = NULL;
    return n;
}

/* The ancestors of a node, innermost first: at[k] is the (k+1)-th one up, child[k] the child of
 * it the line of descent took and field[k] that child's field name (NULL if none). */
#define ANCESTRY_MAX 256
typedef struct ancestry {
    size_t n;
    TSNode at[ANCESTRY_MAX];
    TSNode child[ANCESTRY_MAX];
    const char *field[ANCESTRY_MAX];
} ancestry;

/* Read n's ancestry (empty for a null node). It is read in one descent from the root, the
 * child holding n's bytes taken at each level: ts_node_parent walks down from the root on
 * every call, so a walk up by parents costs the depth squared. Where the descent does not meet
 * n (a zero-width node between two children), or the tree is deeper than ANCESTRY_MAX, it is
 * read by parents. */
static void ancestry_of(TSNode n, ancestry *a)
{
    a->n = 0;
    if (ts_node_is_null(n))
        return;
    TSNode root = ts_tree_root_node(n.tree);
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    /* the descent: down[k] is the node at depth k, dfield[k] the field of the step out of it */
    TSNode down[ANCESTRY_MAX + 1];
    const char *dfield[ANCESTRY_MAX];
    size_t depth = 0;
    TSTreeCursor cur = ts_tree_cursor_new(root);
    down[0] = root;
    bool found = ts_node_eq(root, n);
    while (!found && depth < ANCESTRY_MAX && ts_tree_cursor_goto_first_child_for_byte(&cur, s) >= 0) {
        TSNode c = ts_tree_cursor_current_node(&cur);
        /* the child found may end right at n's start (this tree-sitter takes "extends beyond"
         * as reaching it); the one after it that ends past n's start must hold n whole */
        while (ts_node_end_byte(c) <= s && !ts_node_eq(c, n) && ts_tree_cursor_goto_next_sibling(&cur))
            c = ts_tree_cursor_current_node(&cur);
        if (ts_node_start_byte(c) > s || ts_node_end_byte(c) < e)
            break;
        dfield[depth] = ts_tree_cursor_current_field_name(&cur);
        down[++depth] = c;
        found = ts_node_eq(c, n);
    }
    ts_tree_cursor_delete(&cur);
    if (found) {
        for (size_t k = 0; k < depth; k++) {
            a->at[k] = down[depth - 1 - k];
            a->child[k] = down[depth - k];
            a->field[k] = dfield[depth - 1 - k];
        }
        a->n = depth;
        return;
    }
    for (TSNode c = n, p = ts_node_parent(n); !ts_node_is_null(p) && a->n < ANCESTRY_MAX;
         c = p, p = ts_node_parent(p)) {
        a->at[a->n] = p;
        a->child[a->n] = c;
        child_index(p, c, &a->field[a->n]);
        a->n++;
    }
}

/* Whether stepping from a child (field fld, index i) into parent p enters a branch; *cond is
 * set when the child is p's condition. */
static bool is_branch(TSNode p, const char *fld, bool *cond)
{
    const char *t = ts_node_type(p);
    *cond = false;
    bool conditional = !strcmp(t, "if_statement") || !strcmp(t, "elif_clause") ||
                       !strcmp(t, "while_statement") || !strcmp(t, "for_statement") ||
                       !strcmp(t, "for_range_loop") || !strcmp(t, "do_statement") ||
                       !strcmp(t, "for_in_statement");
    if (conditional) {
        if (fld && (!strcmp(fld, "condition") || !strcmp(fld, "right") || !strcmp(fld, "left") ||
                    !strcmp(fld, "initializer") || !strcmp(fld, "declarator") || !strcmp(fld, "type"))) {
            *cond = !strcmp(fld, "condition");
            return false;
        }
        return true;
    }
    if (!strcmp(t, "case_statement") || !strcmp(t, "case_clause"))
        return !(fld && (!strcmp(fld, "value") || !strcmp(fld, "guard")));
    if (!strcmp(t, "try_statement"))
        return !(fld && !strcmp(fld, "body")) ; /* a handler is a branch, the body is not */
    return false;
}

/* The node standing for a line: the smallest named node at its first non-blank byte. */
static TSNode node_on_line(const syntax_doc *d, int line)
{
    size_t len;
    const char *t = syntax_line_text(d, line, &len);
    size_t off = syntax_line_start(d, line);
    size_t k = 0;
    while (t && k < len && (t[k] == ' ' || t[k] == '\t'))
        k++;
    if (!t || k >= len) {
        TSNode null = {{0}, NULL, NULL};
        return null;
    }
    return syntax_node_at(d, off + k, off + k + 1);
}

/* Walk up from n to its function (or the root), recording the branches. */
static void branch_path(TSNode n, bpath *bp)
{
    memset(bp, 0, sizeof *bp);
    ancestry a;
    ancestry_of(n, &a);
    TSNode c = n;
    for (size_t k = 0; k < a.n; c = a.at[k], k++) {
        if (is_function_node(c))
            break;
        TSNode p = a.at[k];
        bool cond;
        if (is_branch(p, a.field[k], &cond)) {
            if (bp->n < STEPS_MAX)
                bp->steps[bp->n++] = (bstep){p, a.child[k]};
        } else if (cond && !bp->has_cond) {
            bp->cond_of = p;
            bp->has_cond = true;
        }
    }
}

static bool path_has(const bpath *bp, bstep s)
{
    for (size_t i = 0; i < bp->n; i++)
        if (ts_node_eq(bp->steps[i].at, s.at) && ts_node_eq(bp->steps[i].child, s.child))
            return true;
    return false;
}

/* True when a is n or one of its ancestors. */
static bool is_ancestor(TSNode a, TSNode n)
{
    if (ts_node_is_null(n))
        return false;
    if (ts_node_eq(n, a))
        return true;
    ancestry up;
    ancestry_of(n, &up);
    for (size_t k = 0; k < up.n; k++)
        if (ts_node_eq(up.at[k], a))
            return true;
    return false;
}

/* True when the if statement's branch leaves (its last statement raises, returns, throws,
 * continues or breaks) and it has no else. */
static bool branch_leaves(TSNode ifn)
{
    if (!type_is(ifn, "if_statement") ||
        !ts_node_is_null(ts_node_child_by_field_name(ifn, "alternative", 11)))
        return false;
    TSNode body = ts_node_child_by_field_name(ifn, "consequence", 11);
    TSNode last = body;
    if (type_is(body, "block") || type_is(body, "compound_statement")) {
        uint32_t n = ts_node_named_child_count(body);
        if (n == 0)
            return false;
        last = ts_node_named_child(body, n - 1);
    }
    return type_is(last, "raise_statement") || type_is(last, "return_statement") ||
           type_is(last, "throw_statement") || type_is(last, "continue_statement") ||
           type_is(last, "break_statement") ||
           (type_is(last, "expression_statement") && ts_node_named_child_count(last) > 0 &&
            type_is(ts_node_named_child(last, 0), "throw_expression"));
}

bool guards_dominates(const syntax_doc *d, const syn_func_list *fl, int e, int g)
{
    if (!d || e < 1 || g < 1 || e > d->nlines || g > d->nlines)
        return false;
    if (guards_function_at(fl, e) != guards_function_at(fl, g))
        return false;
    TSNode en = node_on_line(d, e), gn = node_on_line(d, g);
    if (ts_node_is_null(en) || ts_node_is_null(gn))
        return false;
    bpath ep, gp;
    branch_path(en, &ep);
    branch_path(gn, &gp);
    for (size_t i = 0; i < ep.n; i++)
        if (!path_has(&gp, ep.steps[i]))
            return false;
    if (ep.has_cond && !is_ancestor(ep.cond_of, gn))
        return branch_leaves(ep.cond_of) && ts_node_start_byte(gn) >= ts_node_end_byte(ep.cond_of);
    return true;
}

bool guards_reaches(const syntax_doc *d, const syn_func_list *fl, int e, int g)
{
    if (!d || e < 1 || g < 1 || e > d->nlines || g > d->nlines)
        return false;
    if (guards_function_at(fl, e) != guards_function_at(fl, g))
        return false;
    TSNode en = node_on_line(d, e), gn = node_on_line(d, g);
    if (ts_node_is_null(en) || ts_node_is_null(gn))
        return false;
    bpath ep, gp;
    branch_path(en, &ep);
    branch_path(gn, &gp);
    /* a branch of e's that g is not in must be over before g starts */
    for (size_t i = 0; i < ep.n; i++)
        if (!path_has(&gp, ep.steps[i]) && ts_node_start_byte(gn) < ts_node_end_byte(ep.steps[i].at))
            return false;
    return true;
}

/* --- the deleted guard's place ------------------------------------------------------------ */

static int indent_of(const char *t, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len && (t[i] == ' ' || t[i] == '\t'); i++)
        n += t[i] == '\t' ? 8 : 1;
    return n;
}

const syn_func *guards_head_function(const gfile *gf, const gstmt *del)
{
    if (!gf->bdoc || !gf->hdoc || del->old_line < 1)
        return NULL;
    const syn_func *bf = guards_function_at(&gf->bfuncs, del->old_line);
    if (!bf)
        return NULL;
    for (size_t i = 0; i < gf->hfuncs.n; i++)
        if (strcmp(gf->hfuncs.items[i].qualname, bf->qualname) == 0)
            return &gf->hfuncs.items[i];
    /* renamed in place: the function now at the deletion point, when its name is new */
    const syn_func *at = guards_function_at(&gf->hfuncs, gf->f->lines[del->di].new_no);
    for (size_t i = 0; at && i < gf->bfuncs.n; i++)
        if (strcmp(gf->bfuncs.items[i].qualname, at->qualname) == 0)
            return NULL;
    return at;
}

/* True when base line no is a deleted line of f. */
static bool line_deleted(const change_file *f, int no)
{
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '-' && f->lines[i].old_no == no)
            return true;
    return false;
}

/* How many base lines in [a, b] the change deletes. */
static int deleted_range(const change_file *f, int a, int b)
{
    int gone = 0;
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '-' && f->lines[i].old_no >= a && f->lines[i].old_no <= b)
            gone++;
    return gone;
}

/* How many lines of base function fn the change deletes. */
static int deleted_in(const change_file *f, const syn_func *fn)
{
    return deleted_range(f, fn->start_line, fn->end_line);
}

const syn_func *guards_relocated(const gfile *gf, const gstmt *del)
{
    if (!gf->bdoc || !gf->hdoc || del->old_line < 1)
        return NULL;
    const syn_func *bf = guards_function_at(&gf->bfuncs, del->old_line);
    const syn_func *hf = guards_head_function(gf, del);
    if (!bf || !hf || deleted_in(gf->f, bf) * 10 < (bf->end_line - bf->start_line + 1) * 8)
        return NULL;
    /* the deletion point already lies in it: nothing moved */
    int at = gf->f->lines[del->di].new_no;
    return at >= hf->start_line && at <= hf->end_line ? NULL : hf;
}

int guards_anchor_line(const gfile *gf, const gstmt *del)
{
    const syntax_doc *d = gf->hdoc;
    const diff_line *l = &gf->f->lines[del->di];
    if (del->moved_to)
        return del->moved_to;
    if (!d || l->kind != '-')
        return del->head_line;
    /* the deletion point: in a rewrite (deleted lines followed by added ones) the added line at
     * the same place in its block, not the most similar one (which may sit in another branch) */
    const change_file *f = gf->f;
    size_t s = del->di, e = del->di, a;
    while (s > 0 && f->lines[s - 1].kind == '-')
        s--;
    while (e < f->nlines && f->lines[e].kind == '-')
        e++;
    for (a = e; a < f->nlines && f->lines[a].kind == '+';)
        a++;
    int line = l->new_no;
    if (a > e)
        line = f->lines[e + (del->di - s < a - e ? del->di - s : a - e - 1)].new_no;
    line = line < 1 ? 1 : line > d->nlines ? d->nlines : line;
    int want = indent_of(l->text, l->len);
    int k = line;
    size_t len;
    const char *t = syntax_line_text(d, k, &len);
    while (t && str_blank_n(t, len) && k < d->nlines)
        t = syntax_line_text(d, ++k, &len);
    if (!t || indent_of(t, len) >= want)
        return line;
    /* the next line is outside the deleted statement's block: the one before is inside it */
    for (k = line - 1; k >= 1 && k >= line - 4; k--) {
        t = syntax_line_text(d, k, &len);
        if (!t || str_blank_n(t, len))
            continue;
        return indent_of(t, len) >= want ? k : line;
    }
    return line;
}

/* True when at least 80% of the substantive base lines in [a, b] (not blank, not a lone brace)
 * are deleted: a diff may keep a `{` or `};` of a deleted block as context. */
static bool mostly_deleted(const gfile *gf, int a, int b)
{
    int total = 0, gone = 0;
    for (int k = a; k <= b; k++) {
        size_t len;
        const char *t = syntax_line_text(gf->bdoc, k, &len);
        char *s = t ? xstrndup(t, len) : xstrdup("");
        char *st = str_strip(s);
        bool trivial = !*st || !strcmp(st, "{") || !strcmp(st, "}") || !strcmp(st, "};");
        free(s);
        free(st);
        if (trivial)
            continue;
        total++;
        gone += line_deleted(gf->f, k);
    }
    return total > 0 && gone * 10 >= total * 8;
}

/* True when the guard sat in a branch or a struct the change deletes whole: a branch block
 * (if / elif / else / loop / case / handler body) of at least three lines whose header line
 * and nearly every line are deleted, or a struct or class whose lines are deleted and whose
 * name the head no longer mentions (asserts on a deleted layout struct). */
static bool block_deleted(const gfile *gf, const gstmt *del)
{
    const syntax_doc *d = gf->bdoc;
    ancestry up;
    ancestry_of(node_on_line(d, del->old_line), &up);
    for (size_t k = 0; k < up.n; k++) {
        TSNode p = up.at[k];
        if (is_function_node(p))
            return false;
        bool record = type_is(p, "struct_specifier") || type_is(p, "class_specifier") ||
                      type_is(p, "class_definition");
        bool branch = type_is(p, "if_statement") || type_is(p, "elif_clause") ||
                      type_is(p, "else_clause") || type_is(p, "for_statement") ||
                      type_is(p, "for_range_loop") || type_is(p, "while_statement") ||
                      type_is(p, "case_statement") || type_is(p, "case_clause") ||
                      type_is(p, "except_clause") || type_is(p, "catch_clause");
        if (!record && !branch)
            continue;
        int a = syntax_node_line(p), b = syntax_node_end_line(p);
        if (b - a < 2 || !mostly_deleted(gf, a, b) || !line_deleted(gf->f, a))
            continue;
        if (branch)
            return true;
        TSNode name = ts_node_child_by_field_name(p, "name", 4);
        char *nm = ts_node_is_null(name) ? NULL : syntax_node_text(d, name);
        bool gone = nm && gf->head && !guards_find_word(gf->head, nm, false);
        free(nm);
        if (gone)
            return true;
    }
    return false;
}

/* The names a file's head text may define as functions, read once: for Python every name
 * after `def` (which every function the tree lists has), for C/C++ every identifier followed
 * by its parameter list or template arguments. */
static void build_defines(gfile *gf)
{
    gf->defines_built = true;
    const char *p = gf->head, *end = gf->head ? gf->head + gf->head_len : NULL;
    bool py = gf->lang == SYN_PYTHON;
    while (p && p < end) {
        if (!str_ident_char(*p) || (p > gf->head && str_ident_char(p[-1]))) {
            p++;
            continue;
        }
        const char *e = p;
        while (e < end && str_ident_char(*e))
            e++;
        const char *q = e;
        while (q < end && (*q == ' ' || *q == '\t' || (!py && (*q == '\n' || *q == '\r'))))
            q++;
        if (py && e - p == 3 && memcmp(p, "def", 3) == 0 && q > e) {
            const char *n = q;
            while (q < end && str_ident_char(*q))
                q++;
            if (q > n) {
                char *name = xstrndup(n, (size_t)(q - n));
                strset_add(&gf->defines, name);
                free(name);
            }
            p = q;
            continue;
        }
        if (!py && q < end && (*q == '(' || *q == '<')) {
            char *name = xstrndup(p, (size_t)(e - p));
            strset_add(&gf->defines, name);
            free(name);
        }
        p = e;
    }
}

/* head_may_define for a name that is not one identifier (`Foo::bar`, `operator()`): the name
 * as a whole word, followed by its parameter list (C/C++) or after `def` (Python). */
static bool text_may_define(const gfile *gf, const char *name)
{
    size_t n = strlen(name);
    const char *end = gf->head + gf->head_len;
    for (const char *p = memmem(gf->head, gf->head_len, name, n); p;
         p = memmem(p + 1, (size_t)(end - p - 1), name, n)) {
        const char *q = p + n;
        if ((p > gf->head && str_ident_char(p[-1])) || (q < end && str_ident_char(*q)))
            continue;
        if (gf->lang != SYN_PYTHON) {
            while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
                q++;
            if (q < end && (*q == '(' || *q == '<'))
                return true;
            continue;
        }
        const char *b = p;
        while (b > gf->head && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (b < p && b - gf->head >= 3 && memcmp(b - 3, "def", 3) == 0 &&
            (b - gf->head == 3 || !str_ident_char(b[-4])))
            return true;
    }
    return false;
}

/* True when a file's head text may define a function called name. Lets the searches through
 * every changed file parse only the files that can matter. */
static bool head_may_define(gfile *gf, const char *name)
{
    if (!gf->head)
        return false;
    if (!*name)
        return true;
    for (const char *c = name; *c; c++)
        if (!str_ident_char(*c))
            return text_may_define(gf, name); /* a qualified or operator name */
    if (!gf->defines_built)
        build_defines(gf);
    return strset_has(&gf->defines, name);
}

bool guards_path_deleted(gfile *files, size_t nfiles, const gstmt *del)
{
    const gfile *gf = del->gf;
    if (!gf->bdoc || del->old_line < 1)
        return false;
    if (block_deleted(gf, del))
        return true;
    const syn_func *fn = guards_function_at(&gf->bfuncs, del->old_line);
    if (!fn)
        return false;
    /* nearly every line of the function is deleted (a renamed function keeps its body) */
    if (deleted_in(gf->f, fn) * 10 < (fn->end_line - fn->start_line + 1) * 8)
        return false;
    for (size_t k = 0; k < nfiles; k++) {
        /* a file whose text never names the function cannot define it */
        if (!files[k].trees_read && !head_may_define(&files[k], fn->name))
            continue;
        guards_gfile_trees(&files[k]);
        const syn_func_list *hl = &files[k].hfuncs;
        for (size_t i = 0; i < hl->n; i++) {
            if (strcmp(hl->items[i].name, fn->name) != 0)
                continue;
            /* the same name elsewhere in its own file (or anywhere else) keeps the path */
            if (&files[k] != gf || strcmp(hl->items[i].qualname, fn->qualname) == 0 ||
                !fn->is_method)
                return false;
        }
    }
    return true;
}

/* --- still checked elsewhere ---------------------------------------------------------------- */


/* The symbol with the attribute chain that follows it in code, without white space:
 * "q.dtype" in `q.dtype == x`, "x.shape[1]", "p->size(0)"; NULL when sym is absent. */
static char *property_key(const char *code, const char *sym)
{
    char *n = guards_no_space(code);
    const char *p = guards_find_word(n, sym, false);
    if (!p) {
        free(n);
        return NULL;
    }
    const char *e = p + strlen(sym);
    for (;;) {
        if (*e == '.' || (*e == '-' && e[1] == '>')) {
            e += *e == '.' ? 1 : 2;
            while (str_ident_char(*e))
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
        if (fmt[0] == '%' && p > code && str_ident_char(p[-1]))
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

/* The negation of a simple condition (one comparison flipped, or a leading not / ! taken
 * off), or NULL when it is not that simple. */
static char *negated(const char *cond)
{
    static const char *const flip[][2] = {{"==", "!="}, {"!=", "=="}, {"<=", ">"},
                                          {">=", "<"},  {"<", ">="},  {">", "<="}};
    const char *p = str_lskip(cond);
    if (str_starts(p, "not ") || (p[0] == '!' && p[1] != '='))
        return str_strip(p + (p[0] == '!' ? 1 : 4));
    if (strstr(p, "&&") || strstr(p, "||") || guards_find_word(p, "and", false) ||
        guards_find_word(p, "or", false))
        return NULL;
    int depth = 0, found = -1;
    size_t at = 0, oplen = 0;
    for (size_t k = 0; p[k]; k++) {
        if (p[k] == '(' || p[k] == '[')
            depth++;
        else if (p[k] == ')' || p[k] == ']')
            depth--;
        else if (depth == 0)
            for (int f = 0; f < 6; f++) {
                size_t n = strlen(flip[f][0]);
                bool single_ok = n > 1 || !(p[k + 1] == '=' || p[k + 1] == p[k] ||
                                               (k && (p[k - 1] == p[k] || p[k - 1] == '-')));
                if (strncmp(p + k, flip[f][0], n) == 0 && single_ok) {
                    if (found >= 0)
                        return NULL;
                    found = f;
                    at = k;
                    oplen = n;
                    k += n - 1;
                    break;
                }
            }
    }
    if (found < 0)
        return NULL;
    return xasprintf("%.*s%s%s", (int)at, p, flip[found][1], p + at + oplen);
}

/* True when the head line code still enforces what a deleted guard enforced on its subject:
 * the same kind of check on the same symbol somewhere else. */
static bool enforces(const gstmt *del, const char *code)
{
    const char *sym = del->subject;
    if (!sym || !guards_find_word(code, sym, false))
        return false;
    if (del->kind == GK_ZERO)
        return has_filled(code, "%s.zero_()", sym) || has_filled(code, "%s.fill_(0", sym) ||
               (guards_kind(code) == GK_ZERO && !guards_is_empty_alloc(code));
    if (del->kind == GK_CONTIG)
        return strstr(code, "contiguous()") != NULL;
    char *cond = guards_condition(del->code);
    gwords dw = {0};
    guards_idents(cond, true, 1, false, &dw);
    bool presence = guards_is_presence_check(cond) || (dw.n == 1 && strcmp(dw.w[0], sym) == 0);
    bool r = false;
    if (presence) {
        r = tests_presence(code, sym);
    } else if (guards_kind(code) == GK_CHECK) {
        /* another check must test the same property of the symbol (`q.dtype`, `x.shape[1]`)
         * against the same thing (share a name besides those), or be the same condition */
        char *hc = guards_condition(code);
        char *key = property_key(cond, sym);
        char *n1 = guards_no_space(cond), *n2 = guards_no_space(hc);
        if (strcmp(n1, n2) == 0) {
            r = true;
        } else if (key && strstr(n2, key)) {
            gwords hw = {0};
            guards_idents(hc, true, 1, false, &hw);
            for (size_t i = 0; i < dw.n && !r; i++)
                if (strcmp(dw.w[i], sym) != 0 && !strstr(key, dw.w[i]) && guards_words_has(&hw, dw.w[i]))
                    r = true;
            guards_words_free(&hw);
        }
        free(n1);
        free(n2);
        free(key);
        free(hc);
    }
    guards_words_free(&dw);
    free(cond);
    return r;
}

/* True when the function holding line e of ef calls name at a line the check on e dominates. */
static bool caller_dominated(const gfile *ef, int e, const char *name)
{
    const syn_func *g = guards_function_at(&ef->hfuncs, e);
    if (!g)
        return false;
    syn_call_list calls = {0};
    syntax_calls(ef->hdoc, g->start_line, g->end_line, &calls);
    bool r = false;
    for (size_t i = 0; i < calls.n && !r; i++)
        r = strcmp(calls.items[i].name, name) == 0 &&
            guards_function_at(&ef->hfuncs, calls.items[i].line) == g &&
            guards_dominates(ef->hdoc, &ef->hfuncs, e, calls.items[i].line);
    syn_call_list_free(&calls);
    return r;
}

/* True when the function holding line e of ef is called on the path through line g of dgf
 * (inside function gfn), and e runs on every path through that function. */
static bool callee_on_path(const gfile *ef, int e, const gfile *dgf, int g, const syn_func *gfn)
{
    const syn_func *h = guards_function_at(&ef->hfuncs, e);
    if (!h || h == gfn || !guards_dominates(ef->hdoc, &ef->hfuncs, e, h->body_line))
        return false;
    syn_call_list calls = {0};
    syntax_calls(dgf->hdoc, gfn->start_line, gfn->end_line, &calls);
    bool r = false;
    for (size_t i = 0; i < calls.n && !r; i++)
        r = strcmp(calls.items[i].name, h->name) == 0 &&
            guards_dominates(dgf->hdoc, &dgf->hfuncs, calls.items[i].line, g);
    syn_call_list_free(&calls);
    return r;
}

/* True when a check on line e of ef runs on the path of the deleted guard (anchored at line g
 * of dgf): it dominates g in the same function, or dominates a call of g's function in a
 * caller, or sits unconditionally in a function called on g's path. */
static bool on_path(const gfile *ef, int e, const gfile *dgf, int g)
{
    if (!ef->hdoc || !dgf->hdoc)
        return false;
    if (ef == dgf && guards_dominates(dgf->hdoc, &dgf->hfuncs, e, g))
        return true;
    const syn_func *gfn = guards_function_at(&dgf->hfuncs, g);
    if (!gfn)
        return false;
    if (caller_dominated(ef, e, gfn->name) && guards_function_at(&ef->hfuncs, e) != gfn)
        return true;
    return callee_on_path(ef, e, dgf, g, gfn);
}

/* When line lies in the condition of an if / elif, that condition's text (a new string) and
 * the if node; else NULL. */
static char *if_condition_at(const syntax_doc *d, int line, TSNode *ifn)
{
    TSNode n = node_on_line(d, line);
    if (type_is(n, "if_statement") || type_is(n, "elif_clause")) {
        /* the line starts the if: read its condition */
        TSNode c = ts_node_child_by_field_name(n, "condition", 9);
        n = ts_node_is_null(c) ? n : ts_node_named_child_count(c) ? ts_node_named_child(c, 0) : c;
    }
    ancestry up;
    ancestry_of(n, &up);
    TSNode c = n;
    for (size_t k = 0; k < up.n; c = up.at[k], k++) {
        TSNode p = up.at[k];
        if (is_function_node(p))
            break;
        if (!type_is(p, "if_statement") && !type_is(p, "elif_clause"))
            continue;
        const char *fld = up.field[k];
        if (!fld || strcmp(fld, "condition") != 0)
            return NULL;
        *ifn = p;
        char *t = syntax_node_text(d, c);
        if (type_is(c, "condition_clause") || type_is(c, "parenthesized_expression")) {
            size_t k = strlen(t);
            if (k >= 2 && t[0] == '(' && t[k - 1] == ')') {
                char *in = xstrndup(t + 1, k - 2);
                free(t);
                t = in;
            }
        }
        return t;
    }
    return NULL;
}

/* True when an early exit on cond (`if cond: raise`) enforces del's condition: cond, or one of
 * its top-level disjuncts, is the negation of it. */
static bool exit_enforces(const gstmt *del, const char *cond)
{
    const char *dc = del->cond;
    gscope none = {0};
    bool r = false;
    int depth = 0;
    const char *s = cond;
    for (const char *p = cond;; p++) {
        bool end = !*p;
        if (!end && (*p == '(' || *p == '[' || *p == '{'))
            depth++;
        else if (!end && (*p == ')' || *p == ']' || *p == '}'))
            depth--;
        bool split = end || (depth == 0 && ((p[0] == '|' && p[1] == '|') ||
                                            (guards_find_word(p, "or", false) == p)));
        if (!split)
            continue;
        char *part = xstrndup(s, (size_t)(p - s));
        char *neg = negated(part);
        r = r || (neg && guards_compare(dc, &none, neg, &none, NULL) == GC_SAME);
        free(neg);
        free(part);
        if (end || r)
            break;
        p++; /* past the second character of || or of or */
        s = p + 1;
    }
    return r;
}

/* True when the early exit of if node ifn in ef runs before the deleted guard's place g of dgf
 * on every path: same file and function, its branch leaves, g comes after it and sits in no
 * branch the if is not in. */
static bool exit_on_path(const gfile *ef, TSNode ifn, const gfile *dgf, int g)
{
    if (ef != dgf || !branch_leaves(ifn))
        return false;
    int e = syntax_node_line(ifn);
    if (guards_function_at(&ef->hfuncs, e) != guards_function_at(&ef->hfuncs, g))
        return false;
    TSNode gn = node_on_line(ef->hdoc, g);
    /* g after the if, or inside it (the rewrite put the exit where the guard was) */
    if (ts_node_is_null(gn) || ts_node_start_byte(gn) < ts_node_start_byte(ifn))
        return false;
    bpath ep, gp;
    branch_path(ifn, &ep);
    branch_path(gn, &gp);
    for (size_t i = 0; i < ep.n; i++)
        if (!path_has(&gp, ep.steps[i]))
            return false;
    return true;
}

/* The code a deleted guard protected starts after its rewrite: the head line after the block of
 * added lines that replaced the deleted ones (g when the deletion is not a rewrite). An early
 * exit anywhere in that block runs before it. */
static int rewrite_end(const gfile *gf, const gstmt *del, int g)
{
    const change_file *f = gf->f;
    size_t e = del->di;
    while (e < f->nlines && f->lines[e].kind == '-')
        e++;
    size_t a = e;
    while (a < f->nlines && f->lines[a].kind == '+')
        a++;
    if (a == e || !gf->hdoc)
        return g;
    int last = f->lines[a - 1].new_no + 1;
    return last > gf->hdoc->nlines ? gf->hdoc->nlines : last;
}

/* The names the function holding line g of dgf calls (a new set; empty without one). */
static void calls_of_function(const gfile *dgf, int g, strset *out)
{
    const syn_func *gfn = dgf->hdoc ? guards_function_at(&dgf->hfuncs, g) : NULL;
    if (!gfn)
        return;
    syn_call_list calls = {0};
    syntax_calls(dgf->hdoc, gfn->start_line, gfn->end_line, &calls);
    for (size_t i = 0; i < calls.n; i++)
        strset_add(out, calls.items[i].name);
    syn_call_list_free(&calls);
}

/* True when a check in another file than the deleted guard's can be on its path (on_path):
 * that file names the guard's function (a caller), or one of the functions the guard's
 * function calls (a callee). A cheap text test that passes over unrelated files. */
static bool may_reach(const gfile *ef, const gfile *dgf, int g, const strset *callees)
{
    const syn_func *gfn = dgf->hdoc ? guards_function_at(&dgf->hfuncs, g) : NULL;
    if (!gfn || !ef->head)
        return false;
    if (*gfn->name && memmem(ef->head, ef->head_len, gfn->name, strlen(gfn->name)))
        return true;
    for (size_t i = 0; i < callees->n; i++)
        if (*callees->items[i] && memmem(ef->head, ef->head_len, callees->items[i],
                                         strlen(callees->items[i])))
            return true;
    return false;
}

size_t guards_find_enforcement(gfile *files, size_t nfiles, const gstmt *del,
                               const gfile *skip_gf, int skip, genforce *out)
{
    size_t n = 0;
    if (!del->subject)
        return 0;
    int g = guards_anchor_line(del->gf, del), g_exit = rewrite_end(del->gf, del, g);
    strset callees = {0};
    calls_of_function(del->gf, g, &callees);
    for (size_t k = 0; k < nfiles && n < GUARDS_EVIDENCE_MAX; k++) {
        gfile *gf = &files[k];
        if (!gf->head || gf->is_test)
            continue;
        if (gf != del->gf && !may_reach(gf, del->gf, g, &callees))
            continue;
        /* only a file whose text names the subject can check it */
        if (!memmem(gf->head, gf->head_len, del->subject, strlen(del->subject)))
            continue;
        guards_gfile_trees(gf);
        if (!gf->hdoc)
            continue;
        int line = 0;
        for (const char *p = gf->head, *end = gf->head + gf->head_len;
             p < end && n < GUARDS_EVIDENCE_MAX;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t len = (size_t)((nl ? nl : end) - p);
            line++;
            if (!(gf == skip_gf && line == skip) && memmem(p, len, del->subject, strlen(del->subject))) {
                char *code = syntax_line_code(gf->hdoc, line);
                TSNode ifn;
                char *cond = del->kind == GK_CHECK ? if_condition_at(gf->hdoc, line, &ifn) : NULL;
                bool exit = cond && exit_enforces(del, cond) && exit_on_path(gf, ifn, del->gf, g_exit);
                int at = exit ? syntax_node_line(ifn) : line;
                for (size_t i = 0; i < n && exit; i++)
                    exit = !(out[i].gf == gf && out[i].line == at); /* one if, several lines */
                free(cond);
                if (exit || (code && enforces(del, code) && on_path(gf, line, del->gf, g))) {
                    size_t alen;
                    const char *at_text = syntax_line_text(gf->hdoc, at, &alen);
                    char *raw = at_text ? xstrndup(at_text, alen) : xstrndup(p, len);
                    out[n].gf = gf;
                    out[n].line = at;
                    out[n].text = guards_quote(raw);
                    free(raw);
                    n++;
                }
                free(code);
            }
            p = nl ? nl + 1 : end;
        }
    }
    strset_free(&callees);
    return n;
}

void guards_enforcement_free(genforce *ev, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(ev[i].text);
}

/* --- helpers the change adds -------------------------------------------------------------- */

/* The definition node of a function (through decorators and template<...>). */
static TSNode definition_node(const syntax_doc *d, const syn_func *fn)
{
    TSNode n = syntax_node_at(d, fn->start_byte, fn->end_byte);
    for (int guard = 0; guard < 4 && !ts_node_is_null(n) && !type_is(n, "function_definition"); guard++) {
        TSNode def = ts_node_child_by_field_name(n, "definition", 10);
        if (ts_node_is_null(def)) {
            for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
                if (type_is(ts_node_named_child(n, i), "function_definition"))
                    def = ts_node_named_child(n, i);
        }
        if (ts_node_is_null(def))
            def = ts_node_parent(n);
        n = def;
    }
    return n;
}

/* The identifier a C++ declarator declares. */
static TSNode declared_name(TSNode n)
{
    for (int guard = 0; guard < 8 && !ts_node_is_null(n); guard++) {
        if (type_is(n, "identifier") || type_is(n, "field_identifier"))
            return n;
        TSNode d = ts_node_child_by_field_name(n, "declarator", 10);
        if (ts_node_is_null(d)) {
            uint32_t c = ts_node_named_child_count(n);
            if (c == 0)
                break;
            d = ts_node_named_child(n, c - 1);
        }
        n = d;
    }
    TSNode null = {{0}, NULL, NULL};
    return null;
}

size_t guards_param_names(const syntax_doc *d, const syn_func *fn, char **out, size_t max)
{
    TSNode def = definition_node(d, fn);
    if (!type_is(def, "function_definition"))
        return 0;
    TSNode params = ts_node_child_by_field_name(def, "parameters", 10);
    if (ts_node_is_null(params)) {
        TSNode decl = ts_node_child_by_field_name(def, "declarator", 10);
        for (int guard = 0; guard < 6 && !ts_node_is_null(decl) && !type_is(decl, "function_declarator"); guard++)
            decl = ts_node_child_by_field_name(decl, "declarator", 10);
        params = ts_node_is_null(decl) ? decl : ts_node_child_by_field_name(decl, "parameters", 10);
    }
    size_t n = 0;
    for (uint32_t i = 0; !ts_node_is_null(params) && i < ts_node_named_child_count(params) && n < max; i++) {
        TSNode p = ts_node_named_child(params, i);
        const char *t = ts_node_type(p);
        TSNode name = {{0}, NULL, NULL};
        if (!strcmp(t, "identifier"))
            name = p;
        else if (!strcmp(t, "default_parameter") || !strcmp(t, "typed_default_parameter"))
            name = ts_node_child_by_field_name(p, "name", 4);
        else if (!strcmp(t, "typed_parameter") && ts_node_named_child_count(p) > 0)
            name = ts_node_named_child(p, 0);
        else if (!strcmp(t, "parameter_declaration") || !strcmp(t, "optional_parameter_declaration"))
            name = declared_name(ts_node_child_by_field_name(p, "declarator", 10));
        else if (!strcmp(t, "keyword_separator") || !strcmp(t, "positional_separator"))
            continue;
        out[n++] = !ts_node_is_null(name) && type_is(name, "identifier") ? syntax_node_text(d, name) : NULL;
    }
    return n;
}

/* True when fn of file gf is new: its def line is added and the base has no function of that
 * qualified name. */
static bool is_new_function(const gfile *gf, const syn_func *fn)
{
    if (!diff_lines_added(gf->f, fn->name_line))
        return false;
    for (size_t i = 0; i < gf->bfuncs.n; i++)
        if (strcmp(gf->bfuncs.items[i].qualname, fn->qualname) == 0)
            return false;
    return true;
}

/* The statement starting on line of doc d, joined while brackets stay open: its code view and
 * (same length) its text with only comments blanked. */
static void joined_stmt(const syntax_doc *d, int line, int last, char **code, char **bare)
{
    strbuf c, b;
    sb_init(&c);
    sb_init(&b);
    int depth = 0;
    for (int k = line; k <= last && k < line + 8; k++) {
        char *lc = syntax_line_code(d, k), *lb = syntax_line_nocomment(d, k);
        if (!lc || !lb) {
            free(lc);
            free(lb);
            break;
        }
        char *sc = str_strip(lc), *sbr = str_strip(lb);
        if (c.len) {
            sb_addc(&c, ' ');
            sb_addc(&b, ' ');
        }
        sb_adds(&c, sc);
        sb_adds(&b, sbr);
        depth += guards_paren_balance(lc);
        free(lc);
        free(lb);
        free(sc);
        free(sbr);
        if (depth <= 0)
            break;
    }
    *code = c.buf ? sb_detach(&c) : xstrdup("");
    *bare = b.buf ? sb_detach(&b) : xstrdup("");
}

/* True when function h of doc d returns name (`return name`). */
static bool returns(const syntax_doc *d, const syn_func *h, const char *name)
{
    for (int k = h->body_line; k <= h->end_line; k++) {
        char *lc = syntax_line_code(d, k);
        const char *r = lc ? guards_find_word(lc, "return", false) : NULL;
        bool hit = r && guards_find_word(r + 6, name, false) && !strchr(r + 6, '(');
        free(lc);
        if (hit)
            return true;
    }
    return false;
}

char *guards_contig_root(const char *code)
{
    const char *m = strstr(code, ".contiguous(");
    if (!m)
        return NULL;
    const char *p = m;
    for (;;) {
        while (p > code && (p[-1] == ' ' || p[-1] == '\t'))
            p--;
        if (p > code && (p[-1] == ')' || p[-1] == ']')) {
            char close = p[-1], open = close == ')' ? '(' : '[';
            int depth = 0;
            while (p > code) {
                p--;
                if (*p == close)
                    depth++;
                else if (*p == open && --depth == 0)
                    break;
            }
        }
        const char *e = p;
        while (p > code && str_ident_char(p[-1]))
            p--;
        if (p > code && p[-1] == '.' && (p < e || p[0] == '(' || p[0] == '[')) {
            p--;
            continue;
        }
        return p < e && !isdigit((unsigned char)*p) ? xstrndup(p, (size_t)(e - p)) : NULL;
    }
}

/* True when a guard line of helper h keeps what del enforced, h's parameters read as the
 * call's arguments (sc): the same check condition; a zero-init whose buffer h returns; a
 * .contiguous() of the value the caller passes del's tensor as, or the same statement. */
static bool helper_line_keeps(const gstmt *del, const syntax_doc *d, const syn_func *h, int line,
                              const char *code, const char *bare, gscope *sc)
{
    if (del->kind == GK_CHECK) {
        char *hc = guards_condition_in(code, bare);
        gscope ds = {del->gf->bdoc, &del->gf->bfuncs, del->old_line, NULL, NULL, 0, true, del->nf};
        sc->line = line;
        bool r = guards_compare(del->cond, &ds, hc, sc, NULL) == GC_SAME;
        free(hc);
        return r;
    }
    char *n = guards_no_space(bare);
    bool same = strcmp(n, del->norm) == 0;
    free(n);
    if (same)
        return true;
    if (del->kind == GK_ZERO) {
        char *t = guards_target(code);
        bool r = t && returns(d, h, t);
        free(t);
        return r;
    }
    char *droot = guards_contig_root(del->code), *hroot = guards_contig_root(code);
    bool r = false;
    for (size_t k = 0; droot && hroot && k < sc->nsubst && !r; k++) {
        if (strcmp(sc->from[k], hroot) != 0)
            continue;
        char *aroot = xstrndup(sc->to[k], strspn(sc->to[k], "abcdefghijklmnopqrstuvwxyz"
                                                           "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"));
        r = strcmp(aroot, droot) == 0;
        free(aroot);
    }
    free(droot);
    free(hroot);
    return r;
}

/* The calls of head function fn of gf, read from the tree once for every deleted guard whose
 * search passes through it (borrowed; kept until the file is freed). */
static const syn_call_list *head_calls(gfile *gf, const syn_func *fn)
{
    size_t i = (size_t)(fn - gf->hfuncs.items);
    if (!gf->hcalls)
        gf->hcalls = xcalloc(gf->hfuncs.n ? gf->hfuncs.n : 1, sizeof *gf->hcalls);
    if (!gf->hcalls[i]) {
        gf->hcalls[i] = xcalloc(1, sizeof *gf->hcalls[i]);
        syntax_calls(gf->hdoc, fn->body_line, fn->end_line, gf->hcalls[i]);
    }
    return gf->hcalls[i];
}

/* The guard kind of head line `line` of gf (its code, strings and comments blanked), worked
 * out once per line. */
static gkind head_line_kind(gfile *gf, int line)
{
    int n = gf->hdoc->nlines;
    if (line < 1 || line > n)
        return GK_NONE;
    if (!gf->hkind) {
        gf->hkind = xmalloc((size_t)n + 1);
        memset(gf->hkind, -1, (size_t)n + 1);
    }
    if (gf->hkind[line] < 0) {
        char *lc = syntax_line_code(gf->hdoc, line);
        gf->hkind[line] = (signed char)(lc ? guards_kind(lc) : GK_NONE);
        free(lc);
    }
    return (gkind)gf->hkind[line];
}

/* Where a search through helpers stands: the change, the deleted guard, and what was found. */
typedef struct hsearch {
    gfile *files;
    size_t nfiles;
    const gstmt *del;
    const gfile *where;
    const syn_func *helper;
    int line;
} hsearch;

static bool helper_search(hsearch *hs, gfile *cf, const syn_func *caller, const char *const *cfrom,
                          const char *const *cto, size_t cn, int depth);

/* Look for del's guard in helper h (of file hf) called by call, the caller's own parameters
 * (cfrom → cto) read through; then one call deeper. */
static bool helper_guard(hsearch *hs, gfile *hf, const syn_func *h, const syn_call *call,
                         const char *const *cfrom, const char *const *cto, size_t cn, int depth)
{
    char *params[PARAMS_MAX];
    size_t np = guards_param_names(hf->hdoc, h, params, PARAMS_MAX);
    const char *from[PARAMS_MAX], *to[PARAMS_MAX];
    size_t ns = 0, skip = np > 0 && params[0] && h->is_method &&
                          (!strcmp(params[0], "self") || !strcmp(params[0], "cls"));
    for (size_t i = 0; i < call->nargs; i++) {
        const syn_arg *a = &call->args[i];
        if (a->text[0] == '*')
            continue;
        const char *text = a->text;
        for (size_t k = 0; k < cn; k++)
            if (!strcmp(text, cfrom[k]))
                text = cto[k];
        for (size_t k = 0; k < np; k++) {
            bool match = a->keyword ? params[k] && !strcmp(params[k], a->keyword) : k == i + skip;
            if (match && params[k] && ns < PARAMS_MAX) {
                from[ns] = params[k];
                to[ns++] = text;
            }
        }
    }
    gscope sc = {hf->hdoc, &hf->hfuncs, 0, from, to, ns, true, NULL};
    const gstmt *del = hs->del;
    for (int line = h->body_line; line <= h->end_line && !hs->helper; line++) {
        if (head_line_kind(hf, line) != del->kind)
            continue;
        char *code, *bare;
        joined_stmt(hf->hdoc, line, h->end_line, &code, &bare);
        if (guards_kind(code) == del->kind && helper_line_keeps(del, hf->hdoc, h, line, code, bare, &sc)) {
            hs->where = hf;
            hs->helper = h;
            hs->line = line;
        }
        free(code);
        free(bare);
    }
    if (!hs->helper && depth < 2)
        helper_search(hs, hf, h, from, to, ns, depth + 1);
    for (size_t k = 0; k < np; k++)
        free(params[k]);
    return hs->helper != NULL;
}

/* Search the functions that caller (in cf) calls, defined in a changed file, for del's guard. */
static bool helper_search(hsearch *hs, gfile *cf, const syn_func *caller, const char *const *cfrom,
                          const char *const *cto, size_t cn, int depth)
{
    const syn_call_list *cl = head_calls(cf, caller);
    for (size_t c = 0; c < cl->n && !hs->helper; c++) {
        for (size_t k = 0; k < hs->nfiles && !hs->helper; k++) {
            gfile *gf = &hs->files[k];
            const char *name = cl->items[c].name;
            /* a file whose text never names the callee cannot define it */
            if (gf->is_test || !head_may_define(gf, name))
                continue;
            guards_gfile_trees(gf);
            if (!gf->hdoc)
                continue;
            for (size_t i = 0; i < gf->hfuncs.n && !hs->helper; i++) {
                const syn_func *h = &gf->hfuncs.items[i];
                if (strcmp(h->name, cl->items[c].name) == 0 && h != caller)
                    helper_guard(hs, gf, h, &cl->items[c], cfrom, cto, cn, depth);
            }
        }
    }
    return hs->helper != NULL;
}

bool guards_helper_move(gfile *files, size_t nfiles, const gstmt *del, char **helper,
                        const gfile **where, int *line, bool *added)
{
    gfile *dgf = del->gf;
    *helper = NULL;
    if (!dgf->bdoc || !dgf->hdoc || del->old_line < 1)
        return false;
    const syn_func *bf = guards_function_at(&dgf->bfuncs, del->old_line), *hf = NULL;
    for (size_t i = 0; bf && i < dgf->hfuncs.n && !hf; i++)
        if (strcmp(dgf->hfuncs.items[i].qualname, bf->qualname) == 0)
            hf = &dgf->hfuncs.items[i];
    if (!hf)
        return false;
    hsearch hs = {files, nfiles, del, NULL, NULL, 0};
    if (!helper_search(&hs, dgf, hf, NULL, NULL, 0, 0))
        return false;
    *helper = xstrdup(hs.helper->name);
    *where = hs.where;
    *line = hs.line;
    *added = is_new_function(hs.where, hs.helper);
    return true;
}
