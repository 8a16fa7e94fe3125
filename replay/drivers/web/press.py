"""A verified element's plain click in three messages (design §13): the element the capture kept is
checked where it is — connected, shown whole in the viewport, enabled, where the look saw it, and on top
at its centre — a guard is set on it, and the pointer goes down and up there through the browser's own
input (trusted events, as Playwright's). The guard lets the click reach that element only: when its
first event's target is another element (the page replaced it or moved something over it in between),
every event of the click is cancelled before the page sees it, and the click is then Playwright's,
with its actionability waits.

Playwright's own click waits two animation frames for the element to be still (~17–33 ms a click); here
the look a moment before is the first sample and the check the second — an element that moved between
them is Playwright's to wait for, and so is a click on a screen the look saw moving (an animation or a
transition under way: a dialog still zooming in ignores clicks). Anything else this does not promise is
Playwright's too: an element in a frame, a hidden control pressed through its label, a file input, an
option, a page being recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from replay.drivers.base import Click, Gesture
from replay.tree.model import Capture, Node

# (g, i, rect) → {x, y} where the element is ready for the click (a guard set on it), else a reason
READY_JS = """([g, i, rect]) => {
  const s = window.__replayCapture;
  const el = s && s.gens[g] ? s.gens[g][i] : undefined;
  if (!el || !el.isConnected || el.ownerDocument !== document) return 'gone';
  const tag = el.tagName;
  if (tag === 'OPTION' || tag === 'SELECT' || (tag === 'INPUT' && el.type === 'file')) return 'not plain';
  if (el.disabled || el.closest('[aria-disabled=true], fieldset:disabled')) return 'disabled';
  const r = el.getBoundingClientRect();
  if (!(r.width >= 1 && r.height >= 1)) return 'no box';
  if (!rect || Math.abs(r.x - rect[0]) > 0.5 || Math.abs(r.y - rect[1]) > 0.5
      || Math.abs(r.width - rect[2]) > 0.5 || Math.abs(r.height - rect[3]) > 0.5) return 'moved';
  if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) return 'not in view';
  const shown = { checkOpacity: true, checkVisibilityCSS: true };
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility(shown)) return 'hidden';
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  let hit = document.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  for (let a = hit; a !== el; a = a.parentNode || a.host) if (!a) return 'covered';
  if (s.guard) s.guard.off();  // (a click a dialog held: its guard goes now)
  const TYPES = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'];
  const guard = s.guard = { missed: false, events: 0 };
  // the first event decides (as Playwright's own guard): what the page does on pointerdown — a list that
  // picks its option on mousedown and re-renders — is the click's doing, not another element's
  const check = (ev) => {
    if (!ev.isTrusted || guard.done) return;
    if (guard.events++ === 0) guard.missed = !ev.composedPath().includes(el);
    if (guard.missed) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
    }
    if (ev.type === 'click') guard.done = true;
  };
  guard.off = () => { guard.done = true; for (const t of TYPES) removeEventListener(t, check, true); };
  for (const t of TYPES) addEventListener(t, check, true);
  return { x, y };
}"""

# whether the click reached the element (its guard off): false when an event went elsewhere, cancelled
LANDED_JS = """() => {
  const s = window.__replayCapture, guard = s && s.guard;
  if (!guard) return false;
  guard.off();
  s.guard = null;
  return !guard.missed;
}"""


# (in the page's own world, where its components live) whether the element and the custom elements around it
# are defined and, a Stencil component, hydrated — awaited up to ``ms``: a control the kit has not wired yet
# takes a click and does nothing (Ionic's toggle, a moment after the page loaded on a busy machine)
UPGRADED_JS = """async (el, ms) => {
  const waits = [];
  for (let a = el; a; a = a.parentNode || a.host) {
    if (a.nodeType !== 1 || !a.localName.includes('-')) continue;
    if (!customElements.get(a.localName)) waits.push(customElements.whenDefined(a.localName));
    if (typeof a.componentOnReady === 'function') waits.push(a.componentOnReady());
  }
  if (!waits.length) return true;
  const late = new Promise((done) => setTimeout(() => done(false), ms));
  return Promise.race([Promise.all(waits).then(() => true), late]);
}"""


# whether what moves the element itself — a transition or animation of it or of what holds it (a dialog
# fading or zooming in) — has ended, awaited up to ``ms``: a dialog's button may ignore a click until then
STILL_JS = """async (el, ms) => {
  // what moves or shows it: not a colour's pulse; and what ends (a spinner never does)
  const MOVES = new RegExp('^(opacity|transform|translate|scale|rotate|top|left|right|bottom|width|height'
    + '|visibility|clip-?path)$', 'i');
  const moves = (an) => (an.transitionProperty !== undefined ? [an.transitionProperty]
    : an.effect.getKeyframes().flatMap((k) => Object.keys(k))).some((p) => MOVES.test(p));
  const running = [];
  for (let a = el; a; a = a.parentNode || a.host) {
    if (a.nodeType !== 1) continue;
    for (const an of a.getAnimations()) {
      const ends = Number.isFinite(an.effect.getComputedTiming().endTime);
      if (an.playState === 'running' && ends && moves(an)) running.push(an.finished);
    }
  }
  if (!running.length) return true;
  const late = new Promise((done) => setTimeout(() => done(false), ms));
  return Promise.race([Promise.all(running).then(() => true, () => true), late]);
}"""


async def wired(located: Any, looked: Capture | None, index: int, timeout_ms: int) -> None:
    """Wait up to ``timeout_ms`` for a kit's control (``in_component``) to be wired (``UPGRADED_JS``), and,
    where the look saw the screen moving, for what moves the element to end (``STILL_JS``); a control that
    is gone, or a page that broke its promises, is acted on as it is."""
    for script, due in ((UPGRADED_JS, in_component(looked, index)), (STILL_JS, looked is not None and looked.moving)):
        if due:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(located.evaluate(script, timeout_ms), timeout_ms / 1000)


def in_component(looked: Capture | None, index: int) -> bool:
    """Whether element ``index`` is a custom element or inside one, as the look saw it (a kit's control:
    ``UPGRADED_JS`` waits for it to be wired before it is acted on)."""
    node = _node(looked, index) if looked is not None else None
    return node is not None and any("-" in n.tag_name for n in (node, *node.ancestors()))


def _node(looked: Capture, index: int) -> Node | None:
    nodes = looked.nodes
    if 0 < index < len(nodes) and nodes[index].position == index:
        return nodes[index]
    return next((n for n in nodes[1:] if n.position == index), None)  # (a view: some of the page's nodes)


def box(gesture: Gesture, looked: Capture | None, index: int, frames: list[tuple[str, int, int]]) -> list[float] | None:
    """The box the look saw element ``index`` at, where ``gesture`` is a click this module may send: a
    plain left click on a node of the page itself (in a frame, its box is not the page's); else None."""
    if not isinstance(gesture, Click) or gesture.button != "left" or gesture.through or looked is None:
        return None
    if looked.moving:  # an animation under way when it looked (a dialog still zooming in): Playwright's waits
        return None
    if any(lo <= index < hi for _, lo, hi in frames):
        return None
    node = _node(looked, index)
    return list(node.rect) if node is not None else None


async def click(cdp: Any, at: dict[str, Any]) -> bool:
    """The pointer moved to ``at`` (x, y), pressed and released there: one left click, as a person's."""
    point = {"x": float(at["x"]), "y": float(at["y"]), "modifiers": 0}
    for kind, button, buttons in (("mouseMoved", "none", 0), ("mousePressed", "left", 1), ("mouseReleased", "left", 0)):
        event = {"type": kind, **point, "button": button, "buttons": buttons}
        await cdp.send("Input.dispatchMouseEvent", {**event, "clickCount": 1} if button == "left" else event)
    return True
