"""arest: FORML 2 readings in, a running application out.

Everything is evaluated by one small β-reducer over Backus's FFP algebra
(:mod:`arest.algebra`) on immutable persistent-map cells.  This module stays light: it
imports no transport, so a process starts, opens a tenant and writes in well under a second.
"""

__version__ = "0.1.0"
