/* The tree-wide index of struct layout pins: every `offsetof(S, f)` and every
 * `static_assert(... sizeof(S) ...)` in the C/C++ files under a root, including those written
 * inside #define bodies and those produced by invoking a macro whose body pins its parameter
 * (`#define CO_ABI(T, F, OFF) static_assert(offsetof(T, F) == OFF)` then
 * `CO_ABI(kargs, seq_len, 16);` pins kargs.seq_len at the invocation). The struct ABI collector
 * (rule D11) asks it which assertions fix a struct's size and field offsets.
 *
 * It is built once by walking the root (skipping .git, build*, node_modules, 3rdparty,
 * symbolic links and files over 2 MiB) and can then be updated one file at a time with that
 * file's new text, so a server can build it in the background and keep it current per file
 * event. The scan is lexical (comments, strings and preprocessor lines understood; no parse),
 * because it must read every C/C++ file of a large tree quickly and must see through macro
 * bodies, which a parser only holds as opaque text.
 *
 * Threads: an index is not thread-safe. Build it on a worker thread and hand it over whole, or
 * guard it with a lock; lookups may run together, but never alongside an update.
 *
 * Ownership: the index owns its pins and every string in them; pointers returned by
 * pin_index_find are borrowed and valid until the next update or pin_index_free. String
 * arguments are borrowed (copied when kept). */
#ifndef RL_PIN_INDEX_H
#define RL_PIN_INDEX_H

#include <stdbool.h>
#include <stddef.h>

typedef enum pin_kind {
    PIN_OFFSETOF,   /* offsetof(S, f) / __builtin_offsetof(S, f) */
    PIN_SIZEOF,     /* sizeof(S) inside a static_assert */
} pin_kind;

typedef struct layout_pin {
    pin_kind kind;
    char *type;        /* the struct's plain name: "kargs" for offsetof(ns::kargs<T>, x) */
    char *field;       /* offsetof: the member's first name ("a" for a.b[2]); NULL for sizeof */
    char *path;        /* relative to the root */
    int line;          /* the offsetof/sizeof, or the macro invocation producing it */
    int first_line;    /* the whole site: its static_assert, or the whole macro invocation */
    int last_line;
    char *text;        /* that site as written, white space collapsed, at most ~160 bytes */
    bool asserted;     /* inside a static_assert (in the file or in the macro's body) */
    bool has_value;    /* the assertion compares it with an integer literal */
    long long value;   /* that literal (`sizeof(S) == 112` gives 112) */
    char *via_macro;   /* the pinning macro invoked at line, or NULL */
    bool in_define;    /* written literally inside a #define body */
} layout_pin;

typedef struct pin_index pin_index;

/* A new, empty index over root (which may be NULL: then only pin_index_update_file adds). */
pin_index *pin_index_new(const char *root);
void pin_index_free(pin_index *ix);

/* Walk the root and index every C/C++ file, replacing what the index held. Returns 0, or -1
 * with *cause (caller frees) when the root cannot be read at all; unreadable files below it
 * are counted in pin_index_stats and skipped. */
int pin_index_build(pin_index *ix, char **cause);

/* Re-index one file (path relative to the root) from its new text, or drop it when text is
 * NULL (the file is gone). Files that are not C/C++ are ignored. When the file's pinning
 * macros change, invocations elsewhere are re-resolved (their files re-read from the root). */
void pin_index_update_file(pin_index *ix, const char *relpath, const char *text, size_t len);

/* The pins of struct type (its plain name), sorted by path and line. Returns how many and
 * sets *out to a new array of borrowed pointers (the caller frees the array only; *out is
 * NULL when there are none). */
size_t pin_index_find(const pin_index *ix, const char *type, const layout_pin ***out);

/* True when the indexed file path (relative) defines a struct, class or union named type with
 * a body: its own pins of that name are about its own type, not a namesake elsewhere. */
bool pin_index_file_defines(const pin_index *ix, const char *path, const char *type);

/* Counts for status lines and logs. */
void pin_index_stats(const pin_index *ix, size_t *nfiles, size_t *npins, size_t *nskipped);

/* True when path (relative) names a file the index reads: a C/C++ source or header. */
bool pin_index_wants_path(const char *path);

#endif
