/* Preprocessor views of a C/C++ text, for the syntax layer. tree-sitter reads `#if` blocks only
 * where each branch is a complete construct on its own; kernels split initializers, parameter
 * lists and struct bodies across `#if`/`#else`, which the grammar cannot recover from. So the
 * parser never sees the conditional directives: a view keeps one branch per block and blanks the
 * directive lines and the other branches to spaces (newlines kept, same length), and positions
 * map one to one between the text and the view.
 *
 * The default view keeps each block's longest branch whose condition is not the constant 0 (the
 * first of equals; a host stub before a device implementation does not hide it; an `#if 0`
 * block with no `#else` keeps nothing: it is never parsed as code). A view can be asked to keep
 * given lines instead (the lines a change touches): for each block holding such a line, the
 * branch holding it (and every branch around it) is kept. When the lines fall in two branches
 * of one block, one view cannot keep both; view k keeps the one with the k-th most lines, and
 * pp_view_count says how many views cover every line. */
#include <stdlib.h>
#include <string.h>

#include "engine/syntax_internal.h"
#include "engine/util.h"

enum { PP_IF, PP_ELIF, PP_ELSE, PP_ENDIF, PP_OTHER };

/* One branch of a conditional block: from its directive to the next directive of its block. */
typedef struct pp_branch {
    int block;               /* index of its block */
    int parent;              /* the branch holding its block, -1 at file level */
    size_t dir_start, dir_end;  /* its directive's logical line (newline excluded) */
    size_t end;              /* the start of the next directive of its block (or the text end) */
    int first_line, last_line;  /* its directive line .. the line before the next directive */
    bool never;              /* `#if 0` / `#elif 0`: never code */
} pp_branch;

/* One #if ... #endif block. */
typedef struct pp_block {
    int *branches;           /* indices into the map's branches, in order */
    size_t n, cap;
    int parent;              /* the branch holding it, -1 at file level */
    size_t endif_start, endif_end;  /* its #endif, or both 0 when the text ends first */
    int wanted_n;            /* scratch for pp_select: how many distinct branches are wanted */
    int wanted[4];           /* the first few of them, most keep lines first */
    int wanted_lines[4];     /* how many keep lines each holds */
} pp_block;

struct pp_map {
    pp_branch *br;
    size_t nbr, brcap;
    pp_block *bl;
    size_t nbl, blcap;
};

/* The directive kind of a word after "#". */
static int directive_kind(const char *w, size_t n)
{
    static const struct {
        const char *w;
        int kind;
    } words[] = {
        {"if", PP_IF},       {"ifdef", PP_IF},       {"ifndef", PP_IF},  {"elif", PP_ELIF},
        {"elifdef", PP_ELIF}, {"elifndef", PP_ELIF}, {"else", PP_ELSE}, {"endif", PP_ENDIF},
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i].w) == n && memcmp(words[i].w, w, n) == 0)
            return words[i].kind;
    return PP_OTHER;
}

/* True when an #if / #elif condition is the constant 0 (comments and parentheses aside). */
static bool condition_never(const char *s, size_t n)
{
    char buf[32];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < sizeof buf; i++) {
        if (s[i] == '/' && i + 1 < n && (s[i + 1] == '/' || s[i + 1] == '*'))
            break;
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '(' && s[i] != ')' && s[i] != '\r' &&
            s[i] != '\\' && s[i] != '\n')
            buf[k++] = s[i];
    }
    buf[k] = '\0';
    return strcmp(buf, "0") == 0 || strcmp(buf, "false") == 0 || strcmp(buf, "0L") == 0;
}

/* Advance over one physical line from i, tracking block comments; returns the index of its
 * "\n" (or len). *in_comment carries the state across lines. */
