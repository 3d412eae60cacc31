/* The struct ABI collector (rule D11): a struct whose layout is pinned by assertions elsewhere
 * (offsetof(S, f) and static_assert(sizeof(S) ...), often because a precompiled code object
 * reads it by offset) changes shape and the change leaves those pins as they were.
 *
 * For each C/C++ file in the change, the structs whose text the change touches are parsed in
 * the base and in the head (the syntax layer), their data members aligned by name, and every
 * edit classified: inserted, removed, retyped, moved. Offsets and sizes are computed where the
 * types allow: built-in and HIP vector types, pointers, typedefs and structs of the same file,
 * arrays of literal or constant length, natural alignment, #pragma pack, packed and alignas.
 * Elsewhere a member's offset is known to stay only when everything before it is unchanged;
 * with base classes, or members declared in both branches of an #if, only differences are
 * trusted, never absolute values.
 *
 * The tree-wide pin index (pin_index.h) then says which offsets and sizes are pinned, counting
 * only pins that can see this struct (a struct of a .cu file is private to it; a file defining
 * its own namesake pins its own). A finding is raised only for a pin that shifts and that the
 * change did not touch, on the line of the edit that shifts it, with each pinning assertion as
 * related information and two exhibits: the struct's fields in the base and the head (type,
 * offsets, size; added, removed, moved and shifted rows marked) and the pins with the value
 * each asserts beside the value the head layout gives. Churn in a struct nobody pins is silent, appending at the end shifts no
 * offset, and another struct's assertions never count. When the base text cannot be read (a
 * diff without its repository) it is rebuilt from the head and the diff. */
#include <stdlib.h>
#include <string.h>

#include "engine/collector.h"
#include "engine/syntax.h"
#include "engine/pin_index.h"

#define MAX_RELATED 12
#define LAYOUT_DEPTH 4

/* --- types and layout -------------------------------------------------------------------- */

typedef struct typedef_entry {
    char *name;
    char *type;
} typedef_entry;

typedef struct typedef_list {
    typedef_entry *items;
    size_t n, cap;
} typedef_list;

typedef struct field_layout {
    bool known;          /* offset and size computable */
    long long off, size;
} field_layout;

typedef struct struct_layout {
    field_layout *f;     /* one per field of the syn_struct (static ones: known, size 0) */
    bool size_known;
    long long size, align;
    bool relative;       /* it has base classes: offsets count from its own first member, so
                            differences hold but absolute values (and its size) do not */
} struct_layout;

/* One side (base or head) of a file: its parse, structs and typedefs. */
typedef struct side {
    const syntax_doc *doc;   /* from the shared syntax cache, or owned below */
    syntax_doc *owned;
    syn_struct_list structs; /* the cache's (borrowed) when shared is set */
    bool shared;
    typedef_list typedefs;
    typedef_list constants;  /* integer constants: name -> decimal value text */
    struct pack_point {
        size_t at;               /* byte offset of a #pragma pack line */
        long long pack;          /* the packing in force after it (0: natural) */
    } *packs;
    size_t npacks, packs_cap;
} side;

typedef struct builtin_type {
    const char *name;
    int size, align;
} builtin_type;

static const builtin_type builtins[] = {
    {"bool", 1, 1}, {"char", 1, 1}, {"signed char", 1, 1}, {"unsigned char", 1, 1},
    {"int8_t", 1, 1}, {"uint8_t", 1, 1}, {"int8", 1, 1}, {"uint8", 1, 1},
    {"short", 2, 2}, {"short int", 2, 2}, {"unsigned short", 2, 2}, {"unsigned short int", 2, 2},
    {"int16_t", 2, 2}, {"uint16_t", 2, 2}, {"half", 2, 2}, {"__half", 2, 2}, {"_Float16", 2, 2},
    {"__fp16", 2, 2}, {"hip_bfloat16", 2, 2}, {"__hip_bfloat16", 2, 2}, {"bfloat16", 2, 2},
    {"bf16", 2, 2}, {"fp16", 2, 2}, {"half_t", 2, 2}, {"bhalf_t", 2, 2},
    {"int", 4, 4}, {"signed", 4, 4}, {"signed int", 4, 4}, {"unsigned", 4, 4},
    {"unsigned int", 4, 4}, {"int32_t", 4, 4}, {"uint32_t", 4, 4}, {"float", 4, 4},
    {"index_t", 4, 4}, {"uint", 4, 4}, {"half2", 4, 4}, {"__half2", 4, 4},
    {"long", 8, 8}, {"long int", 8, 8}, {"unsigned long", 8, 8}, {"unsigned long int", 8, 8},
    {"long long", 8, 8}, {"long long int", 8, 8}, {"unsigned long long", 8, 8},
    {"unsigned long long int", 8, 8}, {"int64_t", 8, 8}, {"uint64_t", 8, 8}, {"size_t", 8, 8},
    {"ssize_t", 8, 8}, {"ptrdiff_t", 8, 8}, {"intptr_t", 8, 8}, {"uintptr_t", 8, 8},
    {"double", 8, 8}, {"long_index_t", 8, 8}, {"hipDeviceptr_t", 8, 8},
    {"float2", 8, 8}, {"int2", 8, 8}, {"uint2", 8, 8}, {"float4", 16, 16}, {"int4", 16, 16},
    {"uint4", 16, 16}, {"float3", 12, 4}, {"int3", 12, 4}, {"uint3", 12, 4}, {"dim3", 12, 4},
};

/* The type text with qualifiers and elaborating keywords dropped and spaces collapsed. */
static char *normalize_type(const char *type)
{
    static const char *const drop[] = {"const", "volatile", "struct", "class", "mutable",
                                       "__restrict__", "__restrict", "typename", NULL};
    strbuf sb;
    sb_init(&sb);
    const char *p = type;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        const char *w = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n')
            p++;
        if (p == w)
            break;
        bool skip = false;
        for (int i = 0; drop[i]; i++)
            if ((size_t)(p - w) == strlen(drop[i]) && memcmp(w, drop[i], (size_t)(p - w)) == 0)
                skip = true;
        if (skip)
            continue;
        if (sb.len)
            sb_addc(&sb, ' ');
        if (p - w > 5 && memcmp(w, "std::", 5) == 0)
            w += 5;
        sb_add(&sb, w, (size_t)(p - w));
    }
    return sb_detach(&sb);
}

/* Collect `typedef T N;` and `using N = T;` declarations of a text (simple ones only). */
static void collect_typedefs(const char *text, typedef_list *out)
{
    const char *p = text;
    while ((p = strstr(p, "typedef ")) != NULL) {
        if (p != text && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'))) {
            p += 8;
            continue;
        }
        const char *end = strchr(p, ';');
        if (!end)
            break;
        char *decl = xstrndup(p + 8, (size_t)(end - p - 8));
        if (!strpbrk(decl, "{}()[]*&")) {
            char *sp = strrchr(decl, ' ');
            if (sp) {
                typedef_entry *e = ARRAY_PUSH(out->items, out->n, out->cap);
                e->name = str_strip(sp + 1);
                *sp = '\0';
                e->type = str_strip(decl);
            }
        }
        free(decl);
        p = end;
    }
    p = text;
    while ((p = strstr(p, "using ")) != NULL) {
        const char *eq = NULL, *end = strchr(p, ';');
        if (!end)
            break;
        for (const char *q = p; q < end; q++)
            if (*q == '=') {
                eq = q;
                break;
            }
        if (eq) {
            char *name = xstrndup(p + 6, (size_t)(eq - p - 6));
            char *type = xstrndup(eq + 1, (size_t)(end - eq - 1));
            char *n2 = str_strip(name), *t2 = str_strip(type);
            if (!strpbrk(n2, " <:") && !strpbrk(t2, "{}()[]*&")) {
                typedef_entry *e = ARRAY_PUSH(out->items, out->n, out->cap);
                e->name = n2;
                e->type = t2;
            } else {
                free(n2);
                free(t2);
            }
            free(name);
            free(type);
        }
        p = end;
    }
}

/* Parse an integer literal (suffixes allowed) spanning all of s; false otherwise. */
static bool parse_int(const char *s, long long *out)
{
    while (*s == ' ' || *s == '\t' || *s == '(')
        s++;
    char *end;
    long long v = strtoll(s, &end, 0);
    if (end == s)
        return false;
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L' || *end == ')' ||
           *end == ' ' || *end == '\t' || *end == '\r')
        end++;
    if (*end)
        return false;
    *out = v;
    return true;
}

