/* fuzz_scalesim_cfg.c - the SCALE-Sim v2 .cfg reader (tconfig.c) through mxsim_tconfig_load. */
#include "fuzz_config_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_config_case("in.cfg", data, size);
    return 0;
}
