/* gaj_prec_merge.comp - adds the j-slices of gaj_precision.comp in slice
 * order 0..S-1, deterministic (acc_merge: B, G in double; C..F as
 * double-float pairs; H in int64, exact, so the result is bit for bit the
 * one-slice sums).
 * One invocation per active particle k: the S states of its two
 * accumulators from partial[4 (s n_active + k) ..] (acc_unpack, acc_merge)
 * into result[4k .. 4k+3], the layout of one slice. */
layout(local_size_x = 64) in;

NB_LOCATION(NB_LOC_N_ACTIVE) uniform int n_active;
NB_LOCATION(NB_LOC_SLICES) uniform int slices;

layout(std430, binding = NB_BIND_PARTIAL) readonly buffer Partial { uvec4 partial[]; };
layout(std430, binding = NB_BIND_OUT) writeonly buffer Results { uvec4 result[]; };

void main()
{
    int k = int(gl_GlobalInvocationID.x);
    if (k >= n_active)
        return;
    nb_acc acc_ap, acc_j, b;
    acc_init(acc_ap);
    acc_init(acc_j);
    for (int s = 0; s < slices; ++s) {
        int q = 4 * (s * n_active + k);
        acc_unpack(partial[q], partial[q + 1], b);
        acc_merge(acc_ap, b);
        acc_unpack(partial[q + 2], partial[q + 3], b);
        acc_merge(acc_j, b);
    }
    uvec4 w0, w1;
    acc_pack(acc_ap, w0, w1);
    result[4 * k] = w0;
    result[4 * k + 1] = w1;
    acc_pack(acc_j, w0, w1);
    result[4 * k + 2] = w0;
    result[4 * k + 3] = w1;
}
