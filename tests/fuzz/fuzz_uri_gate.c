/* libFuzzer target for lsp/uri.c and engine/path_gate.c. A URI that decodes to a path must
 * come back from its own encoding; a normalised relative path never climbs, never starts with
 * "/", never holds "." or ".." components; and whatever the gate opens under a tree that
 * holds links to the outside (made once, under /tmp) lies inside that tree, through openat2
 * and through the O_NOFOLLOW walk alike. */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/path_gate.h"
#include "engine/util.h"
#include "lsp/uri.h"

static char root[PATH_MAX];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char base[] = "/tmp/rl-fuzz-gate-XXXXXX";
    if (!mkdtemp(base))
        abort();
    char *cmd = xasprintf("set -e; cd %s; mkdir -p root/a/b outside; echo x > root/a/f.cu;"
                          "echo s > outside/secret; ln -s ../../outside root/a/out;"
                          "ln -s f.cu root/a/lnk; ln -s /etc root/etc; ln -s .. root/up", base);
    if (system(cmd) != 0)
        abort();
    free(cmd);
    char *r = xasprintf("%s/root", base);
    if (!realpath(r, root))
        abort();
    free(r);
    return 0;
}

/* An opened descriptor must resolve inside root. */
static void check_inside(int fd)
{
    if (fd < 0)
        return;
    char link[64], where[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, where, sizeof where - 1);
    close(fd);
    if (n < 0)
        return;
    where[n] = '\0';
    size_t rl = strlen(root);
    if (strncmp(where, root, rl) != 0 || (where[rl] != '\0' && where[rl] != '/'))
        abort(); /* escaped the tree */
}

/* A normalised path has no empty, "." or ".." components and no leading slash. */
static void check_normal(const char *n)
{
    if (n[0] == '/')
        abort();
    for (const char *p = n; *p;) {
        const char *e = strchr(p, '/');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        if (k == 0 || (k == 1 && p[0] == '.') || (k == 2 && p[0] == '.' && p[1] == '.'))
            abort();
        p += k + (e ? 1 : 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = xstrndup((const char *)data, size); /* stops at a NUL, as C strings do */
    const char *why = NULL;
    char *path = uri_to_path(s, &why);
    if (path) {
        char *u = uri_from_path(path);
        char *again = uri_to_path(u, &why);
        if (!again || strcmp(again, path) != 0)
            abort();
        free(again);
        free(u);
        free(path);
    }
    char *n = gate_normalize(s, &why);
    if (n) {
        check_normal(n);
        free(n);
    }
    check_inside(gate_open(root, s, O_RDONLY | O_NONBLOCK));
    check_inside(gate_open_walk(root, s, O_RDONLY | O_NONBLOCK));
    check_inside(gate_open(root, s, O_PATH | O_DIRECTORY));
    size_t len;
    char *cause = NULL;
    char *t = gate_read(root, s, 1 << 16, &len, &cause);
    if (t && strcmp(t, "x\n") != 0)
        abort(); /* the only regular file in the tree says x */
    free(t);
    free(cause);
    char *r = gate_refusal(root, s);
    free(r);
    free(s);
    return 0;
}