/* Record name = value unless the name is already known with another value (then forget it:
 * a name defined twice in different scopes cannot be trusted). */
static void add_constant(typedef_list *out, const char *name, long long v)
{
    char *val = xasprintf("%lld", v);
    for (size_t i = 0; i < out->n; i++)
        if (strcmp(out->items[i].name, name) == 0) {
            if (strcmp(out->items[i].type, val) != 0) {
                free(out->items[i].type);
                out->items[i].type = xstrdup("?");
            }
            free(val);
            return;
        }
    typedef_entry *e = ARRAY_PUSH(out->items, out->n, out->cap);
    e->name = xstrdup(name);
    e->type = val;
}

/* Collect integer constants usable as array lengths: `constexpr int N = 8;`,
 * `static const int N = 8;` and `#define N 8`. */
static void collect_constants(const char *text, typedef_list *out)
{
    for (const char *p = text; (p = strstr(p, "constexpr ")) != NULL; p++) {
        const char *eq = NULL, *end = strchr(p, ';');
        if (!end)
            break;
        for (const char *q = p; q < end && *q != '(' && *q != '{'; q++)
            if (*q == '=') {
                eq = q;
                break;
            }
        if (!eq)
            continue;
        const char *ne = eq;
        while (ne > p && ne[-1] == ' ')
            ne--;
        const char *nb = ne;
        while (nb > p && (nb[-1] == '_' || (nb[-1] >= 'a' && nb[-1] <= 'z') ||
                          (nb[-1] >= 'A' && nb[-1] <= 'Z') || (nb[-1] >= '0' && nb[-1] <= '9')))
            nb--;
        char *name = xstrndup(nb, (size_t)(ne - nb));
        char *val = xstrndup(eq + 1, (size_t)(end - eq - 1));
        long long v;
        if (*name && parse_int(val, &v))
            add_constant(out, name, v);
        free(name);
        free(val);
    }
    for (const char *p = text; (p = strstr(p, "#define ")) != NULL; p++) {
        const char *q = p + 8, *nb = q;
        while (*q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
               (*q >= '0' && *q <= '9'))
            q++;
        if (q == nb || *q != ' ')
            continue;
        const char *eol = strchr(q, '\n');
        char *name = xstrndup(nb, (size_t)(q - nb));
        char *val = eol ? xstrndup(q, (size_t)(eol - q)) : xstrdup(q);
        long long v;
        if (parse_int(val, &v))
            add_constant(out, name, v);
        free(name);
        free(val);
    }
}

/* Free a typedef list's contents. */
static void typedef_list_free(typedef_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].name);
        free(l->items[i].type);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

static bool compute_layout(const side *sd, const syn_struct *s, struct_layout *out, int depth);

/* Size and alignment of a named type (no declarator), through typedefs and same-file structs. */
static bool type_size(const side *sd, const char *type, long long *size, long long *align,
                      int depth)
{
    char *t = normalize_type(type);
    bool ok = false;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0] && !ok; i++)
        if (strcmp(t, builtins[i].name) == 0) {
            *size = builtins[i].size;
            *align = builtins[i].align;
            ok = true;
        }
    const char *plain = strrchr(t, ':');
    plain = plain ? plain + 1 : t;
    if (!ok && depth < LAYOUT_DEPTH && !strchr(t, '<')) {
        for (size_t i = 0; i < sd->typedefs.n && !ok; i++)
            if (strcmp(sd->typedefs.items[i].name, plain) == 0 &&
                strcmp(sd->typedefs.items[i].type, type) != 0)
                ok = type_size(sd, sd->typedefs.items[i].type, size, align, depth + 1);
        const syn_struct *inner = ok ? NULL : syntax_find_struct(&sd->structs, plain);
        if (inner && !inner->is_template) {
            struct_layout l;
            if (compute_layout(sd, inner, &l, depth + 1) && l.size_known) {
                *size = l.size;
                *align = l.align;
                ok = true;
            }
            free(l.f);
        }
    }
    free(t);
    return ok;
}

/* Size and alignment of one field; false when not computable. */
static bool field_size(const side *sd, const syn_field *f, long long *size, long long *align,
                       int depth);

/* The length an array dimension's text denotes: a literal or a known constant. */
static bool dim_value(const side *sd, const char *text, long long *out)
{
    if (parse_int(text, out))
        return *out >= 0;
    char *t = str_strip(text);
    bool ok = false;
    for (size_t i = 0; i < sd->constants.n && !ok; i++)
        if (strcmp(sd->constants.items[i].name, t) == 0)
            ok = parse_int(sd->constants.items[i].type, out);
    free(t);
    return ok && *out >= 0;
}

/* Size and alignment of one field; false when not computable. */
static bool field_size(const side *sd, const syn_field *f, long long *size, long long *align,
                       int depth)
{
    if (f->bitfield >= 0 || !f->name[0] || strstr(f->type, "alignas") ||
        strstr(f->type, "__attribute__"))
        return false;
    if (f->pointer_depth > 0) {
        *size = 8;
        *align = 8;
    } else if (!type_size(sd, f->type, size, align, depth)) {
        return false;
    }
    if (f->array_dims) {
        const char *p = f->array_dims;
        while (*p == '[') {
            const char *close = strchr(p, ']');
            if (!close)
                return false;
            char *dim = xstrndup(p + 1, (size_t)(close - p - 1));
            long long n;
            bool ok = dim_value(sd, dim, &n);
            free(dim);
            if (!ok)
                return false;
            *size *= n;
            p = close + 1;
        }
    }
    return true;
}

/* Record where each `#pragma pack(N)` / `pack(push, N)` / `pack(pop)` / `pack()` of a text
 * changes the packing, once per side (a pop restores the packing before its push). */
static void collect_packs(side *sd)
{
    const char *text = sd->doc->text;
    long long stack[16];
    int depth = 0;
    long long cur = 0;
    for (const char *p = text; (p = strstr(p, "#pragma")) != NULL;) {
        const char *q = p + 7;
        p = q;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, "pack", 4) != 0)
            continue;
        q += 4;
        while (*q == ' ')
            q++;
        if (*q != '(')
            continue;
        q++;
        while (*q == ' ')
            q++;
        if (strncmp(q, "push", 4) == 0) {
            if (depth < 16)
                stack[depth++] = cur;
            q += 4;
            while (*q == ' ' || *q == ',')
                q++;
            if (*q >= '0' && *q <= '9')
                cur = strtoll(q, NULL, 10);
        } else if (strncmp(q, "pop", 3) == 0) {
            cur = depth ? stack[--depth] : 0;
        } else if (*q >= '0' && *q <= '9') {
            cur = strtoll(q, NULL, 10);
        } else if (*q == ')') {
            cur = 0;
        }
        struct pack_point *pp = ARRAY_PUSH(sd->packs, sd->npacks, sd->packs_cap);
        pp->at = (size_t)(p - text);
        pp->pack = cur;
    }
}

/* The packing in force for a struct: that of the last #pragma pack before it, 1 for
 * `__attribute__((packed))` on the struct, 0 for natural alignment. */
static long long struct_pack(const side *sd, const syn_struct *s)
{
    const char *text = sd->doc->text;
    long long cur = 0;
    for (size_t i = 0; i < sd->npacks && sd->packs[i].at < s->start_byte; i++)
        cur = sd->packs[i].pack;
    /* __attribute__((packed)) between the keyword and "{", or between "}" and ";" */
    const char *open = memchr(text + s->start_byte, '{', s->end_byte - s->start_byte);
    if (open) {
        char *head = xstrndup(text + s->start_byte, (size_t)(open - text - s->start_byte));
        bool packed = strstr(head, "packed") != NULL;
        free(head);
        if (packed)
            return 1;
    }
    const char *after = text + s->end_byte, *semi = strchr(after, ';');
    if (semi && semi - after < 64) {
        char *tail = xstrndup(after, (size_t)(semi - after));
        bool packed = strstr(tail, "packed") != NULL;
        free(tail);
        if (packed)
            return 1;
    }
    return cur;
}

