/* Unit tests for the syntax layer (engine/syntax.h): parsing, HIP masking, incremental
 * reparse, and each structural helper on small real-shaped snippets of aiter-style code. */
#include <string.h>

#include "engine/syntax.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

/* Parse a NUL-terminated snippet for path's language; the test fails on NULL. */
static syntax_doc *parse(const char *path, const char *text)
{
    char *cause = NULL;
    syntax_doc *d = syntax_parse_path(path, text, strlen(text), &cause);
    if (!d) {
        fprintf(stderr, "  parse failed: %s\n", cause);
        free(cause);
    }
    return d;
}

static const syn_func *func_named(const syn_func_list *l, const char *qualname)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].qualname, qualname) == 0)
            return &l->items[i];
    return NULL;
}

TEST(lang_of_path)
{
    CHECK_INT(syntax_lang_of_path("csrc/kernels/cache_kernels.cu"), SYN_CPP);
    CHECK_INT(syntax_lang_of_path("csrc/include/x.cuh"), SYN_CPP);
    CHECK_INT(syntax_lang_of_path("a.hip"), SYN_CPP);
    CHECK_INT(syntax_lang_of_path("a.hpp"), SYN_CPP);
    CHECK_INT(syntax_lang_of_path("a.c"), SYN_CPP);
    CHECK_INT(syntax_lang_of_path("aiter/ops/triton/mha.py"), SYN_PYTHON);
    CHECK_INT(syntax_lang_of_path("README.md"), SYN_NONE);
    CHECK_INT(syntax_lang_of_path("configs/tuned.csv"), SYN_NONE);
    CHECK_INT(syntax_lang_of_path(NULL), SYN_NONE);
    char *cause = NULL;
    CHECK(syntax_parse_path("x.csv", "a,b\n", 4, &cause) == NULL);
    CHECK(cause != NULL);
    free(cause);
}

static const char *py_src =
    "import torch\n"                                     /* 1 */
    "from . import utils as u\n"                         /* 2 */
    "from ..ops.triton import mha, lean as ln\n"         /* 3 */
    "import aiter.ops.flydsl.kernels as fk, os\n"        /* 4 */
    "from aiter.jit import *\n"                          /* 5 */
    "\n"                                                 /* 6 */
    "@torch.compile\n"                                   /* 7 */
    "@staticmethod\n"                                    /* 8 */
    "def paged_attention_decode(q, k, v, scale=1.0):\n"  /* 9 */
    "    \"\"\"Decode step.\"\"\"\n"                     /* 10 */
    "    out = torch.zeros(q.shape, dtype=q.dtype, device=q.device)\n" /* 11 */
    "    def _inner(x):\n"                               /* 12 */
    "        return x * 2  # double\n"                   /* 13 */
    "    return _inner(out)\n"                           /* 14 */
    "\n"                                                 /* 15 */
    "class Runner:\n"                                    /* 16 */
    "    block: int = 64\n"                              /* 17 */
    "    name = 'r'\n"                                   /* 18 */
    "    async def run(self, *args, **kw):\n"            /* 19 */
    "        assert self.block % 16 == 0, 'aligned'\n"   /* 20 */
    "        return await go(*args, x=1, **kw)\n";       /* 21 */

TEST(python_functions)
{
    syntax_doc *d = parse("a.py", py_src);
    if (!d)
        return;
    CHECK(!d->has_errors);
    syn_func_list l = {0};
    syntax_functions(d, &l);
    CHECK_INT(l.n, 3);
    const syn_func *f = func_named(&l, "paged_attention_decode");
    CHECK(f != NULL);
    if (f) {
        CHECK_STR(f->name, "paged_attention_decode");
        CHECK_INT(f->start_line, 7); /* decorators included */
        CHECK_INT(f->name_line, 9);
        CHECK_INT(f->body_line, 10);
        CHECK_INT(f->end_line, 14);
        CHECK_INT(f->depth, 0);
        CHECK(!f->is_method);
    }
    f = func_named(&l, "paged_attention_decode._inner");
    CHECK(f != NULL);
    if (f) {
        CHECK_INT(f->start_line, 12);
        CHECK_INT(f->end_line, 13);
        CHECK_INT(f->depth, 1);
        CHECK(!f->is_method);
    }
    f = func_named(&l, "Runner.run");
    CHECK(f != NULL);
    if (f) {
        CHECK(f->is_method);
        CHECK(f->is_async);
        CHECK_INT(f->start_line, 19);
        CHECK_INT(f->end_line, 21);
    }
    const syn_func *e = syntax_enclosing_function(&l, 13);
    CHECK(e && strcmp(e->name, "_inner") == 0);
    e = syntax_enclosing_function(&l, 14);
    CHECK(e && strcmp(e->name, "paged_attention_decode") == 0);
    e = syntax_enclosing_function(&l, 8);
    CHECK(e && strcmp(e->name, "paged_attention_decode") == 0);
    CHECK(syntax_enclosing_function(&l, 15) == NULL);
    CHECK(syntax_enclosing_function(&l, 17) == NULL);
    syn_func_list_free(&l);
    CHECK_INT(l.n, 0);
    syntax_free(d);
}

