"""Printing expressions: binding levels that mirror the grammar's precedence table,
identifier quoting, literals, and crontab parameters."""
from __future__ import annotations

import re
from typing import Any, Optional

import epl.ast as A
from ..lexer import RESERVED, SOFT_KEYWORDS

# Binding levels, loosest first; they mirror the grammar's precedence table.
OR, AND, BIT, NOT, EQUALITY, RELATIONAL, CONCAT, ADDITIVE, MULTIPLICATIVE, UNARY, POSTFIX, ATOM = \
    range(1, 13)

_BINOP_LEVEL = {
    A.BinOp.OR: OR, A.BinOp.AND: AND, A.BinOp.BOR: BIT, A.BinOp.BXOR: BIT, A.BinOp.BAND: BIT,
    A.BinOp.EQ: EQUALITY, A.BinOp.NE: EQUALITY, A.BinOp.IS: EQUALITY, A.BinOp.IS_NOT: EQUALITY,
    A.BinOp.LT: RELATIONAL, A.BinOp.GT: RELATIONAL, A.BinOp.LE: RELATIONAL,
    A.BinOp.GE: RELATIONAL, A.BinOp.CONCAT: CONCAT, A.BinOp.ADD: ADDITIVE,
    A.BinOp.SUB: ADDITIVE, A.BinOp.MUL: MULTIPLICATIVE, A.BinOp.DIV: MULTIPLICATIVE,
    A.BinOp.MOD: MULTIPLICATIVE,
}
_WORD_OPS = {A.BinOp.OR, A.BinOp.AND, A.BinOp.IS, A.BinOp.IS_NOT}
_NUMERIC = (A.LiteralKind.INT, A.LiteralKind.LONG, A.LiteralKind.DOUBLE, A.LiteralKind.FLOAT)


_IDENT_RE = re.compile(r"(?:[^\W\d]|\$)[\w$]*\Z")


# Keywords the grammar also accepts after a dot (`a.after(b)`).
_AFTER_DOT = frozenset({"AFTER", "BETWEEN", "WHERE", "SET"})


# Functions whose names are keywords the grammar accepts in call position.
_KEYWORD_FUNCTIONS = frozenset({"grouping", "grouping_id", "istream"})


def name(text: str, soft_ok: bool = True, after_dot: bool = False) -> str:
    """An identifier as EPL text: backquoted when it is a keyword (soft keywords are fine
    where the grammar accepts a name) or not a plain identifier."""
    kind = RESERVED.get(text.lower())
    if _IDENT_RE.match(text) and (kind is None or (soft_ok and kind in SOFT_KEYWORDS) or
                                  (after_dot and kind in _AFTER_DOT)):
        return text
    return "`" + text.replace("\\", "\\\\").replace("`", "\\`") + "`"


def _quote(s: str) -> str:
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == "'":
            out.append("\\'")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 32:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "'" + "".join(out) + "'"


def _float(v: float) -> str:
    return repr(float(v))


