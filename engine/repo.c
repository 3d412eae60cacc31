/* libgit2 implementation of repo.h: base resolution, the base → work tree diff (with
 * overlays for unsaved buffers), and base/head text lookups. */
#include "engine/repo.h"

#include <git2.h>
#include <git2/sys/repository.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/path_gate.h"
#include "engine/util.h"

struct repo {
    git_repository *git;
    char *workdir;
    git_oid base;
    bool have_base;      /* false: unborn branch, compare against the empty tree */
    char base_hex[GIT_OID_HEXSZ + 1];
    git_oid target;      /* the target the base was taken from (repo_target_id) */
    char target_hex[GIT_OID_HEXSZ + 1];
    char *target_name;
    pthread_mutex_t read_mu; /* base texts are read from two reviewing threads at once */
};

/* libgit2's last error as a new string. */
static char *git_cause(const char *what)
{
    const git_error *e = git_error_last();
    return xasprintf("%s: %s", what, e && e->message ? e->message : "unknown libgit2 error");
}

repo *repo_open(const char *path, char **cause)
{
    static bool inited;
    if (!inited) {
        git_libgit2_init();
        /* objects read from the repository's own store are not hashed again to check them
         * (the git program does not either; `git fsck` does): a review reads the base of every
         * changed file, some twice */
        git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
        inited = true;
    }
    git_repository *g = NULL;
    if (git_repository_open_ext(&g, path, 0, NULL) < 0) {
        *cause = xasprintf("%s is not inside a git repository", path);
        return NULL;
    }
    if (git_repository_is_bare(g)) {
        git_repository_free(g);
        *cause = xasprintf("%s is a bare repository (no work tree to review)", path);
        return NULL;
    }
    repo *r = xcalloc(1, sizeof *r);
    r->git = g;
    pthread_mutex_init(&r->read_mu, NULL);
    const char *wd = git_repository_workdir(g);
    r->workdir = xstrdup(wd ? wd : "./");
    return r;
}

void repo_free(repo *r)
{
    if (!r)
        return;
    git_repository_free(r->git);
    pthread_mutex_destroy(&r->read_mu);
    free(r->workdir);
    free(r->target_name);
    free(r);
}

const char *repo_workdir(const repo *r)
{
    return r->workdir;
}

const char *repo_base_id(const repo *r)
{
    return r->have_base ? r->base_hex : "";
}

/* Peel a revision string to a commit id; 0 on success. */
static int commit_of(git_repository *g, const char *spec, git_oid *out)
{
    git_object *obj = NULL;
    if (git_revparse_single(&obj, g, spec) < 0)
        return -1;
    git_object *c = NULL;
    int rc = git_object_peel(&c, obj, GIT_OBJECT_COMMIT);
    if (rc == 0) {
        git_oid_cpy(out, git_object_id(c));
        git_object_free(c);
    }
    git_object_free(obj);
    return rc;
}

/* The current branch's upstream from branch.<name>.remote/.merge, mapped the standard way to
 * refs/remotes/<remote>/<branch> (or refs/heads/<branch> for remote "."). Read from the
 * config directly: libgit2 1.5's git_branch_upstream leaks inside git_remote_lookup. Returns
 * the upstream's short name (caller frees) and its commit in *out, or NULL. */
static char *upstream_of_head(git_repository *g, git_oid *out)
{
    git_reference *hr = NULL;
    char *result = NULL;
    if (git_repository_head(&hr, g) != 0 || !git_reference_is_branch(hr)) {
        git_reference_free(hr);
        return NULL;
    }
    const char *branch = git_reference_shorthand(hr);
    git_config *cfg = NULL;
    git_buf remote = GIT_BUF_INIT, merge = GIT_BUF_INIT;
    char *k1 = xasprintf("branch.%s.remote", branch), *k2 = xasprintf("branch.%s.merge", branch);
    if (git_repository_config_snapshot(&cfg, g) == 0 &&
        git_config_get_string_buf(&remote, cfg, k1) == 0 &&
        git_config_get_string_buf(&merge, cfg, k2) == 0 && str_starts(merge.ptr, "refs/heads/")) {
        const char *mb = merge.ptr + 11;
        char *ref = strcmp(remote.ptr, ".") == 0 ? xasprintf("refs/heads/%s", mb)
                                                 : xasprintf("refs/remotes/%s/%s", remote.ptr, mb);
        if (commit_of(g, ref, out) == 0)
            result = xstrdup(ref + (str_starts(ref, "refs/remotes/") ? 13 : 11));
        free(ref);
    }
    free(k1);
    free(k2);
    git_buf_dispose(&remote);
    git_buf_dispose(&merge);
    git_config_free(cfg);
    git_reference_free(hr);
    return result;
}

