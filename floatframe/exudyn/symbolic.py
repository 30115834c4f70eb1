"""Exudyn's ``exudyn.symbolic`` on CasADi: symbolic Real, Vector and Matrix, their math functions, a set of named
variables, and symbolic user functions.

Every quantity holds a CasADi expression (SX; DM for numbers). A quantity made with a name (``Real('k', 2.)``,
``Vector('v', [1, 2])``) is a *variable*: a CasADi symbol with a current value, which ``SetValue``,
``SetVector``, ``SetMatrix`` or item assignment change. While recording is on (the default,
:func:`SetRecording`), operations build expressions that refer to the variables (their values are read when the
expression is evaluated) and copy unnamed quantities as numbers; with recording off every operation gives a
number at once. ``Evaluate`` gives the value (float or NumPy array), ``Real.Diff(variable)`` the exact
derivative (CasADi's automatic differentiation).

:func:`CreateSymbolicUserFunction` records a Python user function of an item (e.g. a spring-damper's
``springForceUserFunction``) once with symbolic arguments. The :class:`UserFunction` it returns is callable like
the Python function: called with CasADi symbols (as floatframe's items trace their user functions) it gives
the CasADi expression of the recorded function, so the function becomes part of the residual, with exact
Jacobians and no Python call in the solver; called with numbers it gives numbers. A recorded function that
reads free variables (e.g. of :data:`variables`) refuses CasADi symbols, so that the item calls it numerically
and it sees their current values at each call, as in Exudyn.

Where this differs from Exudyn 1.13.6: a Python ``if`` on a symbolic comparison is refused while it depends on
variables (Exudyn takes such a Real as True: use :func:`IfThenElse`); numbers that make up an expression are
combined at once (``str`` shows ``6`` for ``2 * 3``); ``Real.__newCount`` and the other counters of Exudyn's
C++ allocations are not counted (they stay as a script sets them); a symbolic UserFunction is also callable.
"""
from __future__ import annotations

import math
import numbers

import casadi as ca
import numpy as np

__all__ = ["Real", "Vector", "Matrix", "VariableSet", "UserFunction", "variables", "SetRecording", "GetRecording",
           "abs", "sign", "Not", "round", "ceil", "floor", "exp", "sqrt", "log", "sin", "cos", "tan", "asin", "acos",
           "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "isfinite", "pow", "atan2", "mod", "min", "max",
           "IfThenElse", "ConvertFunctionToSymbolic", "CreateSymbolicUserFunction"]

_recording = True
_CASADI_TYPES = (ca.SX, ca.MX, ca.DM)


class SymbolicError(ValueError):
    """A symbolic quantity used in a way it does not support (wrong sizes, unknown variable, ...)."""


def SetRecording(flag: bool) -> None:
    """Record expressions (True, the default) or compute every operation as a number at once (False)."""
    global _recording
    _recording = bool(flag)


def GetRecording() -> bool:
    """Whether operations record expressions (see :func:`SetRecording`)."""
    return _recording


# --- text of expressions -------------------------------------------------------------------------------------------
def _number_text(value) -> str:
    """A number as Exudyn prints it: 6 significant digits (C's %g)."""
    return f"{float(value):g}"


def _values_text(values: np.ndarray) -> str:
    """A vector '[1,2]' or a matrix '[[1,0],[0,2]]'."""
    if values.ndim == 1:
        return "[" + ",".join(_number_text(x) for x in values) + "]"
    return "[" + ",".join(_values_text(row) for row in values) + "]"


def _render(text) -> str:
    """The string of a text: a str, or a (nested) tuple of texts, joined (without recursion: deep expressions)."""
    if isinstance(text, str):
        return text
    parts, stack = [], [text]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        else:
            stack.extend(reversed(item))
    return "".join(parts)


# --- the quantities ------------------------------------------------------------------------------------------------
class _Quantity:
    """What Real, Vector and Matrix share: a variable (name, symbol, value), a number (value) or an expression
    (CasADi expression, the variables it refers to, its text)."""

    _kind = "quantity"
    __hash__ = object.__hash__

    def _set_number(self, values: np.ndarray):
        self._name, self._symbol, self._value = None, None, values
        self._expression, self._owners, self._text, self._evaluator = None, {}, None, None

    def _set_variable(self, name: str, values: np.ndarray):
        self._set_number(values)
        self._name = name
        self._symbol = ca.SX.sym(name, *self._shape_of(values))

    def _set_expression(self, expression, owners: dict, text):
        self._set_number(None)
        self._expression, self._owners, self._text = expression, owners, text

    @staticmethod
    def _shape_of(values: np.ndarray) -> tuple:
        return (values.shape[0], values.shape[1] if values.ndim == 2 else 1)

    @classmethod
    def _from(cls, expression, owners: dict, text):
        """The result of an operation: an expression while recording, else its number."""
        result = cls.__new__(cls)
        if _recording:
            result._set_expression(expression, owners, text)
        else:
            result._set_number(cls._values_from(np.asarray(ca.DM(expression), dtype=float)))
        return result

    def _operand(self) -> tuple:
        """(CasADi expression, variables, text) of this quantity as the operand of an operation: a variable by its
        symbol while recording, everything else by its current value (copied)."""
        if self._expression is not None:
            if _recording:
                return self._expression, self._owners, self._text
            values = self._numeric()
        elif self._name is not None and _recording:
            return self._symbol, {id(self): self}, self._name
        else:
            values = self._value
        return ca.DM(values), {}, _values_text(values) if np.ndim(values) else _number_text(values)

    def _numeric(self) -> np.ndarray:
        """The current value, as a float array (0-, 1- or 2-dimensional)."""
        if self._expression is None:
            return self._value
        if self._evaluator is None:
            owners = list(self._owners.values())
            function = ca.Function("evaluate", [owner._symbol for owner in owners], [ca.SX(self._expression)]
                                   ) if owners else None
            self._evaluator = (owners, function)
        owners, function = self._evaluator
        if function is not None:
            result = function(*(owner._value for owner in owners))
        else:
            result = self._expression if isinstance(self._expression, ca.DM) else ca.evalf(self._expression)
        return self._values_from(np.asarray(ca.DM(result), dtype=float))

    def _free_of_variables(self, what: str):
        """The CasADi expression of a quantity that refers to no variable, for use with foreign CasADi
        expressions; one with variables is refused (their values would be frozen)."""
        expression, owners, _ = self._operand()
        if owners:
            names = ", ".join(sorted({owner._name for owner in owners.values()}))
            raise TypeError(f"symbolic {self._kind} refers to the variable(s) {names}; it cannot enter the CasADi "
                            f"expression {what} (evaluate it with Evaluate() instead)")
        return expression

    def __SX__(self):   # CasADi converts objects with __SX__ when they meet SX expressions
        return ca.SX(self._free_of_variables("of SX"))

    def __DM__(self):
        return ca.DM(self._numeric())

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._numeric(), dtype=dtype)

    def __str__(self):
        if self._expression is not None:
            return _render(self._text)
        if self._name is not None and _recording:
            return self._name
        return _values_text(self._value) if np.ndim(self._value) else _number_text(self._value)

    __repr__ = __str__


