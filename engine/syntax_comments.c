/* Comments of a line range (syntax.h syntax_comments), from a tree-sitter query. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/syntax.h"
#include "engine/syntax_nodes.h"
#include "engine/util.h"

/* --- comments -------------------------------------------------------------------------- */

typedef struct comment_walk {
    syn_comment_list *out;
    int first_line, last_line;
} comment_walk;

/* Record one comment. */
static bool comment_match(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    comment_walk *w = arg;
    TSNode c = sx_capture(q, m, "c");
    int line = syntax_node_line(c);
    if ((w->first_line > 0 && line < w->first_line) || (w->last_line > 0 && line > w->last_line))
        return true;
    syn_comment *sc = ARRAY_PUSH(w->out->items, w->out->n, w->out->cap);
    sc->text = syntax_node_text(d, c);
    sc->line = line;
    sc->col = sx_col(c);
    sc->end_line = (int)ts_node_end_point(c).row + 1;
    sc->end_col = sx_end_col(c);
    return true;
}

/* Every comment starting in a line range. */
void syntax_comments(const syntax_doc *d, int first_line, int last_line, syn_comment_list *out)
{
    comment_walk w = {out, first_line, last_line};
    char *cause = NULL;
    if (d->lang != SYN_NONE && syntax_query(d, "(comment) @c", first_line, last_line, comment_match, &w, &cause) < 0)
        sx_query_failed(cause);
}

/* Free a comment list's contents and leave it empty. */
void syn_comment_list_free(syn_comment_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i].text);
    free(l->items);
    memset(l, 0, sizeof *l);
}
