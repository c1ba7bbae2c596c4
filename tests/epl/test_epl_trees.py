"""Targeted tree tests: the parser builds exactly these nodes."""
from __future__ import annotations

import pytest

from epl import parse, parse_expression, parse_module
from epl.ast import (
    ArrayLiteral, Assignment, Between, BinOp, BinaryOp, Call, CategoryContext, ContextCondition,
    CreateSchema, CreateTable, CreateVariable, CreateWindow, CronFrequency,
    CronKeyword, CronRange, Dot, EventFilter, GroupingSet,
    HashContext, InList, InRange, IsNull, JoinKind, KeyedContext, KeyedItem, Limit, Literal,
    LiteralKind, MergeAction, MergeWhen, NamedArg, NestedContext, OnMerge, OnStatement,
    OrderItem, OutputClause, OutputKind, Parens, PatternAnd, PatternEvery, PatternFilter,
    PatternFollowedBy, PatternGuard, PatternNot, PatternObserver, PatternOr, PatternParens,
    PatternRepeat, PatternUntil, PropSeg, Property, RepeatRange, SelectClause, SelectItem, Span,
    StreamSelector, StreamWildcard, TemporalContext, TimePeriod, TimeUnit, TypeRef, UnOp, UnaryOp, ViewSpec,
    Wildcard, ColumnDef, OuterJoin, Quantified, Quantifier, Like, Regexp,
)


def p(name: str) -> Property:
    return Property(tuple(PropSeg(n) for n in name.split(".")))


def i(v: int) -> Literal:
    return Literal(v, LiteralKind.INT)


def b(op: BinOp, left, right) -> BinaryOp:
    return BinaryOp(op, left, right)


def ef(name: str, cond=None) -> EventFilter:
    return EventFilter(name, cond)


# -- expressions: precedence ----------------------------------------------------------------

@pytest.mark.parametrize("text,tree", [
    ("a + b * c", b(BinOp.ADD, p("a"), b(BinOp.MUL, p("b"), p("c")))),
    ("a - b - c", b(BinOp.SUB, b(BinOp.SUB, p("a"), p("b")), p("c"))),
    ("a * b / c % d", b(BinOp.MOD, b(BinOp.DIV, b(BinOp.MUL, p("a"), p("b")), p("c")), p("d"))),
    ("a || b + c", b(BinOp.CONCAT, p("a"), b(BinOp.ADD, p("b"), p("c")))),
    ("-a * b", b(BinOp.MUL, UnaryOp(UnOp.NEG, p("a")), p("b"))),
    ("-1 * b", b(BinOp.MUL, i(-1), p("b"))),
    ("(a + b) * c", b(BinOp.MUL, Parens(b(BinOp.ADD, p("a"), p("b"))), p("c"))),
    ("a or b and c", b(BinOp.OR, p("a"), b(BinOp.AND, p("b"), p("c")))),
    ("a and b or c", b(BinOp.OR, b(BinOp.AND, p("a"), p("b")), p("c"))),
    ("not a and b", b(BinOp.AND, UnaryOp(UnOp.NOT, p("a")), p("b"))),
    ("not a = b", UnaryOp(UnOp.NOT, b(BinOp.EQ, p("a"), p("b")))),
    ("a = b and c < d + 1", b(BinOp.AND, b(BinOp.EQ, p("a"), p("b")),
                                b(BinOp.LT, p("c"), b(BinOp.ADD, p("d"), i(1))))),
    ("a = b < c", b(BinOp.EQ, p("a"), b(BinOp.LT, p("b"), p("c")))),
    ("a | b = c", b(BinOp.BOR, p("a"), b(BinOp.EQ, p("b"), p("c")))),
    ("a & b and c", b(BinOp.AND, b(BinOp.BAND, p("a"), p("b")), p("c"))),
    ("a is b", b(BinOp.IS, p("a"), p("b"))),
    ("a is not b", b(BinOp.IS_NOT, p("a"), p("b"))),
    ("a is null or b is not null", b(BinOp.OR, IsNull(p("a")), IsNull(p("b"), True))),
    ("x between 1 and 2 and y", b(BinOp.AND, Between(p("x"), i(1), i(2)), p("y"))),
    ("x not between a + 1 and b", Between(p("x"), b(BinOp.ADD, p("a"), i(1)), p("b"), True)),
    ("a = b not in (1, 2)", b(BinOp.EQ, p("a"), InList(p("b"), (i(1), i(2)), True))),
    ("x in [1:5)", InRange(p("x"), i(1), i(5), True, False)),
    ("x not in (1:5]", InRange(p("x"), i(1), i(5), False, True, True)),
    ("s like 'a%' escape '!'", Like(p("s"), Literal("a%", LiteralKind.STRING),
                                    Literal("!", LiteralKind.STRING))),
    ("s not regexp 'a.*'", Regexp(p("s"), Literal("a.*", LiteralKind.STRING), True)),
    ("x > any (1, 2)", Quantified(p("x"), BinOp.GT, Quantifier.ANY, (i(1), i(2)))),
])
def test_expression_precedence(text, tree):
    assert parse_expression(text) == tree


