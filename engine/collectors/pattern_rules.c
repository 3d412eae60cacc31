/* The pattern-rules collector: rules whose finding needs no deeper evidence than the added
 * line itself and a look at its surroundings, each reported on the exact added line.
 *
 * Most rules are rows of one table: {rule, severity, which files, a cheap needle, the line
 * pattern, what excludes it, which view of the line it reads, an optional self-check}. The
 * view is the raw line (tuning configs), the line without its comment (string literals kept,
 * for arch literals and env-var names) or the code only (comments gone, strings blanked). The
 * self-checks are the false-positive checks the rule text asks for:
 *   D3  hipblaslt as a value of its own (a CSV field, a YAML/JSON value) on a new row of a
 *       tuning config (csv/yaml/yml, config/tuned json), not `-lhipblaslt` in a build config,
 *       not a CI workflow, not a row the change only moved;
 *   C2  an fp8 maximum literal (240.0 / 448.0) unless the line or an enclosing condition pins
 *       the dtype or arch (`if arch == "gfx942":`, a fnuz/OCP ternary, a dtype-keyed table);
 *   C4  a quoted gfx arch literal in a condition of a file that had none (any arch literal
 *       already on an unchanged line makes it house style, aiter#3956; aiter#3937 brought the
 *       first one into its file), not in comments, docstrings, imports, asserts or capability
 *       checks that raise (aiter#3870);
 *   D7  a new @compile_ops / torch.library.custom_op that returns tensors, with no gen_fake=,
 *       no <op>_fake, no register_fake / abstract_impl for it in its file, the change or its
 *       directory (an existing op whose decorator was edited is not new; an op returning
 *       nothing, an int or untyped needs none, nor a compile_ops stub that builds its outputs);
 *   D10 a flyc.compile result that the cache-miss branch never calls before it returns
 *       (aiter#3987), also through the name it was stored under;
 *   D10b arith.bitcast(type, value) whose value is a FlyDSL numeric (fx.Int32/Float32 ...) not
 *       unwrapped (aiter#3944); arith and buffer results are ir.Values and need nothing;
 *   G1b queue.get() with no timeout inside a `while True:` worker of serving code, with no
 *       Empty/TimeoutError handling in the function; tests, scripts and tools are exempt;
 *   HK3 sys.path.insert/append outside tests, setup.py, Sphinx conf.py and __main__ blocks;
 *   HK7 TODO/FIXME, or a function stub (`pass` / raise NotImplementedError as its body, not
 *       abstract, not a test double) or a raise saying "not yet", in a path the change adds
 *       (a new file, or a block whose header line is added); input guards are not stubs;
 *   HK9 a read of an AITER_* environment variable (Python or C++ getenv) new to the tree —
 *       not on an unchanged line of the file nor a removed line of the change — outside
 *       tests, bench and profile files, in a file that does not itself set it;
 *   T8  a launch knob (num_warps, waves_per_eu, …) given a literal in Triton/Gluon Python outside
 *       configs and tests, not inside a triton.Config(...) table nor a tl.range(...) loop
 *       attribute; judged per knob, so a config-fed knob beside a literal one does not hide
 *       it (aiter#5137's waves_per_eu=2).
 * Two more rules read whole files: HK1 (a new .sh outside .github/, or a runperf… or
 * test_local_… file) and HK11 (a package added to requirements*.txt, setup.py or
 * pyproject.toml that was not there before — a version bump is not new).
 *
 * HK8 (develop=True) is not reported: in aiter develop=True selects the torch-free pybind path
 * (aiter_tensor_t, since aiter#2545) that most ops now use, not an experimental JIT-cache bypass;
 * all ten judged firings on real PRs were such ports (bench/precision/judged/HK8.tsv).
 *
 * D4 zeros→empty is not repeated here: the guards collector reports every deleted
 * zero-initialisation (gone, changed, or swapped for empty, with the comment that required it).
 *
 * Speed: a table of every needle's first byte passes over most added lines in one byte scan,
 * and a rule's own pattern is compiled only once some added line contains its needle. */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/collector.h"
#include "engine/regex.h"
#include "engine/syntax.h"

#define LOOKBACK 60

typedef enum line_view {
    VIEW_RAW,        /* the line as written */
    VIEW_NOCOMMENT,  /* without its trailing # or // comment; strings kept */
    VIEW_CODE,       /* comments removed, string contents blanked */
} line_view;

/* A changed file as the rules see it: head lines (from the head text, or rebuilt from the
 * diff when the head cannot be had) and which of them the change adds. */
typedef struct pfile {
    collector_ctx *ctx;
    collector_file_ctx *fx;  /* the per-file stage reading it (for looks beyond the file) */
    const change_file *f;
    syn_lang lang;
    char *head;
    size_t head_len;
    const char **line;       /* 1-based; NULL for a line not known */
    size_t *line_len;
    int nlines;
    bool *added;             /* 1-based */
    bool have_head;
    const syntax_doc *doc;   /* the head's tree, from the shared cache or parsed on demand */
    syntax_doc *doc_owned;   /* set when this collector parsed it and must free it */
    bool doc_tried;
} pfile;

/* One match on an added line handed to a self-check. */
typedef struct hit {
    pfile *pf;
    int line;
    const char *text;        /* the view the pattern matched */
    size_t start, end;       /* the match */
    char *detail;            /* set by the check: the message's subject (owned) */
    int related_line;        /* set by the check: a line that explains it, or 0 */
    const char *related_msg;
} hit;

typedef bool (*path_pred)(const char *path);
typedef bool (*self_check)(hit *h);

typedef struct pattern_rule {
    const char *rule;
    severity sev;
    path_pred files;
    const char *needles;     /* '|'-separated substrings; a line must hold one (NULL: any) */
    bool needle_nocase;
    const char *pattern;
    bool nocase;
    const char *unless;      /* a line matching this is left alone, or NULL */
    line_view view;
    self_check check;        /* returns false to drop the hit */
    const char *message;     /* printf format with one %s: the detail or the matched text */
} pattern_rule;

/* --- path predicates --------------------------------------------------------------------- */

/* The last path component (borrowed). */
static const char *base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* True for test files and directories. */
static bool is_test_path(const char *p)
{
    const char *b = base_name(p);
    return str_starts(p, "op_tests/") || str_starts(p, "tests/") || str_contains(p, "/tests/") ||
           str_contains(p, "/test/") || str_starts(b, "test_") || str_ends(p, "_test.py") ||
           strcmp(b, "conftest.py") == 0;
}

static bool is_python(const char *p)
{
    return str_ends(p, ".py");
}

static bool is_source(const char *p)
{
    return str_ends(p, ".py") || str_ends(p, ".cu") || str_ends(p, ".cuh") || str_ends(p, ".h") ||
           str_ends(p, ".hpp") || str_ends(p, ".cpp") || str_ends(p, ".cc") || str_ends(p, ".hip");
}

static bool is_tuning_config(const char *p)
{
    return str_ends(p, ".csv") || str_ends(p, ".yaml") || str_ends(p, ".yml") ||
           (str_ends(p, ".json") && (str_contains(p, "config") || str_contains(p, "tuned")));
}

static bool is_nontest_source(const char *p)
{
    return is_source(p) && !is_test_path(p);
}

static bool is_nontest_python(const char *p)
{
    return is_python(p) && !is_test_path(p);
}

/* Library Python for HK3: not tests, and not setup.py or a Sphinx conf.py, which set
 * sys.path by design. */
static bool is_library_python(const char *p)
{
    return is_nontest_python(p) && strcmp(base_name(p), "setup.py") != 0 &&
           strcmp(base_name(p), "conf.py") != 0;
}

static bool is_flydsl_python(const char *p)
{
    return is_python(p) && strcasestr(p, "flydsl") != NULL;
}

/* Serving code for G1b: Python that is not a test, a script, a tool or a benchmark. */
static bool is_serving_python(const char *p)
{
    return is_nontest_python(p) && !str_contains(p, "scripts/") && !str_contains(p, "tools/") &&
           !str_contains(p, "bench") && !str_contains(p, "examples/") &&
           !str_contains(p, "tutorial");
}

