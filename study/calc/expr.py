"""Safe expressions for question YAML: ``calc:`` answers, distractors and ``{= ...}`` in stems.

Parsed with ``ast`` and checked against a whitelist before anything runs; never ``eval``. Allowed: numbers,
strings, arithmetic (+ - * / // % **), comparisons and ``a if c else b``, parameter names, calls to the
registered formulas by snake_case name with keyword arguments, ``gpu()``, ``model()``, ``link()`` with
their public attributes, and ``ceil floor round abs min max``. Values carry dimensions, so adding bytes to
seconds is an error and ``B / (B/s)`` is a time. Errors carry a 0-based character offset into the source.
"""

from __future__ import annotations

import ast
import math
from typing import Any, NamedTuple
from collections.abc import Callable

import study.calc.specs as _cat
from study.calc.registry import BY_PYNAME, CalcError, Step, Steps, _did_you_mean, _ensure_loaded
from study.calc.units import ONE, BANDWIDTH, BYTES, FLOP_RATE, POWER, Dim, DimensionError, Quantity, format_quantity

MAX_SOURCE = 2000
MAX_DEPTH = 32
MAX_NODES = 400
MAX_EXPONENT = 64


class ExprError(ValueError):
    """A rejected or failing expression: ``message`` and ``offset`` (0-based) into the source."""

    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset

    @property
    def column(self) -> int:
        """1-based column, as editors and ``file:line:column`` diagnostics count."""
        return self.offset + 1

    def __str__(self) -> str:
        return f"{self.message} (at column {self.column})"


class NotANumberError(ExprError):
    """An expression gave text where a number or a quantity is needed (an answer or a distractor)."""


class Evaluation(NamedTuple):
    value: Any  # float in coherent base units (B, s, FLOP, J...), or str for a name like gpu(g).name
    dim: Dim
    steps: list[Step]
    display: str
    # True when a calculator function or catalog look-up produced the value; False for arithmetic on numbers
    # and parameters alone, which an author writes already in the answer's unit (see value_in_unit).
    computed: bool = True


# Calls that only reshape a number: they do not make an author's literal a calculator result.
_ARITHMETIC_HELPERS = frozenset({"ceil", "floor", "min", "max", "round", "abs"})


# Attributes visible on catalog objects: name -> (getter, dimension or None for text).
def _q(attr: str, dim: Dim) -> Callable[[Any], Any]:
    return lambda o: Quantity(getattr(o, attr), dim)


def _num(attr: str) -> Callable[[Any], Any]:
    return lambda o: Quantity(float(getattr(o, attr)), ONE)


def _text(attr: str) -> Callable[[Any], Any]:
    return lambda o: getattr(o, attr) or ""


_ATTRS: dict[type, dict[str, Callable[[Any], Any]]] = {
    _cat.GPU: {
        "id": _text("id"), "name": _text("name"), "architecture": _text("architecture"),
        "memory_type": _text("memory_type"), "form_factor": _text("form_factor"),
        "memory": _q("memory_bytes", BYTES), "bandwidth": _q("bandwidth_bytes_s", BANDWIDTH),
        "tdp": _q("tdp_watts", POWER), "nvlink": _text("nvlink"), "pcie": _text("pcie"),
        "nvlink_bandwidth": lambda g: Quantity(g.nvlink_bandwidth_bytes_s or 0.0, BANDWIDTH),
        "mig": _num("mig"), "fp32": lambda g: Quantity((g.fp32_tflops or 0.0) * 1e12, FLOP_RATE),
    },
    _cat.Model: {
        "id": _text("id"), "name": _text("name"),
        **{a: _num(a) for a in ("params", "active_params", "layers", "hidden", "heads", "kv_heads", "head_dim",
                                "ffn", "vocab", "context", "experts", "experts_per_token")},
    },
    _cat.Link: {
        "id": _text("id"), "name": _text("name"), "kind": _text("kind"), "quoted": _text("quoted"),
        "per_direction": _q("per_direction_bytes_s", BANDWIDTH), "bidirectional": _q("bidirectional_bytes_s", BANDWIDTH),
    },
}
_METHODS = {(_cat.GPU, "peak")}
_ALL_ATTRS = {a for table in _ATTRS.values() for a in table} | {m for _, m in _METHODS}


