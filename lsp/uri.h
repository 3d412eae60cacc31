/* file: URIs and paths. The server only serves files on the local disk: a URI with another
 * scheme (untitled:, git:, https:) or a remote host is refused. Pure code.
 *
 * Ownership: both functions return new strings the caller frees; arguments are borrowed. */
#ifndef RL_LSP_URI_H
#define RL_LSP_URI_H

/* The absolute path of a file: URI (percent-decoded), or NULL with *why (static text). */
char *uri_to_path(const char *uri, const char **why);
/* The file: URI of an absolute path, percent-encoding every byte outside [A-Za-z0-9-._~/]. */
char *uri_from_path(const char *path);

#endif