@pytest.mark.parametrize("text,value,kind", [
    ("10", 10, LiteralKind.INT), ("100L", 100, LiteralKind.LONG), ("1.5", 1.5, LiteralKind.DOUBLE),
    ("1e3", 1000.0, LiteralKind.DOUBLE), ("1.5d", 1.5, LiteralKind.DOUBLE),
    ("1.5f", 1.5, LiteralKind.FLOAT), ("'it\\'s'", "it's", LiteralKind.STRING),
    ('"a\\nb"', "a\nb", LiteralKind.STRING), ("'a\\.b'", "a\\.b", LiteralKind.STRING),
    ("TRUE", True, LiteralKind.BOOLEAN), ("false", False, LiteralKind.BOOLEAN),
    ("null", None, LiteralKind.NULL), ("-7", -7, LiteralKind.INT),
])
def test_literals(text, value, kind):
    assert parse_expression(text) == Literal(value, kind)


@pytest.mark.parametrize("text,parts", [
    ("1 min 30 sec", ((1, TimeUnit.MINUTE), (30, TimeUnit.SECOND))),
    ("100 msec", ((100, TimeUnit.MILLISECOND),)),
    ("5.5 sec", ((5.5, TimeUnit.SECOND),)),
    ("2 seconds", ((2, TimeUnit.SECOND),)),
    ("1 hour", ((1, TimeUnit.HOUR),)),
    ("10 milliseconds", ((10, TimeUnit.MILLISECOND),)),
    ("1 day 2 hours", ((1, TimeUnit.DAY), (2, TimeUnit.HOUR))),
    ("1 year 2 months 3 weeks", ((1, TimeUnit.YEAR), (2, TimeUnit.MONTH), (3, TimeUnit.WEEK))),
    ("4 minutes 5 usec 6 microseconds", ((4, TimeUnit.MINUTE), (5, TimeUnit.MICROSECOND),
                                        (6, TimeUnit.MICROSECOND))),
])
def test_time_periods(text, parts):
    tp = parse_expression(text)
    assert isinstance(tp, TimePeriod)
    assert tuple((a.value, u) for a, u in tp.parts) == parts


def test_time_period_with_variable_amount_and_in_arithmetic():
    assert parse_expression("n sec + 1") == b(BinOp.ADD, TimePeriod(((p("n"), TimeUnit.SECOND),)), i(1))


def test_postfix_forms():
    assert parse_expression("a[0].id") == Property((PropSeg("a", 0), PropSeg("id")))
    assert parse_expression("m('key').x") == Property((PropSeg("m", key="key"), PropSeg("x")))
    assert parse_expression("context.label") == p("context.label")
    assert parse_expression("a.before(b)") == Dot(p("a"), "before", (p("b"),))
    assert parse_expression("maxby(price).sym") == Dot(Call("maxby", (p("price"),)), "sym")
    assert parse_expression("s.toUpperCase()") == Dot(p("s"), "toUpperCase", ())
    assert parse_expression("count(*)") == Call("count", (Wildcard(),))
    assert parse_expression("count(distinct x)") == Call("count", (p("x"),), True)
    assert parse_expression("sum(x, group_by: k)") == Call("sum", (p("x"), NamedArg("group_by", p("k"))))
    assert parse_expression("window(t.*)") == Call("window", (StreamWildcard("t"),))
    assert parse_expression("current_timestamp") == Call("current_timestamp")
    assert parse_expression("current_timestamp()") == Call("current_timestamp")
    assert parse_expression("{1, 2}") == ArrayLiteral((i(1), i(2)))
    assert parse_expression("`select`.`from`") == p("select.from")


