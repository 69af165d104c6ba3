/* interrupt.c - SIGINT and SIGTERM turned into a flag that the run loops
 * of `run` and `md` read between steps.  The handler only stores the
 * signal (async-signal-safe); SA_RESETHAND restores the default action, so
 * a second Ctrl-C ends a run that is slow to reach the end of its step. */
#include <signal.h>
#include <string.h>

#include "interrupt.h"

static volatile sig_atomic_t pending;

static void on_signal(int sig)
{
    pending = sig;
}

void nb_interrupt_catch(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int nb_interrupt_pending(void)
{
    return (int)pending;
}

int nb_interrupt_status(int sig)
{
    return 128 + sig;
}
