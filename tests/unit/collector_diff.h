/* Shared pieces of the collector unit tests that run one collector over a diff text: the
 * result (findings and status line), a diff adding a new file, finding lookup by line, and a
 * dump of what was found for a failing test. Included by the test files; static inline, so a
 * test that uses only some of them compiles warning-free. */
#ifndef RL_TEST_COLLECTOR_DIFF_H
#define RL_TEST_COLLECTOR_DIFF_H

#include <stdio.h>
#include <stdlib.h>

#include "engine/finding.h"
#include "engine/util.h"

typedef struct result {
    finding_list out;
    char *status;
} result;

/* Free a result. */
static inline void result_free(result *r)
{
    findings_clear(&r->out);
    free(r->status);
}

/* A diff adding path as a new file with the given lines (each without "\n"). */
static inline char *new_file_diff(const char *path, const char *const *lines)
{
    size_t n = 0;
    while (lines[n])
        n++;
    strbuf sb;
    sb_init(&sb);
    sb_addf(&sb, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n"
                 "@@ -0,0 +1,%zu @@\n", path, path, path, n);
    for (size_t i = 0; i < n; i++)
        sb_addf(&sb, "+%s\n", lines[i]);
    return sb_detach(&sb);
}

/* The finding on line, or NULL. */
static inline const finding *at_line(const result *r, int line)
{
    for (size_t i = 0; i < r->out.n; i++)
        if (r->out.items[i].range.line == line)
            return &r->out.items[i];
    return NULL;
}

/* Print unexpected findings to help a failing test. */
static inline void dump_findings(const result *r)
{
    for (size_t i = 0; i < r->out.n; i++)
        fprintf(stderr, "  finding: %d:%d: %s\n", r->out.items[i].range.line,
                r->out.items[i].range.col, r->out.items[i].message);
}

#endif
