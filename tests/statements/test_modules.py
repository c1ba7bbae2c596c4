"""EPL modules as Esper reads them: `module`, `uses`, `import`, comments, `;` separators,
from text and from `.epl` files."""
from __future__ import annotations

from pathlib import Path

import pytest
from recording import Rec

from engine import Engine
from epl import EPLSyntaxError, parse_module
from epl.errors import EPLValidationError

MODULE = """// Declare the order types and a running count
module com.acme.orders;
uses com.acme.types;
import java.util.*;
import com.acme.util.Helper;

/* the event type */
create schema Orders(id string, qty int);

@name('big') select id, qty from Orders(qty > 10);
-- a statement with a ';' inside a string
select 'a;b' as s, count(*) as c from Orders
"""


def test_module_headers_and_statements():
    e = Engine(time="simulated")
    d = e.deploy(MODULE)
    assert d.module_name == "com.acme.orders"
    assert d.uses == ("com.acme.types",)
    assert d.imports == ("java.util.*", "com.acme.util.Helper")
    assert len(d) == 3 and d[1].name == "big"
    big, counts = Rec(d[1]), Rec(d[2])
    e.send({"id": "o1", "qty": 5}, "Orders")
    e.send({"id": "o2", "qty": 50}, "Orders")
    assert big.pop() == [[{"id": "o2", "qty": 50}]]
    assert counts.pop() == [[{"s": "a;b", "c": 1}], [{"s": "a;b", "c": 2}]]


def test_module_from_file(tmp_path: Path):
    f = tmp_path / "orders.epl"
    f.write_text(MODULE)
    e = Engine(time="simulated")
    d = e.deploy_file(f)
    assert d.module_name == "com.acme.orders" and d.path == str(f)
    e2 = Engine(time="simulated")
    assert len(e2.deploy(f)) == 3      # a Path given to deploy reads the file


def test_error_names_the_statement_line_and_nothing_stays(tmp_path: Path):
    e = Engine(time="simulated")
    text = "module m;\ncreate schema A(id int);\n\nselect nope from A;"
    with pytest.raises(EPLValidationError) as info:
        e.deploy(text)
    assert info.value.line == 4 and "line 4 of module 'm'" in str(info.value)
    assert e.statements == [] and e.types.find("A") is None
    f = tmp_path / "bad.epl"
    f.write_text(text)
    with pytest.raises(EPLValidationError, match=r"line 4 of .*bad\.epl"):
        e.deploy_file(f)


def test_syntax_error_line_is_module_relative():
    with pytest.raises(EPLSyntaxError) as info:
        parse_module("module m;\nuses x;\ncreate schema A(id int);\nselect id frm A")
    assert info.value.line == 4


def test_headers_must_come_first_and_module_only_once():
    with pytest.raises(EPLSyntaxError, match="must come before"):
        parse_module("create schema A(id int); uses other;")
    with pytest.raises(EPLSyntaxError, match="Duplicate module name"):
        parse_module("module a; module b; create schema A(id int)")


def test_undeploy_removes_the_statements():
    e = Engine(time="simulated")
    d = e.deploy("module m; create schema A(id int); select * from A")
    d.undeploy()
    assert e.statements == []
