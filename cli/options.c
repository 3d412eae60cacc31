/* Option parsing for the batch commands (cli.h): every option of every command, checked
 * here so the commands see only valid values. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
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

/* Append v to the NULL-terminated array *arr of *n strings (capacity *cap). */
static void push(const char ***arr, size_t *n, size_t *cap, const char *v)
{
    grow_array((void **)arr, cap, *n + 2, sizeof **arr);
    (*arr)[(*n)++] = v;
    (*arr)[*n] = NULL;
}

static const char *const FORMATS[] = {"text", "json", "sarif", NULL};

static bool known_format(const char *f)
{
    for (size_t i = 0; FORMATS[i]; i++)
        if (strcmp(f, FORMATS[i]) == 0)
            return true;
    return false;
}

int cli_parse(int argc, char **argv, const char *command, cli_options *o)
{
    memset(o, 0, sizeof *o);
    o->path = ".";
    o->format = "text";
    size_t disabled_cap = 0, only_cap = 0;
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
            push(&o->disabled, &o->ndisabled, &disabled_cap, v);
            continue;
        }
        if (strncmp(argv[i], "--only=", 7) == 0) {
            push(&o->only, &o->nonly, &only_cap, argv[i] + 7);
            continue;
        }
        if (strcmp(argv[i], "--only") == 0) {
            /* --only PATH...: every argument up to the next option (pre-commit appends the
               file names after the hook's own arguments) */
            size_t before = o->nonly;
            while (i + 1 < argc && !(argv[i + 1][0] == '-' && argv[i + 1][1] != '\0'))
                push(&o->only, &o->nonly, &only_cap, argv[++i]);
            if (o->nonly == before) {
                fprintf(stderr, "review-lsp: --only needs at least one PATH\n");
                return EXIT_USAGE;
            }
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
    if (!known_format(o->format)) {
        fprintf(stderr, "review-lsp: --format must be text, json or sarif, not '%s'\n", o->format);
        return EXIT_USAGE;
    }
    if (o->only && strcmp(command, "check") != 0) {
        fprintf(stderr, "review-lsp %s: --only goes with check\n", command);
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

void cli_options_free(cli_options *o)
{
    free(o->disabled);
    free(o->only);
    o->disabled = o->only = NULL;
    o->ndisabled = o->nonly = 0;
}
