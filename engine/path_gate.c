/* The path gate of path_gate.h: lexical normalisation, then a no-symlink open beneath the root
 * (openat2 when the kernel offers it, an O_NOFOLLOW walk otherwise), and the readers built on
 * it. Every refusal carries a cause that names the path. */
#include "engine/path_gate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __linux__
#include <linux/openat2.h>
#include <sys/syscall.h>
#endif

#include "engine/util.h"

char *gate_normalize(const char *rel, const char **why)
{
    if (!rel)
        rel = "";
    if (rel[0] == '/') {
        *why = "an absolute path";
        return NULL;
    }
    strbuf out;
    sb_init(&out);
    sb_adds(&out, "");
    for (const char *p = rel; *p;) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (out.len == 0) {
                sb_free(&out);
                *why = "the path leaves the tree";
                return NULL;
            }
            /* drop the last component (and the slash before it) */
            char *slash = strrchr(out.buf, '/');
            out.len = slash ? (size_t)(slash - out.buf) : 0;
            out.buf[out.len] = '\0';
        } else if (n > 0 && !(n == 1 && p[0] == '.')) {
            if (out.len)
                sb_addc(&out, '/');
            sb_add(&out, p, n);
        }
        p += n;
        while (*p == '/')
            p++;
    }
    return sb_detach(&out);
}