TEST(python_calls)
{
    syntax_doc *d = parse("a.py", py_src);
    if (!d)
        return;
    syn_call_list l = {0};
    syntax_calls(d, 11, 11, &l);
    CHECK_INT(l.n, 1);
    if (l.n == 1) {
        syn_call *c = &l.items[0];
        CHECK_STR(c->callee, "torch.zeros");
        CHECK_STR(c->name, "zeros");
        CHECK_STR(c->receiver, "torch");
        CHECK_INT(c->line, 11);
        CHECK_INT(c->col, 10);
        CHECK_INT(c->nargs, 3);
        CHECK_INT(c->npositional, 1);
        CHECK_STR(c->args[0].text, "q.shape");
        CHECK(c->args[0].keyword == NULL);
        CHECK_INT(c->args[0].col, 22);
        CHECK_STR(c->args[1].keyword, "dtype");
        CHECK_STR(c->args[1].text, "q.dtype");
        const syn_arg *a = syntax_call_arg(c, -1, "device");
        CHECK(a && strcmp(a->text, "q.device") == 0);
        a = syntax_call_arg(c, 0, "nope");
        CHECK(a && strcmp(a->text, "q.shape") == 0);
        CHECK(syntax_call_arg(c, 1, NULL) == NULL);
    }
    syn_call_list_free(&l);
    syntax_calls(d, 21, 21, &l);
    CHECK_INT(l.n, 1);
    if (l.n == 1) {
        CHECK_STR(l.items[0].callee, "go");
        CHECK(l.items[0].receiver == NULL);
        CHECK_INT(l.items[0].nargs, 3);
        CHECK_STR(l.items[0].args[0].text, "*args");
        CHECK_STR(l.items[0].args[1].keyword, "x");
        CHECK_STR(l.items[0].args[2].text, "**kw");
    }
    syn_call_list_free(&l);
    syntax_calls(d, 0, 0, &l);
    CHECK_INT(l.n, 3); /* torch.compile is a decorator, not a call */
    syn_call_list_free(&l);
    syntax_free(d);
}

TEST(python_imports_comments_classes)
{
    syntax_doc *d = parse("a.py", py_src);
    if (!d)
        return;
    syn_import_list im = {0};
    syntax_imports(d, &im);
    CHECK_INT(im.n, 7);
    if (im.n == 7) {
        CHECK_STR(im.items[0].module, "torch");
        CHECK(im.items[0].name == NULL);
        CHECK_STR(im.items[1].module, "");
        CHECK_INT(im.items[1].level, 1);
        CHECK_STR(im.items[1].name, "utils");
        CHECK_STR(im.items[1].alias, "u");
        CHECK_STR(im.items[2].module, "ops.triton");
        CHECK_INT(im.items[2].level, 2);
        CHECK_STR(im.items[2].name, "mha");
        CHECK_STR(im.items[3].name, "lean");
        CHECK_STR(im.items[3].alias, "ln");
        CHECK_STR(im.items[4].module, "aiter.ops.flydsl.kernels");
        CHECK_STR(im.items[4].alias, "fk");
        CHECK_STR(im.items[5].module, "os");
        CHECK_STR(im.items[6].module, "aiter.jit");
        CHECK_STR(im.items[6].name, "*");
        CHECK_INT(im.items[6].line, 5);
    }
    syn_import_list_free(&im);

    syn_comment_list cl = {0};
    syntax_comments(d, 0, 0, &cl);
    CHECK_INT(cl.n, 1);
    if (cl.n == 1) {
        CHECK_STR(cl.items[0].text, "# double");
        CHECK_INT(cl.items[0].line, 13);
    }
    syn_comment_list_free(&cl);
    CHECK(syntax_in_comment(d, 13, 22));
    CHECK(!syntax_in_comment(d, 13, 8));
    CHECK(!syntax_line_has_code(d, 10)); /* docstring */
    CHECK(syntax_line_has_code(d, 11));
    CHECK(!syntax_line_has_code(d, 6));

    syn_struct_list sl = {0};
    syntax_structs(d, &sl);
    CHECK_INT(sl.n, 1);
    if (sl.n == 1) {
        CHECK_STR(sl.items[0].name, "Runner");
        CHECK_INT(sl.items[0].nfields, 2);
        if (sl.items[0].nfields == 2) {
            CHECK_STR(sl.items[0].fields[0].name, "block");
            CHECK_STR(sl.items[0].fields[0].type, "int");
            CHECK_INT(sl.items[0].fields[0].line, 17);
            CHECK_STR(sl.items[0].fields[1].name, "name");
        }
    }
    syn_struct_list_free(&sl);
    syntax_free(d);
}

