/* The syntax layer's documents: parsing with tree-sitter, the HIP masking that lets the C++
 * grammar read kernels, incremental reparse, positions, queries (compiled once per query set:
 * a cache's or a lone doc's), and the small position/comment helpers. The extractors built on
 * top of it live in files named for what they extract (syntax_functions.c, syntax_calls.c,
 * syntax_structs.c, syntax_layout.c, syntax_imports.c, syntax_comments.c, with the node helpers
 * they share in syntax_nodes.c), and the document cache above both in syntax_cache.c: no file
 * here calls back into one built on it. */
#include "engine/syntax.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/syntax_internal.h"
#include "engine/util.h"

const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_cpp(void);

/* Parsing a file should never take this long; past it we give up rather than hang. */
#define PARSE_TIMEOUT_MICROS (5u * 1000u * 1000u)

/* Map a path's extension to a language. */
syn_lang syntax_lang_of_path(const char *path)
{
    static const char *const py[] = {".py", ".pyi", NULL};
    static const char *const cpp[] = {".cu", ".cuh", ".hip", ".h", ".hpp", ".hh", ".hxx", ".cpp",
                                      ".cc", ".cxx", ".c", ".inl", ".ipp", NULL};
    if (!path)
        return SYN_NONE;
    for (int i = 0; py[i]; i++)
        if (str_ends(path, py[i]))
            return SYN_PYTHON;
    for (int i = 0; cpp[i]; i++)
        if (str_ends(path, cpp[i]))
            return SYN_CPP;
    return SYN_NONE;
}

/* The name of a language, for logs. */
const char *syntax_lang_name(syn_lang lang)
{
    return lang == SYN_PYTHON ? "python" : lang == SYN_CPP ? "cpp" : "none";
}

/* The tree-sitter grammar of a language. */
const TSLanguage *syntax_ts_language(syn_lang lang)
{
    syntax_alloc_install();
    return lang == SYN_PYTHON ? tree_sitter_python() : lang == SYN_CPP ? tree_sitter_cpp() : NULL;
}

/* Recompute the line index of a doc from its text. */
static void index_lines(syntax_doc *d)
{
    free(d->line_starts);
    d->line_starts = text_line_starts(d->text, d->len, &d->nlines);
}

