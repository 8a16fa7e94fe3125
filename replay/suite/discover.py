"""Which scripts a suite runs: discovery (directories recursively, sorted, stable), the platform
filter, and deterministic shards."""

from __future__ import annotations

import fnmatch
import glob
import os
import re
from dataclasses import dataclass

from replay.errors import FileNotFound, InvalidArgs
from replay.script.ast import Script
from replay.script.loader import load
from replay.session.gate import HEALED_SUFFIX, STAGED_SUFFIX

REVIEW_SUFFIXES = (HEALED_SUFFIX, STAGED_SUFFIX)  # heals waiting for review: artifacts, not suite members
MAESTRO_SUFFIXES = (".yaml", ".yml")  # Maestro flows, imported in memory when the suite runs them
RUN_FILES = ("results.json", "heals.diff")  # what `replay test` writes beside the scripts' folders


def load_flow(path: str) -> Script:
    """An `.ad` script, or a Maestro flow imported (every refusal of `replay import`, at once)."""
    if path.endswith(MAESTRO_SUFFIXES):
        from replay.formats.maestro.importer import import_flow
        from replay.script.parser import parse

        return parse(import_flow(path), path)
    return load(path)


@dataclass(frozen=True)
class Entry:
    """One script of the suite: its path as shown, and what its header says."""

    path: str
    platform: str
    retries: int | None  # context retries=, when set
    slug: str = ""  # its artifacts folder's name, unique in the suite ("" : made from the path)

    @property
    def folder_name(self) -> str:
        """The name of this script's artifacts folder."""
        return self.slug or slug(self.path)


def slug(path: str) -> str:
    """An artifacts folder name for a script: its path (relative to here when under it), made safe."""
    relative = os.path.relpath(path)
    shown = relative if not relative.startswith("..") else os.path.normpath(path)
    return re.sub(r"[^A-Za-z0-9._-]+", "_", os.path.splitext(shown)[0]).strip("._") or "script"


def unique_slugs(paths: list[str]) -> list[str]:
    """One folder name per script, never shared: ``a/b.ad`` and ``a_b.ad`` are ``a_b`` and ``a_b-2``
    (in suite order, so a re-run names them alike); the run's own files are never a script's name."""
    taken: set[str] = set(RUN_FILES)
    out = []
    for path in paths:
        base = name = slug(path)
        n = 1
        while name.lower() in taken:  # case-insensitive filesystems too
            n += 1
            name = f"{base}-{n}"
        taken.add(name.lower())
        out.append(name)
    return out


def discover(paths: list[str]) -> list[str]:
    """The ``.ad`` files under ``paths`` (files, directories recursively, globs), sorted, each once.

    A healed script (``*.healed.ad``, or a rejected one ``*.rejected.ad``) is a review artifact, not a
    suite member, unless named explicitly.
    """
    found: list[str] = []
    for given in paths:
        matches = sorted(_glob(given)) if glob.has_magic(given) else [given]
        if not matches:
            raise FileNotFound(f"{given}: no script matches", hint="give .ad files, directories or globs")
        for path in matches:
            if os.path.isdir(path):
                below = [
                    os.path.join(root, f)
                    for root, _, files in os.walk(path)
                    for f in files
                    if f.endswith(".ad") and not f.endswith(REVIEW_SUFFIXES)
                ]
                # Maestro flows: the folder's own (as `maestro test DIR`: a sub-folder holds helpers)
                below += [os.path.join(path, f) for f in os.listdir(path) if f.endswith(MAESTRO_SUFFIXES)]
                found += sorted(below)
            elif os.path.exists(path):
                found.append(path)
            else:
                raise FileNotFound(f"{path}: no such file or directory", hint="give .ad files, directories or globs")
    unique: dict[str, str] = {}
    for p in found:
        unique.setdefault(os.path.realpath(p), os.path.normpath(p))
    return list(unique.values())


def _glob(pattern: str) -> list[str]:
    """``glob.glob(pattern, recursive=True)``, but ``**`` never follows a symlink to a folder (a link
    such as ``up -> ..`` would make it walk forever); a symlinked file still matches."""
    if "**" not in pattern:
        return glob.glob(pattern)
    parts = pattern.split(os.sep)
    fixed = next(i for i, part in enumerate(parts) if glob.has_magic(part))
    base = os.sep.join(parts[:fixed]) or ("/" if pattern.startswith(os.sep) else ".")
    wanted = parts[fixed:]
    found = []
    for root, dirs, files in os.walk(base):  # followlinks=False: a symlinked folder is not entered
        dirs.sort()
        rel = os.path.relpath(root, base)
        below = [] if rel == "." else rel.split(os.sep)
        for name in sorted(files) + dirs:
            if _matches(wanted, [*below, name]):
                found.append(os.path.join(root, name))
    return found


def _matches(pattern: list[str], path: list[str]) -> bool:
    """Whether path components match pattern components (``**``: any number of folders; a hidden
    name only where its pattern component starts with a dot, as glob does)."""
    if not pattern:
        return not path
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(
            _matches(rest, path[i:]) for i in range(len(path) + 1) if not any(p.startswith(".") for p in path[:i])
        )
    if not path or (path[0].startswith(".") and not head.startswith(".")):
        return False
    return fnmatch.fnmatchcase(path[0], head) and _matches(rest, path[1:])


def entries(paths: list[str], platform: str | None = None) -> list[Entry]:
    """The suite's scripts with their header; ``platform`` keeps those whose ``context platform=`` matches."""
    out = []
    found = discover(paths)
    for path, name in zip(found, unique_slugs(found), strict=True):
        script = load_flow(path)
        script_platform = script.platform
        if platform is not None and script_platform != platform:
            continue
        retries = script.context.get("retries")
        out.append(Entry(path, script_platform, int(retries) if retries and retries.isdigit() else None, name))
    return out


def parse_shard(text: str) -> tuple[int, int]:
    """``I/N`` → (I, N), 1 ≤ I ≤ N."""
    try:
        i, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise InvalidArgs(f"--shard {text!r}: expected I/N, like 2/4", hint="I counts from 1") from None
    if not 1 <= i <= n:
        raise InvalidArgs(f"--shard {text!r}: I must be between 1 and N", hint="--shard 1/4 … --shard 4/4")
    return i, n


def shard(items: list[Entry], i: int, n: int) -> list[Entry]:
    """The I-th of N deterministic slices (round robin over the sorted suite): together, every script once."""
    return [e for k, e in enumerate(items) if k % n == i - 1]