def _split(value):
    """(CasADi expression, variables, text) of an operand: a quantity, or a number (copied)."""
    if isinstance(value, _Quantity):
        return value._operand()
    if isinstance(value, (numbers.Real, np.bool_)):
        return ca.DM(float(value)), {}, _number_text(value)
    raise TypeError(f"expected a symbolic Real or a number, got {type(value).__name__}")


def _is_casadi(*values) -> bool:
    return any(isinstance(value, _CASADI_TYPES) for value in values)


def _casadi_operands(*values):
    """The operands for a computation with foreign CasADi expressions: quantities without variables as their
    CasADi expressions, everything else as given."""
    return [value._free_of_variables("given to a CasADi function") if isinstance(value, _Quantity) else value
            for value in values]


class Real(_Quantity):
    """A symbolic scalar: ``Real()`` (0), ``Real(value)`` (a number), ``Real(name, value)`` (a variable).

    Arithmetic (+, -, *, /, **, unary -), comparisons (<, <=, >, >=, ==, !=; they give 1 or 0) and the
    functions of this module give Reals; ``float(x)`` and ``Evaluate()`` the value.
    """

    _kind = "Real"
    __hash__ = _Quantity.__hash__   # by identity (== gives a Real)

    def __init__(self, *arguments):
        if len(arguments) == 0:
            self._set_number(np.float64(0.0))
        elif len(arguments) == 1 and isinstance(arguments[0], Real):   # a copy (of a variable: its value)
            expression, owners, text = arguments[0]._operand()
            if owners and arguments[0]._expression is not None:
                self._set_expression(expression, owners, text)
            else:
                self._set_number(np.float64(arguments[0]._numeric()))
        elif len(arguments) == 1:
            self._set_number(_float(arguments[0], "Real(value)"))
        elif len(arguments) == 2 and isinstance(arguments[0], str):
            self._set_variable(arguments[0], _float(arguments[1], f"Real('{arguments[0]}', value)"))
        else:
            raise TypeError("Real() takes no argument, a value, or a name and a value")

    @staticmethod
    def _values_from(array: np.ndarray):
        return np.float64(array.reshape(-1)[0])

    @staticmethod
    def _shape_of(values) -> tuple:
        return (1, 1)

    def Evaluate(self) -> float:
        """The value: of the expression (with the variables' current values), else the stored number."""
        return float(self._numeric())

    def __float__(self):
        return self.Evaluate()

    def __bool__(self):
        expression, owners, _ = self._operand()
        if owners:
            raise TypeError(f"the truth of the symbolic Real '{self}' depends on variables and is not known when "
                            f"it is recorded; use exudyn.symbolic.IfThenElse(condition, value, otherwise) instead of "
                            f"a Python if")
        return self.Evaluate() != 0.0

    @property
    def value(self) -> float:
        """The stored number (of a variable or a number; an expression has none: use Evaluate)."""
        if self._expression is not None:
            raise SymbolicError("value can only be read from a Real that holds no expression; use Evaluate()")
        return float(self._value)

    @value.setter
    def value(self, number):
        self.SetValue(number)

    def SetValue(self, value) -> None:
        """Set the value: of a variable (expressions that refer to it see the new value), else the Real becomes
        this number."""
        number = np.float64(float(value))
        if self._name is not None:
            self._value = number
        else:
            self._set_number(number)

    def Diff(self, variable: "Real") -> float:
        """The derivative of this expression with respect to the variable ``variable`` (a named Real), at the
        variables' current values (exact, by CasADi's automatic differentiation)."""
        if not isinstance(variable, Real) or variable._name is None:
            raise SymbolicError(f"Diff needs a variable (a Real with a name), got {variable!r}")
        if self is variable:
            return 1.0
        if self._expression is None:
            if self._name is not None:
                return 0.0
            raise SymbolicError("Diff needs an expression (recorded with SetRecording(True)); this Real is the "
                                "number " + str(self))
        if id(variable) not in self._owners:
            return 0.0
        derivative = Real.__new__(Real)
        derivative._set_expression(ca.jacobian(ca.SX(self._expression), variable._symbol), self._owners, "")
        return derivative.Evaluate()

    # arithmetic: quantities and numbers; foreign CasADi expressions give CasADi expressions
    def _binary(self, other, operation, template, reflected=False):
        if isinstance(other, (Vector, Matrix)):
            return NotImplemented
        if _is_casadi(other):
            left, right = _casadi_operands(self, other)
            return operation(right, left) if reflected else operation(left, right)
        if not isinstance(other, (Real, numbers.Real, np.bool_)):
            return NotImplemented
        (a, owners_a, text_a), (b, owners_b, text_b) = _split(self), _split(other)
        if reflected:
            (a, owners_a, text_a), (b, owners_b, text_b) = (b, owners_b, text_b), (a, owners_a, text_a)
        return Real._from(operation(a, b), {**owners_a, **owners_b}, template(text_a, text_b))

    def __add__(self, other):
        return self._binary(other, lambda a, b: a + b, _infix(" + "))

    def __radd__(self, other):
        return self._binary(other, lambda a, b: a + b, _infix(" + "), True)

    def __sub__(self, other):
        return self._binary(other, lambda a, b: a - b, _infix(" - "))

    def __rsub__(self, other):
        return self._binary(other, lambda a, b: a - b, _infix(" - "), True)

    def __mul__(self, other):
        return self._binary(other, lambda a, b: a * b, _infix(" * "))

    def __rmul__(self, other):
        return self._binary(other, lambda a, b: a * b, _infix(" * "), True)

    def __truediv__(self, other):
        return self._binary(other, lambda a, b: a / b, _infix(" / "))

    def __rtruediv__(self, other):
        return self._binary(other, lambda a, b: a / b, _infix(" / "), True)

    def __pow__(self, other):
        return self._binary(other, ca.power, _call("pow"))

    def __rpow__(self, other):
        return self._binary(other, ca.power, _call("pow"), True)

    def __lt__(self, other):
        return self._binary(other, ca.lt, _infix(" < "))

    def __le__(self, other):
        return self._binary(other, ca.le, _infix(" <= "))

    def __gt__(self, other):
        return self._binary(other, ca.gt, _infix(" > "))

    def __ge__(self, other):
        return self._binary(other, ca.ge, _infix(" >= "))

    def __eq__(self, other):
        return self._binary(other, ca.eq, _infix(" == "))

    def __ne__(self, other):
        return self._binary(other, ca.ne, _infix(" != "))

    def __neg__(self):
        expression, owners, text = _split(self)
        return Real._from(-expression, owners, ("(-", text, ")"))

    def __pos__(self):
        expression, owners, text = _split(self)
        return Real._from(expression, owners, text)

    def __abs__(self):
        return globals()["abs"](self)


