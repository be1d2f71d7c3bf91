"""The ``arest`` command: the README's main job, its options, and its errors."""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

from click.testing import CliRunner

from arest.cli import main
from arest.runtime import Tenant
from tests.postgres import Database

ROOT = Path(__file__).resolve().parents[1]

INNER_PRODUCT = "<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_the_readme_example_prints_28() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "arest", "eval", INNER_PRODUCT, "<<1,2,3>,<6,5,4>>"],
        capture_output=True, text=True, check=True,
    )
    assert completed.stdout == "28\n"


def test_the_command_line_loads_the_reader_and_the_relational_mapping_only_when_used() -> None:
    """``arest mcp`` and ``arest serve`` start from kept compiled readings: importing the
    command line loads neither the reader, its constructs, the schema read back from them,
    nor the relational mapping that ``arest sql`` and ``arest export`` use."""
    probe = ("import sys, arest.cli, arest.resources; print(sorted(m for m in sys.modules if m"
             " in ('lark', 'arest.forml2.constructs', 'arest.forml2.reading',"
             " 'arest.forml2.reader', 'arest.compiler.schema', 'arest.compiler.rmap.mapping',"
             " 'arest.compiler.rmap.sql')))")
    completed = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                               check=True)
    assert completed.stdout == "[]\n"
    assert run("sql", str(ROOT / "readings" / "orders"))[1].startswith("-- ")


def test_a_server_leaves_what_it_opened_out_of_full_collections(tmp_path: Path) -> None:
    """A server freezes the compiled readings and the state it opened, so that no command
    pays for a full collection walking them; a one-shot command leaves the collector as it
    was."""
    import gc

    from arest.cli import _open

    orders = (str(ROOT / "readings" / "orders"),)
    before = gc.get_freeze_count()
    try:
        with _open(orders, str(tmp_path / "once.db")):
            assert gc.get_freeze_count() == before
        with _open(orders, str(tmp_path / "served.db"), serving=True) as tenant:
            assert gc.get_freeze_count() > before
            created = tenant.call("create:Customer", {"id": "acme", "Name": "Acme"})
            assert created["rejected"] is False and created["entity"]["id"] == "acme"
    finally:
        gc.unfreeze()


def test_reference_and_compiled_agree() -> None:
    assert run("eval", INNER_PRODUCT, "<<1,2,3>,<6,5,4>>", "--reference") == (0, "28\n")


def test_definitions_make_controllers() -> None:
    code, output = run("eval", "<SWAP>", "<a, b>", "--def", "SWAP=<COMP, <CONS, 2, 1>, 2>")
    assert (code, output) == (0, "<b, a>\n")


def test_fuel_bounds_the_work() -> None:
    assert run("eval", "<WHILE, <CONST, T>, id>", "a", "--fuel", "100") == (0, "⊥\n")
    assert run("eval", "<WHILE, <CONST, T>, id>", "a", "--fuel", "100", "--reference") == (
        0,
        "⊥\n",
    )


def test_bad_notation_is_a_usage_error_naming_the_place() -> None:
    code, output = run("eval", "<COMP, tl", "<a>")
    assert code == 2
    assert "FUNCTION" in output and "1:10" in output and "'>' to close a sequence" in output


def test_a_malformed_definition_is_a_usage_error() -> None:
    code, output = run("eval", "X", "a", "--def", "no-equals-sign")
    assert code == 2
    assert "NAME=OBJECT" in output


GOOD = "Customer(.Name) is an entity type.\nCustomer is active.\n"
BAD = "Shop(.Name) is an entity type.\nEach Shop has at most foo.\n"
ORDERS = str(ROOT / "readings" / "orders")
SVG = "{http://www.w3.org/2000/svg}"


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_check_passes_good_readings(tmp_path: Path) -> None:
    (tmp_path / "good.md").write_text(GOOD, encoding="utf-8")
    code, out, err = invoke("check", str(tmp_path))
    assert (code, out) == (0, "")
    assert err == "1 readings file: 0 errors, 0 warnings\n"


def test_check_names_the_place_and_what_is_accepted(tmp_path: Path) -> None:
    bad = tmp_path / "bad.md"
    bad.write_text(BAD, encoding="utf-8")
    code, out, err = invoke("check", str(bad))
    assert code == 1
    assert out.startswith(f"{bad}:2:26: this sentence is not FORML 2")
    assert "    Each Shop has at most foo." in out and "accepted, e.g.:" in out
    assert err == "1 readings file: 1 error, 0 warnings\n"


