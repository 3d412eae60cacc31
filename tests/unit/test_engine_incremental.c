/* Unit tests of the engine's incremental mode (engine/engine.c) on a real git repository
 * made by the test with git: only dirty paths and overlays are re-diffed, a moved base or an
 * all-dirty mark rebuilds everything, and the result equals a full rebuild. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

static char dir[256];

static void sh(const char *fmt, const char *arg)
{
    char *cmd = xasprintf(fmt, arg);
    char *full = xasprintf("cd %s && %s >/dev/null 2>&1", dir, cmd);
    if (system(full) != 0)
        fprintf(stderr, "  command failed: %s\n", cmd);
    free(cmd);
    free(full);
}

static void write_file(const char *rel, const char *text)
{
    char *p = xasprintf("%s/%s", dir, rel);
    FILE *f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
    free(p);
}

/* Paths of the review's change, space separated, in order. */
static char *paths(engine *e)
{
    review *r = NULL;
    char *cause = NULL;
    if (engine_review(e, &r, &cause) < 0) {
        fprintf(stderr, "  review failed: %s\n", cause);
        free(cause);
        return xstrdup("(failed)");
    }
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < r->chg->nfiles; i++)
        sb_addf(&sb, "%s%s", i ? " " : "", r->chg->files[i].path);
    review_free(r);
    return sb_detach(&sb);
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/review-lsp-inc.%d", (int)getpid());
    char *cmd = xasprintf("rm -rf %s && mkdir -p %s", dir, dir);
    if (system(cmd) != 0)
        fprintf(stderr, "  cannot make %s\n", dir);
    free(cmd);
    sh("git init -q -b main && git config user.email t@example.com && git config user.name t%s", "");
    write_file("a.py", "a = 1\n");
    write_file("b.py", "b = 1\n");
    sh("git add -A && git commit -q -m base%s", "");
}

