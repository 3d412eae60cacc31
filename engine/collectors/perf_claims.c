/* The perf-claims collector (rules P1 and P3): numeric performance claims in prose — a commit
 * message or a pull-request description — and whether each says what it is measured against.
 *
 * Prose only, on purpose: kernel comments are full of `4x DS_READ`, `<4 x i32>` and
 * `5% of elements`, and mining code made 61% of the "unbaselined claims" shapes and vector
 * widths. A claim line holds a number with a unit (x, %, us, ms, TFLOPS, GB/s, tok/s) or a
 * duration transition ("from 100.0 s to 62-67 s", aiter#5221); GPU counts ("8x MI355X") and
 * model/dtype names are set aside first, and shares ("33% of GPU time") are not claims. A line
 * names its baseline when it says vs/baseline/before/after/main/torch/CK/speedup… (also in
 * Chinese, as aiter descriptions often are), carries a signed percentage, is a duration
 * transition, or is a table row under a header that names the baseline (aiter#4443).
 *
 * Every unbaselined claim line gets a P1 Hint; when the text has claims but no GPU model or no
 * command to rerun them, its first claim line gets one P3 Hint. The collector reads files of
 * the change named COMMIT_EDITMSG / MERGE_MSG or Markdown named like a pull-request
 * description (pr.md, PR_DESCRIPTION.md, pull_request_body.md, …), reporting only on lines the
 * change adds, and reads whole the side buffers that are git's commit message or a pull-request
 * description (`check --pr-body FILE`). */
#include "engine/collectors/perf_claims.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/collector.h"
#include "engine/regex.h"

#define DUR "\\d+(?:\\.\\d+)?(?:\\s*-\\s*\\d+(?:\\.\\d+)?)?\\s*(?:s|sec|secs|seconds?|min|minutes?)\\b"

typedef struct claim_rx {
    regex *num, *dur, *hw, *baseline, *share, *count, *times, *signed_pct;
    regex *gpu, *command;
} claim_rx;

/* Compile the patterns (constants; a failure would be a bug, and then nothing matches). */
static void claim_rx_init(claim_rx *r)
{
    r->num = rx_compile("(?<![A-Za-z0-9])\\d+(?:\\.\\d+)?\\s*(?:x\\b|%|\\bus\\b|\\b[mu]s\\b|"
                        "TFLOPS?\\b|GB/s|tok/s)", true, NULL);
    r->dur = rx_compile("(?:from\\s+)?\\*{0,2}" DUR "\\*{0,2}\\s*(?:to|\\x{2192}|->|\\x{2014}>)"
                        "\\s*\\*{0,2}" DUR, true, NULL);
    r->hw = rx_compile("\\b(?:MI\\d+\\w*|gfx\\d+|CDNA\\d*|RDNA\\d*|fp\\d+|bf\\d+|int\\d+|e\\dm\\d)",
                       true, NULL);
    r->baseline = rx_compile("\\bvs\\.?\\b|versus|baseline|\\bbefore\\b|\\bafter\\b|\\bmain\\b|"
                             "torch|\\bck\\b|hipblas|current|previous|reference|speedup|faster|"
                             "slower|improv|regress|\\x{2192}|->|"
                             "\\x{5bf9}\\x{6bd4}|\\x{57fa}\\x{7ebf}|\\x{4e4b}\\x{524d}|"
                             "\\x{4e4b}\\x{540e}|\\x{539f}\\x{6765}|\\x{6539}\\x{8fdb}|"
                             "\\x{63d0}\\x{5347}|\\x{52a0}\\x{901f}|\\x{4f18}\\x{5316}\\x{524d}|"
                             "\\x{4f18}\\x{5316}\\x{540e}|\\x{63d0}\\x{901f}", true, NULL);
    r->share = rx_compile("%\\s*(?:of|prefill|decode|busy|utili|occupan|GPU time|end of|elements)"
                          "|of\\s+(?:GPU|total|kernel)\\s+time", true, NULL);
    r->count = rx_compile("\\b\\d+\\s*[x\\x{d7}]\\s*(?=MI\\d|gfx|GPU|node|card|rank|device|CU\\b|"
                          "warp|wave|stage|shard)", true, NULL);
    r->times = rx_compile("\\d\\s*x\\b", false, NULL);
    r->signed_pct = rx_compile("[+\\-\\x{2212}]\\s*\\**\\d+(?:\\.\\d+)?\\s*%", false, NULL);
    r->gpu = rx_compile("\\bMI\\d{3}|\\bgfx\\d{3,4}|\\bH100\\b|\\bH200\\b|\\bB200\\b", true, NULL);
    r->command = rx_compile("```|\\bpython3?\\s|\\bpytest\\b|\\btorchrun\\b|\\bbash\\s|\\.sh\\b|"
                            "\\.py\\b|\\bbenchmark script", true, NULL);
}

