"""`output when` with variables and `then set`, against a minimal stand-in for the engine's
variable service (registered as `engine.services["variables"]`, the hook the compiler reads).
The stand-in offers what the output condition needs: has, type_of, reader, writer, subscribe,
unsubscribe."""
from __future__ import annotations

from engine import epl_types as T


class Variables:
    def __init__(self, **values) -> None:
        self.values = dict(values)
        self.subscribers: dict[int, tuple[str, object]] = {}

    def has(self, name: str) -> bool:
        return name in self.values

    def type_of(self, name: str):
        v = self.values[name]
        return T.BOOLEAN if isinstance(v, bool) else T.INT

    def reader(self, name: str):
        return lambda: self.values[name]

    def writer(self, name: str):
        return lambda value: self.set(name, value)

    def set(self, name: str, value) -> None:
        old = self.values[name]
        self.values[name] = value
        for var, callback in list(self.subscribers.values()):
            if var == name:
                callback(value, old)

    def subscribe(self, name: str, callback) -> int:
        handle = len(self.subscribers) + 1
        self.subscribers[handle] = (name, callback)
        return handle

    def unsubscribe(self, handle: int) -> None:
        self.subscribers.pop(handle, None)


def send(engine, *values):
    for a in values:
        engine.send({"k": "x", "a": a}, "T")


def test_when_variable_then_set(engine, rec) -> None:
    variables = engine.services["variables"] = Variables(ready=False, outputs=0)
    engine.epl("select a from T output when ready then set ready = false, outputs = outputs + 1").add_listener(rec)
    send(engine, 1, 2)
    assert rec.take() == []
    variables.set("ready", True)           # a change makes the condition true: output at once
    engine.advance_time(0)
    assert rec.take() == [([{"a": 1}, {"a": 2}], [])]
    assert variables.values == {"ready": False, "outputs": 1}
    send(engine, 3)
    assert rec.take() == []


def test_every_variable_events(engine, rec) -> None:
    variables = engine.services["variables"] = Variables(n=2)
    engine.epl("select a from T output every n events").add_listener(rec)
    send(engine, 1, 2)
    assert rec.take() == [([{"a": 1}, {"a": 2}], [])]
    variables.set("n", 3)
    send(engine, 3, 4)
    assert rec.take() == []
    send(engine, 5)
    assert rec.take() == [([{"a": 3}, {"a": 4}, {"a": 5}], [])]


def test_stop_unsubscribes(engine) -> None:
    variables = engine.services["variables"] = Variables(ready=False)
    stmt = engine.epl("select a from T output when ready")
    send(engine, 1)
    assert len(variables.subscribers) == 1
    stmt.stop()
    assert variables.subscribers == {}
