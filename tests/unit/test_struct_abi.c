/* Unit tests for the layout-pin index (engine/pin_index.h) and the struct ABI collector
 * (rule D11): pins written directly, across lines, in #define bodies and through pinning
 * macros in other files; per-file updates and the tree walk; and the collector on changes built
 * from unified diffs over head trees written here (no repository, so the base is rebuilt from
 * the head and the diff), covering computed layouts, unknown sizes and the silent cases. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/collector.h"
#include "engine/diff_parse.h"
#include "engine/pin_index.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

extern const collector collector_struct_abi;

/* --- helpers ------------------------------------------------------------------------------ */

/* A new scratch directory (the caller removes it with rm_tree). */
static char *scratch_dir(void)
{
    char tmpl[] = "/tmp/rl-d11-XXXXXX";
    char *d = mkdtemp(tmpl);
    return d ? xstrdup(d) : NULL;
}

/* Write text to dir/rel, creating parent directories. */
static void write_at(const char *dir, const char *rel, const char *text)
{
    char *path = xasprintf("%s/%s", dir, rel);
    for (char *p = path + strlen(dir) + 1; *p; p++)
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

/* Remove a scratch directory. */
static void rm_tree(char *dir)
{
    char *cmd = xasprintf("rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not remove %s\n", dir);
    free(cmd);
    free(dir);
}

/* The pins of type as one line each: "path:line kind field value via". */
static char *pins_of(const pin_index *ix, const char *type)
{
    const layout_pin **p;
    size_t n = pin_index_find(ix, type, &p);
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < n; i++) {
        sb_addf(&sb, "%s:%d%s %s", p[i]->path, p[i]->line,
                p[i]->first_line != p[i]->last_line ? "+" : "",
                p[i]->kind == PIN_SIZEOF ? "sizeof" : p[i]->field);
        if (p[i]->has_value)
            sb_addf(&sb, "=%lld", p[i]->value);
        if (p[i]->via_macro)
            sb_addf(&sb, " via %s", p[i]->via_macro);
        if (p[i]->in_define)
            sb_adds(&sb, " in-define");
        sb_addc(&sb, '\n');
    }
    free(p);
    return sb_detach(&sb);
}

typedef struct result {
    finding_list out;
    char *status;
} result;

/* Run the collector over a diff whose head files are under root (NULL: no head tree). */
static result run(const char *diff, const char *root)
{
    result r = {{0}, NULL};
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    if (root)
        c->head_root = xstrdup(root);
    collector_ctx ctx = {.chg = c, .out = &r.out, .root = root};
    sb_init(&ctx.status);
    collector_run(&collector_struct_abi, &ctx);
    r.status = sb_detach(&ctx.status);
    sb_free(&ctx.status);
    change_free(c);
    findings_sort(&r.out);
    return r;
}

/* Free a result. */
static void result_free(result *r)
{
    findings_clear(&r->out);
    free(r->status);
}

/* --- the index ---------------------------------------------------------------------------- */

TEST(index_direct_pins)
{
    pin_index *ix = pin_index_new(NULL);
    const char *src =
        "// offsetof(kargs, in_comment) and static_assert(sizeof(kargs) == 1)\n"   /* 1 */
        "/* static_assert(sizeof(kargs) == 2); */\n"                               /* 2 */
        "const char *s = \"offsetof(kargs, in_string)\";\n"                        /* 3 */
        "static_assert(sizeof(kargs) == 0x70u, \"size\");\n"                       /* 4 */
        "static_assert(\n"                                                         /* 5 */
        "    offsetof(ns::kargs<int>, seq_len) ==\n"                               /* 6 */
        "        16,\n"                                                            /* 7 */
        "    \"seq_len\");\n"                                                      /* 8 */
        "size_t o = __builtin_offsetof(struct kargs, rows.data[2]);\n"             /* 9 */
        "size_t z = sizeof(kargs);\n"                                              /* 10 */
        "_Static_assert(sizeof(kargs) % 16 == 0, \"aligned\");\n"                  /* 11 */
        "static_assert(sizeof(other) == sizeof(kargs), \"same\");\n";              /* 12 */
    pin_index_update_file(ix, "a.cu", src, strlen(src));
    char *got = pins_of(ix, "kargs");
    CHECK_STR(got, "a.cu:4 sizeof=112\n"
                   "a.cu:6+ seq_len=16\n"
                   "a.cu:9 rows\n"
                   "a.cu:11 sizeof\n"
                   "a.cu:12 sizeof\n");
    free(got);
    got = pins_of(ix, "other");
    CHECK_STR(got, "a.cu:12 sizeof\n");
    free(got);
    const char *defs = "struct A { int x; };\n"
                       "typedef struct { int y; } B;\n"
                       "struct __attribute__((packed)) C : public A { int z; };\n"
                       "struct D;\n"
                       "struct E *make_e(void);\n"
                       "template <typename T> struct F<T*> final { T t; };\n";
    pin_index_update_file(ix, "defs.h", defs, strlen(defs));
    CHECK(pin_index_file_defines(ix, "defs.h", "A"));
    CHECK(pin_index_file_defines(ix, "defs.h", "B"));
    CHECK(pin_index_file_defines(ix, "defs.h", "C"));
    CHECK(!pin_index_file_defines(ix, "defs.h", "D"));
    CHECK(!pin_index_file_defines(ix, "defs.h", "E"));
    CHECK(pin_index_file_defines(ix, "defs.h", "F"));
    CHECK(!pin_index_file_defines(ix, "nope.h", "A"));
    pin_index_update_file(ix, "defs.h", NULL, 0);
    const layout_pin **p;
    size_t n = pin_index_find(ix, "kargs", &p);
    if (n >= 2) {
        CHECK_INT(p[1]->first_line, 5);
        CHECK_INT(p[1]->last_line, 8);
        CHECK(p[1]->asserted);
        CHECK_STR(p[1]->text, "static_assert(offsetof(ns::kargs<int>, seq_len) == 16, \"seq_len\")");
        CHECK(!p[2]->asserted);
    }
    free(p);
    /* a file that is not C/C++ is ignored */
    pin_index_update_file(ix, "a.py", src, strlen(src));
    size_t nfiles;
    pin_index_stats(ix, &nfiles, NULL, NULL);
    CHECK_INT(nfiles, 1);
    pin_index_free(ix);
}

