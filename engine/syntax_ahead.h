/* Parsing ahead on a second thread (syntax_ahead.c): docs queued before they are asked for,
 * parsed beside the caller, taken by the syntax cache when the same key is first asked for
 * with the same text and options.
 *
 * Ownership: a queued job copies its key, text and options; a taken doc is the caller's. The
 * functions may be called from one thread only (the one reviewing); the worker is internal. */
#ifndef RL_SYNTAX_AHEAD_H
#define RL_SYNTAX_AHEAD_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/syntax.h"

typedef struct syntax_ahead syntax_ahead;

/* A parser ahead with no thread yet (it starts with the first job). */
syntax_ahead *syntax_ahead_new(void);
/* Queue a parse of text under key with options o (NULL: the default view). False when nothing
 * was queued: a job for key is queued already, the language is not one we parse, or no thread
 * could be started (the caller then parses as it would have). */
bool syntax_ahead_submit(syntax_ahead *a, const char *key, syn_lang lang, const char *text,
                         size_t len, const syntax_parse_opts *o);
/* The same for a doc that may start from the tree of the job queued just before it under
 * from_key (syntax_parse_from with line_map): a changed file's base after its head. When that
 * job is not the one parsed just before, it is parsed afresh. */
bool syntax_ahead_submit_related(syntax_ahead *a, const char *key, syn_lang lang,
                                 const char *text, size_t len, const syntax_parse_opts *o,
                                 const char *from_key, const int *line_map, size_t nmap);
/* The doc parsed ahead for key when it was made from exactly this text, language and options
 * (waiting while it is being parsed), else NULL. The job is gone either way: one not started
 * yet is for the caller to parse now. a may be NULL. */
syntax_doc *syntax_ahead_take(syntax_ahead *a, const char *key, syn_lang lang, const char *text,
                              size_t len, const syntax_parse_opts *o);
/* Wait until every job queued is parsed (for tests, which must know which thread parsed a
 * doc). a may be NULL. */
void syntax_ahead_wait(syntax_ahead *a);
/* The time the caller has spent waiting for the worker to finish a doc it asked for (when it
 * had nothing to parse itself meanwhile), in all; 0 when a is NULL. */
double syntax_ahead_waited_ms(syntax_ahead *a);
/* Bytes of text queued or parsed and not taken yet (the caller's memory budget counts them). */
size_t syntax_ahead_pending_bytes(syntax_ahead *a);
/* Drop every job not taken (waiting for one being parsed): the end of a review. */
void syntax_ahead_clear(syntax_ahead *a);
/* Drop the job for key unless it is being parsed, which is dropped when done (at a later
 * forget or clear): a file whose stages are over never asks for it, and its bytes would hold
 * back the jobs after it. */
void syntax_ahead_forget(syntax_ahead *a, const char *key);
/* Clear, stop the thread and free. a may be NULL. */
void syntax_ahead_free(syntax_ahead *a);

#endif
