/* Opening the engine and the review the batch commands share (cli.h): the diff file or the
 * repository handed to the engine's front door, the settings the options carry, the warnings
 * about options that cannot mean what they say (a --disable id that names no rule), and the
 * strict base (an explicit --base that names no commit is an error, not a silent fallback). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/util.h"

/* The engine settings the options carry (pointers borrowed from o). */
static engine_settings settings_of(const cli_options *o)
{
    engine_settings s = {.base = o->base,
                         .title = o->title_given ? o->title : NULL,
                         .rules_path = o->rules_path,
                         .max_file_bytes = o->max_file_bytes,
                         .disabled_rules = o->disabled,
                         .precision_policy = o->precision_policy,
                         .timing = o->timing,
                         .one_thread = o->one_thread,
                         .derive_only = o->derive_only,
                         .face = FACE_COMMAND_LINE,
                         .one_review = true, /* every command reviews once, then exits */
                         .severity = o->severity};
    return s;
}

/* The bytes of --diff FILE ("-": standard input), or NULL after printing why. */
static char *read_diff(const char *name, size_t *len)
{
    if (strcmp(name, "-") != 0) {
        char *why = NULL;
        char *text = read_file(name, 0, len, &why);
        if (!text) {
            fprintf(stderr, "review-lsp: cannot read diff %s\n", why);
            free(why);
        }
        return text;
    }
    strbuf sb;
    sb_init(&sb);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
        sb_add(&sb, buf, n);
    *len = sb.len;
    return sb_detach(&sb);
}

int cli_engine_open(const cli_options *o, engine **out)
{
    engine_settings s = settings_of(o);
    *out = NULL;
    if (o->diff) {
        size_t len = 0;
        char *text = read_diff(o->diff, &len);
        if (!text)
            return EXIT_USAGE;
        *out = engine_open_diff(text, len, o->root, &s);
        free(text);
    } else {
        char *cause = NULL;
        *out = engine_open_repo(o->path, &s, &cause);
        if (!*out) {
            fprintf(stderr, "review-lsp: %s\n", cause);
            free(cause);
            return EXIT_NOT_A_REPO;
        }
    }
    if (engine_catalog_problem(*out))
        fprintf(stderr, "review-lsp: %s\n", engine_catalog_problem(*out));
    cli_config_notes(*out);
    return 0;
}

void cli_config_notes(const engine *eng)
{
    /* a malformed file warns and the defaults stand in; the exit code is the review's */
    if (engine_config_problem(eng))
        fprintf(stderr, "review-lsp: warning: %s\n", engine_config_problem(eng));
    const repo_config *f = engine_config(eng)->file;
    for (size_t i = 0; f && i < f->nwarnings; i++)
        fprintf(stderr, "review-lsp: warning: %s\n", f->warnings[i]);
}

/* Warn about each --disable id that names no rule, with the nearest ids. */
static void warn_unknown_disabled(const cli_options *o, const engine *eng)
{
    for (size_t i = 0; i < o->ndisabled; i++) {
        if (engine_knows_rule(eng, o->disabled[i]))
            continue;
        const char *near[5];
        size_t n = catalog_near(engine_catalog(eng), o->disabled[i], near, 5);
        fprintf(stderr, "review-lsp: warning: --disable %s names no rule", o->disabled[i]);
        for (size_t k = 0; k < n; k++)
            fprintf(stderr, "%s%s", k ? ", " : "; did you mean ", near[k]);
        fprintf(stderr, "%s\n", n ? "?" : "");
    }
}

/* Hand --pr-body FILE to the engine as the change's description. Returns 0, or EXIT_USAGE
 * after printing why. */
static int set_pr_body(const char *name, engine *eng)
{
    size_t len;
    char *why = NULL;
    char *text = read_file(name, 4u << 20, &len, &why);
    if (!text) {
        fprintf(stderr, "review-lsp: cannot read --pr-body %s\n", why);
        free(why);
        return EXIT_USAGE;
    }
    engine_set_description(eng, name, text, len);
    free(text);
    return 0;
}

/* cli_review_open, with the caller's work beside the review (NULL: none). */
static int review_open(const cli_options *o, cli_review *cr,
                       void (*beside)(const change *c, void *arg), void *arg)
{
    memset(cr, 0, sizeof *cr);
    int rc = cli_engine_open(o, &cr->eng);
    if (rc)
        return rc;
    warn_unknown_disabled(o, cr->eng);
    if (o->pr_body && (rc = set_pr_body(o->pr_body, cr->eng)) != 0) {
        cli_review_close(cr);
        return rc;
    }
    if (beside)
        engine_beside_next_review(cr->eng, beside, arg);
    char *cause = NULL;
    if (engine_review(cr->eng, &cr->rev, &cause) < 0) {
        fprintf(stderr, "review-lsp: %s\n", cause);
        free(cause);
        cli_review_close(cr);
        return EXIT_NOT_A_REPO;
    }
    if (cr->rev->base_error) {
        fprintf(stderr, "review-lsp: %s (--base wants a branch, tag or commit, e.g. "
                        "origin/main)\n", cr->rev->base_error);
        cli_review_close(cr);
        return EXIT_USAGE;
    }
    return 0;
}

int cli_review_open(const cli_options *o, cli_review *cr)
{
    return review_open(o, cr, NULL, NULL);
}

int cli_review_open_strict(const cli_options *o, cli_review *cr,
                           void (*beside)(const change *c, void *arg), void *arg)
{
    int rc = review_open(o, cr, beside, arg);
    if (rc)
        return rc;
    const char *problem = engine_diff_problem(cr->eng);
    if (problem) {
        fprintf(stderr, "review-lsp: %s: %s\n", o->diff, problem);
        cli_review_close(cr);
        return EXIT_USAGE;
    }
    return 0;
}

void cli_review_close(cli_review *cr)
{
    review_free(cr->rev);
    engine_free(cr->eng);
    memset(cr, 0, sizeof *cr);
}
