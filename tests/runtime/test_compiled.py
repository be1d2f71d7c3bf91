"""The compiled readings kept beside them: a new database of the same readings starts from
them, equal to a compile from scratch; changed readings or a damaged file are compiled anew."""

from pathlib import Path

import arest
from arest import api
from arest.runtime.codec import decode, encode
from arest.runtime.compiled import FOLDER, artifact_key, artifact_path, kept_compiled
from arest.runtime.tenant import readings_key

SHOP = ("Customer(.id) is an entity type.\nCustomer has Name.\n"
        "  Each Customer has at most one Name.\n")


def _kept(readings: Path) -> list[Path]:
    return sorted((readings.parent / FOLDER).glob("*.base"))


def test_a_new_database_starts_from_the_kept_compile_equal_to_a_fresh_one(tmp_path: Path) -> None:
    readings = tmp_path / "shop.md"
    readings.write_text(SHOP)
    with arest.Tenant.open(readings, db=tmp_path / "first.db") as first:
        first.call("create:Customer", {"id": "c1", "Name": "Ann"})
    assert len(_kept(readings)) == 1
    sources = api.read_files(readings)
    kept = kept_compiled(sources, artifact_key(readings_key(sources)))
    assert kept is not None
    assert decode(kept) == api.load_sources(sources)
    with arest.Tenant.open(readings, db=tmp_path / "second.db") as second:
        assert second.state == api.load_sources(sources)
        out = second.call("create:Customer", {"id": "c2", "Name": "Bob"})
        assert not out.get("rejected") and "error" not in out


def test_changed_readings_are_compiled_again_and_replace_the_kept_compile(
    tmp_path: Path,
) -> None:
    readings = tmp_path / "shop.md"
    readings.write_text(SHOP)
    arest.Tenant.open(readings, db=":memory:").close()
    before = _kept(readings)[0].read_text()
    readings.write_text(SHOP + "Customer has Phone.\n")
    with arest.Tenant.open(readings, db=tmp_path / "new.db") as tenant:
        fact_types = [f["id"] for f in arest.apply(tenant.state, "schema")[0]["fact_types"]]
        assert "Customer_has_Phone" in fact_types
    assert [path.read_text() != before for path in _kept(readings)] == [True]


def test_a_damaged_or_foreign_kept_compile_is_not_used(tmp_path: Path) -> None:
    readings = tmp_path / "shop.md"
    readings.write_text(SHOP)
    sources = api.read_files(readings)
    path = artifact_path(sources)
    assert path is not None
    path.parent.mkdir()
    key = artifact_key(readings_key(sources))
    other = api.load_sources((("other.md", "Supplier(.id) is an entity type.\n"),))
    for text in (f"{key}\n{{not json", f"another key\n{encode(other)}"):
        path.write_text(text)
        with arest.Tenant.open(readings, db=":memory:") as tenant:
            assert tenant.state == api.load_sources(sources)
        assert kept_compiled(sources, key) is not None  # replaced by the right one


READER = ("lark", "arest.forml2.reader", "arest.forml2.parser", "arest.forml2.constructs",
          "arest.forml2.reading", "arest.compiler.readings", "arest.compiler.schema")
"""The reader, the constructs it reads to and the schema read back from them."""

ONLY_SOMETIMES = ("arest.compiler.join_paths", "arest.compiler.duckdb_eval", "difflib",
                  "tempfile", "importlib.resources", "zipfile")
"""What compiling readings, a refusal, DuckDB or keeping a compile needs, and a start not."""

START = """\
import sys
compiled = []  # compile() other than a module's: a record's __init__, a NamedTuple's annotations
sys.addaudithook(lambda event, args: event == "compile" and not str(args[1]).endswith(".py")
                 and "lambda _cls" not in str(args[0])  # namedtuple's eval: not compile()
                 and compiled.append("compiled:" + str(args[1]).replace(" ", "_")))
before = set(sys.modules)
import arest
with arest.Tenant.open(sys.argv[1], db=sys.argv[2]) as tenant:
    out = tenant.call("create:Customer", {"id": sys.argv[3], "Name": "Ann"})
    assert not out.get("rejected") and "error" not in out, out
loaded = sorted(set(sys.modules) - before) + compiled
import immutables, immutables._map
from collections.abc import Mapping
from arest.algebra.persistent import EMPTY, PersistentMap
assert PersistentMap is immutables.Map is immutables._map.Map and isinstance(EMPTY, Mapping)
print(" ".join(loaded))
"""


def _loaded_by_a_start(readings: Path, db: Path, customer: str) -> set[str]:
    """The modules a fresh process loads to open the tenant and make one create."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", START, str(readings), str(db), customer],
                         capture_output=True, text=True, check=True)
    return set(run.stdout.split())


def test_a_start_from_kept_compiled_readings_loads_neither_the_reader_nor_the_schema(
    tmp_path: Path,
) -> None:
    readings = tmp_path / "shop.md"
    readings.write_text(SHOP)
    first = _loaded_by_a_start(readings, tmp_path / "first.db", "c1")
    assert {"lark", "arest.forml2.reader", "arest.compiler.schema"} <= first
    assert first & {"importlib.resources", "zipfile", "secrets"} == set()
    fresh = _loaded_by_a_start(readings, tmp_path / "second.db", "c1")
    reopen = _loaded_by_a_start(readings, tmp_path / "second.db", "c2")
    assert fresh & {*READER, *ONLY_SOMETIMES, "secrets"} == set()
    assert reopen & {*READER, *ONLY_SOMETIMES, "secrets"} == set()
    assert "arest.runtime.tenant" in reopen


NOT_ON_A_REOPEN = (
    "dataclasses", "inspect", "pickle", "decimal", "hashlib", "_hashlib", "arest.algebra.reducer",
    "arest.algebra.fast",
    "arest.algebra.primitives", "arest.algebra.numerals", "arest.system.dred",
    "arest.system.fact_verbs", "arest.system.snapshots", "arest.system.transitions",
    "arest.runtime.compiled", "arest.runtime.following", "arest.system.entity_verbs",
    "arest.algebra.notation", "immutables", "immutables._protocols")
"""What a reopen and a create of flat input never run: the dataclasses machinery (records
are made without it), the reading's pickle, the evaluator with the numerals, the
derivation's DRed, the other verbs and the interpreted create, the kept compile, the
follower, the notation, and immutables' package (its C map is loaded alone)."""


def test_a_reopen_and_a_quiet_create_load_neither_the_evaluator_nor_dataclasses(
    tmp_path: Path,
) -> None:
    readings = Path(__file__).resolve().parents[2] / "readings" / "orders"
    _loaded_by_a_start(readings, tmp_path / "orders.db", "c1")
    reopen = _loaded_by_a_start(readings, tmp_path / "orders.db", "c2")
    assert "arest.runtime.tenant" in reopen
    assert reopen & {*READER, *ONLY_SOMETIMES, *NOT_ON_A_REOPEN} == set()
    # the first compile() of a process sets up the AST's types, about 1.5 ms
    assert [name for name in reopen if name.startswith("compiled:")] == []