static const char *cu_src =
    "#include <hip/hip_runtime.h>\n"                                   /* 1 */
    "#include \"aiter_hip_common.h\"\n"                                /* 2 */
    "namespace aiter {\n"                                              /* 3 */
    "template <typename scalar_t, int BLOCK>\n"                        /* 4 */
    "__global__ void __launch_bounds__(256, 2)\n"                      /* 5 */
    "reshape_and_cache_kernel(const scalar_t* __restrict__ key,\n"     /* 6 */
    "                         int64_t* slot_mapping, int n) {\n"       /* 7 */
    "  const int64_t slot = slot_mapping[blockIdx.x];\n"               /* 8 */
    "  if (slot < 0) return;  // padding\n"                            /* 9 */
    "}\n"                                                              /* 10 */
    "__device__ __forceinline__ float Foo::scale(int x) const {\n"     /* 11 */
    "  return x * 0.5f;\n"                                             /* 12 */
    "}\n"                                                              /* 13 */
    "struct Foo {\n"                                                   /* 14 */
    "  CK_TILE_HOST_DEVICE int get() const { return v; }\n"            /* 15 */
    "  int v;\n"                                                       /* 16 */
    "};\n"                                                             /* 17 */
    "}  // namespace aiter\n"                                          /* 18 */
    "void reshape_and_cache(torch::Tensor& key, torch::Tensor& slots) {\n" /* 19 */
    "  TORCH_CHECK(key.is_contiguous(), \"key must be contiguous\");\n"   /* 20 */
    "  aiter::reshape_and_cache_kernel<float, 4><<<grid, block, 0, stream>>>(\n" /* 21 */
    "      key.data_ptr<float>(), slots.data_ptr<int64_t>(), n);\n"    /* 22 */
    "}\n";                                                             /* 23 */

TEST(cpp_functions_hip)
{
    syntax_doc *d = parse("csrc/kernels/cache_kernels.cu", cu_src);
    if (!d)
        return;
    CHECK(!d->has_errors);
    int col;
    char *what;
    CHECK_INT(syntax_first_error(d, &col, &what), 0);
    CHECK(what == NULL);
    syn_func_list l = {0};
    syntax_functions(d, &l);
    CHECK_INT(l.n, 4);
    const syn_func *k = func_named(&l, "aiter::reshape_and_cache_kernel");
    CHECK(k != NULL);
    if (k) {
        CHECK_STR(k->name, "reshape_and_cache_kernel");
        CHECK(k->is_kernel);
        CHECK(k->is_template);
        CHECK(!k->is_method);
        CHECK_INT(k->start_line, 4);
        CHECK_INT(k->name_line, 6);
        CHECK_INT(k->body_line, 7);
        CHECK_INT(k->end_line, 10);
        CHECK_INT(k->depth, 0);
    }
    const syn_func *s = func_named(&l, "aiter::Foo::scale");
    CHECK(s != NULL);
    if (s) {
        CHECK_STR(s->name, "scale");
        CHECK(s->is_device);
        CHECK(!s->is_kernel);
        CHECK(s->is_method);
        CHECK_INT(s->start_line, 11);
    }
    const syn_func *g = func_named(&l, "aiter::Foo::get");
    CHECK(g != NULL);
    if (g) {
        CHECK(g->is_method);
        CHECK(g->is_device);
        CHECK_INT(g->start_line, 15);
        CHECK_INT(g->end_line, 15);
    }
    const syn_func *h = func_named(&l, "reshape_and_cache");
    CHECK(h != NULL);
    if (h)
        CHECK(!h->is_kernel);
    const syn_func *e = syntax_enclosing_function(&l, 9);
    CHECK(e && strcmp(e->name, "reshape_and_cache_kernel") == 0);
    e = syntax_enclosing_function(&l, 5);
    CHECK(e && strcmp(e->name, "reshape_and_cache_kernel") == 0);
    CHECK(syntax_enclosing_function(&l, 16) == NULL);
    syn_func_list_free(&l);
    syntax_free(d);
}

