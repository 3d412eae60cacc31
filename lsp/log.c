/* Logging: every message goes to the --log file (when given) and, at or above the configured
 * level ("review.logLevel", default info), to the client as window/logMessage. Messages the
 * client must see go out as window/showMessage. When the write queue is backed up, log
 * notifications are dropped and counted instead of growing it. */
#include <stdarg.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "lsp/server.h"

static const char *const level_names[] = {"off", "error", "warning", "info", "log"};

/* The level for a setting value ("off", "error", "warning", "info", "log", "debug"), or -1. */
int log_level_parse(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i <= LOG_LOG; i++)
        if (strcasecmp(name, level_names[i]) == 0)
            return i;
    if (strcasecmp(name, "debug") == 0 || strcasecmp(name, "trace") == 0 ||
        strcasecmp(name, "verbose") == 0)
        return LOG_LOG;
    if (strcasecmp(name, "warn") == 0)
        return LOG_WARNING;
    return -1;
}

/* Write a line to the log file. */
static void log_file_line(server *s, int level, const char *text)
{
    if (!s->log_file)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    fprintf(s->log_file, "%02d:%02d:%02d.%03ld %-7s %s\n", tm.tm_hour, tm.tm_min, tm.tm_sec,
            ts.tv_nsec / 1000000, level_names[level > LOG_LOG ? LOG_LOG : level], text);
    fflush(s->log_file);
}

/* Log a message at a level (LOG_ERROR .. LOG_LOG). */
void log_msg(server *s, int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap);
    va_end(ap);
    log_file_line(s, level, text);
    if (level <= s->cfg.log_level && s->state != STATE_UNINITIALIZED && !s->exit_requested) {
        if (transport_backed_up(s)) {
            s->logs_dropped++;
        } else {
            if (s->logs_dropped) {
                char *note = xasprintf("%zu log messages dropped while the client was not reading",
                                       s->logs_dropped);
                s->logs_dropped = 0;
                rpc_notify(s, "window/logMessage", json_pack("{s:i, s:s}", "type", LOG_WARNING,
                                                             "message", note));
                free(note);
            }
            rpc_notify(s, "window/logMessage",
                       json_pack("{s:i, s:s}", "type", level, "message", text));
        }
    }
    free(text);
}

/* Show a message to the user (window/showMessage) and log it. */
void show_message(server *s, int type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap);
    va_end(ap);
    log_file_line(s, type, text);
    if (!s->exit_requested)
        rpc_notify(s, "window/showMessage", json_pack("{s:i, s:s}", "type", type, "message", text));
    free(text);
}
