"""The fused loops' change counter, engine/contracts/epoch.py (where the filter index can
bump it too); kept under this name for checkpoints pickled before it moved."""
from __future__ import annotations

from engine.contracts.epoch import EPOCH, Epoch, bump

__all__ = ["EPOCH", "Epoch", "bump"]
