"""The browser policy (tests/browser.py): chromium and chromedriver are found where they are
installed; when they are not, a browser test is skipped with one reason, and fails instead in
CI (`CI=true`) or when asked (`AREST_REQUIRE_BROWSER=1`). These tests start no browser."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import Browser, find_browser, installed_browser, missing_reason


def program(folder: Path, name: str) -> Path:
    """An executable file ``name`` in ``folder``."""
    folder.mkdir(exist_ok=True)
    (folder / name).write_text("#!/bin/sh\n")
    (folder / name).chmod(0o755)
    return folder / name


def test_the_programs_on_the_path_are_found(tmp_path: Path) -> None:
    chromium, driver = program(tmp_path, "chromium"), program(tmp_path, "chromedriver")
    assert find_browser({"PATH": str(tmp_path)}) == Browser(chromium, driver)


def test_the_programs_the_environment_names_are_used(tmp_path: Path) -> None:
    chromium, driver = program(tmp_path, "my-chromium"), program(tmp_path, "my-driver")
    found = find_browser({"PATH": "", "AREST_CHROMIUM": str(chromium),
                          "AREST_CHROMEDRIVER": str(driver)})
    assert found == Browser(chromium, driver)


def test_a_missing_driver_is_the_one_reason(tmp_path: Path) -> None:
    program(tmp_path, "chromium")
    assert find_browser({"PATH": str(tmp_path)}) == missing_reason(["chromedriver"])


def test_a_missing_browser_skips_with_the_one_reason(tmp_path: Path) -> None:
    with pytest.raises(pytest.skip.Exception) as skipped:
        installed_browser({"PATH": str(tmp_path), "CI": "false"})
    assert skipped.value.msg == missing_reason(["chromium", "chromedriver"])


@pytest.mark.parametrize("environ", [{"CI": "true"}, {"AREST_REQUIRE_BROWSER": "1"}])
def test_a_missing_browser_fails_when_required(tmp_path: Path, environ: dict[str, str]
                                               ) -> None:
    with pytest.raises(pytest.fail.Exception) as failed:
        installed_browser({**environ, "PATH": str(tmp_path)})
    assert missing_reason(["chromium", "chromedriver"]) in failed.value.msg