size_t pp_scan_line(const char *s, size_t len, size_t i, bool *in_comment)
{
    /* most lines hold no comment or literal: find the end at memchr speed then */
    if (!*in_comment) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - s) : len;
        size_t k = i;
        while (k < end && s[k] != '/' && s[k] != '"' && s[k] != '\'')
            k++;
        if (k == end)
            return end;
    }
    char quote = 0;
    for (; i < len && s[i] != '\n'; i++) {
        char c = s[i];
        if (*in_comment) {
            if (c == '*' && i + 1 < len && s[i + 1] == '/') {
                *in_comment = false;
                i++;
            }
        } else if (quote) {
            if (c == '\\')
                i++;
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            /* a quote inside a number (1'000) or a word is no string */
            if (!(c == '\'' && i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9'))))
                quote = c;
        } else if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            *in_comment = true;
            i++;
        } else if (c == '/' && i + 1 < len && s[i + 1] == '/') {
            while (i + 1 < len && s[i + 1] != '\n')
                i++;
        }
    }
    return i;
}

/* The end of the logical line whose last physical line ends at e (a "\n" index or len): follow
 * backslash continuations. */
static size_t logical_end(const char *s, size_t len, size_t start, size_t e, bool *in_comment,
                          int *lines)
{
    while (e < len && e > start &&
           (s[e - 1] == '\\' || (s[e - 1] == '\r' && e - 1 > start && s[e - 2] == '\\'))) {
        if (lines)
            (*lines)++;
        e = pp_scan_line(s, len, e + 1, in_comment);
    }
    return e;
}

bool pp_next_directive(const char *s, size_t len, size_t *i, bool *in_comment, size_t *start,
                       size_t *end)
{
    while (*i < len) {
        size_t st = *i, j = st;
        bool was_comment = *in_comment;
        while (j < len && (s[j] == ' ' || s[j] == '\t'))
            j++;
        size_t e = pp_scan_line(s, len, st, in_comment);
        bool directive = !was_comment && j < len && s[j] == '#';
        if (directive)
            e = logical_end(s, len, st, e, in_comment, NULL);
        *i = e < len ? e + 1 : len;
        if (directive) {
            *start = st;
            *end = e;
            return true;
        }
    }
    return false;
}

/* Open a new branch of block b starting at the directive [start, end) on line. */
static void add_branch(pp_map *m, int b, size_t start, size_t end, int line, bool never)
{
    pp_block *bl = &m->bl[b];
    if (bl->n) {
        pp_branch *prev = &m->br[bl->branches[bl->n - 1]];
        prev->end = start;
        prev->last_line = line - 1;
    }
    pp_branch *br = ARRAY_PUSH(m->br, m->nbr, m->brcap);
    *br = (pp_branch){.block = b, .parent = bl->parent, .dir_start = start, .dir_end = end,
                      .first_line = line, .last_line = line, .never = never};
    *ARRAY_PUSH(bl->branches, bl->n, bl->cap) = (int)(m->nbr - 1);
}

/* Close block b at the directive [start, end) on line (start == len: the text ended). */
static void close_block(pp_map *m, int b, size_t start, size_t end, int line)
{
    pp_block *bl = &m->bl[b];
    pp_branch *last = &m->br[bl->branches[bl->n - 1]];
    last->end = start;
    last->last_line = line - 1;
    bl->endif_start = start;
    bl->endif_end = end;
}

/* One directive at [start, end) on line: update the map and the stack of open blocks. */
static void on_directive(pp_map *m, int kind, const char *cond, size_t cond_len, size_t start,
                         size_t end, int line, int **stack, size_t *depth, size_t *cap)
{
    if (kind == PP_IF) {
        int parent = *depth ? m->bl[(*stack)[*depth - 1]].branches[m->bl[(*stack)[*depth - 1]].n - 1]
                            : -1;
        pp_block *bl = ARRAY_PUSH(m->bl, m->nbl, m->blcap);
        memset(bl, 0, sizeof *bl);
        bl->parent = parent;
        *ARRAY_PUSH(*stack, *depth, *cap) = (int)(m->nbl - 1);
        add_branch(m, (int)(m->nbl - 1), start, end, line, condition_never(cond, cond_len));
    } else if (*depth == 0) {
        return; /* a stray #elif/#else/#endif: left as it is */
    } else if (kind == PP_ENDIF) {
        close_block(m, (*stack)[--*depth], start, end, line);
    } else {
        add_branch(m, (*stack)[*depth - 1], start, end, line,
                   kind == PP_ELIF && condition_never(cond, cond_len));
    }
}

