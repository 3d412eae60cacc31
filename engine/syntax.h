/* The syntax layer: tree-sitter parsing of the files under review (Python; C++ for HIP/CUDA and
 * C/C++ sources and headers) and the small structural helpers collectors share — functions and
 * their spans, call sites with their arguments, struct/class fields in order, layout pins
 * (static_assert / offsetof / sizeof), imports and comments.
 *
 * A syntax_doc owns a copy of the text and its tree. It can be updated in place (the server's
 * open documents): syntax_update diffs the new text against the old one and hands tree-sitter
 * one edit, so the reparse is incremental. For C++ the parser reads a copy of the text, never
 * doc->text itself, with the same length and newlines, so every byte offset and line/column is
 * the same in both: the preprocessor view (syntax_pp.c: one branch per #if block, directives
 * blanked), HIP words and decoration macros learned from the file and its headers blanked
 * (syntax_mask.c, syntax_headers.c; a `k<<<g, b>>>(x)` launch reads as a call of k), and the
 * constructs the grammar lacks rewritten (syntax_gaps.c). syntax_coverage.c says what still
 * does not parse.
 *
 * A file that does not parse cleanly still yields a tree (tree-sitter recovers); has_errors
 * says so and syntax_first_error gives a place for the log. Parse errors are never findings.
 *
 * Positions: lines are 1-based, columns 0-based byte offsets into the line (as in finding.h).
 * Spans are inclusive of both their first and last line.
 *
 * Ownership: functions taking a syntax_doc borrow it; every list filled by a syntax_* function
 * is owned by the caller and released with its *_list_free (which leaves it empty and reusable);
 * every char * inside a list item is owned by the list. Returned char * are the caller's to
 * free. Borrowed pointers into doc->text are invalidated by syntax_update / syntax_edit.
 * A syntax_doc is not thread-safe; distinct docs may be used from distinct threads. */
#ifndef RL_SYNTAX_H
#define RL_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "engine/util.h" /* line_run */

/* --- documents -------------------------------------------------------------------------- */

/* How a C++ text is shown to the parser besides the built-in HIP masking (syntax_parse_with):
 * - the preprocessor view. Conditional directives (#if #ifdef #ifndef #elif #else #endif) are
 *   blanked, and of each block one branch is kept, the others blanked: by default the longest
 *   branch whose condition is not the constant 0 (the first of equals; an `#if 0` block
 *   without #else keeps nothing), or, for a block holding one of keep_lines (1-based), the
 *   branch holding it. When keep lines fall in two branches of one block, view k (0-based)
 *   keeps the one holding the k-th most of them (syntax_view_count says how many views cover
 *   them all).
 * - decorations: the decoration macros of the headers the text includes, as
 *   syntax_headers_decorations returns them ("A B( C"; NULL for none); those the text defines
 *   itself are always learned. Their uses are blanked like the HIP words.
 * Every option keeps byte offsets and lines: the blanked copy has the text's length.
 * Python docs ignore the options. Pointers are borrowed for the call. */
typedef struct syntax_parse_opts {
    const int *keep_lines;
    size_t nkeep;
    int view;
    const char *decorations;
} syntax_parse_opts;

typedef enum syn_lang {
    SYN_NONE = 0,   /* not a language we parse */
    SYN_PYTHON,     /* .py, .pyi */
    SYN_CPP,        /* .cu .cuh .hip .h .hpp .hh .hxx .cpp .cc .cxx .c .inl .ipp */
} syn_lang;

/* The language of a path from its extension (case-sensitive, as on disk); SYN_NONE if none. */
syn_lang syntax_lang_of_path(const char *path);
/* "python", "cpp" or "none". */
const char *syntax_lang_name(syn_lang lang);

typedef struct syntax_queries syntax_queries; /* compiled queries (private to syntax.c) */