static void teardown(void)
{
    char *cmd = xasprintf("rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "  cannot remove %s\n", dir);
    free(cmd);
}

TEST(dirty_paths_and_overlays)
{
    setup();
    char *cause = NULL;
    engine *e = engine_open_repo(dir, NULL, &cause);
    CHECK(e != NULL);
    engine_set_incremental(e, true);
    write_file("a.py", "a = 2\n");
    char *p = paths(e);
    CHECK_STR(p, "a.py");
    free(p);
    /* b.py changes on disk, but nobody says so: the cached change stands */
    write_file("b.py", "b = 2\n");
    p = paths(e);
    CHECK_STR(p, "a.py");
    free(p);
    engine_mark_dirty(e, "b.py");
    p = paths(e);
    CHECK_STR(p, "a.py b.py");
    free(p);
    /* an unsaved buffer equal to the base makes a.py stop differing */
    engine_set_overlay(e, "a.py", "a = 1\n", 6);
    p = paths(e);
    CHECK_STR(p, "b.py");
    free(p);
    engine_drop_overlay(e, "a.py");
    p = paths(e);
    CHECK_STR(p, "b.py a.py");
    free(p);
    /* a new file and a deletion, marked dirty */
    write_file("c.py", "c = 1\n");
    sh("rm %s", "b.py");
    engine_mark_dirty(e, "c.py");
    engine_mark_dirty(e, "b.py");
    review *r = NULL;
    CHECK(engine_review(e, &r, &cause) == 0);
    CHECK_INT(r->chg->nfiles, 3);
    for (size_t i = 0; i < r->chg->nfiles; i++) {
        if (!strcmp(r->chg->files[i].path, "c.py"))
            CHECK(r->chg->files[i].is_new);
        if (!strcmp(r->chg->files[i].path, "b.py"))
            CHECK(r->chg->files[i].is_deleted);
    }
    review_free(r);
    /* committing moves the base (main is the target): everything is rebuilt, nothing differs */
    sh("git add -A && git commit -q -m next%s", "");
    p = paths(e);
    CHECK_STR(p, "");
    free(p);
    engine_free(e);
    teardown();
}

TEST(incremental_equals_full)
{
    setup();
    char *cause = NULL;
    engine *inc = engine_open_repo(dir, NULL, &cause);
    engine_set_incremental(inc, true);
    char *p = paths(inc);
    free(p);
    write_file("a.py", "import os\nX = os.environ.get('AITER_X')\n");
    engine_mark_dirty(inc, "a.py");
    engine *full = engine_open_repo(dir, NULL, &cause);
    review *ri = NULL, *rf = NULL;
    CHECK(engine_review(inc, &ri, &cause) == 0);
    CHECK(engine_review(full, &rf, &cause) == 0);
    strbuf a, b;
    sb_init(&a);
    sb_init(&b);
    derive_format(&ri->derived, &a);
    derive_format(&rf->derived, &b);
    CHECK_STR(a.buf, b.buf);
    CHECK(strstr(a.buf, "new-env-var") != NULL);
    CHECK_INT(ri->findings.n, rf->findings.n);
    sb_free(&a);
    sb_free(&b);
    review_free(ri);
    review_free(rf);
    engine_free(inc);
    engine_free(full);
    teardown();
}

TEST(settings_change_rebuilds)
{
    setup();
    char *cause = NULL;
    engine *e = engine_open_repo(dir, NULL, &cause);
    engine_set_incremental(e, true);
    char *p = paths(e);
    CHECK_STR(p, "");
    free(p);
    /* changed on disk with nobody telling the engine: a new setting still re-reads the tree */
    write_file("b.py", "b = 3\n");
    p = paths(e);
    CHECK_STR(p, "");
    free(p);
    engine_settings s = {.max_file_bytes = 1u << 20};
    engine_configure(e, &s);
    p = paths(e);
    CHECK_STR(p, "b.py");
    free(p);
    engine_free(e);
    teardown();
}

/* The status line of collector name in a review of e (a new string; "" when absent). */
static char *status_of(engine *e, const char *name)
{
    review *r = NULL;
    char *cause = NULL;
    if (engine_review(e, &r, &cause) < 0) {
        fprintf(stderr, "  review failed: %s\n", cause);
        free(cause);
        return xstrdup("(failed)");
    }
    char *out = NULL;
    size_t n = strlen(name);
    for (size_t i = 0; i < r->ncollectors && !out; i++)
        if (!strncmp(r->collector_status[i], name, n) && r->collector_status[i][n] == ':')
            out = xstrdup(r->collector_status[i]);
    review_free(r);
    return out ? out : xstrdup("");
}

static const char COPY_BASE[] =
    "#include \"include/tile.h\"\n"
    "__global__ void copy_kernel(const float* src, float* dst) { dst[0] = src[0]; }\n";
static const char COPY_HEAD[] =
    "#include \"include/tile.h\"\n"
    "__global__ void copy_kernel(const float* src, float* dst) { dst[0] = src[0]; }\n"
    "TILE_FN void copy_tile(float* dst, const float* src, int n) {\n"
    "    if (threadIdx.x < n) dst[threadIdx.x] = src[threadIdx.x];\n"
    "}\n";
static const char TILE_WITH_MACRO[] = "#pragma once\n#define TILE_FN inline __device__\n";

/* What a header defines reaches the files that include it on the next review, whether the
 * header changes in an unsaved buffer or on disk, while reviews in between reuse what the
 * header reader learned: each status line equals a cold engine's on the same tree. */
TEST(header_edits_reach_the_files_including_them)
{
    setup();
    sh("mkdir -p csrc/include%s", "");
    write_file("csrc/include/tile.h", "#pragma once\n");
    write_file("csrc/copy.cu", COPY_BASE);
    sh("git add -A && git commit -q -m tile%s", "");
    write_file("csrc/copy.cu", COPY_HEAD);
    char *cause = NULL;
    engine *e = engine_open_repo(dir, NULL, &cause);
    engine_set_incremental(e, true);
    char *unknown = status_of(e, "guards");
    CHECK(strstr(unknown, "unparsed") != NULL); /* TILE_FN is nothing the parser knows */
    char *again = status_of(e, "guards");
    CHECK_STR(again, unknown);
    /* the header defines it in an unsaved buffer: nothing on disk changed */
    engine_set_overlay(e, "csrc/include/tile.h", TILE_WITH_MACRO, strlen(TILE_WITH_MACRO));
    char *known = status_of(e, "guards");
    CHECK(strstr(known, "unparsed") == NULL);
    engine *cold = engine_open_repo(dir, NULL, &cause);
    engine_set_overlay(cold, "csrc/include/tile.h", TILE_WITH_MACRO, strlen(TILE_WITH_MACRO));
    char *cold_known = status_of(cold, "guards");
    CHECK_STR(known, cold_known);
    engine_free(cold);
    /* the buffer is closed: the header is its committed self again */
    engine_drop_overlay(e, "csrc/include/tile.h");
    char *dropped = status_of(e, "guards");
    CHECK_STR(dropped, unknown);
    /* then it changes on disk, and the engine is told */
    write_file("csrc/include/tile.h", TILE_WITH_MACRO);
    engine_mark_dirty(e, "csrc/include/tile.h");
    char *on_disk = status_of(e, "guards");
    CHECK_STR(on_disk, known);
    free(unknown);
    free(again);
    free(known);
    free(cold_known);
    free(dropped);
    free(on_disk);
    engine_free(e);
    teardown();
}

UNIT_MAIN("engine_incremental", UNIT_CASE(dirty_paths_and_overlays), UNIT_CASE(incremental_equals_full),
          UNIT_CASE(settings_change_rebuilds), UNIT_CASE(header_edits_reach_the_files_including_them))