TEST(cpp_calls_launch)
{
    syntax_doc *d = parse("a.cu", cu_src);
    if (!d)
        return;
    syn_call_list l = {0};
    syntax_calls(d, 20, 22, &l);
    /* TORCH_CHECK, key.is_contiguous, the launch, two data_ptr */
    CHECK_INT(l.n, 5);
    if (l.n == 5) {
        CHECK_STR(l.items[0].callee, "TORCH_CHECK");
        CHECK_INT(l.items[0].nargs, 2);
        CHECK_STR(l.items[0].args[0].text, "key.is_contiguous()");
        CHECK_STR(l.items[0].args[1].text, "\"key must be contiguous\"");
        CHECK_STR(l.items[1].callee, "key.is_contiguous");
        CHECK_STR(l.items[2].callee, "aiter::reshape_and_cache_kernel");
        CHECK_STR(l.items[2].name, "reshape_and_cache_kernel");
        CHECK_STR(l.items[2].receiver, "aiter");
        CHECK_INT(l.items[2].nargs, 3);
        CHECK_INT(l.items[2].line, 21);
        CHECK_INT(l.items[2].col, 2);
        CHECK_STR(l.items[2].args[2].text, "n");
        CHECK_INT(l.items[2].args[2].line, 22);
        CHECK_STR(l.items[3].callee, "key.data_ptr");
    }
    syn_call_list_free(&l);
    syn_import_list im = {0};
    syntax_imports(d, &im);
    CHECK_INT(im.n, 2);
    if (im.n == 2) {
        CHECK_STR(im.items[0].module, "hip/hip_runtime.h");
        CHECK(im.items[0].is_system);
        CHECK(im.items[0].is_include);
        CHECK_STR(im.items[1].module, "aiter_hip_common.h");
        CHECK(!im.items[1].is_system);
    }
    syn_import_list_free(&im);
    CHECK(syntax_in_comment(d, 9, 27));
    CHECK(!syntax_in_comment(d, 9, 2));
    CHECK(!syntax_line_has_code(d, 18) == false); /* "}" is code */
    syntax_free(d);
}

static const char *struct_src =
    "#pragma once\n"                                         /* 1 */
    "#include <cstddef>\n"                                   /* 2 */
    "struct __attribute__((packed)) pa_kargs {\n"            /* 3 */
    "  const void* q_ptr;\n"                                 /* 4 */
    "  int32_t seq_len, num_heads;\n"                        /* 5 */
    "  float scale[2][4];\n"                                 /* 6 */
    "  unsigned flags : 3;\n"                                /* 7 */
    "  static int count;\n"                                  /* 8 */
    "  void (*cb)(int);\n"                                   /* 9 */
    "  void reset();\n"                                      /* 10 */
    "#ifdef USE_BIAS\n"                                      /* 11 */
    "  const float *bias;\n"                                 /* 12 */
    "#endif\n"                                               /* 13 */
    "  union { int i; float f; };\n"                         /* 14 */
    "  struct inner { int a; } in;\n"                        /* 15 */
    "};\n"                                                   /* 16 */
    "typedef struct { int x; } plain_t;\n"                   /* 17 */
    "template <int N> class Tile { int data[N]; };\n"        /* 18 */
    "static_assert(sizeof(pa_kargs) == 112, \"kargs ABI\");\n" /* 19 */
    "static_assert(offsetof(pa_kargs, seq_len) == 8);\n"     /* 20 */
    "#define CHECK_OFF(S, f, o) static_assert(offsetof(S, f) == o, #f)\n" /* 21 */
    "// static_assert(sizeof(int) == 4);\n"                  /* 22 */
    "const char *s = \"sizeof(x)\";\n"                       /* 23 */
    "size_t n = sizeof pa_kargs::count + sizeof(Tile<2>);\n";  /* 24 */