/* Open the root directory itself (trusted: it may be reached through a link). */
static int open_root(const char *root)
{
    return open(root && *root ? root : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* After a failed O_NOFOLLOW open of name in dir: ELOOP when name is a symbolic link (some
 * kernels answer ENOTDIR for O_DIRECTORY on a link), else the original error. */
static int link_errno(int dir, const char *name, int err)
{
    struct stat st;
    if (err != ELOOP && fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        return ELOOP;
    return err;
}

/* The O_NOFOLLOW walk over a normalised path ("" is the root). */
static int walk_open(int rootfd, const char *norm, int flags)
{
    if (!*norm) {
        if (flags & (O_DIRECTORY | O_PATH))
            return dup(rootfd);
        errno = EISDIR;
        return -1;
    }
    char *copy = xstrdup(norm);
    int dir = dup(rootfd);
    char *p = copy;
    for (char *slash; dir >= 0 && (slash = strchr(p, '/')) != NULL; p = slash + 1) {
        *slash = '\0';
        int next = openat(dir, p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int err = next < 0 ? link_errno(dir, p, errno) : 0;
        close(dir);
        dir = next;
        errno = err;
    }
    int fd = -1;
    if (dir >= 0) {
        fd = openat(dir, p, flags | O_NOFOLLOW | O_CLOEXEC);
        int err = fd < 0 ? link_errno(dir, p, errno) : 0;
        struct stat st;
        if (fd >= 0 && (flags & O_PATH) && (fstat(fd, &st) != 0 || S_ISLNK(st.st_mode))) {
            close(fd); /* O_PATH | O_NOFOLLOW opened the link itself */
            fd = -1;
            err = ELOOP;
        }
        close(dir);
        errno = err;
    }
    free(copy);
    return fd;
}

/* openat2 beneath rootfd with no symbolic links; -1 with errno ENOSYS when unavailable. */
static int beneath_open(int rootfd, const char *norm, int flags)
{
#if defined(__linux__) && defined(SYS_openat2)
    struct open_how how;
    memset(&how, 0, sizeof how);
    /* No O_NOFOLLOW: with O_PATH it would open a trailing link itself; RESOLVE_NO_SYMLINKS
     * already refuses every link, the trailing one included. */
    how.flags = (unsigned long long)(flags | O_CLOEXEC);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
    return (int)syscall(SYS_openat2, rootfd, *norm ? norm : ".", &how, sizeof how);
#else
    (void)rootfd;
    (void)norm;
    (void)flags;
    errno = ENOSYS;
    return -1;
#endif
}

/* gate_open and gate_open_walk: normalise, open the root, then resolve beneath it. */
static int open_under(const char *root, const char *rel, int flags, bool walk_only)
{
    const char *why;
    char *norm = gate_normalize(rel, &why);
    if (!norm) {
        errno = EXDEV;
        return -1;
    }
    int rootfd = open_root(root);
    int fd = -1, err = errno;
    if (rootfd >= 0) {
        fd = walk_only ? -1 : beneath_open(rootfd, norm, flags);
        err = errno;
        if (walk_only || (fd < 0 && (err == ENOSYS || err == EPERM))) {
            fd = walk_open(rootfd, norm, flags);
            err = errno;
        }
        close(rootfd);
    }
    free(norm);
    errno = err;
    return fd;
}

int gate_open(const char *root, const char *rel, int flags)
{
    return open_under(root, rel, flags, false);
}

int gate_open_walk(const char *root, const char *rel, int flags)
{
    return open_under(root, rel, flags, true);
}

/* Split a normalised path into its parent directory and last component (both new). */
static void split_last(const char *norm, char **parent, char **last)
{
    const char *slash = strrchr(norm, '/');
    *parent = slash ? xstrndup(norm, (size_t)(slash - norm)) : xstrdup("");
    *last = xstrdup(slash ? slash + 1 : norm);
}

int gate_lstat(const char *root, const char *rel, struct stat *st)
{
    const char *why;
    char *norm = gate_normalize(rel, &why);
    if (!norm) {
        errno = EXDEV;
        return -1;
    }
    char *parent, *last;
    split_last(norm, &parent, &last);
    int rc = -1;
    int pfd = gate_open(root, parent, O_PATH | O_DIRECTORY);
    if (pfd >= 0) {
        rc = *last ? fstatat(pfd, last, st, AT_SYMLINK_NOFOLLOW) : fstat(pfd, st);
        int err = errno;
        close(pfd);
        errno = err;
    }
    free(norm);
    free(parent);
    free(last);
    return rc;
}

bool gate_is_file(const char *root, const char *rel)
{
    struct stat st;
    return gate_lstat(root, rel, &st) == 0 && S_ISREG(st.st_mode);
}

bool gate_is_dir(const char *root, const char *rel)
{
    struct stat st;
    return gate_lstat(root, rel, &st) == 0 && S_ISDIR(st.st_mode);
}

DIR *gate_opendir(const char *root, const char *rel)
{
    int fd = gate_open(root, rel, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return NULL;
    DIR *d = fdopendir(fd);
    if (!d) {
        int err = errno;
        close(fd);
        errno = err;
    }
    return d;
}

char *gate_readlink(const char *root, const char *rel)
{
    const char *why;
    char *norm = gate_normalize(rel, &why);
    if (!norm)
        return NULL;
    char *parent, *last;
    split_last(norm, &parent, &last);
    char *target = NULL;
    int pfd = *last ? gate_open(root, parent, O_PATH | O_DIRECTORY) : -1;
    if (pfd >= 0) {
        char buf[PATH_MAX];
        ssize_t n = readlinkat(pfd, last, buf, sizeof buf - 1);
        if (n >= 0)
            target = xstrndup(buf, (size_t)n);
        close(pfd);
    }
    free(norm);
    free(parent);
    free(last);
    return target;
}

/* The cause for a failed open of rel with errno err. */
static char *open_cause(const char *root, const char *rel, int err)
{
    if (err == EXDEV) {
        const char *why = "the path leaves the tree";
        char *norm = gate_normalize(rel, &why);
        free(norm);
        return xasprintf("%s: not read: %s", rel, why);
    }
    if (err == ELOOP) {
        char *target = gate_readlink(root, rel);
        char *c = target ? xasprintf("%s: not read: a symbolic link (to %s), not followed", rel, target)
                         : xasprintf("%s: not read: a symbolic link is on its way, not followed", rel);
        free(target);
        return c;
    }
    return xasprintf("%s: %s", rel, strerror(err));
}

/* Read an open regular file whole (at most max_bytes when nonzero). */
static char *read_fd(int fd, const char *rel, size_t max_bytes, size_t *len, char **cause)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (cause)
            *cause = xasprintf("%s: not read: not a regular file", rel);
        return NULL;
    }
    if (max_bytes && (size_t)st.st_size > max_bytes) {
        if (cause)
            *cause = xasprintf("%s: larger than %zu bytes", rel, max_bytes);
        return NULL;
    }
    strbuf sb;
    sb_init(&sb);
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            if (cause)
                *cause = xasprintf("%s: %s", rel, strerror(errno));
            sb_free(&sb);
            return NULL;
        }
        if (n == 0)
            break;
        sb_add(&sb, chunk, (size_t)n);
        if (max_bytes && sb.len > max_bytes) { /* it grew while we read */
            if (cause)
                *cause = xasprintf("%s: larger than %zu bytes", rel, max_bytes);
            sb_free(&sb);
            return NULL;
        }
    }
    if (len)
        *len = sb.len;
    return sb_detach(&sb);
}

char *gate_read(const char *root, const char *rel, size_t max_bytes, size_t *len, char **cause)
{
    /* O_NONBLOCK: opening a FIFO planted in the tree must not hang the review. */
    int fd = gate_open(root, rel, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        if (cause)
            *cause = open_cause(root, rel, errno);
        return NULL;
    }
    char *text = read_fd(fd, rel, max_bytes, len, cause);
    close(fd);
    return text;
}

char *gate_refusal(const char *root, const char *rel)
{
    struct stat st;
    if (gate_lstat(root, rel, &st) != 0)
        return errno == EXDEV || errno == ELOOP ? open_cause(root, rel, errno) : NULL;
    if (S_ISLNK(st.st_mode))
        return open_cause(root, rel, ELOOP);
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return xasprintf("%s: not read: not a regular file", rel);
    return NULL;
}
