"""RADAU5 and DASSL, the Fortran codes, on the IVP test set's Andrews mechanism and car axis, on this machine.

    python benchmarks/testset_codes.py [--sources DIR] [--build DIR] [--problems andrews,car-axis]
        [--solvers radau5,dassl] [--exponents 0-24] [--dassl-control index1] [--min-seconds 0.2] [--output DIR]

The IVP test set (Mazzia and Magherini, Bari, release 2.4) publishes, per problem, RADAU5's and DASSL's
significant correct digits against CPU time on its machine. Its report cannot be read from here, so this benchmark
runs the same two codes on the test set's own problem files on this machine instead, over the test set's
tolerances rtol = atol = h0 = 10^-(4 + m/4), m = 0..24, and measures the digits as floatframe's ``compare`` does
(``floatframe.compare.significant_correct_digits`` and ``mixed_significant_correct_digits`` against the reference
solutions of ``floatframe.models.andrews`` and ``floatframe.models.car_axis``: Andrews' seven angles y(1..7), all ten
components of the car axis). The times are then comparable to floatframe's rows of ``python -m floatframe compare``,
which takes the CSV written here with ``--external``.

The Fortran sources are third-party code and are not in this repository. ``--sources`` (default
``~/.cache/floatframe/testset-codes``) is a folder holding public copies of them; every ``*.f`` / ``*.f90`` file in it
is compiled (gfortran -O2) and the routines are found by name:

- RADAU5 (Hairer and Wanner, version of 2002, https://www.unige.ch/~hairer/software.html): ``radau5.f``,
  ``decsol.f``, ``dc_decsol.f``;
- DDASSL (Petzold, SLATEC 4.0 revision: DDASSL, DDASTP, DDAINI, DDAJAC, DDASLV, DDAWTS, DDANRM, DDATRP, XERMSG):
  ``ddassl.f``, with LINPACK's ``dgefa.f``, ``dgesl.f``, ``dgbfa.f``, ``dgbsl.f``;
- the test set's problems as its authors' R port deTestSet (CRAN, ``src/``) gives them: ``Ex_andrews.f``
  (ANDPAR, ANDFUNC = the test set's FEVAL, ANDJAC = its JEVAL) and ``Ex_car.f`` (CARPAR, CARFUNC; the car axis has
  no Jacobian, both codes difference f).

Machine constants (D1MACH, I1MACH), BLAS level 1 (DDOT, DAXPY, DSCAL, IDAMAX) and RSTOP (the R port of DASSL's
message routine stops through it) are compiled from this file's own small versions where the folder has none.
Without gfortran or without the sources, the benchmark says what is missing and exits with 0.

The driver is this file's own Fortran (``DRIVER_*``): it calls the codes as the test set's problem definitions ask.
Both codes get the mass matrix M of M y' = f(t, y) (Andrews: 14 ones, 13 zeros; car axis: 1, 1, 1, 1, k, k, k, k,
0, 0) and the test set's consistent initial values; RADAU5 gets the test set's index counts (IWORK(5..7): 7, 7, 13
and 4, 4, 2), so that it scales the index-2 and index-3 variables' errors by h and h^2. DDASSL has no such option;
``--dassl-control`` chooses the variables whose errors it controls (rtol = atol = 1e10 for the others, which removes
them from its error test and Newton norm): ``index1`` (default; the positions), ``index12`` (positions and
velocities) or ``all``. DDASSL runs to TSTOP = t_end (INFO(4)) and is called again after each 500-step return.

Each solve is repeated until ``--min-seconds`` of CPU time have passed; the time of a row is the mean wall time of
one solve (its CPU time is listed beside it). Written to ``<output>/testset_codes.csv`` (all rows) and one
``<output>/<problem>.csv`` per problem in the columns of ``compare``'s ``comparison.csv`` (plus CPU time and
repeats), and ``<output>/testset_codes.md``.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import math
import re
import shutil
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

DEFAULT_SOURCES = Path("~/.cache/floatframe/testset-codes").expanduser()
DEFAULT_BUILD = Path("~/.cache/floatframe/testset-build").expanduser()
FLAGS = ("-O2",)
PROBLEMS = {"andrews": "andrews", "car-axis": "caraxis"}      # floatframe's name -> the driver's (the test set's)
LABELS = {"radau5": "RADAU5 (Fortran, this machine)", "dassl": "DASSL (Fortran, this machine)"}

# routines each part needs from the sources folder: name -> where a public copy is
NEEDED = {
    "problems": {"andpar": "Ex_andrews.f (deTestSet, src/)", "andfunc": "Ex_andrews.f (deTestSet, src/)",
                 "andjac": "Ex_andrews.f (deTestSet, src/)", "carpar": "Ex_car.f (deTestSet, src/)",
                 "carfunc": "Ex_car.f (deTestSet, src/)"},
    "radau5": {"radau5": "radau5.f (Hairer and Wanner)", "dec": "decsol.f (Hairer and Wanner)",
               "decomr": "dc_decsol.f (Hairer and Wanner)"},
    "dassl": {"ddassl": "ddassl.f (SLATEC DDASSL)", "dgefa": "dgefa.f (LINPACK)", "dgesl": "dgesl.f (LINPACK)",
              "dgbfa": "dgbfa.f (LINPACK)", "dgbsl": "dgbsl.f (LINPACK)"},
}

DRIVER_SETUP = """\
! floatframe's driver of RADAU5 and DDASSL on two problems of the IVP test set (Andrews' squeezing mechanism and the
! car axis), as the test set's problem files give them (deTestSet's Ex_andrews.f, Ex_car.f).
module testset_setup
  implicit none
  integer, parameter :: nmax = 27
  integer :: problem = 0          ! 1 andrews, 2 caraxis
  integer :: neqn = 0
  integer :: nind(3) = 0          ! numbers of index-1, -2, -3 variables (the test set's IND)
  logical :: analytic_jacobian = .false.
  double precision :: t_end = 0d0
  double precision :: mass(nmax) = 0d0
  double precision :: y0(nmax) = 0d0, yp0(nmax) = 0d0
end module testset_setup

subroutine andrews_parameters(n, p)
  ! the 42 parameters of andrews.f (m1..m7, xa..yc, c0, i1..i7, d..l0, ss..mom)
  implicit none
  integer, intent(in) :: n
  double precision, intent(out) :: p(n)
  p = (/ 0.04325d0, 0.00365d0, 0.02373d0, 0.00706d0, 0.07050d0, 0.00706d0, 0.05498d0, &
         -0.06934d0, -0.00227d0, -0.03635d0, 0.03273d0, 0.014d0, 0.072d0, 4530d0, &
         2.194d-6, 4.410d-7, 5.255d-6, 5.667d-7, 1.169d-5, 5.667d-7, 1.912d-5, &
         28d-3, 115d-4, 2d-2, 1421d-5, 7d-3, 92d-5, 7785d-5, &
         35d-3, 1874d-5, 1043d-5, 18d-3, 2d-2, 2308d-5, 916d-5, 4d-2, 1228d-5, 449d-5, &
         2d-2, 4d-2, 1421d-5, 33d-3 /)
end subroutine andrews_parameters

subroutine caraxis_parameters(n, p)
  ! eps, M, L, L0, r, w, g of caraxis.f
  implicit none
  integer, intent(in) :: n
  double precision, intent(out) :: p(n)
  p = (/ 1d-2, 10d0, 1d0, 0.5d0, 0.1d0, 10d0, 1d0 /)
end subroutine caraxis_parameters

subroutine set_up(name)
  ! the problem's size, index counts, mass matrix diagonal and consistent initial values (the test set's INIT)
  use testset_setup
  implicit none
  character(len=*), intent(in) :: name
  external andrews_parameters, caraxis_parameters
  double precision :: rpar(1), f(nmax), k
  integer :: ipar(1)
  if (name == 'andrews') then
    problem = 1; neqn = 27; nind = (/ 7, 7, 13 /); t_end = 0.03d0; analytic_jacobian = .true.
    call andpar(andrews_parameters)
    mass = 0d0; mass(1:14) = 1d0
    y0 = 0d0
    y0(1:7) = (/ -0.0617138900142764496358948458001d0, 0d0, 0.455279819163070380255912382449d0, &
                 0.222668390165885884674473185609d0, 0.487364979543842550225598953530d0, &
                 -0.222668390165885884674473185609d0, 1.23054744454982119249735015568d0 /)
    y0(15) = 14222.4439199541138705911625887d0
    y0(16) = -10666.8329399655854029433719415d0
    y0(22) = 98.5668703962410896057654982170d0
    y0(23) = -6.12268834425566265503114393122d0
    yp0 = 0d0; yp0(1:14) = y0(8:21)
  else if (name == 'caraxis') then
    problem = 2; neqn = 10; nind = (/ 4, 4, 2 /); t_end = 3d0; analytic_jacobian = .false.
    call carpar(caraxis_parameters)
    k = 10d0 * 1d-2 * 1d-2 / 2d0
    mass = 0d0; mass(1:4) = 1d0; mass(5:8) = k
    y0 = 0d0
    y0(1:8) = (/ 0d0, 0.5d0, 1d0, 0.5d0, -0.5d0, 0d0, -0.5d0, 0d0 /)
    ipar(1) = neqn
    call carfunc(neqn, 0d0, y0, f, rpar, ipar)
    yp0 = 0d0; yp0(1:4) = y0(5:8); yp0(5:8) = f(5:8) / k
  else
    write (*, '(a)') 'ERROR unknown problem ' // trim(name) // ' (andrews or caraxis)'
    stop 2
  end if
