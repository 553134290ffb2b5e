#!/usr/bin/env python3
"""Writes the licences of every third-party crate compiled into the release binaries.

The MIT and Apache licences of our dependencies (clap, crossbeam, parking_lot, tracing, …) ask that
their notices travel with binary copies. This walks `cargo metadata`'s resolved graph from our
binary packages along normal dependencies for one target (build- and dev-dependencies do not end up
in a binary), and prints, per crate: name, version, licence expression, and the text of each licence
file the crate ships (LICENSE*, LICENCE*, COPYING*, NOTICE*).

Usage: scripts/release/third-party-licenses.py TARGET PACKAGE… > THIRD-PARTY-LICENSES.txt
"""

import json
import subprocess
import sys
from pathlib import Path

LICENSE_PREFIXES = ("LICENSE", "LICENCE", "COPYING", "NOTICE", "UNLICENSE")


def metadata(target: str) -> dict:
    output = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked", "--filter-platform", target],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(output)


def compiled_in(meta: dict, roots: list[str]) -> list[dict]:
    """The packages reachable from `roots` (package names) through normal dependencies."""
    packages = {package["id"]: package for package in meta["packages"]}
    nodes = {node["id"]: node for node in meta["resolve"]["nodes"]}
    wanted = [pid for pid, package in packages.items() if package["name"] in roots]
    missing = set(roots) - {packages[pid]["name"] for pid in wanted}
    if missing:
        sys.exit(f"third-party-licenses.py: no package named {', '.join(sorted(missing))}")
    seen = set(wanted)
    while wanted:
        for dependency in nodes[wanted.pop()]["deps"]:
            normal = any(kind["kind"] is None for kind in dependency["dep_kinds"])
            if normal and dependency["pkg"] not in seen:
                seen.add(dependency["pkg"])
                wanted.append(dependency["pkg"])
    workspace = set(meta["workspace_members"])
    return sorted((packages[pid] for pid in seen - workspace), key=lambda p: (p["name"], p["version"]))


def licence_texts(package: dict) -> list[tuple[str, str]]:
    folder = Path(package["manifest_path"]).parent
    files = sorted(
        path for path in folder.iterdir() if path.is_file() and path.name.upper().startswith(LICENSE_PREFIXES)
    )
    return [(path.name, path.read_text(encoding="utf-8", errors="replace")) for path in files]


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit("usage: third-party-licenses.py TARGET PACKAGE…")
    target, roots = sys.argv[1], sys.argv[2:]
    crates = compiled_in(metadata(target), roots)
    rule = "=" * 78
    print("Third-party crates compiled into these Tessera binaries, with their licences.")
    print(f"Target {target}; {len(crates)} crates.\n")
    for package in crates:
        print(f"  {package['name']} {package['version']}: {package.get('license') or 'see below'}")
    for package in crates:
        print(f"\n{rule}\n{package['name']} {package['version']} ({package.get('license') or 'no SPDX expression'})")
        if package.get("repository"):
            print(package["repository"])
        texts = licence_texts(package)
        if not texts:
            print("(the crate ships no licence file; its licence is the expression above)")
        for name, text in texts:
            print(f"\n--- {name}\n\n{text.rstrip()}")


if __name__ == "__main__":
    main()
