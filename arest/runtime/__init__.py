"""The runtime: the one mutable holder of a current D, made durable."""

from arest.collector import held_off

with held_off():  # its modules and the system's they load: every object made is kept
    from arest.runtime.recovery import ReplayError
    from arest.runtime.storage import (
        MemoryStorage,
        SqliteStorage,
        Storage,
        StorageError,
        open_storage,
    )
    from arest.runtime.tenant import Tenant, TenantLocked

__all__ = [
    "MemoryStorage", "ReplayError", "SqliteStorage", "Storage", "StorageError", "Tenant",
    "TenantLocked", "open_storage",
]
