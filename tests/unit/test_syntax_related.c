/* Unit tests of parsing a text from a related doc's tree (syntax_derive.c, the syntax cache's
 * related parses, and collector_doc's base-from-head): the tree is always the one a fresh parse
 * gives, whatever the line map says; with a right map only the edited lines are read again;
 * and a changed file's base is parsed from its head along the diff's hunks. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/collector.h"
#include "engine/diff_parse.h"
#include "engine/syntax.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

/* A Python module of n small functions, with an edit marker word in function `edited` (and an
 * extra import and a trailing function when `head`). */
static char *module(int n, bool head)
{
    strbuf sb;
    sb_init(&sb);
    sb_adds(&sb, head ? "import os\nimport torch\n\n\n" : "import torch\n\n\n");
    for (int i = 0; i < n; i++) {
        sb_addf(&sb, "def scale_%d(x, y=None):\n", i);
        if (i == n / 2)
            sb_adds(&sb, head ? "    assert x.dim() == 2, \"2-D only\"\n" : "    assert x.dim() > 0\n");
        sb_addf(&sb, "    z = x * %d\n    if y is not None:\n        z = z + y\n    return z\n\n\n", i);
    }
    if (head)
        sb_adds(&sb, "def added_at_the_end(x):\n    return x\n");
    return sb_detach(&sb);
}

/* The s-expression of a doc's tree (a new string). */
static char *sexp(const syntax_doc *d)
{
    char *s = ts_node_string(ts_tree_root_node(d->tree));
    char *out = xstrdup(s);
    free(s);
    return out;
}

/* True when two docs have the same text, tree and error state. */
static bool same_doc(const syntax_doc *a, const syntax_doc *b)
{
    if (!a || !b || a->len != b->len || memcmp(a->text, b->text, a->len) != 0 ||
        a->has_errors != b->has_errors || a->nlines != b->nlines)
        return false;
    char *x = sexp(a), *y = sexp(b);
    bool same = strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

/* The lines of s (n of them; each a new string without its "\n"). */
static char **lines_of(const char *s, int n)
{
    char **out = xcalloc((size_t)n, sizeof *out);
    for (int i = 0; i < n; i++) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        out[i] = xstrndup(s, len);
        s += nl ? len + 1 : len;
    }
    return out;
}

/* The line map of a base from its head for the module above: the head has one more line at the
 * top, one line changed in the middle and two lines (and blank lines) added at the end. */
static int *module_map(const char *head, const char *base, size_t *nmap)
{
    int nh = 1, nb = 1;
    for (const char *p = head; *p; p++)
        nh += *p == '\n';
    for (const char *p = base; *p; p++)
        nb += *p == '\n';
    int *map = xcalloc((size_t)nh + 1, sizeof *map);
    /* equal lines by content, in order: a simple forward walk is enough for this shape */
    char **hl = lines_of(head, nh), **bl = lines_of(base, nb);
    int j = 1;
    for (int k = 1; k <= nh; k++) {
        for (int t = j; t <= nb && t <= j + 2; t++)
            if (strcmp(hl[k - 1], bl[t - 1]) == 0) {
                map[k] = t;
                j = t + 1;
                break;
            }
    }
    for (int k = 0; k < nh; k++)
        free(hl[k]);
    for (int k = 0; k < nb; k++)
        free(bl[k]);
    free(hl);
    free(bl);
    *nmap = (size_t)nh + 1;
    return map;
}

TEST(base_from_head_is_the_fresh_tree_and_rereads_only_the_edits)
{
    char *head = module(60, true), *base = module(60, false), *cause = NULL;
    syntax_doc *h = syntax_parse(SYN_PYTHON, head, strlen(head), &cause);
    syntax_doc *fresh = syntax_parse(SYN_PYTHON, base, strlen(base), &cause);
    CHECK(h && fresh);
    size_t nmap;
    int *map = module_map(head, base, &nmap);
    syntax_origin *o = syntax_origin_new(h);
    syntax_doc *d = syntax_parse_from(o, map, nmap, SYN_PYTHON, base, strlen(base), NULL, &cause);
    CHECK(same_doc(d, fresh));
    CHECK_INT(fresh->reread, strlen(base));
    /* three edited places of a 400-line module: a small part of it is read again */
    CHECK(d && d->reread > 0 && d->reread * 20 < strlen(base));
    syntax_free(d);
    syntax_origin_free(o);
    free(map);
    syntax_free(h);
    syntax_free(fresh);
    free(head);
    free(base);
    free(cause);
}