int repo_resolve_base(repo *r, const char *target, char **desc, char **notes)
{
    strbuf nb;
    sb_init(&nb);
    git_oid head, tgt;
    r->have_base = false;
    r->base_hex[0] = '\0';
    r->target_hex[0] = '\0';
    if (git_repository_head_unborn(r->git) == 1 || commit_of(r->git, "HEAD", &head) < 0) {
        *desc = xstrdup("empty tree (no commits yet: every file is new)");
        if (notes)
            *notes = sb_detach(&nb);
        else
            sb_free(&nb);
        return 0;
    }
    int state = git_repository_state(r->git);
    if (state != GIT_REPOSITORY_STATE_NONE)
        sb_addf(&nb, "a %s is in progress; reviewing the work tree as it stands\n",
                state >= GIT_REPOSITORY_STATE_REBASE ? "rebase" : "merge or cherry-pick");
    char *chosen = NULL;
    if (target && *target) {
        if (commit_of(r->git, target, &tgt) == 0)
            chosen = xstrdup(target);
        else
            sb_addf(&nb, "base '%s' does not name a commit here; using the default\n", target);
    }
    if (!chosen)
        chosen = upstream_of_head(r->git, &tgt);
    static const char *const fallbacks[] = {"refs/remotes/origin/main", "refs/remotes/origin/master",
                                            "refs/heads/main", "refs/heads/master"};
    for (size_t i = 0; !chosen && i < sizeof fallbacks / sizeof *fallbacks; i++)
        if (commit_of(r->git, fallbacks[i], &tgt) == 0)
            chosen = xstrdup(fallbacks[i] + (str_starts(fallbacks[i], "refs/remotes/") ? 13 : 11));
    if (!chosen) {
        git_oid_cpy(&tgt, &head);
        chosen = xstrdup("HEAD");
        if (git_repository_head_detached(r->git) == 1)
            sb_adds(&nb, "HEAD is detached and no main/master branch exists; reviewing uncommitted work only\n");
    }
    git_oid mb;
    if (git_merge_base(&mb, r->git, &head, &tgt) == 0) {
        git_oid_cpy(&r->base, &mb);
    } else {
        sb_addf(&nb, "no merge base between HEAD and %s (shallow or unrelated history); using %s itself\n",
                chosen, chosen);
        git_oid_cpy(&r->base, &tgt);
    }
    r->have_base = true;
    git_oid_tostr(r->base_hex, sizeof r->base_hex, &r->base);
    git_oid_cpy(&r->target, &tgt);
    git_oid_tostr(r->target_hex, sizeof r->target_hex, &r->target);
    free(r->target_name);
    r->target_name = xstrdup(chosen);
    *desc = xasprintf("%s (merge base %.10s)", chosen, r->base_hex);
    free(chosen);
    if (notes)
        *notes = sb_detach(&nb);
    else
        sb_free(&nb);
    return 0;
}

/* Open the repository afresh (dropping an in-memory index put in place of a broken one), so
 * the next review reads .git/index again, once it is repaired. */
static void reopen(repo *r)
{
    git_repository *g = NULL;
    if (git_repository_open(&g, r->workdir) == 0) {
        git_repository_free(r->git);
        r->git = g;
    }
}

