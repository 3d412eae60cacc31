/* Names a change stopped importing, for the sibling-drift collector: when a Python change
 * drops a name from its imports and retypes the parameters that used it (aiter#2339: `from
 * .enum import ActivationType, Enum` lost `Enum`, `activation: Optional[Enum]` became
 * `Optional[int]`), a variant whose parameter is still annotated with that name is broken, not
 * kept on purpose: the annotation is evaluated when the `def` runs, so importing the module
 * raises NameError. Annotations are otherwise left out of the units compared (they do nothing
 * once the function runs), so these carries are looked for apart (siblings.c). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/siblings.h"
#include "engine/py_outline.h"
#include "engine/strset.h"
#include "engine/util.h"

/* True when an import of ims (any depth: inside a try or an if too) binds name: its alias,
 * a from-import's name, or the first part of a plain import's module. */
static bool imported(const syn_import_list *ims, const char *name)
{
    for (size_t i = 0; i < ims->n; i++) {
        const syn_import *im = &ims->items[i];
        if (im->is_include)
            continue;
        if (im->alias || im->name) {
            if (strcmp(im->alias ? im->alias : im->name, name) == 0)
                return true;
            continue;
        }
        size_t n = strcspn(im->module, ".");
        if (strlen(name) == n && strncmp(im->module, name, n) == 0)
            return true;
    }
    return false;
}

/* True when some line of d may bind name outside an import: a line whose first word (after
 * `def ` or `class `) is name followed by `=`, `:`, `(` or `,` (`name = ...`, `name: T = ...`,
 * `def name(`; `a, name =` only when name comes first). Read loosely on purpose: a name taken
 * as bound only keeps a carry out. */
static bool defines(const syntax_doc *d, const char *name)
{
    size_t nl = strlen(name);
    for (int l = 1; l <= d->nlines; l++) {
        size_t len;
        const char *t = syntax_line_text(d, l, &len);
        if (!t)
            continue;
        const char *e = t + len, *p = t;
        while (p < e && isspace((unsigned char)*p))
            p++;
        if ((size_t)(e - p) > 4 && strncmp(p, "def ", 4) == 0)
            p += 4;
        else if ((size_t)(e - p) > 6 && strncmp(p, "class ", 6) == 0)
            p += 6;
        while (p < e && *p == ' ')
            p++;
        if ((size_t)(e - p) <= nl || strncmp(p, name, nl) != 0 || str_ident_char(p[nl]))
            continue;
        const char *q = p + nl;
        while (q < e && *q == ' ')
            q++;
        if (q < e && (*q == '=' || *q == ':' || *q == '(' || *q == ','))
            return true;
    }
    return false;
}

/* True when line l of d may be part of an import statement: it starts with `import ` or
 * `from `, or holds nothing but a name list's item (`    Enum,`, `    QuantType as QT`), as
 * the lines inside `from m import (...)` do. A cheap look before the texts are read. */
static bool may_be_import_line(const syntax_doc *d, int l)
{
    size_t len;
    const char *t = syntax_line_text(d, l, &len);
    if (!t)
        return false;
    const char *p = t, *e = t + len;
    while (p < e && isspace((unsigned char)*p))
        p++;
    if ((size_t)(e - p) > 5 && (strncmp(p, "import ", 7) == 0 || strncmp(p, "from ", 5) == 0))
        return true;
    for (; p < e && *p != '#'; p++) /* a comment after the item ends it */
        if (!str_ident_char(*p) && !strchr(" \t\r,.()", *p))
            return false;
    return true;
}

/* True when one of the base lines the change deleted (deleted[l] for line l of bn) may be part
 * of an import statement: only then can a name stop being imported. */
static bool deletes_an_import(const syntax_doc *base, const bool *deleted, int bn)
{
    for (int l = 1; l <= bn; l++)
        if (deleted[l] && may_be_import_line(base, l))
            return true;
    return false;
}

char **sib_unimported_names(const syntax_doc *base, const syntax_doc *head, const bool *deleted, int bn, size_t *n)
{
    *n = 0;
    if (!base || !head || base->lang != SYN_PYTHON || head->lang != SYN_PYTHON ||
        !deletes_an_import(base, deleted, bn))
        return NULL;
    strset before = {0}, after = {0};
    py_toplevel_names(base->text, base->len, &before);
    py_toplevel_names(head->text, head->len, &after);
    syn_import_list ims = {0};
    bool read = false; /* the head's imports, read for the first name the outline lost */
    char **out = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < before.n; i++) {
        const char *nm = before.items[i];
        if (strset_find(&after, nm) >= 0)
            continue;
        if (!read) {
            syntax_imports(head, &ims);
            read = true;
        }
        if (!imported(&ims, nm) && !defines(head, nm))
            *ARRAY_PUSH(out, *n, cap) = xstrdup(nm);
    }
    syn_import_list_free(&ims);
    strset_free(&before);
    strset_free(&after);
    return out;
}

const char *sib_annotation_names(const sib_unit *u, char *const *names, size_t n)
{
    if (u->kind != SIB_PARAM || !u->ann)
        return NULL;
    for (size_t k = 0; k < n; k++)
        if (sib_has_word(u->ann, names[k]))
            return names[k];
    return NULL;
}

const sib_unit *sib_param_named(const sib_unit_list *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].kind == SIB_PARAM && l->items[i].name && strcmp(l->items[i].name, name) == 0)
            return &l->items[i];
    return NULL;
}