/* The conditional blocks of a text. */
pp_map *pp_scan(const char *s, size_t len)
{
    pp_map *m = xcalloc(1, sizeof *m);
    int *stack = NULL;
    size_t depth = 0, cap = 0;
    bool in_comment = false;
    int line = 1;
    for (size_t i = 0; i < len;) {
        size_t start = i, j = i;
        bool was_comment = in_comment;
        while (j < len && (s[j] == ' ' || s[j] == '\t'))
            j++;
        if (!was_comment && j < len && s[j] == '#') {
            /* a directive: its logical line runs over backslash continuations */
            size_t w = j + 1;
            while (w < len && (s[w] == ' ' || s[w] == '\t'))
                w++;
            size_t we = w;
            while (we < len && ((s[we] >= 'a' && s[we] <= 'z')))
                we++;
            int kind = directive_kind(s + w, we - w);
            int first = line;
            size_t e = pp_scan_line(s, len, i, &in_comment);
            e = logical_end(s, len, start, e, &in_comment, &line);
            if (kind != PP_OTHER)
                on_directive(m, kind, s + we, e - we, start, e, first, &stack, &depth, &cap);
            i = e < len ? e + 1 : len;
        } else {
            size_t e = pp_scan_line(s, len, i, &in_comment);
            i = e < len ? e + 1 : len;
        }
        line++;
    }
    while (depth)
        close_block(m, stack[--depth], len, len, line);
    free(stack);
    return m;
}

void pp_free(pp_map *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nbl; i++)
        free(m->bl[i].branches);
    free(m->bl);
    free(m->br);
    free(m);
}

/* The position of branch br in its block. */
static int branch_index(const pp_map *m, int br)
{
    const pp_block *bl = &m->bl[m->br[br].block];
    for (size_t i = 0; i < bl->n; i++)
        if (bl->branches[i] == br)
            return (int)i;
    return -1;
}

/* The innermost branch holding line, or -1. */
static int branch_of_line(const pp_map *m, int line)
{
    int best = -1;
    for (size_t i = 0; i < m->nbr; i++)
        if (m->br[i].first_line <= line && line <= m->br[i].last_line &&
            (best < 0 || m->br[i].dir_start > m->br[best].dir_start))
            best = (int)i;
    return best;
}

/* True when branch br or a branch around it is never code. */
static bool never_chain(const pp_map *m, int br)
{
    for (; br >= 0; br = m->br[br].parent)
        if (m->br[br].never)
            return true;
    return false;
}

/* Record, per block, the distinct branches the keep lines want, in the order they come. */
static void collect_wanted(pp_map *m, const int *keep, size_t nkeep)
{
    for (size_t b = 0; b < m->nbl; b++)
        m->bl[b].wanted_n = 0;
    for (size_t k = 0; k < nkeep; k++) {
        int br = branch_of_line(m, keep[k]);
        if (br < 0 || never_chain(m, br))
            continue;
        for (; br >= 0; br = m->br[br].parent) {
            pp_block *bl = &m->bl[m->br[br].block];
            int idx = branch_index(m, br), j = 0;
            while (j < bl->wanted_n && bl->wanted[j] != idx)
                j++;
            if (j == bl->wanted_n && j < 4) {
                bl->wanted_lines[j] = 0;
                bl->wanted[bl->wanted_n++] = idx;
            }
            if (j < bl->wanted_n)
                bl->wanted_lines[j]++;
        }
    }
    /* the branch holding most of the lines first: view 0 reads most of a change (a new file's
     * host stub must not hide its device implementation); ties keep the order of the text */
    for (size_t b = 0; b < m->nbl; b++) {
        pp_block *bl = &m->bl[b];
        for (int i = 1; i < bl->wanted_n; i++)
            for (int j = i; j > 0 && bl->wanted_lines[j] > bl->wanted_lines[j - 1]; j--) {
                int w = bl->wanted[j], c = bl->wanted_lines[j];
                bl->wanted[j] = bl->wanted[j - 1];
                bl->wanted_lines[j] = bl->wanted_lines[j - 1];
                bl->wanted[j - 1] = w;
                bl->wanted_lines[j - 1] = c;
            }
    }
}