TEST(cpp_structs)
{
    syntax_doc *d = parse("kargs.h", struct_src);
    if (!d)
        return;
    syn_struct_list l = {0};
    syntax_structs(d, &l);
    /* pa_kargs, the anonymous union, inner, plain_t, Tile */
    CHECK_INT(l.n, 5);
    const syn_struct *s = syntax_find_struct(&l, "pa_kargs");
    CHECK(s != NULL);
    if (s) {
        CHECK_STR(s->kind, "struct");
        CHECK_INT(s->start_line, 3);
        CHECK_INT(s->end_line, 16);
        CHECK_INT(s->nfields, 10);
        if (s->nfields == 10) {
            CHECK_STR(s->fields[0].name, "q_ptr");
            CHECK_STR(s->fields[0].type, "const void");
            CHECK_INT(s->fields[0].pointer_depth, 1);
            CHECK_INT(s->fields[0].line, 4);
            CHECK_STR(s->fields[1].name, "seq_len");
            CHECK_STR(s->fields[1].type, "int32_t");
            CHECK_STR(s->fields[2].name, "num_heads");
            CHECK_INT(s->fields[2].line, 5);
            CHECK_STR(s->fields[3].name, "scale");
            CHECK_STR(s->fields[3].array_dims, "[2][4]");
            CHECK_STR(s->fields[4].name, "flags");
            CHECK_INT(s->fields[4].bitfield, 3);
            CHECK_STR(s->fields[4].type, "unsigned");
            CHECK_STR(s->fields[5].name, "count");
            CHECK(s->fields[5].is_static);
            CHECK_STR(s->fields[6].name, "cb");
            CHECK_INT(s->fields[6].pointer_depth, 1);
            CHECK_STR(s->fields[7].name, "bias");
            CHECK_INT(s->fields[7].line, 12);
            CHECK_STR(s->fields[8].name, "");
            CHECK_STR(s->fields[8].type, "union");
            CHECK_STR(s->fields[9].name, "in");
            CHECK_STR(s->fields[9].type, "struct inner");
            CHECK_INT(s->fields[1].bitfield, -1);
        }
    }
    s = syntax_find_struct(&l, "plain_t");
    CHECK(s && s->nfields == 1 && s->start_line == 17);
    s = syntax_find_struct(&l, "Tile");
    CHECK(s && s->is_template && strcmp(s->kind, "class") == 0);
    if (s && s->nfields == 1)
        CHECK_STR(s->fields[0].array_dims, "[N]");
    s = syntax_find_struct(&l, "pa_kargs::inner");
    CHECK(s && s->nfields == 1);
    syn_struct_list_free(&l);
    syntax_free(d);
}

TEST(cpp_layout_sites)
{
    syntax_doc *d = parse("kargs.h", struct_src);
    if (!d)
        return;
    syn_site_list l = {0};
    syntax_layout_sites(d, &l);
    /* 19: static_assert + sizeof; 20: static_assert + offsetof; 21: static_assert + offsetof
     * (in a macro); 24: two sizeof */
    CHECK_INT(l.n, 8);
    if (l.n == 8) {
        CHECK_INT(l.items[0].kind, SYN_STATIC_ASSERT);
        CHECK_STR(l.items[0].arg1, "sizeof(pa_kargs) == 112");
        CHECK_STR(l.items[0].arg2, "\"kargs ABI\"");
        CHECK_INT(l.items[0].line, 19);
        CHECK_INT(l.items[0].col, 0);
        CHECK_INT(l.items[1].kind, SYN_SIZEOF);
        CHECK_STR(l.items[1].arg1, "pa_kargs");
        CHECK_INT(l.items[1].assert_index, 0);
        CHECK_INT(l.items[1].col, 14);
        CHECK_STR(l.items[2].arg1, "offsetof(pa_kargs, seq_len) == 8");
        CHECK(l.items[2].arg2 == NULL);
        CHECK_INT(l.items[3].kind, SYN_OFFSETOF);
        CHECK_STR(l.items[3].arg1, "pa_kargs");
        CHECK_STR(l.items[3].arg2, "seq_len");
        CHECK_INT(l.items[3].assert_index, 2);
        CHECK(!l.items[3].in_macro);
        CHECK(l.items[4].in_macro);
        CHECK_INT(l.items[5].kind, SYN_OFFSETOF);
        CHECK(l.items[5].in_macro);
        CHECK_STR(l.items[5].arg1, "S");
        CHECK_STR(l.items[6].arg1, "pa_kargs");
        CHECK_STR(l.items[6].text, "sizeof pa_kargs");
        CHECK_INT(l.items[6].assert_index, -1);
        CHECK_STR(l.items[7].arg1, "Tile<2>");
        CHECK_INT(l.items[7].line, 24);
    }
    syn_site_list_free(&l);
    syntax_free(d);
}