/* The N of an `alignas(N)` / `__attribute__((aligned(N)))` written on the struct itself, or 0. */
static long long struct_alignas(const side *sd, const syn_struct *s)
{
    const char *text = sd->doc->text;
    const char *open = memchr(text + s->start_byte, '{', s->end_byte - s->start_byte);
    if (!open)
        return 0;
    char *head = xstrndup(text + s->start_byte, (size_t)(open - text - s->start_byte));
    long long n = 0;
    const char *a = strstr(head, "alignas(");
    const char *b = strstr(head, "aligned(");
    if (a || b)
        n = strtoll(a ? a + 8 : b + 8, NULL, 0);
    free(head);
    return n > 0 && n <= 4096 ? n : 0;
}

/* True when two data members share a name (alternative #if branches). */
static bool has_duplicate_members(const syn_struct *s)
{
    for (size_t i = 0; i < s->nfields; i++)
        for (size_t j = i + 1; j < s->nfields && s->fields[i].name[0]; j++)
            if (strcmp(s->fields[i].name, s->fields[j].name) == 0)
                return true;
    return false;
}

/* True when the struct derives from base classes (a single ':' before its "{"). */
static bool has_base_clause(const side *sd, const syn_struct *s)
{
    const char *text = sd->doc->text;
    const char *open = memchr(text + s->start_byte, '{', s->end_byte - s->start_byte);
    if (!open)
        return false;
    int paren = 0;
    for (const char *p = text + s->start_byte; p < open; p++) {
        if (*p == '(')
            paren++;
        else if (*p == ')')
            paren--;
        else if (*p == ':' && paren == 0) {
            if (p[1] == ':') {
                p++;
                continue;
            }
            return true;
        }
    }
    return false;
}

/* Lay a struct out with natural alignment (or its packing). Returns true when the struct could
 * be read (fields whose offsets are not computable are marked unknown); out->f is the caller's
 * to free. */
static bool compute_layout(const side *sd, const syn_struct *s, struct_layout *out, int depth)
{
    long long pack = struct_pack(sd, s);
    out->f = xcalloc(s->nfields ? s->nfields : 1, sizeof *out->f);
    out->size_known = true;
    out->align = 1;
    bool is_union = strcmp(s->kind, "union") == 0;
    long long cur = 0, maxsize = 0;
    bool known = true;
    for (size_t i = 0; i < s->nfields; i++) {
        const syn_field *f = &s->fields[i];
        if (f->is_static) {
            out->f[i].known = known;
            out->f[i].off = cur;
            continue;
        }
        long long sz, al;
        if (!known || !field_size(sd, f, &sz, &al, depth)) {
            known = false;
            out->size_known = false;
            continue;
        }
        if (pack > 0 && al > pack)
            al = pack;
        long long off = is_union ? 0 : (cur + al - 1) / al * al;
        out->f[i].known = true;
        out->f[i].off = off;
        out->f[i].size = sz;
        if (al > out->align)
            out->align = al;
        cur = off + sz;
        if (sz > maxsize)
            maxsize = sz;
    }
    /* members declared twice come from #if / #else branches: only one set exists in a build,
     * so absolute offsets are not to be trusted, though differences still are */
    out->relative = has_base_clause(sd, s) || has_duplicate_members(s);
    if (out->relative)
        out->size_known = false;
    long long want = struct_alignas(sd, s);
    if (want > out->align)
        out->align = want;
    if (out->size_known) {
        long long end = is_union ? maxsize : cur;
        out->size = (end + out->align - 1) / out->align * out->align;
    }
    return true;
}

/* --- the change's lines ------------------------------------------------------------------ */

/* True when the change adds a line in [first, last] of path (or adds the whole file). */
static bool change_touches(const change *c, const char *path, int first, int last)
{
    const change_file *f = change_find(c, path);
    if (!f)
        return false;
    if (f->is_new)
        return true;
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '+' && f->lines[i].new_no >= first && f->lines[i].new_no <= last)
            return true;
    return false;
}

/* The head line where base line old_no was deleted, or fallback. */
static int deletion_line(const change_file *f, int old_no, int fallback)
{
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '-' && f->lines[i].old_no == old_no)
            return f->lines[i].new_no;
    return fallback;
}

/* True when the change adds or deletes a line inside the head span [hs, he] or the base span
 * [bs, be] (either may be 0, 0). */
static bool change_in_spans(const change_file *f, int hs, int he, int bs, int be)
{
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind == '+' && l->new_no >= hs && l->new_no <= he)
            return true;
        if (l->kind == '-' && ((l->old_no >= bs && l->old_no <= be) ||
                               (l->new_no > hs && l->new_no <= he)))
            return true;
    }
    return false;
}

/* Rebuild the base text from the head text and the diff (the hunks' old side replaces their
 * new side). NULL with *cause when the head does not match the diff's context. */
static char *base_from_diff(const change_file *f, const char *head, size_t hlen, char **cause)
{
    size_t blen;
    char *base = change_base_from_head(f, head, hlen, &blen);
    if (!base && cause)
        *cause = xasprintf("%s: the head file does not match the diff", f->path);
    return base;
}

/* --- comparing one struct ---------------------------------------------------------------- */

enum edit_kind { EDIT_INSERT, EDIT_REMOVE, EDIT_RETYPE, EDIT_MOVE };

/* One edit of the member list: a run of inserted or removed fields, a retyped or moved one. */
typedef struct field_edit {
    enum edit_kind kind;
    size_t first, count;   /* head indices (insert, retype, move) or base indices (remove) */
    size_t head_pos;       /* the head index it sits before (its position in head order) */
    int line;              /* head line of the finding */
    size_t npins;          /* pins attributed to it */
} field_edit;

typedef struct shifted_pin {
    const layout_pin *pin;
    size_t edit;           /* the edit it is attributed to */
    bool removed_field;    /* offsetof names a field the change removes */
    bool amount_known;
    bool relative;         /* only the difference is known (the struct has base classes) */
    long long before, after;
} shifted_pin;

/* The key a field is matched by: its name (or "" for anonymous members). */
static const char *fkey(const syn_field *f)
{
    return f->name;
}

/* True when two fields declare the same type (name aside). */
static bool same_type(const syn_field *a, const syn_field *b)
{
    return strcmp(a->type, b->type) == 0 && a->pointer_depth == b->pointer_depth &&
           a->bitfield == b->bitfield && a->is_static == b->is_static &&
           strcmp(a->array_dims ? a->array_dims : "", b->array_dims ? b->array_dims : "") == 0;
}

/* Index of the non-static field named name in s, or -1. */
static long find_field(const syn_struct *s, const char *name)
{
    for (size_t i = 0; i < s->nfields; i++)
        if (!s->fields[i].is_static && strcmp(fkey(&s->fields[i]), name) == 0)
            return (long)i;
    return -1;
}

/* True when the data members before base field bi and head field hi declare the same types
 * in the same order, so the offset cannot have moved. */
static bool same_prefix(const syn_struct *b, size_t bi, const syn_struct *h, size_t hi)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < bi && b->fields[i].is_static)
            i++;
        while (j < hi && h->fields[j].is_static)
            j++;
        if (i >= bi || j >= hi)
            return i >= bi && j >= hi;
        if (!same_type(&b->fields[i], &h->fields[j]))
            return false;
        i++;
        j++;
    }
}

/* A field as declared: "int num_heads", "const float *q". */
static char *field_decl(const syn_field *f)
{
    const char *dc = f->declarator && *f->declarator ? f->declarator : f->name;
    strbuf sb;
    sb_init(&sb);
    sb_addf(&sb, "%s ", f->type);
    for (const char *p = dc; *p; p++) {
        sb_addc(&sb, *p);
        if (*p == '*' || *p == '&')
            while (p[1] == ' ')
                p++;
    }
    return sb_detach(&sb);
}

typedef struct struct_diff {
    const syn_struct *b, *h;
    long *b2h;             /* base index -> head index of the same field, or -1 */
    long *h2b;
    bool *moved;           /* per head field: matched but out of order */
    field_edit *edits;
    size_t nedits, edits_cap;
} struct_diff;

/* Free a struct_diff's arrays. */
static void struct_diff_free(struct_diff *d)
{
    free(d->b2h);
    free(d->h2b);
    free(d->moved);
    free(d->edits);
}