def test_check_reports_a_population_that_violates_a_constraint(tmp_path: Path) -> None:
    (tmp_path / "ages.md").write_text(
        "Customer(.Name) is an entity type.\nAge is a value type.\nCustomer has Age.\n"
        "  Each Customer has at most one Age.\n"
        "Customer 'acme' has Age '3'.\nCustomer 'acme' has Age '4'.\n", encoding="utf-8")
    code, out, err = invoke("check", str(tmp_path))
    assert code == 1 and "ages.md:4:3: the population violates this UC constraint" in out
    assert "    Each Customer has at most one Age." in out and "1 error" in err


def test_check_prints_warnings_without_failing(tmp_path: Path) -> None:
    (tmp_path / "loose.md").write_text("Customer(.Name) is an entity type.\n"
                                       "Customer has Nickname.\n", encoding="utf-8")
    code, out, err = invoke("check", str(tmp_path / "loose.md"))
    assert code == 0 and "Nickname" in out and "1 warning" in err
    code, out, err = invoke("check", "--strict", str(tmp_path / "loose.md"))
    assert code == 1 and "Nickname" in out and "0 warnings" in err


def test_check_svg_writes_the_schema_and_each_machine_of_the_readings(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "pictures"
    code, out, err = invoke("check", ORDERS, "--svg", str(folder))
    assert (code, out) == (0, "")
    assert err.splitlines()[-1] == f"2 pictures in {folder}: schema.svg, machine-order.svg"
    assert sorted(path.name for path in folder.iterdir()) == ["machine-order.svg", "schema.svg"]
    machine = ElementTree.fromstring((folder / "machine-order.svg").read_text("utf-8"))
    titles = {g.findtext(f"{SVG}title") for g in machine.iter(f"{SVG}g")}
    assert {"Placed", "Paid", "Shipped", "Delivered", "Cancelled"} <= titles
    schema = (folder / "schema.svg").read_text("utf-8")
    ElementTree.fromstring(schema)
    assert all(f">{table}<" in schema for table in ("order", "line_item", "customer"))
    invoke("check", ORDERS, "--svg", str(folder))
    assert (folder / "schema.svg").read_text("utf-8") == schema  # the same bytes again


def test_check_svg_writes_nothing_for_readings_with_errors(tmp_path: Path) -> None:
    (tmp_path / "bad.md").write_text(BAD, encoding="utf-8")
    code, _, err = invoke("check", str(tmp_path / "bad.md"), "--svg", str(tmp_path / "out"))
    assert code == 1 and not (tmp_path / "out").exists() and "picture" not in err


def test_check_svg_into_a_file_is_exit_1_naming_it(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "schema.svg").mkdir()  # a folder where the picture would go
    code, _, err = invoke("check", ORDERS, "--svg", str(tmp_path / "taken"))
    assert code == 1 and f"arest: cannot write the pictures into {tmp_path / 'taken'}" in err


def test_check_a_missing_path_is_a_usage_error() -> None:
    code, _, err = invoke("check", "no/such/readings")
    assert code == 2 and "does not exist" in err


def test_check_runs_as_a_process(tmp_path: Path) -> None:
    (tmp_path / "bad.md").write_text(BAD, encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "arest", "check", ORDERS, str(tmp_path / "bad.md")],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert completed.returncode == 1
    assert ":2:26:" in completed.stdout and "2 readings files: 1 error" in completed.stderr


def test_apply_keeps_state_across_invocations(tmp_path: Path) -> None:
    db = str(tmp_path / "shop.db")
    ann = '{"id": "ann@example.com", "Name": "Ann Ø"}'
    code, out, _ = invoke("apply", "create:Customer", ann, "--readings", ORDERS, "--db", db)
    assert code == 0 and json.loads(out)["entity"]["Name"] == "Ann Ø" and "Ann Ø" in out
    code, out, _ = invoke("apply", "read:Customer", "-", "--readings", ORDERS, "--db", db,
                          stdin='"ann@example.com"')
    assert code == 0 and json.loads(out)["Name"] == "Ann Ø"


def test_apply_runs_as_a_process_and_keeps_state(tmp_path: Path) -> None:
    db = str(tmp_path / "shop.db")
    readings = ["--readings", str(ROOT / "readings" / "orders"), "--db", db]
    created = subprocess.run(
        [sys.executable, "-m", "arest", "apply", "create:Customer",
         '{"id": "bo@example.com", "Name": "Bo"}', *readings],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert created.returncode == 0, created.stderr
    read = subprocess.run(
        [sys.executable, "-m", "arest", "apply", "read:Customer", '"bo@example.com"', *readings],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert read.returncode == 0 and json.loads(read.stdout)["Name"] == "Bo"


def test_a_rejected_command_exits_1(tmp_path: Path) -> None:
    code, out, _ = invoke("apply", "create:Order", '{"id": "o-2"}', "--readings", ORDERS,
                          "--db", ":memory:")
    assert code == 1 and json.loads(out)["rejected"] is True


def test_an_error_envelope_exits_1() -> None:
    code, out, _ = invoke("apply", "nonsense:Order", "--db", ":memory:")
    assert code == 1 and json.loads(out)["error"]["code"] == "unknown_key"


def test_memory_keeps_nothing() -> None:
    ann = '{"id": "ann@example.com", "Name": "Ann"}'
    memory = ["--readings", ORDERS, "--db", ":memory:"]
    assert invoke("apply", "create:Customer", ann, *memory)[0] == 0
    code, out, _ = invoke("apply", "read:Customer", '"ann@example.com"', *memory)
    assert code == 1 and "error" in json.loads(out)


def test_bad_json_is_a_usage_error_naming_the_position() -> None:
    code, _, err = invoke("apply", "create:Order", '{"id":', "--db", ":memory:")
    assert code == 2 and "INPUT" in err and "line 1, column 7" in err


def test_bad_readings_stop_apply_with_their_diagnostics(tmp_path: Path) -> None:
    (tmp_path / "bad.md").write_text(BAD, encoding="utf-8")
    code, out, err = invoke("apply", "schema", "--readings", str(tmp_path), "--db", ":memory:")
    assert (code, out) == (1, "") and ":2:26:" in err


def test_a_database_open_elsewhere_exits_2(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    with Tenant.open(db=db):
        code, out, err = invoke("apply", "schema", "--db", str(db))
    assert (code, out) == (2, "") and "close it there first" in err


def test_check_reports_warnings_beside_errors(tmp_path: Path) -> None:
    readings = tmp_path / "mixed.md"
    readings.write_text("Order has Colour.\nEach Order has at most one.\n")
    result = CliRunner().invoke(main, ["check", str(readings)])
    assert result.exit_code == 1
    assert "1 error" in result.stderr and "0 warnings" not in result.stderr


def test_every_exit_code_is_documented_in_the_help() -> None:
    code, output = run("--help")
    assert code == 0
    for line in ("0  done", "1  the command failed", "2  a usage error"):
        assert line in output


def test_a_database_in_a_missing_folder_is_one_line_and_exit_1(tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere" / "shop.db")
    for args in (["apply", "list:Customer", "--readings", ORDERS, "--db", missing],
                 ["mcp", ORDERS, "--db", missing], ["serve", ORDERS, "--db", missing]):
        done = subprocess.run([sys.executable, "-m", "arest", *args], input="",
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and "no folder" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_a_port_in_use_is_refused_before_serving(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        done = subprocess.run(
            [sys.executable, "-m", "arest", "serve", ORDERS, "--db", ":memory:", "--port", port],
            capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == f"arest: port {port} on 127.0.0.1 is in use by another process:" \
                          " stop it or choose --port\n"


def test_a_server_refused_by_its_options_loads_no_web_stack(tmp_path: Path) -> None:
    """A port in use, a missing folder, an unusable key: each refused before the web stack
    and the MCP SDK load, so at once (a fifth of a second, not a second and a half)."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        for args, code in ((["--port", port], 2), (["--api-key", ""], 2),
                           (["--db", str(tmp_path / "nowhere" / "shop.db")], 1)):
            done = subprocess.run(
                [sys.executable, "-X", "importtime", "-m", "arest", "serve", ORDERS, *args],
                capture_output=True, text=True, timeout=60)
            imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                        if line.startswith("import time:")}
            assert done.returncode == code, (args, done.stderr[-300:])
            assert "arest.cli" in imported
            assert not imported & {"uvicorn", "starlette", "mcp"}, args


def test_the_printed_configuration_starts_the_server_as_written(tmp_path: Path) -> None:
    import shutil

    readings = tmp_path / "orders"
    shutil.copytree(ROOT / "readings" / "orders", readings)
    printed = subprocess.run(
        [sys.executable, "-m", "arest", "mcp", str(readings), "--print-config"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert printed.returncode == 0, printed.stderr
    server = json.loads(printed.stdout)["mcpServers"]["arest"]
    assert Path(server["command"]).is_absolute()
    assert server["args"][-1] == str(readings)
    started = subprocess.run([server["command"], *server["args"]], input="",
                             capture_output=True, text=True, timeout=60, cwd="/")
    assert started.returncode == 0, started.stderr
    assert f"readings {readings}" in started.stderr
    assert (readings / "arest.db").exists()


def test_the_snapshot_cap_is_an_option(tmp_path: Path) -> None:
    db = str(tmp_path / "shop.db")
    status, output = run("apply", "snapshot", "--readings", str(ORDERS), "--db", db,
                         "--max-snapshots", "0")
    assert status == 1 and json.loads(output)["error"]["code"] == "limit_exceeded"
    status, output = run("apply", "snapshot", "--readings", str(ORDERS), "--db", db)
    assert status == 0 and json.loads(output) == {"id": "snap-0"}


def test_serve_listens_on_a_socket_that_says_it_is_tcp() -> None:
    """asyncio turns Nagle's algorithm off only on sockets whose protocol is TCP; on any
    other, each response written in two parts waits 40 ms for the client's delayed ACK."""
    import socket

    from arest.cli import _listen

    listening = _listen("127.0.0.1", 0)
    try:
        assert listening.proto == socket.IPPROTO_TCP
    finally:
        listening.close()


def test_sql_prints_the_ddl_sqlite_runs() -> None:
    code, out, _ = invoke("sql", ORDERS)
    assert code == 0 and out == (ROOT / "tests/compiler/golden/orders.sqlite.sql").read_text()
    connection = sqlite3.connect(":memory:")
    connection.executescript(out)
    assert ("order",) in connection.execute("SELECT name FROM sqlite_master").fetchall()
    code, out, _ = invoke("sql", ORDERS, "--dialect", "postgresql")
    assert code == 0 and 'ALTER TABLE "order" ADD FOREIGN KEY' in out


def test_sql_of_a_tenant_database_has_its_evolved_schema(tmp_path: Path) -> None:
    db = str(tmp_path / "shop.db")
    note = '{"readings": "Order has Note.\\n  Each Order has at most one Note.\\n"}'
    assert invoke("apply", "compile", note, "--readings", ORDERS, "--db", db)[0] == 0
    assert "note TEXT," not in invoke("sql", ORDERS)[1]
    code, out, _ = invoke("sql", ORDERS, "--db", db)
    assert code == 0 and "    note TEXT,\n" in out


def test_sql_errors(tmp_path: Path) -> None:
    (tmp_path / "bad.md").write_text(BAD, encoding="utf-8")
    code, _, err = invoke("sql", str(tmp_path / "bad.md"))
    assert code == 1 and err.startswith("arest: ") and ":2:26:" in err
    code, _, err = invoke("sql", ORDERS, "--db", str(tmp_path / "none.db"))
    assert code == 1 and "no database at" in err and not (tmp_path / "none.db").exists()
    code, _, err = invoke("sql", ORDERS, "--dialect", "mysql")
    assert code == 2 and "'sqlite', 'postgresql'" in err


def test_apply_and_mcp_take_a_postgresql_url(pg_database: Database) -> None:
    db = f"{pg_database.url}&tenant=shop"
    status, output = run("apply", "create:Customer", '{"id": "ann@x", "Name": "Ann"}',
                         "--readings", str(ORDERS), "--db", db)
    assert status == 0, output
    status, output = run("apply", "read:Customer", '"ann@x"', "--readings", str(ORDERS),
                         "--db", db)
    assert status == 0 and json.loads(output)["Name"] == "Ann"
    status, output = run("mcp", str(ORDERS), "--db", db, "--print-config")
    assert status == 0 and json.loads(output)["mcpServers"]["arest"]["args"][-1] == db


def test_an_unreachable_postgresql_is_an_error_without_its_password(
        pg_database: Database) -> None:
    db = f"{pg_database.url}&tenant=shop".replace("arest@", "arest:hunter2@").replace(
        "port=5432", "port=1")
    result = CliRunner().invoke(main, ["apply", "schema", "--readings", str(ORDERS), "--db", db])
    assert result.exit_code == 1
    assert "cannot connect" in result.output and "hunter2" not in result.output


def test_export_reads_a_tenant_in_postgresql_and_backup_points_to_pg_dump(
        pg_database: Database, tmp_path: Path) -> None:
    db = f"{pg_database.url}&tenant=shop"
    with Tenant.open(ORDERS, db=db) as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        status, output = run("export", ORDERS, "--db", db, "--data-only")  # while it serves
    assert status == 0 and "'ann@x'" in output, output
    status, output = run("backup", db, str(tmp_path / "copy.db"))
    assert status == 1 and "pg_dump --schema=TENANT" in output


def test_serve_refuses_an_unusable_tenant_or_a_file_to_keep_tenants_in(tmp_path: Path) -> None:
    kept = tmp_path / "shop.db"
    kept.write_bytes(b"")
    for options, told in ((["--tenant", "Shop"], "a tenant's name is a lower-case letter"),
                          (["--tenant", "east", "--tenant", "east"], "is given twice"),
                          (["--tenant", "east", "--db", str(kept)], "the folder that keeps")):
        code, output = run("serve", ORDERS, *options)
        assert code == 2, (options, output)
        assert told in output, output