/* The base tree, or NULL for an unborn branch. */
static git_tree *base_tree(repo *r)
{
    if (!r->have_base)
        return NULL;
    git_commit *c = NULL;
    git_tree *t = NULL;
    if (git_commit_lookup(&c, r->git, &r->base) == 0) {
        git_commit_tree(&t, c);
        git_commit_free(c);
    }
    return t;
}

typedef struct patch_state {
    change_file *f;
    int new_no;
} patch_state;

/* Copy one libgit2 patch into the change file f. */
static void copy_patch(git_patch *p, change_file *f)
{
    size_t nh = git_patch_num_hunks(p);
    for (size_t h = 0; h < nh; h++) {
        const git_diff_hunk *hunk;
        size_t nl;
        if (git_patch_get_hunk(&hunk, &nl, p, h) < 0)
            continue;
        const char *hdr = hunk->header;
        const char *sec = strstr(hdr + 2, "@@");
        char *section = xstrdup(sec ? str_lskip(sec + 2) : "");
        size_t sl = strlen(section);
        while (sl && (section[sl - 1] == '\n' || section[sl - 1] == '\r'))
            section[--sl] = '\0';
        change_file_add_hunk(f, hunk->old_start, hunk->old_lines, hunk->new_start, hunk->new_lines,
                             section);
        free(section);
        int new_no = hunk->new_lines == 0 ? hunk->new_start + 1 : hunk->new_start;
        if (new_no < 1)
            new_no = 1;
        for (size_t i = 0; i < nl; i++) {
            const git_diff_line *l;
            if (git_patch_get_line_in_hunk(&l, p, h, i) < 0)
                continue;
            char kind = l->origin == GIT_DIFF_LINE_ADDITION   ? '+'
                        : l->origin == GIT_DIFF_LINE_DELETION ? '-'
                        : l->origin == GIT_DIFF_LINE_CONTEXT  ? ' '
                                                              : 0;
            if (!kind)
                continue;
            size_t len = l->content_len;
            if (len && l->content[len - 1] == '\n')
                len--;
            if (kind == '+') {
                change_file_add_line(f, '+', 0, l->new_lineno, l->content, len);
                new_no = l->new_lineno + 1;
            } else if (kind == '-') {
                change_file_add_line(f, '-', l->old_lineno, new_no, l->content, len);
            } else {
                change_file_add_line(f, ' ', l->old_lineno, l->new_lineno, l->content, len);
                new_no = l->new_lineno + 1;
            }
        }
    }
}

/* Look up the blob of path in the base tree (NULL when absent). */
static git_blob *base_blob(repo *r, git_tree *tree, const char *path)
{
    if (!tree)
        return NULL;
    git_tree_entry *e = NULL;
    if (git_tree_entry_bypath(&e, tree, path) < 0)
        return NULL;
    git_blob *b = NULL;
    if (git_tree_entry_type(e) == GIT_OBJECT_BLOB)
        git_blob_lookup(&b, r->git, git_tree_entry_id(e));
    git_tree_entry_free(e);
    return b;
}

static const overlay *find_overlay(const overlay *ovl, size_t n, const char *path)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(ovl[i].path, path) == 0)
            return &ovl[i];
    return NULL;
}

/* Fill f from the diff of the base blob (may be NULL) against text; false when identical. */
static bool diff_blob_text(repo *r, git_blob *old, const char *old_path, const char *path,
                           const char *text, size_t len, change_file *f)
{
    git_diff_options o;
    git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
    o.context_lines = 3;
    git_patch *p = NULL;
    if (git_patch_from_blob_and_buffer(&p, old, old_path, text, len, path, &o) < 0)
        return false;
    const git_diff_delta *d = git_patch_get_delta(p);
    bool differs = d->status != GIT_DELTA_UNMODIFIED && git_patch_num_hunks(p) > 0;
    if (differs) {
        if (d->flags & GIT_DIFF_FLAG_BINARY) {
            f->is_binary = f->is_skipped = true;
            free(f->skip_reason);
            f->skip_reason = xstrdup("binary file");
        } else {
            copy_patch(p, f);
        }
    }
    git_patch_free(p);
    (void)r;
    return differs;
}