/* Match fields by name, find the longest in-order run of matches (LCS), and list the edits. */
static void diff_fields(const change_file *cf, const syn_struct *b, const syn_struct *h,
                        struct_diff *d)
{
    memset(d, 0, sizeof *d);
    d->b = b;
    d->h = h;
    d->b2h = xcalloc(b->nfields + 1, sizeof *d->b2h);
    d->h2b = xcalloc(h->nfields + 1, sizeof *d->h2b);
    d->moved = xcalloc(h->nfields + 1, sizeof *d->moved);
    for (size_t i = 0; i < b->nfields; i++)
        d->b2h[i] = -1;
    for (size_t j = 0; j < h->nfields; j++)
        d->h2b[j] = -1;
    for (size_t i = 0; i < b->nfields; i++) {
        if (b->fields[i].is_static || !b->fields[i].name[0])
            continue;
        long j = find_field(h, b->fields[i].name);
        if (j >= 0 && d->h2b[j] < 0) {
            d->b2h[i] = j;
            d->h2b[j] = (long)i;
        }
    }
    /* anonymous members match in order */
    for (size_t i = 0, j = 0; i < b->nfields; i++) {
        if (b->fields[i].name[0] || b->fields[i].is_static)
            continue;
        while (j < h->nfields && (h->fields[j].name[0] || h->fields[j].is_static))
            j++;
        if (j < h->nfields) {
            d->b2h[i] = (long)j;
            d->h2b[j] = (long)i;
            j++;
        }
    }
    /* longest increasing run of matched base indices in head order: the rest moved */
    size_t n = h->nfields;
    size_t *len = xcalloc(n + 1, sizeof *len);
    long *prev = xcalloc(n + 1, sizeof *prev);
    size_t best = 0;
    long best_at = -1;
    for (size_t j = 0; j < n; j++) {
        prev[j] = -1;
        if (d->h2b[j] < 0)
            continue;
        len[j] = 1;
        for (size_t k = 0; k < j; k++)
            if (d->h2b[k] >= 0 && d->h2b[k] < d->h2b[j] && len[k] + 1 > len[j]) {
                len[j] = len[k] + 1;
                prev[j] = (long)k;
            }
        if (len[j] > best) {
            best = len[j];
            best_at = (long)j;
        }
    }
    bool *in_run = xcalloc(n + 1, sizeof *in_run);
    for (long j = best_at; j >= 0; j = prev[j])
        in_run[j] = true;
    for (size_t j = 0; j < n; j++)
        d->moved[j] = d->h2b[j] >= 0 && !in_run[j];
    free(len);
    free(prev);
    free(in_run);

    /* edits in head order */
    for (size_t j = 0; j < n; j++) {
        const syn_field *f = &h->fields[j];
        if (f->is_static)
            continue;
        if (d->h2b[j] < 0) {
            if (d->nedits && d->edits[d->nedits - 1].kind == EDIT_INSERT &&
                d->edits[d->nedits - 1].first + d->edits[d->nedits - 1].count == j) {
                d->edits[d->nedits - 1].count++;
                continue;
            }
            field_edit *e = ARRAY_PUSH(d->edits, d->nedits, d->edits_cap);
            *e = (field_edit){EDIT_INSERT, j, 1, j, f->line, 0};
        } else if (d->moved[j]) {
            field_edit *e = ARRAY_PUSH(d->edits, d->nedits, d->edits_cap);
            *e = (field_edit){EDIT_MOVE, j, 1, j, f->line, 0};
        } else if (!same_type(&b->fields[d->h2b[j]], f)) {
            field_edit *e = ARRAY_PUSH(d->edits, d->nedits, d->edits_cap);
            *e = (field_edit){EDIT_RETYPE, j, 1, j, f->line, 0};
        }
    }
    /* removals: placed before the head field that follows them */
    for (size_t i = 0; i < b->nfields; i++) {
        if (b->fields[i].is_static || d->b2h[i] >= 0)
            continue;
        if (d->nedits && d->edits[d->nedits - 1].kind == EDIT_REMOVE &&
            d->edits[d->nedits - 1].first + d->edits[d->nedits - 1].count == i) {
            d->edits[d->nedits - 1].count++;
            continue;
        }
        size_t pos = h->nfields;
        for (size_t k = i + 1; k < b->nfields; k++)
            if (d->b2h[k] >= 0) {
                pos = (size_t)d->b2h[k];
                break;
            }
        int fallback = pos < h->nfields ? h->fields[pos].line : h->end_line;
        field_edit *e = ARRAY_PUSH(d->edits, d->nedits, d->edits_cap);
        *e = (field_edit){EDIT_REMOVE, i, 1, pos,
                          deletion_line(cf, b->fields[i].line, fallback), 0};
    }
}

/* The edit a shift at head position pos is attributed to: the last edit before or at it. */
static size_t edit_for_pos(const struct_diff *d, size_t pos)
{
    size_t best = 0;
    bool found = false;
    for (size_t e = 0; e < d->nedits; e++)
        if (d->edits[e].head_pos <= pos && (!found || d->edits[e].head_pos >= d->edits[best].head_pos)) {
            best = e;
            found = true;
        }
    return best;
}

/* --- the collector ------------------------------------------------------------------------ */

/* --- the per-file stage: structs that changed shape --------------------------------------- */

/* One struct that changed shape, as the per-file stage found it: both versions, how its
 * members moved, both layouts, and the head lines its preprocessor view leaves out (a pin
 * there belongs to another configuration). Everything the change-wide stage checks pins
 * against, so it never reads the file again. */
typedef struct shaped {
    syn_struct b, h;        /* owned copies */
    struct_diff d;          /* aimed at the two above */
    struct_layout bl, hl;
    bool size_types_same;   /* same member types in the same order: the size cannot change */
    int *hidden;            /* head line ranges [first, last] the view leaves out, in pairs */
    size_t nhidden;
} shaped;

/* What one file's stage found. */
typedef struct abi_facts {
    shaped *items;
    size_t n, cap;
    collector_coverage cov; /* how much of its added code the parser read */
} abi_facts;

/* A deep copy of a struct's fields, names and kinds. */
static void copy_struct(syn_struct *dst, const syn_struct *src)
{
    *dst = *src;
    dst->name = xstrdup(src->name);
    dst->qualname = xstrdup(src->qualname);
    dst->kind = xstrdup(src->kind);
    dst->fields = xcalloc(src->nfields + 1, sizeof *dst->fields);
    dst->fields_cap = src->nfields + 1;
    for (size_t i = 0; i < src->nfields; i++) {
        syn_field *f = &dst->fields[i];
        *f = src->fields[i];
        f->name = xstrdup(src->fields[i].name);
        f->type = xstrdup(src->fields[i].type);
        f->declarator = src->fields[i].declarator ? xstrdup(src->fields[i].declarator) : NULL;
        f->array_dims = src->fields[i].array_dims ? xstrdup(src->fields[i].array_dims) : NULL;
    }
}

/* Free a copy made by copy_struct. */
static void free_struct(syn_struct *s)
{
    syn_struct_list l = {0};
    *ARRAY_PUSH(l.items, l.n, l.cap) = *s;
    syn_struct_list_free(&l);
}

/* Free what one struct that changed shape holds. */
static void shaped_clear(shaped *sh)
{
    free_struct(&sh->b);
    free_struct(&sh->h);
    struct_diff_free(&sh->d);
    free(sh->bl.f);
    free(sh->hl.f);
    free(sh->hidden);
}

/* Free what one file's stage found. */
static void abi_facts_free(void *p)
{
    abi_facts *t = p;
    for (size_t i = 0; i < t->n; i++)
        shaped_clear(&t->items[i]);
    free(t->items);
    free(t);
}

/* True when the two structs' data members declare the same types in the same order. */
static bool same_member_types(const syn_struct *b, const syn_struct *h)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < b->nfields && b->fields[i].is_static)
            i++;
        while (j < h->nfields && h->fields[j].is_static)
            j++;
        if (i >= b->nfields || j >= h->nfields)
            return i >= b->nfields && j >= h->nfields;
        if (!same_type(&b->fields[i], &h->fields[j]))
            return false;
        i++;
        j++;
    }
}

