// The recorder's hands in the page (SPEC §16): a person's input is held in the capture phase, before
// the app's handlers, and handed to the daemon, which performs it through the step pipeline. Runs in
// every frame's main world before the page's own scripts (so its window listeners come first).
//
// Held (its default prevented, the app never sees it): pointer presses and clicks, double clicks,
// keys that act (Enter, Tab, Escape, arrows in a field; any key outside one), a select's choice.
// Passed through: pointer moves (a person must see hover), keystrokes into a field (a person must
// see what they type: reported as one fill when the field is left or a held key is pressed), and
// the daemon's own input for a gesture it is about to dispatch (``pointer``, ``keys``: it is trusted input too).
(() => {
  if (window.__replayRecorder) return;
  // ``pointer``/``keys``: the daemon is about to dispatch a gesture of that kind (its own input passes)
  const rec = (window.__replayRecorder = { pointer: false, keys: false });
  // The binding is the page's to call too: what this script hands over carries the session's token,
  // which no page script can read (it lives in this closure), so a page cannot record steps for itself.
  const binding = window.__replayRecord;
  const TOKEN = '__REPLAY_TOKEN__';
  const ask = (msg) => binding({ ...msg, token: TOKEN });
  const send = (msg) => {
    try {
      if (binding) ask(msg);
    } catch (e) {
      /* the daemon is gone: nothing to hand over */
    }
  };
  const TEXTLIKE = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number']);
  const isField = (el) =>
    !!el &&
    ((el.tagName === 'INPUT' && TEXTLIKE.has((el.getAttribute('type') || '').toLowerCase())) ||
      el.tagName === 'TEXTAREA' ||
      el.isContentEditable);
  const multiline = (el) => el.tagName === 'TEXTAREA' || el.isContentEditable;
  const valueOf = (el) => (el.isContentEditable ? el.innerText : el.value);
  const secret = (el) => {
    const type = (el.getAttribute('type') || '').toLowerCase();
    const auto = (el.getAttribute('autocomplete') || '').toLowerCase();
    return type === 'password' || auto.includes('password') || auto.includes('one-time-code');
  };
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
  const hold = (e) => {
    e.preventDefault();
    e.stopImmediatePropagation();
  };
  // the daemon's own click counts one (``detail`` 1): a second click of a person's double click, made
  // while the first is being performed, is theirs — held, and told by its dblclick
  const free = (e) =>
    !e.isTrusted ||
    (e.type.startsWith('key') ? rec.keys : !!rec.pointer && (rec.pointer === 'dblclick' || e.detail <= 1));
  // a native select opens its own list and a file input its chooser: their presses go through
  const own = (e) => {
    const el = pointed(e);
    return !!el && !!el.closest && !!el.closest('select, input[type=file], input[type=color], input[type=date]');
  };

  let typing = null; // the field being typed into: {el, reported}
  const flush = () => {
    if (!typing || !typing.el.isConnected) return;
    const value = valueOf(typing.el);
    if (value === typing.reported) return;
    typing.reported = value;
    const el = typing.el;
    send({ kind: 'fill', path: pathOf(el), value, secret: secret(el), label: labelOf(el) });
  };
  rec.seq = 0; // the gestures this frame handed over to be performed
  const perform = (msg) => {
    flush();
    if (msg.kind === 'press') rec.keys = true; // until the daemon has dispatched it (``rearmed``)
    else if (msg.kind !== 'select') rec.pointer = msg.kind; // (a select is chosen by script: untrusted events)
    if (bar.host) bar.host.style.pointerEvents = 'none'; // replay's own pointer must not land on the bar
    rec.seq += 1;
    send({ ...msg, seq: rec.seq });
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
          if (what.dataset.do === 'stop') send({ kind: 'stop' });
          else setMode(what.dataset.do);
          return;
        }
        hold(e); // a mode's click: what it is about, not an action on the app
        if (kind !== 'click' || bar.mode === 'pick') return;
        const mode = bar.mode;
        setMode(mode);
        const el = pointed(e);
        if (mode === 'hover') perform({ kind: 'hover', path: pathOf(el) });
        else perform({ kind: 'assert', predicate: mode.slice('assert-'.length), path: pathOf(el) });
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
    if (free(e) || own(e) || onBar(e) || bar.mode || e.button !== 0) return;
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
    perform({ kind: 'drag', path: pathOf(held.el), to: pathOf(to) });
  }, true);
  for (const kind of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'auxclick']) {
    window.addEventListener(kind, (e) => free(e) || own(e) || hold(e), true);
  }
  // The hovered ancestor that shows ``el`` (a row's delete button): a style rule with ``:hover`` on an
  // ancestor's part of its selector that shows, hides or fades ``el`` itself. None when ``el`` shows
  // without hover (as far as the page's readable style sheets tell).
  const SHOWS = /(^|;)\s*(display|visibility|opacity)\s*:/;
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
  window.addEventListener(
    'click',
    (e) => {
      if (free(e) || own(e)) return;
      hold(e);
      if (dropped) return void (dropped = false); // a drag's release: performed as its drop
      if (e.button !== 0 || e.detail > 1) return; // a double click's second click: its dblclick says it
      const el = pointed(e);
      const shows = revealedBy(el);
      perform({ kind: 'click', path: pathOf(el), hover: shows ? pathOf(shows) : null });
    },
    true,
  );
  window.addEventListener(
    'contextmenu',
    (e) => {
      if (free(e) || own(e) || onBar(e) || bar.mode || !e.isTrusted) return;
      hold(e); // neither the app's menu nor the browser's: replay's right click opens the app's
      perform({ kind: 'click', path: pathOf(pointed(e)), button: 'right' });
    },
    true,
  );
  window.addEventListener(
    'dblclick',
    (e) => {
      if (free(e) || own(e)) return;
      hold(e);
      perform({ kind: 'dblclick', path: pathOf(pointed(e)) });
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
        if (!el || el.tagName !== 'INPUT' || el.type !== 'file') return;
        if (el === given) return void (kind === 'change' && (given = null));
        hold(e);
        if (kind !== 'change' || !el.files || !el.files.length) return;
        given = el;
        perform({ kind: 'upload', path: pathOf(el) });
      },
      true,
    );
  }
  const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'AltGraph']);
  const FIELD_KEYS = new Set(['Enter', 'Tab', 'Escape', 'ArrowUp', 'ArrowDown']);
  // A held key is performed when the person lets it go: its keyup is theirs, held too, and only then
  // does replay's own key (keydown and keyup) pass — an app that acts on keyup hears it once, from replay.
  let pressed = null; // {code, key}: the person's held key, not let go yet
  const held = (e) => {
    if (MODIFIERS.has(e.key)) return false;
    const el = e.composedPath()[0];
    if (el && el.tagName === 'SELECT') return false; // its keys choose: the choice is what is recorded
    if (!isField(el)) return true;
    const chord = e.ctrlKey || e.metaKey || e.altKey;
    return !chord && FIELD_KEYS.has(e.key) && !(e.key === 'Enter' && multiline(el)); // else typing
  };
  window.addEventListener(
    'keydown',
    (e) => {
      if (free(e)) return;
      if (bar.mode && e.key === 'Escape') return hold(e), setMode(bar.mode); // leaves Pick, Assert, Hover
      if (!held(e)) return;
      hold(e);
      if (e.repeat) return; // a key held down: one press
      const chord = e.ctrlKey || e.metaKey || e.altKey;
      let key = e.key === ' ' ? 'Space' : e.key;
      if (chord) {
        const mods = [e.ctrlKey && 'Control', e.altKey && 'Alt', e.metaKey && 'Meta', e.shiftKey && 'Shift'];
        key = [...mods.filter(Boolean), key.length === 1 ? key.toUpperCase() : key].join('+');
      }
      pressed = { code: e.code, key };
      flush(); // the field's text before the key
    },
    true,
  );
  window.addEventListener(
    'keypress',
    (e) => {
      if (!free(e) && held(e)) hold(e);
    },
    true,
  );
  window.addEventListener(
    'keyup',
    (e) => {
      if (free(e)) return;
      if (pressed && e.code === pressed.code) {
        hold(e);
        const key = pressed.key;
        pressed = null;
        perform({ kind: 'press', key });
      } else if (held(e)) hold(e);
    },
    true,
  );
  window.addEventListener(
    'focusin',
    (e) => {
      const el = e.composedPath()[0];
      if (typing && typing.el !== el) flush();
      if (isField(el)) typing = { el, reported: typing && typing.el === el ? typing.reported : valueOf(el) };
    },
    true,
  );
  // a field focused before this script ran (autofocus), or focused by a step: tracked from its first edit
  window.addEventListener(
    'beforeinput',
    (e) => {
      const el = e.composedPath()[0];
      if (isField(el) && (!typing || typing.el !== el)) typing = { el, reported: valueOf(el) };
    },
    true,
  );
  // the daemon performed a step: what the field holds now is what the script says it holds
  rec.rearmed = (seq, settled) => {
    if (seq >= rec.seq) rec.pointer = rec.keys = false; // (else a later gesture is still to be dispatched)
    if (seq >= rec.seq && bar.host) bar.host.style.pointerEvents = '';
    if (typing && settled) typing.reported = valueOf(typing.el);
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
        perform({ kind: 'select', path: pathOf(el), value: label });
      },
      true,
    );
  }
})();