TEST(incremental_update)
{
    const char *v1 = "def a(x):\n    return x\n\ndef b(y):\n    return y\n";
    syntax_doc *d = parse("m.py", v1);
    if (!d)
        return;
    char *cause = NULL;
    /* insert a third function in the middle */
    const char *ins = "def mid(z):\n    return z\n\n";
    size_t at = syntax_line_start(d, 4);
    CHECK_INT(syntax_edit(d, at, at, ins, strlen(ins), &cause), 0);
    syn_func_list l = {0};
    syntax_functions(d, &l);
    CHECK_INT(l.n, 3);
    if (l.n == 3) {
        CHECK_STR(l.items[1].name, "mid");
        CHECK_INT(l.items[2].name_line, 7);
    }
    syn_func_list_free(&l);
    /* break it, then fix it again */
    CHECK_INT(syntax_update(d, "def a(x:\n", 9, &cause), 0);
    CHECK(d->has_errors);
    int col;
    char *what = NULL;
    CHECK(syntax_first_error(d, &col, &what) >= 1);
    CHECK(what != NULL);
    free(what);
    CHECK_INT(syntax_update(d, v1, strlen(v1), &cause), 0);
    CHECK(!d->has_errors);
    syntax_functions(d, &l);
    CHECK_INT(l.n, 2);
    syn_func_list_free(&l);
    size_t len;
    const char *t = syntax_line_text(d, 2, &len);
    CHECK(t && len == 12 && memcmp(t, "    return x", 12) == 0);
    CHECK_INT(syntax_line_of(d, 0), 1);
    CHECK_INT(syntax_line_of(d, strlen("def a(x):\n")), 2);
    CHECK(syntax_line_text(d, 99, &len) == NULL);
    /* a no-op update keeps the tree */
    TSTree *before = d->tree;
    CHECK_INT(syntax_update(d, v1, strlen(v1), &cause), 0);
    CHECK(d->tree == before);
    /* empty document */
    CHECK_INT(syntax_update(d, "", 0, &cause), 0);
    CHECK_INT(d->nlines, 0);
    syntax_functions(d, &l);
    CHECK_INT(l.n, 0);
    syn_func_list_free(&l);
    syntax_free(d);
}

TEST(incremental_hip_masking)
{
    /* typing a launch's <<< ... >>> changes masking beyond the typed range; the reparse must
     * see the whole masked change */
    const char *v1 = "void f() {\n  k(a, b);\n}\n";
    syntax_doc *d = parse("x.cu", v1);
    if (!d)
        return;
    char *cause = NULL;
    size_t at = (size_t)(strstr(d->text, "(a") - d->text);
    CHECK_INT(syntax_edit(d, at, at, "<<<g, 64>>>", 11, &cause), 0);
    CHECK(!d->has_errors);
    syn_call_list l = {0};
    syntax_calls(d, 0, 0, &l);
    CHECK_INT(l.n, 1);
    if (l.n == 1) {
        CHECK_STR(l.items[0].callee, "k");
        CHECK_INT(l.items[0].nargs, 2);
    }
    syn_call_list_free(&l);
    /* compare with a fresh parse of the same text */
    syntax_doc *fresh = parse("x.cu", d->text);
    if (fresh) {
        char *a = ts_node_string(ts_tree_root_node(d->tree));
        char *b = ts_node_string(ts_tree_root_node(fresh->tree));
        CHECK_STR(a, b);
        free(a);
        free(b);
        syntax_free(fresh);
    }
    syntax_free(d);
}