/* Where an environment knob is a product decision (HK9): not tests, benches, profiling. */
static bool is_env_path(const char *p)
{
    return is_source(p) && !str_starts(p, "op_tests/") && !str_starts(p, "tests/") &&
           !str_contains(p, "bench") && !str_contains(p, "profile");
}

/* Triton and Gluon kernel Python outside configs and tests (T8): the tuning sweep and its config
 * files are Triton's; the same keyword names in FlyDSL or opus builders are structural. */
static bool is_t8_path(const char *p)
{
    return is_python(p) && (str_contains(p, "triton") || str_contains(p, "gluon")) &&
           !str_contains(p, "/configs/") && !str_starts(p, "op_tests/") && !str_starts(p, "tests/");
}

/* --- line helpers ------------------------------------------------------------------------- */

/* Leading white space of a line, tabs counting as 4. */
static int indent_of(const char *s, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
        k += s[i] == '\t' ? 4 : 1;
    return k;
}

/* True when a line is blank or only a comment. */
static bool is_blank_or_comment(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && isspace((unsigned char)s[i]))
        i++;
    return i == n || s[i] == '#' || (i + 1 < n && s[i] == '/' && s[i + 1] == '/') ||
           (i < n && s[i] == '*');
}

/* The head line's text (borrowed) or "" when unknown; *n its length. */
static const char *head_line(const pfile *pf, int line, size_t *n)
{
    if (line < 1 || line > pf->nlines || !pf->line[line]) {
        *n = 0;
        return "";
    }
    *n = pf->line_len[line];
    return pf->line[line];
}

/* The nearest line above `line` with a smaller indentation (an enclosing block header), or 0.
 * Stops after LOOKBACK lines. */
static int enclosing_header(const pfile *pf, int line, int *indent)
{
    size_t n;
    const char *s = head_line(pf, line, &n);
    int ind = indent_of(s, n);
    for (int l = line - 1; l >= 1 && l >= line - LOOKBACK; l--) {
        s = head_line(pf, l, &n);
        if (is_blank_or_comment(s, n))
            continue;
        int k = indent_of(s, n);
        if (k < ind) {
            if (indent)
                *indent = k;
            return l;
        }
    }
    return 0;
}

/* True when the stripped line starts with word w followed by a non-identifier character. */
static bool starts_word(const char *s, size_t n, const char *w)
{
    size_t i = 0, m = strlen(w);
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return n - i >= m && memcmp(s + i, w, m) == 0 &&
           (n - i == m || !(isalnum((unsigned char)s[i + m]) || s[i + m] == '_'));
}

/* True when s[0..n) contains needle. */
static bool has_sub(const char *s, size_t n, const char *needle)
{
    return memmem(s, n, needle, strlen(needle)) != NULL;
}

/* The text of a line in a view (a new string, same columns for VIEW_CODE). */
static char *line_in_view(syn_lang lang, const char *s, size_t n, line_view v)
{
    if (v == VIEW_RAW)
        return xstrndup(s, n);
    if (v == VIEW_CODE)
        return syntax_text_code(lang, s, n);
    /* without the trailing comment, strings kept */
    char quote = 0;
    size_t i = 0;
    for (; i < n; i++) {
        char c = s[i];
        if (quote) {
            if (c == '\\')
                i++;
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if ((c == '#' && lang == SYN_PYTHON) ||
                   (c == '/' && i + 1 < n && s[i + 1] == '/' && lang != SYN_PYTHON)) {
            break;
        }
    }
    return xstrndup(s, i < n ? i : n);
}

/* True when pattern matches s (compiled for the call: only self-checks that run rarely). */
static bool matches(const char *pattern, bool nocase, const char *s, size_t n)
{
    regex *rx = rx_compile(pattern, nocase, NULL);
    bool r = rx && rx_search(rx, s, n, NULL, NULL) == 1;
    rx_free(rx);
    return r;
}

/* --- self-checks --------------------------------------------------------------------------- */

/* True when c may sit inside a file name, flag or identifier (`-lhipblaslt`, `libhipblaslt.so`). */
static bool is_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' || c == '/';
}

/* D3: hipblaslt as a value of its own (a CSV field, a YAML/JSON value), on a row that is new —
 * not a linker flag or library name in a build config, not a CI workflow, not a row the change
 * only moved (the same text removed elsewhere in the file, as when a table is re-sorted). */
static bool check_d3(hit *h)
{
    const char *path = h->pf->f->path;
    if (str_starts(path, ".github/") || str_contains(path, "/.github/"))
        return false;
    const char *t = h->text, *p = t + h->start;
    size_t m = h->end - h->start;
    while (p && ((p > t && is_word_char(p[-1])) || is_word_char(p[m])))
        p = strcasestr(p + 1, "hipblaslt");
    if (!p)
        return false;
    h->start = (size_t)(p - t);
    h->end = h->start + m;
    size_t n = strlen(t);
    const change_file *f = h->pf->f;
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '-' && f->lines[i].len == n && memcmp(f->lines[i].text, t, n) == 0)
            return false;
    return true;
}

/* C2: a literal fp8 maximum, unless the line or an enclosing condition pins dtype or arch. */
static bool check_c2(hit *h)
{
    static const char *const pins = "fnuz|e4m3|e5m2|float8|\\bgfx\\d+|\\barch\\b|get_gfx|"
                                    "dtype\\s*(==|!=|\\bis\\b|\\bin\\b)|is_same|FP8_MAX_|fp8_max_for";
    const char *lit = h->text + h->start;
    bool dotted = memchr(lit, '.', h->end - h->start) != NULL;
    if (!dotted && !matches("fp8|e4m3|fnuz|max|scale", true, h->text, strlen(h->text)))
        return false;
    if (matches(pins, true, h->text, strlen(h->text)))
        return false;
    int line = h->line;
    for (int k = 0; k < 8; k++) {
        int ind;
        int hl = enclosing_header(h->pf, line, &ind);
        if (!hl)
            break;
        size_t n;
        const char *s = head_line(h->pf, hl, &n);
        if (starts_word(s, n, "def") || starts_word(s, n, "class") || starts_word(s, n, "__global__"))
            break;
        bool cond = starts_word(s, n, "if") || starts_word(s, n, "elif") ||
                    starts_word(s, n, "#if") || starts_word(s, n, "#ifdef") ||
                    starts_word(s, n, "case") || starts_word(s, n, "else") ||
                    starts_word(s, n, "switch") || has_sub(s, n, "if constexpr") ||
                    has_sub(s, n, "if (");
        if (cond && matches(pins, true, s, n))
            return false;
        /* an else/elif arm: the if it belongs to decides by the same test */
        if (starts_word(s, n, "else") || starts_word(s, n, "elif") || starts_word(s, n, "#else") ||
            starts_word(s, n, "#elif") || has_sub(s, n, "} else")) {
            for (int l = hl - 1; l >= 1 && l >= hl - LOOKBACK; l--) {
                size_t m;
                const char *t = head_line(h->pf, l, &m);
                if (is_blank_or_comment(t, m) || indent_of(t, m) > ind)
                    continue;
                if (indent_of(t, m) < ind)
                    break;
                if ((starts_word(t, m, "if") || starts_word(t, m, "elif") ||
                     starts_word(t, m, "#if") || has_sub(t, m, "if (")) && matches(pins, true, t, m))
                    return false;
                if (starts_word(t, m, "if") || starts_word(t, m, "#if"))
                    break;
            }
        }
        line = hl;
    }
    h->detail = xstrndup(lit, h->end - h->start);
    return true;
}

/* The syntax tree of a file's head, taken once from the shared cache or parsed (NULL when the
 * file is not a language we parse). */
static const syntax_doc *pfile_doc(pfile *pf)
{
    if (!pf->doc_tried && pf->have_head) {
        pf->doc_tried = true;
        char *cause = NULL;
        pf->doc = collector_doc(pf->ctx, pf->f, false, pf->head, pf->head_len, &pf->doc_owned,
                                &cause);
        free(cause);
    }
    return pf->doc;
}