/* Record a struct that changed shape (its edits in d, taken over) in the file's facts. */
static void add_shaped(abi_facts *t, const side *bs, const syn_struct *b, const side *hs,
                       const syn_struct *h, struct_diff *d)
{
    shaped *sh = ARRAY_PUSH(t->items, t->n, t->cap);
    memset(sh, 0, sizeof *sh);
    copy_struct(&sh->b, b);
    copy_struct(&sh->h, h);
    sh->d = *d;
    sh->d.b = &sh->b;
    sh->d.h = &sh->h;
    compute_layout(bs, b, &sh->bl, 0);
    compute_layout(hs, h, &sh->hl, 0);
    sh->size_types_same = same_member_types(b, h);
    sh->hidden = syntax_hidden_lines(hs->doc, &sh->nhidden);
}

/* Parse one side's text (NULL text: an empty side) in preprocessor view `view`, through the
 * shared syntax cache. */
static bool side_load(side *sd, collector_ctx *ctx, const change_file *f, bool base,
                      const char *text, size_t len, int view)
{
    memset(sd, 0, sizeof *sd);
    char *cause = NULL;
    sd->doc = collector_doc_view(ctx, f, base, text ? text : "", text ? len : 0, view, &sd->owned,
                                 &cause);
    free(cause);
    if (!sd->doc)
        return false;
    /* the cache keeps each doc's structs: an unchanged base is not walked again */
    sd->shared = ctx->syn && !sd->owned;
    if (sd->shared)
        sd->structs = *syntax_cache_structs(ctx->syn, sd->doc);
    else
        syntax_structs(sd->doc, &sd->structs);
    collect_typedefs(sd->doc->text, &sd->typedefs);
    collect_constants(sd->doc->text, &sd->constants);
    collect_packs(sd);
    return true;
}

/* Release one side. */
static void side_free(side *sd)
{
    if (!sd->shared)
        syn_struct_list_free(&sd->structs);
    typedef_list_free(&sd->typedefs);
    typedef_list_free(&sd->constants);
    free(sd->packs);
    syntax_free(sd->owned);
}

/* How many data members two structs share by name. */
static size_t common_fields(const syn_struct *a, const syn_struct *b)
{
    size_t n = 0;
    for (size_t i = 0; i < a->nfields; i++)
        if (!a->fields[i].is_static && a->fields[i].name[0] && find_field(b, a->fields[i].name) >= 0)
            n++;
    return n;
}

/* The base struct paired with head struct h: the one namesake when each side has one; among
 * several (definitions under #if / #else), the base namesake sharing the most members with h,
 * provided no other head namesake shares more with it. NULL when h is new. */
static const syn_struct *pair_struct(const side *bs, const side *hs, const syn_struct *h)
{
    const syn_struct *best = NULL;
    size_t best_score = 0, nbase = 0;
    for (size_t i = 0; i < bs->structs.n; i++) {
        const syn_struct *b = &bs->structs.items[i];
        if (strcmp(b->qualname, h->qualname) != 0)
            continue;
        nbase++;
        size_t sc = common_fields(h, b);
        if (!best || sc > best_score) {
            best = b;
            best_score = sc;
        }
    }
    size_t nhead = 0;
    for (size_t i = 0; i < hs->structs.n; i++)
        nhead += strcmp(hs->structs.items[i].qualname, h->qualname) == 0;
    if (!best || (nbase == 1 && nhead == 1))
        return best;
    if (best_score == 0)
        return NULL;
    for (size_t i = 0; i < hs->structs.n; i++) {
        const syn_struct *o = &hs->structs.items[i];
        if (o != h && strcmp(o->qualname, h->qualname) == 0 && common_fields(o, best) > best_score)
            return NULL;
    }
    return best;
}

/* True when one of lines[0..n) lies in [first, last]. */
static bool any_line_in(const int *lines, size_t n, int first, int last)
{
    for (size_t i = 0; i < n; i++)
        if (lines[i] >= first && lines[i] <= last)
            return true;
    return false;
}

/* Compare the structs of one file in preprocessor view `view`. View 0 compares every struct
 * whose text the change touches and records in *left_out the added lines it could not see (in
 * a branch it leaves out); a later view compares only the structs holding one of those. */
static bool check_view(collector_ctx *ctx, abi_facts *t, const change_file *f, const char *head,
                       size_t hlen, const char *base, size_t blen, int view, int **left_out,
                       size_t *nleft)
{
    side bs, hs;
    if (!side_load(&hs, ctx, f, false, head, hlen, view))
        return false;
    if (!side_load(&bs, ctx, f, true, base, blen, view)) {
        side_free(&hs);
        return false;
    }
    size_t cap = 0;
    for (size_t k = 0; view == 0 && k < f->nlines; k++)
        if (f->lines[k].kind == '+' && syntax_line_hidden(hs.doc, f->lines[k].new_no))
            *ARRAY_PUSH(*left_out, *nleft, cap) = f->lines[k].new_no;
    for (size_t i = 0; i < hs.structs.n; i++) {
        const syn_struct *h = &hs.structs.items[i];
        if (!h->name[0] || (view > 0 && !any_line_in(*left_out, *nleft, h->start_line, h->end_line)))
            continue;
        const syn_struct *b = pair_struct(&bs, &hs, h);
        if (!b || !change_in_spans(f, h->start_line, h->end_line, b->start_line, b->end_line))
            continue;
        struct_diff d;
        diff_fields(f, b, h, &d);
        if (d.nedits)
            add_shaped(t, &bs, b, &hs, h, &d);
        else
            struct_diff_free(&d);
    }
    side_free(&bs);
    side_free(&hs);
    return true;
}

/* Compare every struct of one changed file. Returns false (with *why) when it was skipped. */
static bool check_file(collector_ctx *ctx, abi_facts *t, const change_file *f, char **why)
{
    size_t hlen = 0, blen = 0;
    char *cause = NULL;
    char *head = change_head_text(ctx->chg, f, &hlen, &cause);
    if (!head) {
        *why = cause;
        return false;
    }
    char *base = NULL;
    if (!f->is_new) {
        base = collector_base_text(ctx, f, &blen, &cause);
        if (!base) {
            free(cause);
            cause = NULL;
            base = base_from_diff(f, head, hlen, &cause);
            if (!base) {
                *why = cause;
                free(head);
                return false;
            }
            blen = strlen(base);
        }
    }
    /* a change touching two branches of one #if block needs a view per branch: the first view
     * checks every struct, the others only the structs holding changed lines it left out */
    int nviews = collector_view_count(ctx, f, false, head, hlen);
    int nbase_views = base ? collector_view_count(ctx, f, true, base, blen) : 1;
    if (nbase_views > nviews)
        nviews = nbase_views;
    int *left_out = NULL;
    size_t nleft = 0;
    bool ok = true;
    for (int v = 0; v < nviews && ok; v++)
        ok = check_view(ctx, t, f, head, hlen, base, blen, v, &left_out, &nleft);
    if (!ok)
        *why = xasprintf("%s: could not be parsed", f->path);
    free(left_out);
    free(head);
    free(base);
    return ok;
}

/* The files it reads: C/C++ files the change edits. */
static bool reads(const change_file *f)
{
    return pin_index_wants_path(f->path) && !f->is_deleted && !f->is_skipped && !f->is_binary &&
           f->nadd + f->ndel > 0;
}

/* The per-file stage: the structs of the file that changed shape, and how much of its added
 * code the parser read. */
static void struct_abi_file(collector_file_ctx *fx)
{
    abi_facts *t = xcalloc(1, sizeof *t);
    fx->facts = t;
    if (!check_file(fx->review, t, fx->f, &fx->skip)) {
        for (size_t i = 0; i < t->n; i++)
            shaped_clear(&t->items[i]);
        t->n = 0;
    }
    collector_file_coverage(fx->review, fx->f, true, &t->cov);
}

/* --- the change-wide stage: the pins each shape change shifts ----------------------------- */

/* What the collector keeps between reviews (in *ctx->state): the pin index over one root,
 * kept current from the paths each review says were touched. */
typedef struct abi_state {
    char *root;
    pin_index *ix;        /* NULL until a struct first changes shape */
} abi_state;

/* Free the state kept between reviews. */
static void struct_abi_free_state(void *p)
{
    abi_state *st = p;
    if (!st)
        return;
    pin_index_free(st->ix);
    free(st->root);
    free(st);
}