end subroutine set_up

subroutine problem_f(n, t, y, f, rpar, ipar)
  ! the right-hand side f of M y' = f(t, y): the test set's FEVAL
  use testset_setup, only: problem
  implicit none
  integer :: n, ipar(*)
  double precision :: t, y(n), f(n), rpar(*)
  if (problem == 1) then
    call andfunc(n, t, y, f, rpar, ipar)
  else
    call carfunc(n, t, y, f, rpar, ipar)
  end if
end subroutine problem_f

subroutine problem_dfdy(n, t, y, dfdy, ldim, rpar, ipar)
  ! df/dy: the test set's JEVAL (Andrews only; the car axis has none, the codes difference f)
  implicit none
  integer :: n, ldim, ipar(*), ml, mu
  double precision :: t, y(n), dfdy(ldim, n), rpar(*)
  ml = n; mu = n
  call andjac(n, t, y, ml, mu, dfdy, ldim, rpar, ipar)
end subroutine problem_dfdy
"""

DRIVER_RADAU5 = """\
subroutine radau_mass(n, am, lmas, rpar, ipar)
  ! the diagonal mass matrix in RADAU5's banded storage (MLMAS = MUMAS = 0)
  use testset_setup, only: mass
  implicit none
  integer :: n, lmas, ipar(*)
  double precision :: am(lmas, n), rpar(*)
  am(1, 1:n) = mass(1:n)
