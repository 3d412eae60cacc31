/* The derivation's view of a change: per file, the path, whether it is new, and its added and
 * deleted lines as the original triage's line-oriented parse sees them (a content line that
 * begins with "++" or "--" looks like a file header to it and is dropped), plus the joined
 * texts the family patterns run against. Shared by derive.c and derive_detectors.c.
 *
 * Ownership: a dv_change owns its arrays and joined strings; line texts are borrowed from the
 * change it was built from, which must outlive it. */
#ifndef RL_DERIVE_VIEW_H
#define RL_DERIVE_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/change.h"

typedef struct dv_line {
    const char *text;
    size_t len;
    int head_line;          /* where it is (or, deleted, where it was) in the head */
} dv_line;

typedef struct dv_file {
    const change_file *f;
    const char *path;
    bool is_new;
    dv_line *adds;
    size_t nadds, adds_cap;
    dv_line *dels;
    size_t ndels, dels_cap;
    int first_line;         /* first changed head line, for path-triggered sites */
} dv_file;

/* One line of the diff as the original's line reader walks it, in order, for the detectors
 * that read the raw sequence (the dropped-parameter scan): 'F' a `diff --git` header, '@' a
 * hunk header, '+', '-' or ' ' a line (header-looking "+++"/"---" lines excluded). */
typedef struct dv_seq {
    char kind;
    const char *path;       /* the file it belongs to */
    const char *text;
    size_t len;
    int head_line;
} dv_seq;

typedef struct dv_change {
    const change *chg;
    dv_file *files;
    size_t nfiles, files_cap;
    dv_seq *seq;
    size_t nseq, seq_cap;
    char *title_lower;
    char *raw;              /* raw mode: the diff text as the original reads it (owned) */
} dv_change;

/* Build the view. A change read from a diff file is viewed through its raw text, exactly as
 * the original's line reader sees it (file headers it cannot read, lines outside hunks, a
 * path seen twice); a change built from a repository is viewed through its model. */
void dv_build(dv_change *v, const change *c, const char *title);
void dv_free(dv_change *v);
/* Join lines with "\n" into a new string. */
char *dv_join(const dv_line *lines, size_t n, size_t *len);

/* Named detectors (derive_detectors.c). Each returns true when it holds and, when it can,
 * sets site_file and site_line to the first place that made it hold. */
typedef bool (*dv_detector)(const dv_change *v, const dv_file **site_file, int *site_line);
dv_detector dv_find_detector(const char *name);

/* True when, after stripping, the line is empty or starts like a comment (# // /\* * """ '''). */
bool dv_is_comment_line(const char *s, size_t n);

#endif
