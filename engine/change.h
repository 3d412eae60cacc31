/* The change under review: the files that differ between the base and the head, each with
 * its hunks and lines (old and new line numbers), and the title. One model, built either from
 * a git repository (repo.c) or from a unified diff file (diff_parse.c), read by the derivation
 * and by every collector.
 *
 * Ownership: a change owns its files, a file owns its lines and hunks; every string inside is
 * owned by the struct holding it. change_free releases everything. */
#ifndef RL_CHANGE_H
#define RL_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

/* Files larger than this are skipped (noted, not reviewed) unless the configuration says
 * otherwise: the one default of max-file-bytes for the engine, the CLI and the server. */
#define REVIEW_MAX_FILE_BYTES ((size_t)2 << 20)

typedef struct diff_line {
    char kind;      /* ' ' context, '+' added, '-' deleted */
    int old_no;     /* 1-based line number in the base, 0 for added lines */
    int new_no;     /* 1-based line number in the head; for a deleted line, the head line
                       where the deletion happened (the next head line, at least 1) */
    char *text;     /* the line without its marker and without "\n" (a trailing "\r" kept) */
    size_t len;
} diff_line;

typedef struct diff_hunk {
    int old_start, old_count, new_start, new_count;
    char *section;  /* text after the second "@@", "" when none */
    size_t first;   /* index of its first line in change_file.lines */
    size_t count;   /* number of lines */
} diff_hunk;

typedef struct change_file {
    char *path;     /* head path (for a deletion, the old path) */
    char *old_path; /* base path; equals path unless renamed */
    bool is_new, is_deleted, is_renamed, is_binary;
    bool is_skipped;        /* not analysed: binary, submodule, too large */
    char *skip_reason;      /* why, or NULL */
    diff_line *lines;
    size_t nlines, lines_cap;
    diff_hunk *hunks;
    size_t nhunks, hunks_cap;
    int nadd, ndel;
    char *head_text;        /* the head file's text when known (repo mode, overlays), or NULL */
    size_t head_len;
} change_file;

typedef struct change {
    change_file *files;
    size_t nfiles, files_cap;
    char *title;            /* may be "" */
    char *head_root;        /* directory holding the head files, or NULL */
    char *raw_diff;         /* the unified diff text when built from one, else NULL */
    size_t raw_len;
    char **notes;           /* things worth telling the user (skips, fallbacks) */
    size_t nnotes, notes_cap;
} change;

change *change_new(void);
void change_free(change *c);
change_file *change_add_file(change *c, const char *path);
/* Take back the file change_add_file added last (it turned out not to differ). */
void change_drop_last(change *c);
void change_file_clear(change_file *f);
diff_hunk *change_file_add_hunk(change_file *f, int old_start, int old_count, int new_start,
                                int new_count, const char *section);
void change_file_add_line(change_file *f, char kind, int old_no, int new_no, const char *text,
                          size_t len);
/* A deep copy of f appended to c. */
change_file *change_copy_file(change *c, const change_file *f);
void change_note(change *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const change_file *change_find(const change *c, const char *path);

/* The base text of f rebuilt from its head text by undoing the hunks (for --diff mode, where
 * no repository holds the base), or NULL when the head does not match the diff's context.
 * Returns a new string (caller frees) and its length in *blen. */
char *change_base_from_head(const change_file *f, const char *head, size_t hlen, size_t *blen);

/* Note (change_note) every file of the change that head_root cannot give through the path
 * gate: a path that leaves the root, a symbolic link on the way. Nothing is read. */
void change_note_refusals(change *c);

/* The head text of a file: its head_text, else the file under head_root (through the path
 * gate: never outside it, never through a link), else (for a new file
 * or a file whose every line is in the diff) the text rebuilt from the diff. Returns a new
 * string the caller frees, or NULL with *cause set (caller frees) when it cannot be had. */
char *change_head_text(const change *c, const change_file *f, size_t *len, char **cause);

#endif
