/* The review packet's evidence axes (packet.h): one file per collector, named as the original
 * triage named its artifact (the imports collector writes symbols.txt), each telling what it
 * answers, then one block per finding (place, rule and severity — a finding the precision
 * policy lowered is marked a candidate, with why —, the judgement, its evidence lines and
 * exhibits as `check --format text` shows them: tables, diffs, chains), then
 * a closing line with the counts and the collector's own status. An axis the collector could
 * not check (its status says "skipped", or that the tree lacks what the check compares with)
 * writes "SKIPPED: why" as its first line, so silence never reads as clean. */
#include <stdlib.h>
#include <string.h>

#include "cli/packet.h"
#include "engine/collector.h"
#include "lsp/exhibit_render.h"

typedef struct axis_info {
    const char *collector;
    const char *file;
    const char *answers;
} axis_info;

static const axis_info AXES[] = {
    {"guards", "guards.txt",
     "GUARDS: each assert, check, zero-initialisation or .contiguous() the change deletes --"
     " moved (it comes back elsewhere), changed (same subject, another bound) or gone"},
    {"siblings", "siblings.txt",
     "SIBLINGS: variants of a changed function that still carry a line the change removed or"
     " rewrote; divergence can be right, so each block is a pair to judge"},
    {"flydsl_bounds", "flydsl_bounds.txt",
     "FLYDSL BOUNDS: FlyDSL buffer resources and descriptors on added lines whose bound is not"
     " tied to the tensor's real extent"},
    {"aot_pairing", "aot_pairing.txt",
     "AOT PAIRING: new ops-side FlyDSL names that the pre-compiler under aiter/aot/flydsl/ was"
     " not taught"},
    {"imports", "symbols.txt",
     "SYMBOLS: first-party imports the change adds that resolve neither in the tree nor in the"
     " change (a rebase signal)"},
    {"twins", "twins.txt",
     "TWINS: new files that mirror an existing file, and which one (diff the two for what the"
     " copy did not adapt)"},
    {"test_quality", "test_quality.txt",
     "TEST QUALITY: assertions, tolerances and shapes of the tests the change adds"},
    {"kernel_tests", "kernel_tests.txt",
     "KERNEL TESTS: new kernel files for which the change adds no collectable test"},
    {"ci_coverage", "ci_coverage.txt",
     "CI COVERAGE: whether a CI job will ever run the test files the change adds"},
    {"perf_claims", "perf_claims.txt",
     "PERF CLAIMS: every performance number the description claims, and which name no"
     " baseline"},
    {"struct_abi", "struct_abi.txt",
     "STRUCT ABI: structs whose layout, pinned by static_assert/offsetof, the change shifts"},
    {"comment_only", "comment_only.txt",
     "COMMENT ONLY: in a comment-dominated change, the lines that are code"},
    {"index_width", "index_width.txt",
     "INDEX WIDTH: products of runtime sizes feeding index arithmetic without being widened to"
     " 64 bits"},
    {"triton_masks", "triton_masks.txt",
     "TRITON MASKS: tl.load/tl.store on added lines with no mask, or masked loads with no"
     " other="},
    {"pattern_rules", "pattern_rules.txt",
     "PATTERN RULES: the rules catalogue's line patterns found on added lines"},
    {"core_tiers", "core_tiers.txt",
     "CORE FILES: the Tier 1/2 files (central, or included widely) the change touches"},
};

/* Phrases of a "nothing found" status that mean the check had nothing to compare with: the
 * question was not answered, which the file must not present as a clean result. */
static const char *const NOT_CHECKED[] = {
    "the tree has no ",
    "no commit message or pull-request description",
};

static const axis_info *axis_of(const char *collector)
{
    for (size_t i = 0; i < sizeof AXES / sizeof *AXES; i++)
        if (!strcmp(AXES[i].collector, collector))
            return &AXES[i];
    return NULL;
}

static const char *rules_of(const char *collector)
{
    for (size_t i = 0; collectors_all[i]; i++)
        if (!strcmp(collectors_all[i]->name, collector))
            return collectors_all[i]->rules;
    return "";
}