TEST(a_wrong_line_map_costs_time_never_the_tree)
{
    char *head = module(40, true), *base = module(40, false), *cause = NULL;
    syntax_doc *h = syntax_parse(SYN_PYTHON, head, strlen(head), &cause);
    syntax_doc *fresh = syntax_parse(SYN_PYTHON, base, strlen(base), &cause);
    syntax_origin *o = syntax_origin_new(h);
    size_t nmap = 400;
    int *map = xcalloc(nmap, sizeof *map);
    /* every line said to be the one 7 below it, out of range, or nothing */
    for (size_t k = 1; k < nmap; k++)
        map[k] = k % 3 == 0 ? 0 : k % 3 == 1 ? (int)k + 7 : 100000;
    syntax_doc *d = syntax_parse_from(o, map, nmap, SYN_PYTHON, base, strlen(base), NULL, &cause);
    CHECK(same_doc(d, fresh));
    syntax_free(d);
    /* every line said to be itself (the head's extra import line shifts them all by one) */
    for (size_t k = 1; k < nmap; k++)
        map[k] = (int)k;
    d = syntax_parse_from(o, map, nmap, SYN_PYTHON, base, strlen(base), NULL, &cause);
    CHECK(same_doc(d, fresh));
    syntax_free(d);
    /* no map at all, and no origin: still the fresh tree */
    d = syntax_parse_from(o, NULL, 50, SYN_PYTHON, base, strlen(base), NULL, &cause);
    CHECK(same_doc(d, fresh));
    CHECK(d && d->reread == strlen(base));
    syntax_free(d);
    d = syntax_parse_from(NULL, map, nmap, SYN_PYTHON, base, strlen(base), NULL, &cause);
    CHECK(same_doc(d, fresh));
    syntax_free(d);
    /* an origin of another language is not used */
    d = syntax_parse_from(o, map, nmap, SYN_CPP, "int f();\n", 9, NULL, &cause);
    syntax_doc *cpp = syntax_parse(SYN_CPP, "int f();\n", 9, &cause);
    CHECK(same_doc(d, cpp));
    syntax_free(d);
    syntax_free(cpp);
    syntax_origin_free(o);
    free(map);
    syntax_free(h);
    syntax_free(fresh);
    free(head);
    free(base);
    free(cause);
}

TEST(edge_texts_parse_as_fresh)
{
    static const char *const pairs[][2] = {
        {"def f():\n    return 1\n", ""},
        {"", "def f():\n    return 1\n"},
        {"def f():\n    return 1", "def f():\n    return 2"},        /* no final newline */
        {"def f():\r\n    return 1\r\n", "def f():\r\n    return 1\r\n\r\nx = 3\r\n"},
        {"x = (1,\n", "x = (1,\n     2)\n"},                          /* an error healed */
        {"def f():\n    return 1\n", "def f():\n    return (\n"},     /* an error made */
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        char *cause = NULL;
        const char *from = pairs[i][0], *to = pairs[i][1];
        syntax_doc *h = syntax_parse(SYN_PYTHON, from, strlen(from), &cause);
        syntax_doc *fresh = syntax_parse(SYN_PYTHON, to, strlen(to), &cause);
        syntax_origin *o = syntax_origin_new(h);
        int map[6] = {0, 1, 2, 3, 4, 5};
        syntax_doc *d = syntax_parse_from(o, map, 6, SYN_PYTHON, to, strlen(to), NULL, &cause);
        if (!same_doc(d, fresh))
            fprintf(stderr, "  pair %zu differs\n", i);
        CHECK(same_doc(d, fresh));
        syntax_free(d);
        syntax_origin_free(o);
        syntax_free(h);
        syntax_free(fresh);
        free(cause);
    }
}

TEST(cpp_view_of_the_base_is_its_fresh_tree)
{
    const char *head = "#include <hip/hip_runtime.h>\n"
                       "__global__ void k(float* p, int n) {\n"
                       "#if defined(__gfx950__)\n"
                       "    if (n > 0) p[0] = 2.f;\n"
                       "#else\n"
                       "    p[0] = 1.f;\n"
                       "#endif\n"
                       "}\n";
    const char *base = "#include <hip/hip_runtime.h>\n"
                       "__global__ void k(float* p, int n) {\n"
                       "#if defined(__gfx950__)\n"
                       "    p[0] = 2.f;\n"
                       "#else\n"
                       "    p[0] = 1.f;\n"
                       "#endif\n"
                       "}\n";
    char *cause = NULL;
    int keep[] = {4};
    syntax_parse_opts ho = {keep, 1, 0, NULL};
    syntax_doc *h = syntax_parse_with(SYN_CPP, head, strlen(head), &ho, &cause);
    syntax_origin *o = syntax_origin_new(h);
    int map[10] = {0, 1, 2, 3, 0, 5, 6, 7, 8, 0};
    /* the base in the same view and in the other branch's: each its own fresh tree */
    for (int view = 0; view < 2; view++) {
        int bkeep[] = {view ? 6 : 4};
        syntax_parse_opts bo = {bkeep, 1, 0, NULL};
        syntax_doc *fresh = syntax_parse_with(SYN_CPP, base, strlen(base), &bo, &cause);
        syntax_doc *d = syntax_parse_from(o, map, 10, SYN_CPP, base, strlen(base), &bo, &cause);
        CHECK(same_doc(d, fresh));
        CHECK(d && fresh && d->nhidden == fresh->nhidden);
        syntax_free(d);
        syntax_free(fresh);
    }
    syntax_origin_free(o);
    syntax_free(h);
    free(cause);
}

