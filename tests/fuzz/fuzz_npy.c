/* fuzz_npy.c - NumPy .npy reader (npy.c, fileio.c) through mxsim_tensor_load_npy.
** Invariants of a successful load: a known dtype, 0..MXSIM_MAX_DIMS dimensions, numel equal to
** the product of the shape, and numel * dtype size readable bytes (checked by ASan). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mxsim_ctx *ctx = fz_ctx();
    mxsim_tensor *t = NULL;
    mxsim_status st = mxsim_tensor_load_npy(ctx, fz_write("in.npy", data, size), &t);
    if (st != MXSIM_OK) {
        fz_check(t == NULL);
        fz_check_failure(ctx, st);
        return 0;
    }
    int nd = mxsim_tensor_ndim(t);
    fz_check(nd >= 0 && nd <= MXSIM_MAX_DIMS);
    int64_t numel = 1;
    for (int d = 0; d < nd; d++) {
        fz_check(mxsim_tensor_shape(t)[d] >= 0);
        numel *= mxsim_tensor_shape(t)[d];
    }
    fz_check(numel == mxsim_tensor_numel(t));
    size_t esz = mxsim_dtype_size(mxsim_tensor_dtype(t));
    fz_check(esz > 0);
    /* the data came from the file: it cannot be larger than the input */
    fz_check((uint64_t)numel * esz <= size);
    (void)fz_touch(mxsim_tensor_cdata(t), (size_t)numel * esz);
    mxsim_tensor_free(t);
    return 0;
}
