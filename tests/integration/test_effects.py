"""Every step proves its effect (SPEC §15), on real Chromium through the CLI.

The pantry (fixtures/web/pantry/) is recorded once per flow by snapshot refs, as an agent records;
its query switches break one behaviour at a time (a button that does nothing, a Discard that asks
instead, a dead link), or change one without breaking it (a dialog now a status line, a retitled
page), and a clock and a timer's rows change the page by themselves.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import Cli

pytestmark = pytest.mark.xdist_group("effects")
SESSION = "fx"


def ref(snapshot: str, pattern: str, nth: int = 0) -> str:
    """The ref of the ``nth`` snapshot line matching ``pattern``."""
    return [line.split()[0] for line in snapshot.splitlines() if re.search(pattern, line)][nth]


class Recorder:
    """Records one pantry flow through the CLI (one session), looking before every step."""

    def __init__(self, cli: Cli, url: str, out: Path) -> None:
        self.cli, self.out = cli, out
        cli("open", url, f"--save-script={out}", "--session", SESSION)

    def __call__(self, command: str, pattern: str, *args: str, nth: int = 0) -> str:
        seen = self.cli("snapshot", "-i", "--session", SESSION).stdout
        return self.cli(command, ref(seen, pattern, nth), *args, "--session", SESSION).stdout

    def stock(self, item: str) -> None:
        self("fill", r"textbox \"Item name\"", item)
        self("click", r"button \"Stock it\"")

    def close(self, *trailer: str) -> str:
        if trailer:
            self.cli(*trailer, "--session", SESSION)
        self.cli("close", "--session", SESSION)
        return self.out.read_text()


@pytest.fixture(scope="module")
def flows(shared_home: str, web: str) -> Iterator[dict[str, Path]]:
    """Three flows, recorded once: the pantry's chores, a save on the dialog version, a save with a toast."""
    with tempfile.TemporaryDirectory() as tmp:
        cli = Cli(shared_home, tmp)
        out = {name: Path(tmp) / f"{name}.ad" for name in ("chores", "save", "toast", "feed", "ref")}
        rec = Recorder(cli, f"{web}/pantry/index.html", out["chores"])
        rec.stock("eggs")
        rec.stock("milk")
        rec("check", r"checkbox \"Used up\"")  # eggs'
        rec("click", r"button \"Discard\"", nth=1)  # milk's
        rec("click", r"link \"Account\"")
        rec.close("wait", "text", "Signed in as the pantry keeper")
        rec = Recorder(cli, f"{web}/pantry/index.html", out["save"])
        rec.stock("eggs")
        rec("click", r"button \"Save shelf\"")
        rec.close("wait", "text", "Shelf saved")
        rec = Recorder(cli, f"{web}/pantry/index.html?toast=1", out["toast"])
        rec("click", r"button \"Save shelf\"")
        rec.close()
        rec = Recorder(cli, f"{web}/pantry/index.html?feed=1", out["feed"])
        rec.stock("eggs")
        rec.stock("milk")
        rec("click", r"button \"Discard\"")
        rec.close()
        rec = Recorder(cli, f"{web}/pantry/index.html?ref=1", out["ref"])
        rec("click", r"button \"Save shelf\"")
        rec.close()
        yield out


def variant(flow: Path, query: str) -> Path:
    """The flow replayed on the pantry with ``query`` switched on."""
    text = flow.read_text()
    changed = re.sub(r"(open \S+/pantry/index\.html)\S*", lambda m: f"{m.group(1)}?{query}", text, count=1)
    out = flow.with_name(f"{flow.stem}-{query.replace('=', '-')}.ad")
    out.write_text(changed)
    return out


def replay(cli: Cli, flow: Path, *extra: str) -> tuple[int, dict[str, object]]:
    proc = cli("run", str(flow), "--json", *extra, ok=None)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])


ANNOTATION = "# replay:target-v1 "


