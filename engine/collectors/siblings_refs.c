/* Whether anything runs a variant, for the sibling-drift collector: a C++/HIP kernel or
 * function that the head tree defines but never names anywhere else (launched nowhere,
 * called nowhere, not bound or instantiated) is dead code, and dead code has no fix to copy.
 * Asked only when a pair is about to be reported, so the tree is read for the few variants
 * that would be, not for every review.
 *
 * A public Python function always counts as used (a registry, `getattr` or an outside
 * caller such as vLLM may reach it by name); a private one (`_name`, at module level: a
 * Triton kernel behind its launcher) is dead when nothing in the tree names it. Anything
 * counts as used when the review has no head tree to search, and so does a nested function
 * or a method. Occurrences are whole words in the changed file outside the variant's own
 * definition (C++: its code, comments and strings blanked; Python: its text, so a name in a
 * string handed to `getattr` counts), and anywhere in the text of the tree's other source
 * files (comments and strings included); a file that pastes tokens (`##`) onto a piece of
 * the name may build it, so it counts. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collectors/siblings.h"
#include "engine/tree_walk.h"
#include "engine/util.h"

#define REFS_FILE_MAX (8u << 20) /* larger source files are not searched (counted as naming it) */

static bool is_source(const char *name)
{
    return str_ends(name, ".py") || str_ends(name, ".cu") || str_ends(name, ".cuh") || str_ends(name, ".h") ||
           str_ends(name, ".hpp") || str_ends(name, ".cpp") || str_ends(name, ".cc") || str_ends(name, ".c") ||
           str_ends(name, ".hip") || str_ends(name, ".inc");
}

/* True when text[0..len) may build name by token pasting: it pastes onto a piece of the name
 * cut at an underscore, before (`load_rmsnorm_##N##n`, `load_##kind`) or after it
 * (`name##_512n`). A macro pasting another suffix (`name##_naive`) builds another name. */
static bool may_paste(const char *text, size_t len, const char *name)
{
    if (!memmem(text, len, "##", 2))
        return false;
    size_t n = strlen(name);
    bool hit = false;
    for (size_t k = 1; k + 1 < n && !hit; k++) {
        if (name[k] != '_')
            continue;
        char *pre = xasprintf("%.*s##", (int)(k + 1), name), *post = xasprintf("##%s", name + k),
             *bare = xasprintf("##%s", name + k + 1);
        hit = (k + 1 >= 6 && memmem(text, len, pre, strlen(pre))) ||
              (n - k >= 3 && (memmem(text, len, post, strlen(post)) || memmem(text, len, bare, strlen(bare))));
        free(pre);
        free(post);
        free(bare);
    }
    return hit;
}

/* True when text[0..len) names name, or may build it by pasting. */
static bool names_or_pastes(const char *text, size_t len, const char *name)
{
    return str_find_word(text, len, name) != NULL || may_paste(text, len, name);
}

/* The search of the tree for one name. */
typedef struct refs_search {
    const char *root, *name, *skip; /* skip: the changed file, searched from its head text */
    bool found;
} refs_search;

static void visit_source(void *data, const char *rel)
{
    refs_search *rs = data;
    if (rs->found || strcmp(rel, rs->skip) == 0)
        return;
    char *path = xasprintf("%s/%s", rs->root, rel), *cause = NULL;
    size_t len = 0;
    char *text = read_file(path, REFS_FILE_MAX, &len, &cause);
    if (!text)
        rs->found = cause && str_contains(cause, "larger"); /* unread: assume it names it */
    else
        rs->found = names_or_pastes(text, len, rs->name);
    free(text);
    free(cause);
    free(path);
}

/* True when the code of d outside v's definition names v (a call, a launch, a binding), or
 * its text may build the name by pasting; for Python, its text outside the definition. */
static bool named_in_file(const syntax_doc *d, const syn_func *v)
{
    if (may_paste(d->text, d->len, v->name))
        return true;
    for (int l = 1; l <= d->nlines; l++) {
        if (l >= v->start_line && l <= v->end_line)
            continue;
        if (d->lang == SYN_PYTHON) {
            size_t len = 0;
            const char *text = syntax_line_text(d, l, &len);
            if (!text)
                break;
            if (str_find_word(text, len, v->name))
                return true;
            continue;
        }
        char *code = syntax_line_code(d, l);
        if (!code)
            break;
        bool hit = sib_has_word(code, v->name);
        free(code);
        if (hit)
            return true;
    }
    return false;
}

bool sib_unused_variant(const char *root, const char *path, const syntax_doc *hd, const syn_func *v)
{
    if (!root || !*v->name || v->depth > 0)
        return false; /* nested: reached through its holder */
    if (hd->lang != SYN_CPP && !(hd->lang == SYN_PYTHON && v->name[0] == '_'))
        return false; /* public Python: may be reached by name at run time, from outside too */
    if (named_in_file(hd, v))
        return false;
    refs_search rs = {.root = root, .name = v->name, .skip = path};
    tree_walk(root, is_source, visit_source, &rs);
    return !rs.found;
}