TEST(cache_parses_a_base_from_the_held_head)
{
    char *head = module(30, true), *base = module(30, false), *cause = NULL;
    size_t nmap;
    int *map = module_map(head, base, &nmap);
    syntax_cache *c = syntax_cache_new();
    /* the head not held: the base is parsed afresh */
    const syntax_doc *b0 = syntax_cache_get_related(c, "base:m.py", SYN_PYTHON, base, strlen(base),
                                                    NULL, "head:m.py", map, nmap, &cause);
    CHECK(b0 && b0->reread == strlen(base));
    CHECK_INT(syntax_cache_related_parses(c), 0);
    syntax_cache_free(c);
    c = syntax_cache_new();
    const syntax_doc *h = syntax_cache_get(c, "head:m.py", SYN_PYTHON, head, strlen(head), &cause);
    const syntax_doc *b = syntax_cache_get_related(c, "base:m.py", SYN_PYTHON, base, strlen(base),
                                                   NULL, "head:m.py", map, nmap, &cause);
    syntax_doc *fresh = syntax_parse(SYN_PYTHON, base, strlen(base), &cause);
    CHECK(h && b && same_doc(b, fresh));
    CHECK_INT(syntax_cache_related_parses(c), 1);
    CHECK(b && b->reread * 10 < strlen(base));
    /* held now: asked again it is the same doc, nothing parsed */
    size_t np0, np1;
    syntax_cache_stats(c, NULL, &np0, NULL);
    CHECK(syntax_cache_get_related(c, "base:m.py", SYN_PYTHON, base, strlen(base), NULL, "head:m.py",
                                   map, nmap, &cause) == b);
    syntax_cache_stats(c, NULL, &np1, NULL);
    CHECK_INT(np1, np0);
    syntax_free(fresh);
    syntax_cache_free(c);
    free(map);
    free(head);
    free(base);
    free(cause);
}

/* Write text to path. */
static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The unified diff of m.py from base to head (diff -U3, with git's header). */
static char *diff_of(const char *root, const char *base, const char *head)
{
    char *bp = xasprintf("%s/base.py", root), *hp = xasprintf("%s/m.py", root);
    put(bp, base);
    put(hp, head);
    char *cmd = xasprintf("diff -U3 '%s' '%s'", bp, hp);
    FILE *p = popen(cmd, "r");
    strbuf sb;
    sb_init(&sb);
    sb_adds(&sb, "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n");
    char line[4096];
    int n = 0;
    while (p && fgets(line, sizeof line, p))
        if (n++ >= 2) /* diff's own two header lines */
            sb_adds(&sb, line);
    if (p)
        pclose(p);
    free(cmd);
    free(bp);
    free(hp);
    return sb_detach(&sb);
}

TEST(changed_file_base_is_parsed_from_its_head_along_the_hunks)
{
    char tmpl[] = "/tmp/review-related-XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return;
    char *head = module(80, true), *base = module(80, false), *cause = NULL;
    char *diff = diff_of(root, base, head);
    change *chg = diff_parse(diff, strlen(diff), &cause);
    CHECK(chg && chg->nfiles == 1 && chg->files[0].nhunks == 3);
    if (!chg)
        return;
    chg->head_root = xstrdup(root);
    const change_file *f = &chg->files[0];
    syntax_cache *syn = syntax_cache_new();
    finding_list out = {0};
    collector_ctx ctx = {.chg = chg, .root = root, .out = &out, .syn = syn};
    syntax_doc *own = NULL;
    const syntax_doc *h = collector_doc(&ctx, f, false, head, strlen(head), &own, &cause);
    size_t blen;
    char *btext = change_base_from_head(f, head, strlen(head), &blen);
    CHECK(btext && blen == strlen(base) && memcmp(btext, base, blen) == 0);
    const syntax_doc *b = collector_doc(&ctx, f, true, btext, blen, &own, &cause);
    syntax_doc *fresh = syntax_parse(SYN_PYTHON, base, strlen(base), &cause);
    CHECK(h && b && same_doc(b, fresh));
    CHECK_INT(syntax_cache_related_parses(syn), 1);
    /* the hunks' map is right: only their lines are read again (each edit's changed lines) */
    CHECK(b && b->reread > 0 && b->reread * 20 < blen);
    syntax_free(fresh);
    free(btext);
    syntax_cache_free(syn);
    change_free(chg);
    CHECK(unit_remove_tree(root));
    free(diff);
    free(head);
    free(base);
    free(cause);
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(base_from_head_is_the_fresh_tree_and_rereads_only_the_edits),
        UNIT_CASE(a_wrong_line_map_costs_time_never_the_tree),
        UNIT_CASE(edge_texts_parse_as_fresh),
        UNIT_CASE(cpp_view_of_the_base_is_its_fresh_tree),
        UNIT_CASE(cache_parses_a_base_from_the_held_head),
        UNIT_CASE(changed_file_base_is_parsed_from_its_head_along_the_hunks),
    };
    return unit_main("syntax_related", cases, sizeof cases / sizeof cases[0]);
}
