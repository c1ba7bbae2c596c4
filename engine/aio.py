"""asyncio access to a statement's deliveries: `async for new, old in stmt.deliveries():`.

The queue is bounded (`maxsize` deliveries). A delivery made on the event loop's own thread
(the engine fed from a coroutine) cannot wait for the consumer: when the queue is full the
oldest waiting delivery is dropped and counted (`dropped`). A delivery made on another
thread waits for room, which holds back that thread's `send` (backpressure)."""
from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Optional, Protocol

if TYPE_CHECKING:
    from engine.contracts.signals import EngineSignals


class _Engine(Protocol):
    @property
    def signals(self) -> "EngineSignals": ...


class DeliverySource(Protocol):
    """What a delivery stream asks of its statement (engine.statement.Statement; a protocol
    so that this module, which the statement imports, does not import it back)."""

    @property
    def engine(self) -> _Engine: ...

    def add_listener(self, listener: Callable[..., object]) -> object: ...

    def remove_listener(self, listener: Callable[..., object]) -> None: ...

_END = object()


class DeliveryStream(AsyncIterator[tuple]):
    """An async iterator of `(new, old)`; ends when closed or when its statement is destroyed.
    Also an async context manager that closes it."""

    def __init__(self, statement: DeliverySource, maxsize: int = 1024) -> None:
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.statement = statement
        self.dropped = 0
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._queue: asyncio.Queue = asyncio.Queue(maxsize)
        self._closed = False
        statement.add_listener(self._listener)
        statement.engine.signals.statement_destroyed.connect(self._on_destroyed, sender=statement.engine,
                                                             weak=False)

    def _listener(self, new: Any, old: Any) -> None:
        item = (tuple(new or ()), tuple(old or ()))
        if threading.get_ident() == self._loop_thread:
            self._put_now(item)
        else:
            asyncio.run_coroutine_threadsafe(self._queue.put(item), self._loop).result()

    def _put_now(self, item: Any) -> None:
        q = self._queue
        if q.full():
            q.get_nowait()
            self.dropped += 1
        q.put_nowait(item)

    def _wake(self) -> None:
        # only a consumer waiting on an empty queue needs the end marker; a full queue is
        # drained first and then ends (see __anext__), so no delivery makes room for it
        if not self._queue.full():
            self._queue.put_nowait(_END)

    def _on_destroyed(self, sender: Any, statement: Any = None, **_: Any) -> None:
        if statement is self.statement:
            self._finish()

    def _finish(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.statement.engine.signals.statement_destroyed.disconnect(self._on_destroyed,
                                                                     sender=self.statement.engine)
        self.statement.remove_listener(self._listener)
        if threading.get_ident() == self._loop_thread:
            self._wake()
        else:
            self._loop.call_soon_threadsafe(self._wake)

    def close(self) -> None:
        """Stop listening; iteration ends after the deliveries already queued."""
        self._finish()

    def __aiter__(self) -> "DeliveryStream":
        return self

    async def __anext__(self) -> tuple:
        if self._closed and self._queue.empty():
            raise StopAsyncIteration
        item = await self._queue.get()
        if item is _END:
            raise StopAsyncIteration
        return item

    async def __aenter__(self) -> "DeliveryStream":
        return self

    async def __aexit__(self, *exc: Optional[BaseException]) -> None:
        self.close()
