"""The reference reducer and the fast evaluator: the examples of DESIGN §2, metacomposition,
fuel, depth, and agreement on random programs."""

from hypothesis import given
from hypothesis import strategies as st

from arest.algebra import BOTTOM, apply, equal, evaluate, read, reduce, show
from arest.algebra.forms import comp, cons, const
from arest.algebra.objects import Object
from arest.testing import functions, objects, small_atoms

INNER_PRODUCT = read("<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>")
# TWICE and MYCOMP are controllers written in FFP: each receives ⟨its form, the argument⟩.
TWICE = read("<COMP, apply, <CONS, <COMP, 2, 1>, <COMP, apply, <CONS, <COMP, 2, 1>, 2>>>>")
MYCOMP = read("<COMP, apply, <CONS, <COMP, 2, 1>, <COMP, apply, <CONS, <COMP, 3, 1>, 2>>>>")
CONTROLLERS = {"SWAP": read("<COMP, <CONS, 2, 1>, 2>"), "TWICE": TWICE, "MYCOMP": MYCOMP}


def both(f: Object, x: Object, defs: dict[str, Object] | None = None) -> Object:
    reference, fast = apply(f, x, defs), evaluate(f, x, defs)
    assert equal(reference, fast), (show(reference), show(fast))
    return reference


def test_inner_product_shows_28() -> None:
    assert show(both(INNER_PRODUCT, read("<<1,2,3>,<6,5,4>>"))) == "28"


def test_a_controller_defined_in_defs_is_a_form() -> None:
    assert show(both(read("<SWAP>"), read("<a, b>"), CONTROLLERS)) == "<b, a>"
    assert show(both(read("<TWICE, tl>"), read("<a, b, c>"), CONTROLLERS)) == "<c>"


@given(functions(max_leaves=5), functions(max_leaves=5), objects(small_atoms(), max_leaves=8))
def test_a_user_defined_composition_behaves_like_comp(f, g, x) -> None:  # type: ignore[no-untyped-def]
    built_in = reduce(comp(f, g), x, fuel=5_000)
    if not built_in.exhausted:
        assert equal(apply(("MYCOMP", f, g), x, CONTROLLERS, fuel=50_000), built_in.value)
        assert equal(evaluate(("MYCOMP", f, g), x, CONTROLLERS), built_in.value)


def test_a_redefined_primitive_wins_over_the_built_in() -> None:
    defs = {"+": read("<CONST, plus>")}
    assert both(comp("+", cons("1", "2")), read("<1, 2>"), defs) == "plus"
    assert both(read("<INSERT, +>"), read("<1, 2, 3>"), defs) == "plus"


def test_recursion_through_defs() -> None:
    # length by recursion: LEN = null → 0̄; +∘[1̄, LEN∘tl]
    defs = {"LEN": read("<COND, null, <CONST, 0>, <COMP, +, <CONS, <CONST, 1>, <COMP, LEN, tl>>>>")}
    assert both("LEN", read("<a, b, c, d>"), defs) == "4"


def test_running_out_of_fuel_is_bottom() -> None:
    loop = read("<WHILE, <CONST, T>, id>")
    assert reduce(loop, "a", fuel=100).exhausted
    assert apply(loop, "a", fuel=100) is BOTTOM
    assert evaluate(loop, "a", fuel=100) is BOTTOM
    defs = {"LOOP": read("<COMP, LOOP, id>")}
    assert apply("LOOP", "a", defs, fuel=100) is BOTTOM
    assert evaluate("LOOP", "a", defs, fuel=100) is BOTTOM
    self_application = read("<COMP, apply, <CONS, id, id>>")
    assert evaluate(self_application, self_application, fuel=100) is BOTTOM


def test_deep_recursion_does_not_overflow() -> None:
    defs = {"LEN": read("<COND, null, <CONST, 0>, <COMP, +, <CONS, <CONST, 1>, <COMP, LEN, tl>>>>")}
    long = tuple(str(i) for i in range(20_000))
    assert both("LEN", long, defs) == "20000"


def test_deeply_nested_objects_and_functions() -> None:
    deep: Object = "a"
    for _ in range(20_000):
        deep = (deep, "b")
    assert both(comp("eq", cons("id", "id")), deep) == "T"
    assert both("reverse", deep) == ("b", deep[0])  # type: ignore[index]
    assert both(read("<APPLYTOALL, atom>"), deep) == ("F", "T")
    nested: Object = "id"
    for _ in range(20_000):
        nested = comp(nested, "id")
    assert both(nested, deep) is deep


@given(
    functions(defined=("F1", "F2"), max_leaves=10),
    st.fixed_dictionaries(
        {"F1": functions(defined=("F1", "F2"), max_leaves=6),
         "F2": functions(defined=("F1", "F2"), max_leaves=6)}
    ),
    objects(small_atoms(), max_leaves=10),
)
def test_the_fast_evaluator_agrees_with_the_reference(f, defs, x) -> None:  # type: ignore[no-untyped-def]
    reference = reduce(f, x, defs, fuel=20_000)
    fast = evaluate(f, x, defs, fuel=20_000)
    if reference.exhausted:
        assert reference.value is BOTTOM
    else:
        assert equal(fast, reference.value), (show(f), show(x), show(fast), show(reference.value))


@given(functions(max_leaves=12), objects(small_atoms(), max_leaves=12))
def test_agreement_without_definitions(f, x) -> None:  # type: ignore[no-untyped-def]
    reference = reduce(f, x, fuel=20_000)
    if not reference.exhausted:
        assert equal(evaluate(f, x, fuel=20_000), reference.value)


@given(
    st.sampled_from(["+", "-", "*", "/", "eq", "lt", "le", "gt", "ge", "and", "or"]),
    functions(max_leaves=5),
    st.sampled_from(["0", "1", "2.5", "-4", "100", "2024-02-01", "T", "a"]),
    st.booleans(),
    objects(small_atoms(), max_leaves=8),
)
def test_fused_binary_primitives_agree(p, f, c, constant_first, x) -> None:  # type: ignore[no-untyped-def]
    """p∘[f, c̄] and p∘[c̄, f] compile to kernels; they compute what the reference does."""
    parts = (const(c), f) if constant_first else (f, const(c))
    program = comp(p, cons(*parts))
    reference = reduce(program, x, fuel=20_000)
    if not reference.exhausted:
        assert equal(evaluate(program, x, fuel=20_000), reference.value)
    with_bottom = reduce(program, BOTTOM, fuel=20_000)
    assert with_bottom.value is BOTTOM and evaluate(program, BOTTOM) is BOTTOM
