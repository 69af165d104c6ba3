/* block_state.glsl - the device corrector's block state (gaj_correct.c),
 * shared by correct.comp, find_block.comp and predict.comp: the count of
 * particles at each step level after the last block, its first failed
 * slots, the next block's time and level as the last corrector group took
 * them from the counts (so that passes can run ahead to that block before
 * the host knows it), and each particle's level. */
layout(std430, binding = NB_BIND_BLOCK_STATE) buffer BlockState {
    int level_count[NB_CORRECT_LEVELS];
    uint first_bad, first_small;
    int next_due;           /* the next block's level (nb_step_dividing_level) */
    uint groups_done;       /* correct.comp's groups finished (0 between blocks) */
    double next_t;          /* the next block's time (nb_step_next_ends) */
    uint pad0, pad1;        /* in the host's report: the failed slots' particles */
    uint level_of[];
};