typedef struct syntax_doc {
    syn_lang lang;
    char *text;          /* the text as given (owned, NUL-terminated) */
    size_t len;
    TSTree *tree;        /* never NULL for a doc returned by syntax_parse */
    bool has_errors;     /* the tree contains ERROR or MISSING nodes */
    /* private: */
    char *parsed;        /* the text the parser read (HIP syntax blanked), same length */
    size_t *line_starts; /* byte offset of each line's first byte */
    int nlines;          /* number of lines (a final line without "\n" counts) */
    TSParser *parser;
    struct syn_span *spans;   /* comments and strings in text order, built on first need */
    size_t nspans;
    struct syn_span *quotes;  /* the quote tokens inside (non-doc) strings, in text order */
    size_t nquotes;
    bool spans_ready;         /* every top-level node's spans are in */
    struct syn_chunk *chunks; /* the root's children (their spans are read one at a time, on
                                 first need), built with the first span asked for */
    size_t nchunks;
    struct pp_range *hidden;  /* the branch contents the view leaves out, sorted */
    size_t nhidden;
    int *keep;                /* the options the doc was parsed with (owned copies) */
    size_t nkeep;
    int view;
    char *decorations;
    syntax_parse_opts opts;   /* pointing at the four above */
    syntax_queries *queries;  /* the compiled queries it uses: its cache's, or its own */
    bool own_queries;
    size_t reread;            /* bytes of its text the parser was told were new: all of them
                                 for a fresh parse, the edits' for syntax_parse_from */
} syntax_doc;

/* Parse text (copied) as lang. Returns NULL with *cause (caller frees) when lang is SYN_NONE
 * or the runtime refuses the grammar; a text with syntax errors still parses. */
syntax_doc *syntax_parse(syn_lang lang, const char *text, size_t len, char **cause);
/* The same in the view and with the decorations of o (NULL: as syntax_parse). */
syntax_doc *syntax_parse_with(syn_lang lang, const char *text, size_t len,
                              const syntax_parse_opts *o, char **cause);
/* Parse a file's text with the language its path implies (NULL with *cause if none). */
syntax_doc *syntax_parse_path(const char *path, const char *text, size_t len, char **cause);
void syntax_free(syntax_doc *d);

/* Replace the whole text and reparse incrementally (only the changed middle is re-read), with
 * the options the doc was parsed with. Returns 0, or -1 with *cause (the doc then keeps its
 * previous text and tree). */
int syntax_update(syntax_doc *d, const char *text, size_t len, char **cause);
/* The same, switching to the options o (NULL: the default view, no header decorations); still
 * incremental: only what differs in the blanked copies is re-read. */
int syntax_update_with(syntax_doc *d, const char *text, size_t len, const syntax_parse_opts *o,
                       char **cause);
/* A doc's tree and parser copy, kept so that a parse of a related text (a changed file's
 * base, from its head) re-reads only what differs (syntax_derive.c). Owns copies: it may
 * outlive the doc and be handed to another thread. */
typedef struct syntax_origin syntax_origin;
syntax_origin *syntax_origin_new(const syntax_doc *d);
void syntax_origin_free(syntax_origin *o);
/* Parse text as syntax_parse_with(lang, text, len, o) does, starting from `from`'s tree (NULL:
 * afresh). line_map[k], for 1 <= k < nmap, is the line of text that line k of the origin is
 * believed to be (0: none, e.g. a line the diff deletes); a pair is reused only when both
 * parser copies hold the same bytes there, so a wrong map costs time, never correctness. */
syntax_doc *syntax_parse_from(const syntax_origin *from, const int *line_map, size_t nmap,
                              syn_lang lang, const char *text, size_t len,
                              const syntax_parse_opts *o, char **cause);
/* Replace bytes [start, old_end) of the current text by repl[0..repl_len) and reparse
 * incrementally. Offsets are clamped to the text. Returns 0, or -1 with *cause. */
int syntax_edit(syntax_doc *d, size_t start, size_t old_end, const char *repl, size_t repl_len,
                char **cause);