/* C4: an arch literal new to the file, in a condition, not a docstring/import/capability check. */
static bool check_c4(hit *h)
{
    /* the literal itself, quotes dropped */
    const char *lit = h->text + h->start + 1;
    size_t litn = h->end - h->start - 2;
    const char *t = h->text;
    size_t n = strlen(t);
    if (has_sub(t, n, "import ") || has_sub(t, n, "assert") || has_sub(t, n, "TORCH_CHECK") ||
        has_sub(t, n, "raise ") || has_sub(t, n, "skipif") || has_sub(t, n, "pytest.skip"))
        return false;
    char *code = syntax_text_code(h->pf->lang, t, n);
    bool cond = matches("==|!=|\\bin\\b|\\bif\\b|\\belif\\b|\\bcase\\b|startswith|\\?|\\bnot\\b",
                        false, code, strlen(code));
    free(code);
    if (!cond)
        return false;
    /* any arch literal already on an unchanged line of the file: house style (aiter#3956) */
    for (int l = 1; l <= h->pf->nlines; l++) {
        size_t ln;
        const char *s = head_line(h->pf, l, &ln);
        if (h->pf->added[l] || ln < 5)
            continue;
        for (const char *p = memmem(s, ln, "gfx", 3); p; p = memmem(p + 1, (size_t)(s + ln - p - 1), "gfx", 3))
            if (p > s && (p[-1] == '"' || p[-1] == '\'') && p + 3 < s + ln &&
                isdigit((unsigned char)p[3]))
                return false;
    }
    /* a docstring: the tree's code view blanks it, quotes and all */
    const syntax_doc *d = pfile_doc(h->pf);
    if (d) {
        char *lc = syntax_line_code(d, h->line);
        bool doc = lc && strlen(lc) > h->start && lc[h->start] != h->text[h->start];
        free(lc);
        if (doc)
            return false;
    }
    /* a capability check that refuses other archs: the block under it raises */
    size_t nn;
    const char *next = head_line(h->pf, h->line + 1, &nn);
    if (starts_word(next, nn, "raise") || starts_word(next, nn, "TORCH_CHECK"))
        return false;
    h->detail = xstrndup(lit, litn);
    return true;
}

/* The identifier at the start of s (a new string) or NULL. */
static char *ident_at(const char *s)
{
    const char *e = s;
    while (isalnum((unsigned char)*e) || *e == '_')
        e++;
    return e > s && !isdigit((unsigned char)*s) ? xstrndup(s, (size_t)(e - s)) : NULL;
}

/* The function a decorator at `line` decorates: the name after the next `def`, or NULL. */
static char *decorated_name(const pfile *pf, int line, int *def_line)
{
    for (int l = line + 1; l <= pf->nlines && l <= line + 30; l++) {
        size_t n;
        const char *s = head_line(pf, l, &n);
        const char *d = memmem(s, n, "def ", 4);
        if (d && (starts_word(s, n, "def") || starts_word(s, n, "async"))) {
            char *tmp = xstrndup(d + 4, (size_t)(s + n - d - 4));
            char *name = ident_at(str_lskip(tmp));
            free(tmp);
            *def_line = l;
            return name;
        }
    }
    return NULL;
}

/* True when text holds a fake for op name: <name>_fake, gen_fake naming it, register_fake or
 * abstract_impl mentioning it, or @<name>.register_fake. */
static bool text_has_fake(const char *t, size_t n, const char *name)
{
    char *a = xasprintf("%s_fake", name), *b = xasprintf("%s.register_fake", name),
         *c = xasprintf("fake_%s", name);
    bool yes = has_sub(t, n, a) || has_sub(t, n, b) || has_sub(t, n, c);
    for (const char *kw = "register_fake"; !yes && kw;) {
        for (const char *p = memmem(t, n, kw, strlen(kw)); p && !yes;
             p = memmem(p + 1, (size_t)(t + n - p - 1), kw, strlen(kw))) {
            const char *e = memchr(p, '\n', (size_t)(t + n - p));
            size_t span = e ? (size_t)(e - p) : (size_t)(t + n - p);
            yes = has_sub(p, span, name);
        }
        kw = strcmp(kw, "register_fake") == 0 ? "abstract_impl" : NULL;
    }
    free(a);
    free(b);
    free(c);
    return yes;
}

/* True when another Python file of the change, or a Python file in the same directory of the
 * head tree, holds a fake for name. */
static bool fake_elsewhere(const pfile *pf, const char *name)
{
    const change *c = collector_file_change(pf->fx);
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *o = &c->files[i];
        if (o == pf->f || o->is_deleted || !is_python(o->path))
            continue;
        size_t n;
        char *t = change_head_text(c, o, &n, NULL);
        bool yes = t && text_has_fake(t, n, name);
        free(t);
        if (yes)
            return true;
    }
    const char *root = pf->ctx->root ? pf->ctx->root : c->head_root;
    const char *slash = strrchr(pf->f->path, '/');
    if (!root)
        return false;
    char *dir = slash ? xstrndup(pf->f->path, (size_t)(slash - pf->f->path)) : xstrdup("");
    DIR *d = gate_opendir(root, dir);
    bool yes = false;
    struct dirent *de;
    while (d && !yes && (de = readdir(d))) {
        if (!str_ends(de->d_name, ".py") || strcmp(de->d_name, base_name(pf->f->path)) == 0)
            continue;
        char *p = *dir ? xasprintf("%s/%s", dir, de->d_name) : xstrdup(de->d_name);
        size_t n;
        char *t = gate_read(root, p, 2u << 20, &n, NULL);
        yes = t && text_has_fake(t, n, name);
        free(t);
        free(p);
    }
    if (d)
        closedir(d);
    free(dir);
    return yes;
}

/* The return annotation of the def at def_line (a new string, the text between `->` and the
 * colon that ends the signature) or NULL when it has none; strings are blanked first, so a
 * default such as `sep: str = ")"` does not end the parameter list early. */
static char *return_annotation(const pfile *pf, int def_line)
{
    strbuf tail;   /* what follows the parameter list */
    sb_init(&tail);
    int depth = 0;
    bool opened = false, closed = false, done = false;
    for (int l = def_line; l <= pf->nlines && l < def_line + 40 && !done; l++) {
        size_t n;
        const char *s = head_line(pf, l, &n);
        char *code = syntax_text_code(SYN_PYTHON, s, n);
        for (const char *c = code; *c && !done; c++) {
            if (*c == '(' || *c == '[')
                depth++;
            else if (*c == ')' || *c == ']')
                depth--;
            if (!closed) {
                opened |= *c == '(';
                closed = opened && depth == 0;
            } else if (*c == ':' && depth == 0) {
                done = true;
            } else {
                sb_addc(&tail, *c);
            }
        }
        free(code);
    }
    const char *arrow = done && tail.buf ? strstr(tail.buf, "->") : NULL;
    char *ann = arrow ? str_strip(arrow + 2) : NULL;
    sb_free(&tail);
    if (ann && !*ann) {
        free(ann);
        ann = NULL;
    }
    return ann;
}

/* True when the body of the def at def_line returns a value somewhere (`return <expr>`): a
 * compile_ops stub that builds its outputs is its own fake. */
static bool body_returns_value(const pfile *pf, int def_line)
{
    size_t n;
    const char *s = head_line(pf, def_line, &n);
    int ind = indent_of(s, n);
    for (int l = def_line + 1; l <= pf->nlines && l < def_line + 400; l++) {
        s = head_line(pf, l, &n);
        if (is_blank_or_comment(s, n))
            continue;
        if (indent_of(s, n) <= ind)
            break;
        char *code = syntax_text_code(SYN_PYTHON, s, n);
        const char *c = str_lskip(code);
        bool yes = starts_word(c, strlen(c), "return") && *str_lskip(c + 6) &&
                   strcmp(str_lskip(c + 6), "None") != 0;
        free(code);
        if (yes)
            return true;
    }
    return false;
}

