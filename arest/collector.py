"""The cyclic collector held off while arest builds what it keeps.

Loading the runtime's modules and decoding a kept D make tens of thousands of container
objects that all live on (functions, classes, the cells' tuples and maps).  CPython's
collector walks the youngest of them every 700 allocations and the middle generation every
tenth time, so a reopen ran about 30 collections that found nothing, 5-10 ms of CPU.
:class:`held_off` disables it for such a bounded piece of work and then, on leaving:

- moves every tracked object into the oldest generation (``gc.freeze()`` then
  ``gc.unfreeze()``: two list splices, no walk), where the kept objects would have ended
  after two young collections anyway, and which leaves the young generation's count at 0
  (else the first allocation after would walk everything the work made);
- enables the collector again.

Nothing the collector would do is lost, only put off: cycles the work left unreachable
(about 300 objects of a reopen's 25,000) are freed by the next full collection, not the
next young one.  What stays as it was: the thresholds, the collector disabled or enabled as
the caller had it (a caller who disabled it gets nothing done here at all), and objects the
caller froze (with any, the objects are left where they are, as ``gc.unfreeze()`` would
thaw the caller's too).  While the work runs, another thread's allocations are not
collected either; held off only for work bounded by what it keeps (modules, a decoded D),
never for a journal's replay, whose length has no bound.

>>> import gc
>>> gc.isenabled()
True
>>> with held_off():
...     gc.isenabled()
False
>>> gc.isenabled(), gc.get_count()[0] < 700
(True, True)
"""

from __future__ import annotations

import gc


class held_off:  # lower case: read as a phrase, ``with held_off():``
    """A context in which the cyclic collector does not run (see the module)."""

    __slots__ = ("_resume",)

    def __enter__(self) -> None:
        self._resume = gc.isenabled()
        if self._resume:
            gc.disable()

    def __exit__(self, *_: object) -> None:
        if self._resume:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()