/* The first ERROR/MISSING node's line and column (0 and -1 when the tree has no error), and a
 * short description ("syntax error" / "missing ;") into *what when what is non-NULL (caller
 * frees). For logs only. */
int syntax_first_error(const syntax_doc *d, int *col, char **what);

/* --- coverage: what the parser could not read ------------------------------------------- */

/* How many bytes of the text lie inside (outermost) ERROR nodes; *root_is_error (when non-NULL)
 * says whether the root node itself is an ERROR, i.e. the parser recovered nothing. */
size_t syntax_error_bytes(const syntax_doc *d, bool *root_is_error);
/* How many bytes lie in branches the doc's preprocessor view leaves out. */
size_t syntax_hidden_bytes(const syntax_doc *d);
/* True when a line lies in a branch the view leaves out (it is not parsed in this view). */
bool syntax_line_hidden(const syntax_doc *d, int line);
/* The lines syntax_line_hidden says are left out, as [first, last] pairs in a new array of *n
 * ints (NULL when none), for a caller that keeps the answer without the doc. */
int *syntax_hidden_lines(const syntax_doc *d, size_t *n);
/* How many views (syntax_parse_opts.view) it takes for every keep line of a C++ text to be
 * in a kept branch of one of them: 1 unless keep lines fall in two branches of one block. */
int syntax_view_count(const char *text, size_t len, const int *keep, size_t nkeep);

typedef struct syn_coverage {
    int lines;         /* lines asked about (those inside the text) */
    int analysed;      /* of them, parsed as code in this view */
    int in_error;      /* inside an ERROR node, or holding a MISSING one */
    int hidden;        /* in a branch the view leaves out */
    int first_bad, last_bad;  /* the first and last line not analysed, 0 when none */
} syn_coverage;

/* Which of lines[0..n) (1-based, any order) the doc's tree reads as code; unread (NULL or n
 * entries) is set true for each line inside the text it does not read. */
void syntax_coverage(const syntax_doc *d, const int *lines, size_t n, syn_coverage *out,
                     bool *unread);

/* --- positions and text ----------------------------------------------------------------- */

/* 1-based line of a byte offset (clamped). */
int syntax_line_of(const syntax_doc *d, size_t byte);
/* Byte offset of the first byte of a 1-based line (d->len past the end). */
size_t syntax_line_start(const syntax_doc *d, int line);
/* A line's text, borrowed from doc->text, without its "\n" (a "\r" kept); NULL past the end. */
const char *syntax_line_text(const syntax_doc *d, int line, size_t *len);
/* The text of a node as a new string. */
char *syntax_node_text(const syntax_doc *d, TSNode n);
/* True when n is not null and has the given type. */
bool syntax_node_is(TSNode n, const char *type);
/* The child of n in field name (a null node when none). */
TSNode syntax_node_field(TSNode n, const char *name);
/* The operator token of a binary, unary or assignment node ("" when none). */
const char *syntax_node_operator(TSNode n);
/* 1-based first and last line of a node (the last line is the line of its last byte). */
int syntax_node_line(TSNode n);
int syntax_node_end_line(TSNode n);
/* The smallest named node covering the byte range [start, end). */
TSNode syntax_node_at(const syntax_doc *d, size_t start, size_t end);
/* True when the byte at (line, col) is inside a comment. */
bool syntax_in_comment(const syntax_doc *d, int line, int col);
/* True when the line has code outside comments and string literals used as statements
 * (Python docstrings); false for blank, comment-only and docstring-only lines. */
bool syntax_line_has_code(const syntax_doc *d, int line);

/* The code of a line: its text (as a new string, same length and columns) with comments
 * and the contents of string literals blanked to spaces (quotes kept); Python docstrings are
 * blanked entirely. NULL past the end. */
char *syntax_line_code(const syntax_doc *d, int line);
/* The same without a tree, lexically, for a lone line of a file that could not be had or
 * parsed (a diff line): `#` (Python) or `//` (C++) comments, a line that starts inside a
 * C block comment (`*`, `/ *`), and quoted strings on the line. A new string. */
