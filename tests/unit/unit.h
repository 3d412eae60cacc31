/* A tiny unit-test harness: TEST functions, CHECK assertions, and a main that runs the tests
 * listed in RUN_TESTS and prints one "PASS name" / "FAIL name" line per test for
 * tests/run-all.sh to count. */
#ifndef RL_UNIT_H
#define RL_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int unit_failed_now;

/* Remove a directory a test made (rm -rf); true when it went. */
static inline int unit_remove_tree(const char *dir)
{
    char cmd[4096];
    if (snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir) >= (int)sizeof cmd)
        return 0;
    return system(cmd) == 0;
}

/* Write text to root/rel, making the directories on the way; true when it was written. */
static inline int unit_put_file(const char *root, const char *rel, const char *text)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", root, rel) >= (int)sizeof path)
        return 0;
    for (char *p = path + strlen(root) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            unit_failed_now = 1;                                                       \
        }                                                                              \
    } while (0)

#define CHECK_STR(a, b)                                                                  \
    do {                                                                                 \
        const char *a_ = (a), *b_ = (b);                                                 \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                         \
            fprintf(stderr, "  %s:%d: CHECK_STR failed:\n    got:  %s\n    want: %s\n", \
                    __FILE__, __LINE__, a_ ? a_ : "(null)", b_ ? b_ : "(null)");        \
            unit_failed_now = 1;                                                         \
        }                                                                                \
    } while (0)

#define CHECK_INT(a, b)                                                                   \
    do {                                                                                  \
        long long a_ = (long long)(a), b_ = (long long)(b);                               \
        if (a_ != b_) {                                                                   \
            fprintf(stderr, "  %s:%d: CHECK_INT failed: %s == %lld, want %lld\n", __FILE__, \
                    __LINE__, #a, a_, b_);                                                \
            unit_failed_now = 1;                                                          \
        }                                                                                 \
    } while (0)

#define TEST(name) static void name(void)

typedef struct unit_case {
    const char *name;
    void (*fn)(void);
} unit_case;

#define UNIT_CASE(fn) {#fn, fn}

static inline int unit_main(const char *suite, const unit_case *cases, size_t n)
{
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        unit_failed_now = 0;
        cases[i].fn();
        printf("%s %s.%s\n", unit_failed_now ? "FAIL" : "PASS", suite, cases[i].name);
        failed += unit_failed_now;
    }
    fflush(stdout);
    return failed ? 1 : 0;
}

#define UNIT_MAIN(suite, ...)                                              \
    int main(void)                                                         \
    {                                                                      \
        static const unit_case cases[] = {__VA_ARGS__};                    \
        return unit_main(suite, cases, sizeof cases / sizeof cases[0]);    \
    }

#endif
