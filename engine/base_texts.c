/* The base-text cache of base_texts.h: a list of (base commit, path, text) entries, each
 * marked when asked for; a path missing from the base is remembered too. */
#include "engine/base_texts.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/repo.h"
#include "engine/strset.h"
#include "engine/util.h"

typedef struct base_text {
    char *text;              /* NULL: the base has no such file */
    size_t len;
    bool used;
} base_text;

struct base_texts {
    char *base;              /* the commit the texts are from */
    strset keys;             /* paths, their vals index texts */
    base_text *texts;
    size_t n, cap;
};

base_texts *base_texts_new(void)
{
    return xcalloc(1, sizeof(base_texts));
}

/* Forget every text. */
static void drop_all(base_texts *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->texts[i].text);
    free(b->texts);
    b->texts = NULL;
    b->n = b->cap = 0;
    strset_free(&b->keys);
}

void base_texts_free(base_texts *b)
{
    if (!b)
        return;
    drop_all(b);
    free(b->base);
    free(b);
}

char *base_texts_get(base_texts *b, repo *rp, const char *path, size_t *len, char **cause)
{
    const char *base = repo_base_id(rp);
    if (!b->base || strcmp(b->base, base) != 0) {
        drop_all(b);
        free(b->base);
        b->base = xstrdup(base);
    }
    long at = strset_find(&b->keys, path);
    if (at < 0) {
        base_text t = {0};
        t.text = repo_base_text(rp, path, &t.len, NULL);
        strset_add_val(&b->keys, path, (int)b->n);
        *ARRAY_PUSH(b->texts, b->n, b->cap) = t;
        at = (long)b->n - 1;
    } else {
        at = b->keys.vals[at];
    }
    base_text *t = &b->texts[at];
    t->used = true;
    if (!t->text) {
        if (cause)
            *cause = xasprintf("%s: not in the base", path);
        return NULL;
    }
    if (len)
        *len = t->len;
    return xstrndup(t->text, t->len);
}

void base_texts_trim(base_texts *b)
{
    base_text *old = b->texts;
    strset keys = b->keys;
    b->texts = NULL;
    b->n = b->cap = 0;
    memset(&b->keys, 0, sizeof b->keys);
    for (size_t i = 0; i < keys.n; i++) {
        base_text *t = &old[keys.vals[i]];
        if (!t->used) {
            free(t->text);
            continue;
        }
        t->used = false;
        strset_add_val(&b->keys, keys.items[i], (int)b->n);
        *ARRAY_PUSH(b->texts, b->n, b->cap) = *t;
    }
    free(old);
    strset_free(&keys);
}