typedef struct run_state {
    collector_ctx *ctx;
    abi_state *kept;       /* the state kept between reviews, or NULL (batch, unit tests) */
    pin_index *ix;        /* built on first need (owned by kept when there is one) */
    bool ix_failed;
    char *ix_note;
    size_t nshaped;        /* structs that changed shape */
    size_t nunpinned;      /* of which nobody pins */
    size_t nfindings;
    size_t nstructs_found;
} run_state;

/* The head text of path for the index: the change's (overlays included) when the path is in
 * it, else the file under the root; NULL when it is gone. */
static char *index_text(collector_ctx *ctx, const char *root, const char *path, size_t *len)
{
    const change_file *f = change_find(ctx->chg, path);
    if (f && !f->is_deleted)
        return change_head_text(ctx->chg, f, len, NULL);
    if (f || !root)
        return NULL;
    return gate_read(root, path, 2u * 1024 * 1024, len, NULL);
}

/* Take up the index kept from earlier reviews: the same root, and every path touched since
 * re-read (an unknown set of touched paths, or another root, drops it). */
static void reuse_kept_index(run_state *rs)
{
    collector_ctx *ctx = rs->ctx;
    if (!ctx->state)
        return;
    const char *root = ctx->root ? ctx->root : ctx->chg->head_root;
    abi_state *st = *ctx->state;
    if (!st) {
        st = xcalloc(1, sizeof *st);
        *ctx->state = st;
    }
    rs->kept = st;
    bool same_root = st->root && root && strcmp(st->root, root) == 0;
    if (st->ix && (!same_root || !ctx->touched)) {
        pin_index_free(st->ix);
        st->ix = NULL;
    }
    if (!same_root) {
        free(st->root);
        st->root = root ? xstrdup(root) : NULL;
    }
    if (!st->ix)
        return;
    for (size_t i = 0; ctx->touched[i]; i++) {
        const char *path = ctx->touched[i];
        if (!pin_index_wants_path(path))
            continue;
        size_t len = 0;
        char *text = index_text(ctx, root, path, &len);
        pin_index_update_file(st->ix, path, text, len);
        free(text);
    }
    rs->ix = st->ix;
}

/* Build the pin index over the head tree, with the change's C/C++ files laid over it. */
static pin_index *get_index(run_state *rs)
{
    if (rs->ix || rs->ix_failed)
        return rs->ix;
    const char *root = rs->ctx->root ? rs->ctx->root : rs->ctx->chg->head_root;
    pin_index *ix = pin_index_new(root);
    bool built = false;
    if (root) {
        char *cause = NULL;
        built = pin_index_build(ix, &cause) == 0;
        if (!built) {
            rs->ix_note = xasprintf("pins searched only in the changed files (%s)", cause);
            free(cause);
        }
    } else {
        rs->ix_note = xstrdup("no head tree: pins searched only in the changed files");
    }
    const change *c = rs->ctx->chg;
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        if (!pin_index_wants_path(f->path) || f->is_skipped || f->is_binary)
            continue;
        if (f->is_renamed && f->old_path)
            pin_index_update_file(ix, f->old_path, NULL, 0);
        if (f->is_deleted) {
            pin_index_update_file(ix, f->path, NULL, 0);
            continue;
        }
        size_t len;
        char *text = change_head_text(c, f, &len, NULL);
        if (text)
            pin_index_update_file(ix, f->path, text, len);
        free(text);
    }
    rs->ix = ix;
    if (rs->kept && built)
        rs->kept->ix = ix;  /* kept for the next reviews, which re-read what they touch */
    return ix;
}

/* Append "`x` +8 (16 → 24)" or "`x` shifts" for a shifted offset pin. */
static void describe_shift(strbuf *sb, const shifted_pin *sp)
{
    if (sp->pin->kind == PIN_SIZEOF) {
        if (sp->amount_known)
            sb_addf(sb, "sizeof(%s) %lld → %lld", sp->pin->type, sp->before, sp->after);
        else
            sb_addf(sb, "sizeof(%s) changes", sp->pin->type);
    } else if (sp->removed_field) {
        sb_addf(sb, "`%s` (removed, still pinned)", sp->pin->field);
    } else if (sp->amount_known && sp->relative) {
        sb_addf(sb, "`%s` %+lld", sp->pin->field, sp->after - sp->before);
    } else if (sp->amount_known) {
        sb_addf(sb, "`%s` %+lld (%lld → %lld)", sp->pin->field, sp->after - sp->before,
                sp->before, sp->after);
    } else {
        sb_addf(sb, "`%s` shifts", sp->pin->field);
    }
}

/* The sentence that opens a finding: what the edit does to the struct. */
static void describe_edit(strbuf *sb, const struct_diff *d, const field_edit *e)
{
    const syn_struct *b = d->b, *h = d->h;
    const char *name = h->name;
    if (e->kind == EDIT_INSERT || e->kind == EDIT_REMOVE) {
        const syn_struct *s = e->kind == EDIT_INSERT ? h : b;
        sb_addf(sb, "`%s` %s ", name, e->kind == EDIT_INSERT ? "gains" : "loses");
        for (size_t k = 0; k < e->count && k < 3; k++) {
            char *decl = field_decl(&s->fields[e->first + k]);
            sb_addf(sb, "%s`%s`", k ? ", " : "", decl);
            free(decl);
        }
        if (e->count > 3)
            sb_addf(sb, " and %zu more", e->count - 3);
        size_t next = e->kind == EDIT_INSERT ? e->first + e->count : e->head_pos;
        while (next < h->nfields && (h->fields[next].is_static || d->h2b[next] < 0))
            next++;
        if (next < h->nfields)
            sb_addf(sb, " before `%s`", h->fields[next].name);
        else
            sb_adds(sb, " at the end");
    } else if (e->kind == EDIT_RETYPE) {
        const syn_field *hf = &h->fields[e->first], *bf = &b->fields[d->h2b[e->first]];
        char *was = field_decl(bf), *now = field_decl(hf);
        sb_addf(sb, "`%s.%s` changes from `%s` to `%s`", name, hf->name, was, now);
        free(was);
        free(now);
    } else {
        sb_addf(sb, "`%s.%s` moves", name, h->fields[e->first].name);
        size_t prev = e->first;
        while (prev > 0 && (h->fields[prev - 1].is_static || d->moved[prev - 1]))
            prev--;
        if (prev > 0)
            sb_addf(sb, " to after `%s`", h->fields[prev - 1].name);
        else
            sb_adds(sb, " to the front");
    }
}

/* True for a header path (a struct defined elsewhere is private to its translation unit). */
static bool is_header(const char *path)
{
    static const char *const exts[] = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".ipp"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (str_ends(path, exts[i]))
            return true;
    return false;
}

/* Keep the pins that can be about the struct defined in path: for a struct in a source file,
 * only that file's; for one in a header, any file's except those defining a namesake of their
 * own (each .cu may have its own `struct KernelArgs`). Returns the new count. */
static size_t scope_pins(const pin_index *ix, const char *path, const char *name,
                         const layout_pin **pins, size_t n)
{
    size_t k = 0;
    bool header = is_header(path);
    for (size_t i = 0; i < n; i++) {
        bool same = strcmp(pins[i]->path, path) == 0;
        if (same || (header && !pin_index_file_defines(ix, pins[i]->path, name)))
            pins[k++] = pins[i];
    }
    return k;
}

/* True when a pin line of the struct's own file lies in a branch its head view leaves out. */
static bool pin_hidden(const shaped *sh, int line)
{
    for (size_t i = 0; i + 1 < sh->nhidden; i += 2)
        if (line >= sh->hidden[i] && line <= sh->hidden[i + 1])
            return true;
    return false;
}

/* Keep the pins the head's preprocessor view reads: a pin in this file inside an #if branch the
 * view leaves out belongs to another configuration (`#if NEW_ABI ... #else` legacy struct and
 * its own size assertion). Returns how many are kept, compacted in place. */
static size_t view_pins(const shaped *sh, const char *path, const layout_pin **pins, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(pins[i]->path, path) != 0 || !pin_hidden(sh, pins[i]->line))
            pins[k++] = pins[i];
    return k;
}

/* Whether a pin shifts with the struct's edits (false: it holds, or the change updated it);
 * when it does, *sp says how and which edit it is attributed to. */
