"""arest.load, arest.compile, arest.warnings and ReadingError (DESIGN §3)."""

from pathlib import Path

import pytest

import arest
from arest.algebra import EMPTY_STATE
from tests.corpus import OWN_READINGS


def test_load_a_corpus_domain() -> None:
    D = arest.load(OWN_READINGS / "clinic")
    out, same = arest.apply(D, "schema", {"noun": "Visit"})
    assert same is D
    ids = {fact_type["id"] for fact_type in out["fact_types"]}
    assert "Visit_is_booked_by_Patient" in ids
    assert any(c["reading"] == "Each Visit has at most one Referral." for c in out["constraints"])


def test_load_a_folder_reads_every_markdown_file_in_name_order(tmp_path: Path) -> None:
    (tmp_path / "b.md").write_text("Customer places Order.\n")
    (tmp_path / "a.md").write_text("Order(.Order Id) is an entity type.\n")
    (tmp_path / "notes.txt").write_text("not readings")
    D = arest.load(tmp_path)
    nouns = {noun["name"]: noun for noun in arest.apply(D, "schema")[0]["nouns"]}
    assert nouns["Order"]["reference_scheme"] == ["Order Id"]


def test_a_missing_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        arest.load(tmp_path / "nowhere.md")


def test_reading_errors_list_every_diagnostic_compiler_style(tmp_path: Path) -> None:
    # Instance facts that give 'main' another Branch Code contradict its reference scheme.
    text = (OWN_READINGS / "library" / "library.md").read_text()
    lines = len(text.splitlines())
    library = tmp_path / "library.md"
    library.write_text(text + "Branch Library 'main' has Branch Code 'central'.\n"
                       "Branch Library 'main' has Branch Code 'north'.\n")
    with pytest.raises(arest.ReadingError) as caught:
        arest.load(library)
    message = str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert f"{library}:{lines + 1}:1:" in message
    assert f"{library}:{lines + 2}:1:" in message
    assert "Branch Library 'main' has Branch Code 'central'." in message
    assert len(caught.value.diagnostics) == 2


def test_compile_continues_from_the_state_it_is_given() -> None:
    D = arest.compile("Order(.Order Id) is an entity type.\nCustomer(.id) is an entity type.\n"
                      "Order was placed by Customer.")
    D2 = arest.compile("Customer is active.\nCustomer 'acme' is active.", D)
    assert arest.apply(D2, "list:Customer")[0]["items"][0]["is active"] is True
    assert arest.apply(D, "list:Customer")[0]["items"] == []  # D itself is unchanged


def test_compile_refuses_what_does_not_read_and_names_the_place() -> None:
    with pytest.raises(arest.ReadingError) as caught:
        arest.compile("Order was placed by Customer.\nEach Order was placed by.")
    assert caught.value.diagnostics[0].line == 2
    assert "<compile 1>:2:" in str(caught.value)


def test_permissive_mode_declares_unknown_nouns_and_warns() -> None:
    D = arest.compile("Person has Display Name.")
    assert any("Display Name" in warning for warning in arest.warnings(D))
    kinds = {noun["name"]: noun["kind"] for noun in arest.apply(D, "schema")[0]["nouns"]}
    assert kinds["Display Name"] == "value"


def test_strict_mode_rejects_unknown_nouns() -> None:
    with pytest.raises(arest.ReadingError) as caught:
        arest.compile("Person has Display Name.", strict=True)
    assert "Display Name" in str(caught.value)


def test_import_arest_stays_light() -> None:
    import subprocess
    import sys

    probe = "import arest, sys; print(sorted(m for m in ('lark', 'mcp', 'starlette', " \
            "'uvicorn', 'arest.forml2') if m in sys.modules))"
    output = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout
    assert output.strip() == "[]"


def test_what_loads_on_first_use_is_listed_and_is_what_it_names() -> None:
    """``dir(arest)`` (a notebook's tab completion) lists the names loaded on first use, and
    a submodule imported first never stands in for the function of the package's name."""
    import subprocess
    import sys

    probe = ("import arest, arest.forml2.verbalizer, inspect; "
             "from arest.forml2 import verbalize; "
             "print(sorted(set(arest.__all__) - set(dir(arest))), inspect.isfunction(verbalize))")
    output = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout
    assert output.strip() == "[] True"


def test_the_empty_state_knows_no_nouns() -> None:
    out, _ = arest.apply(EMPTY_STATE, "list:Order")
    assert out["error"]["code"] == "unknown_noun"


CLINIC = """\
Clinician(.Name) is an entity type.
Nurse is a subtype of Clinician.
Clinician 'x' is a Nurse 'x'.
Clinician 'y' is a Nurse.
"""


def test_a_membership_instance_fact_puts_the_entity_in_the_subtype() -> None:
    D = arest.compile(CLINIC)
    assert [i["id"] for i in arest.apply(D, "list:Nurse")[0]["items"]] == ["x", "y"]
    with pytest.raises(arest.ReadingError, match="a membership fact names one entity"):
        arest.compile(CLINIC + "Clinician 'z' is a Nurse 'w'.\n")