def _infix(operator: str):
    return lambda a, b: ("(", a, operator, b, ")")


def _call(name: str):
    return lambda *texts: (name + "(", *_joined(texts, ", "), ")")


def _joined(texts, separator: str) -> tuple:
    parts = []
    for i, text in enumerate(texts):
        parts += [separator, text] if i else [text]
    return tuple(parts)


def _float(value, what: str) -> np.float64:
    try:
        return np.float64(float(value))
    except (TypeError, ValueError):
        raise TypeError(f"{what}: expected a number, got {value!r}") from None


def _elements(values, what: str, dimensions: int):
    """(numbers or None, symbolic items) of a list given to Vector/Matrix: numbers where all items are
    numbers, else the items as symbolic Reals (Reals or numbers)."""
    if isinstance(values, _Quantity):
        raise TypeError(f"{what}: expected a list, got a symbolic {values._kind}")
    if _holds(values, (_Quantity, ca.SX, ca.MX)):
        return None, values
    try:
        array = np.array(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{what}: expected numbers or symbolic Reals, got {values!r}") from None
    if array is not None:
        if array.size == 0:
            return np.zeros((0,) * dimensions), None
        if array.ndim != dimensions:
            raise SymbolicError(f"{what}: expected {'a list' if dimensions == 1 else 'a list of rows'} of numbers, "
                                f"got shape {array.shape}")
        return array, None
    return None, values


class Vector(_Quantity):
    """A symbolic vector: ``Vector()`` (empty), ``Vector(values)`` (numbers or Reals), ``Vector(name, values)``
    (a variable).

    ``v + w``, ``v - w``, ``-v``, ``x * v`` and ``v * x`` (x a number or Real), ``v * w`` (the scalar product, a
    Real), ``M * v`` and ``v * M`` (v^T M), ``v == w`` and ``v != w`` (Reals 1 or 0), ``v[i]`` (a Real),
    ``v[i] = number``; ``Evaluate()`` gives a NumPy array.
    """

    _kind = "Vector"
    __hash__ = _Quantity.__hash__

    def __init__(self, *arguments):
        if len(arguments) == 0:
            self._set_number(np.zeros(0))
        elif len(arguments) == 1:
            numbers_, items = _elements(arguments[0], "Vector(values)", 1)
            if items is None:
                self._set_number(numbers_)
            else:
                parts = [_split(item) for item in items]
                owners = {key: owner for _, owned, _ in parts for key, owner in owned.items()}
                expression = ca.vertcat(*(ca.SX(part[0]) if owners else part[0] for part in parts))
                self._set_expression(expression, owners, ("[", *_joined([p[2] for p in parts], ","), "]"))
                if not _recording:
                    self._set_number(self._numeric())
        elif len(arguments) == 2 and isinstance(arguments[0], str):
            numbers_, items = _elements(arguments[1], f"Vector('{arguments[0]}', values)", 1)
            if items is not None:
                raise TypeError(f"Vector('{arguments[0]}', values): a variable takes numbers")
            self._set_variable(arguments[0], numbers_)
        else:
            raise TypeError("Vector() takes no argument, a list, or a name and a list")

    @staticmethod
    def _values_from(array: np.ndarray):
        return array.reshape(-1).copy()

    def _size(self) -> int:
        return int(self._expression.shape[0]) if self._expression is not None else int(self._value.shape[0])

    def Evaluate(self) -> np.ndarray:
        """The values as a NumPy array (of the expression with the variables' current values)."""
        return np.array(self._numeric(), dtype=float)

    def NumberOfItems(self) -> int:
        return self._size()

    def __len__(self):
        return self._size()

    def SetVector(self, values) -> None:
        """Set the values: of a variable (of the same size), else the Vector becomes these numbers."""
        array, items = _elements(values, "SetVector", 1)
        if items is not None:
            array = np.array([float(item) for item in items])
        if self._name is not None:
            if array.shape != self._value.shape:
                raise SymbolicError(f"SetVector: the variable '{self._name}' has {self._value.size} items, got "
                                    f"{array.size}")
            self._value = array.copy()
        else:
            self._set_number(array.copy())

    def _index(self, index) -> int:
        size = self._size()
        if not isinstance(index, (numbers.Integral, np.integer)) or not 0 <= int(index) < size:
            raise IndexError(f"symbolic Vector index {index!r} out of range (size {size})")
        return int(index)

    def __getitem__(self, index):
        i = self._index(index)
        expression, owners, text = self._operand()
        return Real._from(expression[i], owners, (text, f"[{i}]"))

    def __setitem__(self, index, value):
        i = self._index(index)
        if self._expression is not None:
            self._set_number(self._numeric())
        self._value[i] = float(value)

    def NormL2(self) -> Real:
        expression, owners, text = self._operand()
        return Real._from(ca.sqrt(ca.dot(expression, expression)), owners, ("NormL2(", text, ")"))

    def MultComponents(self, other: "Vector") -> "Vector":
        """The component-wise product."""
        return self._elementwise(other, ca.times, lambda a, b: (a, ".MultComponents(", b, ")"), "MultComponents")

    def _elementwise(self, other, operation, template, what):
        if not isinstance(other, Vector):
            return NotImplemented
        if len(other) != len(self):
            raise SymbolicError(f"symbolic Vector {what}: sizes {len(self)} and {len(other)} differ")
        (a, owners_a, text_a), (b, owners_b, text_b) = self._operand(), other._operand()
        return Vector._from(operation(a, b), {**owners_a, **owners_b}, template(text_a, text_b))

    def __add__(self, other):
        return self._elementwise(other, lambda a, b: a + b, _infix(" + "), "+")

    def __sub__(self, other):
        return self._elementwise(other, lambda a, b: a - b, _infix(" - "), "-")

    def __neg__(self):
        expression, owners, text = self._operand()
        return Vector._from(-expression, owners, ("(-", text, ")"))

    def __pos__(self):
        expression, owners, text = self._operand()
        return Vector._from(expression, owners, text)

    def _scaled(self, factor, reflected):
        (a, owners_a, text_a), (b, owners_b, text_b) = self._operand(), _split(factor)
        return Vector._from(a * b, {**owners_a, **owners_b}, _infix(" * ")(text_b, text_a) if reflected else
                            _infix(" * ")(text_a, text_b))

    def __mul__(self, other):
        if isinstance(other, Vector):
            if len(other) != len(self):
                raise SymbolicError(f"symbolic Vector * Vector (scalar product): sizes {len(self)} and "
                                    f"{len(other)} differ")
            (a, owners_a, text_a), (b, owners_b, text_b) = self._operand(), other._operand()
            return Real._from(ca.dot(a, b), {**owners_a, **owners_b}, _infix(" * ")(text_a, text_b))
        if isinstance(other, Matrix):
            return other._times_vector(self, transposed=True)
        if isinstance(other, (Real, numbers.Real, np.bool_)):
            return self._scaled(other, False)
        return NotImplemented

    def __rmul__(self, other):
        if isinstance(other, (Real, numbers.Real, np.bool_)):
            return self._scaled(other, True)
        return NotImplemented

    def __truediv__(self, other):
        if isinstance(other, (Real, numbers.Real, np.bool_)):
            (a, owners_a, text_a), (b, owners_b, text_b) = self._operand(), _split(other)
            return Vector._from(a / b, {**owners_a, **owners_b}, _infix(" / ")(text_a, text_b))
        return NotImplemented

    def __eq__(self, other):
        return self._compare(other, " == ")

    def __ne__(self, other):
        return self._compare(other, " != ")

    def _compare(self, other, operator):
        if not isinstance(other, Vector):
            return NotImplemented
        (a, owners_a, text_a), (b, owners_b, text_b) = self._operand(), other._operand()
        equal = ca.mmin(ca.eq(a, b)) if len(self) == len(other) and len(self) else ca.DM(float(len(self) ==
                                                                                               len(other)))
        result = equal if operator == " == " else ca.logic_not(equal)
        return Real._from(result, {**owners_a, **owners_b}, _infix(operator)(text_a, text_b))


class Matrix(_Quantity):
    """A symbolic matrix: ``Matrix()`` (empty), ``Matrix(values)`` (rows of numbers or Reals, or a NumPy array),
    ``Matrix(name, values)`` (a variable).

    ``M + N``, ``M - N``, ``-M``, ``x * M`` and ``M * x`` (x a number or Real), ``M * N``, ``M * v`` (a
    Vector), ``M[i, j]`` (a Real), ``M[i, j] = number``; ``Evaluate()`` gives a 2-dimensional NumPy array.
    """

    _kind = "Matrix"

    def __init__(self, *arguments):
        if len(arguments) == 0:
            self._set_number(np.zeros((0, 0)))
        elif len(arguments) == 1:
            numbers_, rows = _elements(arguments[0], "Matrix(values)", 2)
            if rows is None:
                self._set_number(numbers_.copy())
            else:
                parts = [[_split(item) for item in row] for row in rows]
                if len({len(row) for row in parts}) > 1:
                    raise SymbolicError("Matrix(values): the rows have different lengths")
                owners = {key: owner for row in parts for _, owned, _ in row for key, owner in owned.items()}
                expression = ca.vertcat(*(ca.horzcat(*(ca.SX(p[0]) for p in row)) for row in parts))
                text = ("[", *_joined([("[", *_joined([p[2] for p in row], ","), "]") for row in parts], ","), "]")
                self._set_expression(expression, owners, text)
                if not _recording:
                    self._set_number(self._numeric())
        elif len(arguments) == 2 and isinstance(arguments[0], str):
            numbers_, rows = _elements(arguments[1], f"Matrix('{arguments[0]}', values)", 2)
            if rows is not None:
                raise TypeError(f"Matrix('{arguments[0]}', values): a variable takes numbers")
            self._set_variable(arguments[0], numbers_.copy())
        else:
            raise TypeError("Matrix() takes no argument, rows of values, or a name and rows of values")

    @staticmethod
    def _values_from(array: np.ndarray):
        return array.reshape(array.shape[0], -1).copy() if array.ndim else array.reshape(1, 1)

    def _shape(self) -> tuple:
        source = self._expression if self._expression is not None else self._value
        return int(source.shape[0]), int(source.shape[1])

    def Evaluate(self) -> np.ndarray:
        """The values as a 2-dimensional NumPy array (of the expression with the variables' current values)."""
        return np.array(self._numeric(), dtype=float)

    def NumberOfRows(self) -> int:
        return self._shape()[0]

    def NumberOfColumns(self) -> int:
        return self._shape()[1]

    def SetMatrix(self, values) -> None:
        """Set the values: of a variable (of the same shape), else the Matrix becomes these numbers."""
        array, rows = _elements(values, "SetMatrix", 2)
        if rows is not None:
            array = np.array([[float(item) for item in row] for row in rows])
        if self._name is not None:
            if array.shape != self._value.shape:
                raise SymbolicError(f"SetMatrix: the variable '{self._name}' has shape {self._value.shape}, got "
                                    f"{array.shape}")
            self._value = array.copy()
        else:
            self._set_number(array.copy())

    def _index(self, index) -> tuple:
        rows, columns = self._shape()
        if (not isinstance(index, tuple) or len(index) != 2
                or not all(isinstance(i, (numbers.Integral, np.integer)) for i in index)
                or not (0 <= index[0] < rows and 0 <= index[1] < columns)):
            raise IndexError(f"symbolic Matrix index {index!r}: expected [row, column] within {rows} x {columns}")
        return int(index[0]), int(index[1])

    def __getitem__(self, index) -> Real:
        i, j = self._index(index)
        expression, owners, text = self._operand()
        return Real._from(expression[i, j], owners, (text, f"[{i},{j}]"))

    def Get(self, row: int, column: int) -> Real:
        return self[row, column]

    def __setitem__(self, index, value):
        i, j = self._index(index)
        if self._expression is not None:
            self._set_number(self._numeric())
        self._value[i, j] = float(value)

    def _same_shape(self, other, operation, operator):
        if not isinstance(other, Matrix):
            return NotImplemented
        if other._shape() != self._shape():
            raise SymbolicError(f"symbolic Matrix {operator.strip()}: shapes {self._shape()} and {other._shape()} "
                                f"differ")
        (a, owners_a, text_a), (b, owners_b, text_b) = self._operand(), other._operand()
        return Matrix._from(operation(a, b), {**owners_a, **owners_b}, _infix(operator)(text_a, text_b))

    def __add__(self, other):
        return self._same_shape(other, lambda a, b: a + b, " + ")

    def __sub__(self, other):
        return self._same_shape(other, lambda a, b: a - b, " - ")

    def __neg__(self):
        expression, owners, text = self._operand()
        return Matrix._from(-expression, owners, ("(-", text, ")"))

    def _times_vector(self, vector: Vector, transposed=False) -> Vector:
        rows, columns = self._shape()
        if len(vector) != (rows if transposed else columns):
            raise SymbolicError(f"symbolic {'Vector * Matrix' if transposed else 'Matrix * Vector'}: a "
                                f"{rows} x {columns} matrix and a vector of {len(vector)} items")
        (a, owners_a, text_a), (b, owners_b, text_b) = self._operand(), vector._operand()
        product = ca.mtimes(a.T, b) if transposed else ca.mtimes(a, b)
        return Vector._from(product, {**owners_a, **owners_b},
                            _infix(" * ")(text_b, text_a) if transposed else _infix(" * ")(text_a, text_b))

    def __mul__(self, other):
        if isinstance(other, Vector):
            return self._times_vector(other)
        if isinstance(other, Matrix):
            if self._shape()[1] != other._shape()[0]:
                raise SymbolicError(f"symbolic Matrix * Matrix: shapes {self._shape()} and {other._shape()}")
            (a, owners_a, text_a), (b, owners_b, text_b) = self._operand(), other._operand()
            return Matrix._from(ca.mtimes(a, b), {**owners_a, **owners_b}, _infix(" * ")(text_a, text_b))
        if isinstance(other, (Real, numbers.Real, np.bool_)):
            (a, owners_a, text_a), (b, owners_b, text_b) = self._operand(), _split(other)
            return Matrix._from(a * b, {**owners_a, **owners_b}, _infix(" * ")(text_a, text_b))
        return NotImplemented

    def __rmul__(self, other):
        if isinstance(other, (Real, numbers.Real, np.bool_)):
            (a, owners_a, text_a), (b, owners_b, text_b) = self._operand(), _split(other)
            return Matrix._from(b * a, {**owners_a, **owners_b}, _infix(" * ")(text_b, text_a))
        return NotImplemented


# Exudyn's counters of its C++ allocations; floatframe has none to count (they stay as a script sets them)
for _quantity in (Real, Vector, Matrix):
    setattr(_quantity, "__newCount", 0)
    setattr(_quantity, "__deleteCount", 0)


# --- functions -----------------------------------------------------------------------------------------------------
def _round(x):
    """C's round: halves away from zero (exact: x - trunc(x) has no rounding error)."""
    truncated = ca.sign(x) * ca.floor(ca.fabs(x))
    return truncated + ca.sign(x) * ca.ge(ca.fabs(x - truncated), 0.5)


def _unary(name: str, operation):
    def function(x):
        if _is_casadi(x):
            return operation(x)
        expression, owners, text = _split(x)
        return Real._from(operation(expression), owners, (name + "(", text, ")"))
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"{name}(x) of a symbolic Real or a number (a Real); of a CasADi expression, its expression."
    return function


def _binary(name: str, operation):
    def function(x, y):
        if _is_casadi(x, y):
            return operation(*_casadi_operands(x, y))
        (a, owners_a, text_a), (b, owners_b, text_b) = _split(x), _split(y)
        return Real._from(operation(a, b), {**owners_a, **owners_b}, _call(name)(text_a, text_b))
    function.__name__ = function.__qualname__ = name
    function.__doc__ = (f"{name}(x, y) of symbolic Reals or numbers (a Real); of CasADi expressions, their "
                        f"expression.")
    return function


abs = _unary("abs", ca.fabs)                      # noqa: A001  (Exudyn's names)
sign = _unary("sign", ca.sign)
Not = _unary("Not", ca.logic_not)
round = _unary("round", _round)                   # noqa: A001
ceil = _unary("ceil", ca.ceil)
floor = _unary("floor", ca.floor)
exp = _unary("exp", ca.exp)
sqrt = _unary("sqrt", ca.sqrt)
log = _unary("log", ca.log)
sin = _unary("sin", ca.sin)
cos = _unary("cos", ca.cos)
tan = _unary("tan", ca.tan)
asin = _unary("asin", ca.asin)
acos = _unary("acos", ca.acos)
atan = _unary("atan", ca.atan)
sinh = _unary("sinh", ca.sinh)
cosh = _unary("cosh", ca.cosh)
tanh = _unary("tanh", ca.tanh)
asinh = _unary("asinh", ca.asinh)
acosh = _unary("acosh", ca.acosh)
atanh = _unary("atanh", ca.atanh)
isfinite = _unary("isfinite", lambda x: ca.lt(ca.fabs(x), math.inf))   # NaN < inf is false, as inf < inf
pow = _binary("pow", ca.power)                    # noqa: A001
atan2 = _binary("atan2", ca.atan2)
mod = _binary("mod", ca.fmod)                     # C's fmod: the sign of x
min = _binary("min", ca.fmin)                     # noqa: A001
max = _binary("max", ca.fmax)                     # noqa: A001


def IfThenElse(condition, value, otherwise):
    """``value`` where ``condition`` is not 0, else ``otherwise`` (symbolic Reals or numbers; recorded as one
    expression, so that a user function can branch on the state)."""
    if _is_casadi(condition, value, otherwise):
        return ca.if_else(*_casadi_operands(condition, value, otherwise))
    parts = [_split(x) for x in (condition, value, otherwise)]
    owners = {key: owner for _, owned, _ in parts for key, owner in owned.items()}
    text = ("IfThenElse(", *_joined([part[2] for part in parts], ","), ")")
    return Real._from(ca.if_else(*(part[0] for part in parts)), owners, text)


# --- named variables -----------------------------------------------------------------------------------------------
class VariableSet:
    """Named Real variables, e.g. to switch the behaviour of a recorded user function from outside:
    ``Set(name, value)`` (adds one where it does not exist), ``Get(name)`` (the variable, a Real),
    ``Add(name, value)`` or ``Add(real)`` (a new one), ``set[name]``."""

    def __init__(self):
        self._variables = {}

    def Add(self, name_or_real, value=None) -> None:
        if isinstance(name_or_real, Real):
            if name_or_real._name is None:
                raise SymbolicError("VariableSet.Add(real): the Real must be a variable (made with a name)")
            name, variable = name_or_real._name, name_or_real
        else:
            name, variable = str(name_or_real), Real(str(name_or_real), _float(value, "VariableSet.Add"))
        if name in self._variables:
            raise SymbolicError(f"VariableSet.Add: a variable '{name}' exists already (Set changes its value)")
        self._variables[name] = variable

    def Set(self, name: str, value) -> None:
        if name in self._variables:
            self._variables[name].SetValue(value)
        else:
            self.Add(name, value)

    def Get(self, name: str) -> Real:
        if name not in self._variables:
            raise SymbolicError(f"VariableSet.Get: variable '{name}' does not exist (the set has {self.GetNames()})")
        return self._variables[name]

    __getitem__ = Get
    __setitem__ = Set

    def Exists(self, name: str) -> bool:
        return name in self._variables

    def GetNames(self) -> list:
        return list(self._variables)

    def NumberOfItems(self) -> int:
        return len(self._variables)

    def Reset(self) -> None:
        self._variables.clear()

    def __str__(self):
        return "{" + ", ".join(f"'{name}': {_number_text(variable._value)}"
                               for name, variable in self._variables.items()) + "}"

    __repr__ = __str__


variables = VariableSet()


# --- symbolic user functions ---------------------------------------------------------------------------------------
# The arguments (after mbs for MainSystem functions) and the result of Exudyn 1.13.6's user functions, by
# "ItemType,userFunctionName". V3/V6: vectors of 3/6, V: a vector of any size, M3/M6: matrices, I: an item number.
_USER_FUNCTIONS = {
    "MainSystem,preStepUserFunction": ("MainSystem R", "R"),
    "MainSystem,postStepUserFunction": ("MainSystem R", "R"),
    "ObjectGenericODE2,forceUserFunction": ("MainSystem R I V V", "V"),
    "ObjectGenericODE2,massMatrixUserFunction": ("MainSystem R I V V", "M"),
    "ObjectGenericODE1,rhsUserFunction": ("MainSystem R I V", "V"),
    "ObjectKinematicTree,forceUserFunction": ("MainSystem R I V V", "V"),
    "ObjectFFRF,forceUserFunction": ("MainSystem R I V V", "V"),
    "ObjectFFRF,massMatrixUserFunction": ("MainSystem R I V V", "M"),
    "ObjectFFRFreducedOrder,forceUserFunction": ("MainSystem R I V V", "V"),
    "ObjectFFRFreducedOrder,massMatrixUserFunction": ("MainSystem R I V V", "M"),
    "ObjectANCFCable2D,axialForceUserFunction": ("MainSystem R I" + " R" * 9, "R"),
    "ObjectANCFCable2D,bendingMomentUserFunction": ("MainSystem R I" + " R" * 9, "R"),
    "ObjectConnectorSpringDamper,springForceUserFunction": ("MainSystem R I R R R R R", "R"),
    "ObjectConnectorCartesianSpringDamper,springForceUserFunction": ("MainSystem R I V3 V3 V3 V3 V3", "V3"),
    "ObjectConnectorRigidBodySpringDamper,springForceTorqueUserFunction":
        ("MainSystem R I V3 V3 V3 V3 M6 M6 M3 M3 V6", "V6"),
    "ObjectConnectorLinearSpringDamper,springForceUserFunction": ("MainSystem R I R R R R R", "R"),
    "ObjectConnectorTorsionalSpringDamper,springTorqueUserFunction": ("MainSystem R I R R R R R", "R"),
    "ObjectConnectorCoordinateSpringDamper,springForceUserFunction": ("MainSystem R I R R R R R", "R"),
    "ObjectConnectorCoordinateSpringDamperExt,springForceUserFunction": ("MainSystem R I" + " R" * 11, "R"),
    "ObjectConnectorCoordinate,offsetUserFunction": ("MainSystem R I R", "R"),
    "ObjectConnectorCoordinate,offsetUserFunction_t": ("MainSystem R I R", "R"),
    "ObjectJointGeneric,offsetUserFunction": ("MainSystem R I V6", "V6"),
    "ObjectJointGeneric,offsetUserFunction_t": ("MainSystem R I V6", "V6"),
    "LoadForceVector,loadVectorUserFunction": ("MainSystem R V3", "V3"),
    "LoadTorqueVector,loadVectorUserFunction": ("MainSystem R V3", "V3"),
    "LoadMassProportional,loadVectorUserFunction": ("MainSystem R V3", "V3"),
    "LoadCoordinate,loadUserFunction": ("MainSystem R R", "R"),
}
_LOAD_FUNCTIONS = ("loadVectorUserFunction", "loadUserFunction")


def _item_type_name(mbs, function_name: str, item_index, item_type_name) -> str:
    """Exudyn's type name of the item ('ObjectConnectorSpringDamper', 'LoadForceVector', 'MainSystem')."""
    if item_type_name is not None:
        if item_index is not None:
            raise ValueError("ConvertFunctionToSymbolic: give either itemIndex or itemTypeName, not both")
        return str(item_type_name)
    if item_index is None:
        raise ValueError("ConvertFunctionToSymbolic: itemIndex (the item number) or itemTypeName is needed")
    if int(item_index) == -1:
        return "MainSystem"
    if function_name in _LOAD_FUNCTIONS:
        return "Load" + mbs.GetLoad(int(item_index))["loadType"]
    return "Object" + mbs.GetObject(int(item_index))["objectType"]


def _argument_variable(kind: str, name: str, size=None):
    """The variable a recorded user function receives for an argument of ``kind``."""
    if kind in ("R", "I"):
        return Real(name, 0.0)
    if kind.startswith("V"):
        return Vector(name, [0.0] * (size if size is not None else int(kind[1:] or 0)))
    if kind.startswith("M"):
        rows, columns = size if size is not None else (int(kind[1:] or 1),) * 2
        return Matrix(name, np.zeros((rows, columns)))
    raise ValueError(f"argument {name}: a user function argument of kind {kind} has no symbolic form")


def ConvertFunctionToSymbolic(mbs, function, userFunctionName, itemIndex=None, itemTypeName=None, verbose=0,
                              sizes=None) -> dict:
    """Record ``function`` (a Python user function of an item) with symbolic arguments.

    Parameters
    ----------
    mbs : MainSystem
    function : callable
        The Python user function, with the arguments of ``userFunctionName`` of the item.
    userFunctionName : str
        The item's parameter, e.g. 'springForceUserFunction' (an item can have several).
    itemIndex : int, optional
        The item's number (objects and loads; -1: MainSystem); or give ``itemTypeName``.
    itemTypeName : str, optional
        Exudyn's type name, e.g. 'ObjectConnectorSpringDamper', instead of ``itemIndex``.
    verbose : int
        > 0 prints the recorded function.
    sizes : dict, optional
        Argument position -> size of a vector (int) or matrix ((rows, columns)) argument, to record a function
        of vectors of another size than declared.

    Returns
    -------
    dict
        'functionName', 'argList' (mbs and the argument variables), 'argTypeList', 'returnValue' (a symbolic
        Real, Vector or Matrix) and 'returnType'.
    """
    type_name = _item_type_name(mbs, userFunctionName, itemIndex, itemTypeName)
    key = f"{type_name},{userFunctionName}"
    if key not in _USER_FUNCTIONS:
        known = sorted(k for k in _USER_FUNCTIONS if k.startswith(type_name + ","))
        raise ValueError(f"ConvertFunctionToSymbolic: {key} has no symbolic form"
                         + (f" (this item has {', '.join(k.split(',')[1] for k in known)})" if known else ""))
    kinds, result_kind = _USER_FUNCTIONS[key][0].split(), _USER_FUNCTIONS[key][1]
    code = function.__code__
    names = code.co_varnames[:code.co_argcount]
    if len(names) != len(kinds):
        raise ValueError(f"ConvertFunctionToSymbolic: the function '{function.__name__}' takes {len(names)} "
                         f"arguments; {key} takes {len(kinds)}: {', '.join(kinds)}")
    arguments = [mbs if kind == "MainSystem" else _argument_variable(kind, name, (sizes or {}).get(position))
                 for position, (kind, name) in enumerate(zip(kinds, names))]
    recording = GetRecording()
    SetRecording(True)
    try:
        value = function(*arguments)
    finally:
        SetRecording(recording)
    value = _as_quantity(value, function.__name__)
    expected = {"R": Real, "I": Real}.get(result_kind[0], Vector if result_kind[0] == "V" else Matrix)
    if not isinstance(value, expected):
        raise ValueError(f"ConvertFunctionToSymbolic: '{function.__name__}' returned a {type(value).__name__}; "
                         f"{key} must return a {expected.__name__}")
    if verbose:
        print("symbolic user function", function.__name__, "returns", value)
    return {"functionName": function.__name__, "argList": arguments, "argTypeList": kinds, "returnValue": value,
            "returnType": result_kind}


def _as_quantity(value, name: str) -> _Quantity:
    """A user function's value as a symbolic quantity (lists become Vectors, numbers Reals)."""
    recording = GetRecording()
    SetRecording(True)
    try:
        if isinstance(value, _Quantity):
            return value
        if isinstance(value, (numbers.Real, np.bool_)):
            return Real(float(value))
        if isinstance(value, np.ndarray) and value.ndim == 2:
            return Matrix(value)
        if isinstance(value, (list, tuple, np.ndarray)):
            if len(value) and isinstance(value[0], (list, tuple, np.ndarray)):
                return Matrix(list(value))
            return Vector(list(value))
    finally:
        SetRecording(recording)
    raise TypeError(f"symbolic user function '{name}' returned {type(value).__name__}: expected a symbolic Real, "
                    f"Vector or Matrix, a number or a list")


class UserFunction:
    """A recorded (symbolic) user function, see :func:`CreateSymbolicUserFunction`.

    Called like the Python function it was recorded from: with CasADi symbols among its arguments it gives the
    CasADi expression (how floatframe's items put it into the residual), with numbers it gives numbers
    (``Evaluate`` too). ``str`` shows the recorded expression.
    """

    def __init__(self):
        self._definition = None
        self._recordings = {}

    def SetUserFunctionFromDict(self, mbs, fnDict: dict, userFunctionName: str, itemIndex=None,
                                itemTypeName=None) -> None:
        """Take the recording of :func:`ConvertFunctionToSymbolic` (``fnDict``)."""
        self._definition = dict(fnDict, userFunctionName=userFunctionName, itemIndex=itemIndex,
                                itemTypeName=None if itemTypeName in (None, "None") else itemTypeName, mbs=mbs)
        sizes = tuple(a._symbol.shape if isinstance(a, _Quantity) else None for a in fnDict["argList"])
        self._recordings = {sizes: self._compiled(fnDict)}

    def _check(self):
        if self._definition is None:
            raise SymbolicError("symbolic UserFunction: no function recorded (use CreateSymbolicUserFunction)")

    @staticmethod
    def _compiled(recording: dict):
        """(CasADi Function of the arguments and the free variables, the free variables)."""
        recorded = GetRecording()
        SetRecording(True)
        try:
            expression, owners, _ = recording["returnValue"]._operand()
        finally:
            SetRecording(recorded)
        symbols = [a._symbol for a in recording["argList"] if isinstance(a, _Quantity)]
        arguments = {id(a) for a in recording["argList"]}
        free = [owner for key, owner in owners.items() if key not in arguments]
        function = ca.Function(recording["functionName"], symbols + [owner._symbol for owner in free],
                               [ca.SX(expression)])
        return function, free

    def _recording_for(self, values: list) -> tuple:
        """The compiled recording for arguments of these sizes (recorded again for other vector sizes)."""
        definition = self._definition
        sizes = tuple(None if v is None else tuple(int(n) for n in v.shape) for v in values)
        if sizes not in self._recordings:
            kinds = definition["argTypeList"]
            wrong = [i for i, (kind, size) in enumerate(zip(kinds, sizes))
                     if kind in ("R", "I") and size != (1, 1)]
            if wrong:
                raise SymbolicError(f"symbolic user function '{definition['functionName']}': argument {wrong[0]} "
                                    f"must be a number, got shape {sizes[wrong[0]]}")
            again = ConvertFunctionToSymbolic(
                definition["mbs"], self._python_function(), definition["userFunctionName"],
                None if definition["itemTypeName"] else definition["itemIndex"], definition["itemTypeName"],
                sizes={i: (s[0] if kind.startswith("V") else s) for i, (kind, s) in enumerate(zip(kinds, sizes))
                       if s is not None and kind[0] in "VM"})
            self._recordings[sizes] = self._compiled(again)
        return self._recordings[sizes]

    def _python_function(self):
        function = self._definition.get("function")
        if function is None:
            raise SymbolicError(f"symbolic user function '{self._definition['functionName']}' was recorded for "
                                f"other argument sizes")
        return function

    def _inputs(self, arguments) -> tuple:
        """(CasADi values of the arguments but mbs, whether any is symbolic)."""
        kinds = self._definition["argTypeList"]
        if len(arguments) != len(kinds):
            raise TypeError(f"symbolic user function '{self._definition['functionName']}' takes {len(kinds)} "
                            f"arguments, got {len(arguments)}")
        values, symbolic = [], False
        for kind, argument in zip(kinds, arguments):
            if kind == "MainSystem":
                values.append(None)
                continue
            value = _casadi_value(argument, kind)
            symbolic = symbolic or isinstance(value, (ca.SX, ca.MX))
            values.append(value)
        return values, symbolic

    def __call__(self, *arguments):
        self._check()
        values, symbolic = self._inputs(arguments)
        function, free = self._recording_for(values)
        inputs = [v for v in values if v is not None]
        if symbolic and free:
            names = ", ".join(owner._name for owner in free)
            raise TypeError(f"symbolic user function '{self._definition['functionName']}' reads the variable(s) "
                            f"{names}, which can change during a solve: it is evaluated numerically")
        result = function(*inputs, *(owner._value for owner in free))
        if symbolic:
            return result
        return self._numbers(result)

    def Evaluate(self, *arguments):
        """The function's value at numeric arguments (all of them, mbs first as in the item's call): a float,
        or a list (of lists for a matrix)."""
        self._check()
        values, symbolic = self._inputs(arguments)
        if symbolic:
            raise TypeError("UserFunction.Evaluate takes numbers; call the function itself with CasADi symbols")
        function, free = self._recording_for(values)
        return self._numbers(function(*(v for v in values if v is not None), *(owner._value for owner in free)))

    def _numbers(self, result):
        array = np.asarray(ca.DM(result), dtype=float)
        kind = self._definition["returnType"]
        if kind in ("R", "I"):
            return float(array.reshape(-1)[0])
        return array.reshape(-1).tolist() if kind.startswith("V") else array.tolist()

    def __str__(self):
        if self._definition is None:
            return "<empty symbolic user function>"
        recording = GetRecording()
        SetRecording(True)
        try:
            return str(self._definition["returnValue"])
        finally:
            SetRecording(recording)

    def __repr__(self):
        return f"Symbolic<{self._definition['functionName'] if self._definition else ''}>"


def _casadi_value(argument, kind: str):
    """A user function argument as a CasADi value: SX/MX stay symbolic, numbers and lists become DM (lists
    that hold symbols, SX)."""
    if isinstance(argument, _Quantity):
        argument = argument._numeric()
    if isinstance(argument, (ca.SX, ca.MX, ca.DM)):
        value = argument
    elif isinstance(argument, (list, tuple)) and _holds(argument, (ca.SX, ca.MX)):
        rows = [ca.horzcat(*(ca.SX(x) for x in row)) if isinstance(row, (list, tuple, np.ndarray)) else ca.SX(row)
                for row in argument]
        value = ca.vertcat(*rows)
    else:
        value = ca.DM(np.asarray(argument, dtype=float))
    if kind.startswith("V") and value.shape[1] != 1:
        value = ca.vec(value)
    return value


def _holds(item, types) -> bool:
    """Whether ``item`` (a list, possibly nested) is or holds an object of ``types``."""
    if isinstance(item, (list, tuple)) or (isinstance(item, np.ndarray) and item.dtype == object):
        return any(_holds(x, types) for x in item)
    return isinstance(item, types)


def CreateSymbolicUserFunction(mbs, function, userFunctionName, itemIndex=None, itemTypeName=None,
                               verbose=0) -> UserFunction:
    """A symbolic user function recorded from the Python user function ``function`` (arguments as
    :func:`ConvertFunctionToSymbolic`); give it to the item, e.g.
    ``mbs.SetObjectParameter(connector, 'springForceUserFunction', CreateSymbolicUserFunction(...))``.

    On floatframe the item puts the recorded expression into the residual (exact Jacobians, no Python in the
    solver). Only what the recording sees is kept: a Python ``if`` on the arguments is refused (use
    :func:`IfThenElse`).
    """
    definition = ConvertFunctionToSymbolic(mbs, function, userFunctionName, itemIndex, itemTypeName, verbose)
    user_function = UserFunction()
    user_function.SetUserFunctionFromDict(mbs, definition, userFunctionName, itemIndex, itemTypeName)
    user_function._definition["function"] = function
    return user_function
