/* The decoration macros a C/C++ file sees through the first-party headers it includes (see
 * syntax_mask.c for what a decoration macro is). `#include "opus/opus.hpp"` is resolved inside
 * the tree the way a project's include paths usually are: next to the including file, then in
 * each enclosing directory and its include/ subdirectory, up to the root; headers outside the
 * root, in directories the tree walk skips (3rdparty, build, dot directories), symbolic links
 * and files over 2 MiB are never read. Includes are followed transitively, at most
 * MAX_DEPTH levels and MAX_HEADERS headers per file.
 *
 * Each header is read once and reduced to its #define lines and its includes. A header is
 * checked again against the disk (size, modification time, inode) at most once per round (the
 * caller starts a round per review), and a caller's lookup function can supply a header's text
 * instead of the disk (an editor's unsaved buffer). The answer for a file (its headers'
 * decorations) is kept per round, keyed by its directory and its includes. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/path_gate.h"
#include "engine/syntax.h"
#include "engine/syntax_internal.h"
#include "engine/tree_walk.h"
#include "engine/util.h"

#define MAX_DEPTH 8
#define MAX_HEADERS 256
#define HEADER_MAX_BYTES (2u << 20)

/* One header of the tree as last read. */
typedef struct header {
    char *path;              /* relative to the root, normalized */
    bool exists;
    unsigned round;          /* the round it was last checked in */
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    uint64_t hash;           /* of the text read (disk or lookup) */
    char *defines;           /* its #define lines */
    size_t defines_len;
    char **includes;         /* the "..." / <...> paths it includes, in order */
    size_t nincludes;
} header;

/* A memoized answer: an include resolved, or a file's decorations, valid for one round. */
typedef struct memo {
    char *key;
    char *value;             /* NULL: resolved to nothing */
    unsigned round;
} memo;

/* An open-addressing table of strings to indices (headers by path, memos by key). */
typedef struct strmap {
    const char **keys;       /* borrowed from the entries they index */
    size_t *idx;
    size_t cap, n;
} strmap;

typedef struct memo_table {
    memo *items;
    size_t n, cap;
    strmap map;
} memo_table;

struct syntax_headers {
    char *root;              /* NULL: no header is ever read */
    char *real_root;         /* root with symbolic links resolved, or NULL when it has none */
    unsigned round;
    header *h;
    size_t nh, hcap;
    strmap hmap;             /* path -> index in h */
    memo_table resolved;     /* "dir\ninclude" -> header path */
    memo_table answers;      /* "dir\ninclude\n..." -> decorations */
};

/* The slot of key in the map (its own or the free one where it would go). */
static size_t strmap_slot(const strmap *m, const char *key)
{
    size_t i = (size_t)hash_bytes(key, strlen(key)) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], key) != 0)
        i = (i + 1) & (m->cap - 1);
    return i;
}

/* The index stored for key, or (size_t)-1. */
static size_t strmap_get(const strmap *m, const char *key)
{
    if (!m->cap)
        return (size_t)-1;
    size_t i = strmap_slot(m, key);
    return m->keys[i] ? m->idx[i] : (size_t)-1;
}

/* Store key -> idx (key borrowed: it must live as long as the map). */
static void strmap_put(strmap *m, const char *key, size_t idx)
{
    if ((m->n + 1) * 2 > m->cap) {
        strmap old = *m;
        m->cap = old.cap ? old.cap * 2 : 64;
        m->keys = xcalloc(m->cap, sizeof *m->keys);
        m->idx = xcalloc(m->cap, sizeof *m->idx);
        m->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.keys[i])
                strmap_put(m, old.keys[i], old.idx[i]);
        free(old.keys);
        free(old.idx);
    }
    size_t i = strmap_slot(m, key);
    if (!m->keys[i])
        m->n++;
    m->keys[i] = key;
    m->idx[i] = idx;
}

static void strmap_free(strmap *m)
{
    free(m->keys);
    free(m->idx);
}

syntax_headers *syntax_headers_new(const char *root)
{
    syntax_headers *hs = xcalloc(1, sizeof *hs);
    hs->root = root ? xstrdup(root) : NULL;
    hs->real_root = root ? realpath(root, NULL) : NULL;
    hs->round = 1;
    return hs;
}

static void header_clear(header *h)
{
    free(h->defines);
    for (size_t i = 0; i < h->nincludes; i++)
        free(h->includes[i]);
    free(h->includes);
    h->defines = NULL;
    h->includes = NULL;
    h->defines_len = h->nincludes = 0;
}

