/* Small shared helpers for the whole program: allocation that aborts on failure (so no caller
 * checks for NULL), a growable byte buffer, growable arrays, and string helpers.
 *
 * Ownership: every function returning char * returns memory the caller frees with free(). */
#ifndef RL_UTIL_H
#define RL_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Monotonic milliseconds, for the costs a timing line reports. */
double monotonic_ms(void);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);

/* Grow the array *items (of *cap elements of size elem) so that it holds at least need. */
void grow_array(void **items, size_t *cap, size_t need, size_t elem);
#define ARRAY_PUSH(arr, n, cap) \
    (grow_array((void **)&(arr), &(cap), (n) + 1, sizeof(*(arr))), &(arr)[(n)++])

/* A growable, always NUL-terminated byte buffer. */
typedef struct strbuf {
    char *buf;
    size_t len;
    size_t cap;
} strbuf;

void sb_init(strbuf *sb);
void sb_free(strbuf *sb);
void sb_add(strbuf *sb, const char *s, size_t n);
void sb_adds(strbuf *sb, const char *s);
/* One byte: written in place while the buffer has room (builders call this per character). */
static inline void sb_addc(strbuf *sb, char c)
{
    if (sb->len + 1 < sb->cap) {
        sb->buf[sb->len++] = c;
        sb->buf[sb->len] = '\0';
    } else {
        sb_add(sb, &c, 1);
    }
}
void sb_addf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_reset(strbuf *sb);
/* Hand the buffer to the caller (who frees it) and reset sb to empty. */
char *sb_detach(strbuf *sb);

bool str_starts(const char *s, const char *prefix);
bool str_ends(const char *s, const char *suffix);
bool str_contains(const char *s, const char *needle);
/* Return s with leading and trailing ASCII white space removed, as a new string. */
char *str_strip(const char *s);
/* Pointer to the first non-white character of s (borrowed). */
const char *str_lskip(const char *s);
/* True when s[0..len) holds only ASCII white space (or nothing). */
bool str_blank_n(const char *s, size_t len);
/* A run of lines [first, last] (1-based, inclusive). */
typedef struct line_run {
    int first, last;
} line_run;

/* The first byte of each line of s (out[k - 1] for line k; a final line without "\n" counts),
 * *nlines of them (0 for an empty text). A new array. */
size_t *text_line_starts(const char *s, size_t len, int *nlines);

/* True for a character of a C or Python identifier: an ASCII letter, a digit or '_' (what
 * isalnum says in the C locale, which the tool never leaves; inline, as it is asked of every
 * byte of many texts). */
static inline bool str_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
/* The first place s[0..len) holds word as a whole identifier (no identifier character on
 * either side), or NULL; never for an empty word. */
const char *str_find_word(const char *s, size_t len, const char *word);

/* Read a whole file. Returns NULL and sets *cause (caller frees) on failure. A file larger
 * than max_bytes (0: no limit) fails with a cause that says so. */
char *read_file(const char *path, size_t max_bytes, size_t *len, char **cause);

/* 64-bit FNV-1a hash of a byte range. */
uint64_t hash_bytes(const void *p, size_t n);

#endif
