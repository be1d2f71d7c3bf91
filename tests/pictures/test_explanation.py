"""An explanation's picture: one box per fact (a fact met twice is one box), an arrow from each
fact to each it rests on, the rule of each derived fact, asserted facts apart, a cut tree
saying so, hostile values escaped."""

from __future__ import annotations

from typing import Any

import arest
from arest.pictures import explanation_svg
from tests.corpus import OWN_READINGS
from tests.pictures.geometry import crossings
from tests.pictures.svgs import SVG, of_class, parsed, texts, title


def fact(reading: str, *antecedents: dict[str, Any], rule: str | None = None,
         **more: Any) -> dict[str, Any]:
    node: dict[str, Any] = {"fact_type": "F", "bindings": {"F": reading}, "reading": reading,
                            "derived": bool(antecedents) or rule is not None,
                            "antecedents": list(antecedents), **more}
    if rule is not None:
        node["rule"] = {"id": "r-1", "reading": rule}
    return node


def arrows(root: Any) -> int:
    return sum(1 for p in root.iter(SVG + "path") if p.get("marker-end") == "url(#arrow)")


def test_a_derived_fact_of_the_genealogy_rests_on_two_asserted_ones() -> None:
    D = arest.load(OWN_READINGS / "genealogy")
    tree, _ = arest.apply(D, "explain", {"fact_type": "Person_is_grandparent_of_Person",
                                         "bindings": ["Ada", "Cleo"]})
    root = parsed(explanation_svg(tree))
    [top] = of_class(root, "root")
    assert texts(top)[0] == "Person 'Ada' is grandparent of Person 'Cleo'."
    assert texts(top)[1].startswith("by * Person1 is grandparent of Person3")
    assert sorted(texts(g)[0] for g in of_class(root, "asserted")) == [
        "Person 'Ada' is parent of Person 'Ben'.", "Person 'Ben' is parent of Person 'Cleo'."]
    assert arrows(root) == 2
    assert root.findtext(SVG + "title") == "Why Person 'Ada' is grandparent of Person 'Cleo'"


def test_a_fact_met_twice_is_one_box_with_two_arrows_into_it() -> None:
    shared = fact("S.")
    tree = fact("R.", fact("A.", shared, rule="a"), fact("B.", shared, rule="b"), rule="r")
    root = parsed(explanation_svg(tree))
    assert sorted(title(g) for g in of_class(root, "asserted")) == ["S."]
    assert len(of_class(root, "fact")) == 4 and arrows(root) == 4


def test_a_cut_tree_says_where_to_go_on() -> None:
    root = parsed(explanation_svg(fact("R.", rule="r", truncated=True)))
    [cut] = of_class(root, "truncated")
    assert texts(cut)[-1] == "… cut here: explain this fact to go on"


def test_a_long_reading_wraps_and_the_picture_is_the_same_each_time() -> None:
    long = "Person '" + "x" * 30 + "' is parent of Person '" + "y" * 30 + "'."
    tree = fact(long)
    drawn = explanation_svg(tree)
    assert " ".join(texts(of_class(parsed(drawn), "fact")[0])) == long
    assert explanation_svg(tree) == drawn


def test_hostile_values_are_escaped() -> None:
    hostile = "Customer '<a href=\"x\">&amp;' likes Book 'it''s'.\x07"
    root = parsed(explanation_svg(fact(hostile, rule="<rule> & \"r\"")))
    [top] = of_class(root, "root")
    assert " ".join(texts(top)[:-1]) == hostile.replace("\x07", "\ufffd")
    assert texts(top)[-1] == "by <rule> & \"r\""


def test_an_arrow_skipping_a_level_goes_round_the_facts_between() -> None:
    # R rests on A (which rests on S) and on S itself: R's arrow to S passes A's level.
    shared = fact("S, a fact with a long reading that makes its box wide.")
    tree = fact("R.", fact("A, another fact whose box is wide as well.", shared, rule="a"),
                fact("B.", fact("C.", shared, rule="c"), rule="b"), shared, rule="r")
    root = parsed(explanation_svg(tree))
    assert arrows(root) == 6 and crossings(root, "fact") == []