/* Read the work tree version of a path through the path gate (NULL when unreadable, too
 * large, outside the tree or reached through a symbolic link). */
static char *workdir_text(repo *r, const char *path, size_t max_bytes, size_t *len, char **why)
{
    return gate_read(r->workdir, path, max_bytes, len, why);
}

/* Mark f as a symbolic link: reported with its target string, never read through. */
static void mark_symlink(repo *r, change *c, change_file *f)
{
    char *target = gate_readlink(r->workdir, f->path);
    f->is_skipped = true;
    free(f->skip_reason);
    f->skip_reason = xasprintf("symbolic link to %s, not followed", target ? target : "?");
    if (c)
        change_note(c, "%s: %s", f->path, f->skip_reason);
    free(target);
}

/* Skip an unsaved buffer larger than the size cap, as a file on disk would be. */
static bool overlay_too_large(change *c, change_file *f, const overlay *ov, size_t max_bytes)
{
    if (ov->len <= max_bytes)
        return false;
    f->is_skipped = true;
    free(f->skip_reason);
    f->skip_reason = xasprintf("open buffer larger than %zu bytes", max_bytes);
    if (c)
        change_note(c, "%s: %s, not reviewed", f->path, f->skip_reason);
    return true;
}

/* What building a change from the work tree works with. */
typedef struct build_ctx {
    repo *r;
    git_tree *tree;        /* the base */
    git_diff *diff;        /* base to work tree */
    change *c;
    const overlay *ovl;    /* unsaved buffers */
    size_t novl;
    bool *overlay_used;    /* which buffers a delta of the diff took */
    size_t max_bytes;
} build_ctx;

/* The diff from the base tree to the work tree (through the index), renames found. When the
 * index cannot be read the work tree is compared through an empty in-memory index (a broken
 * .git/index is neither read nor touched; *index_replaced set, reopen the repository after).
 * NULL with *cause when the work tree cannot be diffed at all. */
static git_diff *workdir_diff(repo *r, git_tree *tree, change *c, bool *index_replaced,
                              char **cause)
{
    git_diff_options o;
    git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
    o.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS |
              GIT_DIFF_SHOW_UNTRACKED_CONTENT | GIT_DIFF_INCLUDE_TYPECHANGE;
    o.context_lines = 3;
    git_diff *diff = NULL;
    if (git_diff_tree_to_workdir_with_index(&diff, r->git, tree, &o) < 0) {
        char *why = git_cause("the index cannot be read");
        change_note(c, "%s; comparing with the work tree directly", why);
        free(why);
        git_index *empty = NULL;
        if (git_index_new(&empty) == 0) {
            git_repository_set_index(r->git, empty);
            *index_replaced = true;
        }
        int drc = git_diff_tree_to_workdir(&diff, r->git, tree, &o);
        git_index_free(empty);
        if (drc < 0) {
            *cause = git_cause("cannot diff the work tree");
            return NULL;
        }
    }
    git_diff_find_options fo;
    git_diff_find_options_init(&fo, GIT_DIFF_FIND_OPTIONS_VERSION);
    fo.flags = GIT_DIFF_FIND_RENAMES | GIT_DIFF_FIND_FOR_UNTRACKED;
    git_diff_find_similar(diff, &fo);
    return diff;
}

/* A conflicted path with no unsaved buffer (a merge or rebase stopped here): reviewed as it
 * stands on disk. False when it does not differ from the base after all. */
static bool add_conflicted(build_ctx *b, change_file *f)
{
    char *why = NULL;
    size_t len = 0;
    char *text = workdir_text(b->r, f->path, b->max_bytes, &len, &why);
    free(why);
    git_blob *old = base_blob(b->r, b->tree, f->old_path);
    f->is_new = old == NULL;
    bool differs = text && diff_blob_text(b->r, old, f->old_path, f->path, text, len, f);
    git_blob_free(old);
    if (!differs) {
        free(text);
        return false;
    }
    f->head_text = text;
    f->head_len = len;
    change_note(b->c, "%s: has merge conflicts; reviewed as it stands", f->path);
    return true;
}