def test_keywords_are_case_insensitive_and_identifiers_are_not():
    assert parse("SELECT Amount FROM Withdrawal WHERE Amount > 1") == \
        parse("select Amount from Withdrawal where Amount > 1")
    assert parse_expression("Amount") != parse_expression("amount")


def test_soft_keywords_as_names():
    sel = parse("select last, count, window, sum as min from T").select
    assert [it.expr for it in sel.items] == [p("last"), p("count"), p("window"), p("sum")]
    assert sel.items[3].alias == "min"


def test_comments():
    text = "select a // one\n, /* two */ b -- three\nfrom T"
    assert parse(text) == parse("select a, b from T")


# -- from clause: filters, views, joins ---------------------------------------------------------

def _stream(text: str):
    return parse("select * from " + text).from_


def test_filter_comma_list_is_an_and_chain():
    f = _stream("T(a = 1, b > 2, c)").streams[0].event_filter
    assert f == ef("T", b(BinOp.AND, b(BinOp.AND, b(BinOp.EQ, p("a"), i(1)),
                                      b(BinOp.GT, p("b"), i(2))), p("c")))
    assert _stream("T(a = 1, b > 2, c)") == _stream("T(a = 1 and b > 2 and c)")


def test_views_in_both_syntaxes():
    s = _stream("T#length(5)#unique(a) as t").streams[0]
    assert s.views == (ViewSpec("length", (i(5),)), ViewSpec("unique", (p("a"),)))
    assert s.alias == "t"
    s = _stream("T.win:length(5).std:unique(a) t").streams[0]
    assert s.views == (ViewSpec("length", (i(5),), "win"), ViewSpec("unique", (p("a"),), "std"))
    assert s.alias == "t"
    s = _stream("T.ext:sort(5, price)#time(1 min 30 sec)").streams[0]
    assert s.views[0] == ViewSpec("sort", (i(5), p("price")), "ext")
    assert s.views[1].args == (TimePeriod(((i(1), TimeUnit.MINUTE), (i(30), TimeUnit.SECOND))),)
    assert _stream("T#keepall").streams[0].views == (ViewSpec("keepall"),)
    sort = _stream("T#sort(3, price desc, sym asc)").streams[0].views[0]
    assert sort.args == (i(3), OrderItem(p("price"), True), p("sym"))


def test_stream_flags():
    s = _stream("A as a unidirectional retain-union, B retain-intersection")
    assert s.streams[0].unidirectional and s.streams[0].retain_union
    assert s.streams[1].retain_intersection and s.streams[1].alias is None


def test_joins():
    f = _stream("A as a left outer join B as b on a.id = b.id inner join C on c.x = a.x")
    assert [s.event_filter.type_name for s in f.streams] == ["A", "B", "C"]
    assert f.joins == (OuterJoin(JoinKind.LEFT, b(BinOp.EQ, p("a.id"), p("b.id"))),
                       OuterJoin(JoinKind.INNER, b(BinOp.EQ, p("c.x"), p("a.x"))))
    f = _stream("A full outer join B right outer join C")
    assert [j.kind for j in f.joins] == [JoinKind.FULL, JoinKind.RIGHT]
    assert _stream("A, B").joins == ()


def test_select_clause():
    s = parse("insert rstream into Out(x, y) select irstream distinct a.*, b as c, * from A")
    assert s.select == SelectClause((SelectItem(StreamWildcard("a")), SelectItem(p("b"), "c"),
                                     SelectItem(Wildcard())), StreamSelector.IRSTREAM, True)
    assert s.insert_into.stream_name == "Out" and s.insert_into.columns == ("x", "y")
    assert s.insert_into.selector.value == "rstream"


def test_group_by_grouping_sets():
    s = parse("select a from T group by a, rollup(a, (b, c)), cube((a)), grouping sets((a), (), rollup(b))")
    assert s.group_by == (
        p("a"),
        GroupingSet("rollup", (p("a"), (p("b"), p("c")))),
        GroupingSet("cube", ((p("a"),),)),
        GroupingSet("sets", ((p("a"),), (), GroupingSet("rollup", (p("b"),)))),
    )


