"""Compiling the solvers' CasADi Functions to C, shared by the dense and the sparse path.

CasADi's code generator writes a kernel's SX Functions as C; gcc compiles them to a shared library, cached
under the SHA-256 of the code (``cache_directory``), which CasADi loads as external Functions. The compiled
code performs the same IEEE operations in the same order (no fused multiply-adds), so it gives the same bits
as the virtual machine, 5-25 times faster (docs/performance.md).
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
import weakref
from pathlib import Path

import casadi as ca

# Compiling (gcc -O1) takes about COMPILE_SECONDS + COMPILE_SECONDS_PER_INSTRUCTION per SX instruction of
# the kernel, once per model: the library is cached under its code's SHA-256. Compiled code evaluates
# 5-25 times faster than CasADi's SX virtual machine (docs/performance.md). Under compile="auto" a solve
# measures its first DECISION_STEPS steps on the virtual machine and compiles in the background if the
# rest of the solve would take longer than compiling.
# gcc's time grows faster than linearly in the size of one C function (one CasADi Function): a kernel whose
# newton_iterate had 128,000 instructions (303,000 in all) had not compiled after 8 minutes, while one of
# 145,000 whose largest Function had 66,000 compiled in 14 s (NGsolveCreateFFRFreducedOrder's two reduced bodies).
# So "auto" compiles a kernel whose largest Function has at most FUNCTION_INSTRUCTION_LIMIT instructions and
# whose Functions have at most COMPILE_INSTRUCTION_LIMIT in all (about 30 s at the rate below).
COMPILE_SECONDS = 0.1
COMPILE_SECONDS_PER_INSTRUCTION = 1.6e-4
COMPILE_INSTRUCTION_LIMIT = 200_000
FUNCTION_INSTRUCTION_LIMIT = 100_000
DECISION_STEPS = 64
COMPILER_FLAGS = ["-O1", "-fPIC", "-shared", "-ffp-contract=off"]  # no fused multiply-adds: IEEE as the VM


class CompiledKernel:
    """SX Functions that can be switched to compiled C code: the virtual machine until ``compile`` (or a
    finished background compilation, see ``poll``) binds their compiled versions through ``_bind``.

    Subclasses set ``functions`` (list of SX Functions) and define ``_bind``, which puts a list of Functions like
    them (the SX ones, or their compiled versions) to use.
    """

    functions: list
    is_compiled = False
    _library = None       # the path of the compiled library, once asked for
    _compilation = None   # a Compilation under way

    def _bind(self, functions) -> None:
        raise NotImplementedError

    def n_instructions(self) -> int:
        """SX instructions of the kernel's Functions."""
        return sum(function.n_instructions() for function in self.functions)

    def compilable_size(self) -> bool:
        """Whether "auto" may compile this kernel: its largest Function and all of them within the limits above."""
        sizes = [function.n_instructions() for function in self.functions]
        return max(sizes, default=0) <= FUNCTION_INSTRUCTION_LIMIT and sum(sizes) <= COMPILE_INSTRUCTION_LIMIT

    def compile_seconds(self) -> float:
        """Estimated time to compile this kernel [s] (constants at the top of this module)."""
        return COMPILE_SECONDS + COMPILE_SECONDS_PER_INSTRUCTION * self.n_instructions()

    def library_key(self) -> str:
        """A text that determines the kernel's code: its Functions' serialization (the same Functions give the same
        code, and serializing costs a fraction of generating the C code, which only a compilation needs: 0.15 s of
        a tiny Exudyn test model's solve went to the code for the name). A kernel that is composed from other
        Functions by fixed code may name those instead (``DenseNewtonKernel``)."""
        return "".join(function.serialize() for function in self.functions)

    def function_names(self) -> list:
        """The names of the kernel's Functions, as its compiled library exports them."""
        return [function.name() for function in self.functions]

    def library(self) -> Path:
        """The cached library of this kernel (which may not exist yet), named by ``library_key``."""
        if self._library is None:
            self._library = library_path(self.library_key())
        return self._library

    def is_cached(self) -> bool:
        """Whether the compiled library of this kernel is in the cache."""
        return self.library().is_file()

    def start_compiling(self) -> None:
        """Compile in the background; ``poll`` switches to the library once it is there."""
        if self._compilation is None:
            self._compilation = Compilation(generated_code(self.functions), self.library())

    def poll(self) -> None:
        """Switch to the compiled library if a background compilation has finished; warn if it failed
        (the virtual machine then goes on)."""
        if self._compilation is None:
            return
        try:
            if self._compilation.finished():
                self._use_library()
        except RuntimeError as exc:
            self._compilation = None
            warnings.warn(f"{exc}; the solve evaluates CasADi's virtual machine instead", RuntimeWarning)

    def compile(self) -> None:
        """Evaluate compiled C code from now on (same operations, same IEEE arithmetic); compiles unless
        the library is cached. Raises RuntimeError with the compiler's message if compiling fails."""
        if not self.is_cached():
            self.start_compiling()
        if self._compilation is not None:
            compilation, self._compilation = self._compilation, None
            compilation.finished(wait=True)
        self._use_library()

    def _use_library(self) -> None:
        self._bind(external_functions(self.function_names(), self.library()))
        self._compilation = None
        self.is_compiled = True