/* A path with an unsaved buffer: the buffer against the base. False when they are equal
 * (and the path was not renamed). */
static bool add_buffer(build_ctx *b, change_file *f, const overlay *ov)
{
    b->overlay_used[ov - b->ovl] = true;
    if (overlay_too_large(b->c, f, ov, b->max_bytes))
        return true;
    git_blob *old = f->is_new ? NULL : base_blob(b->r, b->tree, f->old_path);
    bool differs = diff_blob_text(b->r, old, f->old_path, f->path, ov->text, ov->len, f);
    git_blob_free(old);
    if (!differs && !f->is_renamed)
        return false;
    f->head_text = xstrndup(ov->text, ov->len);
    f->head_len = ov->len;
    return true;
}

/* A path as it is on disk: delta i of the diff, its head read through the path gate; links,
 * large, unreadable and binary files are kept as skipped with a note. */
static void add_from_disk(build_ctx *b, change_file *f, const git_diff_delta *d, size_t i)
{
    bool deleted = f->is_deleted;
    if (!deleted && d->new_file.mode == GIT_FILEMODE_LINK) {
        mark_symlink(b->r, b->c, f);
        return;
    }
    if (!deleted && d->new_file.size > b->max_bytes) {
        f->is_skipped = true;
        f->skip_reason = xasprintf("larger than %zu bytes", b->max_bytes);
        change_note(b->c, "%s: %s, not reviewed", f->path, f->skip_reason);
        return;
    }
    git_patch *p = NULL;
    if (git_patch_from_diff(&p, b->diff, i) < 0 || !p) {
        char *why = git_cause(f->path);
        change_note(b->c, "%s", why);
        free(why);
        f->is_skipped = true;
        f->skip_reason = xstrdup("could not be read");
        return;
    }
    if (git_patch_get_delta(p)->flags & GIT_DIFF_FLAG_BINARY) {
        f->is_binary = f->is_skipped = true;
        f->skip_reason = xstrdup("binary file");
        change_note(b->c, "%s: binary file, not reviewed", f->path);
    } else {
        copy_patch(p, f);
        if (!deleted) {
            char *why = NULL;
            f->head_text = workdir_text(b->r, f->path, b->max_bytes, &f->head_len, &why);
            free(why);
        }
    }
    git_patch_free(p);
}

/* Add delta i of the diff to the change (unless it turns out not to differ). */
static void add_delta(build_ctx *b, size_t i)
{
    const git_diff_delta *d = git_diff_get_delta(b->diff, i);
    if (d->status == GIT_DELTA_UNMODIFIED || d->status == GIT_DELTA_IGNORED)
        return;
    bool deleted = d->status == GIT_DELTA_DELETED;
    const char *path = deleted || !d->new_file.path ? d->old_file.path : d->new_file.path;
    change_file *f = change_add_file(b->c, path);
    free(f->old_path);
    f->old_path = xstrdup(d->old_file.path ? d->old_file.path : path);
    f->is_new = d->status == GIT_DELTA_ADDED || d->status == GIT_DELTA_UNTRACKED;
    f->is_deleted = deleted;
    f->is_renamed = d->status == GIT_DELTA_RENAMED;
    if (d->new_file.mode == GIT_FILEMODE_COMMIT || d->old_file.mode == GIT_FILEMODE_COMMIT) {
        f->is_skipped = true;
        f->skip_reason = xstrdup("submodule");
        change_note(b->c, "%s: submodule, not reviewed", path);
        return;
    }
    const overlay *ov = deleted ? NULL : find_overlay(b->ovl, b->novl, path);
    bool kept = true;
    if (ov)
        kept = add_buffer(b, f, ov);
    else if (d->status == GIT_DELTA_CONFLICTED)
        kept = add_conflicted(b, f);
    else
        add_from_disk(b, f, d, i);
    if (!kept)
        change_drop_last(b->c);
}

