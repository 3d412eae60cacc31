/* UTF-8 validation, replacement and path escaping (utf8.h). */
#include "engine/utf8.h"

#include <string.h>

#include "engine/util.h"

size_t utf8_sequence(const unsigned char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned lo = 0x80, hi = 0xBF; /* the allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0; /* no overlong forms */
        else if (c == 0xED)
            hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F; /* nothing above U+10FFFF */
    } else {
        return 0;
    }
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return len;
}

bool utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_sequence(p + i, n - i);
        if (!k)
            return false;
        i += k;
    }
    return true;
}

/* Copy s, handing each invalid byte to bad(sb, byte, ctx). */
static char *rewrite(const char *s, void (*bad)(strbuf *, unsigned char, char), char ctx)
{
    strbuf sb;
    sb_init(&sb);
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)p);
    for (size_t i = 0; i < n;) {
        size_t k = utf8_sequence(p + i, n - i);
        if (k) {
            sb_add(&sb, (const char *)p + i, k);
            i += k;
        } else {
            bad(&sb, p[i], ctx);
            i++;
        }
    }
    return sb_detach(&sb);
}

/* U+FFFD for an invalid byte. */
static void replace(strbuf *sb, unsigned char c, char ctx)
{
    (void)c;
    (void)ctx;
    sb_adds(sb, "\xEF\xBF\xBD");
}

/* An escape for an invalid byte: \xNN or %NN. */
static void escape(strbuf *sb, unsigned char c, char ctx)
{
    sb_addf(sb, ctx == '%' ? "%%%02X" : "\\x%02x", c);
}

char *utf8_sanitize(const char *s)
{
    return rewrite(s, replace, 0);
}

char *utf8_escape_path(const char *s, char esc)
{
    return rewrite(s, escape, esc);
}