/* D7: a new compile op that returns tensors with no fake anywhere it could be. */
static bool check_d7(hit *h)
{
    /* the decorator's own arguments, up to its closing parenthesis */
    strbuf deco;
    sb_init(&deco);
    int depth = 0, def_line = 0;
    for (int l = h->line; l <= h->pf->nlines && l < h->line + 20; l++) {
        size_t n;
        const char *s = head_line(h->pf, l, &n);
        sb_add(&deco, s, n);
        sb_addc(&deco, '\n');
        for (size_t i = 0; i < n; i++)
            depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
        if (depth <= 0)
            break;
    }
    bool gen = deco.buf && (strstr(deco.buf, "gen_fake") || strstr(deco.buf, "fake_impl") ||
                            strstr(deco.buf, "fake="));
    sb_free(&deco);
    if (gen)
        return false;
    char *name = decorated_name(h->pf, h->line, &def_line);
    if (!name)
        return false;
    /* an existing op whose decorator was edited is not a new op */
    if (!h->pf->f->is_new && !h->pf->added[def_line]) {
        for (size_t i = 0; i < h->pf->f->nlines; i++) {
            const diff_line *l = &h->pf->f->lines[i];
            if (l->kind == '-' && (strstr(l->text, "compile_ops") || strstr(l->text, "custom_op"))) {
                free(name);
                return false;
            }
        }
    }
    /* Only an op that returns tensors needs a fake: one returning nothing (it writes into
     * outputs it is handed) is traced with no fake at all, and a host-side op returning an int
     * or a handle is never traced. A compile_ops stub body that returns something is itself
     * the fake aiter registers when there is no gen_fake=. */
    char *ann = return_annotation(h->pf, def_line);
    bool tensors = ann && strstr(ann, "Tensor");
    free(ann);
    bool custom = has_sub(h->text, strlen(h->text), "custom_op");
    if (!tensors || (!custom && body_returns_value(h->pf, def_line))) {
        free(name);
        return false;
    }
    bool found = h->pf->have_head && text_has_fake(h->pf->head, h->pf->head_len, name);
    if (!found)
        found = fake_elsewhere(h->pf, name);
    h->detail = name;
    h->related_line = def_line;
    h->related_msg = "the op";
    return !found;
}

/* True when the code of s[0..n) calls name (`name(`), the name standing alone. */
static bool calls_name(const char *s, size_t n, const char *name)
{
    size_t m = strlen(name);
    for (const char *p = memmem(s, n, name, m); p; p = memmem(p + 1, (size_t)(s + n - p - 1), name, m)) {
        if (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || (p[-1] == '.' && !strchr(name, '.'))))
            continue;
        const char *q = p + m;
        while (q < s + n && (*q == ' ' || *q == '\t'))
            q++;
        if (q < s + n && *q == '(')
            return true;
    }
    return false;
}

/* D10: the compiled object is never called on the miss branch before it returns. */
static bool check_d10(hit *h)
{
    /* the assigned name: text before '=' */
    const char *t = str_lskip(h->text);
    const char *eq = strchr(t, '=');
    if (!eq)
        return false;
    char *name = xstrndup(t, (size_t)(eq - t));
    for (size_t k = strlen(name); k && isspace((unsigned char)name[k - 1]); k--)
        name[k - 1] = '\0';
    char *alias = NULL;    /* where it was stored: `exe._cf = cf` */
    size_t n;
    const char *s = head_line(h->pf, h->line, &n);
    int ind = indent_of(s, n);
    int def_ind = -1;
    for (int l = h->line; l >= 1 && l > h->line - 400; l--) {
        s = head_line(h->pf, l, &n);
        if (!is_blank_or_comment(s, n) && indent_of(s, n) < ind && (starts_word(s, n, "def") ||
                                                                     starts_word(s, n, "async"))) {
            def_ind = indent_of(s, n);
            break;
        }
    }
    bool called = false, returned = false;
    int ret_line = 0;
    for (int l = h->line + 1; l <= h->pf->nlines && !called; l++) {
        s = head_line(h->pf, l, &n);
        if (is_blank_or_comment(s, n))
            continue;
        int k = indent_of(s, n);
        if (k <= def_ind)
            break;                       /* end of the function */
        char *code = syntax_text_code(SYN_PYTHON, s, n);
        size_t cn = strlen(code);
        if (calls_name(code, cn, name) || (alias && calls_name(code, cn, alias)))
            called = true;
        /* `alias = name` records where it was stored */
        const char *ceq = strchr(code, '=');
        if (!called && ceq && ceq[1] != '=' && ceq > code && !strchr("!<>=", ceq[-1])) {
            char *rhs = str_strip(ceq + 1);
            if (strcmp(rhs, name) == 0 && !alias) {
                alias = xstrndup(str_lskip(code), (size_t)(ceq - str_lskip(code)));
                for (size_t z = strlen(alias); z && isspace((unsigned char)alias[z - 1]); z--)
                    alias[z - 1] = '\0';
            }
            free(rhs);
        }
        if (!called && starts_word(code, cn, "return")) {
            char *rv = str_strip(str_lskip(code) + 6);
            /* returning the compiled object hands the call to the caller */
            if (strcmp(rv, name) == 0 || (alias && strcmp(rv, alias) == 0))
                called = true;
            else if (k < ind || k == ind) {
                returned = true;
                ret_line = l;
            }
            free(rv);
            if (returned) {
                free(code);
                break;
            }
        }
        free(code);
    }
    if (!called && !returned && def_ind < 0)
        returned = true;     /* module level: nothing after it calls it */
    if (called || (!returned && def_ind >= 0)) {
        free(name);
        free(alias);
        return false;
    }
    h->detail = name;
    if (ret_line) {
        h->related_line = ret_line;
        h->related_msg = "returns without calling the compiled kernel";
    }
    free(alias);
    return true;
}

/* The k-th top-level argument (0-based) of the call whose arguments start at p, stripped (a
 * new string), or NULL when there are fewer; a keyword argument `kw=` is taken wherever it is. */
static char *call_arg(const char *p, int k, const char *kw)
{
    size_t kwn = strlen(kw);
    char *pos = NULL, *named = NULL;
    int idx = 0, depth = 0;
    for (const char *a = p, *e = p;; e++) {
        if (*e == '(' || *e == '[' || *e == '{') {
            depth++;
            continue;
        }
        if (*e && !(depth == 0 && (*e == ',' || *e == ')'))) {
            if (*e == ')' || *e == ']' || *e == '}')
                depth--;
            continue;
        }
        char *arg = xstrndup(a, (size_t)(e - a));
        char *t = str_strip(arg);
        free(arg);
        if (strncmp(t, kw, kwn) == 0 && t[kwn] == '=' && t[kwn + 1] != '=') {
            free(named);
            named = str_strip(t + kwn + 1);
        } else if (idx++ == k && *t && !pos) {
            pos = xstrdup(t);
        }
        free(t);
        if (!*e || *e == ')')
            break;
        a = e + 1;
    }
    if (named) {
        free(pos);
        return named;
    }
    return pos;
}

typedef enum dsl_kind { DSL_UNKNOWN, DSL_RAW, DSL_NUMERIC } dsl_kind;

/* FlyDSL's numeric classes (fx.Int32, Float32, Index, ...): values that are not ir.Values. */
#define D10B_NUMERIC "(?:U?Int(?:4|8|16|32|64|128)|Float(?:16|32|64)|BFloat16|Float[468]E\\w+|" \
                     "Boolean|Index)"

/* What the value written as expr (on or above `line`) is, judged by its leading term, which
 * fixes the type of an operator chain: a call of a FlyDSL numeric class is a numeric; an
 * unwrap (`arith.unwrap(`, `_raw(`, `.ir_value()`), an arith/buffer op or a literal is an
 * ir.Value or needs nothing; a plain name is what its nearest assignment above makes it, or a
 * numeric when the enclosing def annotates it with a numeric class. Anything else is unknown. */
