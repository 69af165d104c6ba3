/* interrupt.h - SIGINT and SIGTERM as requests: the run finishes the step
 * it is in, writes its checkpoint and stops (interrupt.c). */
#ifndef NB_INTERRUPT_H
#define NB_INTERRUPT_H

/* Catches SIGINT and SIGTERM from here on; a second one of either ends
 * the program at once (the default action is back after the first). */
void nb_interrupt_catch(void);
/* The signal that asked the run to stop, or 0. */
int nb_interrupt_pending(void);
/* The exit status of a run stopped by sig: 128 + sig (130, 143). */
int nb_interrupt_status(int sig);

#endif
