/* Unit tests of parsing ahead (syntax_ahead.c through the syntax cache): a doc parsed on the
 * second thread is the one the cache hands out for the same key, text and options; any
 * difference in text or options is parsed afresh; what is not taken is dropped without a leak
 * (the sanitizer build runs these). */
#include <stdio.h>

#include "tests/unit/unit.h"

#include "engine/syntax.h"
#include "engine/syntax_ahead.h"
#include "engine/util.h"

/* A Python module defining one function named name. */
static char *module(const char *name)
{
    return xasprintf("import torch\n\n\ndef %s(x):\n    assert x.dim() == 2\n    return x * 2\n", name);
}

/* The name of the first function of a doc the cache returned, or "". */
static const char *first_function(syntax_cache *c, const syntax_doc *d)
{
    const syn_func_list *fl = d ? syntax_cache_functions(c, d) : NULL;
    return fl && fl->n ? fl->items[0].name : "";
}

TEST(doc_parsed_ahead_is_the_one_the_cache_returns)
{
    syntax_cache *c = syntax_cache_new();
    char *text = module("scale_rows");
    CHECK(syntax_cache_parse_ahead(c, "head:a.py", SYN_PYTHON, text, strlen(text), NULL));
    CHECK(syntax_cache_ahead_bytes(c) == strlen(text));
    char *cause = NULL;
    const syntax_doc *d = syntax_cache_get(c, "head:a.py", SYN_PYTHON, text, strlen(text), &cause);
    CHECK(d != NULL);
    CHECK_STR(first_function(c, d), "scale_rows");
    CHECK(d && d->len == strlen(text) && memcmp(d->text, text, d->len) == 0);
    CHECK_INT(syntax_cache_ahead_bytes(c), 0);
    size_t nd, np, nu;
    syntax_cache_stats(c, &nd, &np, &nu);
    CHECK_INT(np, 1);
    /* held now: asking to parse it ahead again queues nothing */
    CHECK(!syntax_cache_parse_ahead(c, "head:a.py", SYN_PYTHON, text, strlen(text), NULL));
    free(text);
    syntax_cache_free(c);
}

TEST(text_changed_since_it_was_queued_is_parsed_afresh)
{
    syntax_cache *c = syntax_cache_new();
    char *old = module("old_name"), *now = module("new_name");
    CHECK(syntax_cache_parse_ahead(c, "head:a.py", SYN_PYTHON, old, strlen(old), NULL));
    char *cause = NULL;
    const syntax_doc *d = syntax_cache_get(c, "head:a.py", SYN_PYTHON, now, strlen(now), &cause);
    CHECK_STR(first_function(c, d), "new_name");
    CHECK_INT(syntax_cache_ahead_bytes(c), 0);
    free(old);
    free(now);
    syntax_cache_free(c);
}

TEST(other_view_or_kept_lines_are_parsed_afresh)
{
    const char *cpp = "#if defined(A)\n"
                      "__global__ void k_a(int* p) { p[0] = 1; }\n"
                      "#else\n"
                      "__global__ void k_b(int* p) { p[0] = 2; }\n"
                      "#endif\n";
    syntax_cache *c = syntax_cache_new();
    int queued_keep[] = {2}, asked_keep[] = {4};
    syntax_parse_opts queued = {queued_keep, 1, 0, NULL}, asked = {asked_keep, 1, 0, NULL};
    CHECK(syntax_cache_parse_ahead(c, "head:k.cu", SYN_CPP, cpp, strlen(cpp), &queued));
    char *cause = NULL;
    const syntax_doc *d = syntax_cache_get_with(c, "head:k.cu", SYN_CPP, cpp, strlen(cpp), &asked, &cause);
    CHECK(d != NULL);
    /* the doc is the one asked for: the #else branch (line 4) is the one read */
    CHECK(d && d->nkeep == 1 && d->keep[0] == 4);
    CHECK_STR(first_function(c, d), "k_b");
    syntax_cache_free(c);
}

