"""Error trackers: errdex.fingerprint(exc), and sentry_sdk with errdex's before_send and a recording transport."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from errdex.hooks import fingerprint
from tests.hooks.conftest import environment, run_command

SENTRY_PROGRAM = """
import json
import pydantic
import sentry_sdk
from sentry_sdk.transport import Transport
from packaging.specifiers import SpecifierSet
from packaging.version import Version

import errdex.hooks

EVENTS = []


class Recording(Transport):
    def capture_envelope(self, envelope):
        event = envelope.get_event()
        if event is not None:
            EVENTS.append(event)


sentry_sdk.init(dsn="https://public@errdex.invalid/1", transport=Recording, before_send=errdex.hooks.before_send,
                default_integrations=False)


class Model(pydantic.BaseModel):
    x: int


for make in (lambda: Version("1.0.x"), lambda: Version("2.y"), lambda: SpecifierSet("=>1.0"), lambda: Model(x="a")):
    try:
        make()
    except Exception as exc:
        sentry_sdk.capture_exception(exc)
sentry_sdk.flush()
print(json.dumps([{k: e.get(k) for k in ("fingerprint", "tags", "contexts", "exception")} for e in EVENTS],
                 default=str))
"""


def test_sentry_events_are_grouped_by_raise_site_and_carry_the_explanation(tmp_path: Path, errdex_db: Path) -> None:
    pytest.importorskip("sentry_sdk")
    (tmp_path / "tracked.py").write_text(SENTRY_PROGRAM)
    done = run_command([sys.executable, "tracked.py"], tmp_path, environment(errdex_db))
    assert done.returncode == 0, done.stderr
    first, second, specifier, compiled = json.loads(done.stdout.strip().splitlines()[-1])
    assert first["fingerprint"] == second["fingerprint"] != specifier["fingerprint"]
    assert first["fingerprint"][0] == specifier["fingerprint"][0] == "errdex" and len(first["fingerprint"][1]) == 16
    assert first["tags"]["errdex.id"] == first["fingerprint"][1]
    context = first["contexts"]["errdex"]
    assert context["package"] == "packaging" and context["site"].startswith("packaging/version.py:")
    assert context["values"] == ["'1.0.x'"] and second["contexts"]["errdex"]["values"] == ["'2.y'"]
    assert context["exception"] == "packaging.version.InvalidVersion"
    assert compiled["fingerprint"] is None and "errdex" not in (compiled["contexts"] or {})  # sentry's own grouping


def test_fingerprint_is_the_same_for_any_value_in_the_message(errdex_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    monkeypatch.setenv("ERRDEX_DB", str(errdex_db))
    caught = []
    for make in (lambda: Version("1.0.x"), lambda: Version("9.9.9-wrong"), lambda: SpecifierSet("=>1.0")):
        with pytest.raises((InvalidVersion, InvalidSpecifier)) as info:
            make()
        caught.append(info.value)
    ids = [fingerprint(exc) for exc in caught]
    assert ids[0] == ids[1] != ids[2]
    assert all(isinstance(i, str) and len(i) == 16 for i in ids)


def test_fingerprint_is_none_for_an_error_errdex_cannot_place(errdex_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_DB", str(errdex_db))
    with pytest.raises(ZeroDivisionError) as info:
        1 / 0  # noqa: B018
    assert fingerprint(info.value) is None