static dsl_kind dsl_kind_of(const pfile *pf, int line, const char *expr, int hops)
{
    const char *e = expr;
    while (*e == '(' || *e == ' ' || *e == '-' || *e == '~')
        e++;
    if (!*e || isdigit((unsigned char)*e) || strcmp(e, "True") == 0 || strcmp(e, "False") == 0)
        return DSL_RAW;
    if (matches("^(?:arith\\.)?(?:unwrap|_to_raw)\\(|^_raw\\(|\\.ir_value\\(\\)$", false, e, strlen(e)))
        return DSL_RAW;
    if (matches("^(?:\\w+\\.)?" D10B_NUMERIC "\\s*\\(", false, e, strlen(e)))
        return DSL_NUMERIC;
    char *id = ident_at(e);
    if (!id)
        return DSL_UNKNOWN;
    size_t il = strlen(id);
    const char *after = str_lskip(e + il);
    dsl_kind kind = DSL_UNKNOWN;
    if (*after == '(' || *after == '.' || *after == '[' || hops > 3) {
        free(id);
        return DSL_UNKNOWN;
    }
    size_t n;
    const char *s = head_line(pf, line, &n);
    int ind = indent_of(s, n);
    for (int l = line - 1; l >= 1 && l >= line - LOOKBACK; l--) {
        s = head_line(pf, l, &n);
        if (is_blank_or_comment(s, n))
            continue;
        int k = indent_of(s, n);
        if (k < ind && (starts_word(s, n, "def") || starts_word(s, n, "async"))) {
            /* the parameter list up to its close: `name: fx.Int32` */
            strbuf sig;
            sb_init(&sig);
            for (int m = l; m < line && m < l + 40; m++) {
                size_t mn;
                const char *ms = head_line(pf, m, &mn);
                sb_add(&sig, ms, mn);
                sb_addc(&sig, '\n');
            }
            char *pat = xasprintf("\\b%s\\s*:\\s*(?:\\w+\\.)?" D10B_NUMERIC "\\b", id);
            if (sig.buf && matches(pat, false, sig.buf, sig.len))
                kind = DSL_NUMERIC;
            free(pat);
            sb_free(&sig);
            break;
        }
        const char *q = str_lskip(s);
        if ((size_t)(s + n - q) > il && strncmp(q, id, il) == 0) {
            const char *r = str_lskip(q + il);
            if (*r == '=' && r[1] != '=') {
                char *rhs = xstrndup(r + 1, (size_t)(s + n - r - 1));
                char *code = syntax_text_code(SYN_PYTHON, rhs, strlen(rhs));
                char *rs = str_strip(code);
                kind = dsl_kind_of(pf, l, rs, hops + 1);
                free(rs);
                free(code);
                free(rhs);
                break;
            }
        }
    }
    free(id);
    return kind;
}

/* D10b: arith.bitcast(result_type, value) handed a FlyDSL numeric (fx.Int32, Float32, ...) as
 * its value. An ArithValue (what arith and buffer ops return) is an ir.Value and needs no
 * unwrap; a numeric is not one, and the MLIR builder rejects it (aiter#3944). The first
 * argument is the result type, never the operand. */
static bool check_d10b(hit *h)
{
    char *a = call_arg(h->text + h->end, 1, "in_");
    if (!a)
        return false;
    if (dsl_kind_of(h->pf, h->line, a, 0) != DSL_NUMERIC) {
        free(a);
        return false;
    }
    if (strlen(a) > 48)
        strcpy(a + 45, "...");
    h->detail = a;
    return true;
}

/* G1b: inside a `while True:` loop, and the function handles no timeout. */
static bool check_g1b(hit *h)
{
    int line = h->line, loop = 0, fn = 0;
    for (int k = 0; k < 10; k++) {
        int hl = enclosing_header(h->pf, line, NULL);
        if (!hl)
            break;
        size_t n;
        const char *s = head_line(h->pf, hl, &n);
        if (starts_word(s, n, "def") || starts_word(s, n, "async")) {
            fn = hl;
            break;
        }
        if (!loop && starts_word(s, n, "while") &&
            matches("^\\s*while\\s+(True|1)\\s*:", false, s, n))
            loop = hl;
        line = hl;
    }
    if (!loop)
        return false;
    for (int l = fn ? fn : 1; l <= h->pf->nlines; l++) {
        size_t n;
        const char *s = head_line(h->pf, l, &n);
        if (l > h->line && !is_blank_or_comment(s, n) && fn &&
            indent_of(s, n) <= indent_of(head_line(h->pf, fn, &n), n))
            break;
        s = head_line(h->pf, l, &n);
        if (has_sub(s, n, "Empty") || has_sub(s, n, "TimeoutError") || has_sub(s, n, "timeout"))
            return false;
    }
    h->related_line = loop;
    h->related_msg = "the worker loop";
    return true;
}

/* HK3: not inside an `if __name__ == "__main__":` block. */
static bool check_hk3(hit *h)
{
    int line = h->line;
    for (int k = 0; k < 10; k++) {
        int hl = enclosing_header(h->pf, line, NULL);
        if (!hl)
            break;
        size_t n;
        const char *s = head_line(h->pf, hl, &n);
        if (has_sub(s, n, "__name__") && has_sub(s, n, "__main__"))
            return false;
        line = hl;
    }
    return true;
}

/* The `def` line of the function whose header ends at line hl — hl itself, or for the `) -> T:`
 * line that closes a signature written over several lines, the def above it — or 0 when the
 * block at hl is not a function. */
static int header_def_line(const pfile *pf, int hl)
{
    size_t n;
    const char *s = head_line(pf, hl, &n);
    if (starts_word(s, n, "def") || starts_word(s, n, "async"))
        return hl;
    if (*str_lskip(s) != ')')
        return 0;
    int ind = indent_of(s, n);
    for (int l = hl - 1; l >= 1 && l >= hl - LOOKBACK; l--) {
        s = head_line(pf, l, &n);
        if (is_blank_or_comment(s, n) || indent_of(s, n) > ind)
            continue;
        return indent_of(s, n) == ind && (starts_word(s, n, "def") || starts_word(s, n, "async"))
                   ? l
                   : 0;
    }
    return 0;
}

/* True when the raise at `line` (or the message lines just below it) says the case is not
 * done yet, rather than refusing an input the code does not support. */
static bool says_not_yet(const pfile *pf, int line)
{
    for (int l = line; l <= pf->nlines && l < line + 3; l++) {
        size_t n;
        const char *s = head_line(pf, l, &n);
        if (matches("\\bnot\\s+yet\\b|\\byet\\s+(?:to\\s+be\\s+)?(?:implemented|supported)\\b|"
                    "\\bTODO\\b|\\bWIP\\b|\\bcoming\\s+soon\\b", true, s, n))
            return true;
        if (l > line && memchr(s, ')', n))
            break;
    }
    return false;
}

/* HK7: in a path the change adds. A TODO/FIXME comment counts wherever it is. `pass` and
 * `raise NotImplementedError` count as the body of a function (a stub) that is not an
 * abstract method, and a raise also where its message says the case is not done yet. Not:
 * a raise under an if/else that refuses an unsupported shape or dtype (a guard), a `pass` arm
 * of a dispatch or inside a `with` (a deliberate no-op), a test's do-nothing override (a test
 * double), or the words inside a string. */
static bool check_hk7(hit *h)
{
    int hl = enclosing_header(h->pf, h->line, NULL);
    const char *t = h->text;
    bool comment = matches("(?:#|//)\\s*(?:TODO|FIXME)\\b", false, t + h->start, h->end - h->start);
    if (!comment) {
        char *code = syntax_text_code(h->pf->lang, t, strlen(t));
        bool in_code = strlen(code) > h->start && code[h->start] == t[h->start];
        free(code);
        if (!in_code || !hl || is_test_path(h->pf->f->path))
            return false;
        bool is_raise = has_sub(t, strlen(t), "NotImplementedError");
        int def = header_def_line(h->pf, hl);
        if (!def && !(is_raise && says_not_yet(h->pf, h->line)))
            return false;
        for (int l = def - 1; def && l >= 1 && l >= def - 4; l--) {
            size_t m;
            const char *d = head_line(h->pf, l, &m);
            if (has_sub(d, m, "abstractmethod"))
                return false;
            if (*str_lskip(d) != '@')
                break;
        }
    }
    if (h->pf->f->is_new)
        return true;
    return hl && h->pf->added[hl];
}

