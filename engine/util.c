/* Implementation of the shared helpers in util.h: aborting allocators, strbuf, file reading. */
#include "engine/util.h"

#include <errno.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

static void out_of_memory(size_t n)
{
    fprintf(stderr, "review-lsp: out of memory allocating %zu bytes\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        n = 0;
    char *p = xmalloc((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = xvasprintf(fmt, ap);
    va_end(ap);
    return p;
}

void grow_array(void **items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t n = *cap ? *cap * 2 : 8;
    while (n < need)
        n *= 2;
    *items = xrealloc(*items, n * elem);
    memset((char *)*items + *cap * elem, 0, (n - *cap) * elem);
    *cap = n;
}

void sb_init(strbuf *sb)
{
    sb->buf = NULL;
    sb->len = 0;
    sb->cap = 0;
}

void sb_free(strbuf *sb)
{
    free(sb->buf);
    sb_init(sb);
}

static void sb_reserve(strbuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return;
    size_t n = sb->cap ? sb->cap * 2 : 64;
    while (n < need)
        n *= 2;
    sb->buf = xrealloc(sb->buf, n);
    sb->cap = n;
}

void sb_add(strbuf *sb, const char *s, size_t n)
{
    sb_reserve(sb, n);
    if (n)
        memcpy(sb->buf + sb->len, s, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
}

void sb_adds(strbuf *sb, const char *s)
{
    sb_add(sb, s, strlen(s));
}

void sb_addf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = xvasprintf(fmt, ap);
    va_end(ap);
    sb_adds(sb, p);
    free(p);
}

void sb_reset(strbuf *sb)
{
    sb->len = 0;
    if (sb->buf)
        sb->buf[0] = '\0';
}

char *sb_detach(strbuf *sb)
{
    char *p = sb->buf ? sb->buf : xstrdup("");
    sb_init(sb);
    return p;
}

bool str_starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool str_ends(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

bool str_contains(const char *s, const char *needle)
{
    return strstr(s, needle) != NULL;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

const char *str_lskip(const char *s)
{
    while (is_space(*s))
        s++;
    return s;
}

bool str_blank_n(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!is_space(s[i]))
            return false;
    return true;
}

const char *str_find_word(const char *s, size_t len, const char *word)
{
    size_t n = strlen(word);
    for (size_t at = 0; n && at + n <= len;) {
        const char *p = memmem(s + at, len - at, word, n);
        if (!p)
            return NULL;
        size_t i = (size_t)(p - s);
        if ((i == 0 || !str_ident_char(s[i - 1])) && (i + n >= len || !str_ident_char(s[i + n])))
            return p;
        at = i + 1;
    }
    return NULL;
}

char *str_strip(const char *s)
{
    s = str_lskip(s);
    size_t n = strlen(s);
    while (n > 0 && is_space(s[n - 1]))
        n--;
    return xstrndup(s, n);
}

char *read_file(const char *path, size_t max_bytes, size_t *len, char **cause)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (cause)
            *cause = xasprintf("%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        if (cause)
            *cause = xasprintf("%s: is a directory", path);
        return NULL;
    }
    strbuf sb;
    sb_init(&sb);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        sb_add(&sb, chunk, n);
        if (max_bytes && sb.len > max_bytes) {
            fclose(f);
            sb_free(&sb);
            if (cause)
                *cause = xasprintf("%s: larger than %zu bytes", path, max_bytes);
            return NULL;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        sb_free(&sb);
        if (cause)
            *cause = xasprintf("%s: read error", path);
        return NULL;
    }
    if (len)
        *len = sb.len;
    return sb_detach(&sb);
}

uint64_t hash_bytes(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

double monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

size_t *text_line_starts(const char *s, size_t len, int *nlines)
{
    size_t n = 0, cap = 0;
    size_t *out = NULL;
    *ARRAY_PUSH(out, n, cap) = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\n' && i + 1 < len)
            *ARRAY_PUSH(out, n, cap) = i + 1;
    *nlines = len == 0 ? 0 : (int)n;
    return out;
}
