/* Imports (syntax.h syntax_imports): Python import statements with their names and aliases,
 * and C/C++ #include lines. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/syntax.h"
#include "engine/syntax_nodes.h"
#include "engine/util.h"

/* --- imports --------------------------------------------------------------------------- */

static const char *const py_import_query =
    "[(import_statement) (import_from_statement) (future_import_statement)] @imp";
static const char *const cpp_import_query = "(preproc_include path: (_) @path) @imp";

typedef struct import_walk {
    syn_import_list *out;
} import_walk;

/* Append one import entry. */
static syn_import *add_import(syn_import_list *l, TSNode at)
{
    syn_import *im = ARRAY_PUSH(l->items, l->n, l->cap);
    memset(im, 0, sizeof *im);
    im->line = syntax_node_line(at);
    im->col = sx_col(at);
    return im;
}

/* Split a dotted_name / aliased_import node into name and alias. */
static void name_and_alias(const syntax_doc *d, TSNode n, char **name, char **alias)
{
    if (sx_type_is(n, "aliased_import")) {
        TSNode nm = sx_field(n, "name"), al = sx_field(n, "alias");
        *name = ts_node_is_null(nm) ? xstrdup("") : syntax_node_text(d, nm);
        *alias = ts_node_is_null(al) ? NULL : syntax_node_text(d, al);
    } else {
        *name = syntax_node_text(d, n);
        *alias = NULL;
    }
}

/* Record one Python import statement, one entry per imported name. */
static bool py_import_match(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    import_walk *w = arg;
    TSNode st = sx_capture(q, m, "imp");
    const char *t = ts_node_type(st);
    uint32_t n;
    sx_kid *ks = sx_children(st, &n);
    if (strcmp(t, "import_statement") == 0) {
        for (uint32_t i = 0; i < n; i++) {
            const char *fn = ks[i].field;
            if (!fn || strcmp(fn, "name") != 0)
                continue;
            TSNode c = ks[i].node;
            syn_import *im = add_import(w->out, c);
            name_and_alias(d, c, &im->module, &im->alias);
        }
        free(ks);
        return true;
    }
    /* from-import: module_name (dotted_name or relative_import), then names or a wildcard */
    char *module = NULL;
    int level = 0;
    if (strcmp(t, "future_import_statement") == 0) {
        module = xstrdup("__future__");
    } else {
        TSNode mn = sx_field(st, "module_name");
        if (sx_type_is(mn, "relative_import")) {
            uint32_t k = ts_node_named_child_count(mn);
            for (uint32_t j = 0; j < k; j++) {
                TSNode c = ts_node_named_child(mn, j);
                if (sx_type_is(c, "import_prefix"))
                    level = (int)(ts_node_end_byte(c) - ts_node_start_byte(c));
                else if (sx_type_is(c, "dotted_name"))
                    module = syntax_node_text(d, c);
            }
            if (!module)
                module = xstrdup("");
        } else {
            module = ts_node_is_null(mn) ? xstrdup("") : syntax_node_text(d, mn);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ks[i].node;
        const char *fn = ks[i].field;
        bool star = sx_type_is(c, "wildcard_import");
        if (!star && (!fn || strcmp(fn, "name") != 0))
            continue;
        syn_import *im = add_import(w->out, c);
        im->module = xstrdup(module);
        im->level = level;
        if (star)
            im->name = xstrdup("*");
        else
            name_and_alias(d, c, &im->name, &im->alias);
    }
    free(ks);
    free(module);
    return true;
}

/* Record one #include. */
static bool cpp_import_match(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    import_walk *w = arg;
    TSNode st = sx_capture(q, m, "imp"), path = sx_capture(q, m, "path");
    char *raw = syntax_node_text(d, path);
    char *p = str_strip(raw);
    free(raw);
    size_t n = strlen(p);
    syn_import *im = add_import(w->out, st);
    im->is_include = true;
    if (n >= 2 && ((p[0] == '"' && p[n - 1] == '"') || (p[0] == '<' && p[n - 1] == '>'))) {
        im->is_system = p[0] == '<';
        im->module = xstrndup(p + 1, n - 2);
    } else {
        im->module = xstrdup(p); /* #include MACRO */
    }
    free(p);
    return true;
}

/* Every import / #include in the doc. */
void syntax_imports(const syntax_doc *d, syn_import_list *out)
{
    import_walk w = {out};
    char *cause = NULL;
    if (d->lang == SYN_PYTHON) {
        if (syntax_query(d, py_import_query, 0, 0, py_import_match, &w, &cause) < 0)
            sx_query_failed(cause);
    } else if (d->lang == SYN_CPP) {
        if (syntax_query(d, cpp_import_query, 0, 0, cpp_import_match, &w, &cause) < 0)
            sx_query_failed(cause);
    }
}

void syntax_imports_touching(const syntax_doc *d, const line_run *runs, size_t nruns,
                             syn_import_list *out)
{
    import_walk w = {out};
    char *cause = NULL;
    const char *src = d->lang == SYN_PYTHON ? py_import_query : d->lang == SYN_CPP ? cpp_import_query : NULL;
    syntax_match_fn fn = d->lang == SYN_PYTHON ? py_import_match : cpp_import_match;
    if (src && syntax_query_touching(d, src, "imp", runs, nruns, fn, &w, &cause) < 0)
        sx_query_failed(cause);
}

/* Free an import list's contents and leave it empty. */
void syn_import_list_free(syn_import_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].module);
        free(l->items[i].name);
        free(l->items[i].alias);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}
