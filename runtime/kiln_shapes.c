/* Shape arithmetic of array code too branchy to spell in MLIR at each use;
   kilnc links this file into a kernel object when the kernel calls it.

   kiln_reshape_stride: numpy's rule for when `a.reshape(shape)` is a view
   of `a` rather than a copy, and that view's strides. Walking the old and
   new shapes from the left, every run of old axes whose sizes multiply to
   the same product as a run of new axes must be laid out as one block
   (each axis's stride is the next one's stride times its size); the new
   axes of the run then get the strides of that block. Axes of size 1 are
   ignored on the old side and take any stride on the new side; an array
   with no element reshapes to anything without a copy.

   Returns the stride (in elements) of new axis `axis` of the view, or
   KILN_RESHAPE_COPY when the reshape needs a copy. The ranks are at most
   KILN_MAX_NDIM, so the shapes come as separate arguments. */

#include <stdint.h>

#include "kiln_abi.h"

_Static_assert(KILN_MAX_NDIM == 8, "kiln_reshape_stride takes 8 sizes per shape");

#define KILN_RESHAPE_COPY INT64_MIN

int64_t kiln_reshape_stride(int64_t axis, int64_t old_rank, int64_t old0, int64_t old1,
                            int64_t old2, int64_t old3, int64_t old4, int64_t old5,
                            int64_t old6, int64_t old7, int64_t stride0, int64_t stride1,
                            int64_t stride2, int64_t stride3, int64_t stride4, int64_t stride5,
                            int64_t stride6, int64_t stride7, int64_t new_rank, int64_t new0,
                            int64_t new1, int64_t new2, int64_t new3, int64_t new4,
                            int64_t new5, int64_t new6, int64_t new7) {
  const int64_t given_sizes[KILN_MAX_NDIM] = {old0, old1, old2, old3, old4, old5, old6, old7};
  const int64_t given_strides[KILN_MAX_NDIM] = {stride0, stride1, stride2, stride3,
                                                stride4, stride5, stride6, stride7};
  const int64_t new_sizes[KILN_MAX_NDIM] = {new0, new1, new2, new3, new4, new5, new6, new7};
  int64_t sizes[KILN_MAX_NDIM], strides[KILN_MAX_NDIM], new_strides[KILN_MAX_NDIM];
  int64_t rank = 0;
  for (int64_t k = 0; k < old_rank; ++k) {
    if (given_sizes[k] == 0)
      return 1; /* no element: every stride is as good as another */
    if (given_sizes[k] != 1) {
      sizes[rank] = given_sizes[k];
      strides[rank] = given_strides[k];
      ++rank;
    }
  }
  for (int64_t k = 0; k < new_rank; ++k)
    if (new_sizes[k] == 0)
      return 1;
  int64_t old_first = 0, old_end = 1, new_first = 0, new_end = 1;
  while (new_first < new_rank && old_first < rank) {
    int64_t new_product = new_sizes[new_first];
    int64_t old_product = sizes[old_first];
    while (new_product != old_product) {
      if (new_product < old_product) {
        if (new_end >= new_rank)
          return KILN_RESHAPE_COPY;
        new_product *= new_sizes[new_end++];
      } else {
        if (old_end >= rank)
          return KILN_RESHAPE_COPY;
        old_product *= sizes[old_end++];
      }
    }
    for (int64_t k = old_first; k < old_end - 1; ++k)
      if (strides[k] != sizes[k + 1] * strides[k + 1])
        return KILN_RESHAPE_COPY;
    new_strides[new_end - 1] = strides[old_end - 1];
    for (int64_t k = new_end - 1; k > new_first; --k)
      new_strides[k - 1] = new_strides[k] * new_sizes[k];
    new_first = new_end++;
    old_first = old_end++;
  }
  /* Trailing axes of size 1 (the old shape is used up). */
  int64_t last = new_first > 0 ? new_strides[new_first - 1] : 1;
  for (int64_t k = new_first; k < new_rank; ++k)
    new_strides[k] = last;
  return new_strides[axis];
}