/* Unsaved buffers of files that are identical on disk: the buffer alone makes them differ. */
static void add_clean_buffers(build_ctx *b)
{
    for (size_t k = 0; k < b->novl; k++) {
        const overlay *ov = &b->ovl[k];
        if (b->overlay_used[k] || change_find(b->c, ov->path))
            continue;
        git_blob *old = base_blob(b->r, b->tree, ov->path);
        change_file *f = change_add_file(b->c, ov->path);
        f->is_new = old == NULL;
        if (!overlay_too_large(b->c, f, ov, b->max_bytes)) {
            if (diff_blob_text(b->r, old, ov->path, ov->path, ov->text, ov->len, f)) {
                f->head_text = xstrndup(ov->text, ov->len);
                f->head_len = ov->len;
            } else {
                change_drop_last(b->c);
            }
        }
        git_blob_free(old);
    }
}

change *repo_build_change(repo *r, const overlay *ovl, size_t novl, size_t max_bytes, char **cause)
{
    build_ctx b = {.r = r, .tree = base_tree(r), .c = change_new(), .ovl = ovl, .novl = novl,
                   .max_bytes = max_bytes ? max_bytes : REVIEW_MAX_FILE_BYTES};
    bool index_replaced = false;
    b.diff = workdir_diff(r, b.tree, b.c, &index_replaced, cause);
    if (b.diff) {
        b.overlay_used = xcalloc(novl + 1, sizeof(bool));
        size_t nd = git_diff_num_deltas(b.diff);
        for (size_t i = 0; i < nd; i++)
            add_delta(&b, i);
        add_clean_buffers(&b);
        free(b.overlay_used);
        git_diff_free(b.diff);
        b.c->head_root = xstrdup(r->workdir);
    } else {
        change_free(b.c);
        b.c = NULL;
    }
    git_tree_free(b.tree);
    if (index_replaced)
        reopen(r);
    return b.c;
}

int repo_diff_path(repo *r, const char *path, const char *text, size_t len, size_t max_bytes,
                   change_file **out, char **cause)
{
    if (!max_bytes)
        max_bytes = REVIEW_MAX_FILE_BYTES;
    *out = NULL;
    git_tree *tree = base_tree(r);
    git_blob *old = base_blob(r, tree, path);
    char *disk = NULL;
    struct stat st;
    bool on_disk = !text && gate_lstat(r->workdir, path, &st) == 0;
    if (!text && !on_disk && !old) {
        git_tree_free(tree);
        return 0;   /* neither in the base nor on disk: nothing differs */
    }
    change_file *f = xcalloc(1, sizeof *f);
    f->path = xstrdup(path);
    f->old_path = xstrdup(path);
    f->is_new = old == NULL;
    /* the same skips as a full build: links are never read, large files and buffers not
     * reviewed (the caller notes the skip) */
    if (on_disk && S_ISLNK(st.st_mode)) {
        mark_symlink(r, NULL, f);
    } else if (on_disk && S_ISREG(st.st_mode) && (size_t)st.st_size > max_bytes) {
        f->is_skipped = true;
        f->skip_reason = xasprintf("larger than %zu bytes", max_bytes);
    } else if (text) {
        overlay ov = {path, text, len};
        overlay_too_large(NULL, f, &ov, max_bytes);
    }
    if (f->is_skipped) {
        git_blob_free(old);
        git_tree_free(tree);
        *out = f;
        return 0;
    }
    if (on_disk) {
        char *why = NULL;
        disk = workdir_text(r, path, max_bytes, &len, &why);
        free(why);
        text = disk;
    }
    bool differs;
    if (!text) {
        /* deleted on disk */
        f->is_deleted = true;
        differs = diff_blob_text(r, old, path, path, "", 0, f);
        f->is_deleted = true;
    } else {
        differs = diff_blob_text(r, old, path, path, text, len, f);
        if (differs) {
            f->head_text = xstrndup(text, len);
            f->head_len = len;
        }
    }
    git_blob_free(old);
    git_tree_free(tree);
    free(disk);
    if (!differs) {
        change_file_clear(f);
        free(f);
        return 0;
    }
    *out = f;
    (void)cause;
    return 0;
}