def _same_dims(vals: list[Quantity], what: str) -> Dim:
    d = vals[0].dim
    for v in vals[1:]:
        if v.dim != d:
            raise DimensionError(f"{what} needs values of one kind")
    return d


def _round(x: Quantity, ndigits: Quantity | None = None) -> Quantity:
    nd = 0 if ndigits is None else int(ndigits.value)
    return Quantity(float(round(x.value, nd)), x.dim)


_BUILTINS: dict[str, Callable[..., Any]] = {
    "ceil": lambda x: Quantity(float(math.ceil(x.value)), x.dim),
    "floor": lambda x: Quantity(float(math.floor(x.value)), x.dim),
    "round": _round,
    "abs": lambda x: Quantity(abs(x.value), x.dim),
    "min": lambda *xs: Quantity(min(x.value for x in xs), _same_dims(list(xs), "min")),
    "max": lambda *xs: Quantity(max(x.value for x in xs), _same_dims(list(xs), "max")),
}
_CATALOG_FUNCS = {"gpu": _cat.gpu, "model": _cat.model, "link": _cat.link}

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**"}
_CMPOPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_ALLOWED = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Call, ast.keyword, ast.Attribute,
            ast.Compare, ast.IfExp, ast.Load, ast.USub, ast.UAdd, ast.Not, *_BINOPS, *_CMPOPS)

_WHY = {
    ast.Subscript: "subscripts are not allowed (use gpu(id).peak('bf16') or an attribute)",
    ast.Lambda: "lambdas are not allowed",
    ast.ListComp: "comprehensions are not allowed", ast.SetComp: "comprehensions are not allowed",
    ast.DictComp: "comprehensions are not allowed", ast.GeneratorExp: "comprehensions are not allowed",
    ast.List: "lists are not allowed", ast.Tuple: "tuples are not allowed", ast.Dict: "dicts are not allowed",
    ast.Set: "sets are not allowed", ast.Starred: "*args are not allowed", ast.NamedExpr: "':=' is not allowed",
    ast.JoinedStr: "f-strings are not allowed", ast.BoolOp: "'and'/'or' are not allowed; use 'a if c else b'",
    ast.Await: "await is not allowed",
}


def _function_names() -> set[str]:
    _ensure_loaded()
    return set(_BUILTINS) | set(_CATALOG_FUNCS) | set(BY_PYNAME)


