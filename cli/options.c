/* Option parsing for the batch commands, and opening the review they share (cli.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "engine/diff_parse.h"
#include "engine/util.h"

/* Match "--name VALUE" or "--name=VALUE" at argv[*i]; advances *i over a separate value. */
static int opt_value(int argc, char **argv, int *i, const char *name, const char **val)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (a[n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "review-lsp: %s needs a value\n", name);
        return -1;
    }
    *val = argv[++*i];
    return 1;
}

int cli_parse(int argc, char **argv, const char *command, cli_options *o)
{
    memset(o, 0, sizeof *o);
    o->path = ".";
    o->format = "text";
    /* Another precision policy file (README "Precision"); the test suites pin one. */
    o->precision_policy = getenv("REVIEW_LSP_PRECISION_POLICY");
    bool have_path = false;
    for (int i = 0; i < argc; i++) {
        const char *v = NULL;
        int r;
#define OPT(name, field)                                   \
    if ((r = opt_value(argc, argv, &i, name, &v)) != 0) {  \
        if (r < 0)                                         \
            return EXIT_USAGE;                             \
        o->field = v;                                      \
        continue;                                          \
    }
        OPT("--base", base)
        OPT("--diff", diff)
        OPT("--root", root)
        OPT("--format", format)
        OPT("--fail-on", fail_on)
        OPT("--rules", rules_path)
        OPT("--pr-body", pr_body)
#undef OPT
        if ((r = opt_value(argc, argv, &i, "--title", &v)) != 0) {
            if (r < 0)
                return EXIT_USAGE;
            o->title = v;
            o->title_given = true;
            continue;
        }
        if ((r = opt_value(argc, argv, &i, "--disable", &v)) != 0) {
            if (r < 0)
                return EXIT_USAGE;
            if (o->ndisabled < 63)
                o->disabled[o->ndisabled++] = v;
            continue;
        }
        if ((r = opt_value(argc, argv, &i, "--max-file-bytes", &v)) != 0) {
            if (r < 0)
                return EXIT_USAGE;
            char *end;
            errno = 0;
            unsigned long long n = strtoull(v, &end, 10);
            if (errno || *end || n == 0) {
                fprintf(stderr, "review-lsp: --max-file-bytes wants a positive number, not '%s'\n", v);
                return EXIT_USAGE;
            }
            o->max_file_bytes = (size_t)n;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "review-lsp %s: unknown option '%s' (try --help)\n", command, argv[i]);
            return EXIT_USAGE;
        }
        if (strcmp(command, "explain") == 0 && !o->explain_id) {
            o->explain_id = argv[i];
            continue;
        }
        if (have_path) {
            fprintf(stderr, "review-lsp %s: unexpected argument '%s'\n", command, argv[i]);
            return EXIT_USAGE;
        }
        o->path = argv[i];
        have_path = true;
    }
    if (strcmp(o->format, "text") && strcmp(o->format, "json") && strcmp(o->format, "sarif")) {
        fprintf(stderr, "review-lsp: --format must be text, json or sarif, not '%s'\n", o->format);
        return EXIT_USAGE;
    }
    if (o->fail_on && strcmp(o->fail_on, "warning") && strcmp(o->fail_on, "information")) {
        fprintf(stderr, "review-lsp: --fail-on must be warning or information, not '%s'\n", o->fail_on);
        return EXIT_USAGE;
    }
    if (o->root && !o->diff) {
        fprintf(stderr, "review-lsp: --root goes with --diff FILE\n");
        return EXIT_USAGE;
    }
    if (o->root) {
        struct stat st;
        if (stat(o->root, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "review-lsp: --root %s is not a directory\n", o->root);
            return EXIT_USAGE;
        }
    }
    return 0;
}

int cli_review_open(const cli_options *o, cli_review *cr)
{
    memset(cr, 0, sizeof *cr);
    const char *disabled[65];
    for (int i = 0; i < o->ndisabled; i++)
        disabled[i] = o->disabled[i];
    disabled[o->ndisabled] = NULL;
    if (o->diff) {
        size_t len;
        char *why = NULL;
        char *text = strcmp(o->diff, "-") == 0 ? NULL : read_file(o->diff, 0, &len, &why);
        if (strcmp(o->diff, "-") == 0) {
            strbuf sb;
            sb_init(&sb);
            char buf[65536];
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
                sb_add(&sb, buf, n);
            len = sb.len;
            text = sb_detach(&sb);
        }
        if (!text) {
            fprintf(stderr, "review-lsp: cannot read diff %s\n", why);
            free(why);
            return EXIT_USAGE;
        }
        change *c = diff_parse(text, len, &cr->diff_problem);
        free(text);
        free(c->title);
        c->title = xstrdup(o->title ? o->title : "");
        if (o->rules_path) {
            char *cause = NULL;
            cr->own_cat = catalog_load(o->rules_path, &cause);
            if (cause) {
                fprintf(stderr, "review-lsp: %s\n", cause);
                free(cause);
            }
        } else {
            cr->own_cat = catalog_bundled();
        }
        cr->cat = cr->own_cat;
        cr->rev = engine_review_change(c, o->root, cr->cat, disabled, o->precision_policy);
        return 0;
    }
    engine_settings s = {.base = o->base, .title = o->title_given ? o->title : NULL,
                         .rules_path = o->rules_path, .max_file_bytes = o->max_file_bytes,
                         .disabled_rules = disabled, .precision_policy = o->precision_policy};
    char *cause = NULL;
    cr->eng = engine_open(o->path, &s, &cause);
    if (!cr->eng) {
        fprintf(stderr, "review-lsp: %s\n", cause);
        free(cause);
        return EXIT_NOT_A_REPO;
    }
    if (engine_catalog_problem(cr->eng))
        fprintf(stderr, "review-lsp: %s\n", engine_catalog_problem(cr->eng));
    cr->cat = engine_catalog(cr->eng);
    if (engine_review(cr->eng, &cr->rev, &cause) < 0) {
        fprintf(stderr, "review-lsp: %s\n", cause);
        free(cause);
        engine_free(cr->eng);
        cr->eng = NULL;
        return EXIT_NOT_A_REPO;
    }
    return 0;
}

void cli_review_close(cli_review *cr)
{
    review_free(cr->rev);
    engine_free(cr->eng);
    catalog_free(cr->own_cat);
    free(cr->diff_problem);
    memset(cr, 0, sizeof *cr);
}