def effect_of(line: str) -> list[dict[str, object]]:
    return list(json.loads(line[len(ANNOTATION) :]).get("effect", []))


def divergence(answer: dict[str, object]) -> dict[str, object]:
    error = answer["error"]
    assert isinstance(error, dict)
    return dict(error["divergence"])


def test_every_recorded_action_carries_the_effect_it_had(flows: dict[str, Path]) -> None:
    effects = [effect_of(line) for line in flows["chores"].read_text().splitlines() if line.startswith(ANNOTATION)]
    assert {"appeared": "listitem", "text": "eggs"} in effects[1]  # Stock it
    assert effects[2] == [{"target": "value", "value": "<redacted>"}]  # the second fill
    assert {"target": "checked"} in effects[4]
    assert {"disappeared": "listitem", "text": "milk"} in effects[5]
    assert effects[6] == [{"navigated": "account.html", "title": "Account"}]


def test_a_clean_replay_checks_every_effect_and_passes(cli: Cli, flows: dict[str, Path]) -> None:
    for flow in flows.values():
        code, answer = replay(cli, flow)
        assert code == 0, answer


def test_a_button_that_does_nothing_stops_at_its_own_step(cli: Cli, flows: dict[str, Path]) -> None:
    code, answer = replay(cli, variant(flows["chores"], "bug=stock"))
    d = divergence(answer)
    assert code == 3 and d["kind"] == "action-failure" and d["step"]["index"] == 3  # type: ignore[index]
    assert d["repairHint"] == "manual"
    assert d["effect"] == {"expected": 'a listitem "<redacted>" to appear', "observed": "nothing changed"}
    assert d["cause"].startswith("no effect: expected a listitem")  # type: ignore[union-attr]
    assert "eggs" not in json.dumps(answer)  # what the flow typed is in no part of the report


def test_an_action_that_does_something_else_is_reported_with_what_it_did(cli: Cli, flows: dict[str, Path]) -> None:
    code, answer = replay(cli, variant(flows["chores"], "bug=discard"))
    d = divergence(answer)
    assert code == 3 and d["step"]["index"] == 7 and d["repairHint"] == "manual"  # type: ignore[index]
    assert d["effect"]["observed"] == 'a dialog "Discard <redacted>?" appeared'  # type: ignore[index]


def test_a_dead_link_stops_at_the_link(cli: Cli, flows: dict[str, Path]) -> None:
    code, answer = replay(cli, variant(flows["chores"], "bug=account"))
    d = divergence(answer)
    assert code == 3 and d["step"]["index"] == 8  # type: ignore[index]
    assert d["effect"]["expected"] == 'navigation to account.html ("Account")'  # type: ignore[index]


def test_a_dialog_that_became_a_status_line_is_drift(cli: Cli, flows: dict[str, Path]) -> None:
    code, answer = replay(cli, variant(flows["save"], "saved=status"))
    assert code == 0, answer
    drift = [t for t in answer["result"]["timings"] if t.get("drift")]  # type: ignore[index]
    assert [t["index"] for t in drift] == [4]
    assert "appeared as a status" in drift[0]["drift"][0]


def test_a_retitled_page_is_drift(cli: Cli, flows: dict[str, Path]) -> None:
    code, answer = replay(cli, variant(flows["chores"], "title=new"))
    assert code == 0, answer
    drift = [t for t in answer["result"]["timings"] if t.get("drift")]  # type: ignore[index]
    assert [t["index"] for t in drift] == [8] and "titled 'Your account'" in drift[0]["drift"][0]


def test_a_toast_that_goes_within_a_second_is_caught(cli: Cli, flows: dict[str, Path]) -> None:
    assert '"effect":[{"appeared":"alert","text":"Shelf saved"}]' in flows["toast"].read_text()
    code, answer = replay(cli, flows["toast"])
    assert code == 0, answer
    code, answer = replay(cli, variant(flows["toast"], "toast=1&bug=save"))
    assert code == 3 and divergence(answer)["effect"]["observed"] == "nothing changed"  # type: ignore[index]


