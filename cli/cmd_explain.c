/* `review-lsp explain ID [PATH]`: print one rule's full text from the rules file the engine
 * uses for PATH (default: the current directory) — the repository's own
 * .claude/skills/review-pr/rules.md when it has one, else --rules FILE, else the bundled
 * rules. Outside a repository, --rules FILE or the bundled rules. */
#include <stdlib.h>

#include "cli/cli.h"

/* The engine whose rules file explain reads: the diff's (--diff, --root), else the
 * repository's, else one with no tree of its own. NULL after an error was printed. */
static engine *rules_engine(const cli_options *o)
{
    engine *eng = NULL;
    if (o->diff) {
        cli_engine_open(o, &eng);
        return eng;
    }
    engine_settings s = {.rules_path = o->rules_path};
    char *cause = NULL;
    eng = engine_open_repo(o->path, &s, &cause);
    free(cause);
    if (!eng)
        eng = engine_open_diff(NULL, 0, NULL, &s);
    if (engine_catalog_problem(eng))
        fprintf(stderr, "review-lsp: %s\n", engine_catalog_problem(eng));
    return eng;
}

/* explain with parsed options. */
static int run_explain(const cli_options *o)
{
    if (!o->explain_id) {
        fprintf(stderr, "review-lsp explain: which rule? (e.g. review-lsp explain D4)\n");
        return EXIT_USAGE;
    }
    engine *eng = rules_engine(o);
    if (!eng)
        return EXIT_USAGE;
    const rule_catalog *cat = engine_catalog(eng);
    const rule_entry *r = catalog_find(cat, o->explain_id);
    int rc = EXIT_OK;
    if (r) {
        printf("%s\n", r->text);
    } else {
        const char *near[5];
        size_t n = catalog_near(cat, o->explain_id, near, 5);
        fprintf(stderr, "review-lsp: unknown rule '%s'", o->explain_id);
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, "%s%s", i ? ", " : "; did you mean ", near[i]);
        fprintf(stderr, "%s\n", n ? "?" : "");
        rc = EXIT_USAGE;
    }
    engine_free(eng);
    return rc;
}

int cmd_explain(int argc, char **argv)
{
    return cli_command(argc, argv, "explain", run_explain);
}