/* One finding as a block. */
static void add_block(strbuf *out, const finding *f)
{
    bool candidate = f->severity_note != NULL;
    sb_addf(out, "%s:%d  [%s] %s\n", f->path, f->range.line, f->rule_id,
            candidate ? "candidate (information; lowered from warning by the precision policy)"
                      : severity_name(f->sev));
    sb_addf(out, "  %s\n", f->message);
    for (size_t k = 0; k < f->nrelated; k++)
        sb_addf(out, "  -> %s:%d: %s\n", f->related[k].path, f->related[k].range.line,
                f->related[k].message);
    if (candidate)
        sb_addf(out, "  why a candidate: %s\n", f->severity_note);
    exhibit_text(out, f->exhibits, f->nexhibits, 2);
    sb_addc(out, '\n');
}

typedef struct axis_counts {
    size_t n, warning, candidate, information, hint;
} axis_counts;

/* The status a collector reported, split from "name: status". */
static const char *status_text(const char *line, size_t name_len)
{
    return line[name_len] == ':' ? str_lskip(line + name_len + 1) : line;
}

/* True when the status says the axis was not checked. */
static bool not_checked(const char *status)
{
    if (str_starts(status, "skipped"))
        return true;
    if (!str_starts(status, "nothing found"))
        return false;
    for (size_t i = 0; i < sizeof NOT_CHECKED / sizeof *NOT_CHECKED; i++)
        if (str_contains(status, NOT_CHECKED[i]))
            return true;
    return false;
}

/* The file of one collector. */
static void axis_file(const cli_review *cr, const char *name, const char *status,
                      const char *answers, strbuf *out, packet_summary *sum, const char *file)
{
    axis_counts k = {0};
    strbuf blocks;
    sb_init(&blocks);
    const finding_list *fl = &cr->rev->findings;
    for (size_t i = 0; i < fl->n; i++) {
        const finding *f = &fl->items[i];
        if (!f->collector || strcmp(f->collector, name))
            continue;
        add_block(&blocks, f);
        k.n++;
        if (f->severity_note)
            k.candidate++;
        else if (f->sev == SEV_WARNING)
            k.warning++;
        else if (f->sev == SEV_INFORMATION)
            k.information++;
        else
            k.hint++;
    }
    const char *rules = rules_of(name);
    if (!k.n && not_checked(status)) {
        const char *why = status;
        if (str_starts(why, "skipped"))
            why = str_lskip(why + 7);
        else if (str_starts(why, "nothing found"))
            why = str_lskip(why + 13);
        if (*why == ':')
            why = str_lskip(why + 1);
        sb_addf(out, "SKIPPED: %s\n(%s answers: %s; rules %s)\n", why, file, answers, rules);
        packet_summary_add(sum, file, "SKIPPED: %s", why);
        sb_free(&blocks);
        return;
    }
    sb_addf(out, "%s (rules %s). One block per finding: where, rule and severity, the "
                 "judgement, then its evidence (->).\n", answers, rules);
    if (k.n) {
        sb_addc(out, '\n');
        sb_add(out, blocks.buf, blocks.len);
    }
    else if (str_starts(status, "nothing found"))
        sb_addf(out, "%s\n", status);
    else
        sb_addf(out, "nothing left to show: %s, but suppressions or disabled rules removed every "
                     "finding\n", status);
    sb_addf(out, "END %s: %zu item%s (%zu warning, %zu candidate, %zu information, %zu hint); "
                 "collector %s: %s\n", file, k.n, k.n == 1 ? "" : "s", k.warning, k.candidate,
            k.information, k.hint, name, status);
    if (k.n)
        packet_summary_add(sum, file, "found %zu (%zu warning, %zu candidate, %zu information, "
                                      "%zu hint)", k.n, k.warning, k.candidate, k.information, k.hint);
    else
        packet_summary_add(sum, file, "nothing found");
    sb_free(&blocks);
}

int packet_axes(const char *dir, const cli_review *cr, packet_summary *sum, char **cause)
{
    const review *r = cr->rev;
    for (size_t i = 0; i < r->ncollectors; i++) {
        const char *line = r->collector_status[i];
        size_t nl = strcspn(line, ":");
        char *name = xstrndup(line, nl);
        const axis_info *ax = axis_of(name);
        char *file = ax ? xstrdup(ax->file) : xasprintf("%s.txt", name);
        char *status = xstrdup(status_text(line, nl));
        strbuf out;
        sb_init(&out);
        axis_file(cr, name, status, ax ? ax->answers : name, &out, sum, file);
        int rc = packet_write(dir, file, &out, cause);
        sb_free(&out);
        free(status);
        free(file);
        free(name);
        if (rc < 0)
            return -1;
    }
    return 0;
}
