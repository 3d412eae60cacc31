/* Base texts of changed files, kept between reviews: reading a blob from git (tree lookup,
 * inflate) costs more than a keystroke may, and the base of a file does not change while its
 * head is being edited. Keyed by (base commit, path); texts not asked for during a review are
 * dropped when it ends (base_texts_trim).
 *
 * Ownership: the cache owns its texts; base_texts_get returns a new copy. */
#ifndef RL_BASE_TEXTS_H
#define RL_BASE_TEXTS_H

#include <stddef.h>

typedef struct repo repo;
typedef struct base_texts base_texts;

base_texts *base_texts_new(void);
void base_texts_free(base_texts *b);
/* The base version of path in rp (a new string, *len its length), read from git once per base
 * commit; NULL with *cause (may be NULL) when the base has no such file. */
char *base_texts_get(base_texts *b, repo *rp, const char *path, size_t *len, char **cause);
/* Drop every text not asked for since the previous trim. */
void base_texts_trim(base_texts *b);

#endif