/* True when s[0..n) names the knob as a whole word. */
static bool names_knob(const char *s, size_t n, const char *name, size_t nl)
{
    for (const char *p = memmem(s, n, name, nl); p; p = memmem(p + 1, (size_t)(s + n - p - 1), name, nl))
        if ((p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
            (p + nl == s + n || !(isalnum((unsigned char)p[nl]) || p[nl] == '_')))
            return true;
    return false;
}

/* True when the knob was already there before the change: on an unchanged line of this file,
 * or on a removed line of any file of the change (a read moved into a helper, or to another
 * module, is not a new knob). */
static bool knob_known(const pfile *pf, const char *name)
{
    size_t nl = strlen(name);
    for (int l = 1; l <= pf->nlines; l++) {
        size_t n;
        const char *s = head_line(pf, l, &n);
        if (!pf->added[l] && n && names_knob(s, n, name, nl))
            return true;
    }
    const change *c = collector_file_change(pf->fx);
    for (size_t i = 0; i < c->nfiles; i++)
        for (size_t j = 0; j < c->files[i].nlines; j++) {
            const diff_line *dl = &c->files[i].lines[j];
            if (dl->kind == '-' && names_knob(dl->text, dl->len, name, nl))
                return true;
        }
    return false;
}

/* True when the file also sets the knob (`os.environ["K"] = ...`, `.pop("K"`): a tuner or
 * harness that saves, drives and restores it, not code that reads a new switch. */
static bool knob_written(const pfile *pf, const char *name)
{
    char *pat = xasprintf("environ\\[\\s*['\"]%s['\"]\\s*\\]\\s*=(?!=)|environ\\.pop\\(\\s*['\"]%s['\"]",
                          name, name);
    regex *rx = rx_compile(pat, false, NULL);
    bool yes = false;
    for (int l = 1; rx && l <= pf->nlines && !yes; l++) {
        size_t n;
        const char *s = head_line(pf, l, &n);
        yes = n && memmem(s, n, name, strlen(name)) && rx_search(rx, s, n, NULL, NULL) == 1;
    }
    rx_free(rx);
    free(pat);
    return yes;
}

/* HK9: a knob new to the change's tree (reads only, not `os.environ[...] = v`, not inside a
 * docstring), in a file that does not itself set it; AITER_CONFIG_* config-file paths are
 * the config system itself. */
static bool check_hk9(hit *h)
{
    const char *m = h->text + h->start;
    const char *k = memmem(m, h->end - h->start, "AITER_", 6);
    if (!k)
        return false;
    const char *e = k;
    while (isalnum((unsigned char)*e) || *e == '_')
        e++;
    const char *after = h->text + h->end;
    while (*after == ' ')
        after++;
    if (*after == '=' && after[1] != '=')
        return false;
    /* AITER_CONFIG_* names a tuned-config file: the config system the rule points to */
    if ((size_t)(e - k) > 13 && memcmp(k, "AITER_CONFIG_", 13) == 0)
        return false;
    /* a docstring describing a condition is not a read: the tree's code view blanks it */
    const syntax_doc *d = pfile_doc(h->pf);
    if (d) {
        char *lc = syntax_line_code(d, h->line);
        bool doc = lc && strlen(lc) > h->start && lc[h->start] != h->text[h->start];
        free(lc);
        if (doc)
            return false;
    }
    char *name = xstrndup(k, (size_t)(e - k));
    if (knob_known(h->pf, name) || knob_written(h->pf, name)) {
        free(name);
        return false;
    }
    h->detail = name;
    return true;
}

/* T8: not inside a triton.Config(...) table (an unclosed `Config(` just above or on the line). */
static bool check_t8(hit *h)
{
    /* waves_per_eu=0 is Triton's "no hint" default: nothing tuned to move into a config */
    if (matches("^waves_per_eu\\s*=\\s*0+$", false, h->text + h->start, h->end - h->start))
        return false;
    int depth = 0;
    for (int l = h->line; l >= 1 && l > h->line - 15; l--) {
        size_t n;
        const char *s = head_line(h->pf, l, &n);
        size_t upto = l == h->line ? h->start : n;
        for (size_t i = upto; i-- > 0;) {
            if (s[i] == ')')
                depth++;
            else if (s[i] == '(') {
                if (depth) {
                    depth--;
                    continue;
                }
                size_t b = i;
                while (b > 0 && (isalnum((unsigned char)s[b - 1]) || s[b - 1] == '_' || s[b - 1] == '.'))
                    b--;
                if (i - b >= 6 && memcmp(s + i - 6, "Config", 6) == 0)
                    return false;
                /* tl.range(..., num_stages=1) pipelines a loop inside the kernel: not a launch
                 * knob the tuning sweep could hold */
                if (i - b >= 5 && memcmp(s + i - 5, "range", 5) == 0)
                    return false;
                /* an unclosed call that is not a Config: keep looking outward */
            }
        }
    }
    h->detail = xstrndup(h->text + h->start, h->end - h->start);
    for (char *p = h->detail; *p; p++)
        if (*p == ' ')
            memmove(p, p + 1, strlen(p));
    return true;
}

/* --- the table ----------------------------------------------------------------------------- */

static const pattern_rule table[] = {
    {"D3", SEV_WARNING, is_tuning_config, "hipblaslt", true, "hipblaslt", true, NULL, VIEW_RAW,
     check_d3, "hipblaslt entry added to a tuning config (%s): such rows do not carry over between "
           "Docker images and are known to hang — leave hipblaslt out of tuned configs"},
    {"C2", SEV_INFORMATION, is_source, "240|448", false,
     "(?<![\\w.])(?:240|448)(?:\\.0*)?f?(?![\\w.])", false, NULL, VIEW_CODE, check_c2,
     "fp8 maximum written as %s (240 is e4m3fnuz's limit, 448 OCP e4m3's) on a path not pinned "
     "to one dtype — derive it from the dtype, e.g. get_dtype_max(dtype)"},
    {"C4", SEV_INFORMATION, is_nontest_source, "gfx", false, "(['\"])gfx\\d+[a-z]?\\1", false,
     NULL, VIEW_NOCOMMENT, check_c4,
     "'%s' is an arch literal new to this file, in a dispatch test — go through the arch "
     "registry or a named constant"},
    {"D7", SEV_WARNING, is_python, "compile_ops|custom_op", false,
     "^\\s*@\\s*(?:compile_ops\\b|torch\\.library\\.custom_op\\b)", false, NULL, VIEW_CODE,
     check_d7, "new compile op %s returns tensors but has no fake (no gen_fake=, _fake, "
               "register_fake or abstract_impl for it here) — torch.compile cannot trace it "
               "without one"},
    {"D10", SEV_WARNING, is_flydsl_python, "compile(", false,
     "^\\s*[\\w.\\[\\]'\"]+\\s*=\\s*flyc\\.compile\\(", false, NULL, VIEW_CODE, check_d10,
     "the flyc.compile result %s is never called on this path before it returns: the first "
     "call per shape launches nothing and hands back an unfilled output — call it with the "
     "kernel's arguments"},
    {"D10b", SEV_WARNING, is_flydsl_python, "bitcast", false, "\\barith\\.bitcast\\(", false, NULL,
     VIEW_CODE, check_d10b,
     "arith.bitcast is handed `%s`, a FlyDSL numeric (fx.Int32/Float32...) rather than an "
     "ir.Value: the MLIR builder rejects it when this branch first compiles — unwrap it with "
     "arith.unwrap(...)"},
    {"G1b", SEV_INFORMATION, is_serving_python, ".get(", false,
     "\\b(?:\\w*queue\\w*|\\w*_q|q)\\.get\\(\\s*(?:block\\s*=\\s*True\\s*)?\\)", true, NULL,
     VIEW_CODE, check_g1b,
     "queue.get() with no timeout in a worker loop: if the producer dies this waits forever, "
     "silently — pass timeout= and handle queue.Empty%s"},
    {"HK3", SEV_INFORMATION, is_library_python, "sys.path", false,
     "\\bsys\\.path\\.(?:insert|append)\\(", false, NULL, VIEW_CODE, check_hk3,
     "sys.path is changed at import%s — use package-relative imports"},
    {"HK7", SEV_INFORMATION, is_source, "TODO|FIXME|NotImplementedError|pass", false,
     "(?:#|//)\\s*(?:TODO|FIXME)\\b|\\braise\\s+NotImplementedError\\b|^\\s*pass\\s*$", false,
     NULL, VIEW_RAW, check_hk7,
     "left unfinished in a path this change adds: %s"},
    {"HK9", SEV_INFORMATION, is_env_path, "AITER_", false,
     "(?:os\\.environ\\.get|os\\.getenv|os\\.environ\\.setdefault|getenv)\\(\\s*['\"]AITER_\\w+"
     "|os\\.environ\\[\\s*['\"]AITER_\\w+['\"]\\s*\\]", false, NULL, VIEW_NOCOMMENT, check_hk9,
     "new environment knob %s — aiter turns down permanent flags (AITER_MOE_FORCE_BF16_ACT, "
     "#3593, was reverted by #4225); derive the choice from dtype, arch or shape, or document "
     "it as a temporary rollback switch"},
    {"T8", SEV_INFORMATION, is_t8_path, "waves_per_eu|matrix_instr_nonkdim|kpack|num_stages|"
     "num_warps|num_ctas", false,
     "\\b(?:waves_per_eu|matrix_instr_nonkdim|kpack|num_stages|num_warps|num_ctas)\\s*=\\s*\\d+",
     false, NULL, VIEW_CODE, check_t8,
     "%s is fixed in code, out of the tuning sweep's sight — put it in the tuned config"},
};

#define NRULES (sizeof table / sizeof table[0])

/* --- per-file state ------------------------------------------------------------------------ */

/* Split the head (or, without one, the diff's own lines) into lines. */
static void pfile_init(collector_file_ctx *fx, const change_file *f, pfile *pf)
{
    collector_ctx *ctx = fx->review;
    memset(pf, 0, sizeof *pf);
    pf->ctx = ctx;
    pf->fx = fx;
    pf->f = f;
    pf->lang = syntax_lang_of_path(f->path);
    if (pf->lang == SYN_NONE)
        pf->lang = SYN_PYTHON;   /* only for the lexical views of non-source files */
    pf->head = change_head_text(ctx->chg, f, &pf->head_len, NULL);
    int maxno = 0;
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].new_no > maxno)
            maxno = f->lines[i].new_no;
    if (pf->head) {
        pf->have_head = true;
        int nl = 1;
        for (size_t i = 0; i < pf->head_len; i++)
            nl += pf->head[i] == '\n';
        pf->nlines = nl > maxno ? nl : maxno;
    } else {
        pf->nlines = maxno;
    }
    pf->line = xcalloc((size_t)pf->nlines + 2, sizeof *pf->line);
    pf->line_len = xcalloc((size_t)pf->nlines + 2, sizeof *pf->line_len);
    pf->added = xcalloc((size_t)pf->nlines + 2, sizeof *pf->added);
    if (pf->head) {
        int l = 1;
        for (const char *p = pf->head, *end = pf->head + pf->head_len; p <= end && l <= pf->nlines; l++) {
            const char *e = memchr(p, '\n', (size_t)(end - p));
            if (!e)
                e = end;
            pf->line[l] = p;
            pf->line_len[l] = (size_t)(e - p);
            p = e + 1;
        }
    } else {
        for (size_t i = 0; i < f->nlines; i++)
            if (f->lines[i].kind != '-' && f->lines[i].new_no > 0) {
                pf->line[f->lines[i].new_no] = f->lines[i].text;
                pf->line_len[f->lines[i].new_no] = f->lines[i].len;
            }
    }
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].kind == '+' && f->lines[i].new_no > 0 && f->lines[i].new_no <= pf->nlines)
            pf->added[f->lines[i].new_no] = true;
}

