"""Named windows and tables: shared, queryable event stores that statements insert into,
consume, and change with on-actions and fire-and-forget queries.

Runtime: may import engine.contracts, views, filterindex, epl.ast, epl.plans and the runtime;
never the compiler (epl/compiler/windows.py, tables.py, onactions.py, window_streams.py compile
the statements into plan data, epl/plans/namedwindows.py and onactions.py, which create.py and
actions.py turn into windows, tables and actions). This `__init__` is the package's public face: inside our packages, import the
defining modules."""
from .service import NamedWindowService as NamedWindowService, install as install
from .table import Table as Table
from .window import NamedWindow as NamedWindow