def apply_compile_option(kernel: CompiledKernel, compile) -> CompiledKernel:
    """``kernel`` for the solver option ``compile``: True (compiled now, see ``Compilation``; RuntimeError
    without a C compiler and a cached library), False (CasADi's SX virtual machine) or "auto" (the compiled
    library if it is cached, else the virtual machine; ``CompilePolicy`` may then compile in the background)."""
    if kernel.is_compiled or compile is False:
        return kernel
    if compile is True:
        if compiler() is None and not kernel.is_cached():
            raise RuntimeError("compile=True needs a C compiler ($CC, gcc or cc on the PATH); none was found")
        kernel.compile()
    elif kernel.is_cached():
        kernel.compile()
    return kernel


class CompilePolicy:
    """compile="auto" during one solve of ``n_steps`` steps: after DECISION_STEPS steps on the virtual
    machine, compile in the background if the rest would take longer than compiling (estimated), or ahead
    for later runs (``compile_ahead``; a solve of at most DECISION_STEPS steps then compiles from its start);
    between two steps, switch to the library once it is there. The compiled code gives the same bits, so the
    switch does not show in the results."""

    def __init__(self, kernel: "CompiledKernel", n_steps: int):
        self.kernel, self.n_steps = kernel, n_steps
        compilable = (not kernel.is_compiled and compiler() is not None
                      and kernel.compilable_size())
        self.deciding = compilable and n_steps > DECISION_STEPS
        if compilable and not self.deciding and compile_ahead():   # a short solve: compiled for later runs
            kernel.start_compiling()
        self.steps = 0
        self.started = None

    def before_step(self) -> None:
        kernel = self.kernel
        kernel.poll()
        if not self.deciding:
            return
        if self.started is None:
            self.started = time.perf_counter()
        self.steps += 1
        if self.steps > DECISION_STEPS:
            self.deciding = False
            per_step = (time.perf_counter() - self.started) / DECISION_STEPS
            if per_step * (self.n_steps - DECISION_STEPS) > kernel.compile_seconds() or compile_ahead():
                kernel.start_compiling()


def compile_ahead() -> bool:
    """Whether $FLOATFRAME_COMPILE_AHEAD is set (to anything but 0): compile="auto" then also compiles a kernel
    whose compilation does not pay within the solve, in the background, so that the model's later runs (in this
    process or another: the library is cached under ``cache_directory``) start compiled. Off by default: it
    starts a compiler for every new model of more than DECISION_STEPS steps."""
    return os.environ.get("FLOATFRAME_COMPILE_AHEAD", "0") not in ("", "0")


def compiler() -> str | None:
    """The C compiler for kernels: $CC, else gcc or cc on the PATH; None without one."""
    return shutil.which(os.environ.get("CC", "")) or shutil.which("gcc") or shutil.which("cc")


@functools.lru_cache(maxsize=None)
def code_digest(*module_names: str) -> str:
    """SHA-256 of the named modules' source files (``source_stamp``; a module not imported yet is found, not
    imported) and CasADi's version: part of the cache name of a kernel that those modules compose, so that a change
    of either never reuses an old library."""
    stamps = " ".join(source_stamp(Path(sys.modules[name].__file__ if name in sys.modules else
                                        importlib.util.find_spec(name).origin)) for name in module_names)
    return hashlib.sha256((stamps + ca.__version__).encode()).hexdigest()


def source_stamp(path: Path) -> str:
    """A source file as its absolute path, modification time [ns] and size: what Python itself checks its
    bytecode caches against (reading and hashing the sources took 0.1-0.3 ms of every fresh process's first
    solve; resolving symbolic links, 85 us a file). An edit changes the stamp, so the name, and the library is
    compiled anew."""
    status = os.stat(path)
    return f"{os.path.abspath(path)} {status.st_mtime_ns} {status.st_size}"