TEST(broken_input)
{
    /* unparsable text still yields a doc and helpers still work on what parsed */
    const char *src = "def ok(a):\n    return a\n\ndef broken(:\n    pass\n\x01\x02 ))) {{\n";
    syntax_doc *d = parse("b.py", src);
    if (!d)
        return;
    CHECK(d->has_errors);
    syn_func_list l = {0};
    syntax_functions(d, &l);
    CHECK(l.n >= 1);
    CHECK(func_named(&l, "ok") != NULL);
    syn_func_list_free(&l);
    syntax_free(d);
    /* CRLF and an embedded NUL */
    const char crlf[] = "int f()\r\n{\r\n  return 0;\r\n}\r\n\0tail";
    char *cause = NULL;
    d = syntax_parse(SYN_CPP, crlf, sizeof crlf - 1, &cause);
    CHECK(d != NULL);
    if (d) {
        syntax_functions(d, &l);
        CHECK(l.n >= 1);
        if (l.n >= 1) {
            CHECK_STR(l.items[0].name, "f");
            CHECK_INT(l.items[0].end_line, 4);
        }
        syn_func_list_free(&l);
        size_t len;
        const char *t = syntax_line_text(d, 1, &len);
        CHECK(t && len == 8 && t[7] == '\r');
        syntax_free(d);
    }
    CHECK(syntax_parse(SYN_NONE, "x", 1, &cause) == NULL);
    free(cause);
}

TEST(query_api)
{
    syntax_doc *d = parse("a.py", py_src);
    if (!d)
        return;
    char *cause = NULL;
    CHECK_INT(syntax_query(d, "(((", 0, 0, NULL, NULL, &cause), -1);
    CHECK(cause != NULL);
    free(cause);
    syntax_free(d);
}

static bool count_match(const syntax_doc *d, const TSQuery *q, const TSQueryMatch *m, void *arg)
{
    (void)d;
    (void)q;
    (void)m;
    (*(int *)arg)++;
    return true;
}

TEST(query_range)
{
    syntax_doc *d = parse("a.py", py_src);
    if (!d)
        return;
    char *cause = NULL;
    int n = 0;
    CHECK_INT(syntax_query(d, "(assert_statement) @a", 0, 0, count_match, &n, &cause), 0);
    CHECK_INT(n, 1);
    n = 0;
    CHECK_INT(syntax_query(d, "(assert_statement) @a", 1, 19, count_match, &n, &cause), 0);
    CHECK_INT(n, 0);
    syntax_free(d);
}

TEST(line_code)
{
    const char *py = "x = 1\n"
                     "def f(a):\n"
                     "    \"\"\"assert a is fine\"\"\"\n"
                     "    assert a > 0, \"assert failed # here\"  # assert trailing\n";
    syntax_doc *d = parse("g.py", py);
    if (!d)
        return;
    char *c = syntax_line_code(d, 4);
    CHECK_STR(c, "    assert a > 0, \"                    \"                   ");
    free(c);
    c = syntax_line_code(d, 3);
    CHECK_INT(strlen(c), 26);
    CHECK_INT(strspn(c, " "), 26);
    free(c);
    CHECK(syntax_line_code(d, 9) == NULL);
    syntax_free(d);
    const char *cpp = "int f() {\n"
                      "  /* TORCH_CHECK(x) */ TORCH_CHECK(n > 0, \"n // >0\"); // TORCH_CHECK\n"
                      "}\n";
    d = parse("g.cu", cpp);
    if (!d)
        return;
    c = syntax_line_code(d, 2);
    CHECK_STR(c, "                       TORCH_CHECK(n > 0, \"       \");               ");
    free(c);
    c = syntax_line_nocomment(d, 2);
    CHECK_STR(c, "                       TORCH_CHECK(n > 0, \"n // >0\");               ");
    free(c);
    syntax_free(d);
    const char *l = "  TORCH_CHECK(n > 0, \"n // >0\"); // TORCH_CHECK";
    c = syntax_text_code(SYN_CPP, l, strlen(l));
    CHECK_STR(c, "  TORCH_CHECK(n > 0, \"       \");               ");
    free(c);
    l = " * assert(x) in a block comment */ int y;";
    c = syntax_text_code(SYN_CPP, l, strlen(l));
    CHECK_STR(c, "                                   int y;");
    free(c);
    c = syntax_text_nocomment(SYN_CPP, "f(\"a // b\"); // c", 17);
    CHECK_STR(c, "f(\"a // b\");     ");
    free(c);
    l = "    assert a, 'it\\'s # not'  # note";
    c = syntax_text_code(SYN_PYTHON, l, strlen(l));
    CHECK_STR(c, "    assert a, '           '        ");
    free(c);
}

