/* Unit tests for what the syntax layer shows the C++ grammar: preprocessor views (one branch per
 * #if block, `#if 0` never code, the branch a change is in kept), decoration macros learned from
 * the file and from the first-party headers it includes, the constructs the grammar lacks, and
 * the coverage figures collectors quote. Snippets are our own code in the shape of HIP kernels. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/syntax.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

/* Parse a NUL-terminated C++ snippet with options (NULL: the default view). */
static syntax_doc *parse_cpp(const char *text, const syntax_parse_opts *o)
{
    char *cause = NULL;
    syntax_doc *d = syntax_parse_with(SYN_CPP, text, strlen(text), o, &cause);
    if (!d) {
        fprintf(stderr, "  parse failed: %s\n", cause);
        free(cause);
    }
    return d;
}

/* The function named name in d, as (name_line, end_line); 0 when absent. */
static int function_line(const syntax_doc *d, const char *name, int *end_line)
{
    syn_func_list l = {0};
    syntax_functions(d, &l);
    int line = 0;
    for (size_t i = 0; i < l.n; i++)
        if (strcmp(l.items[i].name, name) == 0) {
            line = l.items[i].name_line;
            if (end_line)
                *end_line = l.items[i].end_line;
        }
    syn_func_list_free(&l);
    return line;
}

static const char *split_initializer =
    "enum class MxFmt { E4M3FN, E4M3FNUZ };\n"             /* 1 */
    "static constexpr MxFmt kFp8Fmt =\n"                    /* 2 */
    "#if defined(__gfx942__)\n"                             /* 3 */
    "    MxFmt::E4M3FNUZ;\n"                                /* 4 */
    "#else\n"                                               /* 5 */
    "    MxFmt::E4M3FN;\n"                                  /* 6 */
    "#endif\n"                                              /* 7 */
    "\n"                                                    /* 8 */
    "__global__ void quant_rows(const float* x, int n)\n"   /* 9 */
    "{\n"                                                   /* 10 */
    "    int row = blockIdx.x;\n"                           /* 11 */
    "    if (row >= n) return;\n"                           /* 12 */
    "}\n";                                                  /* 13 */

TEST(initializer_split_by_if)
{
    syntax_doc *d = parse_cpp(split_initializer, NULL);
    if (!d)
        return;
    CHECK(!d->has_errors);
    int end = 0;
    CHECK_INT(function_line(d, "quant_rows", &end), 9);
    CHECK_INT(end, 13);
    /* the #else branch is left out of the default view, and said so */
    CHECK(!syntax_line_hidden(d, 4));
    CHECK(syntax_line_hidden(d, 6));
    CHECK(!syntax_line_hidden(d, 9));
    CHECK_INT(syntax_hidden_bytes(d), strlen("    MxFmt::E4M3FN;\n"));
    /* positions map one to one: node text is the file's own */
    size_t len;
    const char *t = syntax_line_text(d, 3, &len);
    CHECK(t && len == 23 && memcmp(t, "#if defined(__gfx942__)", 23) == 0);
    /* a view keeping line 6 keeps the #else branch instead */
    int keep[] = {6};
    syntax_parse_opts o = {.keep_lines = keep, .nkeep = 1};
    syntax_doc *e = parse_cpp(split_initializer, &o);
    if (e) {
        CHECK(!e->has_errors);
        CHECK(syntax_line_hidden(e, 4));
        CHECK(!syntax_line_hidden(e, 6));
        CHECK_INT(function_line(e, "quant_rows", NULL), 9);
        syntax_free(e);
    }
    syntax_free(d);
}

TEST(if0_blocks_are_never_code)
{
    const char *src =
        "#if 0\n"                                           /* 1 */
        "__device__ void old_quant(float* y) { y[0] = 1; }\n"
        "#endif\n"                                          /* 3 */
        "#if 0 // kept for reference\n"                     /* 4 */
        "__device__ void older_quant(float* y) { }\n"       /* 5 */
        "#else\n"                                           /* 6 */
        "__device__ void new_quant(float* y) { y[0] = 2; }\n"
        "#endif\n"                                          /* 8 */
        "#if 1\n"                                           /* 9 */
        "__device__ void always(float* y) { }\n"            /* 10 */
        "#elif 0\n"                                         /* 11 */
        "__device__ void never(float* y) { }\n"             /* 12 */
        "#endif\n";
    /* even a view asked to keep a line inside #if 0 does not */
    int keep[] = {2, 5, 12};
    syntax_parse_opts o = {.keep_lines = keep, .nkeep = 3};
    syntax_doc *d = parse_cpp(src, &o);
    if (!d)
        return;
    CHECK(!d->has_errors);
    CHECK_INT(function_line(d, "old_quant", NULL), 0);
    CHECK_INT(function_line(d, "older_quant", NULL), 0);
    CHECK_INT(function_line(d, "new_quant", NULL), 7);
    CHECK_INT(function_line(d, "always", NULL), 10);
    CHECK_INT(function_line(d, "never", NULL), 0);
    CHECK(syntax_line_hidden(d, 2));
    CHECK(syntax_line_hidden(d, 5));
    CHECK_INT(syntax_view_count(src, strlen(src), keep, 3), 1);
    syntax_free(d);
}