/* Free the patterns. */
static void claim_rx_free(claim_rx *r)
{
    regex **all[] = {&r->num, &r->dur, &r->hw, &r->baseline, &r->share, &r->count,
                     &r->times, &r->signed_pct, &r->gpu, &r->command};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        rx_free(*all[i]);
}

/* True when rx matches s. */
static bool has(const regex *rx, const char *s)
{
    return rx && rx_search(rx, s, strlen(s), NULL, NULL) == 1;
}

/* s with every match of rx replaced by one space (a new string). */
static char *blank_matches(const regex *rx, const char *s)
{
    strbuf sb;
    sb_init(&sb);
    size_t n = strlen(s), off = 0, st, en;
    while (rx && off <= n && rx_search(rx, s + off, n - off, &st, &en) == 1) {
        sb_add(&sb, s + off, st);
        sb_addc(&sb, ' ');
        if (en == st) {
            if (off + st < n)
                sb_addc(&sb, s[off + st]);
            en = st + 1;
        }
        off += en;
    }
    if (off < n)
        sb_add(&sb, s + off, n - off);
    if (!sb.buf)
        sb_adds(&sb, "");
    return sb_detach(&sb);
}

/* The claimed numbers of a line (number and unit, white space dropped), comma-joined. */
static char *claimed_numbers(const regex *num, const char *s)
{
    strbuf sb;
    sb_init(&sb);
    size_t n = strlen(s), off = 0, st, en;
    while (off < n && rx_search(num, s + off, n - off, &st, &en) == 1) {
        if (sb.len)
            sb_adds(&sb, ", ");
        for (size_t i = off + st; i < off + en; i++)
            if (!isspace((unsigned char)s[i]))
                sb_addc(&sb, s[i]);
        off += en > st ? en : st + 1;
    }
    if (!sb.buf)
        sb_adds(&sb, "");
    return sb_detach(&sb);
}

/* True when path is a commit-message buffer. */
static bool is_commit_msg(const char *path)
{
    return str_ends(path, "COMMIT_EDITMSG") || str_ends(path, "MERGE_MSG");
}

/* Scan text; when wanted is non-NULL only lines i with wanted[i] (1-based) are reported.
 * Counts claim lines and unbaselined ones. */
static void scan(const char *path, const char *text, size_t len, const bool *wanted,
                 size_t nwanted, finding_list *out, int *nclaims, int *nbare, int *np3)
{
    claim_rx r;
    claim_rx_init(&r);
    bool commit = is_commit_msg(path);
    bool header = false;
    int first_claim = 0;
    int line = 0;
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        line++;
        char *raw = xstrndup(p, (size_t)(e - p));
        p = e + 1;
        if (commit && raw[0] == '#') {
            bool scissors = strstr(raw, ">8") != NULL;
            free(raw);
            if (scissors)
                break;
            continue;
        }
        char *ln = blank_matches(r.count, raw);
        free(raw);
        const char *t = str_lskip(ln);
        int pipes = 0;
        for (const char *q = ln; *q; q++)
            pipes += *q == '|';
        bool is_row = *t == '|' && pipes >= 3;
        char *stripped = blank_matches(r.hw, ln);
        if (is_row && has(r.baseline, ln) && !has(r.num, stripped)) {
            header = true;
            free(stripped);
            free(ln);
            continue;
        }
        if (!is_row)
            header = false;
        size_t ds, de;
        bool dur = r.dur && rx_search(r.dur, stripped, strlen(stripped), &ds, &de) == 1;
        bool claim = has(r.num, stripped) || dur;
        if (claim && has(r.share, ln) && !has(r.times, stripped))
            claim = false;
        if (claim) {
            (*nclaims)++;
            if (!first_claim)
                first_claim = line;
            bool based = has(r.baseline, ln) || has(r.signed_pct, ln) || dur || (is_row && header);
            bool report = !wanted || ((size_t)line < nwanted && wanted[line]);
            if (!based) {
                (*nbare)++;
                if (report) {
                    char *nums = claimed_numbers(r.num, stripped);
                    findings_add(out, "P1", SEV_HINT, path, line,
                                 "%s with nothing said about what it is measured against — "
                                 "name the other side (main, torch, CK, the previous kernel) "
                                 "and the shapes", nums);
                    free(nums);
                }
            }
        }
        free(stripped);
        free(ln);
    }
    if (*nclaims && (!wanted || ((size_t)first_claim < nwanted && wanted[first_claim]))) {
        char *all = xstrndup(text, len);
        bool gpu = has(r.gpu, all), cmd = has(r.command, all);
        if (!gpu || !cmd) {
            (*np3)++;
            findings_add(out, "P3", SEV_HINT, path, first_claim,
                         "%d performance claim line%s, but %s%s%s given — nobody could rerun "
                         "the measurement", *nclaims, *nclaims == 1 ? "" : "s",
                         gpu ? "" : "no GPU model", !gpu && !cmd ? " and " : "",
                         cmd ? "" : "no command or script");
        }
        free(all);
    }
    claim_rx_free(&r);
}