TEST(index_macros_across_files)
{
    char *dir = scratch_dir();
    CHECK(dir != NULL);
    if (!dir)
        return;
    write_at(dir, "inc/abi.h",
             "#define ABI_OFFSET(T, F, OFF) \\\n"                                    /* 1 */
             "    static_assert(offsetof(T, F) == (OFF), #T \".\" #F)\n"             /* 2 */
             "#define PIN_K(F, OFF) static_assert(offsetof(kargs, F) == OFF)\n"      /* 3 */
             "#define K_SIZE static_assert(sizeof(kargs) == 24, \"k\")\n"            /* 4 */
             "#define ALL_K ABI_OFFSET(kargs, a, 0) ABI_OFFSET(kargs, b, 8)\n"       /* 5 */
             "#define FORWARD(S) ABI_OFFSET(S, a, 0)\n");                            /* 6 */
    write_at(dir, "src/k.cu",
             "#include \"abi.h\"\n"                                                  /* 1 */
             "ABI_OFFSET(kargs, c, 16);\n"                                           /* 2 */
             "ABI_OFFSET(\n"                                                         /* 3 */
             "    kargs, d,\n"                                                       /* 4 */
             "    20);\n"                                                            /* 5 */
             "PIN_K(b, 8);\n"                                                        /* 6 */
             "// ABI_OFFSET(kargs, commented, 4);\n"                                 /* 7 */
             "ABI_OFFSET(other, c, 16);\n");                                         /* 8 */
    pin_index *ix = pin_index_new(dir);
    char *cause = NULL;
    CHECK_INT(pin_index_build(ix, &cause), 0);
    free(cause);
    char *got = pins_of(ix, "kargs");
    CHECK_STR(got, "inc/abi.h:4 sizeof=24 in-define\n"
                   "inc/abi.h:5 a=0 via ABI_OFFSET\n"
                   "inc/abi.h:5 b=8 via ABI_OFFSET\n"
                   "src/k.cu:2 c=16 via ABI_OFFSET\n"
                   "src/k.cu:3+ d=20 via ABI_OFFSET\n"
                   "src/k.cu:6 b=8 via PIN_K\n");
    free(got);
    got = pins_of(ix, "S");
    CHECK_STR(got, "");
    free(got);

    /* the invoking file changes: only its own pins are redone */
    const char *k2 = "#include \"abi.h\"\nABI_OFFSET(kargs, c, 24);\n";
    pin_index_update_file(ix, "src/k.cu", k2, strlen(k2));
    got = pins_of(ix, "kargs");
    CHECK_STR(got, "inc/abi.h:4 sizeof=24 in-define\n"
                   "inc/abi.h:5 a=0 via ABI_OFFSET\n"
                   "inc/abi.h:5 b=8 via ABI_OFFSET\n"
                   "src/k.cu:2 c=24 via ABI_OFFSET\n");
    free(got);

    /* the macro's file goes away: its invocations elsewhere pin nothing any more */
    write_at(dir, "src/k.cu", k2);
    pin_index_update_file(ix, "inc/abi.h", NULL, 0);
    got = pins_of(ix, "kargs");
    CHECK_STR(got, "");
    free(got);
    pin_index_free(ix);
    rm_tree(dir);
}

