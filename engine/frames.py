"""pandas interop without importing pandas: a DataFrame given to `Engine.send_many` becomes
its rows as dicts of Python values (missing values in text/object columns become None)."""
from __future__ import annotations

import math
from typing import Any


def is_dataframe(obj: Any) -> bool:
    return type(obj).__module__.startswith("pandas") and hasattr(obj, "to_dict") and hasattr(obj, "columns")


def dataframe_records(df: Any) -> list[dict]:
    """Rows of a pandas DataFrame as dicts of native Python values."""
    records = df.to_dict("records")     # pandas boxes numpy scalars to Python ones here
    objects = [c for c, dt in df.dtypes.items() if dt == object or str(dt) in ("string", "str")]
    if objects:
        for r in records:
            for c in objects:
                v = r[c]
                if (isinstance(v, float) and math.isnan(v)) or type(v).__name__ in ("NAType", "NaTType"):
                    r[c] = None
    return records