static int range_cmp(const void *a, const void *b)
{
    const pp_range *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Remember the options a doc is parsed with (so syntax_update can apply them again). */
static void store_opts(syntax_doc *d, const syntax_parse_opts *o)
{
    if (o == &d->opts)
        return;
    free(d->keep);
    free(d->decorations);
    d->keep = NULL;
    d->nkeep = 0;
    d->view = o ? o->view : 0;
    d->decorations = o && o->decorations && *o->decorations ? xstrdup(o->decorations) : NULL;
    if (o && o->nkeep) {
        d->keep = xmalloc(o->nkeep * sizeof *d->keep);
        memcpy(d->keep, o->keep_lines, o->nkeep * sizeof *d->keep);
        d->nkeep = o->nkeep;
    }
    d->opts = (syntax_parse_opts){d->keep, d->nkeep, d->view, d->decorations};
}

/* A fresh copy of text to hand the parser: for C++, the preprocessor view of o (the default
 * one when o is NULL) with HIP words and decoration macros blanked. The branches the view
 * leaves out go to *hidden (sorted). */
char *syntax_parser_copy(syn_lang lang, const char *text, size_t len, const syntax_parse_opts *o,
                         pp_range **hidden, size_t *nhidden)
{
    char *p = xmalloc(len + 1);
    memcpy(p, text, len);
    p[len] = '\0';
    *hidden = NULL;
    *nhidden = 0;
    if (lang != SYN_CPP)
        return p;
    size_t cap = 0;
    pp_map *m = pp_scan(text, len);
    pp_apply(m, o ? o->keep_lines : NULL, o ? o->nkeep : 0, o ? o->view : 0, p, len, hidden,
             nhidden, &cap);
    pp_free(m);
    if (*nhidden > 1)
        qsort(*hidden, *nhidden, sizeof **hidden, range_cmp);
    deco_set *set = deco_new();
    if (o && o->decorations)
        deco_add_list(set, o->decorations);
    deco_learn(set, text, len);
    deco_mask(p, len, set);
    deco_free(set);
    gaps_rewrite(p, len);
    return p;
}

/* Parse a text in a language into a new document (the default view). */
syntax_doc *syntax_parse(syn_lang lang, const char *text, size_t len, char **cause)
{
    return syntax_parse_with(lang, text, len, NULL, cause);
}

/* Parse a text in a language into a new document, in the view and with the decorations of o. */
syntax_doc *syntax_parse_with(syn_lang lang, const char *text, size_t len,
                              const syntax_parse_opts *o, char **cause)
{
    if (!syntax_parse_checks(lang, len, cause))
        return NULL;
    pp_range *hidden;
    size_t nhidden;
    char *parsed = syntax_parser_copy(lang, text ? text : "", text ? len : 0, o, &hidden, &nhidden);
    return syntax_parse_copy(lang, text, len, o, parsed, hidden, nhidden, NULL, cause);
}

/* False with *cause when text of this language and length cannot be parsed at all. */
bool syntax_parse_checks(syn_lang lang, size_t len, char **cause)
{
    const TSLanguage *tl = syntax_ts_language(lang);
    if (!tl) {
        *cause = xstrdup("not a language the syntax layer parses");
        return false;
    }
    if (len > UINT32_MAX / 2) {
        *cause = xstrdup("text too large to parse");
        return false;
    }
    return true;
}

/* The body of syntax_parse_with, from the parser's copy (owned here): parsed afresh, or from
 * old (an edited copy of a related doc's tree, borrowed). */
syntax_doc *syntax_parse_copy(syn_lang lang, const char *text, size_t len, const syntax_parse_opts *o,
                              char *parsed, pp_range *hidden, size_t nhidden, const TSTree *old,
                              char **cause)
{
    const TSLanguage *tl = syntax_ts_language(lang);
    TSParser *p = ts_parser_new();
    if (!tl || !ts_parser_set_language(p, tl)) {
        ts_parser_delete(p);
        free(parsed);
        free(hidden);
        *cause = xasprintf("tree-sitter runtime refuses the %s grammar (ABI %u)",
                           syntax_lang_name(lang), tl ? ts_language_version(tl) : 0u);
        return NULL;
    }
    ts_parser_set_timeout_micros(p, PARSE_TIMEOUT_MICROS);
    TSTree *t = ts_parser_parse_string(p, old, parsed, (uint32_t)len);
    if (!t) {
        free(parsed);
        free(hidden);
        ts_parser_delete(p);
        *cause = xstrdup("parse timed out");
        return NULL;
    }
    syntax_doc *d = xcalloc(1, sizeof *d);
    d->lang = lang;
    d->text = xstrndup(text ? text : "", text ? len : 0);
    d->len = len;
    d->parsed = parsed;
    d->parser = p;
    d->tree = t;
    d->has_errors = ts_node_has_error(ts_tree_root_node(t));
    d->hidden = hidden;
    d->nhidden = nhidden;
    d->reread = len;
    store_opts(d, o);
    index_lines(d);
    return d;
}

/* Parse a file's text with the language its extension implies. */
syntax_doc *syntax_parse_path(const char *path, const char *text, size_t len, char **cause)
{
    syn_lang lang = syntax_lang_of_path(path);
    if (lang == SYN_NONE) {
        *cause = xasprintf("%s: not a Python or C++ file", path ? path : "(null)");
        return NULL;
    }
    return syntax_parse(lang, text, len, cause);
}

/* Release a document and everything it owns. */
void syntax_free(syntax_doc *d)
{
    if (!d)
        return;
    ts_tree_delete(d->tree);
    ts_parser_delete(d->parser);
    free(d->text);
    free(d->parsed);
    free(d->line_starts);
    free(d->spans);
    free(d->quotes);
    free(d->chunks);
    free(d->hidden);
    free(d->keep);
    free(d->decorations);
    if (d->own_queries)
        syntax_queries_free(d->queries);
    free(d);
}

/* The row/column point of a byte offset of the doc's current text (from its line index). */
static TSPoint doc_point(const syntax_doc *d, size_t off)
{
    int line = syntax_line_of(d, off);
    return (TSPoint){(uint32_t)(line - 1), (uint32_t)(off - syntax_line_start(d, line))};
}

/* The point of offset `to` of new text s, given the point `from_pt` of offset `from` <= to
 * (both texts agree before `from`): only the bytes between are scanned. */
static TSPoint point_after(const char *s, size_t from, TSPoint from_pt, size_t to)
{
    TSPoint pt = from_pt;
    size_t line_start = from - from_pt.column;
    for (size_t i = from; i < to; i++)
        if (s[i] == '\n') {
            pt.row++;
            line_start = i + 1;
        }
    pt.column = (uint32_t)(to - line_start);
    return pt;
}

/* Replace the doc's text, telling tree-sitter only the range that changed in the parsed copy
 * (computed from the masked texts, so a change of masking outside the user's edit is seen). */
int syntax_update(syntax_doc *d, const char *text, size_t len, char **cause)
{
    return syntax_update_with(d, text, len, &d->opts, cause);
}

/* The same, switching to the view and decorations of o (NULL: the default view). */
int syntax_update_with(syntax_doc *d, const char *text, size_t len, const syntax_parse_opts *o,
                       char **cause)
{
    if (len > UINT32_MAX / 2) {
        *cause = xstrdup("text too large to parse");
        return -1;
    }
    pp_range *hidden;
    size_t nhidden;
    char *parsed = syntax_parser_copy(d->lang, text ? text : "", text ? len : 0, o, &hidden, &nhidden);
    size_t old_len = d->len, pre = 0, suf = 0;
    while (pre < old_len && pre < len && d->parsed[pre] == parsed[pre])
        pre++;
    while (suf < old_len - pre && suf < len - pre &&
           d->parsed[old_len - 1 - suf] == parsed[len - 1 - suf])
        suf++;
    if (pre == old_len && pre == len && memcmp(d->text, text ? text : "", len) == 0) {
        free(parsed);
        free(d->hidden);
        d->hidden = hidden;
        d->nhidden = nhidden;
        store_opts(d, o);
        return 0;
    }
    TSPoint start_pt = doc_point(d, pre);
    TSInputEdit e = {
        .start_byte = (uint32_t)pre,
        .old_end_byte = (uint32_t)(old_len - suf),
        .new_end_byte = (uint32_t)(len - suf),
        .start_point = start_pt,
        .old_end_point = doc_point(d, old_len - suf),
        .new_end_point = point_after(parsed, pre, start_pt, len - suf),
    };
    TSTree *old = ts_tree_copy(d->tree);
    ts_tree_edit(old, &e);
    TSTree *t = ts_parser_parse_string(d->parser, old, parsed, (uint32_t)len);
    ts_tree_delete(old);
    if (!t) {
        ts_parser_reset(d->parser);
        free(parsed);
        free(hidden);
        *cause = xstrdup("reparse timed out");
        return -1;
    }
    ts_tree_delete(d->tree);
    d->tree = t;
    free(d->parsed);
    d->parsed = parsed;
    free(d->text);
    d->text = xstrndup(text ? text : "", text ? len : 0);
    d->len = len;
    d->has_errors = ts_node_has_error(ts_tree_root_node(t));
    free(d->hidden);
    d->hidden = hidden;
    d->nhidden = nhidden;
    store_opts(d, o);
    index_lines(d);
    free(d->spans);
    free(d->quotes);
    free(d->chunks);
    d->spans = d->quotes = NULL;
    d->chunks = NULL;
    d->nspans = d->nquotes = d->nchunks = 0;
    d->spans_ready = false;
    return 0;
}

/* Splice repl into the doc's text and reparse incrementally. */
int syntax_edit(syntax_doc *d, size_t start, size_t old_end, const char *repl, size_t repl_len,
                char **cause)
{
    if (start > d->len)
        start = d->len;
    if (old_end > d->len)
        old_end = d->len;
    if (old_end < start)
        old_end = start;
    strbuf sb;
    sb_init(&sb);
    sb_add(&sb, d->text, start);
    sb_add(&sb, repl ? repl : "", repl ? repl_len : 0);
    sb_add(&sb, d->text + old_end, d->len - old_end);
    int rc = syntax_update(d, sb.buf, sb.len, cause);
    sb_free(&sb);
    return rc;
}

/* Depth-first search for the first ERROR or MISSING node under n. */
static bool find_error(TSNode n, TSNode *out)
{
    if (strcmp(ts_node_type(n), "ERROR") == 0 || ts_node_is_missing(n)) {
        *out = n;
        return true;
    }
    if (!ts_node_has_error(n))
        return false;
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        if (find_error(ts_node_child(n, i), out))
            return true;
    return false;
}

/* Where the first syntax error is, for the log. */
int syntax_first_error(const syntax_doc *d, int *col, char **what)
{
    TSNode e;
    if (!d->has_errors || !find_error(ts_tree_root_node(d->tree), &e)) {
        if (col)
            *col = -1;
        if (what)
            *what = NULL;
        return 0;
    }
    TSPoint p = ts_node_start_point(e);
    if (col)
        *col = (int)p.column;
    if (what)
        *what = ts_node_is_missing(e) ? xasprintf("missing %s", ts_node_type(e))
                                      : xstrdup("syntax error");
    return (int)p.row + 1;
}

/* --- positions ------------------------------------------------------------------------ */

/* The 1-based line holding a byte offset (binary search over the line index). */
int syntax_line_in(const size_t *starts, int nlines, size_t byte)
{
    if (nlines <= 0)
        return 1;
    int lo = 0, hi = nlines - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (starts[mid] <= byte)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo + 1;
}

int syntax_line_of(const syntax_doc *d, size_t byte)
{
    return syntax_line_in(d->line_starts, d->nlines, byte);
}

/* Byte offset where a 1-based line starts. */
size_t syntax_line_start(const syntax_doc *d, int line)
{
    if (line < 1)
        return 0;
    if (line > d->nlines)
        return d->len;
    return d->line_starts[line - 1];
}

/* A line's text (borrowed) and length without its newline. */
const char *syntax_line_text(const syntax_doc *d, int line, size_t *len)
{
    if (line < 1 || line > d->nlines) {
        if (len)
            *len = 0;
        return NULL;
    }
    size_t s = d->line_starts[line - 1];
    size_t e = line < d->nlines ? d->line_starts[line] - 1 : d->len;
    if (e > s && d->text[e - 1] == '\n')
        e--;
    if (len)
        *len = e - s;
    return d->text + s;
}

/* A node's source text, copied. */
char *syntax_node_text(const syntax_doc *d, TSNode n)
{
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (e > d->len)
        e = (uint32_t)d->len;
    if (s > e)
        s = e;
    return xstrndup(d->text + s, e - s);
}

/* A node's first line, 1-based. */
int syntax_node_line(TSNode n)
{
    return (int)ts_node_start_point(n).row + 1;
}

/* A node's last line, 1-based (a node ending at column 0 ends on the line before). */
int syntax_node_end_line(TSNode n)
{
    TSPoint e = ts_node_end_point(n), s = ts_node_start_point(n);
    if (e.column == 0 && e.row > s.row)
        return (int)e.row;
    return (int)e.row + 1;
}

/* The smallest named node spanning a byte range. */
TSNode syntax_node_at(const syntax_doc *d, size_t start, size_t end)
{
    return ts_node_named_descendant_for_byte_range(ts_tree_root_node(d->tree), (uint32_t)start,
                                                   (uint32_t)end);
}

/* The byte offset of (line, col), clamped to the line. */
static size_t offset_of(const syntax_doc *d, int line, int col)
{
    size_t len;
    const char *t = syntax_line_text(d, line, &len);
    if (!t)
        return d->len;
    if (col < 0)
        col = 0;
    if ((size_t)col > len)
        col = (int)len;
    return (size_t)(t - d->text) + (size_t)col;
}

/* --- comment and string spans ---------------------------------------------------------------
 * Asking a node for its parent is linear in tree-sitter 0.20, so deciding "is this byte in a
 * comment or a string" by walking up from each token made a 2,000-line file cost seconds.
 * Instead one cursor walk per parsed text records every comment, string and docstring as a
 * byte range (and the quote tokens inside ordinary strings, which stay visible when string
 * contents are blanked); lookups are then binary searches. */
enum { SPAN_COMMENT, SPAN_STRING, SPAN_DOCSTRING };

typedef struct syn_span {
    uint32_t start, end;
    int kind;
} syn_span;

static bool is_string_type(const char *t)
{
    return strcmp(t, "string") == 0 || strcmp(t, "string_literal") == 0 ||
           strcmp(t, "raw_string_literal") == 0 || strcmp(t, "char_literal") == 0 ||
           strcmp(t, "concatenated_string") == 0 || strcmp(t, "system_lib_string") == 0;
}

static bool is_quote_type(const char *t)
{
    return strcmp(t, "\"") == 0 || strcmp(t, "'") == 0 || strcmp(t, "string_start") == 0 ||
           strcmp(t, "string_end") == 0;
}

typedef struct span_acc {
    syn_span *spans, *quotes;
    size_t n, cap, nq, qcap;
} span_acc;

static void span_add(syn_span **arr, size_t *n, size_t *cap, TSNode node, int kind)
{
    syn_span *s = ARRAY_PUSH(*arr, *n, *cap);
    s->start = ts_node_start_byte(node);
    s->end = ts_node_end_byte(node);
    s->kind = kind;
}

/* Depth-first walk under the cursor, recording spans (in_string: inside an ordinary string). */
static void span_walk(const syntax_doc *d, TSTreeCursor *c, bool in_string, span_acc *a)
{
    TSNode n = ts_tree_cursor_current_node(c);
    const char *t = ts_node_type(n);
    if (in_string) {
        if (is_quote_type(t)) {
            span_add(&a->quotes, &a->nq, &a->qcap, n, SPAN_STRING);
            return;
        }
    } else if (strcmp(t, "comment") == 0) {
        span_add(&a->spans, &a->n, &a->cap, n, SPAN_COMMENT);
        return;
    } else if (d->lang == SYN_PYTHON && strcmp(t, "expression_statement") == 0 &&
               ts_node_named_child_count(n) == 1 &&
               strcmp(ts_node_type(ts_node_named_child(n, 0)), "string") == 0) {
        /* a string that is a statement of its own: a docstring, blanked quotes and all */
        span_add(&a->spans, &a->n, &a->cap, ts_node_named_child(n, 0), SPAN_DOCSTRING);
        return;
    } else if (is_string_type(t)) {
        span_add(&a->spans, &a->n, &a->cap, n, SPAN_STRING);
        in_string = true;
    }
    if (ts_tree_cursor_goto_first_child(c)) {
        do
            span_walk(d, c, in_string, a);
        while (ts_tree_cursor_goto_next_sibling(c));
        ts_tree_cursor_goto_parent(c);
    }
}

/* One child of the root: a top-level statement, definition or comment. */
typedef struct syn_chunk {
    TSNode node;
    uint32_t start, end;
    bool read;      /* its spans are in the doc's lists */
} syn_chunk;

/* Insert src[0..ns) (sorted, and all after or before every span of one gap) into the sorted
 * list *arr of *n. */
static void spans_merge(syn_span **arr, size_t *n, const syn_span *src, size_t ns)
{
    if (!ns)
        return;
    size_t at = 0, lo = 0, hi = *n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((*arr)[mid].start < src[0].start)
            lo = mid + 1;
        else
            hi = mid;
    }
    at = lo;
    *arr = xrealloc(*arr, (*n + ns) * sizeof **arr);
    memmove(*arr + at + ns, *arr + at, (*n - at) * sizeof **arr);
    memcpy(*arr + at, src, ns * sizeof *src);
    *n += ns;
}