/* Release a file's state. */
static void pfile_free(pfile *pf)
{
    free(pf->head);
    free(pf->line);
    free(pf->line_len);
    free(pf->added);
    if (pf->doc_owned)
        syntax_free(pf->doc_owned);
}

/* True when the NUL-terminated line holds one of the '|'-separated needles. */
static bool has_needle(const char *needles, bool nocase, const char *s)
{
    if (!needles)
        return true;
    char buf[64];
    for (const char *p = needles; *p;) {
        const char *e = strchr(p, '|');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        if (k < sizeof buf) {
            memcpy(buf, p, k);
            buf[k] = '\0';
            if (nocase ? strcasestr(s, buf) != NULL : strstr(s, buf) != NULL)
                return true;
        }
        p += k + (e ? 1 : 0);
    }
    return false;
}

/* Every rule's needles with a table of their first bytes, so most added lines are passed over
 * in one byte scan. */
typedef struct needle_set {
    char word[40][32];
    size_t len[40];
    bool nocase[40];
    size_t n;
    unsigned char by_first[256][8];   /* needle indices by first byte */
    unsigned char nby[256];
    bool all;               /* some rule reads every line: no prefilter */
} needle_set;

/* Collect the needles of the table. */
static void needles_init(needle_set *ns)
{
    memset(ns, 0, sizeof *ns);
    for (size_t r = 0; r < NRULES; r++) {
        const char *p = table[r].needles;
        if (!p) {
            ns->all = true;
            return;
        }
        while (*p) {
            const char *e = strchr(p, '|');
            size_t k = e ? (size_t)(e - p) : strlen(p);
            if (ns->n < 40 && k && k < 32) {
                memcpy(ns->word[ns->n], p, k);
                ns->len[ns->n] = k;
                ns->nocase[ns->n] = table[r].needle_nocase;
                unsigned char c = (unsigned char)p[0];
                unsigned char fc[2] = {c, c};
                if (table[r].needle_nocase) {
                    fc[0] = (unsigned char)tolower(c);
                    fc[1] = (unsigned char)toupper(c);
                }
                for (int v = 0; v < (fc[0] == fc[1] ? 1 : 2); v++)
                    if (ns->nby[fc[v]] < 8)
                        ns->by_first[fc[v]][ns->nby[fc[v]]++] = (unsigned char)ns->n;
                ns->n++;
            }
            p += k + (e ? 1 : 0);
        }
    }
}

/* True when s[0..n) holds any needle. */
static bool needles_any(const needle_set *ns, const char *s, size_t n)
{
    if (ns->all)
        return true;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        for (unsigned j = 0; j < ns->nby[c]; j++) {
            size_t k = ns->by_first[c][j];
            if (ns->len[k] <= n - i &&
                (ns->nocase[k] ? strncasecmp(s + i, ns->word[k], ns->len[k]) == 0
                               : memcmp(s + i, ns->word[k], ns->len[k]) == 0))
                return true;
        }
    }
    return false;
}

typedef struct compiled {
    regex *rx, *unless;
    bool tried;
} compiled;

/* Run every table rule over the added lines of one file; returns the number of findings. */
static int scan_file(collector_file_ctx *fx, const change_file *f, const needle_set *any_needle,
                     compiled *cx, int *per_rule)
{
    /* which rules read this file, decided once per file */
    bool applies[NRULES];
    bool any = false;
    for (size_t r = 0; r < NRULES; r++)
        any |= applies[r] = table[r].files(f->path);
    if (!any)
        return 0;
    pfile pf;
    bool ready = false;
    int found = 0;
    /* one finding per rule and detail per file (the same knob or literal twice is one) */
    char **seen = NULL;
    size_t nseen = 0, seen_cap = 0;
    for (size_t i = 0; i < f->nlines; i++) {
        const diff_line *l = &f->lines[i];
        if (l->kind != '+' || l->new_no <= 0)
            continue;
        /* the diff line's text is NUL-terminated (change.h owns it with its terminator) */
        const char *raw = l->text;
        if (!needles_any(any_needle, raw, l->len))
            continue;
        for (size_t r = 0; r < NRULES; r++) {
            const pattern_rule *pr = &table[r];
            if (!applies[r] || !has_needle(pr->needles, pr->needle_nocase, raw))
                continue;
            if (!cx[r].tried) {
                cx[r].tried = true;
                cx[r].rx = rx_compile(pr->pattern, pr->nocase, NULL);
                cx[r].unless = pr->unless ? rx_compile(pr->unless, false, NULL) : NULL;
            }
            if (!cx[r].rx)
                continue;
            if (!ready) {
                pfile_init(fx, f, &pf);
                ready = true;
            }
            char *view = line_in_view(pf.lang, raw, l->len, pr->view);
            size_t vn = strlen(view), st, en;
            if (rx_search(cx[r].rx, view, vn, &st, &en) == 1 &&
                !(cx[r].unless && rx_search(cx[r].unless, view, vn, NULL, NULL) == 1)) {
                hit h = {&pf, l->new_no, view, st, en, NULL, 0, NULL};
                if (!pr->check || pr->check(&h)) {
                    st = h.start;   /* a check may narrow the match to the part it judged */
                    en = h.end;
                    char *what = h.detail;
                    if (!what) {
                        char *m = xstrndup(view + st, en - st);
                        what = str_strip(m);
                        free(m);
                    }
                    char *key = xasprintf("%s\n%s", pr->rule, what);
                    bool dup = false;
                    for (size_t k = 0; k < nseen && !dup; k++)
                        dup = strcmp(seen[k], key) == 0;
                    if (dup) {
                        free(key);
                    } else {
                        /* C4 and HK9 report a literal or knob once per file; others per line */
                        if (strcmp(pr->rule, "C4") == 0 || strcmp(pr->rule, "HK9") == 0)
                            *ARRAY_PUSH(seen, nseen, seen_cap) = key;
                        else
                            free(key);
                        const char *arg = what;
                        if (strcmp(pr->rule, "G1b") == 0 || strcmp(pr->rule, "HK3") == 0)
                            arg = "";
                        finding *fd = findings_add(fx->out, pr->rule, pr->sev, f->path, l->new_no, pr->message, arg);
                        fd->range = (text_range){l->new_no, (int)st, l->new_no, (int)en};
                        if (h.related_line)
                            finding_add_related(fd, f->path, h.related_line, "%s", h.related_msg);
                        per_rule[r]++;
                        found++;
                    }
                    if (what != h.detail)
                        free(what);
                }
                free(h.detail);
            }
            free(view);
        }
    }
    for (size_t k = 0; k < nseen; k++)
        free(seen[k]);
    free(seen);
    if (ready)
        pfile_free(&pf);
    return found;
}

