/* fuzz_ini.c - the INI configuration reader (tconfig.c) through mxsim_tconfig_load. */
#include "fuzz_config_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_config_case("in.ini", data, size);
    return 0;
}
