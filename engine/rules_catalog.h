/* The rule catalogue: reads a rules file in the original block syntax (`### Category`
 * headings, `**ID — Title** <marker>` blocks, housekeeping rules as table rows under
 * `### Housekeeping`) — our bundled rules/rules.md or aiter's own
 * .claude/skills/review-pr/rules.md — into id → title, severity, category, full text, line.
 *
 * Ownership: the catalogue owns every string; lookups return borrowed pointers valid until
 * catalog_free. */
#ifndef RL_RULES_CATALOG_H
#define RL_RULES_CATALOG_H

#include <stddef.h>

#include "engine/finding.h"

typedef struct rule_entry {
    char *id;
    char *title;
    char *category;  /* the heading text after "### " */
    severity sev;
    char *text;      /* the block's full Markdown text (for a table row: header + row) */
    int line;        /* 1-based line of the block's first line in the file */
} rule_entry;

typedef struct rule_catalog {
    rule_entry *rules;
    size_t n, cap;
    char *path;      /* the file it was read from, or "(bundled)" */
    char *source;    /* the whole file text */
    size_t source_len;
} rule_catalog;

/* Parse text (len bytes) read from path. Returns NULL with *cause ("path:line: what") when the
 * text is not a rules file (no rule blocks, or a block with no title). */
rule_catalog *catalog_parse(const char *text, size_t len, const char *path, char **cause);
/* The catalogue compiled into the binary (rules/rules.md). Never NULL. */
rule_catalog *catalog_bundled(void);
/* Read path; on failure return the bundled catalogue and set *cause to why (caller frees). */
rule_catalog *catalog_load(const char *path, char **cause);
void catalog_free(rule_catalog *c);
const rule_entry *catalog_find(const rule_catalog *c, const char *id);
/* Up to max ids near id (same prefix letters, or small edit distance), written to out. */
size_t catalog_near(const rule_catalog *c, const char *id, const char **out, size_t max);

#endif
