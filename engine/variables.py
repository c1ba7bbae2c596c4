"""Variables: `create [constant] variable`, read by compiled expressions (filters, where,
output conditions), written by `on ... set` and from Python.

Esper versions variable values per event: every statement processing one event sees the
values as of the event's arrival. A write made while the engine processes an event is staged
and committed once that event has been processed by every statement (before insert-into
events derived from it are processed), so it takes effect for the next event. Within one
`on ... set`, later assignments see the values earlier ones assigned."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from engine.contracts.epl_types import PropertyType
from engine.contracts.variable_values import VariableError as VariableError
from engine.contracts.variable_values import check_value

if TYPE_CHECKING:
    from engine.contracts.runtime import Runtime


class Variable:
    """One declared variable; readers hold the object, so a value change is one attribute write.
    A variable declared with a context (`context C create variable ...`) has a value per
    partition, kept in the partition's properties under `key` (released with the partition);
    `value` is then the initial value of each partition."""

    __slots__ = ("name", "type", "value", "constant", "context", "key")

    def __init__(self, name: str, type_: PropertyType, value: Any, constant: bool,
                 context: Optional[str] = None) -> None:
        self.name = name
        self.type = type_
        self.value = value
        self.constant = constant
        self.context = context
        self.key = ("variable", name)     # not a string: never a context property name


class VariableService:
    """`engine.services.variables`: the Scope.variables protocol (`has`, `type_of`,
    `reader`) for the compiler, and `get`/`set` for applications."""

    def __init__(self, engine: "Runtime") -> None:
        self.engine = engine
        self._vars: dict[str, Variable] = {}
        # staged writes: (name, id(partition props)) -> (name, value, props)
        self._pending: dict[tuple, tuple] = {}
        self._commit_queued = False
        # values assigned by the `on ... set` being evaluated (visible to its later assignments)
        self.overlay: Optional[dict[str, Any]] = None
        # name -> callbacks run after each committed write (`output when` re-evaluates on them)
        self._watchers: dict[str, list[Callable[[], None]]] = {}

    # -- declaration -----------------------------------------------------------------------
    def declare(self, name: str, type_: PropertyType, value: Any = None, constant: bool = False,
                context: Optional[str] = None) -> Variable:
        if name in self._vars:
            raise VariableError(f"Variable by name '{name}' has already been created")
        var = Variable(name, type_, check_value(name, type_, value), constant, context)
        self._vars[name] = var
        return var

    def remove(self, name: str) -> None:
        self._vars.pop(name, None)
        self._pending = {k: e for k, e in self._pending.items() if e[0] != name}

    # -- compiler protocol -------------------------------------------------------------------
    def has(self, name: str) -> bool:
        return name in self._vars

    def type_of(self, name: str) -> PropertyType:
        return self._var(name).type

    def is_constant(self, name: str) -> bool:
        return self._var(name).constant

    def context_of(self, name: str) -> Optional[str]:
        """The context a variable was declared with (None: one value for the engine)."""
        return self._var(name).context

    def reader(self, name: str, holder: Any = None) -> Callable[[], Any]:
        """A reader of the variable; for a context variable, of the value of the partition
        whose properties `holder` has in place."""
        var = self._var(name)
        if var.constant:
            return lambda _v=var: _v.value
        if var.context is not None and holder is not None:
            def read_partition(_v: Variable = var, _s: VariableService = self, _h: Any = holder) -> Any:
                ov = _s.overlay
                if ov is not None and _v.name in ov:
                    return ov[_v.name]
                return _h.properties.get(_v.key, _v.value)
            return read_partition

        def read(_v: Variable = var, _s: VariableService = self) -> Any:
            ov = _s.overlay
            if ov is not None and _v.name in ov:
                return ov[_v.name]
            return _v.value
        return read

    # -- application API ---------------------------------------------------------------------
    def get(self, name: str) -> Any:
        return self._var(name).value

    def set(self, name: str, value: Any) -> None:
        """Set a variable from Python. Listeners run once an event has been processed by every
        statement, so a value set there (or between events) applies from the next event on."""
        var = self._var(name)
        if var.constant:
            raise VariableError(f"Variable by name '{name}' is declared constant and may not be assigned a new value")
        var.value = check_value(name, var.type, value)
        self._pending.pop((name, id(None)), None)
        self._notify(name)

    def __getitem__(self, name: str) -> Any:
        return self.get(name)

    def __setitem__(self, name: str, value: Any) -> None:
        self.set(name, value)

    def __contains__(self, name: str) -> bool:
        return name in self._vars

    def __iter__(self) -> Iterator[str]:
        return iter(self._vars)

    def names(self) -> list[str]:
        return list(self._vars)

    # -- writes ------------------------------------------------------------------------------
    def write(self, values: dict[str, Any], props: Optional[dict] = None) -> None:
        """`on ... set`: stage checked values, committed once the current event has been
        processed by every statement (at once when the engine is idle). `props`: the
        properties of the partition a context statement runs in (context variables)."""
        if not self.engine.processing:
            for n, v in values.items():
                self._assign(n, v, props)
            for n in values:
                self._notify(n)
            return
        for n, v in values.items():
            self._pending[(n, id(props))] = (n, v, props)
        if not self._commit_queued:
            self._commit_queued = True
            self.engine.after_event(self.commit)

    def _assign(self, name: str, value: Any, props: Optional[dict]) -> None:
        var = self._vars.get(name)
        if var is None:
            return
        if var.context is not None and props is not None:
            props[var.key] = value
        else:
            var.value = value

    def commit(self) -> None:
        self._commit_queued = False
        pending, self._pending = self._pending, {}
        for n, v, props in pending.values():
            self._assign(n, v, props)
        for n in dict.fromkeys(n for n, _v, _p in pending.values()):
            self._notify(n)

    # -- change callbacks --------------------------------------------------------------------
    def subscribe(self, name: str, callback: Callable[[], None]) -> Any:
        """Call `callback()` after every committed write of the variable; returns a handle."""
        self._watchers.setdefault(name, []).append(callback)
        return (name, callback)

    def unsubscribe(self, handle: Any) -> None:
        name, callback = handle
        watchers = self._watchers.get(name)
        if watchers and callback in watchers:
            watchers.remove(callback)

    def _notify(self, name: str) -> None:
        for callback in list(self._watchers.get(name, ())):
            callback()

    def _var(self, name: str) -> Variable:
        var = self._vars.get(name)
        if var is None:
            raise VariableError(f"Variable by name '{name}' has not been created")
        return var


def install(engine: "Runtime") -> VariableService:
    """Register the variable service (epl/compiler/features.py registers the compiler)."""
    if "variables" not in engine.services:      # installing twice keeps the service
        engine.services.variables = VariableService(engine)
    svc = engine.services.variables
    return svc