TEST(cache)
{
    syntax_cache *c = syntax_cache_new();
    char *cause = NULL;
    const char *v1 = "def a():\n    return 1\n\ndef b():\n    return 2\n";
    const syntax_doc *d = syntax_cache_get(c, "head:m.py", SYN_PYTHON, v1, strlen(v1), &cause);
    CHECK(d != NULL);
    const syn_func_list *fl = syntax_cache_functions(c, d);
    CHECK(fl && fl->n == 2);
    /* same text: the same doc, the same list, no new parse */
    CHECK(syntax_cache_get(c, "head:m.py", SYN_PYTHON, v1, strlen(v1), &cause) == d);
    CHECK(syntax_cache_functions(c, d) == fl);
    /* new text: updated in place, incrementally */
    const char *v2 = "def a():\n    return 1\n\ndef b():\n    return 2\n\ndef c():\n    pass\n";
    const syntax_doc *d2 = syntax_cache_get(c, "head:m.py", SYN_PYTHON, v2, strlen(v2), &cause);
    CHECK(d2 == d);
    fl = syntax_cache_functions(c, d2);
    CHECK(fl && fl->n == 3);
    const syntax_doc *b = syntax_cache_get(c, "base:m.py", SYN_PYTHON, v1, strlen(v1), &cause);
    CHECK(b != NULL && b != d);
    CHECK(syntax_cache_get(c, "x.md", SYN_NONE, "x", 1, &cause) == NULL);
    free(cause);
    cause = NULL;
    size_t nd, np, nu;
    syntax_cache_stats(c, &nd, &np, &nu);
    CHECK_INT(nd, 2);
    CHECK_INT(np, 2);
    CHECK_INT(nu, 1);
    /* a trim keeps what was asked for since the last trim */
    syntax_cache_trim(c);
    syntax_cache_get(c, "base:m.py", SYN_PYTHON, v1, strlen(v1), &cause);
    syntax_cache_trim(c);
    syntax_cache_stats(c, &nd, NULL, NULL);
    CHECK_INT(nd, 1);
    /* a key asked for with another language is parsed afresh */
    d = syntax_cache_get(c, "base:m.py", SYN_CPP, "int x;", 6, &cause);
    CHECK(d && d->lang == SYN_CPP);
    syntax_cache_free(c);
}

/* A function list asked for stays valid while the cache takes other docs (it grows its table
 * of entries): siblings holds a head's list while it asks for the base. */
TEST(cache_function_list_outlives_new_entries)
{
    syntax_cache *c = syntax_cache_new();
    char *cause = NULL;
    const char *v = "def a():\n    return 1\n\ndef b_v2():\n    return 2\n";
    const syntax_doc *d = syntax_cache_get(c, "head:m.py", SYN_PYTHON, v, strlen(v), &cause);
    const syn_func_list *fl = d ? syntax_cache_functions(c, d) : NULL;
    CHECK(fl && fl->n == 2);
    for (int i = 0; i < 64; i++) {
        char key[32];
        snprintf(key, sizeof key, "head:other%d.py", i);
        CHECK(syntax_cache_get(c, key, SYN_PYTHON, "x = 1\n", 6, &cause) != NULL);
    }
    CHECK(fl && fl->n == 2 && strcmp(fl->items[1].name, "b_v2") == 0);
    CHECK(syntax_cache_functions(c, d) == fl);
    free(cause);
    syntax_cache_free(c);
}

UNIT_MAIN("syntax", UNIT_CASE(lang_of_path), UNIT_CASE(python_functions), UNIT_CASE(python_calls),
          UNIT_CASE(python_imports_comments_classes), UNIT_CASE(cpp_functions_hip),
          UNIT_CASE(cpp_calls_launch), UNIT_CASE(cpp_structs), UNIT_CASE(cpp_layout_sites),
          UNIT_CASE(incremental_update), UNIT_CASE(incremental_hip_masking),
          UNIT_CASE(broken_input), UNIT_CASE(line_code), UNIT_CASE(cache),
          UNIT_CASE(cache_function_list_outlives_new_entries), UNIT_CASE(query_api),
          UNIT_CASE(query_range))
