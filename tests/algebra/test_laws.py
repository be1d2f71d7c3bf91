"""Backus's algebra of programs (1978, §12) holds for the reference reducer.

Each law is checked on random functions and objects.  Both sides run with fuel; where both
finish, they agree.  A law written f ≤ g (f is less defined than g) is checked where f is
defined: there f = g.
"""

from hypothesis import given
from hypothesis import strategies as st

from arest.algebra import BOTTOM, equal, reduce
from arest.algebra.forms import alpha, bu, comp, cond, cons, const, insert
from arest.algebra.objects import Object
from arest.testing import functions, objects, small_atoms

FUEL = 5_000
fs = functions(max_leaves=6)
xs = objects(small_atoms(), max_leaves=10)
function_lists = st.lists(fs, min_size=1, max_size=3)


def same(left: Object, right: Object, x: Object) -> None:
    a, b = reduce(left, x, fuel=FUEL), reduce(right, x, fuel=FUEL)
    if not (a.exhausted or b.exhausted):
        assert equal(a.value, b.value), (a.value, b.value)


def at_most(left: Object, right: Object, x: Object) -> None:
    a, b = reduce(left, x, fuel=FUEL), reduce(right, x, fuel=FUEL)
    if not (a.exhausted or b.exhausted) and a.value is not BOTTOM:
        assert equal(a.value, b.value), (a.value, b.value)


@given(function_lists, fs, xs)
def test_construction_distributes_over_composition(fns, g, x) -> None:  # type: ignore[no-untyped-def]
    """[f₁,…,fₙ]∘g = [f₁∘g,…,fₙ∘g]"""
    same(comp(cons(*fns), g), cons(*(comp(f, g) for f in fns)), x)


@given(fs, function_lists, xs)
def test_apply_to_all_of_a_construction(f, gs, x) -> None:  # type: ignore[no-untyped-def]
    """αf∘[g₁,…,gₙ] = [f∘g₁,…,f∘gₙ]"""
    same(comp(alpha(f), cons(*gs)), cons(*(comp(f, g) for g in gs)), x)


@given(fs, fs, xs)
def test_insert_of_a_singleton_construction(f, g, x) -> None:  # type: ignore[no-untyped-def]
    """/f∘[g] = g"""
    same(comp(insert(f), cons(g)), g, x)


@given(fs, st.lists(fs, min_size=2, max_size=3), xs)
def test_insert_unfolds_over_a_construction(f, gs, x) -> None:  # type: ignore[no-untyped-def]
    """/f∘[g₁,…,gₙ] = f∘[g₁, /f∘[g₂,…,gₙ]] for n ≥ 2"""
    same(comp(insert(f), cons(*gs)), comp(f, cons(gs[0], comp(insert(f), cons(*gs[1:])))), x)


@given(fs, objects(small_atoms(), max_leaves=3), fs, xs)
def test_constant_argument_is_binary_to_unary(f, c, g, x) -> None:  # type: ignore[no-untyped-def]
    """f∘[x̄, g] = (bu f x)∘g"""
    same(comp(f, cons(const(c), g)), comp(bu(f, c), g), x)


@given(fs, fs, fs, fs, xs)
def test_condition_then_composition(p, f, g, h, x) -> None:  # type: ignore[no-untyped-def]
    """(p → f; g)∘h = p∘h → f∘h; g∘h"""
    same(comp(cond(p, f, g), h), cond(comp(p, h), comp(f, h), comp(g, h)), x)


@given(fs, fs, fs, fs, xs)
def test_composition_then_condition(h, p, f, g, x) -> None:  # type: ignore[no-untyped-def]
    """h∘(p → f; g) = p → h∘f; h∘g"""
    same(comp(h, cond(p, f, g)), cond(p, comp(h, f), comp(h, g)), x)


@given(fs, fs, xs)
def test_apply_to_all_distributes_over_composition(f, g, x) -> None:  # type: ignore[no-untyped-def]
    """αf∘αg = α(f∘g)"""
    same(comp(alpha(f), alpha(g)), alpha(comp(f, g)), x)


@given(fs, fs, fs, xs)
def test_composition_is_associative(f, g, h, x) -> None:  # type: ignore[no-untyped-def]
    """(f∘g)∘h = f∘(g∘h)"""
    same(comp(comp(f, g), h), comp(f, comp(g, h)), x)


@given(fs, xs)
def test_identity_is_a_unit_of_composition(f, x) -> None:  # type: ignore[no-untyped-def]
    """id∘f = f = f∘id"""
    same(comp("id", f), f, x)
    same(comp(f, "id"), f, x)


@given(function_lists, st.data(), xs)
def test_selector_of_a_construction(fns, data, x) -> None:  # type: ignore[no-untyped-def]
    """s∘[f₁,…,fₙ] ≤ fₛ for 1 ≤ s ≤ n"""
    s = data.draw(st.integers(1, len(fns)))
    at_most(comp(str(s), cons(*fns)), fns[s - 1], x)


@given(function_lists, xs)
def test_tail_of_a_construction(fns, x) -> None:  # type: ignore[no-untyped-def]
    """tl∘[f₁] ≤ φ̄; tl∘[f₁,…,fₙ] ≤ [f₂,…,fₙ] for n ≥ 2"""
    right = const(()) if len(fns) == 1 else cons(*fns[1:])
    at_most(comp("tl", cons(*fns)), right, x)


@given(fs, fs, fs, xs)
def test_distribute_left_over_apply_to_all(f, g, h, x) -> None:  # type: ignore[no-untyped-def]
    """distl∘[f, αg∘h] = α[1, g∘2]∘distl∘[f, h]"""
    same(
        comp("distl", cons(f, comp(alpha(g), h))),
        comp(alpha(cons("1", comp(g, "2"))), "distl", cons(f, h)),
        x,
    )


@given(fs, fs, fs, xs)
def test_append_left_under_apply_to_all(f, g, h, x) -> None:  # type: ignore[no-untyped-def]
    """apndl∘[f∘g, αf∘h] = αf∘apndl∘[g, h]"""
    same(comp("apndl", cons(comp(f, g), comp(alpha(f), h))), comp(alpha(f), "apndl", cons(g, h)), x)


@given(objects(small_atoms(), max_leaves=3), fs, xs)
def test_constant_after_anything(c, f, x) -> None:  # type: ignore[no-untyped-def]
    """x̄∘f ≤ x̄"""
    at_most(comp(const(c), f), const(c), x)


@given(fs, fs, fs, fs, xs)
def test_repeated_condition_collapses(p, f, g, h, x) -> None:  # type: ignore[no-untyped-def]
    """p → (p → f; g); h = p → f; h   and   p → f; (p → g; h) = p → f; h"""
    same(cond(p, cond(p, f, g), h), cond(p, f, h), x)
    same(cond(p, f, cond(p, g, h)), cond(p, f, h), x)
