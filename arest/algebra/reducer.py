"""The reference reducer: ρ and metacomposition, applicative order, an explicit stack, fuel.

``apply(f, x, defs)`` computes f:x.  ρ gives each object its meaning (Backus 1978, §13):

- an atom with a definition in ``defs`` means its definition: (ρa):x = (ρ defs[a]):x;
- any other atom is ``apply`` (apply:⟨g, y⟩ = g:y), a primitive that reads D
  (:mod:`arest.algebra.environment`), a primitive or a selector
  (:mod:`arest.algebra.primitives`), or ⊥;
- a sequence dispatches on its head by metacomposition, (ρ⟨x₁,…,xₙ⟩):y = (ρx₁):⟨⟨x₁,…,xₙ⟩, y⟩,
  so a controller in ``defs`` behaves like a built-in form; the built-in controllers of
  :mod:`arest.algebra.forms` read their parts from the form's tail.
- Everything applied to ⊥ is ⊥, and ⊥ applied to anything is ⊥.

Every application costs one unit of fuel; when the fuel runs out the answer is ⊥.  The
reducer keeps its own stacks instead of Python's, so neither deep objects nor deep
recursion through ``defs`` raise ``RecursionError``.  Nothing is global: the function, the
object, the definitions and the fuel are all arguments.

>>> show(apply(read("<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>"),
...            read("<<1,2,3>,<6,5,4>>")))
'28'
>>> show(apply(read("<SWAP>"), read("<a, b>"), {"SWAP": read("<COMP, <CONS, 2, 1>, 2>")}))
'<b, a>'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from arest.algebra import forms
from arest.algebra.environment import ENVIRONMENT_PRIMITIVES
from arest.algebra.objects import BOTTOM, Object, sequence
from arest.algebra.primitives import PRIMITIVES, RIGHT_UNITS, select, selector_index
from arest.algebra.relations import Archive, Cell, Relation

DEFAULT_FUEL: Final = 1_000_000

# Frame opcodes of the control stack.
_EVAL: Final = 0  # (_EVAL, f, x): compute f:x and push it
_THEN_APPLY: Final = 1  # (_THEN_APPLY, f): pop v, compute f:v
_COLLECT: Final = 2  # (_COLLECT, n): pop n values, push their sequence
_BRANCH: Final = 3  # (_BRANCH, f, g, x): pop p:x, continue with f:x or g:x
_INSERT_STEP: Final = 4  # (_INSERT_STEP, f, items, i): pop acc, compute f:⟨items[i], acc⟩
_WHILE_TEST: Final = 5  # (_WHILE_TEST, p, f, x): pop p:x, loop on f:x or push x
_WHILE_NEXT: Final = 6  # (_WHILE_NEXT, p, f): pop x′, test p:x′
_KEEP: Final = 7  # (_KEEP, items): pop one verdict per item, push the items judged T
_FOLD_STEP: Final = 8  # (_FOLD_STEP, f, items, i): pop acc, compute f:⟨acc, items[i]⟩


class Reduction(NamedTuple):
    """The outcome of one reduction: the value, the fuel used, and whether the fuel ran out."""

    value: Object
    steps: int
    exhausted: bool


def apply(
    f: Object, x: Object, defs: Mapping[str, Cell] | None = None, fuel: int = DEFAULT_FUEL
) -> Object:
    """f:x under the definitions ``defs`` (any mapping from atoms to objects), or ⊥ when the
    fuel runs out.

    >>> show(apply("tl", read("<a, b>")))
    '<b>'
    >>> apply(read("<WHILE, <CONST, T>, id>"), "a", fuel=1000)
    ⊥
    """
    return reduce(f, x, defs, fuel).value


def reduce(
    f: Object, x: Object, defs: Mapping[str, Cell] | None = None, fuel: int = DEFAULT_FUEL
) -> Reduction:
    """f:x with an account of the fuel: ``Reduction(value, steps, exhausted)``.

    >>> reduce("tl", read("<a, b>"))
    Reduction(value=('b',), steps=1, exhausted=False)
    >>> reduce("LOOP", "a", {"LOOP": read("<COMP, LOOP, id>")}, fuel=50).exhausted
    True
    """
    environment: Mapping[str, Cell] = defs if defs is not None else {}
    control: list[tuple[Any, ...]] = [(_EVAL, f, x)]
    values: list[Object] = []
    remaining = fuel
    while control:
        frame = control.pop()
        opcode = frame[0]
        if opcode == _EVAL:
            remaining -= 1
            if remaining < 0:
                return Reduction(BOTTOM, fuel, True)
            _, function, argument = frame
            _step(function, argument, environment, control, values)
        elif opcode == _THEN_APPLY:
            control.append((_EVAL, frame[1], values.pop()))
        elif opcode == _COLLECT:
            count = frame[1]
            if count:
                items = values[-count:]
                del values[-count:]
                values.append(sequence(*items))
            else:
                values.append(())
        elif opcode == _BRANCH:
            verdict = values.pop()
            if verdict == "T":
                control.append((_EVAL, frame[1], frame[3]))
            elif verdict == "F":
                control.append((_EVAL, frame[2], frame[3]))
            else:
                values.append(BOTTOM)
        elif opcode == _INSERT_STEP:
            _, function, items, index = frame
            accumulated = values.pop()
            if index > 0:
                control.append((_INSERT_STEP, function, items, index - 1))
            pair = sequence(items[index], accumulated)
            control.append((_EVAL, function, pair))
        elif opcode == _WHILE_TEST:
            verdict = values.pop()
            _, predicate, function, argument = frame
            if verdict == "T":
                control.append((_WHILE_NEXT, predicate, function))
                control.append((_EVAL, function, argument))
            elif verdict == "F":
                values.append(argument)
            else:
                values.append(BOTTOM)
        elif opcode == _WHILE_NEXT:
            argument = values.pop()
            control.append((_WHILE_TEST, frame[1], frame[2], argument))
            control.append((_EVAL, frame[1], argument))
        elif opcode == _KEEP:
            items = frame[1]
            count = len(items)
            verdicts = values[len(values) - count:]
            del values[len(values) - count:]
            values.append(tuple(item for item, v in zip(items, verdicts, strict=True) if v == "T"))
        else:  # _FOLD_STEP
            _, function, items, index = frame
            accumulated = values.pop()
            if index + 1 < len(items):
                control.append((_FOLD_STEP, function, items, index + 1))
            control.append((_EVAL, function, sequence(accumulated, items[index])))
    return Reduction(values.pop(), fuel - remaining, False)


def _step(
    f: Object,
    x: Object,
    defs: Mapping[str, Cell],
    control: list[tuple[Any, ...]],
    values: list[Object],
) -> None:
    """One application f:x: push its value, or the frames that will compute it."""
    if x is BOTTOM:
        values.append(BOTTOM)
        return
    if type(f) is str:
        definition = defs.get(f)
        if isinstance(definition, Relation | Archive):
            values.append(BOTTOM)  # a fact type's population is not a function
        elif definition is not None:
            control.append((_EVAL, definition, x))
        elif f == "apply":
            # apply:⟨g, y⟩ = g:y, how a controller defined in D applies the parts of its form.
            if type(x) is tuple and len(x) == 2:
                control.append((_EVAL, x[0], x[1]))
            else:
                values.append(BOTTOM)
        elif f in ENVIRONMENT_PRIMITIVES:
            values.append(ENVIRONMENT_PRIMITIVES[f](defs, x))
        elif f in PRIMITIVES:
            values.append(PRIMITIVES[f](x))
        elif f in forms.ARITY:
            # A controller applied by name: (ρ COMP):⟨form, y⟩ reads the parts of form.
            if type(x) is tuple and len(x) == 2 and type(x[0]) is tuple and x[0]:
                _control(f, x[0], x[1], defs, control, values)
            else:
                values.append(BOTTOM)
        else:
            index = selector_index(f)
            values.append(BOTTOM if index is None else select(index, x))
    elif type(f) is tuple and f:
        head = f[0]
        if type(head) is str and head in forms.ARITY and head not in defs:
            _control(head, f, x, defs, control, values)
        else:
            control.append((_EVAL, head, sequence(f, x)))
    else:
        values.append(BOTTOM)


def _control(
    controller: str,
    form: tuple[Object, ...],
    x: Object,
    defs: Mapping[str, Cell],
    control: list[tuple[Any, ...]],
    values: list[Object],
) -> None:
    """The built-in controller's step on ⟨form, x⟩; a form of the wrong arity means ⊥."""
    if x is BOTTOM or not forms.well_formed((controller, *form[1:])):
        values.append(BOTTOM)
        return
    parts = form[1:]
    if controller == forms.CONST:
        values.append(parts[0])
    elif controller == forms.COMP:
        if not parts:
            values.append(x)
            return
        for function in parts[:-1]:
            control.append((_THEN_APPLY, function))
        control.append((_EVAL, parts[-1], x))
    elif controller == forms.CONS:
        control.append((_COLLECT, len(parts)))
        for function in reversed(parts):
            control.append((_EVAL, function, x))
    elif controller == forms.COND:
        control.append((_BRANCH, parts[1], parts[2], x))
        control.append((_EVAL, parts[0], x))
    elif controller == forms.APPLYTOALL:
        if type(x) is not tuple:
            values.append(BOTTOM)
            return
        control.append((_COLLECT, len(x)))
        function = parts[0]
        for item in reversed(x):
            control.append((_EVAL, function, item))
    elif controller == forms.INSERT:
        _insert(parts[0], x, defs, control, values)
    elif controller == forms.BU:
        control.append((_EVAL, parts[0], sequence(parts[1], x)))
    elif controller == forms.WHILE:
        control.append((_WHILE_TEST, parts[0], parts[1], x))
        control.append((_EVAL, parts[0], x))
    elif controller == forms.FILTER:
        if type(x) is not tuple:
            values.append(BOTTOM)
            return
        control.append((_KEEP, x))
        for item in reversed(x):
            control.append((_EVAL, parts[0], item))
    else:  # FOLDL
        if not (type(x) is tuple and len(x) == 2 and type(x[1]) is tuple):
            values.append(BOTTOM)
            return
        values.append(x[0])
        if x[1]:
            control.append((_FOLD_STEP, parts[0], x[1], 0))


def _insert(
    function: Object,
    x: Object,
    defs: Mapping[str, Cell],
    control: list[tuple[Any, ...]],
    values: list[Object],
) -> None:
    if type(x) is not tuple:
        values.append(BOTTOM)
    elif not x:
        unit = RIGHT_UNITS.get(function) if type(function) is str else None
        values.append(BOTTOM if unit is None or function in defs else unit)
    else:
        values.append(x[-1])
        if len(x) > 1:
            control.append((_INSERT_STEP, function, x, len(x) - 2))