/* A long module of n functions; the base has one line fewer in function n / 2. */
static char *long_module(int n, bool head)
{
    strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < n; i++) {
        sb_addf(&sb, "def f%d(x):\n", i);
        if (head && i == n / 2)
            sb_adds(&sb, "    assert x.dim() == 2\n");
        sb_addf(&sb, "    return x * %d\n\n\n", i);
    }
    return sb_detach(&sb);
}

TEST(a_base_queued_after_its_head_starts_from_the_heads_tree)
{
    char *head = long_module(200, true), *base = long_module(200, false), *cause = NULL;
    int nh = 0;
    for (const char *p = head; *p; p++)
        nh += *p == '\n';
    /* head line k is base line k before the added assert, k - 1 after it */
    int added = 4 * (200 / 2) + 2;
    int *map = xcalloc((size_t)nh + 2, sizeof *map);
    for (int k = 1; k <= nh; k++)
        map[k] = k < added ? k : k == added ? 0 : k - 1;
    syntax_ahead *a = syntax_ahead_new();
    CHECK(syntax_ahead_submit(a, "head:m.py", SYN_PYTHON, head, strlen(head), NULL));
    CHECK(syntax_ahead_submit_related(a, "base:m.py", SYN_PYTHON, base, strlen(base), NULL,
                                      "head:m.py", map, (size_t)nh + 1));
    syntax_ahead_wait(a);
    syntax_doc *h = syntax_ahead_take(a, "head:m.py", SYN_PYTHON, head, strlen(head), NULL);
    syntax_doc *b = syntax_ahead_take(a, "base:m.py", SYN_PYTHON, base, strlen(base), NULL);
    syntax_doc *fresh = syntax_parse(SYN_PYTHON, base, strlen(base), &cause);
    CHECK(h && b && fresh);
    if (b && fresh) {
        char *x = ts_node_string(ts_tree_root_node(b->tree)), *y = ts_node_string(ts_tree_root_node(fresh->tree));
        CHECK(strcmp(x, y) == 0);
        free(x);
        free(y);
        /* parsed on the second thread from the head's tree: read again only around the edit */
        CHECK(b->reread * 20 < b->len);
    }
    syntax_free(fresh);
    syntax_free(h);
    syntax_free(b);
    syntax_ahead_free(a);
    free(map);
    free(head);
    free(base);
    free(cause);
}

/* While the caller waits for a long parse on the worker, it parses the heads queued after it
 * (and their bases from them) itself: every doc it then takes is the one a fresh parse of its
 * text gives, whichever thread made it (the ThreadSanitizer build runs this too). */