/* Make sure the doc's span lists hold every span of the top-level nodes that overlap bytes
 * [from, to]: a change to a long file asks about a few of its definitions, so only those are
 * walked (the lists stay sorted: top-level nodes do not overlap). */
static void ensure_spans_over(const syntax_doc *cd, size_t from, size_t to)
{
    syntax_doc *d = (syntax_doc *)cd; /* a cache inside a logically const doc */
    if (d->spans_ready)
        return;
    TSNode root = ts_tree_root_node(d->tree);
    if (!d->chunks) {
        size_t cap = 0;
        TSTreeCursor c = ts_tree_cursor_new(root);
        if (ts_tree_cursor_goto_first_child(&c)) {
            do {
                TSNode n = ts_tree_cursor_current_node(&c);
                syn_chunk *k = ARRAY_PUSH(d->chunks, d->nchunks, cap);
                k->node = n;
                k->start = ts_node_start_byte(n);
                k->end = ts_node_end_byte(n);
                k->read = false;
            } while (ts_tree_cursor_goto_next_sibling(&c));
        }
        ts_tree_cursor_delete(&c);
        if (!d->nchunks) { /* a root without children: nothing to read */
            d->spans_ready = true;
            return;
        }
    }
    /* the first chunk ending after from, then every one starting by to */
    size_t lo = 0, hi = d->nchunks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (d->chunks[mid].end <= from)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < d->nchunks && d->chunks[i].start <= to; i++) {
        if (d->chunks[i].read)
            continue;
        span_acc a = {0};
        TSTreeCursor c = ts_tree_cursor_new(d->chunks[i].node);
        span_walk(d, &c, false, &a);
        ts_tree_cursor_delete(&c);
        spans_merge(&d->spans, &d->nspans, a.spans, a.n);
        spans_merge(&d->quotes, &d->nquotes, a.quotes, a.nq);
        free(a.spans);
        free(a.quotes);
        d->chunks[i].read = true;
    }
}