char *syntax_text_code(syn_lang lang, const char *text, size_t len);
/* The same two with only comments blanked (string literals kept as written), for comparing
 * lines as code. */
char *syntax_line_nocomment(const syntax_doc *d, int line);
char *syntax_text_nocomment(syn_lang lang, const char *text, size_t len);

/* Run a tree-sitter query (S-expression source) over the doc, restricted to the lines
 * [first_line, last_line] (0, 0 for the whole doc), calling fn once per match. Returns 0, or
 * -1 with *cause when the query does not compile (a bug: queries are constants). A query is
 * compiled once per syntax cache (a doc parsed alone keeps its own). The match is borrowed for
 * the call only. fn returns false to stop early. */
typedef bool (*syntax_match_fn)(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m,
                                void *arg);
int syntax_query(const syntax_doc *d, const char *source, int first_line, int last_line,
                 syntax_match_fn fn, void *arg, char **cause);
/* The same over the line runs runs[0..nruns) (in order and apart, as a diff's runs of
 * added lines are): fn is called once for each match whose node captured as `capture` overlaps
 * a run, in source order, and never for the rest of the doc. */
int syntax_query_touching(const syntax_doc *d, const char *source, const char *capture,
                          const line_run *runs, size_t nruns, syntax_match_fn fn, void *arg,
                          char **cause);
/* The name of capture index i of q (borrowed). */
const char *syntax_capture_name(const TSQuery *q, uint32_t i);
/* The tree-sitter grammar of a language (NULL for SYN_NONE). The first call installs the
 * counting allocator (syntax_alloc_install), so call it before creating any tree-sitter object. */
const TSLanguage *syntax_ts_language(syn_lang lang);
/* Route tree-sitter's allocations through counting wrappers (engine/syntax_alloc.c); once per
 * process, later calls do nothing. */
void syntax_alloc_install(void);
/* The bytes tree-sitter holds now, whichever thread allocated them (0 before the install). */
size_t syntax_tree_bytes(void);

/* --- functions -------------------------------------------------------------------------- */

typedef struct syn_func {
    char *name;        /* the plain name: "forward", "paged_attention_kernel", "~Foo", "operator+" */
    char *qualname;    /* with enclosing classes / namespaces / outer functions:
                          Python "Cls.method", "outer.inner"; C++ "ns::Foo::bar" (a qualified
                          declarator like Foo::bar counts too) */
    int start_line;    /* first line, including decorators (Python) and template<...> (C++) */
    int end_line;      /* last line of the body */
    int name_line;     /* line of the def / the declarator's name */
    int body_line;     /* first line of the body (the line after ":" or of "{") */
    int depth;         /* 0 at top level; +1 per enclosing function or class */
    bool is_method;    /* directly inside a class (Python) or a class/struct body, or a
                          qualified C++ name */
    bool is_kernel;    /* C++: __global__ */
    bool is_device;    /* C++: __device__ (also true with __host__ __device__) */
    bool is_template;  /* C++: inside template<...> */
    bool is_async;     /* Python: async def */
    uint32_t start_byte, end_byte;  /* span of the whole definition (decorators/template incl.) */
} syn_func;

typedef struct syn_func_list {
    syn_func *items;   /* in source order of their start (outer before inner) */
    size_t n, cap;
} syn_func_list;

/* Every function definition in the doc: Python def / async def (nested, methods, decorated);
 * C++ function definitions (free, member, qualified out-of-line, templates, kernels, inline
 * member definitions in class bodies, constructors/destructors/operators). Lambdas are not
 * functions here. Appends to out. */
void syntax_functions(const syntax_doc *d, syn_func_list *out);
/* The innermost function whose span contains line, or NULL (borrowed from l). */
const syn_func *syntax_enclosing_function(const syn_func_list *l, int line);
void syn_func_list_free(syn_func_list *l);

