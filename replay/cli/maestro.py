"""`replay import` and `replay export --format maestro`: Maestro flows in and out (design §14)."""

from __future__ import annotations

import os

import click

from replay.cli.app import emit, handles_errors, json_option, main


@main.command("import")
@click.argument("flow")
@click.option("-o", "out", default=None, metavar="OUT.ad", help="Where the script goes (default: FLOW with .ad).")
@json_option
@handles_errors
def import_cmd(flow: str, out: str | None, as_json: bool) -> None:
    """Translate the Maestro flow FLOW (YAML) into an .ad script; refuse what has no .ad form, all at once."""
    from replay.formats.maestro.importer import import_flow
    from replay.session.publish import publish_exclusive

    text = import_flow(flow)  # every problem raised together, before anything is written
    target = out or os.path.splitext(flow)[0] + ".ad"
    publish_exclusive(target, text, hint="choose another path with -o, or remove the old script")
    emit(as_json, {"path": target, "lines": text.count("\n")}, f"imported {flow} → {target}")


@main.command("export")
@click.argument("file")
@click.option("--format", "fmt", type=click.Choice(["maestro"]), required=True, help="The flow format to write.")
@click.option("-o", "out", default=None, metavar="OUT.yaml", help="Where the flow goes (default: FILE with .yaml).")
@json_option
@handles_errors
def export_cmd(file: str, fmt: str, out: str | None, as_json: bool) -> None:
    """Write FILE as a Maestro flow where the shapes overlap; refuse the steps Maestro cannot say, all at once."""
    from replay.formats.maestro.export import export_flow
    from replay.script.loader import load
    from replay.session.publish import publish_exclusive

    text = export_flow(load(file))
    target = out or os.path.splitext(file)[0] + ".yaml"
    publish_exclusive(target, text, hint="choose another path with -o, or remove the old flow")
    emit(as_json, {"path": target}, f"exported {file} → {target}")
