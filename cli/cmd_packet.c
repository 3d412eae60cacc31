/* `review-lsp packet --out DIR`: the review packet (packet.h) — one review of the change, the
 * same options as check, written as the work directory aiter's review-pr workflow reads after
 * its triage step (rules.txt, rules_expanded.txt, applies.txt, merge_target.txt, one file per
 * evidence axis, evidence.txt), and a one-line-per-file summary on stdout. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/packet.h"

void packet_summary_add(packet_summary *s, const char *file, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = xvasprintf(fmt, ap);
    va_end(ap);
    *ARRAY_PUSH(s->lines, s->n, s->cap) = xasprintf("  %-19s %s", file, what);
    free(what);
}

int packet_write(const char *dir, const char *name, const strbuf *text, char **cause)
{
    char *path = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(text->buf ? text->buf : "", 1, text->len, f) == text->len;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        *cause = xasprintf("cannot write %s: %s", path, strerror(errno));
    free(path);
    return ok ? 0 : -1;
}

/* mkdir -p dir. Returns 0, or -1 with *cause. */
static int make_dir(const char *dir, char **cause)
{
    char *p = xstrdup(dir);
    for (char *s = p + 1;; s++) {
        bool end = *s == '\0';
        if (*s == '/' || end) {
            *s = '\0';
            struct stat st;
            if (mkdir(p, 0777) != 0 && (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))) {
                *cause = xasprintf("cannot create the directory %s: %s", p,
                                   errno == EEXIST ? "a file is in the way" : strerror(errno));
                free(p);
                return -1;
            }
            if (end)
                break;
            *s = '/';
        }
    }
    free(p);
    return 0;
}

/* Take "--out DIR" / "--out=DIR" out of argv; the other arguments go to rest. */
static int take_out(int argc, char **argv, char **rest, int *nrest, const char **out)
{
    *nrest = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--out")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "review-lsp: --out needs a value\n");
                return EXIT_USAGE;
            }
            *out = argv[++i];
        } else if (str_starts(argv[i], "--out=")) {
            *out = argv[i] + 6;
        } else {
            rest[(*nrest)++] = argv[i];
        }
    }
    if (!*out || !**out) {
        fprintf(stderr, "review-lsp packet: --out DIR is required (the directory to write the "
                        "packet into)\n");
        return EXIT_USAGE;
    }
    return 0;
}

/* rules.txt and rules_expanded.txt. */
static int write_rules(const char *dir, const cli_review *cr, packet_summary *sum, char **cause)
{
    strbuf rules, exp;
    sb_init(&rules);
    sb_init(&exp);
    packet_rules_txt(cr, &rules);
    char *missing = NULL;
    const rule_catalog *cat = engine_catalog(cr->eng);
    size_t nbodies = packet_rules_expanded(rules.buf ? rules.buf : "", rules.len, cat->source,
                                           cat->source_len, &exp, &missing);
    const derive_result *d = &cr->rev->derived;
    packet_summary_add(sum, "rules.txt", "%zu famil%s derived%s", d->n, d->n == 1 ? "y" : "ies",
                       d->status == DERIVE_OK ? "" : " (fail-open: every rule)");
    if (missing) {
        fprintf(stderr, "MISSING-RULE-TEXT: %s derived but not found in %s\n", missing,
                cat->path);
        packet_summary_add(sum, "rules_expanded.txt", "%zu rule bodies from %s; MISSING-RULE-TEXT: %s",
                           nbodies, cat->path, missing);
    } else {
        packet_summary_add(sum, "rules_expanded.txt", "%zu rule bodies from %s", nbodies, cat->path);
    }
    free(missing);
    int rc = packet_write(dir, "rules.txt", &rules, cause);
    if (rc == 0)
        rc = packet_write(dir, "rules_expanded.txt", &exp, cause);
    sb_free(&rules);
    sb_free(&exp);
    return rc;
}

/* With timing (REVIEW_LSP_TIMING set), the time since *t0 spent on a step, on stderr; *t0
 * moves on. */
static void step_time(bool timing, const char *step, struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (timing)
        fprintf(stderr, "review-lsp: packet %s %.2f ms\n", step,
                (t1.tv_sec - t0->tv_sec) * 1e3 + (t1.tv_nsec - t0->tv_nsec) / 1e6);
    *t0 = t1;
}

/* Every file of the packet. */
static int write_packet(const char *dir, const cli_options *o, const cli_review *cr,
                        packet_evidence_job *evidence, packet_summary *sum, char **cause)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (write_rules(dir, cr, sum, cause) < 0)
        return -1;
    step_time(o->timing, "rules", &t0);
    strbuf applies, target, ev;
    sb_init(&applies);
    sb_init(&target);
    sb_init(&ev);
    packet_git(o, cr, &applies, &target, sum);
    step_time(o->timing, "applies and merge target", &t0);
    int rc = packet_write(dir, "applies.txt", &applies, cause);
    if (rc == 0)
        rc = packet_write(dir, "merge_target.txt", &target, cause);
    if (rc == 0)
        rc = packet_axes(dir, cr, sum, cause);
    step_time(o->timing, "axes", &t0);
    if (rc == 0) {
        packet_evidence(cr, evidence, &ev, sum);
        step_time(o->timing, "evidence", &t0);
        rc = packet_write(dir, "evidence.txt", &ev, cause);
    }
    sb_free(&applies);
    sb_free(&target);
    sb_free(&ev);
    return rc;
}

/* packet with parsed options, into dir. */
static int run_packet(const cli_options *o, const char *dir)
{
    if (strcmp(o->format, "text") || o->fail_on) {
        fprintf(stderr, "review-lsp packet: --format and --fail-on belong to check; the packet "
                        "is a directory of text files\n");
        return EXIT_USAGE;
    }
    char *cause = NULL;
    if (make_dir(dir, &cause) < 0) {
        fprintf(stderr, "review-lsp: %s\n", cause);
        free(cause);
        return EXIT_USAGE;
    }
    cli_review cr;
    /* evidence.txt reads only the change: it is gathered while the collectors run */
    packet_evidence_job evidence = {.timing = o->timing};
    int rc = cli_review_open_strict(o, &cr, packet_evidence_gather, &evidence);
    if (rc) {
        if (evidence.gathered)
            evidence_report_free(&evidence.report);
        return rc;
    }
    packet_summary sum = {0};
    rc = write_packet(dir, o, &cr, &evidence, &sum, &cause) < 0 ? EXIT_USAGE : EXIT_OK;
    if (evidence.gathered)
        evidence_report_free(&evidence.report);
    if (rc) {
        fprintf(stderr, "review-lsp: %s\n", cause);
        free(cause);
    } else {
        printf("review packet in %s (%zu files; base %s)\n", dir, sum.n, cr.rev->base_desc);
        for (size_t i = 0; i < sum.n; i++)
            printf("%s\n", sum.lines[i]);
    }
    for (size_t i = 0; i < sum.n; i++)
        free(sum.lines[i]);
    free(sum.lines);
    cli_review_close(&cr);
    return rc;
}

int cmd_packet(int argc, char **argv)
{
    char **rest = xcalloc((size_t)argc + 1, sizeof *rest);
    int nrest = 0;
    const char *dir = NULL;
    cli_options o;
    int rc = take_out(argc, argv, rest, &nrest, &dir);
    if (!rc) {
        rc = cli_parse(nrest, rest, "packet", &o);
        if (!rc)
            rc = run_packet(&o, dir);
        cli_options_free(&o);
    }
    free(rest);
    return rc;
}