/* --- calls ------------------------------------------------------------------------------ */

typedef struct syn_arg {
    char *keyword;     /* Python keyword argument name, or NULL for a positional argument */
    char *text;        /* the value's source text ("*args" / "**kw" for splats) */
    int line, col;     /* start of the value */
    int end_line, end_col;
} syn_arg;

typedef struct syn_call {
    char *callee;      /* the callee as written, template arguments dropped:
                          "torch.zeros", "fx::make_buffer_tensor", "self.run", "TORCH_CHECK",
                          "kernel" (for kernel<<<...>>>(...)) */
    char *name;        /* its last component: "zeros", "make_buffer_tensor", "run" */
    char *receiver;    /* what precedes the last component: "torch", "fx", "self", or NULL */
    int line, col;     /* start of the whole call */
    int end_line, end_col;
    int args_line, args_col;  /* the "(" */
    syn_arg *args;     /* in source order; positional ones have keyword == NULL */
    size_t nargs;
    size_t npositional;/* how many of args are positional */
} syn_call;

typedef struct syn_call_list {
    syn_call *items;   /* in source order of their start */
    size_t n, cap;
} syn_call_list;

/* Every call whose start lies in lines [first_line, last_line] (0, 0: the whole doc). Python
 * `call`, C++ `call_expression` (which includes function-like macro uses such as TORCH_CHECK
 * inside functions) and HIP kernel launches. Appends to out. */
void syntax_calls(const syntax_doc *d, int first_line, int last_line, syn_call_list *out);
/* Every call whose span overlaps one of the line runs runs[0..nruns) (in order and
 * apart, as a diff's runs of added lines are), each once, in source order: the calls an edit
 * of those lines touches, found without listing the rest of the doc. Appends to out. */
void syntax_calls_touching(const syntax_doc *d, const line_run *runs, size_t nruns,
                           syn_call_list *out);
/* The positional argument i (0-based) or the keyword argument kw (when kw is non-NULL and
 * present), whichever is given; NULL when neither is there (borrowed). */
const syn_arg *syntax_call_arg(const syn_call *c, int i, const char *kw);
void syn_call_list_free(syn_call_list *l);

/* --- structs and classes ---------------------------------------------------------------- */

typedef struct syn_field {
    char *name;        /* "seq_len"; "" for an anonymous nested struct/union member */
    char *type;        /* declared type with qualifiers, without the declarator:
                          "const float", "int32_t", "struct Foo", "std::array<int, 4>" */
    char *declarator;  /* the declarator as written: "*ptr", "data[4]", "x", "bits : 3" */
    int pointer_depth; /* number of '*' (and '&') in the declarator */
    char *array_dims;  /* "[4][2]" or NULL */
    int bitfield;      /* bit-field width, or -1 (or 0 when not a literal) */
    bool is_static;    /* static members take no space in the object */
    int line, col;     /* the field's name */
    uint32_t start_byte, end_byte;  /* the whole field declaration */
} syn_field;

typedef struct syn_struct {
    char *name;        /* "Foo", or the typedef name for `typedef struct {...} Foo;`; "" if none */
    char *qualname;    /* with enclosing namespaces / classes: "aiter::Foo" */
    char *kind;        /* "struct", "class", "union" (C++), "class" (Python) */
    int start_line, end_line;
    int name_line;
    bool is_template;
    syn_field *fields; /* data members in declaration order (methods excluded); for Python,
                          class-level annotated assignments "x: int = 0" and plain "x = ..." */
    size_t nfields, fields_cap;
    uint32_t start_byte, end_byte;
} syn_struct;

typedef struct syn_struct_list {
    syn_struct *items;
    size_t n, cap;
} syn_struct_list;

/* Every struct/class/union definition with a body (C++, nested ones too) and every Python
 * class. Appends to out. */
