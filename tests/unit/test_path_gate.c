/* Unit tests of engine/path_gate.c on a real directory tree built here: normalisation, and
 * every way out of the root (.., absolute paths, a link to a file, a link to a directory, a
 * link inside the tree, a FIFO) refused both through openat2 and through the O_NOFOLLOW walk. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "engine/path_gate.h"
#include "engine/util.h"
#include "tests/unit/unit.h"

/* Normalise and return a static copy ("REFUSED" when refused). */
static const char *norm(const char *in)
{
    static char out[256];
    const char *why = NULL;
    char *n = gate_normalize(in, &why);
    snprintf(out, sizeof out, "%s", n ? n : "REFUSED");
    free(n);
    return out;
}

TEST(normalize_keeps_paths_inside)
{
    CHECK_STR(norm("a/b.cu"), "a/b.cu");
    CHECK_STR(norm("a//./b.cu"), "a/b.cu");
    CHECK_STR(norm("a/x/../b.cu"), "a/b.cu");
    CHECK_STR(norm("./a/"), "a");
    CHECK_STR(norm(""), "");
    CHECK_STR(norm("a/.."), "");
    CHECK_STR(norm("../secret/kern.cu"), "REFUSED");
    CHECK_STR(norm("a/../../etc/passwd"), "REFUSED");
    CHECK_STR(norm("/etc/passwd"), "REFUSED");
    CHECK_STR(norm("ws/../../x"), "REFUSED");
    CHECK_STR(norm("..."), "...");
}

/* A tree: root/{a/b.cu, a/inner -> b.cu, out -> OUTSIDE/secret.cu, dir -> OUTSIDE, fifo}. */
static char *make_tree(char *base)
{
    char *root = xasprintf("%s/root", base);
    char *cmd = xasprintf("set -e; mkdir -p %s/a %s/outside; printf 'secret\\n' > %s/outside/secret.cu;"
                          "printf 'kernel\\n' > %s/a/b.cu; ln -s b.cu %s/a/inner;"
                          "ln -s %s/outside/secret.cu %s/out; ln -s %s/outside %s/dir; mkfifo %s/fifo",
                          root, base, base, root, root, base, root, base, root, root);
    CHECK_INT(system(cmd), 0);
    free(cmd);
    return root;
}

/* Check one opener against the tree. */
static void check_opener(const char *root, int (*op)(const char *, const char *, int))
{
    int fd = op(root, "a/b.cu", O_RDONLY);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    fd = op(root, "a", O_RDONLY | O_DIRECTORY);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    static const struct {
        const char *rel;
        int err;
    } refused[] = {{"../outside/secret.cu", EXDEV}, {"/etc/passwd", EXDEV}, {"out", ELOOP},
                   {"dir/secret.cu", ELOOP},        {"a/inner", ELOOP},     {"a/../dir/secret.cu", ELOOP}};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        errno = 0;
        fd = op(root, refused[i].rel, O_RDONLY);
        CHECK_INT(fd, -1);
        if (errno != refused[i].err)
            fprintf(stderr, "  %s: errno %d, want %d\n", refused[i].rel, errno, refused[i].err);
        CHECK_INT(errno, refused[i].err);
        if (fd >= 0)
            close(fd);
    }
    fd = op(root, "dir", O_RDONLY | O_DIRECTORY);
    CHECK_INT(fd, -1);
    if (fd >= 0)
        close(fd);
}

TEST(open_refuses_every_way_out)
{
    char base[] = "/tmp/rl-gate-XXXXXX";
    CHECK(mkdtemp(base) != NULL);
    char *root = make_tree(base);
    check_opener(root, gate_open);
    check_opener(root, gate_open_walk);

    size_t len = 0;
    char *cause = NULL;
    char *t = gate_read(root, "a/b.cu", 0, &len, &cause);
    CHECK_STR(t, "kernel\n");
    free(t);
    t = gate_read(root, "out", 0, &len, &cause);
    CHECK(t == NULL);
    CHECK(cause && strstr(cause, "symbolic link") && strstr(cause, "outside/secret.cu"));
    free(cause);
    cause = NULL;
    t = gate_read(root, "../outside/secret.cu", 0, &len, &cause);
    CHECK(t == NULL && cause && strstr(cause, "leaves the tree"));
    free(cause);
    cause = NULL;
    /* A FIFO is refused without blocking. */
    t = gate_read(root, "fifo", 0, &len, &cause);
    CHECK(t == NULL && cause && strstr(cause, "not a regular file"));
    free(cause);
    cause = NULL;
    t = gate_read(root, "a/b.cu", 3, &len, &cause);
    CHECK(t == NULL && cause && strstr(cause, "larger than 3 bytes"));
    free(cause);

    CHECK(gate_is_file(root, "a/b.cu"));
    CHECK(!gate_is_file(root, "out"));
    CHECK(gate_is_dir(root, "a"));
    CHECK(gate_is_dir(root, ""));
    CHECK(!gate_is_dir(root, "dir"));
    CHECK(!gate_is_dir(root, "../outside"));
    char *target = gate_readlink(root, "a/inner");
    CHECK_STR(target, "b.cu");
    free(target);
    DIR *d = gate_opendir(root, "dir");
    CHECK(d == NULL);
    d = gate_opendir(root, "");
    CHECK(d != NULL);
    if (d)
        closedir(d);

    char *r = gate_refusal(root, "dir/secret.cu");
    CHECK(r && strstr(r, "symbolic link"));
    free(r);
    r = gate_refusal(root, "../../etc/passwd");
    CHECK(r && strstr(r, "leaves the tree"));
    free(r);
    CHECK(gate_refusal(root, "a/b.cu") == NULL);
    CHECK(gate_refusal(root, "a/missing.cu") == NULL);

    char *cmd = xasprintf("rm -rf %s", base);
    CHECK_INT(system(cmd), 0);
    free(cmd);
    free(root);
}

UNIT_MAIN("path_gate", UNIT_CASE(normalize_keeps_paths_inside), UNIT_CASE(open_refuses_every_way_out))