bool repo_path_ignored(repo *r, const char *path)
{
    int ignored = 0;
    if (git_ignore_path_is_ignored(&ignored, r->git, path) < 0)
        return false;
    return ignored == 1;
}

char *repo_base_text(repo *r, const char *path, size_t *len, char **cause)
{
    pthread_mutex_lock(&r->read_mu);
    git_tree *tree = base_tree(r);
    git_blob *b = base_blob(r, tree, path);
    git_tree_free(tree);
    size_t n = b ? (size_t)git_blob_rawsize(b) : 0;
    char *t = b ? xstrndup(git_blob_rawcontent(b), n) : NULL;
    git_blob_free(b);
    pthread_mutex_unlock(&r->read_mu);
    if (!t) {
        if (cause)
            *cause = xasprintf("%s: not in the base", path);
        return NULL;
    }
    if (len)
        *len = n;
    return t;
}

char *repo_default_title(repo *r)
{
    char *title = NULL;
    git_revwalk *w = NULL;
    if (git_revwalk_new(&w, r->git) == 0 && git_revwalk_push_head(w) == 0) {
        if (r->have_base)
            git_revwalk_hide(w, &r->base);
        git_oid id;
        if (git_revwalk_next(&id, w) == 0) {
            git_commit *c = NULL;
            if (git_commit_lookup(&c, r->git, &id) == 0) {
                const char *s = git_commit_summary(c);
                if (s)
                    title = xstrdup(s);
                git_commit_free(c);
            }
        }
    }
    git_revwalk_free(w);
    if (title)
        return title;
    git_reference *hr = NULL;
    if (git_repository_head(&hr, r->git) == 0 && git_reference_is_branch(hr))
        title = xstrdup(git_reference_shorthand(hr));
    else if (git_repository_head_unborn(r->git) == 1) {
        /* unborn: the branch HEAD points at */
        git_reference *sym = NULL;
        if (git_reference_lookup(&sym, r->git, "HEAD") == 0 && git_reference_symbolic_target(sym)) {
            const char *t = git_reference_symbolic_target(sym);
            title = xstrdup(str_starts(t, "refs/heads/") ? t + 11 : t);
        }
        git_reference_free(sym);
    }
    git_reference_free(hr);
    return title ? title : xstrdup("");
}

/* --- the merge target, for the review packet (applies.txt, merge_target.txt) ----------------- */

const char *repo_target_id(const repo *r)
{
    return r->have_base ? r->target_hex : "";
}

const char *repo_target_name(const repo *r)
{
    return r->have_base && r->target_name ? r->target_name : "";
}

int repo_commit_id(repo *r, const char *spec, char hex[41])
{
    git_oid id;
    hex[0] = '\0';
    if (!spec || !*spec || commit_of(r->git, spec, &id) < 0)
        return -1;
    git_oid_tostr(hex, 41, &id);
    return 0;
}

char *repo_commit_text(repo *r, const char *hex, const char *path, size_t *len, bool *exists)
{
    git_oid id;
    git_commit *c = NULL;
    git_tree *t = NULL;
    git_tree_entry *e = NULL;
    git_blob *b = NULL;
    char *text = NULL;
    *exists = false;
    if (git_oid_fromstr(&id, hex) == 0 && git_commit_lookup(&c, r->git, &id) == 0 &&
        git_commit_tree(&t, c) == 0 && git_tree_entry_bypath(&e, t, path) == 0) {
        *exists = true;
        if (git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
            git_blob_lookup(&b, r->git, git_tree_entry_id(e)) == 0 && !git_blob_is_binary(b)) {
            *len = (size_t)git_blob_rawsize(b);
            text = xstrndup(git_blob_rawcontent(b), *len);
        }
    }
    git_blob_free(b);
    git_tree_entry_free(e);
    git_tree_free(t);
    git_commit_free(c);
    return text;
}

bool repo_names_commit(repo *r, const char *spec)
{
    git_oid id;
    return commit_of(r->git, spec, &id) == 0;
}
