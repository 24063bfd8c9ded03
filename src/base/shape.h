/* Shape helpers of the base layer (src/base/), used by the runtime, the ops,
 * the builder and the importer. */
#ifndef WNN_BASE_SHAPE_H
#define WNN_BASE_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The element count; -1 when a dim is negative or the count overflows int64
 * (only shapes not yet validated, in the importer, can do either). */
int64_t wnn_shape_numel(int ndim, const int64_t *dims);
/* The byte size of such a tensor with esize-byte elements, with every
 * multiplication checked: false on a negative dim or an overflow of uint64. */
bool wnn_shape_nbytes(int ndim, const int64_t *dims, size_t esize, uint64_t *nbytes);
bool wnn_shape_equal(int ndim_a, const int64_t *a, int ndim_b, const int64_t *b);

/* The element count of a shape, or -1 when a dimension is negative or the
 * bytes (count * elem_size) would not fit in a size_t on this target. */
int64_t wnn_checked_numel(int ndim, const int64_t *dims, size_t elem_size);

/* Writes dims as "[2, 3, 4]" into buf (cap bytes, truncated to fit); returns buf. */
const char *wnn_format_dims(char *buf, size_t cap, int ndim, const int64_t *dims);

#endif /* WNN_BASE_SHAPE_H */
