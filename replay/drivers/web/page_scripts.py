"""The scripts the web driver runs in the page besides capture.js: the node engine that acts on a
captured node in one call, and the questions it asks an element before acting on it."""

from __future__ import annotations

# A selector engine that finds node ``i`` of capture ``g`` in its frame: acting on a verified node is
# then one Playwright call (``locator("replay-node=g:i").click()``), with no element-handle lookup
# before it and no handle left behind. A node that is gone fails at once (no auto-wait on it).
NODE_ENGINE = "replay-node"  # in Playwright's utility world, where captures run on Chromium
MAIN_NODE_ENGINE = "replay-node-main"  # in the page's main world, where they run elsewhere
UTILITY, MAIN = "utility", "main"
UTILITY_WORLD = "__playwright_utility_world_"  # the isolated world Playwright's own actions run in
NODE_ENGINE_JS = """{
  query(root, selector) {
    const [g, i] = selector.split(':').map(Number);
    let w = window;
    while (!w.__replayCapture && w !== w.parent) w = w.parent;
    const store = w.__replayCapture;
    const el = store && store.gens[g] ? store.gens[g][i] : undefined;
    if (!el) throw new Error('replay-stale:gone');
    // removed, or in a document its frame navigated away from (still connected to it, but dead)
    if (!el.isConnected || !el.ownerDocument.defaultView) throw new Error('replay-stale:detached');
    return el.ownerDocument === root.ownerDocument || el.ownerDocument === root ? el : null;
  },
  queryAll(root, selector) { const el = this.query(root, selector); return el ? [el] : []; }
}"""
# the page's next two frames drawn (run in the utility world: a page's own requestAnimationFrame may be
# anything); what a handler put off to its next frame has run once this resolves
FRAMES_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"

LOCATE_JS = """([g, i, g2]) => {
  const s = window.__replayCapture;
  if (!s || !s.gens[g] || !s.gens[g2]) return -1;
  return s.gens[g2].indexOf(s.gens[g][i]);
}"""


# Whether what is on top at the element's centre is part of the same control: one of its labels (Bootstrap
# 4 paints the checkbox on its label, over the hidden input), the label around it, or its component's host
COVERED_BY_ITS_OWN_JS = """(el) => {
  const r = el.getBoundingClientRect();
  const root = el.getRootNode();
  const hit = (root.elementFromPoint ? root : document).elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!hit || hit === el || el.contains(hit)) return false;
  const owners = [...(el.labels || []), el.closest('label'), root.host].filter(Boolean);
  if (owners.some((o) => o === hit || o.contains(hit))) return 'own';
  // under a wrapper of its own (a toggle's track drawn over its input): its own shown label presses it
  const shown = (l) => { const b = l.getBoundingClientRect(); return b.width >= 2 && b.height >= 2; };
  return [...(el.labels || [])].some(shown) ? 'label' : false;
}"""

# Whether the control has no box a person could press (a native input a component hides at 0×0 or
# makes invisible, and paints elsewhere) while a part of the same control shows: the label of its own,
# else the component around it that takes the pointer (a switch's track, a custom element's host) —
# what a person presses, and what replay presses for it
PRESSED_BY_ITS_LABEL_JS = """(el) => {
  const box = el.getBoundingClientRect();
  const style = getComputedStyle(el);
  if (box.width >= 2 && box.height >= 2 && style.visibility !== 'hidden' && style.display !== 'none') return false;
  const shown = (l) => { const r = l.getBoundingClientRect(); return r.width >= 2 && r.height >= 2; };
  return [...(el.labels || []), el.closest('label')].some((l) => l && shown(l));
}"""

PRESSED_THROUGH_JS = """(el) => {
  const shown = (l) => { const r = l.getBoundingClientRect(); return r.width >= 2 && r.height >= 2; };
  const label = [...(el.labels || []), el.closest('label')].find((l) => l && shown(l));
  if (label) return label;
  // a wrapper of its own at its centre takes the pointer for it (captured F_THROUGH): that wrapper
  const box = el.getBoundingClientRect();
  const root = el.getRootNode();
  const scope = root.elementFromPoint ? root : document;
  const hit = shown(el) && scope.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const inside = (n, of) => {
    for (; n; n = n.assignedSlot || n.parentNode || n.host) if (n === of) return true;
    return false;
  };
  if (hit && hit !== el && inside(el, hit)) return hit;
  // an editor's own input under what the editor draws (capture.js ``ownEditor``): what a person clicks
  const EDITING = 'input, button, select, textarea, a[href], [role=button], [role=link], [role=switch], '
    + '[role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], '
    + '[contenteditable=true], [contenteditable=""]';
  if (hit && el.matches('textarea, input, [contenteditable=true], [contenteditable=""]')) {
    let common = el.parentElement;
    while (common && !common.contains(hit)) common = common.parentElement;
    const page = common === document.body || common === document.documentElement;
    if (common && !page && ![...common.querySelectorAll(EDITING)].some((c) => c !== el)) return hit;
  }
  // only a toggle's own input is drawn by what holds it: a hidden button is not its row's to press
  const toggle = el.matches('input[type=checkbox], input[type=radio], [role=switch], [role=checkbox], [role=radio]');
  if (!toggle) return null;
  // the nearest shown component around it that holds no other control: the toggle's own (its track)
  const CONTROLS = 'input, button, select, textarea, a[href], [role=button], [role=link], [role=switch], '
    + '[role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option]';
  const up = (n) => n.parentElement || (n.getRootNode() instanceof ShadowRoot ? n.getRootNode().host : null);
  for (let n = up(el), i = 0; n && i < 3; n = up(n), i++) {
    if ([...n.querySelectorAll(CONTROLS)].some((c) => c !== el)) return null;
    if (shown(n)) return n;
  }
  return null;
}"""

# The captured nodes a recorder's path points into (``recorder.js`` writes it: child positions from the
# top document, -1 entering a shadow root, -2 a frame's document), nearest first: the element when it
# was captured, then its captured ancestors across shadow roots and frames.
POINTED_JS = """([g, path]) => {
  const s = window.__replayCapture;
  const gen = s && s.gens[g];
  if (!gen || !Array.isArray(path)) return [];
  let node = document;
  for (const step of path) {
    node = step === -1 ? node.shadowRoot : step === -2 ? node.contentDocument : node.children && node.children[step];
    if (!node) return [];
  }
  const found = [];
  for (let el = node; el && found.length < 8; ) {
    const i = gen.indexOf(el);
    if (i >= 0) found.push(i);
    const root = el.getRootNode();
    el = el.parentElement || (root && root.host) || (el.ownerDocument.defaultView || {}).frameElement || null;
  }
  return found;
}"""