static const char *branch_struct =
    "struct rope_kargs {\n"                                 /* 1 */
    "    const void* q;\n"                                  /* 2 */
    "#if defined(__gfx950__)\n"                             /* 3 */
    "    int rows;\n"                                       /* 4 */
    "    int heads;\n"                                      /* 5 */
    "#elif defined(__gfx942__)\n"                           /* 6 */
    "    int rows;\n"                                       /* 7 */
    "    float scale;\n"                                    /* 8 */
    "#else\n"                                               /* 9 */
    "    long rows;\n"                                      /* 10 */
    "#endif\n"                                              /* 11 */
    "    int stride;\n"                                     /* 12 */
    "};\n";

/* The field names of the first struct of d, space separated (caller frees). */
static char *field_names(const syntax_doc *d)
{
    syn_struct_list l = {0};
    syntax_structs(d, &l);
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; l.n && i < l.items[0].nfields; i++)
        sb_addf(&sb, "%s%s", i ? " " : "", l.items[0].fields[i].name);
    syn_struct_list_free(&l);
    return sb.buf ? sb_detach(&sb) : xstrdup("");
}

TEST(struct_fields_per_branch)
{
    syntax_doc *d = parse_cpp(branch_struct, NULL);
    if (!d)
        return;
    char *f = field_names(d);
    CHECK_STR(f, "q rows heads stride");
    free(f);
    syntax_free(d);
    int keep[] = {8};
    syntax_parse_opts o = {.keep_lines = keep, .nkeep = 1};
    d = parse_cpp(branch_struct, &o);
    if (!d)
        return;
    f = field_names(d);
    CHECK_STR(f, "q rows scale stride");
    free(f);
    syntax_free(d);
    /* lines in two branches of one block take two views, one per branch, in line order */
    int both[] = {8, 10};
    CHECK_INT(syntax_view_count(branch_struct, strlen(branch_struct), both, 2), 2);
    o = (syntax_parse_opts){.keep_lines = both, .nkeep = 2, .view = 1};
    d = parse_cpp(branch_struct, &o);
    if (!d)
        return;
    f = field_names(d);
    CHECK_STR(f, "q rows stride");
    free(f);
    CHECK(syntax_line_hidden(d, 8));
    syntax_free(d);
}

TEST(directives_inside_comments_and_continuations)
{
    const char *src =
        "/*\n"                                              /* 1 */
        "#if 0\n"                                           /* 2: a comment, not a directive */
        "*/\n"                                              /* 3 */
        "#define PICK(a, b) \\\n"                           /* 4 */
        "    ((a) > (b) ? (a) : (b))\n"                     /* 5 */
        "#ifdef USE_FAST\\\n"                               /* 6: continued directive */
        "_PATH\n"                                           /* 7 */
        "int fast_path(int x) { return PICK(x, 0); }\n"     /* 8 */
        "#endif\n"                                          /* 9 */
        "#endif\n"                                          /* 10: stray, tolerated */
        "int after(int x) { return x; }\n";                 /* 11 */
    syntax_doc *d = parse_cpp(src, NULL);
    if (!d)
        return;
    CHECK_INT(function_line(d, "fast_path", NULL), 8);
    CHECK_INT(function_line(d, "after", NULL), 11);
    CHECK_INT(syntax_hidden_bytes(d), 0);
    syntax_free(d);
    /* an #if never closed runs to the end of the text */
    const char *open = "#if 0\nint lost(void) { return 0; }\n";
    d = parse_cpp(open, NULL);
    if (d) {
        CHECK_INT(function_line(d, "lost", NULL), 0);
        CHECK(syntax_line_hidden(d, 2));
        syntax_free(d);
    }
}