void syntax_structs(const syntax_doc *d, syn_struct_list *out);
/* The first struct named name (plain or qualified), or NULL (borrowed). */
const syn_struct *syntax_find_struct(const syn_struct_list *l, const char *name);
void syn_struct_list_free(syn_struct_list *l);

/* --- layout pins: static_assert / offsetof / sizeof ------------------------------------- */

typedef enum syn_site_kind {
    SYN_STATIC_ASSERT,  /* static_assert(cond[, msg]) / _Static_assert */
    SYN_OFFSETOF,       /* offsetof(T, member) / __builtin_offsetof */
    SYN_SIZEOF,         /* sizeof(T) / sizeof expr; also alignof(T) is not listed */
} syn_site_kind;

typedef struct syn_site {
    syn_site_kind kind;
    char *text;        /* the whole site: "offsetof(kargs, seq_len)" */
    char *arg1;        /* static_assert: the condition; offsetof: the type; sizeof: operand */
    char *arg2;        /* static_assert: the message or NULL; offsetof: the member; sizeof NULL */
    int line, col, end_line, end_col;
    bool in_macro;     /* inside a #define body (found by scanning its text) */
    int assert_index;  /* index in the list of the static_assert containing it, or -1 */
} syn_site;

typedef struct syn_site_list {
    syn_site *items;   /* in source order */
    size_t n, cap;
} syn_site_list;

/* Every static_assert / offsetof / sizeof in the doc's code, including inside macro
 * invocations and #define bodies, not in comments or string literals. C++ only (a Python doc
 * yields nothing). Appends to out. */
void syntax_layout_sites(const syntax_doc *d, syn_site_list *out);
void syn_site_list_free(syn_site_list *l);

/* --- imports ---------------------------------------------------------------------------- */

typedef struct syn_import {
    char *module;      /* Python: "aiter.ops.triton.foo" ("" for `from . import x`);
                          C++: the included path "aiter_hip_common.h" */
    char *name;        /* Python from-import: the imported name ("*" for a star import);
                          NULL for `import a.b` and for #include */
    char *alias;       /* `as` name or NULL */
    int level;         /* Python: leading dots of a relative import (0 absolute) */
    bool is_include;   /* C++ #include */
    bool is_system;    /* #include <...> */
    int line, col;
} syn_import;

typedef struct syn_import_list {
    syn_import *items; /* one per imported name, in source order */
    size_t n, cap;
} syn_import_list;

/* Every import in the doc (also inside functions and try/if blocks). Appends to out. */
void syntax_imports(const syntax_doc *d, syn_import_list *out);
/* The import statements (and #includes) that overlap one of the line runs (as
 * syntax_query_touching takes them), in source order: those an edit of the lines touches. */
void syntax_imports_touching(const syntax_doc *d, const line_run *runs, size_t nruns,
                             syn_import_list *out);
void syn_import_list_free(syn_import_list *l);

/* --- decoration macros of included headers ----------------------------------------------- */

/* What a C++ file's first-party headers teach the parser: the decoration macros they define
 * (`#define OPUS_D __device__ __forceinline__`, `#define LB(n) __launch_bounds__(n)`, ...).
 * Includes are resolved inside a root directory (next to the including file, then in each
 * enclosing directory and its include/, up to the root), followed a bounded number of levels,
 * and never outside the root, through symbolic links or into 3rdparty/build/dot directories.
 * Headers are read once, checked against the disk at most once per round (the caller starts a
 * new round per review), and a file's answer is kept for the round. Not thread-safe.
 *
 * A lookup function, when given, supplies a header's text instead of the disk (an editor's
 * unsaved buffer): it returns the text (borrowed for the call) and its length, or NULL. */
typedef struct syntax_headers syntax_headers;
typedef const char *(*syntax_text_lookup)(void *arg, const char *path, size_t *len);

