/* Node helpers shared by the syntax extractors (syntax_functions.c, syntax_calls.c,
 * syntax_structs.c, syntax_layout.c, syntax_imports.c, syntax_comments.c); nothing outside
 * engine/syntax*.c includes this. Strings returned are new (the caller frees them). */
#ifndef RL_SYNTAX_NODES_H
#define RL_SYNTAX_NODES_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/syntax.h"

/* True when n is not null and has the given type. */
bool sx_type_is(TSNode n, const char *type);
/* The child of n in field name (a null node when none). */
TSNode sx_field(TSNode n, const char *name);
/* The capture named name in a match, or a null node. */
TSNode sx_capture(const TSQuery *q, const TSQueryMatch *m, const char *name);
/* The 0-based columns where n starts and ends. */
int sx_col(TSNode n);
int sx_end_col(TSNode n);
/* A copy of s with white space (newlines included) squeezed out entirely. */
char *sx_squeeze(const char *s);
/* A copy of s with runs of white space collapsed to one space and the ends trimmed. */
char *sx_collapse_space(const char *s);
/* A copy of s without its balanced <...> groups (template arguments). */
char *sx_drop_template_args(const char *s);

/* A node's children with their field names (NULL when none), as a new array of *n entries.
 * Walked with a tree cursor: ts_node_field_name_for_child is unreliable in older runtimes. */
typedef struct sx_kid {
    TSNode node;
    const char *field;
} sx_kid;
sx_kid *sx_children(TSNode parent, uint32_t *n);

/* Prefix the names of the scopes enclosing n (classes, namespaces, functions) onto base,
 * joined by sep; set *depth and whether the nearest scope is a class. A scope that is a
 * function of known (may be NULL) is named by it. */
char *sx_qualify(const syntax_doc *d, TSNode n, const char *base, const char *sep, int *depth,
                 bool *in_class, const syn_func_list *known);

/* Report a query that does not compile (it is a constant, so a programming error); frees
 * cause. */
void sx_query_failed(char *cause);

#endif