TEST(decoration_macros_of_the_file)
{
    const char *src =
        "#ifdef __HIPCC__\n"                                         /* 1 */
        "#define TILE_FN inline __device__\n"                        /* 2 */
        "#else\n"                                                    /* 3 */
        "#define TILE_FN inline\n"                                   /* 4 */
        "#endif\n"                                                   /* 5 */
        "#define LDS_ADDR __attribute__((address_space(3)))\n"       /* 6 */
        "#define MAX_THREADS(n) __launch_bounds__(n)\n"              /* 7 */
        "#define TILE_FN_FAST TILE_FN __attribute__((always_inline))\n" /* 8 */
        "#define C_EXPORT extern \"C\" __attribute__((visibility(\"default\")))\n"
        "#define NOT_A_DECORATION 4 * sizeof(float)\n"               /* 10 */
        "TILE_FN_FAST void copy_tile(LDS_ADDR float* dst, const float* src) {\n"
        "    dst[threadIdx.x] = src[threadIdx.x];\n"                 /* 12 */
        "}\n"                                                        /* 13 */
        "__global__ MAX_THREADS(256) void tile_kernel(const float* src) { }\n"
        "C_EXPORT void tile_launch(int n) { }\n"                     /* 15 */
        "int width() { return NOT_A_DECORATION; }\n";                /* 16 */
    syntax_doc *d = parse_cpp(src, NULL);
    if (!d)
        return;
    CHECK(!d->has_errors);
    CHECK_INT(function_line(d, "copy_tile", NULL), 11);
    CHECK_INT(function_line(d, "tile_kernel", NULL), 14);
    CHECK_INT(function_line(d, "tile_launch", NULL), 15);
    CHECK_INT(function_line(d, "width", NULL), 16);
    /* the use of a non-decoration macro stays in the tree */
    syn_call_list calls = {0};
    syntax_calls(d, 16, 16, &calls);
    CHECK_INT(calls.n, 0);
    syn_call_list_free(&calls);
    char *code = syntax_line_code(d, 16);
    CHECK(code && strstr(code, "NOT_A_DECORATION"));
    free(code);
    syntax_free(d);
    /* a name defined as anything else in some branch is not a decoration */
    const char *mixed =
        "#ifdef X\n#define MAYBE __device__\n#else\n#define MAYBE int\n#endif\n"
        "MAYBE value = 3;\n";
    d = parse_cpp(mixed, NULL);
    if (d) {
        TSNode n = syntax_node_at(d, syntax_line_start(d, 6), syntax_line_start(d, 6) + 5);
        char *s = syntax_node_text(d, n);
        CHECK_STR(s, "MAYBE"); /* still read as the declaration's type */
        free(s);
        syntax_free(d);
    }
}