TEST(index_walk_skips_what_it_should)
{
    char *dir = scratch_dir();
    CHECK(dir != NULL);
    if (!dir)
        return;
    const char *pin = "static_assert(sizeof(kargs) == 8, \"k\");\n";
    write_at(dir, "csrc/a.h", pin);
    write_at(dir, "csrc/deep/er/b.cuh", pin);
    write_at(dir, "build/gen.h", pin);
    write_at(dir, "build-rocm/gen.h", pin);
    write_at(dir, ".git/x.h", pin);
    write_at(dir, "node_modules/x.h", pin);
    write_at(dir, "3rdparty/ck/x.hpp", pin);
    write_at(dir, "aiter/x.py", pin);
    char *link = xasprintf("%s/csrc/link.h", dir), *target = xasprintf("%s/csrc/a.h", dir);
    CHECK_INT(symlink(target, link), 0);
    free(link);
    free(target);
    pin_index *ix = pin_index_new(dir);
    CHECK_INT(pin_index_build(ix, NULL), 0);
    char *got = pins_of(ix, "kargs");
    CHECK_STR(got, "csrc/a.h:1 sizeof=8\ncsrc/deep/er/b.cuh:1 sizeof=8\n");
    free(got);
    size_t nfiles, npins, nskipped;
    pin_index_stats(ix, &nfiles, &npins, &nskipped);
    CHECK_INT(nfiles, 2);
    CHECK_INT(npins, 2);
    CHECK_INT(nskipped, 0);
    pin_index_free(ix);
    /* a root that is not there */
    char *gone = xasprintf("%s/missing", dir);
    ix = pin_index_new(gone);
    char *cause = NULL;
    CHECK_INT(pin_index_build(ix, &cause), -1);
    CHECK(cause && str_contains(cause, "not a readable directory"));
    free(cause);
    free(gone);
    pin_index_free(ix);
    rm_tree(dir);
}

