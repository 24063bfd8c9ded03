/* int32 add/sub/mul/div: wnn_s32_v{add,sub,mul,div}[c]__scalar and the
 * reversed-constant forms; see int_vbinary_body.h. */
#include "kernels/kernels.h"

typedef int32_t T;
typedef uint32_t U;
#define NAME(op) wnn_s32_##op##__scalar

#include "kernels/int_vbinary_body.h"
