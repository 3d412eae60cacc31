/* Logging (log.h): every message goes to the --log file (when given) with a timestamp, then to
 * the sink the server installed, which forwards it to the client when the client may be told.
 * Nothing here calls upward: the level filter, the lifecycle rules and dropping messages while
 * the client is not reading are the sink's business. */
#include "lsp/log.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "engine/util.h"

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
static void log_file_line(logger *lg, int level, const char *text)
{
    if (!lg->file)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    fprintf(lg->file, "%02d:%02d:%02d.%03ld %-7s %s\n", tm.tm_hour, tm.tm_min, tm.tm_sec,
            ts.tv_nsec / 1000000, level_names[level > LOG_LOG || level < 0 ? LOG_LOG : level], text);
    fflush(lg->file);
}

/* Log a message at a level (LOG_ERROR .. LOG_LOG). */
void log_msg(logger *lg, int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap);
    va_end(ap);
    log_file_line(lg, level, text);
    if (lg->sink)
        lg->sink(lg->data, false, level, text);
    free(text);
}

/* Show a message to the user (window/showMessage) and log it. */
void show_message(logger *lg, int type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap);
    va_end(ap);
    log_file_line(lg, type, text);
    if (lg->sink)
        lg->sink(lg->data, true, type, text);
    free(text);
}

/* Write one line of protocol traffic to the file (see log.h). */
void log_traffic(logger *lg, const char *direction, const char *text, size_t len)
{
    if (lg->file)
        fprintf(lg->file, "%s %.*s\n", direction, len > 2000 ? 2000 : (int)len, text);
}
