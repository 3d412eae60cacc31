/* Shared pieces of the collector runner's unit tests: the change a diff text describes, with
 * its head files under a root, and one review whose findings and status lines are thrown away
 * (the tests look at the runner's cache, costs and timing, not at what it found). Included by
 * one test file each; everything here is static inline. */
#ifndef RL_RUNNER_HARNESS_H
#define RL_RUNNER_HARNESS_H

#include <stdio.h>
#include <stdlib.h>

#include "engine/collector_run.h"
#include "engine/diff_parse.h"
#include "engine/util.h"

/* The change diff text (len bytes) describes, its head files under root; NULL (and the cause
 * on stderr) when the text does not read as a diff. */
static inline change *rh_change_of_diff(const char *text, size_t len, const char *root)
{
    char *cause = NULL;
    change *c = diff_parse(text, len, &cause);
    if (!c)
        fprintf(stderr, "  diff: %s\n", cause ? cause : "?");
    free(cause);
    if (c)
        c->head_root = xstrdup(root);
    return c;
}

/* Run r once on in, throwing its findings and status lines away. */
static inline void rh_run_discard(collector_runner *r, const collector_inputs *in)
{
    finding_list out = {0};
    size_t n = 0;
    char **status = collector_runner_run(r, in, &out, &n);
    for (size_t i = 0; i < n; i++)
        free(status[i]);
    free(status);
    findings_clear(&out);
    free(out.items);
}

#endif