static bool pin_shifts(const change *c, const shaped *sh, const layout_pin *pin, shifted_pin *sp)
{
    const struct_diff *d = &sh->d;
    const syn_struct *b = &sh->b, *h = &sh->h;
    const struct_layout *bl = &sh->bl, *hl = &sh->hl;
    if (change_touches(c, pin->path, pin->first_line, pin->last_line))
        return false;  /* the change updated this pin: the right shape */
    *sp = (shifted_pin){.pin = pin};
    if (pin->kind == PIN_SIZEOF) {
        if (bl->size_known && hl->size_known) {
            if (bl->size == hl->size)
                return false;
            sp->amount_known = true;
            sp->before = bl->size;
            sp->after = hl->size;
            if (pin->has_value && pin->value == hl->size)
                return false;
        } else if (sh->size_types_same) {
            return false;
        }
        /* the first edit that can change the size */
        for (size_t e = 0; e < d->nedits; e++)
            if (d->edits[e].kind != EDIT_MOVE) {
                sp->edit = e;
                break;
            }
        return true;
    }
    long hi = find_field(h, pin->field), bi = find_field(b, pin->field);
    if (bi < 0)
        return false;  /* pins a field the base did not have */
    if (hi < 0) {
        sp->removed_field = true;
        for (size_t e = 0; e < d->nedits; e++)
            if (d->edits[e].kind == EDIT_REMOVE && (size_t)bi >= d->edits[e].first &&
                (size_t)bi < d->edits[e].first + d->edits[e].count)
                sp->edit = e;
        return true;
    }
    if (bl->f[bi].known && hl->f[hi].known) {
        if (bl->f[bi].off == hl->f[hi].off)
            return false;
        sp->amount_known = true;
        sp->relative = bl->relative || hl->relative;
        sp->before = bl->f[bi].off;
        sp->after = hl->f[hi].off;
        if (!sp->relative && pin->has_value && pin->value == hl->f[hi].off)
            return false;
    } else if (same_prefix(b, (size_t)bi, h, (size_t)hi)) {
        return false;
    }
    sp->edit = edit_for_pos(d, (size_t)hi);
    return true;
}

/* The finding's message for edit e: what the edit does, the shifts, and whether the change
 * updates the pins. A new string. */
static char *edit_message(const shaped *sh, size_t e, const shifted_pin *shifted, size_t nshifted,
                          size_t npinned, bool any_pin_touched)
{
    strbuf sb;
    sb_init(&sb);
    describe_edit(&sb, &sh->d, &sh->d.edits[e]);
    sb_adds(&sb, ": pinned layout shifts — ");
    size_t shown = 0;
    for (size_t k = 0; k < nshifted; k++) {
        if (shifted[k].edit != e)
            continue;
        bool dup = false;  /* the same field (or the size) pinned twice is said once */
        for (size_t j = 0; j < k && !dup; j++)
            dup = shifted[j].edit == e && shifted[j].pin->kind == shifted[k].pin->kind &&
                  strcmp(shifted[j].pin->field ? shifted[j].pin->field : "",
                         shifted[k].pin->field ? shifted[k].pin->field : "") == 0;
        if (dup)
            continue;
        if (shown == 6) {
            sb_adds(&sb, ", …");
            break;
        }
        if (shown)
            sb_adds(&sb, ", ");
        describe_shift(&sb, &shifted[k]);
        shown++;
    }
    if (npinned == 1)
        sb_addf(&sb, "; 1 layout assertion pins it, and this change %s",
                any_pin_touched ? "updates other pins of the struct but not this one"
                                : "does not update it");
    else
        sb_addf(&sb, "; %zu layout assertions pin them, and this change %s", npinned,
                any_pin_touched ? "updates other pins of the struct but not these"
                                : "updates none of them");
    return sb_detach(&sb);
}

/* A field's type as declared, with its pointer and array parts: "const void*", "int[4]". */
static char *field_type(const syn_field *f)
{
    strbuf sb;
    sb_init(&sb);
    sb_adds(&sb, f->type);
    for (int i = 0; i < f->pointer_depth; i++)
        sb_addc(&sb, '*');
    if (f->array_dims)
        sb_adds(&sb, f->array_dims);
    return sb_detach(&sb);
}

/* One row of the layout table: a base field (bi, -1: none) and its head field (hi, -1: none),
 * marked by what the change did to it. */
static void layout_row(exhibit *t, const struct_diff *d, const struct_layout *bl,
                       const struct_layout *hl, long bi, long hi)
{
    const syn_field *bf = bi >= 0 ? &d->b->fields[bi] : NULL, *hf = hi >= 0 ? &d->h->fields[hi] : NULL;
    const field_layout *bfl = bf ? &bl->f[bi] : NULL, *hfl = hf ? &hl->f[hi] : NULL;
    /* an offset the types do not give is "?"; a side the field is not on, blank */
    char boff[32] = "", hoff[32] = "", size[64] = "?";
    if (bfl)
        snprintf(boff, sizeof boff, "%lld", bfl->off);
    if (bfl && !bfl->known)
        snprintf(boff, sizeof boff, "?");
    if (hfl)
        snprintf(hoff, sizeof hoff, "%lld", hfl->off);
    if (hfl && !hfl->known)
        snprintf(hoff, sizeof hoff, "?");
    if (bfl && hfl && bfl->known && hfl->known && bfl->size != hfl->size)
        snprintf(size, sizeof size, "%lld → %lld", bfl->size, hfl->size);
    else if ((hfl && hfl->known) || (bfl && bfl->known))
        snprintf(size, sizeof size, "%lld", hfl && hfl->known ? hfl->size : bfl->size);
    char *type = field_type(hf ? hf : bf);
    exhibit_row *r = exhibit_add_cells(t, (const char *const[]){(hf ? hf : bf)->name, type, boff, hoff, size});
    free(type);
    if (!bf)
        exhibit_row_mark(r, "added");
    else if (!hf)
        exhibit_row_mark(r, "removed");
    else if (d->moved[hi])
        exhibit_row_mark(r, "moved");
    else if (!same_type(bf, hf))
        exhibit_row_mark(r, "retyped");
    else if (bfl->known && hfl->known && bfl->off != hfl->off)
        exhibit_row_mark(r, "shifted %+lld", hfl->off - bfl->off);
    else if (!(bfl->known && hfl->known) && !same_prefix(d->b, (size_t)bi, d->h, (size_t)hi))
        exhibit_row_mark(r, "shifts");
}

/* The struct's data members in the base and the head, in head order with removed members
 * where they were, and its size. */
static void add_layout_exhibit(finding *fd, const struct_diff *d, const struct_layout *bl,
                               const struct_layout *hl)
{
    const syn_struct *b = d->b, *h = d->h;
    exhibit *t = finding_add_exhibit(fd, EXHIBIT_TABLE, "`%s` in the base and the head%s", h->name,
                                     bl->relative || hl->relative
                                         ? " (offsets from its first member: it has base classes "
                                           "or #if alternatives)"
                                         : "");
    exhibit_columns(t, 5, (const char *const[]){"field", "type", "base offset", "head offset", "size"});
    size_t bi = 0;
    for (size_t j = 0; j <= h->nfields; j++) {
        /* base members removed before this head position */
        long upto = j < h->nfields && d->h2b[j] >= 0 && !d->moved[j] ? d->h2b[j] : (long)b->nfields;
        for (; j == h->nfields || (long)bi < upto; bi++) {
            if (bi >= b->nfields)
                break;
            if (!b->fields[bi].is_static && d->b2h[bi] < 0)
                layout_row(t, d, bl, hl, (long)bi, -1);
        }
        if (j < h->nfields && !h->fields[j].is_static)
            layout_row(t, d, bl, hl, d->h2b[j], (long)j);
    }
    if (bl->size_known && hl->size_known) {
        char size[64];
        if (bl->size != hl->size)
            snprintf(size, sizeof size, "%lld → %lld", bl->size, hl->size);
        else
            snprintf(size, sizeof size, "%lld", hl->size);
        exhibit_row *r = exhibit_add_cells(t, (const char *const[]){"(sizeof)", "", "", "", size});
        if (bl->size != hl->size)
            exhibit_row_mark(r, "size %+lld", hl->size - bl->size);
    }
}