end subroutine radau_mass

subroutine radau_output(nr, xold, x, y, cont, lrc, n, rpar, ipar, irtrn)
  ! RADAU5's SOLOUT, never called (IOUT = 0)
  implicit none
  integer :: nr, lrc, n, ipar(*), irtrn
  double precision :: xold, x, y(n), cont(lrc), rpar(*)
  irtrn = 0
end subroutine radau_output

subroutine solve(tol, control, y, idid, stats)
  ! one RADAU5 run from 0 to t_end: rtol = atol = h0 = tol (scalars), the test set's index counts in IWORK(5..7)
  ! (control is DASSL's and not used); stats: steps, accepted, rejected, f evaluations, Jacobians
  use testset_setup
  implicit none
  double precision, intent(in) :: tol
  integer, intent(in) :: control
  double precision, intent(out) :: y(nmax)
  integer, intent(out) :: idid, stats(5)
  external problem_f, problem_dfdy, radau_mass, radau_output
  integer, parameter :: lwork = nmax * (nmax + 1 + 3 * nmax + 12) + 20, liwork = 3 * nmax + 20
  double precision :: work(lwork), rtol(1), atol(1), x, h, rpar(1)
  integer :: iwork(liwork), ipar(1), ijac
  y = y0; x = 0d0; h = tol; rtol(1) = tol; atol(1) = tol
  work = 0d0; iwork = 0; ipar(1) = neqn
  iwork(5:7) = nind
  ijac = 0
  if (analytic_jacobian) ijac = 1
  call radau5(neqn, problem_f, x, y, t_end, h, rtol, atol, 0, problem_dfdy, ijac, neqn, neqn, &
              radau_mass, 1, 0, 0, radau_output, 0, work, lwork, iwork, liwork, rpar, ipar, idid)
  if (idid > 0 .and. abs(x - t_end) > 1d-12 * max(1d0, abs(t_end))) idid = -99
  stats = (/ iwork(16), iwork(17), iwork(18), iwork(14), iwork(15) /)
end subroutine solve
"""

DRIVER_DASSL = """\
subroutine dassl_residual(t, y, yp, delta, ires, rpar, ipar)
  ! G(t, y, y') = M y' - f(t, y)
  use testset_setup, only: mass
  implicit none
  integer :: ires, ipar(*)
  double precision :: t, y(*), yp(*), delta(*), rpar(*)
  integer :: n
  n = ipar(1)
  call problem_f(n, t, y, delta, rpar, ipar)
  delta(1:n) = mass(1:n) * yp(1:n) - delta(1:n)
end subroutine dassl_residual

subroutine dassl_jacobian(t, y, yp, pd, cj, rpar, ipar)
  ! dG/dy + cj dG/dy' = -df/dy + cj M
  use testset_setup, only: mass
  implicit none
  integer :: ipar(*)
  double precision :: t, y(*), yp(*), pd(ipar(1), *), cj, rpar(*)
  integer :: n, j
  n = ipar(1)
  call problem_dfdy(n, t, y, pd, n, rpar, ipar)
  pd(1:n, 1:n) = -pd(1:n, 1:n)
  do j = 1, n
    pd(j, j) = pd(j, j) + cj * mass(j)
  end do
end subroutine dassl_jacobian

subroutine solve(tol, control, y, idid, stats)
  ! one DDASSL run from 0 to t_end (TSTOP = t_end): rtol = atol = h0 = tol for the first `control` variables,
  ! rtol = atol = 1e10 for the others; called again after each 500-step return (IDID = -1); stats: steps,
  ! steps, error-test and convergence failures, residual evaluations, Jacobians
  use testset_setup
  implicit none
  double precision, intent(in) :: tol
  integer, intent(in) :: control
  double precision, intent(out) :: y(nmax)
  integer, intent(out) :: idid, stats(5)
  external dassl_residual, dassl_jacobian
  integer, parameter :: lrw = 40 + 9 * nmax + nmax * nmax, liw = 20 + nmax
  double precision :: rwork(lrw), rtol(nmax), atol(nmax), t, yp(nmax), rpar(1)
  integer :: iwork(liw), info(15), ipar(1)
  y = y0; yp = yp0; t = 0d0
  rtol = 1d10; atol = 1d10
  rtol(1:control) = tol; atol(1:control) = tol
  rwork = 0d0; iwork = 0; info = 0
  info(2) = 1                                   ! vector tolerances
  info(4) = 1; rwork(1) = t_end                 ! not past t_end
  if (analytic_jacobian) info(5) = 1
  info(8) = 1; rwork(3) = tol                   ! initial step h0
  ipar(1) = neqn
  do
    call ddassl(dassl_residual, neqn, t, y, yp, t_end, info, rtol, atol, idid, rwork, lrw, iwork, liw, rpar, ipar, &
                dassl_jacobian)
    if (idid /= -1) exit
    info(1) = 1
  end do
  if (idid > 0 .and. abs(t - t_end) > 1d-12 * max(1d0, abs(t_end))) idid = -99
  stats = (/ iwork(11), iwork(11), iwork(14) + iwork(15), iwork(12), iwork(13) /)
end subroutine solve
"""

DRIVER_MAIN = """\
! Usage: testset_<solver> PROBLEM M_FIRST M_LAST MIN_SECONDS CONTROL
!   PROBLEM andrews | caraxis; rtol = atol = h0 = 10**-(4 + m/4), m = M_FIRST..M_LAST; each solve is repeated until
!   MIN_SECONDS of CPU time have passed; CONTROL all | index1 | index12 (DASSL's controlled variables).
! One line per tolerance:
!   RESULT problem m rtol idid steps accepted rejected f-evaluations jacobians cpu[s] wall[s] repeats y(1..n)
program testset_driver
  use testset_setup
  implicit none
  character(len=32) :: name, text
  integer :: m, m_first, m_last, idid, stats(5), repeats, control
  integer(8) :: count0, count1, rate
  integer :: idid_first, stats_first(5)
  double precision :: tol, min_seconds, y(nmax), y_first(nmax), cpu0, cpu1
  call get_command_argument(1, name)
  call get_command_argument(2, text); read (text, *) m_first
  call get_command_argument(3, text); read (text, *) m_last
  call get_command_argument(4, text); read (text, *) min_seconds
  call get_command_argument(5, text)
  call set_up(trim(name))
  select case (trim(text))
  case ('all'); control = neqn
  case ('index1'); control = nind(1)
  case ('index12'); control = nind(1) + nind(2)
  case default
    write (*, '(a)') 'ERROR unknown control ' // trim(text) // ' (all, index1 or index12)'
    stop 2
  end select
  do m = m_first, m_last
    tol = 10d0 ** (-(4d0 + m / 4d0))
    repeats = 0
    call system_clock(count0, rate)
    call cpu_time(cpu0)
    do
      call solve(tol, control, y, idid, stats)
      if (repeats == 0) then
        y_first = y; idid_first = idid; stats_first = stats
      end if
      repeats = repeats + 1
      call cpu_time(cpu1)
      if (cpu1 - cpu0 >= min_seconds .or. repeats >= 100000 .or. idid < 0) exit
    end do
    call system_clock(count1)
    write (*, '(a,1x,a,1x,i0,1x,es24.16,1x,i0,5(1x,i0),2(1x,es24.16),1x,i0,*(1x,es24.16))') 'RESULT', &
      trim(name), m, tol, idid_first, stats_first, (cpu1 - cpu0) / repeats, &
      dble(count1 - count0) / rate / repeats, repeats, y_first(1:neqn)
    flush (6)
  end do
end program testset_driver
"""

# this file's own small versions of utility routines, compiled only where the sources folder has none
HELPERS = {
    "d1mach": """\
double precision function d1mach(i)
  ! IEEE double precision constants in SLATEC's numbering: 1 smallest positive, 2 largest, 3 and 4 the relative
  ! spacings b**-t and b**(1-t), 5 log10(b)
  implicit none
  integer, intent(in) :: i
  select case (i)
  case (1); d1mach = tiny(1d0)
  case (2); d1mach = huge(1d0)
  case (3); d1mach = epsilon(1d0) / 2d0
  case (4); d1mach = epsilon(1d0)
  case (5); d1mach = log10(2d0)
  case default
    write (*, '(a,i0)') 'ERROR d1mach: there is no constant number ', i
    stop 3
  end select
end function d1mach
""",
    "i1mach": """\
integer function i1mach(i)
  ! integer machine constants in SLATEC's numbering (1..4 the input, output, punch and error units)
  implicit none
  integer, intent(in) :: i
  select case (i)
  case (1); i1mach = 5
  case (2, 3, 4); i1mach = 6
  case (5); i1mach = bit_size(0)
  case (6); i1mach = 4
  case (7); i1mach = 2
  case (8); i1mach = digits(0)
  case (9); i1mach = huge(0)
  case (10); i1mach = radix(1d0)
  case (11); i1mach = digits(1.0)
  case (12); i1mach = minexponent(1.0)
  case (13); i1mach = maxexponent(1.0)
  case (14); i1mach = digits(1d0)
  case (15); i1mach = minexponent(1d0)
  case (16); i1mach = maxexponent(1d0)
  case default
    write (*, '(a,i0)') 'ERROR i1mach: there is no constant number ', i
    stop 3
  end select
end function i1mach
""",
    "rstop": """\
subroutine rstop(message)
  ! the fatal-error exit of the R port's DASSL messages: print and stop
  implicit none
  character(len=*) :: message
  write (*, '(a)') 'ERROR ' // message
  stop 4
end subroutine rstop
""",
    "ddot": """\
double precision function ddot(n, x, incx, y, incy)
  ! sum of x_i y_i over n entries taken incx and incy apart (negative: from the end)
  implicit none
  integer :: n, incx, incy, i, ix, iy
  double precision :: x(*), y(*)
  ddot = 0d0
  if (n <= 0) return
  ix = 1; iy = 1
  if (incx < 0) ix = 1 - (n - 1) * incx
  if (incy < 0) iy = 1 - (n - 1) * incy
  do i = 1, n
    ddot = ddot + x(ix) * y(iy)
    ix = ix + incx; iy = iy + incy
  end do
end function ddot
""",
    "daxpy": """\
subroutine daxpy(n, a, x, incx, y, incy)
  ! y <- y + a x over n entries taken incx and incy apart (negative: from the end)
  implicit none
  integer :: n, incx, incy, i, ix, iy
  double precision :: a, x(*), y(*)
  if (n <= 0 .or. a == 0d0) return
  ix = 1; iy = 1
  if (incx < 0) ix = 1 - (n - 1) * incx
  if (incy < 0) iy = 1 - (n - 1) * incy
  do i = 1, n
    y(iy) = y(iy) + a * x(ix)
    ix = ix + incx; iy = iy + incy
  end do
end subroutine daxpy
""",
    "dscal": """\
subroutine dscal(n, a, x, incx)
  ! x <- a x over n entries taken incx apart
  implicit none
  integer :: n, incx, i
  double precision :: a, x(*)
  if (n <= 0 .or. incx <= 0) return
  do i = 1, 1 + (n - 1) * incx, incx
    x(i) = a * x(i)
  end do
end subroutine dscal
""",
    "idamax": """\
integer function idamax(n, x, incx)
  ! the first position (1..n) of the largest |x_i| over n entries taken incx apart; 0 for n < 1
  implicit none
  integer :: n, incx, i, ix
  double precision :: x(*), largest
  idamax = 0
  if (n < 1 .or. incx <= 0) return
  idamax = 1
  largest = abs(x(1))
  ix = 1
  do i = 2, n
    ix = ix + incx
    if (abs(x(ix)) > largest) then
      idamax = i
      largest = abs(x(ix))
    end if
  end do
end function idamax
""",
}


class Unavailable(Exception):
    """What is missing to build a solver (the message names it and where a copy is)."""


def _run(command, cwd=None, timeout=600) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def _symbols(obj: Path) -> tuple[set, set]:
    """(defined, undefined) global symbols of an object file, without Fortran's trailing underscore."""
    listing = _run(["nm", "-g", str(obj)]).stdout.splitlines()
    defined, undefined = set(), set()
    for line in listing:
        parts = line.split()
        if len(parts) >= 2 and parts[-2] in ("T", "D", "B", "C", "R") and parts[-1].endswith("_"):
            defined.add(parts[-1][:-1].lower())
        elif len(parts) >= 2 and parts[-2] == "U" and parts[-1].endswith("_"):
            undefined.add(parts[-1][:-1].lower())
    return defined, undefined


def _compile(source: Path, obj: Path, compiler: str) -> None:
    """gfortran -O2 -c source -o obj, unless obj is newer than a compile of the same text and flags."""
    stamp = obj.with_suffix(".sha")
    digest = hashlib.sha256(source.read_bytes() + " ".join((compiler, *FLAGS)).encode()).hexdigest()
    if obj.is_file() and stamp.is_file() and stamp.read_text() == digest:
        return
    result = _run([compiler, *FLAGS, "-w", "-c", str(source), "-o", str(obj)], cwd=obj.parent)
    if result.returncode != 0:
        raise Unavailable(f"gfortran cannot compile {source}: {result.stderr.strip()[:800]}")
    stamp.write_text(digest)


def build(sources: Path, build_dir: Path, solvers, compiler: str = "gfortran") -> tuple[dict, list]:
    """Compile the folder's Fortran files, this file's driver and the helpers the folder lacks; link one executable
    per solver. Returns ({solver: executable}, [messages: what is missing for the others])."""
    files = (sorted(p for p in sources.iterdir() if p.suffix.lower() in (".f", ".f90", ".for"))
             if sources.is_dir() else [])
    if not files:
        raise Unavailable(f"no Fortran sources in {sources}: put public copies of " + ", ".join(
            sorted({where for part in NEEDED.values() for where in part.values()})) + " there (--sources)")
    objects = build_dir / "objects"
    objects.mkdir(parents=True, exist_ok=True)
    defined, undefined, third_party = {}, set(), []
    for source in files:
        obj = objects / f"{source.stem}{source.suffix.replace('.', '_')}.o"
        _compile(source, obj, compiler)
        names, needs = _symbols(obj)
        for name in names:
            defined.setdefault(name, source.name)
        undefined |= needs
        third_party.append(obj)
    drivers = build_dir / "driver"
    drivers.mkdir(exist_ok=True)
    driver_objects = {}
    for part, text in (("setup", DRIVER_SETUP), ("main", DRIVER_MAIN), ("radau5", DRIVER_RADAU5),
                       ("dassl", DRIVER_DASSL)):
        source = drivers / f"driver_{part}.f90"
        if not source.is_file() or source.read_text() != text:
            source.write_text(text)
        _compile(source, drivers / f"driver_{part}.o", compiler)
        undefined |= _symbols(drivers / f"driver_{part}.o")[1]
        driver_objects[part] = drivers / f"driver_{part}.o"
    helpers = []
    for name, text in HELPERS.items():
        if name in undefined and name not in defined:
            source = drivers / f"helper_{name}.f90"
            if not source.is_file() or source.read_text() != text:
                source.write_text(text)
            _compile(source, source.with_suffix(".o"), compiler)
            helpers.append(source.with_suffix(".o"))
    library = build_dir / "libtestset.a"
    library.unlink(missing_ok=True)
    result = _run(["ar", "rcs", str(library), *map(str, third_party + helpers)])
    if result.returncode != 0:
        raise Unavailable(f"ar cannot make {library}: {result.stderr.strip()}")
    missing_problems = [f"{name.upper()} ({where})" for name, where in NEEDED["problems"].items()
                        if name not in defined]
    if missing_problems:
        raise Unavailable(f"the test set's problem routines are not in {sources}: " + ", ".join(missing_problems))
    executables, messages = {}, []
    for solver in solvers:
        missing = [f"{name.upper()} ({where})" for name, where in NEEDED[solver].items() if name not in defined]
        if missing:
            messages.append(f"{solver}: not built, {sources} lacks " + ", ".join(missing))
            continue
        executable = build_dir / f"testset_{solver}"
        result = _run([compiler, *FLAGS, "-o", str(executable), str(driver_objects["main"]),
                       str(driver_objects["setup"]), str(driver_objects[solver]), str(library)])
        if result.returncode != 0:
            unresolved = sorted(set(re.findall(r"undefined reference to `(\w+?)_?'", result.stderr)))
            reason = (f", no routine {', '.join(u.upper() for u in unresolved)} in {sources}" if unresolved
                      else f": {result.stderr.strip()[:800]}")
            messages.append(f"{solver}: not linked{reason}")
            continue
        executables[solver] = executable
    return executables, messages


def run_solver(executable: Path, problem: str, exponents: range, min_seconds: float, control: str,
               timeout: float = 600.0) -> list[dict]:
    """The driver's RESULT lines for one problem, parsed: m, rtol, idid, the five counters, cpu, wall, repeats, y."""
    command = [str(executable), PROBLEMS[problem], str(exponents.start), str(exponents.stop - 1), repr(min_seconds),
               control]
    result = _run(command, timeout=timeout)
    records = []
    for line in result.stdout.splitlines():
        if not line.startswith("RESULT "):
            continue
        fields = line.split()
        records.append(dict(m=int(fields[2]), rtol=float(fields[3]), idid=int(fields[4]),
                            counts=[int(x) for x in fields[5:10]], cpu=float(fields[10]), wall=float(fields[11]),
                            repeats=int(fields[12]), y=[float(x) for x in fields[13:]]))
    if result.returncode != 0 or len(records) != len(exponents):
        raise RuntimeError(f"{executable.name} {problem}: exit status {result.returncode}, {len(records)} of "
                           f"{len(exponents)} tolerances; its output ends with: "
                           f"{(result.stdout + result.stderr).strip()[-800:]}")
    return records


def reference(problem: str):
    """(the components that count, the published values): Andrews' angles y(1..7), the car axis' y(1..10)."""
    import numpy as np

    if problem == "andrews":
        from floatframe.models.andrews import REFERENCE_ANGLES
        return slice(0, 7), np.asarray(REFERENCE_ANGLES)
    from floatframe.models.car_axis import REFERENCE
    return slice(0, 10), np.asarray(REFERENCE)


def rows_of(solver: str, problem: str, records: list[dict]) -> list[tuple]:
    """(floatframe.compare.Run, CPU time, repeats, rejected steps, f evaluations) per record; scd and mescd from
    floatframe's functions, NaN (and the status "failed: IDID = ...") where the code failed or returned NaN."""
    import numpy as np

    from floatframe.compare import Run, mixed_significant_correct_digits, significant_correct_digits

    used, published = reference(problem)
    rows = []
    for record in records:
        ok = record["idid"] > 0 and all(math.isfinite(v) for v in record["y"])
        values = np.asarray(record["y"])[used]
        scd = significant_correct_digits(values, published) if ok else np.nan
        mescd = mixed_significant_correct_digits(values, published) if ok else np.nan
        steps, accepted, rejected, evaluations, jacobians = record["counts"]
        # the codes do not report Newton iterations (0 here); their f evaluations are a column of their own
        run = Run(LABELS[solver], f"rtol={record['rtol']:.3g}", record["rtol"], record["wall"], 0.0, steps, 0,
                  jacobians, np.nan, np.nan, np.nan, scd=scd, mescd=mescd,
                  status="ok" if ok else f"failed: IDID = {record['idid']}")
        rows.append((run, record["cpu"], record["repeats"], rejected, evaluations))
    return rows


def write_rows(path: Path, rows: list[tuple]) -> None:
    """compare's comparison.csv columns, then CPU time, repeats, rejected steps and f evaluations."""
    from floatframe.compare import CSV_COLUMNS

    with path.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow([*CSV_COLUMNS.values(), "cpu time [s]", "repeats [-]", "rejected steps [-]",
                         "f evaluations [-]"])
        for run, *extra in rows:
            writer.writerow([*(asdict(run)[field] for field in CSV_COLUMNS), *extra])


def parse_exponents(text: str) -> range:
    """"0-24" or "12" -> range of m."""
    first, _, last = text.partition("-")
    try:
        first, last = int(first), int(last or first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--exponents must be M or M1-M2 with integers, got {text!r}") from None
    if not 0 <= first <= last:
        raise argparse.ArgumentTypeError(f"--exponents must be 0 <= M1 <= M2, got {text!r}")
    return range(first, last + 1)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", type=Path, default=DEFAULT_SOURCES, help="folder of the Fortran sources")
    parser.add_argument("--build", type=Path, default=DEFAULT_BUILD, help="folder of the objects and executables")
    parser.add_argument("--problems", default="andrews,car-axis", help="comma-separated: andrews, car-axis")
    parser.add_argument("--solvers", default="radau5,dassl", help="comma-separated: radau5, dassl")
    parser.add_argument("--exponents", type=parse_exponents, default=range(0, 25),
                        help="m of rtol = atol = h0 = 10^-(4 + m/4): M or M1-M2")
    parser.add_argument("--dassl-control", choices=("index1", "index12", "all"), default="index1",
                        help="the variables whose errors DDASSL controls")
    parser.add_argument("--min-seconds", type=float, default=0.2, help="CPU time over which each solve is repeated")
    parser.add_argument("--output", type=Path, default=Path("output/testset-codes"), help="folder of the tables")
    args = parser.parse_args(argv)
    problems = [p.strip() for p in args.problems.split(",") if p.strip()]
    solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
    for problem in problems:
        if problem not in PROBLEMS:
            parser.error(f"unknown problem {problem!r}: choose from {', '.join(PROBLEMS)}")
    for solver in solvers:
        if solver not in LABELS:
            parser.error(f"unknown solver {solver!r}: choose from {', '.join(LABELS)}")
    compiler = shutil.which("gfortran")
    if compiler is None or shutil.which("nm") is None or shutil.which("ar") is None:
        print("testset_codes: gfortran (and binutils' nm, ar) not found; install gfortran to run RADAU5 and DASSL")
        return 0
    try:
        executables, messages = build(args.sources, args.build, solvers, compiler)
    except Unavailable as missing:
        print(f"testset_codes: {missing}")
        return 0
    for message in messages:
        print(f"testset_codes: {message}")
    if not executables:
        return 0
    args.output.mkdir(parents=True, exist_ok=True)
    every, lines = [], []
    for problem in problems:
        mine = []
        for solver, executable in executables.items():
            control = args.dassl_control if solver == "dassl" else "all"
            rows = rows_of(solver, problem, run_solver(executable, problem, args.exponents, args.min_seconds, control))
            mine += rows
            for run, cpu, repeats, rejected, evaluations in rows:
                lines.append(f"| {problem} | {run.solver} | {run.value:.3g} | {run.wall_time:.2e} | {cpu:.2e} | "
                             f"{run.steps} | {rejected} | {evaluations} | {run.jacobian_evaluations} | "
                             f"{run.scd:.2f} | {run.mescd:.2f} | {run.status} |")
        write_rows(args.output / f"{problem}.csv", mine)
        every += mine
    write_rows(args.output / "testset_codes.csv", every)
    header = ("| problem | code | rtol = atol = h0 | wall time [s] | CPU time [s] | steps | rejected | f evaluations | "
              "Jacobians | scd | mescd | status |")
    table = "\n".join([f"RADAU5 and DASSL (gfortran {' '.join(FLAGS)}) on this machine; DASSL controls "
                       f"{args.dassl_control}; times per solve", "", header, "|" + "---|" * 12, *lines]) + "\n"
    (args.output / "testset_codes.md").write_text(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