/* --- whole-file rules: HK1 and HK11 --------------------------------------------------------- */

/* HK1: a new temporary-looking script. Returns the findings made (0 or 1). */
static int temp_script(finding_list *out, const change_file *f)
{
    const char *b = base_name(f->path);
    if (!f->is_new || f->is_deleted)
        return 0;
    bool sh = str_ends(f->path, ".sh") && !str_starts(f->path, ".github/");
    if (!sh && !str_starts(b, "runperf") && !str_starts(b, "test_local_"))
        return 0;
    findings_add(out, "HK1", SEV_INFORMATION, f->path, 1,
                 "%s looks like a local helper script — drop it before merging, or say why "
                 "it belongs in the tree", b);
    return 1;
}

/* The package name a dependency line declares (a new string), or NULL: the first word of a
 * requirements line, or of a quoted requirement standing alone on a setup.py/pyproject line
 * (`"torch>=2.1",`). */
static char *package_of(const char *path, const char *s, size_t n)
{
    char *q = xstrndup(s, n);
    char *t = str_strip(q);
    free(q);
    const char *p = t;
    if (str_ends(path, ".txt")) {
        if (*p == '#' || *p == '-')
            p = "";
    } else if (*p == '"' || *p == '\'') {
        const char *e = strchr(p + 1, *p);
        p = e && (e[1] == '\0' || e[1] == ',') ? p + 1 : "";
    } else {
        p = "";
    }
    const char *e = p;
    while (isalnum((unsigned char)*e) || *e == '_' || *e == '-' || *e == '.')
        e++;
    char *name = e > p && isalpha((unsigned char)*p) ? xstrndup(p, (size_t)(e - p)) : NULL;
    free(t);
    return name;
}

/* HK11: packages added to requirements*.txt, setup.py or pyproject.toml that were not there.
 * Returns the findings made. */
static int new_dependencies(finding_list *out, const change_file *f)
{
    int found = 0;
    const char *b = base_name(f->path);
    bool req = str_starts(b, "requirements") && str_ends(b, ".txt");
    if (f->is_deleted || !(req || strcmp(b, "setup.py") == 0 || strcmp(b, "pyproject.toml") == 0))
        return 0;
    for (size_t k = 0; k < f->nlines; k++) {
        const diff_line *l = &f->lines[k];
        if (l->kind != '+')
            continue;
        char *name = package_of(f->path, l->text, l->len);
        if (!name)
            continue;
        /* already declared on a removed or unchanged line: a bump or a move */
        bool known = false;
        for (size_t j = 0; j < f->nlines && !known; j++) {
            if (f->lines[j].kind == '+')
                continue;
            char *other = package_of(f->path, f->lines[j].text, f->lines[j].len);
            known = other && strcasecmp(other, name) == 0;
            free(other);
        }
        if (!known) {
            findings_add(out, "HK11", SEV_HINT, f->path, l->new_no,
                         "new dependency %s — declare why it is needed; a ROCm-only "
                         "package (amdsmi, hip, rccl) wants a guarded import instead", name);
            found++;
        }
        free(name);
    }
    return found;
}

/* --- the collector ------------------------------------------------------------------------- */

/* What every file stage shares: the needles and the rules' patterns, compiled on first use. */
typedef struct pr_shared {
    needle_set ns;
    compiled cx[NRULES];
} pr_shared;

static void *pr_shared_new(void)
{
    pr_shared *sh = xcalloc(1, sizeof *sh);
    needles_init(&sh->ns);
    return sh;
}

static void pr_shared_free(void *p)
{
    pr_shared *sh = p;
    for (size_t r = 0; r < NRULES; r++) {
        rx_free(sh->cx[r].rx);
        rx_free(sh->cx[r].unless);
    }
    free(sh);
}

/* What one file's stage found, for the status line. */
typedef struct pr_facts {
    bool scanned;            /* its added lines were read */
    int per_rule[NRULES];
    int hk1, hk11;
} pr_facts;

/* The files it reads: every file that gains lines, and new files (HK1). */
static bool reads(const change_file *f)
{
    return !f->is_deleted && ((!f->is_skipped && f->nadd) || f->is_new);
}

/* The per-file stage: the table rules on the added lines, and the whole-file rules. */
static void pattern_rules_file(collector_file_ctx *fx)
{
    pr_shared *sh = fx->shared;
    const change_file *f = fx->f;
    pr_facts *t = xcalloc(1, sizeof *t);
    fx->facts = t;
    if (!f->is_skipped && f->nadd) {
        t->scanned = true;
        scan_file(fx, f, &sh->ns, sh->cx, t->per_rule);
    }
    t->hk1 = temp_script(fx->out, f);
    t->hk11 = new_dependencies(fx->out, f);
}

/* The change-wide stage: the status line from every file's counts. */
static void pattern_rules_change(collector_ctx *ctx, const collector_files *files)
{
    int per_rule[NRULES];
    memset(per_rule, 0, sizeof per_rule);
    int found = 0, hk1 = 0, hk11 = 0;
    size_t nfiles = 0;
    for (size_t i = 0; i < files->n; i++) {
        const pr_facts *t = files->items[i].facts;
        nfiles += t->scanned;
        for (size_t r = 0; r < NRULES; r++) {
            per_rule[r] += t->per_rule[r];
            found += t->per_rule[r];
        }
        hk1 += t->hk1;
        hk11 += t->hk11;
    }
    found += hk1 + hk11;
    if (!found) {
        collector_status(ctx, "nothing found: no pattern rule fires on the added lines of %zu "
                         "file%s", nfiles, nfiles == 1 ? "" : "s");
        return;
    }
    strbuf sb;
    sb_init(&sb);
    for (size_t r = 0; r < NRULES; r++)
        if (per_rule[r])
            sb_addf(&sb, "%s%s %d", sb.len ? ", " : "", table[r].rule, per_rule[r]);
    if (hk1)
        sb_addf(&sb, "%sHK1 %d", sb.len ? ", " : "", hk1);
    if (hk11)
        sb_addf(&sb, "%sHK11 %d", sb.len ? ", " : "", hk11);
    collector_status(ctx, "found %d (%s)", found, sb.buf);
    sb_free(&sb);
}

const collector collector_pattern_rules = {
    .name = "pattern_rules",
    .rules = "D3 C2 C4 D7 D10 D10b G1b HK1 HK3 HK7 HK9 HK11 T8",
    .langs = COLLECT_ANY,
    .reads = reads,
    .file_stage = pattern_rules_file,
    .parse_ahead = collector_never_parses_ahead, /* a head is parsed only when a rule's pattern matches an added line */
    .shared_new = pr_shared_new,
    .shared_free = pr_shared_free,
    .change_stage = pattern_rules_change,
};