def test_order_and_limit():
    s = parse("select a from T order by a desc, b asc limit 10 offset 2")
    assert [(o.expr, o.descending) for o in s.order_by] == [(p("a"), True), (p("b"), False)]
    assert s.limit == Limit(i(10), i(2))
    assert parse("select a from T limit 2, 10").limit == Limit(i(10), i(2), True)


# -- output clause ------------------------------------------------------------------------------

@pytest.mark.parametrize("tail,clause", [
    ("output every 2 events", OutputClause(every_events=i(2))),
    ("output last every 1.5 seconds",
     OutputClause(OutputKind.LAST, every_time=TimePeriod(((Literal(1.5, LiteralKind.DOUBLE), TimeUnit.SECOND),)))),
    ("output first every 2 sec", OutputClause(OutputKind.FIRST, every_time=TimePeriod(((i(2), TimeUnit.SECOND),)))),
    ("output snapshot every 3 events", OutputClause(OutputKind.SNAPSHOT, every_events=i(3))),
    ("output all every 3 events", OutputClause(OutputKind.ALL, every_events=i(3))),
    ("output after 3 events", OutputClause(after_events=i(3))),
    ("output after 10 sec every 5 events",
     OutputClause(after_time=TimePeriod(((i(10), TimeUnit.SECOND),)), every_events=i(5))),
    ("output at (*/5, *, 1:5, [1, 2], last)",
     OutputClause(at=(CronFrequency(i(5)), Wildcard(), CronRange(i(1), i(5)),
                      ArrayLiteral((i(1), i(2))), CronKeyword("last")))),
    ("output at (0, 5 last, 3 weekday, lastweekday, *)",
     OutputClause(at=(i(0), CronKeyword("last", i(5)), CronKeyword("weekday", i(3)),
                      CronKeyword("lastweekday"), Wildcard()))),
    ("output when x > 1 then set x = 0, y = y + 1",
     OutputClause(when=b(BinOp.GT, p("x"), i(1)),
                  then_set=(Assignment(p("x"), i(0)), Assignment(p("y"), b(BinOp.ADD, p("y"), i(1)))))),
    ("output when terminated", OutputClause(when_terminated=True)),
    ("output when terminated and a then set b = 1",
     OutputClause(when_terminated=True, terminated_and=p("a"),
                  terminated_then_set=(Assignment(p("b"), i(1)),))),
    ("output every 5 events and when terminated and x then set y = 2",
     OutputClause(every_events=i(5), when_terminated=True, terminated_and=p("x"),
                  terminated_then_set=(Assignment(p("y"), i(2)),))),
])
def test_output_clause(tail, clause):
    assert parse("select a from T " + tail + " order by a").output == clause


# -- patterns -----------------------------------------------------------------------------------

def _pattern(text: str):
    return parse("select * from pattern [" + text + "]").from_.streams[0].pattern


def pf(name: str, tag=None, cond=None) -> PatternFilter:
    return PatternFilter(ef(name, cond), tag)


@pytest.mark.parametrize("text,tree", [
    ("a=A -> b=B", PatternFollowedBy((pf("A", "a"), pf("B", "b")))),
    ("A -> B or C and D", PatternFollowedBy((pf("A"), PatternOr((pf("B"), PatternAnd((pf("C"), pf("D")))))))),
    ("every A -> B", PatternFollowedBy((PatternEvery(pf("A")), pf("B")))),
    ("every (A -> B)", PatternEvery(PatternParens(PatternFollowedBy((pf("A"), pf("B")))))),
    ("A -> B -> C", PatternFollowedBy((pf("A"), pf("B"), pf("C")))),
    ("A -[5]> B -> C", PatternFollowedBy((pf("A"), pf("B"), pf("C")), (i(5), None))),
    ("not A and B", PatternAnd((PatternNot(pf("A")), pf("B")))),
    ("every A where timer:within(2 sec)",
     PatternEvery(PatternGuard(pf("A"), "timer", "within", (TimePeriod(((i(2), TimeUnit.SECOND),)),)))),
    ("[2:3] a=A until b=B", PatternUntil(pf("A", "a"), pf("B", "b"), RepeatRange(i(2), i(3)))),
    ("A until B and C", PatternAnd((PatternUntil(pf("A"), pf("B")), pf("C")))),
    ("[3] A or [:2] B or [1:] C",
     PatternOr((PatternRepeat(RepeatRange(i(3), i(3), True), pf("A")),
                PatternRepeat(RepeatRange(None, i(2)), pf("B")),
                PatternRepeat(RepeatRange(i(1), None), pf("C"))))),
    ("every [2] A", PatternEvery(PatternRepeat(RepeatRange(i(2), i(2), True), pf("A")))),
    ("timer:interval(10 sec) and not B(id = a.id)",
     PatternAnd((PatternObserver("timer", "interval", (TimePeriod(((i(10), TimeUnit.SECOND),)),)),
                 PatternNot(pf("B", cond=b(BinOp.EQ, p("id"), p("a.id"))))))),
    ("timer:at(*/5, *, *, *, *)",
     PatternObserver("timer", "at", (CronFrequency(i(5)), Wildcard(), Wildcard(), Wildcard(), Wildcard()))),
])
def test_pattern_precedence(text, tree):
    assert _pattern(text) == tree


