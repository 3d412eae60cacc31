/* The collector runner: runs every collector of the registry over one review, in the
 * registry's order — derivation is the engine's — calling each per-file stage only for the
 * files its collector reads, reusing per-file results kept from earlier reviews when the file
 * is the same (collector_cache.h), then each change-wide stage; stamps each collector's name on
 * its findings and collects the status lines. With timing on, it writes per stage what ran:
 * each collector's time without parsing, how many files it ran on and how many came from the
 * cache, and parsing as its own line.
 *
 * Ownership: a runner owns the collectors' kept states and the per-file results; inputs are
 * borrowed for the call. */
#ifndef RL_COLLECTOR_RUN_H
#define RL_COLLECTOR_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/collector.h"

typedef struct collector_runner collector_runner;

/* What one review hands the collectors (see collector_ctx). */
typedef struct collector_inputs {
    const change *chg;
    repo *rp;
    const char *root;
    syntax_cache *syn;
    const char *const *touched;
    const collector_buffer *side;
    size_t nside;
    const char *const *open;   /* paths of the open documents (NULL-terminated), or NULL */
} collector_inputs;

/* A runner; keep: keep collector states and per-file results between reviews (a server, or
 * any caller reviewing the same tree again); without it every review starts afresh. */
collector_runner *collector_runner_new(bool keep);
void collector_runner_free(collector_runner *r);
/* Write per-stage costs to fp (NULL: none). */
void collector_runner_set_timing(collector_runner *r, FILE *fp);
/* Use more than this thread (off by default). Without keep, a change of a few files or more
 * has its files shared out between this thread and a second, each running the per-file stages
 * of every collector on the files it takes and parsing them itself; the review reads the same
 * as with one thread. Otherwise a second thread parses the files of a change a few ahead of
 * the collectors: with keep, only files whose results the runner does not hold for their
 * content. Either way a whole-change run that may run apart (collector.runs_apart) runs on a
 * thread of its own beside the per-file stages. */
void collector_runner_set_second_thread(collector_runner *r, bool on);
/* The heap a review may use before it gives back the trees of files it is done with (24 MiB
 * with keep, 64 MiB without, unless set; a test sets a small one to see what is given back). */
void collector_runner_set_heap_budget(collector_runner *r, size_t bytes);
/* Run every collector over in. Findings are appended to out; returns one status line per
 * collector ("name: status", new strings in a new array of *n). */
char **collector_runner_run(collector_runner *r, const collector_inputs *in, finding_list *out,
                            size_t *n);

#endif
