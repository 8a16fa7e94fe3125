// The recorder's hands in the page (design §16): a person's input is held in the capture phase, before
// the app's handlers, and handed to the daemon, which performs it through the step pipeline. Runs in
// an isolated world of every frame (as a browser extension's content script does), before the page's
// own scripts: no page script can reach this closure, its binding or the built-ins it uses.
//
// Held (its default prevented, the app never sees it): pointer presses and clicks, double clicks,
// keys that act (Enter, Tab, Escape, arrows in a field; any key outside one), a select's choice.
// Passed through: pointer moves (a person must see hover), keystrokes into a field (a person must
// see what they type: reported as one fill when the field is left or a held key is pressed), and
// replay's own input for the gesture it performs, told apart by what it is (the keys it presses,
// a click on the element it acts on) — not by when it comes.
//
// Serialized: while a gesture is being performed, everything else the person does — keys, clicks —
// is held and queued in order, then delivered: keys to what has the focus then (typed by replay, as
// the person typed them), clicks and acting keys as new gestures. No key is lost or lands in a field
// the person did not see focused, however fast they type or however busy the machine is.
(() => {
  if (window.__replayRecorder) return; // (this world's own global: only this script sets it)
  const rec = (window.__replayRecorder = {});
  // exposed to this world only (``Runtime.addBinding`` with this world's name): a page cannot call it
  const binding = window.__replayRecord;
  const toText = JSON.stringify; // this world's own: a page that replaces its JSON changes nothing here
  const send = (msg) => {
    try {
      if (binding) binding(toText(msg));
    } catch (e) {
      /* the daemon is gone: nothing to hand over */
    }
  };
  let asked = 0;
  const answers = new Map(); // a question's number → what resolves its promise (the daemon answers it)
  const ask = (msg) =>
    new Promise((resolve) => {
      asked += 1;
      answers.set(asked, resolve);
      send({ ...msg, ask: asked });
    });
  rec.answered = (n, value) => {
    const resolve = answers.get(n);
    answers.delete(n);
    if (resolve) resolve(value);
  };
  const TEXTLIKE = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number']);
  const isField = (el) =>
    !!el &&
    ((el.tagName === 'INPUT' && TEXTLIKE.has((el.getAttribute('type') || '').toLowerCase())) ||
      el.tagName === 'TEXTAREA' ||
      el.isContentEditable);
  // Enter writes a line there (a one-line editor — a tag input's span — says aria-multiline="false": Enter acts)
  const multiline = (el) => el.tagName === 'TEXTAREA' || (el.isContentEditable && el.getAttribute('aria-multiline') !== 'false');
  const valueOf = (el) => (el.isContentEditable ? el.innerText : el.value);
  // a password, a one-time code, a card's number or security code, or a field whose characters the
  // page masks (a PIN typed as digits and shown as dots: -webkit-text-security)
  const SECRET_AUTOCOMPLETE = ['password', 'one-time-code', 'cc-csc', 'cc-number'];
  const secretNow = (el) => {
    const type = (el.getAttribute('type') || '').toLowerCase();
    const auto = (el.getAttribute('autocomplete') || '').toLowerCase();
    if (type === 'password' || SECRET_AUTOCOMPLETE.some((a) => auto.includes(a))) return true;
    const masked = getComputedStyle(el).getPropertyValue('-webkit-text-security');
    return !!masked && masked !== 'none';
  };
  // a field that was secret at any moment stays secret (a show-password toggle makes it type=text)
  const wasSecret = new WeakSet();
  const secret = (el) => {
    if (secretNow(el)) wasSecret.add(el);
    return wasSecret.has(el);
  };
  const SECRET_TYPES = ['type', 'autocomplete'];
  new MutationObserver((changes) => {
    for (const change of changes) {
      const was = (change.oldValue || '').toLowerCase();
      if (was === 'password' || was.includes('one-time-code')) wasSecret.add(change.target);
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: SECRET_TYPES, attributeOldValue: true });
  const seedSecrets = () => {
    for (const el of document.querySelectorAll('input')) secret(el);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', seedSecrets);
  else seedSecrets();
  const labelOf = (el) => {
    const own = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].innerText) || '';
    return (own || el.getAttribute('placeholder') || el.getAttribute('name') || '').trim().slice(0, 40);
  };
  // the element as a path of child positions from the top document: -1 enters a shadow root, -2 a frame
  const pathOf = (el) => {
    const out = [];
    let node = el;
    while (node) {
      const parent = node.parentNode;
      if (!parent) return null;
      out.push(Array.prototype.indexOf.call(parent.children, node));
      if (parent instanceof ShadowRoot) {
        out.push(-1);
        node = parent.host;
      } else if (parent.nodeType === 9) {
        let frame = null;
        try {
          frame = parent.defaultView.frameElement;
        } catch (e) {
          return null;
        }
        if (window.top === parent.defaultView) break;
        if (!frame) return null; // a cross-origin frame: no path from the top reaches it
        out.push(-2);
        node = frame;
      } else node = parent;
    }
    return out.reverse();
  };
  const pointed = (e) => {
    let el = e.composedPath()[0];
    if (el && el.nodeType !== 1) el = el.parentElement;
    if (el && el.tagName === 'LABEL' && el.control) el = el.control; // the control a label stands for
    return el;
  };
  // A click inside a label (the label itself, a wrapper a component paints the control on, its text)
  // is a click on the control the label stands for — in a shadow root too — unless it is on a link or
  // button of its own inside the label
  const OWN_CONTROLS = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA']);
  const controlOf = (e, el) => {
    // the label the click went through, on its composed path: slotted text reaches a component's
    // label in its shadow root that way (closest() stops at the shadow boundary)
    for (const node of e.composedPath()) {
      if (node === window || node === document || node.nodeType !== 1) break;
      if (node.tagName === 'LABEL') return node.control || el;
      const role = node.getAttribute('role');
      if (OWN_CONTROLS.has(node.tagName) || node.isContentEditable || role === 'button' || role === 'link') return el;
    }
    return el;
  };
  const hold = (e) => {
    e.preventDefault();
    e.stopImmediatePropagation();
  };
  // a node inside ``outer``, through shadow roots
  const within = (outer, node) => {
    for (let n = node; n; n = n.parentNode || n.host) if (n === outer) return true;
    return false;
  };

  // The gestures handed over (``seq``) and performed (``done``); what replay's own input for each
  // will be (``expects``: the keys it presses, the element it points at and the event that ends it);
  // the person's input made meanwhile (``queue``), delivered in order once none is being performed.
  rec.seq = 0;
  rec.done = 0;
  const expects = [];
  const queue = [];
  let pressed = null; // {code, key}: the person's held key, not let go yet (performed when it is)
  const busy = () => rec.seq > rec.done;
  const blocked = () => busy() || queue.length > 0 || pressed !== null;
  const ownKey = (e) => {
    const mine = expects.find((x) => x.keys && x.keys.length);
    if (!mine || (mine.keys[0].code !== e.code && mine.keys[0].key !== e.key)) return false;
    mine.keys.shift();
    return true;
  };
  const ownPointer = (e) => {
    const mine = expects.find((x) => x.pointer !== undefined);
    if (!mine) return false;
    const target = e.composedPath()[0];
    const label = target && target.closest && target.closest('label');
    const at = mine.pointer;
    if (mine.until === 'click' && e.detail > 1) return false; // replay clicks once: a second click is the person's
    // (an element re-rendered since the person pointed at it — suggestions typed for again — is acted on
    // in its replacement: replay's input lands there, and is replay's own, not a second click of theirs)
    const gone = at && !at.isConnected;
    if (at && !gone && !(within(at, target) || within(target, at) || (label && label.control === at))) return false;
    // replay's input starts with its press: the rest of the person's own gesture (their release, after
    // the press that made it) is theirs
    if (!mine.pressed && !PRESSES.has(e.type)) return false;
    mine.pressed = true;
    if (e.type === mine.until) delete mine.pointer; // its last event: the next pointer input is the person's
    return true;
  };
  const ownCodes = new Set(); // keys replay pressed, not let go yet: their keyup passes too
  const queuedCodes = new Set(); // keys the person pressed while held: their keyup is held too
  // replay's own input passes (and untrusted events: a page script's are never a person's); the
  // person's, while a gesture is performed, is held (and queued by its handler). Judged once an event.
  const verdicts = new WeakMap();
  const free = (e) => {
    if (!verdicts.has(e)) verdicts.set(e, judge(e));
    return verdicts.get(e);
  };
  const judge = (e) => {
    if (!e.isTrusted) return true;
    if (e.type.startsWith('key')) {
      if (e.type === 'keydown' && ownKey(e)) return ownCodes.add(e.code), true;
      if (e.type !== 'keydown' && ownCodes.has(e.code)) return e.type === 'keyup' && ownCodes.delete(e.code), true;
      return false;
    }
    return POINTER_ACTS.has(e.type) && ownPointer(e);
  };
  const PRESSES = new Set(['pointerdown', 'mousedown']);
  const POINTER_ACTS = new Set(['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu']);
  // a click the person pressed for (a label's activation of its control, a key's on a button: the
  // browser's own clicks after replay's input, never the person's)
  let pressedFor = false;
  // (first of this script's listeners: the ones after it may stop the event)
  window.addEventListener('pointerdown', (e) => {
    if (!free(e) && e.button === 0) pressedFor = true;
  }, true);
  // a gesture now, or after the ones being performed and the input queued before it
  const gesture = (msg, el) => (blocked() ? queue.push({ type: 'gesture', msg, el }) : perform(msg, el));
  // a native select opens its own list and a file input its chooser: their presses go through
  const own = (e) => {
    const el = pointed(e);
    return !!el && !!el.closest && !!el.closest('select, input[type=file], input[type=color], input[type=date]');
  };

  // the field being typed into: {el, reported, touched}; ``touched``: the person typed in it since the
  // last report (a value a page script set, with no trusted input, is never a step)
  let typing = null;
  const flush = (leaving = false) => {
    if (!typing || !typing.el.isConnected || !typing.touched) return;
    // what the person's own edits left in it: a value the page put there since (on blur, on a timer) is
    // the page's — said, never written as typed
    const shown = valueOf(typing.el);
    const value = typing.typed !== undefined ? typing.typed : shown;
    const pageMade = shown !== value ? shown : undefined;
    typing.touched = false;
    if (value === typing.reported) return;
    const before = typing.reported;
    typing.reported = value;
    const el = typing.el;
    // An editor (contenteditable) is known by what it was before the text, which is part of what it
    // says; a field that suggests as you type (a combobox, `aria-autocomplete`, a `list`) hears keys,
    // not a value. Text added at the end of either is written as the CLI writes it, `type` into it once
    // focused (performed again by replay: its keys take the person's text back, then type it); any
    // other edit of an editor is a `fill` of the editor as it was (its text put back first, for replay
    // to find it by what it said, then filled)
    const editor = !!el.isContentEditable;
    // (or a field clicked into, whose page answered most of the keys as they were typed — a table filtered
    // on keyup: a fill sends no key, so only the keys replay the answer; a clock's tick answers few)
    const answered = !!typing.clicked && typing.keys > 0 && 2 * (typing.answers || 0) > typing.keys;
    typing.keys = typing.answers = 0;
    const keyed = (el.tagName === 'INPUT' && (el.hasAttribute('aria-autocomplete') || el.getAttribute('role') === 'combobox' || el.hasAttribute('list'))) || answered;
    const [was, now] = [before, value].map((t) => t.replace(/\n+$/, '')); // (an empty editor's line break)
    if ((editor || keyed) && now.length > was.length && now.startsWith(was) && !secret(el) && !leaving) {
      return perform({ kind: 'type', path: pathOf(el), text: now.slice(was.length) }, el);
    }
    if (editor && !leaving) el.innerText = before;
    perform({ kind: 'fill', path: pathOf(el), value, secret: secret(el), label: labelOf(el), leaving, pageMade }, el);
  };
  // what replay's own input for a gesture is: the keys it presses, the element it points at and the
  // event its input ends with (a fill, a select, an upload, a hover: no key, no press)
  const UNTIL = { click: 'click', dblclick: 'dblclick' };
  const expected = (msg, el) => {
    if (msg.kind === 'press') return { keys: [{ code: msg.code, key: msg.raw }] };
    // typed text is inserted (no key events: none to tell from the person's); other keys are pressed
    if (msg.kind === 'keys') return { keys: msg.keys.filter((k) => !typed(k)).map((k) => ({ code: k.code, key: k.key })) };
    if (msg.kind === 'type') {
      const chars = [...msg.text].map((c) => ({ key: c === '\n' ? 'Enter' : c, code: '' }));
      const back = [...msg.text].map(() => ({ key: 'ArrowLeft', code: 'ArrowLeft' }));
      return { keys: [...back, { key: 'Backspace', code: 'Backspace' }, ...chars] };
    }
    if (msg.kind === 'drag') return { pointer: null, until: null }; // both ends: until it is performed
    // a styled chooser is given its file by a click on what opens it (Playwright's chooser): anywhere
    if (msg.kind === 'upload') return { pointer: null, until: 'click' };
    if (msg.kind === 'click' && msg.button === 'right') return { pointer: el, until: 'auxclick' };
    if (UNTIL[msg.kind]) return { pointer: el, until: UNTIL[msg.kind] };
    return {};
  };
  const perform = (msg, el) => {
    if (msg.kind !== 'fill' && msg.kind !== 'keys') flush(); // the field's text before what comes after it
    if (bar.host) bar.host.style.pointerEvents = 'none'; // replay's own pointer must not land on the bar
    rec.seq += 1;
    expects.push({ seq: rec.seq, ...expected(msg, el) });
    send({ ...msg, seq: rec.seq });
  };
  // The person's input held while a gesture was performed, delivered in order: typing keys to the
  // element that has the focus now (one delivery, typed by replay), a key that acts there as a press,
  // a click as a gesture — each once the one before it was performed.
  const deepActive = () => {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    return el;
  };
  const drain = () => {
    if (busy() || pressed !== null) return;
    const next = queue[0];
    if (!next) return;
    if (next.type === 'gesture') {
      queue.shift();
      return perform(next.msg, next.el);
    }
    const focused = deepActive();
    if (acts(next, focused)) {
      queue.shift();
      return perform({ kind: 'press', key: keyName(next), code: next.code, raw: next.key });
    }
    const keys = [];
    while (queue.length && queue[0].type === 'key' && !acts(queue[0], focused)) keys.push(queue.shift());
    if (isField(focused) && (!typing || typing.el !== focused)) typing = { el: focused, reported: valueOf(focused) };
    if (typing) typing.touched = true;
    perform({ kind: 'keys', keys });
  };
  // The bar (top frame only): a closed shadow root that no capture contains (capture.js skips its
  // host). Pick outlines what the pointer is over and says the selector replay would write, its
  // basis and whether it is verified — in warning colour when only its position tells it apart —
  // before the person acts; Assert records an `is …` of the next element clicked; Hover records a
  // hover of it; Stop publishes. Its own input is held from the app and handled here.
  const bar = { host: null, root: null, mode: null, asked: 0 };
  const BAR_CSS = `
    .bar { position: fixed; right: 8px; bottom: 8px; z-index: 2147483647; font: 12px/1.4 system-ui, sans-serif;
      background: #1d232a; color: #eee; border-radius: 6px; padding: 6px 8px; display: flex; gap: 6px;
      align-items: center; max-width: 70vw; box-shadow: 0 2px 8px #0006; }
    .bar b { color: #f55; } button { font: inherit; background: #39424e; color: #eee; border: 0;
      border-radius: 4px; padding: 2px 8px; cursor: pointer; } button.on { background: #2f7de1; }
    .said { font-family: ui-monospace, monospace; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .warn { color: #ffb020; }
    .outline { position: fixed; z-index: 2147483646; pointer-events: none; border: 2px solid #2f7de1;
      background: #2f7de122; display: none; }
    .outline.warn { border-color: #ffb020; background: #ffb02022; }`;
  const mountBar = () => {
    if (bar.host || window.top !== window || !document.documentElement) return;
    const host = document.createElement('replay-bar');
    const root = host.attachShadow({ mode: 'closed' });
    root.innerHTML =
      `<style>${BAR_CSS}</style><div class="outline"></div><div class="bar"><b>● rec</b>` +
      '<button data-do="pick">Pick</button><button data-do="assert-visible">Assert visible</button>' +
      '<button data-do="assert-text">Assert text</button><button data-do="assert-checked">Assert checked</button>' +
      '<button data-do="hover">Hover</button><button data-do="stop">Stop</button><span class="said"></span></div>';
    document.documentElement.appendChild(host);
    Object.assign(bar, { host, root });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mountBar);
  else mountBar();
  const onBar = (e) => !!bar.host && e.composedPath()[0] === bar.host;
  const barSay = (text, warn) => {
    if (!bar.root) return;
    const said = bar.root.querySelector('.said');
    said.textContent = text;
    said.className = warn ? 'said warn' : 'said';
  };
  rec.said = barSay; // the daemon says each recorded step here
  const setMode = (mode) => {
    bar.mode = bar.mode === mode ? null : mode;
    for (const b of bar.root.querySelectorAll('button')) b.className = b.dataset.do === bar.mode ? 'on' : '';
    if (!bar.mode) bar.root.querySelector('.outline').style.display = 'none';
  };
  const outline = (el, warn) => {
    const box = bar.root.querySelector('.outline');
    const r = el.getBoundingClientRect();
    Object.assign(box.style, { display: 'block', left: r.left + 'px', top: r.top + 'px', width: r.width + 'px', height: r.height + 'px' });
    box.className = warn ? 'outline warn' : 'outline';
  };
  const picked = async (el) => {
    const asked = ++bar.asked;
    outline(el, false);
    let said = null;
    try {
      said = await ask({ kind: 'pick', path: pathOf(el) });
    } catch (e) {
      return;
    }
    if (asked !== bar.asked || bar.mode !== 'pick' || !said) return; // the pointer moved on meanwhile
    outline(el, said.positional);
    const how = `${said.basis}, ${said.verification}${said.positional ? ' — only its position tells it apart' : ''}`;
    barSay(`${said.selector || '(no portable selector)'}  [${how}]`, said.positional || !said.selector);
  };
  let pickTimer = 0;
  window.addEventListener(
    'pointermove',
    (e) => {
      if (bar.mode !== 'pick' || onBar(e) || !e.isTrusted) return;
      const el = pointed(e);
      clearTimeout(pickTimer);
      if (el) pickTimer = setTimeout(() => picked(el), 80);
    },
    true,
  );
  for (const kind of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick']) {
    window.addEventListener(
      kind,
      (e) => {
        if (!e.isTrusted || (!onBar(e) && !(bar.mode && kind !== 'pointermove' && !free(e)))) return;
        if (onBar(e)) {
          hold(e);
          const button = kind === 'click' && bar.root.elementFromPoint(e.clientX, e.clientY);
          const what = button && button.closest && button.closest('button');
          if (!what) return;
          if (what.dataset.do === 'stop') flush(), send({ kind: 'stop' }); // the text typed last, then Stop
          else setMode(what.dataset.do);
          return;
        }
        hold(e); // a mode's click: what it is about, not an action on the app
        if (kind !== 'click' || bar.mode === 'pick') return;
        const mode = bar.mode;
        setMode(mode);
        const el = pointed(e);
        if (mode === 'hover') gesture({ kind: 'hover', path: pathOf(el) }, el);
        else gesture({ kind: 'assert', predicate: mode.slice('assert-'.length), path: pathOf(el) }, el);
      },
      true,
    );
  }

  // A drag: the button pressed on one element and let go over another after the pointer moved. Its
  // presses are held like any (the app sees neither end); it is handed over as one gesture with both
  // ends, performed as `drag` then `drop`; the click its release makes is not a click.
  const DRAG_PX = 8;
  let press = null; // the held press of the primary button: where, on what, whether it moved since
  let dropped = false;
  window.addEventListener('pointerdown', (e) => {
    if (free(e) || own(e) || onBar(e) || bar.mode || e.button !== 0 || blocked()) return;
    press = { x: e.clientX, y: e.clientY, el: pointed(e), moved: false };
    dropped = false;
  }, true);
  window.addEventListener('pointermove', (e) => {
    if (!press || free(e) || !(e.buttons & 1)) return;
    if (Math.hypot(e.clientX - press.x, e.clientY - press.y) > DRAG_PX) press.moved = true;
  }, true);
  window.addEventListener('pointerup', (e) => {
    const held = press;
    press = null;
    if (!held || !held.moved || free(e) || e.button !== 0) return;
    const to = pointed(e);
    if (!to || !held.el || held.el === to || held.el.contains(to)) return; // moved within it: a click
    dropped = true;
    gesture({ kind: 'drag', path: pathOf(held.el), to: pathOf(to) }, held.el);
  }, true);
  for (const kind of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'auxclick']) {
    window.addEventListener(kind, (e) => free(e) || own(e) || hold(e), true);
  }
  // The hovered ancestor that shows ``el`` (a row's delete button): a style rule with ``:hover`` on an
  // ancestor's part of its selector that shows, hides or fades ``el`` itself. None when ``el`` shows
  // without hover (as far as the page's readable style sheets tell).
  const SHOWS = /(^|;)\s*(display|visibility|opacity)\s*:/;
  const HOVER_SHOWS_MS = 1500; // what a page adds this long after the pointer came to rest is shown by it
  const revealedBy = (el) => {
    const parts = [];
    const walk = (rules) => {
      for (const rule of rules) {
        if (rule.cssRules && !rule.selectorText) walk(rule.cssRules); // @media, @supports, @layer
        else if (rule.selectorText && rule.selectorText.includes(':hover') && SHOWS.test(rule.style.cssText)) {
          parts.push(...rule.selectorText.split(',').filter((p) => p.includes(':hover')));
        }
      }
    };
    for (const sheet of el.getRootNode().styleSheets || document.styleSheets) {
      try {
        walk(sheet.cssRules);
      } catch (e) {
        /* a cross-origin sheet: unreadable */
      }
    }
    for (const part of parts) {
      const compounds = part.trim().split(/\s*[>+~\s]\s*/);
      const hovered = compounds.slice(0, -1).find((c) => c.includes(':hover'));
      if (!hovered || compounds[compounds.length - 1].includes(':hover')) continue; // hover on el itself
      try {
        if (!el.matches(part.replace(/:hover/g, ''))) continue;
        const owner = hovered.replace(/:hover/g, '') || '*';
        for (let a = el.parentElement; a; a = a.parentElement) if (a.matches(owner) && a.matches(':hover')) return a;
      } catch (e) {
        /* a selector this browser cannot match */
      }
    }
    return null;
  };
  // What a page's script added while the pointer rested on an element (a tooltip, a hover card) — with no
  // press and no key since it came to rest there — is shown by resting there: a click in it is written
  // after a `hover` of that element. (What a press, a key or a timer after them added is theirs.)
  let over = null;
  let overAt = 0;
  let actedAt = 0;
  const shownFor = new WeakMap(); // an added element → the element the pointer rested on as it came
  window.addEventListener('pointerover', (e) => {
    if (e.isTrusted) [over, overAt] = [e.composedPath()[0], performance.now()];
  }, true);
  for (const kind of ['pointerdown', 'keydown']) {
    window.addEventListener(kind, (e) => {
      if (e.isTrusted) actedAt = performance.now();
    }, true);
  }
  new MutationObserver((records) => {
    const now = performance.now();
    if (!over || !over.isConnected || actedAt >= overAt || now - overAt > HOVER_SHOWS_MS) return;
    for (const r of records) {
      for (const n of r.addedNodes) if (n.nodeType === 1 && !n.contains(over) && !over.contains(n)) shownFor.set(n, over);
    }
  }).observe(document, { childList: true, subtree: true });
  const hoverShows = (el) => {
    for (let a = el; a; a = a.parentElement) {
      const rested = shownFor.get(a);
      if (rested) return rested.isConnected ? rested : null;
    }
    return null;
  };
  window.addEventListener(
    'click',
    (e) => {
      if (free(e) || own(e)) return;
      if (!pressedFor && !onBar(e)) return;
      pressedFor = false;
      hold(e);
      if (dropped) return void (dropped = false); // a drag's release: performed as its drop
      if (e.button !== 0 || e.detail > 1) return; // a double click's second click: its dblclick says it
      const el = controlOf(e, pointed(e));
      const shows = revealedBy(el) || hoverShows(el);
      gesture({ kind: 'click', path: pathOf(el), hover: shows ? pathOf(shows) : null }, el);
    },
    true,
  );
  window.addEventListener(
    'contextmenu',
    (e) => {
      if (free(e) || own(e) || onBar(e) || bar.mode) return;
      hold(e); // neither the app's menu nor the browser's: replay's right click opens the app's
      const el = pointed(e);
      gesture({ kind: 'click', path: pathOf(el), button: 'right' }, el);
    },
    true,
  );
  window.addEventListener(
    'dblclick',
    (e) => {
      if (free(e) || own(e)) return;
      hold(e);
      const el = pointed(e);
      gesture({ kind: 'dblclick', path: pathOf(el) }, el);
    },
    true,
  );
  // a file chosen in a file input's chooser (its press passes: the chooser is the browser's): held from
  // the app, and given again by replay (`upload`), whose own input and change pass — the browser fires
  // them a moment after replay's call returns, so the next ones on that input are replay's
  let given = null;
  for (const kind of ['input', 'change']) {
    window.addEventListener(
      kind,
      (e) => {
        const el = e.composedPath()[0];
        if (!e.isTrusted || !el || el.tagName !== 'INPUT' || el.type !== 'file') return; // (a page's own: no step)
        if (el === given) return void (kind === 'change' && (given = null));
        hold(e);
        if (kind !== 'change' || !el.files || !el.files.length) return;
        given = el;
        gesture({ kind: 'upload', path: pathOf(el) }, el);
      },
      true,
    );
  }
  const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'AltGraph']);
  const FIELD_KEYS = new Set(['Enter', 'Tab', 'Escape', 'ArrowUp', 'ArrowDown']);
  // A held key is performed when the person lets it go: its keyup is theirs, held too, and only then
  // does replay's own key (keydown and keyup) pass — an app that acts on keyup hears it once, from replay.
  const keyOf = (e) => ({
    type: 'key', key: e.key, code: e.code, ctrl: e.ctrlKey, alt: e.altKey, meta: e.metaKey, shift: e.shiftKey,
  });
  // whether key ``k`` acts where ``el`` has the focus (else it types there)
  const acts = (k, el) => {
    if (el && el.tagName === 'SELECT') return false; // its keys choose: the choice is what is recorded
    if (!isField(el)) return true;
    const chord = k.ctrl || k.meta || k.alt;
    return !chord && FIELD_KEYS.has(k.key) && !(k.key === 'Enter' && multiline(el)); // else typing
  };
  const typed = (k) => k.key.length === 1 && !(k.ctrl || k.meta || k.alt); // a character: text, not a key
  const keyName = (k) => {
    const key = k.key === ' ' ? 'Space' : k.key;
    if (!(k.ctrl || k.meta || k.alt)) return key;
    const mods = [k.ctrl && 'Control', k.alt && 'Alt', k.meta && 'Meta', k.shift && 'Shift'];
    return [...mods.filter(Boolean), key.length === 1 ? key.toUpperCase() : key].join('+');
  };
  const held = (e) => !MODIFIERS.has(e.key) && acts(keyOf(e), e.composedPath()[0]);
  window.addEventListener(
    'keydown',
    (e) => {
      if (free(e) || MODIFIERS.has(e.key)) return;
      if (blocked()) {
        // made while a gesture is performed: held, and delivered after it in order (not in another field)
        hold(e);
        queuedCodes.add(e.code);
        if (!e.repeat) queue.push(keyOf(e));
        return;
      }
      if (bar.mode && e.key === 'Escape') return hold(e), setMode(bar.mode); // leaves Pick, Assert, Hover
      if (!held(e)) return;
      hold(e);
      if (e.repeat) return; // a key held down: one press
      pressed = keyOf(e);
      flush(); // the field's text before the key
    },
    true,
  );
  window.addEventListener(
    'keypress',
    (e) => {
      if (!free(e) && (queuedCodes.has(e.code) || held(e))) hold(e);
    },
    true,
  );
  window.addEventListener(
    'keyup',
    (e) => {
      if (free(e)) return;
      if (pressed && e.code === pressed.code) {
        hold(e);
        const key = pressed;
        pressed = null;
        perform({ kind: 'press', key: keyName(key), code: key.code, raw: key.key });
      } else if (queuedCodes.has(e.code)) {
        hold(e);
        queuedCodes.delete(e.code);
      } else if (held(e)) hold(e);
      drain(); // (a key let go while others waited behind it)
    },
    true,
  );
  window.addEventListener(
    'focusin',
    (e) => {
      const el = e.composedPath()[0];
      if (typing && typing.el !== el) flush();
      if (isField(el) && !(typing && typing.el === el)) typing = { el, reported: valueOf(el), touched: false };
      if (isField(el)) secret(el);
    },
    true,
  );
  // a field focused before this script ran (autofocus), or focused by a step: tracked from its first
  // edit; only the person's typing (a trusted edit) makes it a step to write
  window.addEventListener(
    'beforeinput',
    (e) => {
      const el = e.composedPath()[0];
      if (!isField(el)) return;
      if (!typing || typing.el !== el) typing = { el, reported: valueOf(el), touched: false };
      if (e.isTrusted) typing.touched = true;
    },
    true,
  );
  window.addEventListener(
    'input',
    (e) => {
      const el = e.composedPath()[0];
      if (e.isTrusted && typing && typing.el === el) typing.typed = valueOf(el);
    },
    true,
  );
  // the person's keys in the field they clicked into, and those the page answered within ANSWER_MS by a
  // change outside the field (not the bar's): a page that answers keys hears them on replay too (``type``)
  const ANSWER_MS = 200;
  let lastPressed = null;
  window.addEventListener('pointerdown', (e) => { if (e.isTrusted) lastPressed = e.composedPath()[0]; }, true);
  window.addEventListener('focusin', (e) => {
    const el = e.composedPath()[0];
    if (typing && typing.el === el) typing.clicked = !!lastPressed && within(el, lastPressed);
  }, true);
  window.addEventListener('keydown', (e) => {
    if (!e.isTrusted || !typing || e.composedPath()[0] !== typing.el || busy()) return;
    typing.keys = (typing.keys || 0) + 1;
    typing.keyAt = performance.now();
    typing.heard = false;
  }, true);
  new MutationObserver((records) => {
    if (!typing || !typing.keyAt || typing.heard || performance.now() - typing.keyAt > ANSWER_MS) return;
    const field = typing.el;
    if (records.some((r) => !within(field, r.target) && !(bar.host && within(bar.host, r.target)))) {
      typing.heard = true;
      typing.answers = (typing.answers || 0) + 1;
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
  // the page goes away while a field holds text not written yet (a typeahead that navigates by
  // itself): it is handed over now, written before the navigation it caused
  // (beforeunload: a binding called once the page is hidden is not heard any more)
  for (const kind of ['beforeunload', 'pagehide']) window.addEventListener(kind, () => flush(true), true);
  // the recording stops: the text typed in a field not left yet is handed over (written, not lost)
  rec.flushNow = () => {
    flush();
    return queue.length + (busy() ? 1 : 0) + (pressed ? 1 : 0); // what is still on its way: a stop waits for it
  };
  // the daemon performed gesture ``seq`` (and those before it): ``settled``, what the field holds now
  // is what the script says it holds; the input queued meanwhile is delivered
  rec.rearmed = (seq, settled) => {
    rec.done = Math.max(rec.done, Math.min(seq, rec.seq));
    while (expects.length && expects[0].seq <= rec.done) expects.shift();
    if (!busy() && bar.host) bar.host.style.pointerEvents = '';
    if (typing && settled) {
      typing.reported = typing.typed = valueOf(typing.el);
      typing.touched = false;
    }
    drain();
  };
  window.addEventListener(
    'focusout',
    (e) => {
      if (typing && e.composedPath()[0] === typing.el) {
        flush();
        typing = null;
      }
    },
    true,
  );
  // a select's choice: held before the app hears of it, put back, and chosen again by the daemon
  const chosen = new WeakMap(); // select → its value before the person's choice
  window.addEventListener('focusin', (e) => {
    const el = e.composedPath()[0];
    if (el && el.tagName === 'SELECT') chosen.set(el, el.value);
  }, true);
  window.addEventListener('pointerdown', (e) => {
    const el = pointed(e);
    const select = el && el.closest && el.closest('select');
    if (select && !chosen.has(select)) chosen.set(select, select.value);
  }, true);
  for (const kind of ['input', 'change']) {
    window.addEventListener(
      kind,
      (e) => {
        const el = e.composedPath()[0];
        if (free(e) || !el || el.tagName !== 'SELECT') return;
        hold(e);
        if (kind !== 'input') return;
        const option = el.selectedOptions[0];
        const label = option ? option.label || option.text : el.value;
        el.value = chosen.has(el) ? chosen.get(el) : el.value;
        gesture({ kind: 'select', path: pathOf(el), value: label }, el);
      },
      true,
    );
  }
})();
