/* What tree-sitter holds, counted across threads: every allocation the runtime makes (trees,
 * parse stacks, cursors, queries) goes through these wrappers, which keep a running total of
 * the bytes it holds. The collector runner weighs its memory budget with it, because a tree
 * parsed on the second thread lives in that thread's malloc arena, which the main arena's
 * figures never see. Installed once, before the runtime allocates anything (the first call of
 * syntax_ts_language, which every parser and query needs first). */
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/syntax.h"

static atomic_llong held;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

/* The bytes behind p (0 for NULL). */
static long long size_of(void *p)
{
#ifdef __GLIBC__
    return p ? (long long)malloc_usable_size(p) : 0;
#else
    (void)p;
    return 0;
#endif
}

/* tree-sitter's own allocator aborts when memory runs out; so do these. */
static void *checked(void *p, size_t n)
{
    if (!p && n) {
        fprintf(stderr, "review-lsp: out of memory (tree-sitter asked for %zu bytes)\n", n);
        abort();
    }
    atomic_fetch_add_explicit(&held, size_of(p), memory_order_relaxed);
    return p;
}

static void *counted_malloc(size_t n)
{
    return checked(malloc(n), n);
}

static void *counted_calloc(size_t k, size_t n)
{
    return checked(calloc(k, n), k * n);
}

static void *counted_realloc(void *p, size_t n)
{
    long long before = size_of(p);
    void *q = realloc(p, n);
    if (!q && n)
        return checked(q, n); /* p is still held: aborts */
    atomic_fetch_sub_explicit(&held, before, memory_order_relaxed);
    return q ? checked(q, n) : NULL;
}

static void counted_free(void *p)
{
    atomic_fetch_sub_explicit(&held, size_of(p), memory_order_relaxed);
    free(p);
}

static void install(void)
{
    ts_set_allocator(counted_malloc, counted_calloc, counted_realloc, counted_free);
}

void syntax_alloc_install(void)
{
    pthread_once(&installed, install);
}

size_t syntax_tree_bytes(void)
{
    long long n = atomic_load_explicit(&held, memory_order_relaxed);
    return n > 0 ? (size_t)n : 0;
}