def test_a_confirmation_with_a_generated_reference_holds_on_every_replay(cli: Cli, flows: dict[str, Path]) -> None:
    [effect] = [effect_of(line) for line in flows["ref"].read_text().splitlines() if line.startswith(ANNOTATION)]
    assert effect[0]["appeared"] == "alert" and str(effect[0]["text"]).startswith("Shelf saved, reference ")
    for _ in range(20):  # a new random reference, UUID and time each run
        code, answer = replay(cli, flows["ref"])
        assert code == 0, answer


def test_a_clock_and_a_timers_rows_are_never_effects(cli: Cli, flows: dict[str, Path]) -> None:
    text = flows["feed"].read_text()
    assert "Delivery" not in text and ":" not in "".join(re.findall(r'"text":"([^"]*)"', text))
    for _ in range(3):
        code, answer = replay(cli, flows["feed"])
        assert code == 0, answer


def test_no_effects_turns_the_check_off_for_a_run_and_for_a_script(cli: Cli, flows: dict[str, Path]) -> None:
    broken = variant(flows["chores"], "bug=stock")
    code, answer = replay(cli, broken, "--no-effects")
    assert code == 3 and "effect" not in divergence(answer)  # it fails later, on the missing row
    broken.write_text(broken.read_text().replace("context platform=web", "context platform=web effects=off"))
    code, answer = replay(cli, broken)
    assert code == 3 and "effect" not in divergence(answer)


def test_the_builtin_healer_never_acts_on_a_missing_effect(cli: Cli, flows: dict[str, Path]) -> None:
    broken = variant(flows["chores"], "bug=discard")
    healed = cli("heal", str(broken), "--agent", "builtin", "--timeout", "1500", ok=None)
    assert healed.returncode == 6  # escalated: a person decides whether the app regressed
    assert not broken.with_suffix(".healed.ad").exists() and not broken.with_name(f"{broken.stem}.rejected.ad").exists()


def test_the_suites_html_report_shows_the_expected_and_the_observed_effect(cli: Cli, flows: dict[str, Path]) -> None:
    suite = flows["chores"].parent / "suite-effects"
    suite.mkdir(exist_ok=True)
    variant(flows["chores"], "bug=account").rename(suite / "dead-link.ad")
    ran = cli("test", str(suite), "--html", str(suite / "report"), ok=None)
    assert ran.returncode == 1
    page = (suite / "report" / "index.html").read_text()
    assert "<th>expected</th><td>navigation to account.html (&quot;Account&quot;)</td>" in page
    assert "<th>observed</th><td>nothing changed</td>" in page


def test_lint_effects_shows_each_steps_effect_without_typed_text(cli: Cli, flows: dict[str, Path]) -> None:
    shown = cli("lint", "--effects", str(flows["chores"])).stdout
    effects = [line for line in shown.splitlines() if line.strip().startswith("effect:")]
    assert len(effects) == 7 and not any("eggs" in line or "milk" in line for line in effects)
    assert 'effect: a listitem "<redacted>" to appear' in shown
    assert 'effect: navigation to account.html ("Account")' in shown


def test_a_variables_value_the_page_shows_never_becomes_an_effect(cli: Cli, web: str, tmp_path: Path) -> None:
    from replay.client import Client

    out = tmp_path / "secret.ad"
    client = Client("fx-secret", home=cli.home, cwd=str(tmp_path))
    client.run_line(f"open {web}/pantry/index.html", save_script=str(out))
    seen = client.snapshot(interactive=True)["text"]
    client.run_line(f'fill {ref(seen, r"textbox .Item name")} "${{ITEM}}"', values={"ITEM": "Zq9jam"})
    client.run_line(f"click {ref(seen, r'button .Stock it')}")
    client.close()
    text = out.read_text()
    assert "Zq9jam" not in text and '"${ITEM}"' in text


