/* nvToolsExt.h (Cuprite): the pre-NVTX3 include path. */
#include "nvtx3/nvToolsExt.h"
