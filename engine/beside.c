/* Work run beside the calling thread (beside.h). */
#include "engine/beside.h"

static void *beside_main(void *arg)
{
    beside *b = arg;
    b->fn(b->arg);
    return NULL;
}

bool beside_start(beside *b, bool apart, void (*fn)(void *arg), void *arg)
{
    b->fn = fn;
    b->arg = arg;
    b->started = apart && pthread_create(&b->thread, NULL, beside_main, b) == 0;
    if (!b->started)
        fn(arg);
    return b->started;
}

void beside_join(beside *b)
{
    if (b->started)
        pthread_join(b->thread, NULL);
    b->started = false;
}