TEST(docs_parsed_while_the_caller_waits_are_the_right_ones)
{
    syntax_ahead *a = syntax_ahead_new();
    char *big = long_module(3000, false);
    CHECK(syntax_ahead_submit(a, "head:big.py", SYN_PYTHON, big, strlen(big), NULL));
    char *heads[3], *bases[3], keys[3][2][32];
    int *maps[3];
    size_t nmaps[3];
    for (int i = 0; i < 3; i++) {
        heads[i] = long_module(60 + i, true);
        bases[i] = long_module(60 + i, false);
        int nh = 0;
        for (const char *p = heads[i]; *p; p++)
            nh += *p == '\n';
        int added = 4 * ((60 + i) / 2) + 2;
        maps[i] = xcalloc((size_t)nh + 2, sizeof *maps[i]);
        for (int k = 1; k <= nh; k++)
            maps[i][k] = k < added ? k : k == added ? 0 : k - 1;
        nmaps[i] = (size_t)nh + 1;
        snprintf(keys[i][0], sizeof keys[i][0], "head:m%d.py", i);
        snprintf(keys[i][1], sizeof keys[i][1], "base:m%d.py", i);
        CHECK(syntax_ahead_submit(a, keys[i][0], SYN_PYTHON, heads[i], strlen(heads[i]), NULL));
        CHECK(syntax_ahead_submit_related(a, keys[i][1], SYN_PYTHON, bases[i], strlen(bases[i]), NULL,
                                          keys[i][0], maps[i], nmaps[i]));
    }
    const char *texts[7] = {big, heads[0], bases[0], heads[1], bases[1], heads[2], bases[2]};
    const char *order[7] = {"head:big.py", keys[0][0], keys[0][1], keys[1][0], keys[1][1],
                            keys[2][0], keys[2][1]};
    for (int t = 0; t < 7; t++) {
        char *cause = NULL;
        syntax_doc *d = syntax_ahead_take(a, order[t], SYN_PYTHON, texts[t], strlen(texts[t]), NULL);
        if (!d) /* reached before any thread started it: the caller's to parse, as ever */
            continue;
        syntax_doc *fresh = syntax_parse(SYN_PYTHON, texts[t], strlen(texts[t]), &cause);
        char *x = ts_node_string(ts_tree_root_node(d->tree)), *y = ts_node_string(ts_tree_root_node(fresh->tree));
        CHECK(strcmp(x, y) == 0);
        free(x);
        free(y);
        syntax_free(fresh);
        syntax_free(d);
        free(cause);
    }
    CHECK_INT(syntax_ahead_pending_bytes(a), 0);
    syntax_ahead_free(a);
    for (int i = 0; i < 3; i++) {
        free(heads[i]);
        free(bases[i]);
        free(maps[i]);
    }
    free(big);
}

TEST(what_is_not_taken_is_dropped_at_the_end_of_a_review)
{
    syntax_cache *c = syntax_cache_new();
    char *texts[6];
    for (int i = 0; i < 6; i++) {
        char name[32], key[48];
        snprintf(name, sizeof name, "fn_%d", i);
        snprintf(key, sizeof key, "head:m%d.py", i);
        texts[i] = module(name);
        CHECK(syntax_cache_parse_ahead(c, key, SYN_PYTHON, texts[i], strlen(texts[i]), NULL));
    }
    /* a key queued twice is queued once */
    CHECK(!syntax_cache_parse_ahead(c, "head:m0.py", SYN_PYTHON, texts[0], strlen(texts[0]), NULL));
    syntax_cache_ahead_clear(c);
    CHECK_INT(syntax_cache_ahead_bytes(c), 0);
    /* after the clear the cache parses on demand as before */
    char *cause = NULL;
    const syntax_doc *d = syntax_cache_get(c, "head:m3.py", SYN_PYTHON, texts[3], strlen(texts[3]), &cause);
    CHECK_STR(first_function(c, d), "fn_3");
    for (int i = 0; i < 6; i++)
        free(texts[i]);
    /* freed with jobs still queued: joined and released (the sanitizer build checks) */
    for (int i = 0; i < 6; i++) {
        char key[32];
        snprintf(key, sizeof key, "base:m%d.py", i);
        char *t = module("late");
        syntax_cache_parse_ahead(c, key, SYN_PYTHON, t, strlen(t), NULL);
        free(t);
    }
    syntax_cache_free(c);
}

/* A file whose stages are over forgets what no collector took: a job queued or parsed is
 * dropped at once, one being parsed once it is done (at the next forget), so its bytes stop
 * holding back the window; the jobs not forgotten are still handed out. */
