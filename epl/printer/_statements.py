"""Printing statements and clauses: select, from, output, create, context, on-actions."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Optional

import epl.ast as A
from ._expressions import POSTFIX, _float, _quote, name
from ._patterns import PatternPrinter
from ._rowrecog import RowRecogPrinter


class StatementPrinter(RowRecogPrinter, PatternPrinter):
    # -- clauses and statements -------------------------------------------------------------

    def node(self, n: Any) -> str:
        if isinstance(n, A.Expr):
            return self.expr(n)
        if isinstance(n, A.PatternExpr):
            return self.pattern(n)
        method = getattr(self, "_s_" + type(n).__name__, None)
        if method is None:
            raise TypeError(f"cannot print {type(n).__name__}")
        return method(n)

    def _s_Module(self, m: A.Module) -> str:
        return ";\n".join(self.node(s) for s in m.statements)

    def _s_EventFilter(self, f: A.EventFilter) -> str:
        return self.event_filter(f)

    def annotation_value(self, v: Any) -> str:
        if isinstance(v, A.Annotation):
            return self._s_Annotation(v)
        if isinstance(v, str):
            return _quote(v)
        if isinstance(v, bool):
            return "true" if v else "false"
        if v is None:
            return "null"
        if isinstance(v, tuple):
            return "{" + ", ".join(self.annotation_value(x) for x in v) + "}"
        if isinstance(v, float):
            return _float(v)
        return str(v)

    def _s_Annotation(self, a: A.Annotation) -> str:
        text = "@" + ".".join(name(p, False) for p in a.name.split("."))
        if a.attrs:
            text += "(" + ", ".join(name(k) + "=" + self.annotation_value(v)
                                    for k, v in a.attrs) + ")"
        elif a.value is not None:
            text += "(" + self.annotation_value(a.value) + ")"
        return text

    def prefix(self, stmt: Any) -> list[str]:
        out = [self._s_Annotation(a) for a in getattr(stmt, "annotations", ())]
        ctx = getattr(stmt, "context", None)
        if ctx is not None:
            out.append("context " + name(ctx, False))
        return out

    def _s_SelectItem(self, item: A.SelectItem) -> str:
        text = self.expr(item.expr) + (" @eventbean" if item.event_bean else "")
        return text + (" as " + name(item.alias) if item.alias is not None else "")

    def _s_SelectClause(self, s: A.SelectClause, keyword: str = "select") -> str:
        out = [keyword]
        if s.selector is not None:
            out.append(s.selector.value)
        if s.distinct:
            out.append("distinct")
        out.append(", ".join(self._s_SelectItem(i) for i in s.items))
        return " ".join(out)

    def _s_InsertInto(self, i: A.InsertInto) -> str:
        out = "insert " + (i.selector.value + " " if i.selector is not None else "") + "into "
        return out + self.type_text(i.stream_name) + self.columns(i.columns)

    @staticmethod
    def columns(cols: Any) -> str:
        return "(" + ", ".join(name(c) for c in cols) + ")" if cols else ""

    def _s_ViewSpec(self, v: A.ViewSpec) -> str:
        args = ", ".join(self._s_OrderItem(a) if isinstance(a, A.OrderItem) else self.expr(a)
                         for a in v.args)
        if v.namespace is None:
            return "#" + name(v.name) + ("(" + args + ")" if v.args else "")
        return "." + v.namespace + ":" + name(v.name) + "(" + args + ")"

    def views(self, views: Any) -> str:
        return "".join(self._s_ViewSpec(v) for v in views)

    @staticmethod
    def alias(a: Optional[str]) -> str:
        return " as " + name(a) if a is not None else ""

    def _s_FilterStream(self, s: A.FilterStream) -> str:
        text = self.event_filter(s.event_filter)
        if getattr(s, "contained", None):
            text += "[" + s.contained + "]"
        text += self.views(s.views) + self.alias(s.alias)
        if s.unidirectional:
            text += " unidirectional"
        if s.retain_union:
            text += " retain-union"
        if s.retain_intersection:
            text += " retain-intersection"
        return text

    def _s_PatternStream(self, s: A.PatternStream) -> str:
        anns = "".join(self._s_Annotation(a) + " " for a in s.annotations)
        text = "pattern " + anns + "[" + self.pattern(s.pattern) + "]" + self.views(s.views)
        text += self.alias(s.alias)
        return text + (" unidirectional" if s.unidirectional else "")

    _JOIN_WORDS = {A.JoinKind.INNER: "inner join", A.JoinKind.LEFT: "left outer join",
                   A.JoinKind.RIGHT: "right outer join", A.JoinKind.FULL: "full outer join"}

    def _s_FromClause(self, f: A.FromClause) -> str:
        if f.match_recognize is not None:
            return ", ".join(self.node(s) for s in f.streams) + " " + self._s_MatchRecognize(f.match_recognize)
        if not f.joins:
            return ", ".join(self.node(s) for s in f.streams)
        text = self.node(f.streams[0])
        for stream, join in zip(f.streams[1:], f.joins):
            text += " " + self._JOIN_WORDS[join.kind] + " " + self.node(stream)
            if join.on is not None:
                text += " on " + self.expr(join.on)
        return text

    def group_item(self, g: Any) -> str:
        if isinstance(g, A.GroupingSet):
            word = "grouping sets" if g.kind == "sets" else g.kind
            return word + "(" + ", ".join(self.group_item(i) for i in g.items) + ")"
        if isinstance(g, tuple):
            return "(" + ", ".join(self.expr(x) for x in g) + ")"
        return self.expr(g)

    def _s_OrderItem(self, o: A.OrderItem) -> str:
        return self.expr(o.expr) + (" desc" if o.descending else "")

    def _s_Limit(self, lim: A.Limit) -> str:
        if lim.comma_form and lim.offset is not None:
            return "limit " + self.expr(lim.offset) + ", " + self.expr(lim.count)
        text = "limit " + self.expr(lim.count)
        return text + (" offset " + self.expr(lim.offset) if lim.offset is not None else "")

    def assignments(self, items: Any) -> str:
        return ", ".join(self._s_Assignment(a) for a in items)

    def _s_Assignment(self, a: A.Assignment) -> str:
        return self.expr(a.target, POSTFIX) + " = " + self.expr(a.value)

    def _s_OutputClause(self, o: A.OutputClause) -> str:
        out = ["output"]
        if o.after_events is not None:
            out += ["after", self.expr(o.after_events), "events"]
        elif o.after_time is not None:
            out += ["after", self.expr(o.after_time)]
        if o.kind is not A.OutputKind.DEFAULT:
            out.append(o.kind.value)
        primary = True
        if o.every_events is not None:
            out += ["every", self.expr(o.every_events), "events"]
        elif o.every_time is not None:
            out += ["every", self.expr(o.every_time)]
        elif o.at is not None:
            out += ["at", "(" + self.cron(o.at) + ")"]
        elif o.when is not None:
            out += ["when", self.expr(o.when)]
            if o.then_set:
                out += ["then set", self.assignments(o.then_set)]
        else:
            primary = False
        if o.when_terminated:
            out.append("and when terminated" if primary else "when terminated")
            if o.terminated_and is not None:
                out += ["and", self.expr(o.terminated_and)]
            if o.terminated_then_set:
                out += ["then set", self.assignments(o.terminated_then_set)]
        return " ".join(out)

    def select_statement(self, s: A.SelectStatement) -> str:
        out = self.prefix(s)
        if s.into_table is not None:
            out.append("into table " + name(s.into_table))
        if s.insert_into is not None:
            out.append(self._s_InsertInto(s.insert_into))
        out.append(self._s_SelectClause(s.select))
        if s.from_ is not None:
            out.append("from " + self._s_FromClause(s.from_))
        if s.where is not None:
            out.append("where " + self.expr(s.where))
        if s.group_by:
            out.append("group by " + ", ".join(self.group_item(g) for g in s.group_by))
        if s.having is not None:
            out.append("having " + self.expr(s.having))
        if s.output is not None:
            out.append(self._s_OutputClause(s.output))
        if s.order_by:
            out.append("order by " + ", ".join(self._s_OrderItem(o) for o in s.order_by))
        if s.limit is not None:
            out.append(self._s_Limit(s.limit))
        if getattr(s, "for_clause", None) is not None:
            fc = s.for_clause
            out.append("for " + fc.kind + ("(" + ", ".join(self.expr(e) for e in fc.exprs) + ")"
                                           if fc.exprs else ""))
        return " ".join(out)

    _s_SelectStatement = select_statement

    def type_ref(self, t: A.TypeRef) -> str:
        return self.type_text(t.name) + ("[]" if t.array else "")

    def _s_ColumnDef(self, c: A.ColumnDef) -> str:
        typ = self.type_ref(c.type) if c.type is not None else self.expr(c.aggregation)
        if c.event_type is not None:
            typ += " @type(" + name(c.event_type, False) + ")"
        return name(c.name) + " " + typ + (" primary key" if c.primary_key else "")

    def column_defs(self, cols: Any) -> str:
        return "(" + ", ".join(self._s_ColumnDef(c) for c in cols) + ")"

    def _s_CreateSchema(self, s: A.CreateSchema) -> str:
        out = self.prefix(s)
        out.append("create " + (s.representation + " " if s.representation else "") + "schema")
        head = name(s.name, False)
        if s.variant_any:
            out.append(head + " as *")
        elif s.variant_types:
            out.append(head + " as " + ", ".join(self.type_text(t) for t in s.variant_types))
        elif s.class_name is not None:
            out.append(head + " as " + self.type_text(s.class_name))
        else:
            out.append(head + self.column_defs(s.columns))
        if s.inherits:
            out.append("inherits " + ", ".join(name(i, False) for i in s.inherits))
        if s.start_timestamp is not None:
            out.append("starttimestamp " + name(s.start_timestamp, False))
        if s.end_timestamp is not None:
            out.append("endtimestamp " + name(s.end_timestamp, False))
        return " ".join(out)

    def _s_CreateWindow(self, w: A.CreateWindow) -> str:
        out = self.prefix(w)
        out.append("create window " + name(w.name, False) + self.views(w.views) +
                   (" retain-union" if w.retain_union else "") + " as")
        if w.as_type is None:
            out.append(self.column_defs(w.columns))
        elif w.select is not None:
            out += [self._s_SelectClause(w.select), "from", self.type_text(w.as_type)]
        else:
            out.append(self.type_text(w.as_type))
        if w.insert:
            out.append("insert")
            if w.insert_where is not None:
                out += ["where", self.expr(w.insert_where)]
        return " ".join(out)

    def _s_CreateTable(self, t: A.CreateTable) -> str:
        return " ".join(self.prefix(t) + ["create table " + name(t.name, False) +
                                          self.column_defs(t.columns)])

    def _s_CreateIndex(self, i: A.CreateIndex) -> str:
        cols = ", ".join(self.index_column(c) for c in i.columns)
        head = "create unique index" if i.unique else "create index"
        return " ".join(self.prefix(i) + [head, name(i.name, False), "on",
                                          f"{name(i.target, False)}({cols})"])

    def index_column(self, c: Any) -> str:
        if isinstance(c, A.SpatialIndexColumn):
            return f"({self.args(c.exprs)}) {c.kind}({self.args(c.params)})"
        return name(c.name, False) + ("" if c.kind == "hash" else " " + c.kind)

    def _s_CreateVariable(self, v: A.CreateVariable) -> str:
        out = self.prefix(v)
        out.append("create constant variable" if v.constant else "create variable")
        out += [self.type_ref(v.type), name(v.name, False)]
        if v.initial is not None:
            out += ["=", self.expr(v.initial)]
        return " ".join(out)

    def _s_ExpressionDecl(self, d: A.ExpressionDecl) -> str:
        head = "expression " + name(d.name, False)
        if d.alias:
            return head + " alias for {" + self.expr(d.body) + "}"
        if d.params or d.lambda_form:
            return head + " {" + self.lambda_text(d.params, d.body) + "}"
        return head + " {" + self.expr(d.body) + "}"

    def _s_DeclaringStatement(self, s: A.DeclaringStatement) -> str:
        out = [self._s_Annotation(a) for a in s.annotations]
        out += [self._s_ExpressionDecl(d) for d in s.declarations]
        return " ".join(out + [self.node(s.statement)])

    def _s_CreateExpression(self, c: A.CreateExpression) -> str:
        return " ".join(self.prefix(c) + ["create " + self._s_ExpressionDecl(c.declaration)])

    def _s_CreateContext(self, c: A.CreateContext) -> str:
        return " ".join(self.prefix(c) + ["create context " + name(c.name, False),
                                          self.context_spec(c.spec)])

    def context_spec(self, spec: Any) -> str:
        if isinstance(spec, A.KeyedContext):
            out = "partition by " + ", ".join(self.keyed_item(i) for i in spec.items)
            if spec.initiated_by:
                out += " initiated by " + ", ".join(self.keyed_item(i) for i in spec.initiated_by)
            if spec.terminated_by is not None:
                out += " terminated " + self.condition_with_by(spec.terminated_by)
            return out
        if isinstance(spec, A.HashContext):
            out = "coalesce by " + ", ".join(self.expr(e) + " from " + self.event_filter(f)
                                             for e, f in spec.items)
            if spec.granularity is not None:
                out += " granularity " + self.expr(spec.granularity)
            return out + (" preallocate" if spec.preallocate else "")
        if isinstance(spec, A.CategoryContext):
            groups = ", ".join("group by " + self.expr(e) + " as " + name(label)
                               for e, label in spec.items)
            return groups + " from " + self.event_filter(spec.event_filter)
        if isinstance(spec, A.TemporalContext):
            if spec.overlapping:
                out = "initiated " + self.condition_with_by(spec.start)
                if spec.end is not None:
                    out += " terminated " + self.condition_with_by(spec.end)
                return out
            out = "start " + self.condition(spec.start)
            return out + (" end " + self.condition(spec.end) if spec.end is not None else "")
        if isinstance(spec, A.NestedContext):
            return ", ".join("context " + name(n, False) + " " + self.context_spec(s)
                             for n, s in spec.contexts)
        raise TypeError(f"cannot print {type(spec).__name__} as a context")

    def keyed_item(self, item: A.KeyedItem) -> str:
        text = self.event_filter(item.event_filter)
        if item.properties:
            text = ", ".join(self.expr(p) for p in item.properties) + " from " + text
        return text + (" as " + name(item.alias, False) if item.alias is not None else "")

    def condition_with_by(self, c: A.ContextCondition) -> str:
        return self.condition(c) if c.after is not None else "by " + self.condition(c)

    def condition(self, c: A.ContextCondition) -> str:
        if c.now:
            rest = replace(c, now=False)
            if rest == A.ContextCondition(inclusive=c.inclusive):
                return "@now"
            return "@now and " + self.condition(rest)
        if c.event_filter is not None:
            alias = " as " + name(c.alias, False) if c.alias is not None else ""
            return self.event_filter(c.event_filter) + alias
        if c.pattern is not None:
            return "pattern [" + self.pattern(c.pattern) + "]" + (" @inclusive" if c.inclusive else "")
        if c.crontab is not None:
            return "(" + self.cron(c.crontab) + ")"
        return "after " + self.expr(c.after)

    def _s_OnStatement(self, s: A.OnStatement) -> str:
        out = self.prefix(s)
        if isinstance(s.trigger, A.EventFilter):
            trigger = self.event_filter(s.trigger)
        else:
            trigger = "pattern [" + self.pattern(s.trigger) + "]"
        out.append("on " + trigger + self.alias(s.trigger_alias))
        out.append(self.node(s.action))
        return " ".join(out)

    def where(self, w: Any) -> str:
        return " where " + self.expr(w) if w is not None else ""

    def _s_OnSelect(self, s: A.OnSelect) -> str:
        out = []
        if s.insert_into is not None:
            out.append(self._s_InsertInto(s.insert_into))
        out.append(self._s_SelectClause(s.select, "select and delete" if s.and_delete else "select"))
        out.append("from " + name(s.window, False) + self.alias(s.window_alias) + self.where(s.where))
        if s.group_by:
            out.append("group by " + ", ".join(self.group_item(g) for g in s.group_by))
        if s.having is not None:
            out.append("having " + self.expr(s.having))
        if s.order_by:
            out.append("order by " + ", ".join(self._s_OrderItem(o) for o in s.order_by))
        return " ".join(out)

    def _s_OnDelete(self, s: A.OnDelete) -> str:
        return "delete from " + name(s.window, False) + self.alias(s.window_alias) + self.where(s.where)

    def _s_OnUpdate(self, s: A.OnUpdate) -> str:
        return ("update " + name(s.window, False) + self.alias(s.window_alias) + " set " +
                self.assignments(s.assignments) + self.where(s.where))

    def _s_OnSet(self, s: A.OnSet) -> str:
        return "set " + self.assignments(s.assignments)

    def _s_OnMerge(self, s: A.OnMerge) -> str:
        text = "merge " + name(s.window, False) + self.alias(s.window_alias) + self.where(s.where)
        for w in s.whens:
            text += " when " + ("matched" if w.matched else "not matched")
            if w.condition is not None:
                text += " and " + self.expr(w.condition)
            for a in w.actions:
                text += " then " + self.merge_action(a)
        if s.direct_insert is not None:
            text += " " + self.merge_action(s.direct_insert)
        return text

    def merge_action(self, a: A.MergeAction) -> str:
        if a.action == "update":
            return "update set " + self.assignments(a.assignments) + self.where(a.condition)
        if a.action == "delete":
            return "delete" + self.where(a.condition)
        text = "insert"
        if a.insert_into is not None:
            text += " into " + self.type_text(a.insert_into)
        text += self.columns(a.columns)
        return text + " " + self._s_SelectClause(a.select) + self.where(a.condition)

    def _s_InsertValues(self, s: A.InsertValues) -> str:
        text = "insert into " + self.type_text(s.target) + self.columns(s.columns)
        if s.select is not None:
            return text + " " + self._s_SelectClause(s.select)
        return text + " values (" + self.args(s.values) + ")"

    def _s_UpdateStatement(self, s: A.UpdateStatement) -> str:
        out = self.prefix(s)
        target = ("istream " + self.type_text(s.target)) if s.istream else name(s.target, False)
        out.append("update " + target + self.alias(s.alias) + " set " +
                   self.assignments(s.assignments) + self.where(s.where))
        return " ".join(out)

    def _s_DeleteStatement(self, s: A.DeleteStatement) -> str:
        return "delete from " + name(s.target, False) + self.alias(s.alias) + self.where(s.where)
