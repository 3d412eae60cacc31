/* Logging for the language server, below everything else in lsp/: a message goes to the --log
 * file (when one is open) and to a sink, a callback the server installs that forwards it to
 * the client (window/logMessage, window/showMessage) when the client may be told. log.c knows
 * nothing of the protocol: the sink decides whether a message goes out, at what level, and
 * what to drop when the client is not reading.
 *
 * Ownership: the logger borrows its file and the sink's data; texts passed to the sink are
 * valid only during the call. */
#ifndef RL_LSP_LOG_H
#define RL_LSP_LOG_H

#include <stdbool.h>
#include <stdio.h>

/* window/logMessage and window/showMessage types; LOG_OFF silences the client log. */
enum { LOG_OFF = 0, LOG_ERROR = 1, LOG_WARNING = 2, LOG_INFO = 3, LOG_LOG = 4 };

/* show: the user must see it (window/showMessage) rather than only the log. */
typedef void (*log_sink_fn)(void *data, bool show, int level, const char *text);

typedef struct logger {
    FILE *file;       /* the --log file, or NULL */
    log_sink_fn sink; /* NULL: the file only */
    void *data;
} logger;

/* Log a message at a level (LOG_ERROR .. LOG_LOG). */
void log_msg(logger *lg, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Show a message to the user (window/showMessage) and log it. */
void show_message(logger *lg, int type, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Write one line of protocol traffic (direction "-->" or "<--") to the file, cut at 2000
 * bytes. */
void log_traffic(logger *lg, const char *direction, const char *text, size_t len);
/* The level for a setting value ("off", "error", "warning", "info", "log", "debug"), or -1. */
int log_level_parse(const char *name);

#endif
