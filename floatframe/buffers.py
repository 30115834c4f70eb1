"""CasADi Functions evaluated through buffers bound to NumPy arrays: the low-overhead calls that the assembled
system and the solvers' dense path share."""
from __future__ import annotations

import casadi as ca
import numpy as np


class BufferedFunction:
    """A CasADi Function evaluated through buffers bound to NumPy arrays.

    ``inputs[i]`` and ``outputs[j]`` are the bound arrays (float, contiguous, sized as the Function's
    inputs and outputs; a matrix is stored column by column). ``shared_inputs`` binds given arrays
    instead of new ones (several Functions then read the same state). Write into ``inputs`` in place,
    call ``evaluate()``, read ``outputs``.
    """

    def __init__(self, function: ca.Function, shared_inputs=()):
        self.function = function
        self.inputs = list(shared_inputs) + [np.zeros(function.numel_in(i))
                                             for i in range(len(shared_inputs), function.n_in())]
        self.outputs = [np.zeros(function.nnz_out(j)) for j in range(function.n_out())]
        self._buffer, self.evaluate = function.buffer()
        for i, array in enumerate(self.inputs):
            if array.size != function.numel_in(i):
                raise ValueError(f"{function.name()}: input {i} needs {function.numel_in(i)} values, got {array.size}")
            self.bind_input(i, array)
        for j, array in enumerate(self.outputs):
            self._buffer.set_res(j, memoryview(array))

    def bind_input(self, i: int, array: np.ndarray) -> None:
        """Read input i from ``array`` (kept alive by the caller) from now on."""
        self.inputs[i] = array
        self._buffer.set_arg(i, memoryview(array))

    def __call__(self, *values) -> list[np.ndarray]:
        """Evaluate at ``values`` (copied into the input buffers); returns the output arrays (not copies)."""
        for array, value in zip(self.inputs, values):
            array[:] = value
        self.evaluate()
        return self.outputs
