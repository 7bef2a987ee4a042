"""Dynamic work sharing inside numba parallel kernels.

numba's `prange` hands each thread an equal share of the iterations up front. On a shared
machine one core is often slower than the other for a while (other jobs), and the fast one
then sits idle at the end. A kernel instead runs one `prange` iteration per worker, and each
worker `take`s the next piece of work from a shared counter until none is left.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def take(typingctx, counter):
    """Atomically add 1 to counter[0] (an int64 array) and return its old value: the number
    of the piece of work the calling thread now owns."""
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64):
        return None

    def codegen(context, builder, sig, args):
        array = context.make_array(sig.args[0])(context, builder, args[0])
        first = cgutils.get_item_pointer(context, builder, sig.args[0], array,
                                         [context.get_constant(types.intp, 0)] * sig.args[0].ndim)
        return builder.atomic_rmw("add", first, context.get_constant(types.int64, 1), "monotonic")

    return types.int64(counter), codegen