/* A new header reader for root (NULL: it never reads anything). root is copied. */
syntax_headers *syntax_headers_new(const char *root);
void syntax_headers_free(syntax_headers *hs);
/* Its root (borrowed), or NULL. */
const char *syntax_headers_root(const syntax_headers *hs);
/* Start a new round: headers are checked against the disk again when next needed. */
void syntax_headers_next_round(syntax_headers *hs);
/* The decoration macros the headers included by text (the file at path, relative to the
 * root) define, as syntax_parse_opts.decorations wants them. A new string ("" for none). */
char *syntax_headers_decorations(syntax_headers *hs, const char *path, const char *text,
                                 size_t len, syntax_text_lookup lookup, void *arg);
/* Parse a file (path relative to hs's root) the way collectors see it: its language from the
 * path, and for C++ the view of o (NULL: the default one) with its headers' decorations. */
syntax_doc *syntax_parse_file(syntax_headers *hs, const char *path, const char *text, size_t len,
                              const syntax_parse_opts *o, char **cause);

/* --- a cache of parsed documents --------------------------------------------------------- */

/* Documents kept between reviews, keyed by a name the caller chooses (e.g. "head:" + path,
 * "base:" + path). Asking for a key with new text updates the kept doc in place, so an edited
 * file is reparsed incrementally; asking with the same text costs a comparison. The function
 * list of each doc is kept too. One cache per engine (and one per extra reviewing thread,
 * syntax_cache_new_beside); a cache is not thread-safe.
 *
 * Ownership: the cache owns its docs and lists; pointers it returns are borrowed and stay valid
 * until the same key is asked for with other text, syntax_cache_trim or syntax_cache_free.
 * Keys and texts are borrowed (copied). */
typedef struct syntax_cache syntax_cache;

syntax_cache *syntax_cache_new(void);
void syntax_cache_free(syntax_cache *c);
/* A cache for a second thread that reviews other files of the same change at the same time:
 * empty, with no second thread of its own to parse ahead, sharing c's compiled queries (the
 * one thing the two caches share; c must outlive it). Each cache is used by one thread. */
syntax_cache *syntax_cache_new_beside(syntax_cache *c);
/* Move every doc of from (made by syntax_cache_new_beside(into)) into into, with its parse
 * counts, once the thread that used from is done: a key into already holds keeps into's doc.
 * from is left empty. */
void syntax_cache_adopt(syntax_cache *into, syntax_cache *from);
/* The doc for key holding exactly text (see above). NULL with *cause when lang is SYN_NONE or
 * the parse fails. */
const syntax_doc *syntax_cache_get(syntax_cache *c, const char *key, syn_lang lang,
                                   const char *text, size_t len, char **cause);
/* The same parsed with the options o (NULL: the default view). A key keeps one doc: asking
 * for it with other options updates it in place, incrementally. Give each view its own key. */
const syntax_doc *syntax_cache_get_with(syntax_cache *c, const char *key, syn_lang lang,
                                        const char *text, size_t len,
                                        const syntax_parse_opts *o, char **cause);
/* The same, except that a doc not held yet is parsed starting from the doc held for from_key
 * when there is one (syntax_parse_from with line_map: from_key's lines to this text's): a
 * changed file's base from its head. */
const syntax_doc *syntax_cache_get_related(syntax_cache *c, const char *key, syn_lang lang,
                                           const char *text, size_t len,
                                           const syntax_parse_opts *o, const char *from_key,
                                           const int *line_map, size_t nmap, char **cause);
/* How many of the cache's parses started from a related doc's tree. */
size_t syntax_cache_related_parses(const syntax_cache *c);
/* The doc kept for key if it was asked for since the last trim with exactly this text and the
 * view of o (its decorations not compared: within a round they cannot have changed); NULL
 * otherwise. Lets a caller skip working out the decorations again. */
const syntax_doc *syntax_cache_peek(syntax_cache *c, const char *key, syn_lang lang,
                                    const char *text, size_t len, const syntax_parse_opts *o);