/* How many views it takes to keep every line of keep (at least 1). */
int pp_view_count(pp_map *m, const int *keep, size_t nkeep)
{
    collect_wanted(m, keep, nkeep);
    int n = 1;
    for (size_t b = 0; b < m->nbl; b++)
        if (m->bl[b].wanted_n > n)
            n = m->bl[b].wanted_n;
    return n;
}

/* The branch view `view` keeps in block b: a wanted one, else the default (the branch with
 * the most lines that is not `#if 0`, the first of equals), else -1. */
static int selected(const pp_map *m, size_t b, int view)
{
    const pp_block *bl = &m->bl[b];
    if (bl->wanted_n > 0)
        return bl->wanted[view < bl->wanted_n ? view : bl->wanted_n - 1];
    int best = -1, best_lines = -1;
    for (size_t i = 0; i < bl->n; i++) {
        const pp_branch *br = &m->br[bl->branches[i]];
        if (!br->never && br->last_line - br->first_line > best_lines) {
            best = (int)i;
            best_lines = br->last_line - br->first_line;
        }
    }
    return best;
}

/* True when branch br is kept and so is every branch around it. */
static bool branch_visible(const pp_map *m, const int *sel, int br)
{
    for (; br >= 0; br = m->br[br].parent)
        if (sel[m->br[br].block] != branch_index(m, br))
            return false;
    return true;
}

/* Blank [a, b) of s keeping newlines. */
static void blank_range(char *s, size_t a, size_t b)
{
    for (size_t i = a; i < b; i++)
        if (s[i] != '\n' && s[i] != '\r')
            s[i] = ' ';
}

/* Apply view `view` of the map (after pp_view_count/collect with the same keep lines) to s:
 * blank every conditional directive and every branch the view leaves out. The ranges left out
 * (branch contents only, directives not counted) are appended to *hidden as byte pairs. */
void pp_apply(pp_map *m, const int *keep, size_t nkeep, int view, char *s, size_t len,
              pp_range **hidden, size_t *nhidden, size_t *cap)
{
    collect_wanted(m, keep, nkeep);
    int *sel = xcalloc(m->nbl ? m->nbl : 1, sizeof *sel);
    for (size_t b = 0; b < m->nbl; b++)
        sel[b] = selected(m, b, view);
    for (size_t b = 0; b < m->nbl; b++) {
        const pp_block *bl = &m->bl[b];
        bool outer_visible = bl->parent < 0 || branch_visible(m, sel, bl->parent);
        for (size_t i = 0; i < bl->n; i++) {
            const pp_branch *br = &m->br[bl->branches[i]];
            blank_range(s, br->dir_start, br->dir_end < len ? br->dir_end : len);
            if ((int)i == sel[b])
                continue;
            size_t a = br->dir_end < len ? br->dir_end : len, e = br->end < len ? br->end : len;
            blank_range(s, a, e);
            if (a < e && s[a] == '\n')
                a++; /* the directive's own newline is not the branch's */
            if (outer_visible && e > a)
                *ARRAY_PUSH(*hidden, *nhidden, *cap) = (pp_range){(uint32_t)a, (uint32_t)e};
        }
        if (bl->endif_end > bl->endif_start)
            blank_range(s, bl->endif_start, bl->endif_end < len ? bl->endif_end : len);
    }
    free(sel);
}
