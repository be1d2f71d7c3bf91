"""Where the tests find readings.

The project's own corpus, the example domains ``readings/<domain>/*.md`` at the repository's
top, is always here: what the tests check on readings they check on it (or on inline
readings). The tutor corpus,
``../shared/corpus/tutor-domains/`` beside the project (or the folder ``AREST_TUTOR_CORPUS``
names), is external: the tests about it (its
golden files, its oracle sentences, its constraints) run when it is there, are skipped with one
reason when it is not, and fail instead when ``CI=true`` or ``AREST_REQUIRE_CORPUS=1``, so a CI
run never passes by skipping them. ``tutor_corpus`` is that one policy; the ``tutor_corpus``
fixture of ``tests/conftest.py`` applies it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import arest

OWN_READINGS = Path(__file__).resolve().parents[1] / "readings"
# A fixed list, so that a missing folder fails the coverage test instead of collecting nothing.
OWN_DOMAINS = ("clinic", "genealogy", "library", "tracker")
OWN_FILES = tuple(f"{domain}/{domain}.md" for domain in OWN_DOMAINS)


@cache
def loaded(name: str) -> Any:
    """The compiled D of the example domain ``readings/<name>``, compiled once per test
    process (a D is immutable, so the tests may share it)."""
    return arest.load(OWN_READINGS / name)

TUTOR_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "tutor-domains"
# Fixed too: when the corpus is absent each of these is one skipped (or, in CI, failed) test.
TUTOR_FILES = ("_config.md", "authoring.md", "catalog.md", "content.md", "notifications.md",
               "orders.md", "scheduling.md", "tasks.md")

MISSING = ("the tutor corpus is not beside the project (../shared/corpus/tutor-domains); "
           "CI=true or AREST_REQUIRE_CORPUS=1 makes this a failure")


def corpus_required(environ: Mapping[str, str]) -> bool:
    """Whether a missing tutor corpus fails the tests that need it: in CI (``CI=true``, as
    ``.ci/run`` runs) or when asked (``AREST_REQUIRE_CORPUS=1``).

    >>> corpus_required({"CI": "true"}), corpus_required({"AREST_REQUIRE_CORPUS": "1"})
    (True, True)
    >>> corpus_required({}), corpus_required({"CI": "false"})
    (False, False)
    """
    return environ.get("CI") == "true" or environ.get("AREST_REQUIRE_CORPUS") == "1"


def tutor_corpus(folder: Path | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The tutor corpus folder (``folder``, else ``AREST_TUTOR_CORPUS``, else
    :data:`TUTOR_CORPUS`) when it is there; else skips the calling test with :data:`MISSING`,
    or fails it when :func:`corpus_required`."""
    environ = os.environ if environ is None else environ
    if folder is None:
        folder = Path(environ.get("AREST_TUTOR_CORPUS") or TUTOR_CORPUS)
    if folder.is_dir():
        return folder
    if corpus_required(environ):
        pytest.fail(f"{MISSING} (missing: {folder})", pytrace=False)
    pytest.skip(MISSING)


def corpus_file(corpus: str, name: str) -> Path:
    """A file of the own corpus (``"own"``, ``name`` relative to ``readings``) or of the
    tutor corpus (``"tutor"``, under the policy of :func:`tutor_corpus`)."""
    if corpus == "own":
        return OWN_READINGS / name
    assert corpus == "tutor", corpus
    return tutor_corpus() / name


# (corpus, file) pairs for tests that check every file of both corpora.
EVERY_FILE = [pytest.param("own", name, id=f"own-{Path(name).stem}") for name in OWN_FILES] + [
    pytest.param("tutor", name, id=f"tutor-{Path(name).stem}") for name in TUTOR_FILES]