def test_every_distinct_and_while():
    pat = _pattern("every-distinct(a.id, 10 sec) a=A while (a.x > 0)")
    assert pat.keys == (p("a.id"),)
    assert pat.expiry == TimePeriod(((i(10), TimeUnit.SECOND),))
    assert pat.child.condition == b(BinOp.GT, p("a.x"), i(0))


# -- create statements ----------------------------------------------------------------------------

def test_create_schema():
    s = parse("create objectarray schema S(a string, b int[], c Other) inherits X, Y "
              "starttimestamp a endtimestamp b")
    assert s == CreateSchema("S", (ColumnDef("a", TypeRef("string")), ColumnDef("b", TypeRef("int", True)),
                                   ColumnDef("c", TypeRef("Other"))),
                             ("X", "Y"), "a", "b", "objectarray")
    assert parse("create schema S as com.x.Y") == CreateSchema("S", class_name="com.x.Y")


def test_create_window_table_variable():
    w = parse("create window W#keepall as (k string, v int)")
    assert w == CreateWindow("W", (ViewSpec("keepall"),), columns=(ColumnDef("k", TypeRef("string")),
                                                                   ColumnDef("v", TypeRef("int"))))
    w = parse("create window W#length(3) as select a, b from T insert where a > 1")
    assert w.as_type == "T" and w.insert and w.insert_where == b(BinOp.GT, p("a"), i(1))
    t = parse("create table T(k string primary key, total sum(int), c count(*))")
    assert t == CreateTable("T", (ColumnDef("k", TypeRef("string"), True),
                                  ColumnDef("total", None, False, Call("sum", (p("int"),))),
                                  ColumnDef("c", None, False, Call("count", (Wildcard(),)))))
    assert parse("create constant variable int x = 10") == \
        CreateVariable("x", TypeRef("int"), i(10), True)


# -- contexts ---------------------------------------------------------------------------------------

def test_keyed_context():
    c = parse("create context C partition by a, b from T(x > 0), c from U "
              "initiated by T as t terminated by U(y = 1)")
    assert c.spec == KeyedContext(
        (KeyedItem((p("a"), p("b")), ef("T", b(BinOp.GT, p("x"), i(0)))), KeyedItem((p("c"),), ef("U"))),
        (KeyedItem((), ef("T"), "t"),),
        ContextCondition(event_filter=ef("U", b(BinOp.EQ, p("y"), i(1)))))


def test_hash_category_temporal_nested_contexts():
    h = parse("create context H coalesce by hash_code(a) from A granularity 16 preallocate").spec
    assert h == HashContext(((Call("hash_code", (p("a"),)), ef("A")),), i(16), True)
    cat = parse("create context Cat group by amount < 200 as small, group by amount >= 200 as large "
                "from Withdrawal").spec
    assert cat == CategoryContext(((b(BinOp.LT, p("amount"), i(200)), "small"),
                                   (b(BinOp.GE, p("amount"), i(200)), "large")), ef("Withdrawal"))
    t = parse("create context T start @now end after 10 sec").spec
    assert t == TemporalContext(ContextCondition(now=True),
                                ContextCondition(after=TimePeriod(((i(10), TimeUnit.SECOND),))))
    t = parse("create context T initiated A a terminated pattern [B] @inclusive").spec
    assert t == TemporalContext(ContextCondition(event_filter=ef("A"), alias="a"),
                                ContextCondition(pattern=pf("B"), inclusive=True), True)
    t = parse("create context T start (0, 9, *, *, *) end (0, 17, *, *, *)").spec
    assert t.start.crontab == (i(0), i(9), Wildcard(), Wildcard(), Wildcard())
    n = parse("create context N context A partition by x from T, context B start @now").spec
    assert n == NestedContext((("A", KeyedContext((KeyedItem((p("x"),), ef("T")),))),
                               ("B", TemporalContext(ContextCondition(now=True)))))