static void memo_table_free(memo_table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->items[i].key);
        free(t->items[i].value);
    }
    free(t->items);
    strmap_free(&t->map);
}

void syntax_headers_free(syntax_headers *hs)
{
    if (!hs)
        return;
    for (size_t i = 0; i < hs->nh; i++) {
        header_clear(&hs->h[i]);
        free(hs->h[i].path);
    }
    free(hs->h);
    strmap_free(&hs->hmap);
    memo_table_free(&hs->resolved);
    memo_table_free(&hs->answers);
    free(hs->root);
    free(hs->real_root);
    free(hs);
}

const char *syntax_headers_root(const syntax_headers *hs)
{
    return hs ? hs->root : NULL;
}

void syntax_headers_next_round(syntax_headers *hs)
{
    if (hs)
        hs->round++;
}

/* The memo for key, or NULL (a stale one counts as absent). */
static memo *memo_find(memo_table *t, const char *key, unsigned round)
{
    size_t i = strmap_get(&t->map, key);
    return i != (size_t)-1 && t->items[i].round == round ? &t->items[i] : NULL;
}

/* Set key's memo to value (copied; NULL allowed) for this round. */
static void memo_set(memo_table *t, const char *key, const char *value, unsigned round)
{
    size_t i = strmap_get(&t->map, key);
    memo *e;
    if (i == (size_t)-1) {
        e = ARRAY_PUSH(t->items, t->n, t->cap);
        e->key = xstrdup(key);
        e->value = NULL;
        strmap_put(&t->map, e->key, t->n - 1); /* the key string stays put as items grow */
    } else {
        e = &t->items[i];
        free(e->value);
    }
    e->value = value ? xstrdup(value) : NULL;
    e->round = round;
}

/* --- paths ---------------------------------------------------------------------------------- */

/* dir + "/" + rel normalized lexically ("." and ".." folded), or NULL when it would leave the
 * root or names nothing. */
