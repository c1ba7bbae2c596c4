"""Old path of engine/contracts/faults.py (the fault-reporting helpers compiled closures and
the runtime share): re-exported for the runtime modules that import it from here."""
from engine.contracts.faults import evaluation_failed, statement_failed, statement_of_slot  # noqa: F401