void perf_claims_scan_text(const char *path, const char *text, size_t len, finding_list *out)
{
    int nclaims = 0, nbare = 0, np3 = 0;
    scan(path, text, len, NULL, 0, out, &nclaims, &nbare, &np3);
}

/* True when a file of the change is a commit message or a PR description in Markdown. */
static bool is_prose_file(const char *path)
{
    if (is_commit_msg(path))
        return true;
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n < 4 || strcasecmp(b + n - 3, ".md") != 0)
        return false;
    char *low = xstrndup(b, n - 3);
    for (char *q = low; *q; q++)
        *q = (char)tolower((unsigned char)*q);
    for (char *q = low; *q; q++)
        if (*q == '-' || *q == ' ' || *q == '.')
            *q = '_';
    bool yes = strstr(low, "template") == NULL &&
               (strcmp(low, "pr") == 0 || str_starts(low, "pr_") || str_ends(low, "_pr") ||
                strstr(low, "pull_request") || strstr(low, "pullrequest") ||
                strstr(low, "pr_description") || strstr(low, "pr_body"));
    free(low);
    return yes;
}

/* Run the collector over the change. */
static void perf_claims_run(collector_ctx *ctx)
{
    const change *c = ctx->chg;
    size_t nfiles = 0;
    int nclaims = 0, nbare = 0, np3 = 0;
    char *first_skip = NULL;
    for (size_t i = 0; i < c->nfiles; i++) {
        const change_file *f = &c->files[i];
        if (f->is_deleted || f->is_skipped || !f->nadd || !is_prose_file(f->path))
            continue;
        size_t len;
        char *why = NULL;
        char *text = change_head_text(c, f, &len, &why);
        if (!text) {
            if (!first_skip)
                first_skip = why;
            else
                free(why);
            continue;
        }
        nfiles++;
        /* report only on the lines this change adds */
        int nl = 1;
        for (size_t k = 0; k < len; k++)
            nl += text[k] == '\n';
        bool *wanted = xcalloc((size_t)nl + 2, sizeof *wanted);
        for (size_t k = 0; k < f->nlines; k++)
            if (f->lines[k].kind == '+' && f->lines[k].new_no > 0 && f->lines[k].new_no <= nl)
                wanted[f->lines[k].new_no] = true;
        scan(f->path, text, len, wanted, (size_t)nl + 2, ctx->out, &nclaims, &nbare, &np3);
        free(wanted);
        free(text);
    }
    /* git's commit-message buffer open in the editor, or a pull-request description: never
       part of the change, read whole */
    for (size_t i = 0; i < ctx->nside_buffers; i++) {
        const collector_buffer *b = &ctx->side_buffers[i];
        if (!b->description && strcmp(b->path, ".git/COMMIT_EDITMSG") != 0 &&
            strcmp(b->path, ".git/MERGE_MSG") != 0)
            continue;
        size_t before = ctx->out->n;
        perf_claims_scan_text(b->path, b->text, b->len, ctx->out);
        nfiles++;
        for (size_t k = before; k < ctx->out->n; k++) {
            nclaims++;
            if (!strcmp(ctx->out->items[k].rule_id, "P1"))
                nbare++;
            else
                np3++;
        }
    }
    if (!nfiles && first_skip)
        collector_status(ctx, "skipped: %s", first_skip);
    else if (!nfiles)
        collector_status(ctx, "nothing found: no commit message or pull-request description in "
                         "the change");
    else if (nbare || np3)
        collector_status(ctx, "found %d of %d claim line%s naming no baseline%s", nbare, nclaims,
                         nclaims == 1 ? "" : "s",
                         np3 ? ", and claims nobody could rerun (no GPU model or command)" : "");
    else if (nclaims)
        collector_status(ctx, "nothing found: every one of %d claim line%s names its baseline",
                         nclaims, nclaims == 1 ? "" : "s");
    else
        collector_status(ctx, "nothing found: no numeric performance claim in %zu description%s",
                         nfiles, nfiles == 1 ? "" : "s");
    free(first_skip);
}

const collector collector_perf_claims = {
    .name = "perf_claims",
    .rules = "P1 P3",
    .run = perf_claims_run,
};