/* Queue key's doc (text, options o) to be parsed on a second thread before it is asked for
 * (syntax_ahead.h); the first syntax_cache_get_with of key with the same text and options
 * takes it. False when nothing was queued (key is held already or queued, or no thread). */
bool syntax_cache_parse_ahead(syntax_cache *c, const char *key, syn_lang lang, const char *text,
                              size_t len, const syntax_parse_opts *o);
/* The same for a doc that may start from the tree of the doc queued just before it under
 * from_key (a changed file's base after its head; see syntax_cache_get_related). */
bool syntax_cache_parse_ahead_related(syntax_cache *c, const char *key, syn_lang lang,
                                      const char *text, size_t len, const syntax_parse_opts *o,
                                      const char *from_key, const int *line_map, size_t nmap);
/* How many docs were queued to be parsed ahead, in all. */
size_t syntax_cache_ahead_queued(const syntax_cache *c);
/* How many of the cache's parses were done ahead (and taken). */
size_t syntax_cache_ahead_taken(const syntax_cache *c);
/* Time spent waiting for docs being parsed ahead, in all (ms). */
double syntax_cache_ahead_waited_ms(syntax_cache *c);
/* Text bytes queued ahead and not taken yet. */
size_t syntax_cache_ahead_bytes(syntax_cache *c);
/* Drop what was queued ahead and not taken (the end of a review). */
void syntax_cache_ahead_clear(syntax_cache *c);
/* Drop what was queued ahead for key and not taken (its file's stages are over). */
void syntax_cache_ahead_forget(syntax_cache *c, const char *key);
/* The cache's header reader for root (created on first use, replaced when root changes;
 * borrowed): what it read is reused until syntax_cache_headers_changed. NULL when root is
 * NULL. */
syntax_headers *syntax_cache_headers(syntax_cache *c, const char *root);
/* The functions of a doc returned by this cache, computed once per text (borrowed: valid
 * while the doc is held, however many docs the cache takes meanwhile). */
const syn_func_list *syntax_cache_functions(syntax_cache *c, const syntax_doc *d);
/* The structs of a doc returned by this cache, computed once per text (borrowed). */
const syn_struct_list *syntax_cache_structs(syntax_cache *c, const syntax_doc *d);
/* Drop the doc kept for key and those of its other views (keys "key#N"), releasing their
 * trees: for a caller done with a file it does not expect to be asked for again soon. */
void syntax_cache_drop(syntax_cache *c, const char *key);
/* Drop every doc whose key starts with prefix, releasing their trees. */
void syntax_cache_drop_prefix(syntax_cache *c, const char *prefix);
/* The total length of the texts of the docs it holds (their trees take some tens of times
 * more), for a caller keeping its memory within a budget. */
size_t syntax_cache_bytes(const syntax_cache *c);
/* Drop every doc not asked for since the previous trim (call between reviews). */
void syntax_cache_trim(syntax_cache *c);
/* Headers may have changed (on disk, or in the change): read them again from the next ask on
 * (a new round of the header reader). */
void syntax_cache_headers_changed(syntax_cache *c);
/* The time spent parsing and reparsing in syntax_cache_get_with since the cache was made. */
double syntax_cache_parse_ms(const syntax_cache *c);
/* How many docs the cache holds, and how many parses and incremental updates it has done. */
void syntax_cache_stats(const syntax_cache *c, size_t *ndocs, size_t *nparses, size_t *nupdates);

/* --- comments --------------------------------------------------------------------------- */

typedef struct syn_comment {
    char *text;        /* the comment as written, markers included */
    int line, col, end_line, end_col;
} syn_comment;

typedef struct syn_comment_list {
    syn_comment *items;
    size_t n, cap;
} syn_comment_list;

/* Every comment whose start lies in lines [first_line, last_line] (0, 0: all). Appends. */
void syntax_comments(const syntax_doc *d, int first_line, int last_line, syn_comment_list *out);
void syn_comment_list_free(syn_comment_list *l);

#endif
