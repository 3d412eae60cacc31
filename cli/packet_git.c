/* applies.txt and merge_target.txt of the review packet (packet.h): where the merge target is
 * (its commit, and the merge base the change is reviewed from) and whether the change still
 * applies to the target's tip, checked in memory as `git apply --check` would
 * (engine/apply_check.h) on the target's files read with libgit2 (engine/repo.h), never by
 * running git. In repository mode the target is the one the review resolved (--base, else the
 * upstream, origin/main, ...); with --diff it is --base REF in the repository at PATH, and
 * without --base there is no target to check, which both files say. */
#include <stdlib.h>
#include <string.h>

#include "cli/packet.h"
#include "engine/apply_check.h"
#include "engine/repo.h"

#define SHORT 10

typedef struct target_reader {
    repo *r;
    const char *hex;
} target_reader;

static char *read_target(void *arg, const char *path, size_t *len, bool *exists)
{
    target_reader *tr = arg;
    return repo_commit_text(tr->r, tr->hex, path, len, exists);
}

/* Whether the review's change applies to the commit hex of r (see write_applies). */
static int change_applies(repo *r, const char *hex, const cli_review *cr, char **detail)
{
    target_reader tr = {r, hex};
    return apply_check(cr->rev->chg, read_target, &tr, detail);
}

/* Both files when there is no target: the same reason, SKIPPED. */
static void skip_both(const char *why, strbuf *applies, strbuf *target, packet_summary *sum)
{
    sb_addf(applies, "SKIPPED: %s; whether the change applies to the merge target was not "
                     "checked\n", why);
    sb_addf(target, "SKIPPED: %s; there is no merge target to read base files from\n", why);
    packet_summary_add(sum, "applies.txt", "SKIPPED: %s", why);
    packet_summary_add(sum, "merge_target.txt", "SKIPPED: %s", why);
}

/* applies.txt from an apply check's result (apply_check.h). */
static void write_applies(int ok, const char *detail, const char *name, const char *hex,
                          strbuf *out, packet_summary *sum)
{
    if (ok > 0) {
        sb_addf(out, "APPLIES: the change still applies to the merge target %s at %s\n"
                     "  (checked against the target's files as `git apply --check` would: each "
                     "hunk in place or moved by an offset)\n", name, hex);
        if (detail)
            sb_addf(out, "  note: %s\n", detail);
        packet_summary_add(sum, "applies.txt", "APPLIES to %s at %.*s", name, SHORT, hex);
    } else {
        sb_addf(out, "STALE: the change no longer applies to the merge target %s at %s --\n"
                     "  it needs a rebase, and a CI result on it describes a tree that has moved\n"
                     "  first failure: %s\n", name, hex, detail ? detail : "unknown");
        packet_summary_add(sum, "applies.txt", "STALE against %s at %.*s", name, SHORT, hex);
    }
}

/* Repository mode: the target and merge base the review used. */
static void repo_mode(const cli_options *o, const cli_review *cr, strbuf *applies, strbuf *target,
                      packet_summary *sum)
{
    char *cause = NULL;
    repo *r = repo_open(engine_workdir(cr->eng), &cause);
    if (!r) {
        skip_both(cause, applies, target, sum);
        free(cause);
        return;
    }
    char *desc = NULL;
    repo_resolve_base(r, o->base, &desc, NULL);
    free(desc);
    const char *hex = repo_target_id(r), *name = repo_target_name(r), *base = repo_base_id(r);
    if (!*hex) {
        skip_both("the branch has no commit yet, so every file is new and nothing can be merged "
                  "into", applies, target, sum);
        repo_free(r);
        return;
    }
    const char *wd = engine_workdir(cr->eng);
    sb_addf(target, "MERGE TARGET: %s at %s\n", name, hex);
    if (!strcmp(name, "HEAD"))
        sb_adds(target, "  no upstream, origin/main, origin/master, main or master exists, so the "
                        "target is HEAD and only uncommitted work is reviewed\n");
    sb_addf(target, "  the change is reviewed from the merge base %s%s\n", base,
            strcmp(base, hex) ? "" : " (the target's tip itself)");
    sb_addf(target, "  read a base file with: git -C %s show %s:PATH\n", wd, base);
    if (strcmp(base, hex))
        sb_addf(target, "  and the target's version with: git -C %s show %s:PATH\n", wd, hex);
    packet_summary_add(sum, "merge_target.txt", "%s at %.*s, merge base %.*s", name, SHORT, hex,
                       SHORT, base);
    if (!strcmp(base, hex)) {
        sb_addf(applies, "APPLIES: the merge base is the tip of the merge target %s (%s), so "
                         "nothing has moved under the change\n", name, hex);
        packet_summary_add(sum, "applies.txt", "APPLIES (the merge base is %s's tip)", name);
    } else {
        char *detail = NULL;
        int ok = change_applies(r, hex, cr, &detail);
        write_applies(ok, detail, name, hex, applies, sum);
        free(detail);
    }
    repo_free(r);
}

/* --diff mode with --base: the target is REF in the repository at PATH. */
static void diff_mode(const cli_options *o, const cli_review *cr, strbuf *applies, strbuf *target,
                      packet_summary *sum)
{
    char *cause = NULL;
    repo *r = repo_open(o->path, &cause);
    if (!r) {
        char *why = xasprintf("--base %s was given, but %s", o->base, cause);
        skip_both(why, applies, target, sum);
        free(why);
        free(cause);
        return;
    }
    char hex[41];
    if (repo_commit_id(r, o->base, hex) < 0) {
        char *why = xasprintf("--base %s names no commit in %s", o->base, repo_workdir(r));
        skip_both(why, applies, target, sum);
        free(why);
        repo_free(r);
        return;
    }
    sb_addf(target, "MERGE TARGET: %s at %s\n", o->base, hex);
    sb_addf(target, "  in the repository %s; the diff file's own base is not known here\n",
            repo_workdir(r));
    sb_addf(target, "  read the target's version of a file with: git -C %s show %s:PATH\n",
            repo_workdir(r), hex);
    packet_summary_add(sum, "merge_target.txt", "%s at %.*s", o->base, SHORT, hex);
    char *detail = NULL;
    int ok = change_applies(r, hex, cr, &detail);
    write_applies(ok, detail, o->base, hex, applies, sum);
    free(detail);
    repo_free(r);
}

void packet_git(const cli_options *o, const cli_review *cr, strbuf *applies, strbuf *target,
                packet_summary *sum)
{
    if (!o->diff)
        repo_mode(o, cr, applies, target, sum);
    else if (o->base)
        diff_mode(o, cr, applies, target, sum);
    else
        skip_both("--diff mode names no merge target (add --base REF, with PATH or the current "
                  "directory inside the repository the diff is for)", applies, target, sum);
}