/* Index of the first span in arr ending after off. */
static size_t span_first_after(const syn_span *arr, size_t n, size_t off)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (arr[mid].end <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The span holding byte off, or NULL. */
static const syn_span *span_at(const syntax_doc *d, size_t off)
{
    ensure_spans_over(d, off, off);
    size_t i = span_first_after(d->spans, d->nspans, off);
    if (i < d->nspans && d->spans[i].start <= off && off < d->spans[i].end)
        return &d->spans[i];
    return NULL;
}

/* Whether the byte at (line, col) is inside a comment. */
bool syntax_in_comment(const syntax_doc *d, int line, int col)
{
    size_t off = offset_of(d, line, col);
    const syn_span *s = span_at(d, off);
    return s && s->kind == SPAN_COMMENT;
}

/* Whether a line carries code (not only blanks, comments, docstrings). */
bool syntax_line_has_code(const syntax_doc *d, int line)
{
    size_t len;
    const char *t = syntax_line_text(d, line, &len);
    if (!t)
        return false;
    size_t base = (size_t)(t - d->text);
    for (size_t i = 0; i < len; i++) {
        if (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\f')
            continue;
        const syn_span *s = span_at(d, base + i);
        if (!s || s->kind == SPAN_STRING)
            return true;
        if (s->end <= base + i)
            return true;
        i = s->end - base - 1; /* skip the rest of the comment or docstring */
    }
    return false;
}

/* A line with comments blanked and, unless keep_strings, string contents too (an ordinary
 * string keeps its quotes; a docstring goes whole), from the doc's spans. */
static char *line_code(const syntax_doc *d, int line, bool keep_strings)
{
    size_t len;
    const char *t = syntax_line_text(d, line, &len);
    if (!t)
        return NULL;
    size_t base = (size_t)(t - d->text), end = base + len;
    ensure_spans_over(d, base, end);
    char *out = xstrndup(t, len);
    for (size_t i = span_first_after(d->spans, d->nspans, base);
         i < d->nspans && d->spans[i].start < end; i++) {
        const syn_span *s = &d->spans[i];
        if (s->kind != SPAN_COMMENT && keep_strings)
            continue;
        size_t a = s->start > base ? s->start - base : 0;
        size_t b = s->end < end ? s->end - base : len;
        memset(out + a, ' ', b - a);
        if (s->kind != SPAN_STRING)
            continue;
        for (size_t q = span_first_after(d->quotes, d->nquotes, base > s->start ? base : s->start);
             q < d->nquotes && d->quotes[q].start < (s->end < end ? s->end : end); q++) {
            size_t qa = d->quotes[q].start > base ? d->quotes[q].start - base : 0;
            size_t qb = d->quotes[q].end < end ? d->quotes[q].end - base : len;
            memcpy(out + qa, t + qa, qb - qa);
        }
    }
    return out;
}

/* A line's code with comments blanked and, unless keep_strings, string contents, lexically. */
static char *text_code(syn_lang lang, const char *text, size_t len, bool keep_strings)
{
    char *out = xstrndup(text ? text : "", text ? len : 0);
    const char *s = str_lskip(out);
    if (lang == SYN_CPP && (s[0] == '*' || (s[0] == '/' && s[1] == '*'))) {
        const char *close = strstr(s, "*/");
        size_t upto = close ? (size_t)(close - out) + 2 : len;
        memset(out, ' ', upto);
        if (!close)
            return out;
    }
    char quote = 0;
    for (size_t i = 0; i < len; i++) {
        char c = out[i];
        if (quote) {
            if (c == '\\' && i + 1 < len) {
                if (!keep_strings)
                    out[i] = out[i + 1] = ' ';
                i++;
            } else if (c == quote) {
                quote = 0;
            } else if (!keep_strings) {
                out[i] = ' ';
            }
            continue;
        }
        if (c == '"' || c == '\'') {
            quote = c;
        } else if ((lang == SYN_PYTHON && c == '#') ||
                   (lang != SYN_PYTHON && c == '/' && i + 1 < len && out[i + 1] == '/')) {
            memset(out + i, ' ', len - i);
            break;
        } else if (lang != SYN_PYTHON && c == '/' && i + 1 < len && out[i + 1] == '*') {
            const char *close = strstr(out + i + 2, "*/");
            size_t e = close ? (size_t)(close - out) + 2 : len;
            memset(out + i, ' ', e - i);
            i = e - 1;
        }
    }
    return out;
}

/* A line's code with comments and string contents blanked, from the tree. */
char *syntax_line_code(const syntax_doc *d, int line)
{
    return line_code(d, line, false);
}

/* A line with its comments blanked, strings kept, from the tree. */
char *syntax_line_nocomment(const syntax_doc *d, int line)
{
    return line_code(d, line, true);
}

/* A line's code with comments and string contents blanked, lexically. */
char *syntax_text_code(syn_lang lang, const char *text, size_t len)
{
    return text_code(lang, text, len, false);
}

/* A line with its comments blanked, strings kept, lexically. */
char *syntax_text_nocomment(syn_lang lang, const char *text, size_t len)
{
    return text_code(lang, text, len, true);
}

/* --- queries: compiled once per query set, the syntax cache's (shared by its docs) or a lone
 * doc's own; no process-wide state --------------------------------------------------------- */

typedef struct query_entry {
    struct query_entry *next;
    syn_lang lang;
    char *source;
    TSQuery *q;
} query_entry;

/* Looked up and compiled under a lock: the caches of several reviewing threads share one set
 * (syntax_cache_new_beside). A compiled query is never changed, so its users need no lock. */
struct syntax_queries {
    query_entry *head;
    pthread_mutex_t mu;
};

syntax_queries *syntax_queries_new(void)
{
    syntax_queries *qs = xcalloc(1, sizeof(syntax_queries));
    pthread_mutex_init(&qs->mu, NULL);
    return qs;
}

void syntax_queries_free(syntax_queries *qs)
{
    if (!qs)
        return;
    while (qs->head) {
        query_entry *e = qs->head;
        qs->head = e->next;
        ts_query_delete(e->q);
        free(e->source);
        free(e);
    }
    pthread_mutex_destroy(&qs->mu);
    free(qs);
}

/* queries_get, the caller holding qs's lock. */
static const TSQuery *queries_find_or_compile(syntax_queries *qs, syn_lang lang,
                                              const char *source, char **cause)
{
    for (query_entry *e = qs->head; e; e = e->next)
        if (e->lang == lang && strcmp(e->source, source) == 0)
            return e->q;
    uint32_t err_off = 0;
    TSQueryError err = TSQueryErrorNone;
    TSQuery *q = ts_query_new(syntax_ts_language(lang), source, (uint32_t)strlen(source),
                              &err_off, &err);
    if (!q) {
        if (cause)
            *cause = xasprintf("query does not compile for %s: error %d at offset %u",
                               syntax_lang_name(lang), (int)err, err_off);
        return NULL;
    }
    query_entry *e = xcalloc(1, sizeof *e);
    e->lang = lang;
    e->source = xstrdup(source);
    e->q = q;
    e->next = qs->head;
    qs->head = e;
    return q;
}

/* The compiled query for (lang, source) in qs, compiling it on first use. */
static const TSQuery *queries_get(syntax_queries *qs, syn_lang lang, const char *source,
                                  char **cause)
{
    pthread_mutex_lock(&qs->mu);
    const TSQuery *q = queries_find_or_compile(qs, lang, source, cause);
    pthread_mutex_unlock(&qs->mu);
    return q;
}

/* The query set of a doc: its cache's, or (for a doc parsed alone) its own, made on first
 * need like the spans. */
static syntax_queries *doc_queries(const syntax_doc *d)
{
    syntax_doc *m = (syntax_doc *)d;
    if (!m->queries) {
        m->queries = syntax_queries_new();
        m->own_queries = true;
    }
    return m->queries;
}

/* Run a query over a line range of the doc, calling fn per match. */
int syntax_query(const syntax_doc *d, const char *source, int first_line, int last_line,
                 syntax_match_fn fn, void *arg, char **cause)
{
    const TSQuery *q = queries_get(doc_queries(d), d->lang, source, cause);
    if (!q)
        return -1;
    TSQueryCursor *qc = ts_query_cursor_new();
    if (first_line > 0 || last_line > 0) {
        TSPoint s = {(uint32_t)(first_line > 0 ? first_line - 1 : 0), 0};
        TSPoint e = {last_line > 0 ? (uint32_t)last_line : UINT32_MAX / 2, 0};
        ts_query_cursor_set_point_range(qc, s, e);
    }
    ts_query_cursor_exec(qc, q, ts_tree_root_node(d->tree));
    TSQueryMatch m;
    while (ts_query_cursor_next_match(qc, &m))
        if (!fn(d, q, &m, arg))
            break;
    ts_query_cursor_delete(qc);
    return 0;
}

/* What syntax_query_touching hands its own match function: the caller's, and the run. */
typedef struct touching_walk {
    const char *capture;
    int first_line, last_line, after_line;
    syntax_match_fn fn;
    void *arg;
    bool stop;
} touching_walk;

static bool touching_match(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    touching_walk *w = arg;
    TSNode n = {0};
    for (uint16_t i = 0; i < m->capture_count && ts_node_is_null(n); i++) {
        uint32_t len;
        const char *name = ts_query_capture_name_for_id(q, m->captures[i].index, &len);
        if (strlen(w->capture) == len && memcmp(name, w->capture, len) == 0)
            n = m->captures[i].node;
    }
    if (ts_node_is_null(n))
        return true;
    int line = syntax_node_line(n), end = (int)ts_node_end_point(n).row + 1;
    /* one that starts by the end of an earlier run overlapped it and was called then */
    if (line <= w->after_line || line > w->last_line || end < w->first_line)
        return true;
    w->stop = !w->fn(d, q, m, w->arg);
    return !w->stop;
}

int syntax_query_touching(const syntax_doc *d, const char *source, const char *capture,
                          const line_run *runs, size_t nruns, syntax_match_fn fn, void *arg,
                          char **cause)
{
    touching_walk w = {capture, 0, 0, 0, fn, arg, false};
    for (size_t r = 0; r < nruns && !w.stop; r++) {
        if (runs[r].first < 1 || runs[r].last < runs[r].first || runs[r].first <= w.after_line)
            continue; /* out of order or overlapping: passed over */
        w.first_line = runs[r].first;
        w.last_line = runs[r].last;
        if (syntax_query(d, source, runs[r].first, runs[r].last, touching_match, &w, cause) < 0)
            return -1;
        w.after_line = runs[r].last;
    }
    return 0;
}

/* The name of a capture of a query. */
const char *syntax_capture_name(const TSQuery *q, uint32_t i)
{
    uint32_t n;
    return ts_query_capture_name_for_id(q, i, &n);
}
