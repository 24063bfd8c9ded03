/* int64 add/sub/mul/div: wnn_s64_v{add,sub,mul,div}[c]__scalar and the
 * reversed-constant forms; see int_vbinary_body.h. */
#include "kernels/kernels.h"

typedef int64_t T;
typedef uint64_t U;
#define NAME(op) wnn_s64_##op##__scalar

#include "kernels/int_vbinary_body.h"
