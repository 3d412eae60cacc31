/* Work run beside the calling thread: a function started on a thread of its own and waited for
 * later. When the caller wants it on its own thread (one-thread mode), or no thread can be
 * started, it runs at once on the caller's thread, so what it makes is the same either way,
 * only made earlier. */
#ifndef RL_BESIDE_H
#define RL_BESIDE_H

#include <pthread.h>
#include <stdbool.h>

typedef struct beside {
    void (*fn)(void *arg);
    void *arg;
    pthread_t thread;
    bool started;  /* fn runs on a thread of its own, to be joined */
} beside;

/* Start fn(arg) beside the caller when apart, else run it now. True when it runs on a thread
 * of its own; false when it has already run here (not apart, or no thread could be started). */
bool beside_start(beside *b, bool apart, void (*fn)(void *arg), void *arg);
/* Wait until fn has run (at once when it ran on the caller's thread, or was never started:
 * a zeroed beside). */
void beside_join(beside *b);

#endif
