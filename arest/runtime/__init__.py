"""The runtime: the one mutable holder of a current D, made durable."""

from arest.runtime.recovery import ReplayError
from arest.runtime.storage import MemoryStorage, SqliteStorage, Storage, StorageError, open_storage
from arest.runtime.tenant import Tenant, TenantLocked

__all__ = [
    "MemoryStorage", "ReplayError", "SqliteStorage", "Storage", "StorageError", "Tenant",
    "TenantLocked", "open_storage",
]
