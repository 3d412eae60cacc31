/* `review-lsp explain ID`: print one rule's full text from the rules file in use. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/util.h"

int cmd_explain(int argc, char **argv)
{
    cli_options o;
    int rc = cli_parse(argc, argv, "explain", &o);
    if (rc)
        return rc;
    if (!o.explain_id) {
        fprintf(stderr, "review-lsp explain: which rule? (e.g. review-lsp explain D4)\n");
        return EXIT_USAGE;
    }
    rule_catalog *cat;
    if (o.rules_path) {
        char *cause = NULL;
        cat = catalog_load(o.rules_path, &cause);
        if (cause) {
            fprintf(stderr, "review-lsp: %s\n", cause);
            free(cause);
        }
    } else {
        cat = catalog_bundled();
    }
    const rule_entry *r = catalog_find(cat, o.explain_id);
    if (!r) {
        const char *near[5];
        size_t n = catalog_near(cat, o.explain_id, near, 5);
        fprintf(stderr, "review-lsp: unknown rule '%s'", o.explain_id);
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, "%s%s", i ? ", " : "; did you mean ", near[i]);
        fprintf(stderr, "%s\n", n ? "?" : "");
        catalog_free(cat);
        return EXIT_USAGE;
    }
    printf("%s\n", r->text);
    catalog_free(cat);
    return EXIT_OK;
}