class ExprPrinter:
    """Prints expressions; `compact` gives Esper's column-name form (`price*volume`)."""

    def __init__(self, compact: bool) -> None:
        self.compact = compact
        self.sep = "," if compact else ", "

    # -- expressions ------------------------------------------------------------------------

    def expr(self, e: Any, min_level: int = 0, follow: int = 0, logical: bool = True) -> str:
        """`e` as text that parses back to `e` where an operand of binding `min_level` is
        expected, followed by an operator of binding `follow` (0: none). `logical` tells
        whether the position accepts the logical layer (where a prefix `not` may start an
        operand of any comparison)."""
        lvl = self.level(e)
        need = lvl < min_level
        if need and logical and self.is_prefix(e):
            need = False
        open_level = self.open_right(e)
        if open_level is not None and follow > open_level:
            need = True
        if need:
            return "(" + self.render(e, 0) + ")"
        return self.render(e, follow)

    @staticmethod
    def level(e: Any) -> int:
        if isinstance(e, A.BinaryOp):
            return _BINOP_LEVEL[e.op]
        if isinstance(e, A.UnaryOp):
            return NOT if e.op is A.UnOp.NOT else UNARY
        if isinstance(e, (A.Between, A.InList, A.InRange, A.InSubquery, A.Like, A.Regexp)):
            return RELATIONAL
        if isinstance(e, A.IsNull):
            return EQUALITY
        if isinstance(e, A.Quantified):
            return _BINOP_LEVEL[e.op]
        if isinstance(e, A.Literal):
            neg = e.kind in _NUMERIC and (e.value < 0 or (isinstance(e.value, float)
                                                           and str(e.value).startswith("-")))
            return UNARY if neg else ATOM
        if isinstance(e, A.TimePeriod):
            return UNARY
        if isinstance(e, A.Dot):
            return POSTFIX
        if isinstance(e, (A.CronFrequency, A.CronRange, A.CronKeyword, A.NamedArg, A.Lambda)):
            return 0
        return ATOM

    @staticmethod
    def is_prefix(e: Any) -> bool:
        return isinstance(e, A.UnaryOp) and e.op is A.UnOp.NOT

    @staticmethod
    def open_right(e: Any) -> Optional[int]:
        """The binding of a prefix `not` / `-` left open at the right end of `e`'s text: an
        operator binding tighter that follows would be taken into it."""
        if isinstance(e, A.UnaryOp):
            return NOT if e.op is A.UnOp.NOT else UNARY
        if isinstance(e, A.BinaryOp) and e.op is A.BinOp.IS_NOT:
            return NOT
        if isinstance(e, A.IsNull) and e.negated:
            return NOT
        return None

    def op(self, symbol: str, word: bool = False) -> str:
        return f" {symbol} " if word or not self.compact else symbol

    def render(self, e: Any, follow: int) -> str:
        method = getattr(self, "_x_" + type(e).__name__, None)
        if method is None:
            raise TypeError(f"cannot print {type(e).__name__} as an expression")
        return method(e, follow)

    def _x_BinaryOp(self, e: A.BinaryOp, follow: int) -> str:
        if e.op not in (A.BinOp.IS, A.BinOp.IS_NOT) and isinstance(e.left, A.BinaryOp):
            return self._chain(e, follow)
        lvl = _BINOP_LEVEL[e.op]
        logical = lvl <= RELATIONAL
        left = self.expr(e.left, lvl, lvl, logical)
        right_operand = e.right
        if e.op is A.BinOp.IS_NOT:
            # printed `a is not b`: b is the operand of a prefix `not`
            if isinstance(right_operand, A.Literal) and right_operand.kind is A.LiteralKind.NULL:
                return left + " is not (null)"
            return left + " is not " + self.expr(right_operand, NOT, follow, True)
        if e.op is A.BinOp.IS and (self.is_prefix(right_operand) or (
                isinstance(right_operand, A.Literal) and right_operand.kind is A.LiteralKind.NULL)):
            return left + " is (" + self.render(right_operand, 0) + ")"
        right = self.expr(right_operand, lvl + 1, follow, logical)
        return left + self.op(e.op.value, e.op in _WORD_OPS) + right

    def _chain(self, e: A.BinaryOp, follow: int) -> str:
        """A left-associative chain (`a or b or ...`, `a + b - c ...`) printed in a loop: what
        `_x_BinaryOp` does level by level, without recursing down the left spine."""
        spine = [(e, follow)]
        n = e
        while True:
            left = n.left
            if not (isinstance(left, A.BinaryOp) and left.op not in (A.BinOp.IS, A.BinOp.IS_NOT)
                    and _BINOP_LEVEL[left.op] >= _BINOP_LEVEL[n.op]):
                break
            spine.append((left, _BINOP_LEVEL[n.op]))
            n = left
        lvl = _BINOP_LEVEL[n.op]
        parts = [self.expr(n.left, lvl, lvl, lvl <= RELATIONAL)]
        for node, fol in reversed(spine):
            lvl = _BINOP_LEVEL[node.op]
            parts.append(self.op(node.op.value, node.op in _WORD_OPS))
            parts.append(self.expr(node.right, lvl + 1, fol, lvl <= RELATIONAL))
        return "".join(parts)

    def _x_UnaryOp(self, e: A.UnaryOp, follow: int) -> str:
        if e.op is A.UnOp.NOT:
            return "not " + self.expr(e.operand, NOT, follow, True)
        operand = e.operand
        if isinstance(operand, A.Literal) and operand.kind in _NUMERIC and e.op is A.UnOp.NEG:
            text = "(" + self.render(operand, 0) + ")"   # `-1` would read as a literal
        else:
            text = self.expr(operand, UNARY, follow, False)
        if text.startswith(("-", "+")):
            text = " " + text   # never `--`: that starts a comment
        return e.op.value + text

    def _x_Parens(self, e: A.Parens, follow: int) -> str:
        return "(" + self.expr(e.inner) + ")"

    def _x_Literal(self, e: A.Literal, follow: int) -> str:
        k, v = e.kind, e.value
        if k is A.LiteralKind.STRING:
            return _quote(v)
        if k is A.LiteralKind.BOOLEAN:
            return "true" if v else "false"
        if k is A.LiteralKind.NULL:
            return "null"
        if k is A.LiteralKind.INT:
            return str(int(v))
        if k is A.LiteralKind.LONG:
            return f"{int(v)}L"
        if k is A.LiteralKind.FLOAT:
            return _float(v) + "f"
        return _float(v)

    def _x_Substitution(self, e: A.Substitution, follow: int) -> str:
        if e.name is None:
            return f"?::{e.type_name}" if e.type_name else "?"
        return f"?:{e.name}" + (f":{e.type_name}" if e.type_name else "")

    def _x_BoundValue(self, e: Any, follow: int) -> str:
        # a value bound to a substitution parameter that no EPL literal spells
        return "?"

    def _x_TimePeriod(self, e: A.TimePeriod, follow: int) -> str:
        parts = []
        for amount, unit in e.parts:
            if isinstance(amount, A.Property) and len(amount.path) == 1:
                text = name(amount.path[0].name, soft_ok=False)
            else:
                text = self.expr(amount, ATOM, 0, False)
            parts.append(f"{text} {unit.value}")
        return " ".join(parts)

    def _x_Property(self, e: A.Property, follow: int) -> str:
        out = []
        for i, seg in enumerate(e.path):
            t = name(seg.name, after_dot=i > 0)
            if seg.index is not None:
                t += f"[{seg.index}]"
            if seg.key is not None:
                t += "(" + _quote(seg.key) + ")"
            if seg.dynamic:
                t += "?"
            out.append(t)
        return ".".join(out)

    def _x_Wildcard(self, e: A.Wildcard, follow: int) -> str:
        return "*"

    def _x_StreamWildcard(self, e: A.StreamWildcard, follow: int) -> str:
        return name(e.stream) + ".*"

    def args(self, args: Any) -> str:
        return self.sep.join(self.expr(a) for a in args)

    def _x_Call(self, e: A.Call, follow: int) -> str:
        if e.name.lower() == "current_timestamp" and not e.args:
            return "current_timestamp()"
        if e.name.lower() == "exists" and len(e.args) == 1:
            return "exists(" + self.expr(e.args[0]) + ")"
        prefix = "distinct " if e.distinct else ""
        fname = e.name if e.name.lower() in _KEYWORD_FUNCTIONS else name(e.name)
        return fname + "(" + prefix + self.args(e.args) + ")"

    def _x_NamedArg(self, e: A.NamedArg, follow: int) -> str:
        return name(e.name, soft_ok=False) + (":" if self.compact else ": ") + self.expr(e.value)

    def _x_TableAccess(self, e: A.TableAccess, follow: int) -> str:
        text = name(e.table) + "[" + self.args(e.keys) + "]"
        return text + ("." + name(e.column, after_dot=True) if e.column is not None else "")

    def _x_Dot(self, e: A.Dot, follow: int) -> str:
        text = self.expr(e.target, POSTFIX, 0, False) + "." + name(e.name, after_dot=True)
        if e.args is not None:
            text += "(" + self.args(e.args) + ")"
        return text

    def _x_Lambda(self, e: A.Lambda, follow: int) -> str:
        if self.compact:
            return ""     # Esper's column names leave lambdas out: `contained.aggregate(0,)`
        return self.lambda_text(e.params, e.body)

    def lambda_text(self, params: Any, body: Any) -> str:
        names = [name(p, False) for p in params]
        left = names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"
        return left + " => " + self.expr(body)

    def _x_LambdaParam(self, e: A.LambdaParam, follow: int) -> str:
        return self._x_Property(A.Property((A.PropSeg(e.name),) + tuple(e.path)), follow)

    def _x_Cast(self, e: A.Cast, follow: int) -> str:
        fmt = "" if e.date_format is None else self.sep + "dateformat: " + self.expr(e.date_format)
        return "cast(" + self.expr(e.operand) + self.sep + self.type_text(e.type_name) + fmt + ")"

    def _x_ExprTuple(self, e: A.ExprTuple, follow: int) -> str:
        return "(" + self.sep.join(self.expr(i) for i in e.items) + ")"

    def _x_NewMap(self, e: A.NewMap, follow: int) -> str:
        items = self.sep.join(
            name(k) if isinstance(v, A.Property) and len(v.path) == 1 and v.path[0] == A.PropSeg(k)
            else name(k) + " = " + self.expr(v) for k, v in e.items)
        return "new {" + items + "}"

    def _x_InstanceOf(self, e: A.InstanceOf, follow: int) -> str:
        types = self.sep.join(self.type_text(t) for t in e.type_names)
        return "instanceof(" + self.expr(e.operand) + self.sep + types + ")"

    @staticmethod
    def type_text(type_name: str) -> str:
        return ".".join(name(p) for p in type_name.split("."))

    def _x_ArrayLiteral(self, e: A.ArrayLiteral, follow: int) -> str:
        return "{" + self.args(e.items) + "}"

    def _x_Case(self, e: A.Case, follow: int) -> str:
        out = ["case"]
        if e.operand is not None:
            out.append(self.expr(e.operand))
        for cond, value in e.whens:
            out += ["when", self.expr(cond), "then", self.expr(value)]
        if e.otherwise is not None:
            out += ["else", self.expr(e.otherwise)]
        out.append("end")
        return " ".join(out)

    def _x_Between(self, e: A.Between, follow: int) -> str:
        kw = " not between " if e.negated else " between "
        return (self.expr(e.operand, RELATIONAL, RELATIONAL) + kw +
                self.expr(e.low, CONCAT, AND, False) + " and " +
                self.expr(e.high, CONCAT, follow, False))

    def _x_InList(self, e: A.InList, follow: int) -> str:
        kw = " not in (" if e.negated else " in ("
        return self.expr(e.operand, RELATIONAL, RELATIONAL) + kw + self.args(e.items) + ")"

    def _x_InRange(self, e: A.InRange, follow: int) -> str:
        kw = " not in " if e.negated else " in "
        return (self.expr(e.operand, RELATIONAL, RELATIONAL) + kw +
                ("[" if e.low_closed else "(") + self.expr(e.low) + ":" + self.expr(e.high) +
                ("]" if e.high_closed else ")"))

    def _x_InSubquery(self, e: A.InSubquery, follow: int) -> str:
        kw = " not in " if e.negated else " in "
        return self.expr(e.operand, RELATIONAL, RELATIONAL) + kw + self.render(e.subquery, 0)

    def _x_Like(self, e: A.Like, follow: int) -> str:
        kw = " not like " if e.negated else " like "
        text = self.expr(e.operand, RELATIONAL, RELATIONAL) + kw + \
            self.expr(e.pattern, CONCAT, 0 if e.escape is not None else follow, False)
        if e.escape is not None:
            text += " escape " + self.expr(e.escape, CONCAT, follow, False)
        return text

    def _x_Regexp(self, e: A.Regexp, follow: int) -> str:
        kw = " not regexp " if e.negated else " regexp "
        return self.expr(e.operand, RELATIONAL, RELATIONAL) + kw + \
            self.expr(e.pattern, CONCAT, follow, False)

    def _x_IsNull(self, e: A.IsNull, follow: int) -> str:
        return self.expr(e.operand, EQUALITY, EQUALITY) + (" is not null" if e.negated else " is null")

    def _x_Quantified(self, e: A.Quantified, follow: int) -> str:
        lvl = _BINOP_LEVEL[e.op]
        if isinstance(e.source, A.Subquery):
            source = self.render(e.source, 0)
        else:
            source = "(" + self.args(e.source) + ")"
        return (self.expr(e.operand, lvl, lvl) + self.op(e.op.value) + e.quantifier.value + " " +
                source)

    def select_statement(self, s: A.SelectStatement) -> str:
        raise NotImplementedError   # provided by the statement printer (subqueries)

    def _x_Subquery(self, e: A.Subquery, follow: int) -> str:
        return "(" + self.select_statement(e.select) + ")"

    def _x_Exists(self, e: A.Exists, follow: int) -> str:
        return "exists " + self.render(e.subquery, 0)

    def _x_CronFrequency(self, e: A.CronFrequency, follow: int) -> str:
        return "*/" + self.expr(e.every, CONCAT, 0, False)

    def _x_CronRange(self, e: A.CronRange, follow: int) -> str:
        return self.expr(e.low, ATOM) + ":" + self.expr(e.high, ATOM)

    def _x_CronKeyword(self, e: A.CronKeyword, follow: int) -> str:
        if e.value is None:
            return e.keyword
        return self.expr(e.value) + " " + e.keyword

    def cron(self, args: Any) -> str:
        return self.sep.join(self.cron_arg(a) for a in args)

    def cron_arg(self, a: Any) -> str:
        if isinstance(a, A.ArrayLiteral):
            return "[" + self.cron(a.items) + "]"
        return self.expr(a)