class Expr:
    """A checked expression: ``names`` are the free parameters it reads; ``evaluate(env)`` runs it."""

    __slots__ = ("src", "tree", "names", "functions", "_starts")

    def __init__(self, src: str, tree: ast.Expression, names: frozenset[str], functions: frozenset[str],
                 starts: bytes) -> None:
        self.src, self.tree, self.names, self.functions, self._starts = src, tree, names, functions, starts

    def __repr__(self) -> str:
        return f"Expr({self.src!r})"

    def _offset(self, node: ast.AST) -> int:
        return _offset(self.src, self._starts, node)

    def evaluate(self, env: dict[str, Any] | None = None) -> Evaluation:
        env = env or {}
        missing = self.names - set(env)
        if missing:
            name = sorted(missing)[0]
            raise ExprError(f"no value for parameter {name!r}", self.src.find(name) if name in self.src else 0)
        steps = Steps()  # filled only if someone reads them (worked solutions), not during lint or grading
        v = self._eval(self.tree.body, env, steps)
        if isinstance(v, bool):
            v = Quantity(1.0 if v else 0.0, ONE)
        computed = bool(self.functions - _ARITHMETIC_HELPERS)
        if isinstance(v, str):
            return Evaluation(v, ONE, steps, v, computed)
        if not isinstance(v, Quantity):
            raise ExprError(f"the expression gives {_kind(v)}, not a number (add an attribute such as .memory)",
                            self._offset(self.tree.body))
        val = v.value
        if isinstance(val, int):
            val = float(val)
        if isinstance(val, float) and not math.isfinite(val):
            raise ExprError("the expression does not give a finite number", self._offset(self.tree.body))
        display = format_quantity(val, v.dim)
        body = self.tree.body
        if not (isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and body.func.id in BY_PYNAME):
            # Built only when a worked solution is read: the expression as it applies to these parameters
            # (the branch taken, catalog ids filled in), then with every look-up replaced by its value.
            steps.add(lambda: [Step("expression", *self._worked(body, env), display)])
        return Evaluation(val, v.dim, steps, display, computed)

    _PRECEDENCE = {ast.Add: 1, ast.Sub: 1, ast.Mult: 2, ast.Div: 2, ast.FloorDiv: 2, ast.Mod: 2, ast.Pow: 4}

    def _argument(self, node: ast.AST, env: dict[str, Any]) -> str:
        """An argument as written, with a parameter replaced by its value (``model='llama-3-70b'``)."""
        if isinstance(node, ast.Name):
            v = env[node.id]
            if isinstance(v, str):
                return repr(v)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return _number_text(float(v))
        segment = ast.get_source_segment(self._starts.decode("utf-8"), node) or ""
        return " ".join(segment.split())

    def _worked(self, node: ast.AST, env: dict[str, Any]) -> tuple[str, str]:
        """``(formula, substituted)`` for ``node``: e.g. ``link('ib-hdr').per_direction`` and ``25 GB/s``."""
        def show(value: Any) -> str:
            if isinstance(value, Quantity):
                return format_quantity(value.value, value.dim)
            return repr(value) if isinstance(value, str) else str(value)

        def value_of(n: ast.AST) -> Any:
            return self._eval(n, env, Steps())

        def wrap(child: ast.AST, text: tuple[str, str], parent_prec: int, right: bool) -> tuple[str, str]:
            prec = self._PRECEDENCE.get(type(child.op), 9) if isinstance(child, ast.BinOp) else 9
            if prec < parent_prec or (right and prec == parent_prec):
                return f"({text[0]})", f"({text[1]})"
            return text

        if isinstance(node, ast.IfExp):
            taken = node.body if self._truth(node.test, value_of(node.test)) else node.orelse
            return self._worked(taken, env)
        if isinstance(node, ast.BinOp):
            prec = self._PRECEDENCE[type(node.op)]
            left = wrap(node.left, self._worked(node.left, env), prec, right=False)
            right = wrap(node.right, self._worked(node.right, env), prec, right=True)
            sym = " x " if isinstance(node.op, ast.Mult) else f" {_BINOPS[type(node.op)]} "
            return left[0] + sym + right[0], left[1] + sym + right[1]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = self._worked(node.operand, env)
            sign = "-" if isinstance(node.op, ast.USub) else "+"
            return sign + inner[0], sign + inner[1]
        if isinstance(node, ast.Name):
            return node.id, show(value_of(node))
        if isinstance(node, ast.Attribute):
            return f"{self._worked(node.value, env)[0]}.{node.attr}", show(value_of(node))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in _CATALOG_FUNCS:
                obj = value_of(node)
                return f"{name}({obj.id!r})", getattr(obj, "name", obj.id)
            if name in _BUILTINS:
                parts = [self._worked(a, env) for a in node.args]
                return (f"{name}({', '.join(p[0] for p in parts)})", f"{name}({', '.join(p[1] for p in parts)})")
            if name in BY_PYNAME:  # a calculator call: its own steps come first; show it with these arguments
                args = ", ".join(f"{k.arg}={self._argument(k.value, env)}" for k in node.keywords)
                return f"{name}({args})", show(value_of(node))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):  # gpu(g).peak('bf16')
            args = ", ".join([self._argument(a, env) for a in node.args]
                             + [f"{k.arg}={self._argument(k.value, env)}" for k in node.keywords])
            return f"{self._worked(node.func.value, env)[0]}.{node.func.attr}({args})", show(value_of(node))
        # The tree was parsed from "(" + the flattened source + ")", so segments come from that text.
        text = ast.get_source_segment(self._starts.decode("utf-8"), node) or ""
        text = " ".join(text.split())
        try:
            return text, show(value_of(node))
        except ExprError:
            return text, text

    # -- the evaluator: every node type here was admitted by _check ------------------------------------
    def _eval(self, node: ast.AST, env: dict[str, Any], steps: Steps) -> Any:
        try:
            return self._eval_inner(node, env, steps)
        except ExprError:
            raise
        except (DimensionError, CalcError, _cat.CatalogError, ZeroDivisionError, OverflowError, TypeError,
                ValueError) as exc:
            msg = "division by zero" if isinstance(exc, ZeroDivisionError) else str(exc)
            raise ExprError(msg, self._offset(node)) from None

    def _eval_inner(self, node: ast.AST, env: dict[str, Any], steps: Steps) -> Any:
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, (str, bool)):
                return v
            if isinstance(v, (int, float)):
                return Quantity(float(v), ONE)
            raise ExprError(f"constant {v!r} is not allowed", self._offset(node))  # compile refuses it first
        if isinstance(node, ast.Name):
            v = env[node.id]
            if isinstance(v, (bool, str, Quantity)):
                return v
            if isinstance(v, (int, float)):
                return Quantity(float(v), ONE)
            raise ExprError(f"parameter {node.id!r} has an unsupported value {v!r}", self._offset(node))
        if isinstance(node, ast.BinOp):
            a = self._eval(node.left, env, steps)
            b = self._eval(node.right, env, steps)
            return self._binop(node, a, b)
        if isinstance(node, ast.UnaryOp):
            v = self._eval(node.operand, env, steps)
            if isinstance(node.op, ast.Not):
                return not self._truth(node, v)
            q = self._need_q(node, v, "a sign")
            return -q if isinstance(node.op, ast.USub) else q
        if isinstance(node, ast.Compare):
            left = self._eval(node.left, env, steps)
            for op, comp in zip(node.ops, node.comparators):
                right = self._eval(comp, env, steps)
                if not self._compare(node, op, left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            cond = self._truth(node.test, self._eval(node.test, env, steps))
            return self._eval(node.body if cond else node.orelse, env, steps)
        if isinstance(node, ast.Attribute):
            obj = self._eval(node.value, env, steps)
            table = _ATTRS.get(type(obj))
            if table is None or node.attr not in table:
                raise ExprError(f"{_kind(obj)} has no attribute {node.attr!r}"
                                + (_did_you_mean(node.attr, table) if table else ""), self._offset(_attr_pos(node)))
            return table[node.attr](obj)
        if isinstance(node, ast.Call):
            return self._call(node, env, steps)
        raise ExprError(f"unsupported syntax {type(node).__name__}", self._offset(node))  # pragma: no cover

    def _binop(self, node: ast.BinOp, a: Any, b: Any) -> Any:
        sym = _BINOPS[type(node.op)]
        qa, qb = self._need_q(node.left, a, sym), self._need_q(node.right, b, sym)
        op = node.op
        if isinstance(op, ast.Add):
            return qa + qb
        if isinstance(op, ast.Sub):
            return qa - qb
        if isinstance(op, ast.Mult):
            return qa * qb
        if isinstance(op, ast.Div):
            return qa / qb
        if isinstance(op, (ast.FloorDiv, ast.Mod)):
            if qa.dim != qb.dim and not qb.dim.is_dimensionless:
                raise DimensionError(f"'{sym}' needs values of one kind, or a plain number on the right")
            r = qa.value // qb.value if isinstance(op, ast.FloorDiv) else qa.value % qb.value
            return Quantity(float(r), ONE if qa.dim == qb.dim else qa.dim)
        # Pow: dimensionless integer exponents only, and bounded.
        if not qb.dim.is_dimensionless:
            raise ExprError("an exponent must be a plain number", self._offset(node.right))
        e = qb.value
        if abs(e) > MAX_EXPONENT:
            raise ExprError(f"exponent {e:g} is too large (limit {MAX_EXPONENT})", self._offset(node.right))
        if not qa.dim.is_dimensionless:
            if float(e) != int(e):
                raise ExprError("a quantity with a unit can only be raised to a whole power", self._offset(node.right))
            return Quantity(qa.value ** int(e), qa.dim ** int(e))
        r = float(qa.value) ** e
        if isinstance(r, complex) or not math.isfinite(r):
            raise ExprError("the power does not give a finite real number", self._offset(node))
        return Quantity(r, ONE)

    def _compare(self, node: ast.AST, op: ast.cmpop, a: Any, b: Any) -> bool:
        if isinstance(a, str) or isinstance(b, str):
            if not isinstance(op, (ast.Eq, ast.NotEq)):
                raise ExprError("text can only be compared with == or !=", self._offset(node))
            return bool(a == b) if isinstance(op, ast.Eq) else bool(a != b)
        qa, qb = self._need_q(node, a, "a comparison"), self._need_q(node, b, "a comparison")
        if qa.dim != qb.dim:
            raise DimensionError("cannot compare values of different kinds")
        x, y = qa.value, qb.value
        return bool({ast.Eq: x == y, ast.NotEq: x != y, ast.Lt: x < y, ast.LtE: x <= y, ast.Gt: x > y,
                     ast.GtE: x >= y}[type(op)])

    def _truth(self, node: ast.AST, v: Any) -> bool:
        if isinstance(v, bool):
            return v
        if isinstance(v, Quantity):
            return bool(v.value)
        raise ExprError(f"{_kind(v)} cannot be a condition", self._offset(node))

    def _need_q(self, node: ast.AST, v: Any, what: str) -> Quantity:
        if isinstance(v, Quantity):
            return v
        if isinstance(v, bool):
            return Quantity(1.0 if v else 0.0, ONE)
        raise ExprError(f"{_kind(v)} cannot be used in {what}", self._offset(node))

    def _call(self, node: ast.Call, env: dict[str, Any], steps: Steps) -> Any:
        args = [self._eval(a, env, steps) for a in node.args]
        # ``**x`` has no name (arg None); compile refuses it, so every keyword here is named.
        kwargs = {str(k.arg): self._eval(k.value, env, steps) for k in node.keywords}
        if isinstance(node.func, ast.Attribute):  # gpu(g).peak('bf16')
            obj = self._eval(node.func.value, env, steps)
            if (type(obj), node.func.attr) not in _METHODS:
                raise ExprError(f"{_kind(obj)} has no method {node.func.attr!r}", self._offset(node.func))
            dtype = args[0] if args else kwargs.get("dtype", "bf16")
            sparse = kwargs.get("sparse", False)
            if not isinstance(dtype, str):
                raise ExprError("peak() takes a dtype name such as 'bf16'", self._offset(node))
            return obj.peak(dtype, bool(self._truth(node, sparse)) if not isinstance(sparse, bool) else sparse)
        if not isinstance(node.func, ast.Name):  # compile allows only name(...) and obj.method(...)
            raise ExprError("only calculator functions can be called", self._offset(node))
        name = node.func.id
        if name in _CATALOG_FUNCS:
            if len(args) != 1 or kwargs:
                raise ExprError(f"{name}() takes one id, like {name}('...')", self._offset(node))
            a = args[0]
            if isinstance(a, (_cat.GPU, _cat.Model, _cat.Link)):
                return a
            if not isinstance(a, str):
                raise ExprError(f"{name}() takes an id string, got {_kind(a)}", self._offset(node.args[0]))
            return _CATALOG_FUNCS[name](a)
        if name in _BUILTINS:
            if kwargs:
                raise ExprError(f"{name}() takes no keyword arguments", self._offset(node))
            qs = [self._need_q(a_node, a, f"{name}()") for a_node, a in zip(node.args, args)]
            return _BUILTINS[name](*qs)
        f = BY_PYNAME[name]
        result = f.func(**kwargs)
        steps.add(lambda: result.steps)
        return result.quantity

    def __reduce__(self) -> tuple[Any, tuple[str]]:  # compiled Exprs pickle by source (process pools in lint)
        return (compile_expr, (self.src,))


def _number_text(v: float) -> str:
    """A number as an author would write it: 70e9 rather than 7e+10 or 70000000000."""
    if v and v == int(v) and abs(v) >= 1e6:
        exp = int(math.floor(math.log10(abs(v)))) // 3 * 3
        return f"{v / 10 ** exp:g}e{exp}"
    return f"{v:g}"


def _kind(v: Any) -> str:
    if isinstance(v, str):
        return "text"
    if isinstance(v, _cat.GPU):
        return "a GPU"
    if isinstance(v, _cat.Model):
        return "a model"
    if isinstance(v, _cat.Link):
        return "a link"
    if isinstance(v, Quantity):
        from study.calc.units import dimension_name

        return dimension_name(v.dim)
    return type(v).__name__


class _Pos:
    def __init__(self, col: int) -> None:
        self.col_offset = col


def _attr_pos(node: ast.Attribute) -> Any:
    """Point at the attribute name rather than at the object it is read from."""
    end = getattr(node, "end_col_offset", None)
    return _Pos(end - len(node.attr.encode("utf-8"))) if end is not None else node


def _flat(src: str) -> str:
    """One line of the same length: YAML block scalars bring newlines and indentation that eval mode rejects."""
    return src.replace("\r", " ").replace("\n", " ").replace("\t", " ")


def _offset(src: str, flat_utf8: bytes | str, node: Any) -> int:
    """0-based character offset into ``src`` of ``node``; the parsed text is ``"(" + flat + ")"``."""
    col = getattr(node, "col_offset", 0) or 0
    data = flat_utf8 if isinstance(flat_utf8, bytes) else ("(" + flat_utf8 + ")").encode("utf-8")
    # ast counts columns in UTF-8 bytes; convert to characters, then drop the added "(".
    chars = len(data[:col].decode("utf-8", "ignore"))
    return min(max(chars - 1, 0), len(src))


def compile_expr(src: str) -> Expr:
    """Parse and check ``src``; raises ``ExprError`` with the offset of the first rejected part."""
    if not isinstance(src, str):
        raise ExprError("an expression must be text")
    if len(src) > MAX_SOURCE:
        raise ExprError(f"expression is too long ({len(src)} characters; limit {MAX_SOURCE})", MAX_SOURCE)
    if not src.strip():
        raise ExprError("empty expression")
    flat = _flat(src)
    starts = ("(" + flat + ")").encode("utf-8")
    try:
        tree = ast.parse("(" + flat + ")", mode="eval")
    except SyntaxError as exc:
        col = max((exc.offset or 1) - 1, 0)
        # SyntaxError offsets count characters (1-based) in the line given to the parser.
        raise ExprError(f"syntax error: {exc.msg}", min(max(col - 1, 0), len(src))) from None
    except (ValueError, RecursionError, MemoryError):
        raise ExprError("expression is too deeply nested or invalid", 0) from None
    names: set[str] = set()
    functions: set[str] = set()
    known = _function_names()
    count = 0

    def fail(msg: str, node: ast.AST) -> ExprError:
        return ExprError(msg, _offset(src, starts, node))

    def check_arguments(node: ast.Call, depth: int) -> None:
        for a in node.args:
            check(a, depth + 1)
        for kw in node.keywords:
            if kw.arg is None:
                raise fail("**kwargs are not allowed", kw.value)
            check(kw.value, depth + 1)

    def check(node: ast.AST, depth: int) -> None:
        nonlocal count
        count += 1
        if count > MAX_NODES:
            raise fail(f"expression is too long (over {MAX_NODES} parts)", node)
        if depth > MAX_DEPTH:
            raise fail(f"expression is nested too deeply (limit {MAX_DEPTH})", node)
        if not isinstance(node, _ALLOWED):
            why = _WHY.get(type(node), f"{type(node).__name__} is not allowed in a calculator expression")
            raise fail(why, node)
        if isinstance(node, ast.Constant):
            if not isinstance(node.value, (int, float, str, bool)) or isinstance(node.value, complex):
                raise fail(f"constant {node.value!r} is not allowed", node)
        elif isinstance(node, ast.Name):
            if node.id.startswith("_"):
                raise fail(f"name {node.id!r} is not allowed (names starting with '_' are reserved)", node)
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("_"):
                raise fail(f"attribute {node.attr!r} is not allowed", _attr_pos(node))
            if node.attr not in _ALL_ATTRS:
                raise fail(f"unknown attribute {node.attr!r}{_did_you_mean(node.attr, _ALL_ATTRS)}", _attr_pos(node))
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                if func.id not in known:
                    raise fail(f"unknown function {func.id!r}{_did_you_mean(func.id, known)}", func)
                functions.add(func.id)
                f = BY_PYNAME.get(func.id)
                if f is not None:
                    if node.args:
                        raise fail(f"{func.id}() takes keyword arguments only, like {func.id}(params=70e9)", node.args[0])
                    allowed = {p.name for p in f.params}
                    for kw in node.keywords:
                        if kw.arg is None:
                            raise fail("**kwargs are not allowed", kw.value)
                        if kw.arg not in allowed:
                            raise fail(f"{func.id}() has no parameter {kw.arg!r}{_did_you_mean(kw.arg, allowed)}",
                                       kw)
                check_arguments(node, depth)
                return
            if isinstance(func, ast.Attribute):
                if func.attr not in {m for _, m in _METHODS}:
                    raise fail(f"{func.attr!r} cannot be called", func)
                check(func.value, depth + 1)
                check_arguments(node, depth)
                return
            raise fail("only named functions can be called", func)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            r = node.right
            if isinstance(r, ast.UnaryOp) and isinstance(r.operand, ast.Constant):
                r = r.operand
            if isinstance(r, ast.Constant) and isinstance(r.value, (int, float)) and abs(r.value) > MAX_EXPONENT:
                raise fail(f"exponent {r.value} is too large (limit {MAX_EXPONENT})", node.right)
        for child in ast.iter_child_nodes(node):
            check(child, depth + 1)

    check(tree, 0)
    return Expr(src, tree, frozenset(names), frozenset(functions), starts)


def evaluate(src: str, env: dict[str, Any] | None = None) -> Evaluation:
    """Compile and evaluate in one go (compile once with ``compile_expr`` when evaluating many times)."""
    return compile_expr(src).evaluate(env)


def value_in_unit(evaluation: Evaluation, unit: str) -> float:
    """An evaluation's value expressed in ``unit`` (e.g. the answer unit of a question).

    - A result with a unit is converted: 140e9 B in ``GB`` is 140, an ``mfu()`` fraction 0.438 in ``%`` is 43.8.
    - Arithmetic on numbers and parameters alone carries no unit, so it is read as already being in ``unit``:
      ``32 * 10.2 * 1.5`` with unit ``kW`` is 489.6 kW, and ``39.5`` with unit ``%`` is 39.5 %.
    - A unitless calculator result asked in a unit with a dimension (``u / mfu(...)`` in ``tokens/s``) is read
      in that unit too: the author has cancelled the units by hand.
    One place decides this so lint and the quiz can never disagree about an answer.
    Raises ``DimensionError`` when the dimensions differ (a size asked in seconds) and ``NotANumberError``
    when the expression gives text."""
    from study.calc.units import DimensionError, dimension_name, parse_unit

    target = parse_unit(unit)
    if isinstance(evaluation.value, str):
        # Text is for a stem (`{= model(m).name}`); an answer's `'140'` must not pass as the number 140.
        raise NotANumberError(f"the expression gives the text {evaluation.value!r}, but an answer needs a number "
                              "or a quantity")
    value = float(evaluation.value)
    if evaluation.dim == target.dim:
        if evaluation.dim == Dim() and not evaluation.computed:
            return value
        return value / target.factor
    if evaluation.dim == Dim():
        return value
    raise DimensionError(
        f"the expression gives {dimension_name(evaluation.dim)} but {unit!r} is {dimension_name(target.dim)}"
    )