/* The pins an edit shifts: what each asserts beside what the head layout gives, at its place. */
static void add_pins_exhibit(finding *fd, const shifted_pin *shifted, size_t n, size_t e)
{
    exhibit *t = finding_add_exhibit(fd, EXHIBIT_TABLE, "Layout assertions this change leaves as they were");
    exhibit_columns(t, 3, (const char *const[]){"pin", "asserts", "head layout gives"});
    for (size_t k = 0; k < n; k++) {
        const shifted_pin *sp = &shifted[k];
        if (sp->edit != e)
            continue;
        const layout_pin *pin = sp->pin;
        char *what = pin->kind == PIN_SIZEOF ? xasprintf("sizeof(%s)", pin->type)
                                             : xasprintf("offsetof(%s, %s)", pin->type, pin->field);
        char asserts[32] = "?", gives[48];
        if (pin->has_value)
            snprintf(asserts, sizeof asserts, "%lld", pin->value);
        if (sp->removed_field)
            snprintf(gives, sizeof gives, "(field removed)");
        else if (sp->amount_known && !sp->relative)
            snprintf(gives, sizeof gives, "%lld", sp->after);
        else if (sp->amount_known)
            snprintf(gives, sizeof gives, "%+lld from the base", sp->after - sp->before);
        else
            snprintf(gives, sizeof gives, "changes");
        exhibit_row *r = exhibit_add_cells(t, (const char *const[]){what, asserts, gives});
        free(what);
        exhibit_row_place(r, pin->path, pin->line);
        bool fails = pin->has_value && sp->amount_known && !sp->relative && pin->value != sp->after;
        if (fails || pin->via_macro)
            exhibit_row_mark(r, "%s%s%s%s", fails ? "no longer holds" : "",
                             fails && pin->via_macro ? " " : "", pin->via_macro ? "through " : "",
                             pin->via_macro ? pin->via_macro : "");
    }
}

/* Each pinning assertion of edit e as related information of its finding. */
static void add_pin_evidence(finding *fd, size_t e, const shifted_pin *shifted, size_t nshifted,
                             size_t npinned)
{
    size_t nrel = 0;
    for (size_t k = 0; k < nshifted; k++) {
        if (shifted[k].edit != e)
            continue;
        const layout_pin *pin = shifted[k].pin;
        if (nrel++ == MAX_RELATED) {
            finding_add_related(fd, pin->path, pin->line, "and %zu more pinning assertions",
                                npinned - MAX_RELATED);
            break;
        }
        strbuf r;
        sb_init(&r);
        if (pin->kind == PIN_SIZEOF)
            sb_addf(&r, "sizeof(%s) is pinned here", pin->type);
        else
            sb_addf(&r, "offsetof(%s, %s) is pinned here", pin->type, pin->field);
        if (pin->via_macro)
            sb_addf(&r, " through %s", pin->via_macro);
        if (pin->has_value)
            sb_addf(&r, " (asserts %lld", pin->value);
        if (pin->has_value && shifted[k].amount_known && !shifted[k].relative)
            sb_addf(&r, "; the head layout gives %lld)", shifted[k].after);
        else if (pin->has_value)
            sb_adds(&r, ")");
        sb_addf(&r, ": %s", pin->text);
        finding_add_related(fd, pin->path, pin->line, "%s", r.buf);
        sb_free(&r);
    }
}

/* Check the pins of one struct that changed shape, and report each edit that shifts one. */
static void check_pins(run_state *rs, const char *path, const shaped *sh)
{
    const syn_struct *h = &sh->h;
    rs->nshaped++;
    pin_index *ix = get_index(rs);
    const layout_pin **pins = NULL;
    size_t npins = h->name[0] ? pin_index_find(ix, h->name, &pins) : 0;
    npins = scope_pins(ix, path, h->name, pins, npins);
    npins = view_pins(sh, path, pins, npins);
    if (!npins) {
        rs->nunpinned++;
        free(pins);
        return;
    }
    const change *c = rs->ctx->chg;
    bool any_pin_touched = false;
    for (size_t p = 0; p < npins; p++)
        any_pin_touched |= change_touches(c, pins[p]->path, pins[p]->first_line, pins[p]->last_line);
    shifted_pin *shifted = NULL;
    size_t nshifted = 0, shifted_cap = 0;
    size_t *per_edit = xcalloc(sh->d.nedits + 1, sizeof *per_edit);
    for (size_t p = 0; p < npins; p++) {
        shifted_pin sp;
        if (!pin_shifts(c, sh, pins[p], &sp))
            continue;
        *ARRAY_PUSH(shifted, nshifted, shifted_cap) = sp;
        per_edit[sp.edit]++;
    }
    for (size_t e = 0; e < sh->d.nedits; e++) {
        if (!per_edit[e])
            continue;
        char *msg = edit_message(sh, e, shifted, nshifted, per_edit[e], any_pin_touched);
        finding *fd = findings_add(rs->ctx->out, "D11", SEV_WARNING, path, sh->d.edits[e].line,
                                   "%s", msg);
        free(msg);
        add_layout_exhibit(fd, &sh->d, &sh->bl, &sh->hl);
        add_pins_exhibit(fd, shifted, nshifted, e);
        add_pin_evidence(fd, e, shifted, nshifted, per_edit[e]);
        rs->nfindings++;
    }
    if (nshifted)
        rs->nstructs_found++;
    free(per_edit);
    free(shifted);
    free(pins);
}

/* The status line from what the stages counted. */
static void status_line(collector_ctx *ctx, const collector_files *files, const run_state *rs)
{
    const char *note = rs->ix_note;
    const char *sep = note ? "; " : "";
    if (!note)
        note = "";
    if (collector_files_status(ctx, files, "no C/C++ file in the change"))
        return;
    if (rs->nfindings)
        collector_status(ctx, "found %zu pinned layout shift%s in %zu struct%s%s%s",
                         rs->nfindings, rs->nfindings == 1 ? "" : "s", rs->nstructs_found,
                         rs->nstructs_found == 1 ? "" : "s", sep, note);
    else if (rs->nshaped && rs->nunpinned == rs->nshaped)
        collector_status(ctx, "nothing found: %zu struct%s changed shape, none pinned by a "
                         "layout assertion%s%s", rs->nshaped, rs->nshaped == 1 ? "" : "s", sep,
                         note);
    else if (rs->nshaped)
        collector_status(ctx, "nothing found: %zu struct%s changed shape; no pinned offset or "
                         "size shifts without the change updating its assertion%s%s",
                         rs->nshaped, rs->nshaped == 1 ? "" : "s", sep, note);
    else
        collector_status(ctx, "nothing found: no struct changed shape in %zu C/C++ file%s%s%s",
                         files->n, files->n == 1 ? "" : "s", sep, note);
}

/* The change-wide stage: every shape change's pins looked up in the tree-wide index (built
 * only when some struct changed shape), findings for those that shift, and the status line. */
static void struct_abi_change(collector_ctx *ctx, const collector_files *files)
{
    run_state rs = {.ctx = ctx};
    reuse_kept_index(&rs);
    collector_coverage *cov = xcalloc(files->n + 1, sizeof *cov);
    for (size_t i = 0; i < files->n; i++) {
        const abi_facts *t = files->items[i].facts;
        if (!t)
            continue;
        for (size_t k = 0; k < t->n; k++)
            check_pins(&rs, files->items[i].f->path, &t->items[k]);
        cov[i] = t->cov;
        cov[i].path = files->items[i].f->path; /* facts outlive the change they came from */
    }
    /* lines the parser could not read are said, with where they are */
    strbuf note;
    sb_init(&note);
    if (files->n > files->nskipped)
        collector_coverage_join(cov, files->n, &note);
    free(cov);
    if (note.len) {
        char *all = rs.ix_note ? xasprintf("%s%s", rs.ix_note, note.buf) : xstrdup(note.buf + 2);
        free(rs.ix_note);
        rs.ix_note = all;
    }
    sb_free(&note);
    status_line(ctx, files, &rs);
    free(rs.ix_note);
    if (!rs.kept || rs.kept->ix != rs.ix)
        pin_index_free(rs.ix);
}

const collector collector_struct_abi = {
    .name = "struct_abi",
    .rules = "D11",
    .langs = COLLECT_CPP,
    .reads = reads,
    .judges_code = true,
    .file_stage = struct_abi_file,
    .free_facts = abi_facts_free,
    .change_stage = struct_abi_change,
    .free_state = struct_abi_free_state,
};
