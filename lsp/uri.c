/* Conversion between file: URIs and local paths (see uri.h). */
#include "lsp/uri.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include <stdlib.h>

#include "engine/util.h"

/* Value of a hex digit, or -1. */
static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decode a file: URI into a path. */
char *uri_to_path(const char *uri, const char **why)
{
    if (strncasecmp(uri, "file:", 5) != 0) {
        *why = "not a file: URI";
        return NULL;
    }
    const char *p = uri + 5;
    if (strncmp(p, "//", 2) == 0) {
        p += 2;
        const char *slash = strchr(p, '/');
        if (!slash) {
            *why = "file: URI without a path";
            return NULL;
        }
        size_t hl = (size_t)(slash - p);
        if (hl != 0 && !(hl == 9 && strncasecmp(p, "localhost", 9) == 0)) {
            *why = "file: URI on another host";
            return NULL;
        }
        p = slash;
    }
    if (*p != '/') {
        *why = "file: URI with a relative path";
        return NULL;
    }
    strbuf sb;
    sb_init(&sb);
    for (; *p && *p != '?' && *p != '#'; p++) {
        if (*p == '%') {
            int h = hexval((unsigned char)p[1]), l = h < 0 ? -1 : hexval((unsigned char)p[2]);
            if (h < 0 || l < 0 || (h == 0 && l == 0)) {
                sb_free(&sb);
                *why = "malformed percent-encoding in URI";
                return NULL;
            }
            sb_addc(&sb, (char)(h * 16 + l));
            p += 2;
        } else {
            sb_addc(&sb, *p);
        }
    }
    return sb_detach(&sb);
}

/* Encode an absolute path as a file: URI. */
char *uri_from_path(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    strbuf sb;
    sb_init(&sb);
    sb_adds(&sb, "file://");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (isalnum(*p) || *p == '-' || *p == '.' || *p == '_' || *p == '~' || *p == '/') {
            sb_addc(&sb, (char)*p);
        } else {
            sb_addc(&sb, '%');
            sb_addc(&sb, hex[*p >> 4]);
            sb_addc(&sb, hex[*p & 15]);
        }
    }
    return sb_detach(&sb);
}