# -- on-statements ------------------------------------------------------------------------------------

def test_on_merge():
    s = parse("on U as u merge Kv as kv where kv.k = u.k "
              "when matched and u.v < 0 then delete "
              "when matched then update set v = u.v where u.v > 1 then delete "
              "when not matched then insert into Other(a) select u.k as a where u.v > 0")
    assert isinstance(s, OnStatement) and s.trigger == ef("U") and s.trigger_alias == "u"
    m = s.action
    assert isinstance(m, OnMerge) and (m.window, m.window_alias) == ("Kv", "kv")
    assert m.where == b(BinOp.EQ, p("kv.k"), p("u.k"))
    assert m.whens == (
        MergeWhen(True, (MergeAction("delete"),), b(BinOp.LT, p("u.v"), i(0))),
        MergeWhen(True, (MergeAction("update", (Assignment(p("v"), p("u.v")),),
                                     condition=b(BinOp.GT, p("u.v"), i(1))),
                         MergeAction("delete"))),
        MergeWhen(False, (MergeAction("insert", select=SelectClause((SelectItem(p("u.k"), "a"),)),
                                      insert_into="Other", columns=("a",),
                                      condition=b(BinOp.GT, p("u.v"), i(0))),)),
    )


def test_on_actions_and_fire_and_forget():
    s = parse("on Clear c delete from Recent r where r.account = c.account")
    assert (s.trigger_alias, s.action.window, s.action.window_alias) == ("c", "Recent", "r")
    s = parse("on Q insert into Out select and delete k from W as w")
    assert s.action.and_delete and s.action.insert_into.stream_name == "Out"
    s = parse("context X on pattern [every A] set v = 1")
    assert s.context == "X" and s.trigger == PatternEvery(pf("A"))
    v = parse("insert into W(a, b) values (1, 'x')")
    assert v.target == "W" and v.columns == ("a", "b") and v.values == (i(1), Literal("x", LiteralKind.STRING))
    v = parse("insert into W select 1 as a")
    assert v.select == SelectClause((SelectItem(i(1), "a"),))
    u = parse("update istream T as t set price = 1 where t.x")
    assert u.istream and (u.target, u.alias) == ("T", "t")
    d = parse("delete from W as w where w.k = 1")
    assert (d.target, d.alias, d.where) == ("W", "w", b(BinOp.EQ, p("w.k"), i(1)))


def test_annotations():
    s = parse("@name('s0') @Priority(2) @drop @Hint('x,y') @Name(value='v', n=-1) @Tag({1, 'a'}) select * from T")
    anns = [(a.name, a.value, a.attrs) for a in s.annotations]
    assert anns == [("name", "s0", ()), ("Priority", 2, ()), ("drop", None, ()), ("Hint", "x,y", ()),
                    ("Name", None, (("value", "v"), ("n", -1))), ("Tag", (1, "a"), ())]


# -- modules and spans ----------------------------------------------------------------------------------

def test_module_texts_and_trailing_semicolon():
    m = parse_module("create schema A(id int);\n select *\n from A ;\n\n")
    assert m.texts == ("create schema A(id int)", "select *\n from A")
    assert parse("select * from A;") == m.statements[1]


def test_spans():
    text = "select a,\n  sum(bb) as s\nfrom T"
    s = parse(text)
    item = s.select.items[1]
    assert item.span == Span(2, 3, 12, 24)
    assert text[item.expr.span.start:item.expr.span.end] == "sum(bb)"
    assert item.expr.args[0].span == Span(2, 7, 16, 18)
    assert s.span.start == 0 and s.span.end == len(text)
    assert s.from_.streams[0].span == Span(3, 6, 30, 31)


def test_now_and_condition():
    t = parse("create context C initiated by @now and pattern [every timer:interval(1 min)] "
              "terminated after 1 min").spec
    assert t.start.now and isinstance(t.start.pattern, PatternEvery)
