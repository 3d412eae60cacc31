/* pcre2 wrapper of regex.h. */
#include "engine/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util.h"

struct regex {
    pcre2_code *code;
    char *pattern;
};

regex *rx_compile(const char *pattern, bool caseless, char **cause)
{
    int err;
    PCRE2_SIZE off;
    uint32_t opts = PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;
    if (caseless)
        opts |= PCRE2_CASELESS;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, opts, &err, &off, NULL);
    if (!code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(err, msg, sizeof msg);
        if (cause)
            *cause = xasprintf("bad regular expression /%s/: %s at offset %zu", pattern,
                               (char *)msg, (size_t)off);
        return NULL;
    }
    /* JIT when available (the interpreter otherwise). REVIEW_LSP_NO_JIT=1 turns it off: under
       valgrind, JIT-generated code reads as uninitialised memory. */
    const char *nojit = getenv("REVIEW_LSP_NO_JIT");
    if (!nojit || strcmp(nojit, "1") != 0)
        pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
    regex *rx = xmalloc(sizeof *rx);
    rx->code = code;
    rx->pattern = xstrdup(pattern);
    return rx;
}

void rx_free(regex *rx)
{
    if (!rx)
        return;
    pcre2_code_free(rx->code);
    free(rx->pattern);
    free(rx);
}

int rx_search(const regex *rx, const char *subject, size_t len, size_t *start, size_t *end)
{
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(rx->code, NULL);
    if (!md)
        abort();
    int rc = pcre2_match(rx->code, (PCRE2_SPTR)subject, len, 0, 0, md, NULL);
    int ret;
    if (rc >= 0) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        if (start)
            *start = ov[0];
        if (end)
            *end = ov[1];
        ret = 1;
    } else {
        ret = rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
    }
    pcre2_match_data_free(md);
    return ret;
}

bool rx_test(const regex *rx, const char *s)
{
    return rx_search(rx, s, strlen(s), NULL, NULL) == 1;
}

const char *rx_pattern(const regex *rx)
{
    return rx->pattern;
}
