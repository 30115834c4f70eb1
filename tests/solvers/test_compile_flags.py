"""Claims about how kernels are compiled: small kernels with gcc -O1, large ones (above LARGE_KERNEL_INSTRUCTIONS)
with -O0, which compiles 2.6-3.5 times faster; both without fused multiply-adds, so the compiled kernel gives the
virtual machine's bits either way (tests/solvers/test_native_loop.py compares them on the reduced rotor, a large
kernel, and the pendulum, a small one); the flags are part of the cached library's name."""
from floatframe.solvers import compiling
from floatframe.solvers.compiling import (COMPILER_FLAGS, LARGE_KERNEL_FLAGS, LARGE_KERNEL_INSTRUCTIONS,
                                          compiler_flags, library_path)


def test_large_kernels_are_compiled_without_optimization_and_without_fused_multiply_adds():
    assert compiler_flags(LARGE_KERNEL_INSTRUCTIONS) == COMPILER_FLAGS
    assert compiler_flags(LARGE_KERNEL_INSTRUCTIONS + 1) == LARGE_KERNEL_FLAGS
    assert "-O1" in COMPILER_FLAGS and "-O0" in LARGE_KERNEL_FLAGS
    assert all("-ffp-contract=off" in flags for flags in (COMPILER_FLAGS, LARGE_KERNEL_FLAGS))


def test_the_flags_are_part_of_the_cached_library_name():
    code = "int f(void) { return 1; }"
    assert library_path(code) != library_path(code, flags=LARGE_KERNEL_FLAGS)
    assert library_path(code) == library_path(code, flags=COMPILER_FLAGS)


class Kernel(compiling.CompiledKernel):
    def __init__(self, instructions):
        self.instructions = instructions

    def n_instructions(self):
        return self.instructions


def test_the_compile_time_estimate_follows_the_flags():
    small, large = Kernel(LARGE_KERNEL_INSTRUCTIONS), Kernel(LARGE_KERNEL_INSTRUCTIONS + 1)
    assert small.flags() == COMPILER_FLAGS and large.flags() == LARGE_KERNEL_FLAGS
    assert large.compile_seconds() < 0.5 * small.compile_seconds()
