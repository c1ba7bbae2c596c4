"""XML DOM events: `create xml schema` (with @XMLSchema, @XMLSchemaField XPath properties and
namespace prefixes) and register_xml_type; events sent as ElementTree elements or XML text."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from recording import Recorder

from engine import Engine
from engine.errors import EventTypeError
from engine.xml_types import register_xml_type
from epl.errors import EPLValidationError

SENSOR = """@XMLSchema(rootElementName='Sensor')
@XMLSchemaField(name='temp', xpath='/Sensor/reading/temp', type='number')
@XMLSchemaField(name='unit', xpath='/Sensor/reading/temp/@unit', type='string')
@XMLSchemaField(name='items', xpath='//item', type='nodeset')
@XMLSchemaField(name='hot', xpath='/Sensor/alarm', type='boolean')
@XMLSchemaField(name='count', xpath='/Sensor/count', type='string', castToType='int')
create xml schema SensorEvent(id int, status string)"""

DOC = ("<Sensor id='7'><status>ok</status><reading><temp unit='C'>21.5</temp></reading>"
       "<loc><city>Oslo</city></loc><item>a</item><item>b</item><count>3</count></Sensor>")


@pytest.fixture
def engine():
    e = Engine(time="simulated")
    e.deploy(SENSOR)
    return e


def test_properties_from_elements_attributes_and_xpath(engine):
    rec = Recorder(engine.epl(
        "select id, status, temp, unit, reading.temp as rt, loc.city as city, item[1] as i1, "
        "hot, count, items from SensorEvent"))
    engine.send(ET.fromstring(DOC), "SensorEvent")
    [row] = rec.new_rows()
    assert [i.text for i in row.pop("items")] == ["a", "b"]       # a nodeset: the elements
    assert row == {"id": 7, "status": "ok", "temp": 21.5, "unit": "C", "rt": "21.5",
                   "city": "Oslo", "i1": "b", "hot": False, "count": 3}


def test_xml_text_events_and_filters(engine):
    rec = Recorder(engine.epl("select id, temp * 2 as t2 from SensorEvent(temp > 10 and status is null)"))
    engine.send("<Sensor id='8'><reading><temp>5</temp></reading></Sensor>", "SensorEvent")
    engine.send(b"<Sensor id='9'><reading><temp>15</temp></reading><alarm/></Sensor>", "SensorEvent")
    assert rec.new_rows() == [{"id": 9, "t2": 30.0}]


def test_windows_and_aggregation_over_xml_events(engine):
    rec = Recorder(engine.epl("select avg(temp) as a, count(*) as c from SensorEvent#length(2)"))
    for t in (10, 20, 30):
        engine.send(f"<Sensor><reading><temp>{t}</temp></reading></Sensor>", "SensorEvent")
    assert rec.new_rows()[-1] == {"a": 25.0, "c": 2}


def test_wrong_root_element_is_refused(engine):
    engine.epl("select * from SensorEvent")
    with pytest.raises(EventTypeError, match="Unexpected root element name 'Other'"):
        engine.send("<Other/>", "SensorEvent")


def test_namespaces_in_xpath():
    e = Engine(time="simulated")
    e.deploy("""@XMLSchema(rootElementName='order')
        @XMLSchemaNamespacePrefix(prefix='o', namespace='urn:orders')
        @XMLSchemaField(name='total', xpath='/o:order/o:total', type='number')
        create xml schema OrderEvent()""")
    rec = Recorder(e.epl("select total, customer from OrderEvent"))
    e.send("<order xmlns='urn:orders'><customer>ann</customer><total>12.5</total></order>", "OrderEvent")
    assert rec.new_rows() == [{"total": 12.5, "customer": "ann"}]


def test_python_side_registration():
    e = Engine(time="simulated")
    register_xml_type(e, "Trade", "trade", properties={"qty": "int"},
                      xpath_properties={"px": ("/trade/price", "number"), "sym": "/trade/@sym"})
    rec = Recorder(e.epl("select sym, qty, px from Trade"))
    e.send(ET.fromstring("<trade sym='IBM'><qty>10</qty><price>99.5</price></trade>"), "Trade")
    assert rec.new_rows() == [{"sym": "IBM", "qty": 10, "px": 99.5}]


def test_insert_into_from_xml_stream(engine):
    engine.epl("insert into Hot select id, temp from SensorEvent(temp > 20)")
    rec = Recorder(engine.epl("select * from Hot"))
    engine.send(ET.fromstring(DOC), "SensorEvent")
    assert rec.new_rows() == [{"id": 7, "temp": 21.5}]


@pytest.mark.parametrize("text, message", [
    ("@XMLSchemaField(name='x', xpath='count(/a/b)', type='number') create xml schema A()",
     "functions are not supported"),
    ("@XMLSchema(rootElementName='a') @XMLSchemaField(name='x', xpath='/b/c') create xml schema A()",
     "does not start at the root element 'a'"),
    ("@XMLSchemaField(name='x', xpath='/A/c', type='date') create xml schema A()", "unknown type 'date'"),
    ("@XMLSchema(rootElementName='a', schemaResource='a.xsd') create xml schema A()", "XSD"),
    ("create avro schema A()", "Event representation 'avro' is not supported"),
])
def test_validation(text, message):
    with pytest.raises(EPLValidationError, match=message):
        Engine(time="simulated").epl(text)


def test_checkpoint_restores_xml_types_and_their_events(engine):
    engine.deploy("create window XW#keepall as SensorEvent; insert into XW select * from SensorEvent")
    engine.send(ET.fromstring(DOC), "SensorEvent")
    restored = Engine.restore(engine.checkpoint())
    rec = Recorder(restored.epl("select id, temp from SensorEvent"))
    restored.send("<Sensor id='3'><reading><temp>1.5</temp></reading></Sensor>", "SensorEvent")
    assert rec.new_rows() == [{"id": 3, "temp": 1.5}]
    assert [r["id"] for r in restored.execute_query("select id from XW")] == [7, 3]


def test_attributes_before_elements_and_mapped_by_id():
    e = Engine(time="simulated")
    register_xml_type(e, "R", "r")
    rec = Recorder(e.epl("select x, item('b') as b, item('b').w as w, nested.x as nx from R"))
    e.send("<r x='attr'><x>element</x><item id='a'>1</item><item id='b' w='9'>2</item>"
           "<nested><x>deep</x></nested></r>", "R")
    assert rec.new_rows() == [{"x": "attr", "b": "2", "w": "9", "nx": "deep"}]