/* Write text to root/rel, making directories. */
static void write_file(const char *root, const char *rel, const char *text)
{
    char *path = xasprintf("%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    free(path);
}

static const char *kernel_using_header_macros =
    "#include \"tile/tile_defs.h\"\n"                               /* 1 */
    "#include <hip/hip_runtime.h>\n"                                /* 2 */
    "TILE_DEVICE void stage_tile(TILE_LDS float* dst, const float* src, int n) {\n"
    "    for (int i = threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];\n"
    "}\n"                                                           /* 5 */
    "__global__ TILE_BOUNDS(256) void tile_copy(const float* src, int n) {\n"
    "    __shared__ float buf[256];\n"                              /* 7 */
    "    stage_tile(buf, src, n);\n"                                /* 8 */
    "}\n";

TEST(decoration_macros_of_included_headers)
{
    char tmpl[] = "/tmp/syntax-headers-XXXXXX";
    char *root = mkdtemp(tmpl);
    if (!root) {
        CHECK(root != NULL);
        return;
    }
    write_file(root, "csrc/include/tile/tile_defs.h",
               "#pragma once\n#include \"tile_attrs.h\"\n"
               "#define TILE_DEVICE __device__ TILE_INLINE\n"
               "#define TILE_BOUNDS(n) __launch_bounds__(n)\n");
    write_file(root, "csrc/include/tile/tile_attrs.h",
               "#pragma once\n#define TILE_INLINE __forceinline__\n"
               "#define TILE_LDS __attribute__((address_space(3)))\n"
               "#include \"tile_defs.h\"\n");
    /* a header outside the root is never read, even when included with ".." */
    write_file(root, "outside.h", "#define OUTSIDE_FN __device__\n");
    char *csrc = xasprintf("%s/csrc", root);
    syntax_headers *hs = syntax_headers_new(csrc);
    const char *src = kernel_using_header_macros;
    char *deco = syntax_headers_decorations(hs, "kernels/tile_copy.cu", src, strlen(src), NULL, NULL);
    CHECK_STR(deco, "TILE_BOUNDS( TILE_DEVICE TILE_INLINE TILE_LDS");
    free(deco);
    const char *escape = "#include \"../../outside.h\"\n";
    deco = syntax_headers_decorations(hs, "kernels/x.cu", escape, strlen(escape), NULL, NULL);
    CHECK_STR(deco, "");
    free(deco);
    /* nor through a directory link that leads out of the tree, nor a linked file */
    write_file(root, "elsewhere/far.h", "#define FAR_FN __device__\n");
    char *target = xasprintf("%s/elsewhere", root), *link = xasprintf("%s/csrc/include/far", root);
    CHECK_INT(symlink(target, link), 0);
    free(link);
    free(target);
    target = xasprintf("%s/outside.h", root);
    link = xasprintf("%s/csrc/include/near.h", root);
    CHECK_INT(symlink(target, link), 0);
    free(link);
    free(target);
    const char *linked = "#include \"far/far.h\"\n#include \"near.h\"\n";
    deco = syntax_headers_decorations(hs, "kernels/y.cu", linked, strlen(linked), NULL, NULL);
    CHECK_STR(deco, "");
    free(deco);
    char *cause = NULL;
    syntax_doc *d = syntax_parse_file(hs, "kernels/tile_copy.cu", src, strlen(src), NULL, &cause);
    if (d) {
        CHECK(!d->has_errors);
        CHECK_INT(function_line(d, "stage_tile", NULL), 3);
        CHECK_INT(function_line(d, "tile_copy", NULL), 6);
        syntax_free(d);
    }
    free(cause);
    /* without the headers the same file does not parse cleanly */
    d = parse_cpp(src, NULL);
    if (d) {
        CHECK(d->has_errors);
        syntax_free(d);
    }
    /* a header changed on disk is read again in the next round, not before */
    write_file(root, "csrc/include/tile/tile_attrs.h", "#pragma once\n#define TILE_INLINE inline\n");
    deco = syntax_headers_decorations(hs, "kernels/tile_copy.cu", src, strlen(src), NULL, NULL);
    CHECK(strstr(deco, "TILE_LDS") != NULL);
    free(deco);
    syntax_headers_next_round(hs);
    deco = syntax_headers_decorations(hs, "kernels/tile_copy.cu", src, strlen(src), NULL, NULL);
    CHECK_STR(deco, "TILE_BOUNDS( TILE_DEVICE TILE_INLINE");
    free(deco);
    syntax_headers_free(hs);
    CHECK(unit_remove_tree(root));
    free(csrc);
}

TEST(constructs_the_grammar_lacks)
{
    const char *src =
        "#define ROW_CAST(T, p) ((T*)(p))\n"                                  /* 1 */
        "#define DISPATCH_WIDTH(w, ...) switch (w) { case 4: __VA_ARGS__; break; }\n"
        "template <int W> struct width { static constexpr int value = W; };\n"
        "template <typename... U, typename std::enable_if<sizeof...(U) >= 2, bool>::type = false>\n"
        "void pack(U&&... u) { }\n"                                            /* 5 */
        "template <int A = 0>\n"                                               /* 6 */
        "__device__ float scale_of(float x, width<A> = {}) {\n"                /* 7 */
        "    uint32_t bits = __builtin_bit_cast(uint32_t, x);\n"                /* 8 */
        "    float* row = ROW_CAST(float, &x);\n"                              /* 9 */
        "    asm volatile(\"v_mov_b32 %0, %1\" : \"=v\"(row[0]) : \"v\"(bits));\n"
        "    return *row;\n"                                                   /* 11 */
        "};\n"                                                                 /* 12 */
        "REGISTER_SCALE_OP(scale_of)\n"                                        /* 13 */
        "int after_register(int n)\n"                                          /* 14 */
        "{\n"                                                                  /* 15 */
        "    DISPATCH_WIDTH(n, pack(n, n););\n"                                /* 16 */
        "    return n;\n"                                                      /* 17 */
        "}\n"                                                                  /* 18 */
        "EXPORT_ENTRY(launch_scale, (const float* x, int n), (x, n))\n"        /* 19 */
        "{\n"                                                                  /* 20 */
        "    return;\n"                                                        /* 21 */
        "}\n";                                                                 /* 22 */
    syntax_doc *d = parse_cpp(src, NULL);
    if (!d)
        return;
    bool root_error;
    CHECK_INT(syntax_error_bytes(d, &root_error), 0);
    CHECK(!root_error);
    CHECK(!d->has_errors);
    CHECK_INT(function_line(d, "pack", NULL), 5);
    CHECK_INT(function_line(d, "scale_of", NULL), 7);
    CHECK_INT(function_line(d, "after_register", NULL), 14);
    CHECK_INT(function_line(d, "launch_scale", NULL), 19);
    /* the rewrites are in the parser's copy only: the text and its node text are untouched */
    TSNode n = syntax_node_at(d, syntax_line_start(d, 8) + 20, syntax_line_start(d, 8) + 48);
    char *s = syntax_node_text(d, n);
    CHECK(s && strstr(s, "__builtin_bit_cast(uint32_t, x)"));
    free(s);
    syntax_free(d);
}

TEST(coverage_of_changed_lines)
{
    const char *src =
        "int ok(int x) { return x; }\n"                        /* 1 */
        "#if defined(__gfx942__)\n"                            /* 2 */
        "int fast(int x) { return x + 1; }\n"                  /* 3 */
        "#else\n"                                              /* 4 */
        "int slow(int x) { return x + 2; }\n"                  /* 5 */
        "#endif\n"                                             /* 6 */
        "void unload_{kernel_name}(void) { }\n"                /* 7: a code generator's template */
        "int last(int x) { return x; }\n";                     /* 8 */
    syntax_doc *d = parse_cpp(src, NULL);
    if (!d)
        return;
    int lines[] = {1, 3, 5, 7, 8, 99};
    bool unread[6];
    syn_coverage cv;
    syntax_coverage(d, lines, 6, &cv, unread);
    CHECK_INT(cv.lines, 5);
    CHECK_INT(cv.hidden, 1);
    CHECK_INT(cv.in_error, 1);
    CHECK_INT(cv.analysed, 3);
    CHECK_INT(cv.first_bad, 5);
    CHECK_INT(cv.last_bad, 7);
    CHECK(!unread[0] && !unread[1] && unread[2] && unread[3] && !unread[4] && !unread[5]);
    CHECK_INT(function_line(d, "last", NULL), 8);
    syntax_free(d);
}

TEST(cache_keeps_views_incremental)
{
    syntax_cache *c = syntax_cache_new();
    char *cause = NULL;
    int keep[] = {6};
    syntax_parse_opts o = {.keep_lines = keep, .nkeep = 1};
    const char *v1 = split_initializer;
    const syntax_doc *d = syntax_cache_get_with(c, "head:q.cu", SYN_CPP, v1, strlen(v1), &o, &cause);
    CHECK(d && !d->has_errors && syntax_line_hidden(d, 4));
    /* the same text and view: the same doc, nothing parsed */
    CHECK(syntax_cache_get_with(c, "head:q.cu", SYN_CPP, v1, strlen(v1), &o, &cause) == d);
    /* an edit inside the kept branch: updated in place, incrementally, same view */
    char *v2 = xstrdup(v1);
    char *at = strstr(v2, "E4M3FN;");
    memcpy(at, "E5M2FN;", 7);
    const syntax_doc *d2 = syntax_cache_get_with(c, "head:q.cu", SYN_CPP, v2, strlen(v2), &o, &cause);
    CHECK(d2 == d);
    CHECK(d2 && !d2->has_errors && syntax_line_hidden(d2, 4));
    /* the default view of the same text under the same key: updated, not parsed afresh */
    const syntax_doc *d3 = syntax_cache_get_with(c, "head:q.cu", SYN_CPP, v2, strlen(v2), NULL, &cause);
    CHECK(d3 == d && !syntax_line_hidden(d3, 4) && syntax_line_hidden(d3, 6));
    size_t nd, np, nu;
    syntax_cache_stats(c, &nd, &np, &nu);
    CHECK_INT(np, 1);
    CHECK_INT(nu, 2);
    /* and the incremental tree is the tree a fresh parse gives */
    syntax_doc *fresh = parse_cpp(v2, NULL);
    if (fresh) {
        char *a = ts_node_string(ts_tree_root_node(d3->tree));
        char *b = ts_node_string(ts_tree_root_node(fresh->tree));
        CHECK_STR(a, b);
        free(a);
        free(b);
        syntax_free(fresh);
    }
    free(v2);
    free(cause);
    syntax_cache_free(c);
}

UNIT_MAIN("syntax_views", UNIT_CASE(initializer_split_by_if), UNIT_CASE(if0_blocks_are_never_code),
          UNIT_CASE(struct_fields_per_branch), UNIT_CASE(directives_inside_comments_and_continuations),
          UNIT_CASE(decoration_macros_of_the_file), UNIT_CASE(decoration_macros_of_included_headers),
          UNIT_CASE(constructs_the_grammar_lacks), UNIT_CASE(coverage_of_changed_lines),
          UNIT_CASE(cache_keeps_views_incremental))
