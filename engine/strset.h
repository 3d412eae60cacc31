/* A set of strings that remembers the order they were added in, with an optional int per
 * string: the one set type the collectors share (names in scope, words of a condition,
 * directories CI scans, details already reported). Lookups are hashed once the set grows past
 * a handful of strings, so a set of every identifier in a file stays cheap.
 *
 * Ownership: the set owns copies of its strings; pointers it hands out (strset_at) are
 * borrowed until the set is freed. A zeroed strset is an empty set; strset_free leaves it
 * empty and reusable. */
#ifndef RL_STRSET_H
#define RL_STRSET_H

#include <stdbool.h>
#include <stddef.h>

typedef struct strset {
    char **items;      /* in the order added */
    int *vals;         /* one per item (0 unless set) */
    size_t n, cap;
    /* private: open-addressing index of item positions + 1, built past a few items */
    size_t *slots;
    size_t nslots;
} strset;

/* Add s (copied) unless present. Returns true when it was added. */
bool strset_add(strset *s, const char *str);
/* Add s with a value unless present (then its value is left alone). Returns its position. */
size_t strset_add_val(strset *s, const char *str, int val);
/* The position of str, or -1 when absent. */
long strset_find(const strset *s, const char *str);
bool strset_has(const strset *s, const char *str);
/* The string and the value at position i (borrowed). */
const char *strset_at(const strset *s, size_t i);
/* Add every string of src (with its value) that dst lacks. */
void strset_union(strset *dst, const strset *src);
void strset_free(strset *s);

#endif