static char *join_normalized(const char *dir, const char *rel)
{
    char *joined = *dir ? xasprintf("%s/%s", dir, rel) : xstrdup(rel);
    char **parts = NULL;
    size_t n = 0, cap = 0;
    bool bad = false;
    for (char *save = NULL, *p = strtok_r(joined, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
        if (strcmp(p, ".") == 0)
            continue;
        if (strcmp(p, "..") == 0) {
            if (n == 0) {
                bad = true;
                break;
            }
            n--;
            continue;
        }
        *ARRAY_PUSH(parts, n, cap) = p;
    }
    char *out = NULL;
    if (!bad && n > 0) {
        strbuf sb;
        sb_init(&sb);
        for (size_t i = 0; i < n; i++) {
            if (i)
                sb_addc(&sb, '/');
            sb_adds(&sb, parts[i]);
        }
        out = sb_detach(&sb);
    }
    free(parts);
    free(joined);
    return out;
}

/* The directory part of a relative path ("" at the root), as a new string. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup("");
}

/* True when rel names a regular file under the root that headers may be read from. */
static bool readable_header(const syntax_headers *hs, const char *rel, struct stat *st)
{
    if (tree_walk_in_skipped_dir(rel))
        return false;
    return gate_lstat(hs->root, rel, st) == 0 && S_ISREG(st->st_mode) &&
           st->st_size <= HEADER_MAX_BYTES;
}

/* True when rel, with every symbolic link on its way resolved, is still under the root: a
 * directory link inside the tree must not lead a header read outside it. */
static bool inside_root(const syntax_headers *hs, const char *rel)
{
    if (!hs->real_root)
        return false;
    char *full = xasprintf("%s/%s", hs->root, rel);
    char *real = realpath(full, NULL);
    size_t n = strlen(hs->real_root);
    bool ok = real && strncmp(real, hs->real_root, n) == 0 && (real[n] == '/' || real[n] == '\0');
    free(real);
    free(full);
    return ok;
}

/* Try dir/inc; a new normalized path when it is a readable header inside the root. */
static char *try_candidate(const syntax_headers *hs, const char *dir, const char *inc)
{
    char *c = join_normalized(dir, inc);
    struct stat st;
    if (c && readable_header(hs, c, &st) && inside_root(hs, c))
        return c;
    free(c);
    return NULL;
}

/* Resolve an include written in a file of directory dir: next to it, then in each enclosing
 * directory's include/ and itself, up to the root. A new string or NULL. */
static char *resolve_uncached(const syntax_headers *hs, const char *dir, const char *inc)
{
    char *found = try_candidate(hs, dir, inc);
    char *d = xstrdup(dir);
    while (!found) {
        char *with_include = *d ? xasprintf("%s/include", d) : xstrdup("include");
        found = try_candidate(hs, with_include, inc);
        free(with_include);
        if (!found && d[0] && strcmp(d, dir) != 0)
            found = try_candidate(hs, d, inc);
        if (found || !*d)
            break;
        char *up = dir_of(d);
        free(d);
        d = up;
    }
    if (!found && *dir)
        found = try_candidate(hs, "", inc);
    free(d);
    return found;
}

/* Resolve inc from dir, memoized per round. A new string or NULL. */
static char *resolve(syntax_headers *hs, const char *dir, const char *inc)
{
    if (inc[0] == '/' || !*inc)
        return NULL;
    char *key = xasprintf("%s\n%s", dir, inc);
    memo *m = memo_find(&hs->resolved, key, hs->round);
    char *out;
    if (m) {
        out = m->value ? xstrdup(m->value) : NULL;
    } else {
        out = resolve_uncached(hs, dir, inc);
        memo_set(&hs->resolved, key, out, hs->round);
    }
    free(key);
    return out;
}

/* --- reading headers ----------------------------------------------------------------------- */

/* The includes of a text: the path of every #include "..." or <...>, in order. */
static char **read_includes(const char *s, size_t len, size_t *n)
{
    char **out = NULL;
    size_t cap = 0, i = 0, start, end;
    bool in_comment = false;
    *n = 0;
    while (pp_next_directive(s, len, &i, &in_comment, &start, &end)) {
        const char *p = s + start;
        while (p < s + end && (*p == ' ' || *p == '\t' || *p == '#'))
            p++;
        if ((size_t)(s + end - p) < 8 || memcmp(p, "include", 7) != 0)
            continue;
        p += 7;
        while (p < s + end && (*p == ' ' || *p == '\t'))
            p++;
        if (p >= s + end || (*p != '"' && *p != '<'))
            continue;
        char close = *p == '"' ? '"' : '>';
        const char *q = memchr(p + 1, close, (size_t)(s + end - p - 1));
        if (q && q > p + 1 && q - p < 512)
            *ARRAY_PUSH(out, *n, cap) = xstrndup(p + 1, (size_t)(q - p - 1));
    }
    return out;
}

/* Fill h from text: its #define lines and includes. */
static void header_fill(header *h, const char *text, size_t len)
{
    header_clear(h);
    h->hash = hash_bytes(text, len);
    h->defines = deco_defines_text(text, len, &h->defines_len);
    h->includes = read_includes(text, len, &h->nincludes);
    h->exists = true;
}

/* The header at path, read or checked for this round (text from lookup when it has one). */
static header *header_get(syntax_headers *hs, const char *path, syntax_text_lookup lookup,
                          void *arg)
{
    size_t at = strmap_get(&hs->hmap, path);
    header *h = at != (size_t)-1 ? &hs->h[at] : NULL;
    if (!h) {
        h = ARRAY_PUSH(hs->h, hs->nh, hs->hcap);
        memset(h, 0, sizeof *h);
        h->path = xstrdup(path);
        strmap_put(&hs->hmap, h->path, hs->nh - 1);
    }
    size_t len = 0;
    const char *over = lookup ? lookup(arg, path, &len) : NULL;
    if (over) {
        if (!h->exists || h->hash != hash_bytes(over, len) || h->size != -1) {
            header_fill(h, over, len);
            h->size = -1; /* from a buffer: checked by hash, never by the disk */
        }
        h->round = hs->round;
        return h;
    }
    if (h->round == hs->round)
        return h->exists ? h : NULL;
    h->round = hs->round;
    struct stat st;
    if (!readable_header(hs, path, &st)) {
        header_clear(h);
        h->exists = false;
        return NULL;
    }
    if (h->exists && h->size == st.st_size && h->dev == st.st_dev && h->ino == st.st_ino &&
        h->mtime.tv_sec == st.st_mtim.tv_sec && h->mtime.tv_nsec == st.st_mtim.tv_nsec)
        return h;
    char *text = inside_root(hs, path) ? gate_read(hs->root, path, HEADER_MAX_BYTES, &len, NULL) : NULL;
    if (!text) {
        header_clear(h);
        h->exists = false;
        return NULL;
    }
    header_fill(h, text, len);
    free(text);
    h->dev = st.st_dev;
    h->ino = st.st_ino;
    h->size = st.st_size;
    h->mtime = st.st_mtim;
    return h;
}

/* --- the closure ------------------------------------------------------------------------------ */

typedef struct closure {
    char **paths;            /* headers in post-order: a header after what it includes */
    size_t n, cap;
    char **seen;
    size_t nseen, seencap;
} closure;

static bool seen(const closure *c, const char *path)
{
    for (size_t i = 0; i < c->nseen; i++)
        if (strcmp(c->seen[i], path) == 0)
            return true;
    return false;
}

/* Visit the includes written in directory dir, depth levels down. */
static void visit_includes(syntax_headers *hs, closure *c, const char *dir, char **incs,
                           size_t ninc, int depth, syntax_text_lookup lookup, void *arg)
{
    for (size_t i = 0; i < ninc && c->nseen < MAX_HEADERS; i++) {
        char *path = resolve(hs, dir, incs[i]);
        if (!path || seen(c, path)) {
            free(path);
            continue;
        }
        *ARRAY_PUSH(c->seen, c->nseen, c->seencap) = xstrdup(path);
        header *h = header_get(hs, path, lookup, arg);
        if (h && depth < MAX_DEPTH) {
            /* copy the includes: reading deeper headers may move hs->h */
            size_t n = h->nincludes;
            char **sub = xcalloc(n ? n : 1, sizeof *sub);
            for (size_t k = 0; k < n; k++)
                sub[k] = xstrdup(h->includes[k]);
            char *subdir = dir_of(path);
            visit_includes(hs, c, subdir, sub, n, depth + 1, lookup, arg);
            free(subdir);
            for (size_t k = 0; k < n; k++)
                free(sub[k]);
            free(sub);
        }
        if (h)
            *ARRAY_PUSH(c->paths, c->n, c->cap) = path;
        else
            free(path);
    }
}

/* The decorations of the headers included by text (see syntax.h). */
char *syntax_headers_decorations(syntax_headers *hs, const char *path, const char *text,
                                 size_t len, syntax_text_lookup lookup, void *arg)
{
    if (!hs || !hs->root || !path)
        return xstrdup("");
    size_t ninc;
    char **incs = read_includes(text, len, &ninc);
    char *dir = dir_of(path);
    strbuf key;
    sb_init(&key);
    sb_adds(&key, dir);
    for (size_t i = 0; i < ninc; i++) {
        sb_addc(&key, '\n');
        sb_adds(&key, incs[i]);
    }
    memo *m = memo_find(&hs->answers, key.buf, hs->round);
    char *out;
    if (m) {
        out = xstrdup(m->value);
    } else {
        closure c = {0};
        visit_includes(hs, &c, dir, incs, ninc, 1, lookup, arg);
        deco_set *known = deco_new();
        for (size_t i = 0; i < c.n; i++) {
            header *h = header_get(hs, c.paths[i], lookup, arg);
            if (h)
                deco_learn(known, h->defines, h->defines_len);
            free(c.paths[i]);
        }
        for (size_t i = 0; i < c.nseen; i++)
            free(c.seen[i]);
        free(c.paths);
        free(c.seen);
        out = deco_list(known);
        deco_free(known);
        memo_set(&hs->answers, key.buf, out, hs->round);
    }
    sb_free(&key);
    free(dir);
    for (size_t i = 0; i < ninc; i++)
        free(incs[i]);
    free(incs);
    return out;
}

/* Parse a file the way collectors see it. */
syntax_doc *syntax_parse_file(syntax_headers *hs, const char *path, const char *text, size_t len,
                              const syntax_parse_opts *o, char **cause)
{
    syn_lang lang = syntax_lang_of_path(path);
    if (lang != SYN_CPP)
        return syntax_parse_path(path, text, len, cause);
    char *deco = syntax_headers_decorations(hs, path, text, len, NULL, NULL);
    syntax_parse_opts opts = o ? *o : (syntax_parse_opts){0};
    opts.decorations = deco;
    syntax_doc *d = syntax_parse_with(lang, text, len, &opts, cause);
    free(deco);
    return d;
}