TEST(index_survives_odd_text)
{
    pin_index *ix = pin_index_new(NULL);
    static const char *const texts[] = {
        "static_assert(sizeof(kargs) == ",         /* unbalanced */
        "offsetof(kargs",                          /* truncated */
        "#define X(a, b",                          /* unterminated parameter list */
        "\"unterminated string\nstatic_assert(sizeof(kargs) == 4);\n",
        "R\"raw(offsetof(kargs, a))raw\" static_assert(sizeof(kargs) == 4);",
        "/* never closed static_assert(sizeof(kargs) == 4);",
        "#define P(T) static_assert(offsetof(T, a) == 0)\nP(P(kargs));\nP();\nP(kargs\n",
        "",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        pin_index_update_file(ix, "odd.h", texts[i], strlen(texts[i]));
    const char *last = "static_assert(sizeof(kargs) == 4);\n";
    pin_index_update_file(ix, "odd.h", last, strlen(last));
    char *got = pins_of(ix, "kargs");
    CHECK_STR(got, "odd.h:1 sizeof=4\n");
    free(got);
    pin_index_free(ix);
}

/* --- the collector ------------------------------------------------------------------------ */

/* Offsets in the base: q 0, n 8, stride 16, in 24 (16 bytes), tags 40, rows 48; size 56. */
static const char *layout_pins =
    "#include \"k.h\"\n"
    "static_assert(offsetof(kargs, q) == 0, \"q\");\n"       /* 2 */
    "static_assert(offsetof(kargs, stride) == 16, \"s\");\n" /* 3 */
    "static_assert(offsetof(kargs, tags) == 40, \"t\");\n"   /* 4 */
    "static_assert(offsetof(kargs, rows) == 48, \"r\");\n"   /* 5 */
    "static_assert(sizeof(kargs) == 56, \"size\");\n";       /* 6 */

TEST(computed_layout_with_padding_nesting_and_typedefs)
{
    char *dir = scratch_dir();
    if (!dir)
        return;
    /* head: a short inserted after n (fits in n's padding before stride: no offset moves, but
     * a second int after it pushes stride; here only the short, so nothing shifts) */
    const char *head_a =
        "#pragma once\n"
        "typedef int idx_t;\n"
        "struct inner { int a; double b; };\n"
        "struct kargs {\n"
        "    static const int kMax = 4;\n"
        "    const float* q;\n"
        "    int n;\n"
        "    short flags;\n"             /* 8 */
        "    long long stride;\n"
        "    inner in;\n"
        "    short tags[3];\n"
        "    idx_t rows;\n"
        "    void run() { int local; local = n; (void)local; }\n"
        "};\n"
        "union bits { int i; double d; };\n";
    write_at(dir, "k.h", head_a);
    write_at(dir, "pins.cu", layout_pins);
    const char *diff_a =
        "diff --git a/k.h b/k.h\n--- a/k.h\n+++ b/k.h\n"
        "@@ -5,6 +5,7 @@ struct kargs {\n"
        "     static const int kMax = 4;\n"
        "     const float* q;\n"
        "     int n;\n"
        "+    short flags;\n"
        "     long long stride;\n"
        "     inner in;\n"
        "     short tags[3];\n";
    result r = run(diff_a, dir);
    CHECK_INT(r.out.n, 0);
    CHECK_STR(r.status, "nothing found: 1 struct changed shape; no pinned offset or size shifts "
                        "without the change updating its assertion");
    result_free(&r);

    /* head: a double inserted before tags shifts tags and rows by 8 and the size 56 -> 64 */
    const char *head_b =
        "#pragma once\n"
        "typedef int idx_t;\n"
        "struct inner { int a; double b; };\n"
        "struct kargs {\n"
        "    static const int kMax = 4;\n"
        "    const float* q;\n"
        "    int n;\n"
        "    long long stride;\n"
        "    inner in;\n"
        "    double scale;\n"            /* 10 */
        "    short tags[3];\n"
        "    idx_t rows;\n"
        "    void run() { int local; local = n; (void)local; }\n"
        "};\n"
        "union bits { int i; double d; };\n";
    write_at(dir, "k.h", head_b);
    const char *diff_b =
        "diff --git a/k.h b/k.h\n--- a/k.h\n+++ b/k.h\n"
        "@@ -7,6 +7,7 @@ struct kargs {\n"
        "     int n;\n"
        "     long long stride;\n"
        "     inner in;\n"
        "+    double scale;\n"
        "     short tags[3];\n"
        "     idx_t rows;\n"
        "     void run() { int local; local = n; (void)local; }\n";
    r = run(diff_b, dir);
    CHECK_INT(r.out.n, 1);
    if (r.out.n) {
        const finding *f = &r.out.items[0];
        CHECK_STR(f->path, "k.h");
        CHECK_INT(f->range.line, 10);
        CHECK_STR(f->message, "`kargs` gains `double scale` before `tags`: pinned layout shifts — "
                              "`tags` +8 (40 → 48), `rows` +8 (48 → 56), sizeof(kargs) 56 → 64; 3 "
                              "layout assertions pin them, and this change updates none of them");
        CHECK_INT(f->nrelated, 3);
        if (f->nrelated == 3) {
            CHECK_STR(f->related[0].path, "pins.cu");
            CHECK_INT(f->related[0].range.line, 4);
            CHECK_INT(f->related[2].range.line, 6);
            CHECK(str_contains(f->related[2].message, "asserts 56; the head layout gives 64"));
        }
    }
    CHECK_STR(r.status, "found 1 pinned layout shift in 1 struct");
    result_free(&r);
    rm_tree(dir);
}

TEST(unknown_sizes_say_shifts)
{
    char *dir = scratch_dir();
    if (!dir)
        return;
    write_at(dir, "k.h",
             "struct kargs {\n"
             "    int a;\n"
             "    opaque_t extra;\n"          /* 3 */
             "    int b : 4;\n"
             "    int c;\n"
             "};\n");
    write_at(dir, "pins.cu",
             "static_assert(offsetof(kargs, a) == 0, \"a\");\n"
             "static_assert(offsetof(kargs, c) == 4, \"c\");\n"
             "static_assert(sizeof(kargs) == 8, \"size\");\n");
    const char *diff =
        "diff --git a/k.h b/k.h\n--- a/k.h\n+++ b/k.h\n"
        "@@ -1,5 +1,6 @@\n"
        " struct kargs {\n"
        "     int a;\n"
        "+    opaque_t extra;\n"
        "     int b : 4;\n"
        "     int c;\n"
        " };\n";
    result r = run(diff, dir);
    CHECK_INT(r.out.n, 1);
    if (r.out.n) {
        CHECK_INT(r.out.items[0].range.line, 3);
        CHECK(str_contains(r.out.items[0].message,
                           "pinned layout shifts — `c` shifts, sizeof(kargs) changes; 2 layout"));
    }
    result_free(&r);
    rm_tree(dir);
}

TEST(removed_renamed_and_pin_updates)
{
    char *dir = scratch_dir();
    if (!dir)
        return;
    /* b is removed (its pin still names it), c renamed to c2 (same type), d stays */
    write_at(dir, "k.h",
             "struct kargs {\n"
             "    int a;\n"
             "    int c2;\n"                  /* 3: the head line where b was deleted */
             "    int d;\n"
             "};\n"
             "struct twin {\n"
             "    int a;\n"
             "    int c;\n"
             "    int d;\n"
             "};\n");
    write_at(dir, "pins.cu",
             "static_assert(offsetof(kargs, b) == 4, \"b\");\n"
             "static_assert(offsetof(kargs, d) == 12, \"d\");\n"
             "static_assert(offsetof(twin, d) == 8, \"twin d\");\n");
    const char *diff =
        "diff --git a/k.h b/k.h\n--- a/k.h\n+++ b/k.h\n"
        "@@ -1,6 +1,5 @@\n"
        " struct kargs {\n"
        "     int a;\n"
        "-    int b;\n"
        "-    int c;\n"
        "+    int c2;\n"
        "     int d;\n"
        " };\n";
    result r = run(diff, dir);
    CHECK_INT(r.out.n, 1);
    if (r.out.n) {
        const finding *f = &r.out.items[0];
        CHECK_INT(f->range.line, 3);
        CHECK(str_starts(f->message, "`kargs` loses `int b`, `int c` before `d`"));
        CHECK(str_contains(f->message, "`b` (removed, still pinned), `d` -4 (12 → 8)"));
        CHECK_INT(f->nrelated, 2);
    }
    result_free(&r);

    /* the same change, with the d pin rewritten on an added line: only b's pin is left */
    write_at(dir, "pins.cu",
             "static_assert(offsetof(kargs, b) == 4, \"b\");\n"
             "static_assert(offsetof(kargs, d) == 8, \"d\");\n"
             "static_assert(offsetof(twin, d) == 8, \"twin d\");\n");
    char *diff2 = xasprintf("%s"
                            "diff --git a/pins.cu b/pins.cu\n--- a/pins.cu\n+++ b/pins.cu\n"
                            "@@ -1,3 +1,3 @@\n"
                            " static_assert(offsetof(kargs, b) == 4, \"b\");\n"
                            "-static_assert(offsetof(kargs, d) == 12, \"d\");\n"
                            "+static_assert(offsetof(kargs, d) == 8, \"d\");\n"
                            " static_assert(offsetof(twin, d) == 8, \"twin d\");\n", diff);
    r = run(diff2, dir);
    CHECK_INT(r.out.n, 1);
    if (r.out.n) {
        CHECK(str_contains(r.out.items[0].message, "`b` (removed, still pinned); 1 layout "
                                                   "assertion pins it, and this change updates "
                                                   "other pins of the struct but not this one"));
        CHECK_INT(r.out.items[0].nrelated, 1);
    }
    result_free(&r);
    free(diff2);
    rm_tree(dir);
}

TEST(silent_cases)
{
    char *dir = scratch_dir();
    if (!dir)
        return;
    /* a new file's struct has no base; a struct whose only change is a method body; another
     * struct's assertions never count */
    write_at(dir, "n.h", "struct fresh {\n    int a;\n};\n");
    write_at(dir, "k.h",
             "struct kargs {\n"
             "    int a;\n"
             "    int b;\n"
             "    int f() const { int t; t = a; return t; }\n"
             "};\n"
             "struct churn {\n"
             "    int x;\n"
             "    int inserted;\n"
             "    int y;\n"
             "};\n");
    write_at(dir, "pins.cu",
             "static_assert(offsetof(kargs, b) == 4, \"b\");\n"
             "static_assert(sizeof(fresh) == 4, \"fresh\");\n"
             "static_assert(offsetof(other_churn, y) == 4, \"not churn\");\n");
    const char *diff =
        "diff --git a/n.h b/n.h\nnew file mode 100644\n--- /dev/null\n+++ b/n.h\n"
        "@@ -0,0 +1,3 @@\n+struct fresh {\n+    int a;\n+};\n"
        "diff --git a/k.h b/k.h\n--- a/k.h\n+++ b/k.h\n"
        "@@ -1,9 +1,10 @@\n"
        " struct kargs {\n"
        "     int a;\n"
        "     int b;\n"
        "-    int f() const { return a; }\n"
        "+    int f() const { int t; t = a; return t; }\n"
        " };\n"
        " struct churn {\n"
        "     int x;\n"
        "+    int inserted;\n"
        "     int y;\n"
        " };\n";
    result r = run(diff, dir);
    CHECK_INT(r.out.n, 0);
    CHECK_STR(r.status, "nothing found: 1 struct changed shape, none pinned by a layout "
                        "assertion");
    result_free(&r);

    /* no C/C++ file; no head tree */
    r = run("diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n", dir);
    CHECK_STR(r.status, "nothing found: no C/C++ file in the change");
    result_free(&r);
    r = run("diff --git a/k.h b/k.h\n--- a/k.h\n+++ b/k.h\n@@ -1,2 +1,3 @@\n struct s {\n+    int b;\n     int a;\n", NULL);
    CHECK(str_starts(r.status, "skipped: "));
    CHECK_INT(r.out.n, 0);
    result_free(&r);
    /* a head that does not match the diff's context */
    r = run("diff --git a/k.h b/k.h\n--- a/k.h\n+++ b/k.h\n@@ -1,2 +1,3 @@\n struct other {\n+    int b;\n     int a;\n", dir);
    CHECK_STR(r.status, "skipped: k.h: the head file does not match the diff");
    result_free(&r);
    rm_tree(dir);
}

TEST(reorder_and_retype)
{
    char *dir = scratch_dir();
    if (!dir)
        return;
    write_at(dir, "k.h",
             "struct kargs {\n"
             "    int a;\n"
             "    int c;\n"
             "    int b;\n"                   /* 4: b moved after c */
             "    float d;\n"
             "    double e;\n"                /* 6: float -> double */
             "    int f;\n"
             "};\n");
    write_at(dir, "pins.cu",
             "static_assert(offsetof(kargs, b) == 4, \"b\");\n"
             "static_assert(offsetof(kargs, d) == 12, \"d\");\n"
             "static_assert(offsetof(kargs, f) == 20, \"f\");\n");
    const char *diff =
        "diff --git a/k.h b/k.h\n--- a/k.h\n+++ b/k.h\n"
        "@@ -1,8 +1,8 @@\n"
        " struct kargs {\n"
        "     int a;\n"
        "-    int b;\n"
        "     int c;\n"
        "+    int b;\n"
        "     float d;\n"
        "-    float e;\n"
        "+    double e;\n"
        "     int f;\n"
        " };\n";
    result r = run(diff, dir);
    CHECK_INT(r.out.n, 2);
    if (r.out.n == 2) {
        CHECK_INT(r.out.items[0].range.line, 4);
        CHECK_STR(r.out.items[0].message, "`kargs.b` moves to after `c`: pinned layout shifts — "
                                          "`b` +4 (4 → 8); 1 layout assertion pins it, and this "
                                          "change does not update it");
        CHECK_INT(r.out.items[1].range.line, 6);
        CHECK(str_starts(r.out.items[1].message, "`kargs.e` changes from `float e` to `double e`: "
                                                 "pinned layout shifts — `f` +4 (20 → 24)"));
    }
    result_free(&r);
    rm_tree(dir);
}

TEST(namesakes_packing_and_alternative_definitions)
{
    char *dir = scratch_dir();
    if (!dir)
        return;
    /* two source files each define their own KernelArgs; only a.cu's pins are about a.cu's.
     * b.cu's struct is packed: its int after a char sits at 1, not 4. */
    write_at(dir, "a.cu",
             "struct KernelArgs {\n"
             "    void* p;\n"
             "    int n;\n"
             "    int m;\n"                  /* 4 */
             "};\n"
             "static_assert(offsetof(KernelArgs, n) == 8, \"n\");\n");
    write_at(dir, "b.cu",
             "#pragma pack(push, 1)\n"
             "struct KernelArgs {\n"
             "    char tag;\n"
             "    int n;\n"
             "};\n"
             "#pragma pack(pop)\n"
             "static_assert(sizeof(KernelArgs) == 5, \"packed\");\n"
             "static_assert(offsetof(KernelArgs, n) == 1, \"n\");\n");
    const char *diff =
        "diff --git a/a.cu b/a.cu\n--- a/a.cu\n+++ b/a.cu\n"
        "@@ -1,5 +1,6 @@\n"
        " struct KernelArgs {\n"
        "     void* p;\n"
        "     int n;\n"
        "+    int m;\n"
        " };\n"
        " static_assert(offsetof(KernelArgs, n) == 8, \"n\");\n";
    result r = run(diff, dir);
    CHECK_INT(r.out.n, 0);
    CHECK_STR(r.status, "nothing found: 1 struct changed shape; no pinned offset or size shifts "
                        "without the change updating its assertion");
    result_free(&r);

    /* the packed one: a short inserted after tag moves n from 1 to 3 and the size 5 -> 7 */
    write_at(dir, "b.cu",
             "#pragma pack(push, 1)\n"
             "struct KernelArgs {\n"
             "    char tag;\n"
             "    short flags;\n"            /* 4 */
             "    int n;\n"
             "};\n"
             "#pragma pack(pop)\n"
             "static_assert(sizeof(KernelArgs) == 5, \"packed\");\n"
             "static_assert(offsetof(KernelArgs, n) == 1, \"n\");\n");
    const char *diff_b =
        "diff --git a/b.cu b/b.cu\n--- a/b.cu\n+++ b/b.cu\n"
        "@@ -1,5 +1,6 @@\n"
        " #pragma pack(push, 1)\n"
        " struct KernelArgs {\n"
        "     char tag;\n"
        "+    short flags;\n"
        "     int n;\n"
        " };\n";
    r = run(diff_b, dir);
    CHECK_INT(r.out.n, 1);
    if (r.out.n) {
        CHECK_STR(r.out.items[0].path, "b.cu");
        CHECK_INT(r.out.items[0].range.line, 4);
        CHECK(str_contains(r.out.items[0].message, "sizeof(KernelArgs) 5 → 7, `n` +2 (1 → 3)"));
        CHECK_INT(r.out.items[0].nrelated, 2);
    }
    result_free(&r);

    /* a second definition added under #if: the struct is read in the branch the change is in,
     * so in NEW_ABI builds CArgs changes shape ({q, n} -> {q, extra}); the size pin (16) still
     * holds, so nothing is found */
    write_at(dir, "c.cu",
             "#if NEW_ABI\n"
             "struct CArgs {\n"
             "    void* q;\n"
             "    void* extra;\n"
             "};\n"
             "static_assert(sizeof(CArgs) == 16, \"new\");\n"
             "#else\n"
             "struct CArgs {\n"
             "    void* q;\n"
             "    int n;\n"
             "};\n"
             "static_assert(sizeof(CArgs) == 16, \"old\");\n"
             "#endif\n");
    const char *diff_c =
        "diff --git a/c.cu b/c.cu\n--- a/c.cu\n+++ b/c.cu\n"
        "@@ -1,5 +1,13 @@\n"
        "+#if NEW_ABI\n"
        "+struct CArgs {\n"
        "+    void* q;\n"
        "+    void* extra;\n"
        "+};\n"
        "+static_assert(sizeof(CArgs) == 16, \"new\");\n"
        "+#else\n"
        " struct CArgs {\n"
        "     void* q;\n"
        "     int n;\n"
        " };\n"
        " static_assert(sizeof(CArgs) == 16, \"old\");\n"
        "+#endif\n";
    r = run(diff_c, dir);
    CHECK_INT(r.out.n, 0);
    CHECK_STR(r.status, "nothing found: 1 struct changed shape; no pinned offset or size shifts "
                        "without the change updating its assertion");
    result_free(&r);
    rm_tree(dir);
}

TEST(array_lengths_from_constants_and_struct_alignas)
{
    char *dir = scratch_dir();
    if (!dir)
        return;
    /* kVec is a constexpr, NSLOT a #define; Vec is alignas(16) so its size rounds to 16 */
    write_at(dir, "k.h",
             "constexpr int kVec = 4;\n"
             "#define NSLOT 2\n"
             "struct alignas(16) Vec { float v[3]; };\n"
             "struct kargs {\n"
             "    short lanes[kVec];\n"
             "    char extra;\n"             /* 6 */
             "    Vec slots[NSLOT];\n"
             "    int tail;\n"
             "};\n");
    write_at(dir, "pins.cu",
             "static_assert(offsetof(kargs, slots) == 16, \"slots\");\n"
             "static_assert(offsetof(kargs, tail) == 48, \"tail\");\n"
             "static_assert(sizeof(kargs) == 64, \"size\");\n");
    /* base: lanes 0..8, slots at 16 (align 16), tail 48, size 64; inserting a char after lanes
     * (at 8) moves nothing: slots stay at 16 */
    const char *diff =
        "diff --git a/k.h b/k.h\n--- a/k.h\n+++ b/k.h\n"
        "@@ -4,5 +4,6 @@\n"
        " struct kargs {\n"
        "     short lanes[kVec];\n"
        "+    char extra;\n"
        "     Vec slots[NSLOT];\n"
        "     int tail;\n"
        " };\n";
    result r = run(diff, dir);
    CHECK_INT(r.out.n, 0);
    CHECK(str_starts(r.status, "nothing found: 1 struct changed shape; no pinned offset"));
    result_free(&r);
    rm_tree(dir);
}

TEST(derived_structs_report_differences_only)
{
    char *dir = scratch_dir();
    if (!dir)
        return;
    write_at(dir, "k.h",
             "struct base_args { void* p; };\n"
             "struct kargs : public base_args {\n"
             "    int a;\n"
             "    int inserted;\n"           /* 4 */
             "    int b;\n"
             "};\n");
    write_at(dir, "pins.cu",
             "static_assert(offsetof(kargs, b) == 12, \"b\");\n"
             "static_assert(sizeof(kargs) == 16, \"size\");\n");
    const char *diff =
        "diff --git a/k.h b/k.h\n--- a/k.h\n+++ b/k.h\n"
        "@@ -2,4 +2,5 @@\n"
        " struct kargs : public base_args {\n"
        "     int a;\n"
        "+    int inserted;\n"
        "     int b;\n"
        " };\n";
    result r = run(diff, dir);
    CHECK_INT(r.out.n, 1);
    if (r.out.n) {
        CHECK_INT(r.out.items[0].range.line, 4);
        CHECK(str_contains(r.out.items[0].message, "pinned layout shifts — `b` +4, sizeof(kargs) "
                                                   "changes; 2 layout assertions"));
    }
    result_free(&r);
    rm_tree(dir);
}

/* Run the collector as a server's review would: with kept state and the touched paths. */
static result run_kept(const char *diff, const char *root, void **state,
                       const char *const *touched)
{
    result r = {{0}, NULL};
    char *cause = NULL;
    change *c = diff_parse(diff, strlen(diff), &cause);
    free(cause);
    c->head_root = xstrdup(root);
    collector_ctx ctx = {.chg = c, .out = &r.out, .root = root, .state = state,
                         .touched = touched};
    sb_init(&ctx.status);
    collector_run(&collector_struct_abi, &ctx);
    r.status = sb_detach(&ctx.status);
    sb_free(&ctx.status);
    change_free(c);
    findings_sort(&r.out);
    return r;
}

TEST(index_kept_between_reviews)
{
    char *dir = scratch_dir();
    if (!dir)
        return;
    write_at(dir, "k.h", "struct kargs {\n    int a;\n    int x;\n    int b;\n};\n");
    write_at(dir, "pins.cu", "static_assert(offsetof(kargs, b) == 4, \"b\");\n");
    const char *diff =
        "diff --git a/k.h b/k.h\n--- a/k.h\n+++ b/k.h\n"
        "@@ -1,4 +1,5 @@\n"
        " struct kargs {\n"
        "     int a;\n"
        "+    int x;\n"
        "     int b;\n"
        " };\n";
    void *state = NULL;
    static const char *const none[] = {NULL};
    result r = run_kept(diff, dir, &state, none);
    CHECK_INT(r.out.n, 1);
    CHECK(state != NULL);
    result_free(&r);

    /* a new pin file appears on disk, but no review was told: the kept index does not see it */
    write_at(dir, "more.cu", "static_assert(sizeof(kargs) == 8, \"size\");\n");
    r = run_kept(diff, dir, &state, none);
    CHECK_INT(r.out.n, 1);
    if (r.out.n)
        CHECK_INT(r.out.items[0].nrelated, 1);
    result_free(&r);

    /* told that it was touched, the kept index reads it */
    static const char *const touched[] = {"more.cu", NULL};
    r = run_kept(diff, dir, &state, touched);
    CHECK_INT(r.out.n, 1);
    if (r.out.n) {
        CHECK_INT(r.out.items[0].nrelated, 2);
        CHECK(str_contains(r.out.items[0].message, "sizeof(kargs) 8 → 12"));
    }
    result_free(&r);

    /* the pins file is removed and touched: its pin goes */
    char *gone = xasprintf("%s/pins.cu", dir);
    unlink(gone);
    free(gone);
    static const char *const touched2[] = {"pins.cu", NULL};
    r = run_kept(diff, dir, &state, touched2);
    CHECK_INT(r.out.n, 1);
    if (r.out.n)
        CHECK_INT(r.out.items[0].nrelated, 1);
    result_free(&r);

    /* an unknown set of touched paths rebuilds it */
    r = run_kept(diff, dir, &state, NULL);
    CHECK_INT(r.out.n, 1);
    result_free(&r);
    collector_struct_abi.free_state(state);
    rm_tree(dir);
}

UNIT_MAIN("test_struct_abi",
          UNIT_CASE(index_direct_pins),
          UNIT_CASE(index_macros_across_files),
          UNIT_CASE(index_walk_skips_what_it_should),
          UNIT_CASE(index_survives_odd_text),
          UNIT_CASE(computed_layout_with_padding_nesting_and_typedefs),
          UNIT_CASE(unknown_sizes_say_shifts),
          UNIT_CASE(removed_renamed_and_pin_updates),
          UNIT_CASE(silent_cases),
          UNIT_CASE(reorder_and_retype),
          UNIT_CASE(namesakes_packing_and_alternative_definitions),
          UNIT_CASE(array_lengths_from_constants_and_struct_alignas),
          UNIT_CASE(derived_structs_report_differences_only),
          UNIT_CASE(index_kept_between_reviews))
