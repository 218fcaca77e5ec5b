"""Find and download one release file with pip's own finder, never building anything.

errdex runs this file's text with the interpreter that runs `python -m pip`, so that every pip
setting applies (configuration files, PIP_* variables, indexes, find-links, certificates,
proxies). It imports nothing of errdex. Arguments: a requirement, a destination folder and a
JSON list of attempts, each a list of pip download options that select files (target Python,
platforms, binary or source). The newest version any attempt finds wins; for equal versions the
earlier attempt wins, and an exact `==X` pin stops at the first attempt that finds X. The last
line printed is one JSON object: {"file", "name", "version"} or {"error": "not_found" |
"internals" | "download", "detail", "versions", "unreachable"}; `unreachable` says that some index
page could not be read (offline, a server error), so that "not found" may not be the index's answer.
"""

import json
import os
import sys
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from pip._internal.commands.download import DownloadCommand


def _report(**fields):
    print(json.dumps(fields))


def _pins_exactly(specifier):
    specs = list(specifier)
    return len(specs) == 1 and specs[0].operator in ("==", "===") and "*" not in specs[0].version


def _best(requirement, attempts, make_finder):
    """The best candidate over all attempts, and every version any attempt saw."""
    chosen = None
    versions: set[str] = set()  # (a local's annotation is never evaluated: any Python that runs pip runs this)
    for args in attempts:
        result = make_finder(args).find_best_candidate(requirement.name, requirement.specifier)
        versions.update(str(c.version) for c in result.iter_all())
        best = result.best_candidate
        if best is not None and (chosen is None or best.version > chosen.version):
            chosen = best
        if chosen is not None and _pins_exactly(requirement.specifier):
            break
    return chosen, versions


def _watch_failures(session):
    """Note each request of the session that fails for a reason other than "no such page"; pip's
    finder logs such failures and goes on as if the page listed nothing."""
    failures = []
    request = session.request

    def watched(method, url, *args, **kwargs):
        try:
            response = request(method, url, *args, **kwargs)
        except Exception:
            failures.append(url)
            raise
        if response.status_code >= 400 and response.status_code not in (404, 410):
            failures.append(url)
        return response

    session.request = watched
    return failures


def _download(session, link, dest):
    """Save the link's file into dest, checking the hash the index gave for it."""
    filename = os.path.basename(link.filename)
    if not filename or filename.startswith("."):
        raise ValueError(f"unusable file name {link.filename!r}")
    target = os.path.join(dest, filename)
    response = session.get(link.url_without_fragment, stream=True, headers={"Accept-Encoding": "identity"})
    response.raise_for_status()
    with open(target, "wb") as out:
        for chunk in response.iter_content(chunk_size=1 << 16):
            out.write(chunk)
    hashes = link.as_hashes()
    if hashes:
        hashes.check_against_path(target)
    return target


def main(argv):
    requirement_text, dest, attempts = argv[1], argv[2], json.loads(argv[3])
    try:
        from pip._internal.cli.cmdoptions import make_target_python
        from pip._internal.commands import create_command
        from pip._vendor.packaging.requirements import Requirement

        requirement = Requirement(requirement_text)
        command = cast("DownloadCommand", create_command("download"))  # pip makes commands by name
        with command.main_context():
            base, _ = command.parse_args([requirement_text])
            session = command.get_default_session(base)
            failures = _watch_failures(session)

            def make_finder(args):
                options, _ = create_command("download").parse_args([*args, requirement_text])
                return command._build_package_finder(
                    options=options,
                    session=session,
                    target_python=make_target_python(options),
                    ignore_requires_python=True,
                )

            best, versions = _best(requirement, attempts, make_finder)
            if best is None:
                return _report(error="not_found", versions=sorted(versions), unreachable=bool(failures))
            try:
                path = _download(session, best.link, dest)
            except Exception as exc:  # network, HTTP status, hash mismatch: all mean "no file"
                return _report(error="download", detail=f"{type(exc).__name__}: {exc}")
            return _report(file=path, name=best.name, version=str(best.version))
    except (ImportError, AttributeError, TypeError) as exc:
        return _report(error="internals", detail=f"{type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main(sys.argv)
