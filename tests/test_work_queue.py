import numba
import numpy as np
from numba import njit, prange

from geolab.common.work_queue import take


@njit(parallel=True)
def _claim_all(workers, pieces, counter, owner):
    for _ in prange(workers):
        piece = take(counter)
        while piece < pieces:
            owner[piece] += 1
            piece = take(counter)


def test_every_piece_is_taken_exactly_once_by_some_worker():
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        numba.set_num_threads(threads)
        try:
            owner, counter = np.zeros(10_000, np.int64), np.zeros(1, np.int64)
            _claim_all(threads, owner.size, counter, owner)
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        assert (owner == 1).all()
        assert counter[0] == owner.size + threads  # each worker's last take found nothing left
