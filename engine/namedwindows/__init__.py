"""Named windows and tables: shared, queryable event stores that statements insert into,
consume, and change with on-actions and fire-and-forget queries."""
from .service import NamedWindowService as NamedWindowService, install as install
from .table import Table as Table
from .window import NamedWindow as NamedWindow
