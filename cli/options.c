/* Option parsing for the batch commands (cli.h): every option of every command, checked
 * here so the commands see only valid values. */
#include <errno.h>
#include <stddef.h>
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

static const char *const FORMATS[] = {"text", "json", "sarif", "github", "rdjson", NULL};

static bool known_format(const char *f)
{
    for (size_t i = 0; FORMATS[i]; i++)
        if (strcmp(f, FORMATS[i]) == 0)
            return true;
    return false;
}

/* What parsing keeps between arguments. */
typedef struct parse_state {
    const char *command;
    size_t disabled_cap, only_cap, severity_cap;
    bool only_mode;          /* after --only: bare arguments are files to report on */
    bool have_path;
} parse_state;

/* Read --max-file-bytes' value. Returns 0, or EXIT_USAGE after printing why. */
static int take_size(const char *v, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (errno || *end || n == 0 || v[0] == '-') {
        fprintf(stderr, "review-lsp: --max-file-bytes wants a positive number, not '%s'\n", v);
        return EXIT_USAGE;
    }
    *out = (size_t)n;
    return 0;
}

/* Take the option that starts at argv[*i] (advancing *i over its value). Returns 0, 1 when
 * argv[*i] is not an option, or EXIT_USAGE after printing why. */
static int take_option(int argc, char **argv, int *i, cli_options *o, parse_state *ps)
{
    static const struct {
        const char *name;
        size_t field;
    } plain[] = {{"--base", offsetof(cli_options, base)},       {"--diff", offsetof(cli_options, diff)},
                 {"--root", offsetof(cli_options, root)},       {"--format", offsetof(cli_options, format)},
                 {"--fail-on", offsetof(cli_options, fail_on)}, {"--rules", offsetof(cli_options, rules_path)},
                 {"--pr-body", offsetof(cli_options, pr_body)}, {"--title", offsetof(cli_options, title)}};
    const char *v = NULL;
    int r;
    for (size_t k = 0; k < sizeof plain / sizeof *plain; k++)
        if ((r = opt_value(argc, argv, i, plain[k].name, &v)) != 0) {
            if (r < 0)
                return EXIT_USAGE;
            *(const char **)((char *)o + plain[k].field) = v;
            o->title_given |= plain[k].field == offsetof(cli_options, title);
            return 0;
        }
    if ((r = opt_value(argc, argv, i, "--disable", &v)) != 0) {
        if (r > 0)
            push(&o->disabled, &o->ndisabled, &ps->disabled_cap, v);
        return r < 0 ? EXIT_USAGE : 0;
    }
    if ((r = opt_value(argc, argv, i, "--severity", &v)) != 0) {
        if (r < 0)
            return EXIT_USAGE;
        const char *eq = strrchr(v, '=');
        severity sev;
        if (!eq || eq == v || severity_parse(eq + 1, &sev) < 0) {
            fprintf(stderr, "review-lsp: --severity wants ID=LEVEL (LEVEL: error, warning, "
                            "information, hint), not '%s'\n", v);
            return EXIT_USAGE;
        }
        push(&o->severity, &o->nseverity, &ps->severity_cap, v);
        return 0;
    }
    if ((r = opt_value(argc, argv, i, "--max-file-bytes", &v)) != 0)
        return r < 0 ? EXIT_USAGE : take_size(v, &o->max_file_bytes);
    if (strncmp(argv[*i], "--only=", 7) == 0) {
        push(&o->only, &o->nonly, &ps->only_cap, argv[*i] + 7);
        return 0;
    }
    /* --only PATH...: every bare argument after it is a file to report on (pre-commit
       appends the file names after the hook's own arguments, which may add options) */
    if (strcmp(argv[*i], "--only") == 0) {
        ps->only_mode = true;
        return 0;
    }
    if (argv[*i][0] == '-' && argv[*i][1] != '\0') {
        fprintf(stderr, "review-lsp %s: unknown option '%s' (try --help)\n", ps->command, argv[*i]);
        return EXIT_USAGE;
    }
    return 1;
}

/* Take a bare argument: a file of --only, explain's rule id, or PATH. */
static int take_argument(const char *a, cli_options *o, parse_state *ps)
{
    if (ps->only_mode) {
        push(&o->only, &o->nonly, &ps->only_cap, a);
        return 0;
    }
    if (strcmp(ps->command, "explain") == 0 && !o->explain_id) {
        o->explain_id = a;
        return 0;
    }
    if (ps->have_path) {
        fprintf(stderr, "review-lsp %s: unexpected argument '%s'\n", ps->command, a);
        return EXIT_USAGE;
    }
    o->path = a;
    ps->have_path = true;
    return 0;
}

/* Check the values taken together. Returns 0, or EXIT_USAGE after printing why. */
static int check_values(const cli_options *o, const parse_state *ps)
{
    struct stat st;
    char *why = NULL;
    if (!known_format(o->format))
        why = xasprintf("--format must be text, json, sarif, github or rdjson, not '%s'", o->format);
    else if (ps->only_mode && !o->only)
        why = xstrdup("--only needs at least one PATH");
    else if (o->only && strcmp(ps->command, "check") != 0)
        why = xstrdup("--only goes with check");
    else if (o->fail_on && strcmp(o->fail_on, "warning") && strcmp(o->fail_on, "information"))
        why = xasprintf("--fail-on must be warning or information, not '%s'", o->fail_on);
    else if (o->root && !o->diff)
        why = xstrdup("--root goes with --diff FILE");
    else if (o->root && (stat(o->root, &st) != 0 || !S_ISDIR(st.st_mode)))
        why = xasprintf("--root %s is not a directory", o->root);
    if (!why)
        return 0;
    fprintf(stderr, "review-lsp: %s\n", why);
    free(why);
    return EXIT_USAGE;
}

int cli_parse(int argc, char **argv, const char *command, cli_options *o)
{
    memset(o, 0, sizeof *o);
    o->path = ".";
    o->format = "text";
    /* Another precision policy file (README "Precision"); the test suites pin one. */
    o->precision_policy = getenv("REVIEW_LSP_PRECISION_POLICY");
    o->timing = getenv("REVIEW_LSP_TIMING") != NULL;
    const char *ahead = getenv("REVIEW_LSP_PARSE_AHEAD");
    o->one_thread = ahead && strcmp(ahead, "0") == 0;
    parse_state ps = {.command = command};
    for (int i = 0; i < argc; i++) {
        int r = take_option(argc, argv, &i, o, &ps);
        if (r == 1)
            r = take_argument(argv[i], o, &ps);
        if (r)
            return r;
    }
    return check_values(o, &ps);
}

void cli_options_free(cli_options *o)
{
    free(o->disabled);
    free(o->only);
    free(o->severity);
    o->disabled = o->only = o->severity = NULL;
    o->ndisabled = o->nonly = o->nseverity = 0;
}

int cli_command(int argc, char **argv, const char *command, int (*run)(const cli_options *o))
{
    cli_options o;
    int rc = cli_parse(argc, argv, command, &o);
    if (!rc)
        rc = run(&o);
    cli_options_free(&o);
    return rc;
}
