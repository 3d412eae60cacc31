/* The shared tree walker of tree_walk.h. */
#include "engine/tree_walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/path_gate.h"
#include "engine/util.h"

bool tree_walk_skips_dir(const char *name)
{
    return name[0] == '.' || str_starts(name, "build") || strcmp(name, "node_modules") == 0 ||
           strcmp(name, "3rdparty") == 0;
}

bool tree_walk_in_skipped_dir(const char *rel)
{
    for (const char *p = rel; *p;) {
        const char *e = strchr(p, '/');
        if (!e)
            return false;
        char *comp = xstrndup(p, (size_t)(e - p));
        bool skip = tree_walk_skips_dir(comp);
        free(comp);
        if (skip)
            return true;
        p = e + 1;
    }
    return false;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walk root/rel (rel "" for the root itself). */
static void walk_dir(const char *root, const char *rel, bool (*want)(const char *name),
                     void (*visit)(void *data, const char *rel), void *data)
{
    DIR *d = gate_opendir(root, rel);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
            *ARRAY_PUSH(names, n, cap) = xstrdup(de->d_name);
    if (n)
        qsort(names, n, sizeof *names, name_cmp);
    for (size_t i = 0; i < n; i++) {
        char *r = *rel ? xasprintf("%s/%s", rel, names[i]) : xstrdup(names[i]);
        if (want(names[i])) {
            visit(data, r);
        } else if (!tree_walk_skips_dir(names[i])) {
            struct stat st;
            /* d came through the gate; its entries are looked at without following links */
            if (fstatat(dirfd(d), names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
                walk_dir(root, r, want, visit, data);
        }
        free(r);
        free(names[i]);
    }
    free(names);
    closedir(d);
}

void tree_walk(const char *root, bool (*want)(const char *name),
               void (*visit)(void *data, const char *rel), void *data)
{
    walk_dir(root, "", want, visit, data);
}
