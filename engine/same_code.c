/* Whether two texts of a C/C++ file are the same code: a change that only rewraps or rewrites
 * comments, or moves white space around, leaves every token where it was.
 *
 * Both texts are read as a stream of code bytes: comments are white space; a run of white space
 * is one space, except that the end of a preprocessor directive stays a line end (it ends the
 * directive); string and character literals (raw strings too) are copied byte for byte. The two
 * streams are compared as they are read, so a file whose code changed near its top costs little.
 * The reading is one-sided: equal streams are equal code; anything this reader does not follow
 * (a stray quote, an unterminated comment) at worst makes two equal codes differ. */
#include "engine/same_code.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* A reader of one text's code bytes. */
typedef struct code_reader {
    const char *s;
    size_t n, i;
    bool line_start;   /* only white space since the last line end */
    bool directive;    /* inside a preprocessor directive */
    bool space;        /* white space seen since the last code byte */
    bool had_code;     /* a code byte was given (no leading space) */
    /* a literal being copied: its closing quote, or for a raw string its closing delimiter */
    char quote;
    const char *raw_end;
    size_t raw_len;
    bool escape;
} code_reader;

/* The next byte at i + k, or 0 past the end. */
static char at(const code_reader *r, size_t k)
{
    return r->i + k < r->n ? r->s[r->i + k] : 0;
}

/* Skip a comment at i (its opener checked); an unterminated block comment takes the rest of
 * the text. A line comment continued by a backslash goes on to the next line. */
static void skip_comment(code_reader *r)
{
    if (at(r, 1) == '/') {
        r->i += 2;
        while (r->i < r->n && r->s[r->i] != '\n') {
            if (r->s[r->i] == '\\' && at(r, 1) == '\n')
                r->i++;
            else if (r->s[r->i] == '\\' && at(r, 1) == '\r' && at(r, 2) == '\n')
                r->i += 2;
            r->i++;
        }
        return; /* the line end is read as white space */
    }
    const char *e = r->i + 2 <= r->n ? memmem(r->s + r->i + 2, r->n - r->i - 2, "*/", 2) : NULL;
    r->i = e ? (size_t)(e - r->s) + 2 : r->n;
}

/* True when the quote at i opens a raw string (R"delim( … )delim", with an encoding prefix);
 * sets its closing delimiter. */
static bool raw_string_at(code_reader *r)
{
    if (r->i == 0 || r->s[r->i - 1] != 'R')
        return false;
    /* the prefix must be a whole token: R, LR, uR, UR, u8R */
    size_t b = r->i - 1;
    while (b > 0 && (isalnum((unsigned char)r->s[b - 1]) || r->s[b - 1] == '_'))
        b--;
    size_t plen = r->i - b;
    const char *p = r->s + b;
    if (!((plen == 1) || (plen == 2 && strchr("LuU", p[0])) || (plen == 3 && p[0] == 'u' && p[1] == '8')))
        return false;
    size_t d = r->i + 1;
    while (d < r->n && d - r->i - 1 < 16 && r->s[d] != '(' && !isspace((unsigned char)r->s[d]) &&
           r->s[d] != '\\' && r->s[d] != ')')
        d++;
    if (d >= r->n || r->s[d] != '(')
        return false;
    r->raw_end = r->s + r->i + 1;
    r->raw_len = d - r->i - 1;
    return true;
}

/* True when the byte before i ends a number (its token starts with a digit): a quote there is
 * a digit separator (1'000'000), not a character literal (u'a'). */
static bool in_number(const code_reader *r)
{
    size_t b = r->i;
    while (b > 0 && (isalnum((unsigned char)r->s[b - 1]) || r->s[b - 1] == '_' || r->s[b - 1] == '.' ||
                     r->s[b - 1] == '\''))
        b--;
    return b < r->i && isdigit((unsigned char)r->s[b]);
}

/* The next code byte, or -1 at the end. */
static int next_byte(code_reader *r)
{
    for (;;) {
        if (r->i >= r->n)
            return -1;
        char c = r->s[r->i];
        if (r->quote) {
            /* inside a literal: copied as written */
            if (r->quote == ')') {
                if (c == ')' && r->i + 1 + r->raw_len < r->n &&
                    memcmp(r->s + r->i + 1, r->raw_end, r->raw_len) == 0 &&
                    r->s[r->i + 1 + r->raw_len] == '"') {
                    r->quote = '"'; /* the delimiter and the quote follow as plain bytes */
                    r->escape = false;
                }
            } else if (r->escape) {
                r->escape = false;
            } else if (c == '\\') {
                r->escape = true;
            } else if (c == r->quote || c == '\n') {
                r->quote = 0;
            }
            r->i++;
            return (unsigned char)c;
        }
        if (c == '/' && (at(r, 1) == '/' || at(r, 1) == '*')) {
            skip_comment(r);
            r->space = true;
            continue;
        }
        if (c == '\\' && (at(r, 1) == '\n' || (at(r, 1) == '\r' && at(r, 2) == '\n'))) {
            r->i += at(r, 1) == '\n' ? 2 : 3; /* a continued line is one line */
            r->space = true;
            continue;
        }
        if (c == '\n') {
            r->i++;
            r->line_start = true;
            if (r->directive) {
                /* the line end separates: white space after it adds nothing */
                r->directive = false;
                r->space = false;
                r->had_code = false;
                return '\n';
            }
            r->space = true;
            continue;
        }
        if (isspace((unsigned char)c)) {
            r->i++;
            r->space = true;
            continue;
        }
        if (r->space && r->had_code) {
            r->space = false;
            return ' '; /* c is read on the next call */
        }
        r->space = false;
        if (r->line_start && c == '#')
            r->directive = true;
        r->line_start = false;
        r->had_code = true;
        if (c == '"' || c == '\'') {
            bool digit_sep = c == '\'' && in_number(r) && isxdigit((unsigned char)at(r, 1));
            if (c == '"' && raw_string_at(r))
                r->quote = ')';
            else if (!digit_sep) /* 1'000'000 is a number, not a character literal */
                r->quote = c;
            r->escape = false;
        }
        r->i++;
        return (unsigned char)c;
    }
}

bool same_code_cpp(const char *a, size_t alen, const char *b, size_t blen)
{
    code_reader ra = {.s = a, .n = alen, .line_start = true};
    code_reader rb = {.s = b, .n = blen, .line_start = true};
    for (;;) {
        int x = next_byte(&ra), y = next_byte(&rb);
        if (x != y)
            return false;
        if (x < 0)
            return true;
    }
}