def test_an_armed_run_re_records_an_effect_that_held_in_another_form(cli: Cli, flows: dict[str, Path]) -> None:
    retitled = variant(flows["chores"], "title=new")
    cli("run", str(retitled), "--session", "fx-armed", "--save-script")
    cli("close", "--session", "fx-armed")
    healed = retitled.with_name(f"{retitled.stem}.healed.ad").read_text()
    assert '"effect":[{"navigated":"account.html","title":"Your account"}]' in healed
    before = [line for line in retitled.read_text().splitlines() if '"navigated"' not in line]
    assert [line for line in healed.splitlines() if '"navigated"' not in line][: len(before) - 1] == before[:-1]


def test_a_calendars_month_arrow_records_the_month_its_title_now_says(cli: Cli, web: str, tmp_path: Path) -> None:
    # Air Datepicker 2: nameless arrows beside the month's title, which is all a person sees change
    out = tmp_path / "month.ad"
    cli("open", f"{web}/widgets/stay/a2/index.html", f"--save-script={out}", "--session", "month")
    seen = cli("snapshot", "--session", "month").stdout.splitlines()
    title = next(i for i, line in enumerate(seen) if 'generic text="June, 2026"' in line)
    arrow = next(line.split()[0] for line in seen[title + 1 :] if line.strip().endswith("generic"))
    said = cli("click", arrow, "--session", "month").stdout
    cli("close", "--session", "month")
    assert 'effect: a generic now says "July, 2026"' in said, said
    assert cli("run", str(out)).returncode == 0


def test_a_recording_waits_for_what_the_action_asked_the_server_for(cli: Cli, web: str, tmp_path: Path) -> None:
    # Save asks the server, which answers in 600 ms, then says "Shelf saved": a screen that stays the same
    # meanwhile is not settled (a kit that fetches its popover's code on first use, on a loaded machine)
    out = tmp_path / "lazy.ad"
    cli("open", f"{web}/pantry/index.html?lazy=600", f"--save-script={out}", "--session", "lazy")
    seen = cli("snapshot", "-i", "--session", "lazy").stdout
    said = cli("click", ref(seen, r"button \"Save shelf\""), "--session", "lazy").stdout
    cli("close", "--session", "lazy")
    assert 'dialog "Shelf saved"' in said, said
    assert cli("run", str(out)).returncode == 0


def _slider_flow(cli: Cli, web: str, tmp_path: Path) -> tuple[Path, str]:
    """noUiSlider 14's handle (an ARIA slider: aria-valuenow, aria-valuetext) clicked, then ArrowRight."""
    out = tmp_path / "slider.ad"
    cli("open", f"{web}/widgets/volume/n14/index.html", f"--save-script={out}", "--session", "slider")
    seen = cli("snapshot", "-i", "--session", "slider").stdout
    cli("click", ref(seen, "slider"), "--session", "slider")
    said = cli("press", "ArrowRight", "--json", "--session", "slider").stdout
    cli("close", "--session", "slider")
    return out, said


def test_a_sliders_keys_record_the_value_the_slider_says_now(cli: Cli, web: str, tmp_path: Path) -> None:
    out, said = _slider_flow(cli, web, tmp_path)
    assert "the target holds 50.00" in said, said
    assert cli("run", str(out)).returncode == 0


def test_an_effect_check_reads_the_acted_on_element_however_many_looks_it_takes(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    # End instead of ArrowRight: the check looks until its deadline (dozens of looks) and then says what the
    # slider it pressed the key on holds — not that it went (the acted-on capture was once forgotten)
    out, _ = _slider_flow(cli, web, tmp_path)
    end = tmp_path / "end.ad"
    end.write_text(out.read_text().replace("press ArrowRight", "press End"))
    ran = cli("run", str(end), ok=False)
    said = ran.stdout + ran.stderr
    assert "no effect: expected the target to hold 50.00; observed the target holds 100.00" in said, said