TEST(a_forgotten_job_stops_holding_back_the_window)
{
    enum { N = 8 };
    syntax_ahead *a = syntax_ahead_new();
    char *texts[N];
    for (int i = 0; i < N; i++) {
        char name[32], key[48];
        snprintf(name, sizeof name, "fn_%d", i);
        snprintf(key, sizeof key, "base:m%d.py", i);
        texts[i] = module(name);
        CHECK(syntax_ahead_submit(a, key, SYN_PYTHON, texts[i], strlen(texts[i]), NULL));
    }
    for (int i = 0; i < N - 1; i++) {
        char key[48];
        snprintf(key, sizeof key, "base:m%d.py", i);
        syntax_ahead_forget(a, key);
    }
    syntax_ahead_wait(a); /* every job left is parsed, the forgotten one that was running too */
    syntax_ahead_forget(a, "base:none.py");
    CHECK_INT(syntax_ahead_pending_bytes(a), strlen(texts[N - 1]));
    CHECK(syntax_ahead_take(a, "base:m3.py", SYN_PYTHON, texts[3], strlen(texts[3]), NULL) == NULL);
    syntax_doc *d = syntax_ahead_take(a, "base:m7.py", SYN_PYTHON, texts[N - 1], strlen(texts[N - 1]), NULL);
    CHECK(d && d->len == strlen(texts[N - 1]));
    CHECK_INT(syntax_ahead_pending_bytes(a), 0);
    syntax_free(d);
    for (int i = 0; i < N; i++)
        free(texts[i]);
    syntax_ahead_free(a);
}

TEST(docs_taken_in_order_while_the_worker_parses_hold_their_own_text)
{
    enum { N = 24 };
    syntax_cache *c = syntax_cache_new();
    char *texts[N];
    for (int i = 0; i < N; i++) {
        char name[32], key[48];
        snprintf(name, sizeof name, "kernel_%d", i);
        snprintf(key, sizeof key, "head:k%d.py", i);
        texts[i] = module(name);
        syntax_cache_parse_ahead(c, key, SYN_PYTHON, texts[i], strlen(texts[i]), NULL);
    }
    for (int i = 0; i < N; i++) {
        char name[32], key[48];
        snprintf(name, sizeof name, "kernel_%d", i);
        snprintf(key, sizeof key, "head:k%d.py", i);
        char *cause = NULL;
        const syntax_doc *d = syntax_cache_get(c, key, SYN_PYTHON, texts[i], strlen(texts[i]), &cause);
        CHECK_STR(first_function(c, d), name);
        free(cause);
    }
    size_t nd, np, nu;
    syntax_cache_stats(c, &nd, &np, &nu);
    CHECK_INT(nd, N);
    CHECK_INT(np, N);
    CHECK_INT(syntax_cache_ahead_bytes(c), 0);
    for (int i = 0; i < N; i++)
        free(texts[i]);
    syntax_cache_free(c);
}

TEST(a_language_we_do_not_parse_is_not_queued)
{
    syntax_ahead *a = syntax_ahead_new();
    CHECK(!syntax_ahead_submit(a, "head:x.md", SYN_NONE, "# x\n", 4, NULL));
    CHECK(syntax_ahead_take(a, "head:x.md", SYN_NONE, "# x\n", 4, NULL) == NULL);
    CHECK(syntax_ahead_take(NULL, "head:x.md", SYN_PYTHON, "", 0, NULL) == NULL);
    syntax_ahead_free(a);
    syntax_ahead_free(NULL);
}

int main(void)
{
    static const unit_case cases[] = {
        UNIT_CASE(doc_parsed_ahead_is_the_one_the_cache_returns),
        UNIT_CASE(text_changed_since_it_was_queued_is_parsed_afresh),
        UNIT_CASE(other_view_or_kept_lines_are_parsed_afresh),
        UNIT_CASE(a_base_queued_after_its_head_starts_from_the_heads_tree),
        UNIT_CASE(docs_parsed_while_the_caller_waits_are_the_right_ones),
        UNIT_CASE(what_is_not_taken_is_dropped_at_the_end_of_a_review),
        UNIT_CASE(a_forgotten_job_stops_holding_back_the_window),
        UNIT_CASE(docs_taken_in_order_while_the_worker_parses_hold_their_own_text),
        UNIT_CASE(a_language_we_do_not_parse_is_not_queued),
    };
    return unit_main("syntax_ahead", cases, sizeof cases / sizeof cases[0]);
}