def cache_directory() -> Path:
    """Where compiled kernels are kept: $FLOATFRAME_CACHE, else ~/.cache/floatframe/kernels."""
    return _cache_directory(os.environ.get("FLOATFRAME_CACHE"))


@functools.lru_cache(maxsize=8)
def _cache_directory(configured: str | None) -> Path:   # (pathlib's first Path of a process: 60 us)
    return Path(configured) if configured else Path.home() / ".cache" / "floatframe" / "kernels"


def generated_code(functions) -> str:
    """The C code of ``functions`` (CasADi's code generator, one file)."""
    generator = ca.CodeGenerator("kernel.c", {"with_header": False})
    for function in functions:
        generator.add(function)
    return generator.dump()


def library_path(code: str, prefix: str = "kernel") -> Path:
    """The cached shared library of ``code`` (the C code, or a text that determines it), named ``prefix`` and the
    SHA-256 of that text and the compiler flags."""
    digest = hashlib.sha256((code + " ".join(COMPILER_FLAGS)).encode()).hexdigest()[:32]
    return cache_directory() / f"{prefix}_{digest}.so"


class Compilation:
    """The compiler run on generated code, in the background: the compiler writes into a scratch folder
    of the cache and a shell moves the library into place when it is done, atomically (so concurrent
    solves see the whole library or none, and a compilation outlives a Python session that ends first)."""

    def __init__(self, code: str, library: Path):
        self.library = library
        library.parent.mkdir(parents=True, exist_ok=True)
        self.scratch = Path(tempfile.mkdtemp(prefix="build_", dir=library.parent))
        source, built = self.scratch / "kernel.c", self.scratch / library.name
        self.errors = self.scratch / "errors.txt"
        source.write_text(code)
        # on success the shell also removes the scratch folder: a compilation may outlive the Python session
        command = ['"$0" "$@" 2> "$ERRORS" && mv "$BUILT" "$LIBRARY" && rm -rf "$SCRATCH"']
        environment = dict(os.environ, ERRORS=str(self.errors), BUILT=str(built), LIBRARY=str(library),
                           SCRATCH=str(self.scratch))
        self.process = subprocess.Popen(["sh", "-c", *command, compiler(), *COMPILER_FLAGS, str(source), "-o",
                                         str(built)], env=environment, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL)

    def finished(self, wait: bool = False) -> bool:
        """Whether the library is in place; raises RuntimeError with the compiler's message if it failed."""
        if wait:
            self.process.wait()
        elif self.process.poll() is None:
            return False
        failed = self.process.returncode != 0
        message = self.errors.read_text().strip()[:2000] if failed and self.errors.is_file() else ""
        shutil.rmtree(self.scratch, ignore_errors=True)
        if failed:
            raise RuntimeError(f"compiling the solver kernel failed: {message}")
        return True


def external_functions(names, library: Path) -> list[ca.Function]:
    """The Functions called ``names`` as loaded from their compiled ``library``."""
    return [ca.external(name, str(library)) for name in names]


_sparse_kernels = weakref.WeakKeyDictionary()  # AssembledSystem -> {index: SparseNewtonFunctions}


def sparse_kernel(system, index: int, compile="auto") -> "SparseNewtonFunctions":
    """The system's Functions of one sparse-path Newton iteration (``SparseNewtonFunctions``), kept for later
    solves; ``compile`` as ``apply_compile_option`` takes it."""
    per_system = _sparse_kernels.setdefault(system, {})
    if index not in per_system:
        per_system[index] = SparseNewtonFunctions(system, index)
    return apply_compile_option(per_system[index], compile)


class SparseNewtonFunctions(CompiledKernel):
    """The Functions that the sparse path evaluates at every Newton iteration: the residual and the constraint
    rows (C, or dC/dt for index 2) of the AssembledSystem. Compiled, they replace the system's own
    (``AssembledSystem.use_numeric``), which then gives the same bits faster. The iteration matrix, formed a
    few times per solve and large to compile, stays on the virtual machine."""

    def __init__(self, system, index: int):
        self.system = system
        self.names = [system.form_name("residual", index), system.constraint_rows_name(index)]
        self.functions = [system.numeric_function(name) for name in self.names]

    def _bind(self, functions) -> None:
        self.system.use_numeric(dict(zip(self.names, functions)))
