// One-round-trip capture of the UI tree (design §4). Reads the DOM, never writes it: the only
// state it keeps is an array of the captured elements on `window`, so refs can act later.
(opts) => {
  const TEST_ID_ATTRS = opts.testIdAttributes;
  // DOM ids go as they are, marked as DOM ids: which a library made up, the tree decides (tree/ids.py)
  const gen = opts.generation;
  // class tokens that read as words (ql-bold, flatpickr-next-month, search__field): letters in parts
  // joined by - or _; never a hashed or generated one (css-1q2w3e, sc-AxjAm, jsx-123: digits, or a
  // short part mixing cases) nor one that says a state the control passes through
  const WORD_CLASS = /^[a-z]+(?:(?:-{1,2}|_{1,2})[a-z]+)*$/i;
  const MIXED_PART = /(?:^|[-_])(?=[a-z]{0,2}[A-Z])[A-Za-z]{2,7}(?:$|[-_])/;
  const STATE_CLASS = /^(?:is-|has-)|^(?:active|selected|disabled|open|opened|closed|hover|focus|focused|checked|expanded|collapsed|current|show|shown|hidden|visible|in|fade|on|off)$/i;
  const MAX_CLASSES = 4;
  // a name that is the printed form of a missing value (a widget that wrote aria-label={undefined}) is no name
  const MISSING_VALUE = /^(?:null|undefined|NaN|\[object Object\])$/;
  const wordClasses = (el) => {
    const list = el.classList;
    if (!list || !list.length) return '';
    const out = [];
    for (const token of list) {
      if (token.length < 3 || token.length > 48 || !WORD_CLASS.test(token) || MIXED_PART.test(token) || STATE_CLASS.test(token)) continue;
      out.push(token);
      if (out.length === MAX_CLASSES) break;
    }
    return out.join(' ');
  };
  const MAX_TEXT = 200;
  const NAME_FROM_CONTENT = new Set(['button', 'link', 'heading', 'cell', 'columnheader', 'rowheader',
    'gridcell', 'option', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'checkbox', 'radio',
    'switch', 'treeitem', 'tooltip', 'row']);
  const INTERACTIVE = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox',
    'listbox', 'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider',
    'spinbutton', 'treeitem', 'gridcell']);
  const NOT_TEXT_INPUTS = new Set(['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'range', 'color', 'file', 'hidden']);
  const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'TITLE', 'REPLAY-BAR']);
  const FORM_TAGS = new Set(['input', 'select', 'textarea', 'button']);
  const KNOWN_ROLES = new Set(['alert', 'alertdialog', 'application', 'article', 'banner', 'blockquote',
    'button', 'caption', 'cell', 'checkbox', 'code', 'columnheader', 'combobox', 'complementary',
    'contentinfo', 'definition', 'deletion', 'dialog', 'directory', 'document', 'emphasis', 'feed',
    'figure', 'form', 'generic', 'grid', 'gridcell', 'group', 'heading', 'img', 'insertion', 'link', 'list',
    'listbox', 'listitem', 'log', 'main', 'marquee', 'math', 'meter', 'menu', 'menubar', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'navigation', 'none', 'note', 'option', 'paragraph',
    'presentation', 'progressbar', 'radio', 'radiogroup', 'region', 'row', 'rowgroup', 'rowheader',
    'scrollbar', 'search', 'searchbox', 'separator', 'slider', 'spinbutton', 'status', 'strong',
    'subscript', 'superscript', 'switch', 'tab', 'table', 'tablist', 'tabpanel', 'term', 'textbox', 'time',
    'timer', 'toolbar', 'tooltip', 'tree', 'treegrid', 'treeitem']);
  const NON_ASCII = /[^\x00-\x7f]/;
  const NOT_SPACE = /\S/;
  // NFC only where it can change something (most UI text is ASCII), and the whitespace replaced only
  // where there is some to collapse (most strings are normalized already: a test copies nothing)
  const UNNORMALIZED = /[^\S ]|\s\s|^\s|\s$/;
  const norm = (s) => {
    if (!s) return '';
    const t = UNNORMALIZED.test(s) ? s.replace(/\s+/g, ' ').trim() : s;
    return NON_ASCII.test(t) ? t.normalize('NFC') : t;
  };
  // one computed style per element and capture: the walk and the accessible-name walks share it
  const styles = new Map();
  const styleOf = (el) => {
    let st = styles.get(el);
    if (st === undefined) { st = el.ownerDocument.defaultView.getComputedStyle(el); styles.set(el, st); }
    return st;
  };
  const topWin = window;
  const vw = topWin.innerWidth, vh = topWin.innerHeight;

  const hasName = (el) => !!(norm(el.getAttribute('aria-label')) || el.getAttribute('aria-labelledby') || norm(el.getAttribute('title')));
  const inSectioning = (el) => !!el.parentElement && !!el.parentElement.closest('article,aside,main,nav,section');

  function implicitRole(el) {
    const tag = el.tagName;
    switch (tag) {
      case 'A': case 'AREA': return el.hasAttribute('href') ? 'link' : null;
      case 'BUTTON': return 'button';
      case 'INPUT': {
        const t = (el.getAttribute('type') || 'text').toLowerCase();
        if (t === 'hidden') return null;
        if (['button', 'submit', 'reset', 'image', 'file'].includes(t)) return 'button'; // (a file input: its chooser's button)
        if (t === 'checkbox') return 'checkbox';
        if (t === 'radio') return 'radio';
        if (t === 'range') return 'slider';
        if (t === 'number') return 'spinbutton';
        if (el.hasAttribute('list')) return 'combobox';
        if (t === 'search') return 'searchbox';
        if (['text', 'email', 'tel', 'url', 'password', ''].includes(t)) return 'textbox';
        return 'textbox';
      }
      case 'SELECT': return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
      case 'TEXTAREA': return 'textbox';
      case 'OPTION': return 'option';
      case 'IMG': return el.getAttribute('alt') === '' && !hasName(el) ? 'presentation' : 'img';
      case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6': return 'heading';
      case 'UL': case 'OL': case 'MENU': return 'list';
      case 'LI': return 'listitem';
      case 'NAV': return 'navigation';
      case 'MAIN': return 'main';
      case 'ASIDE': return 'complementary';
      case 'ARTICLE': return 'article';
      case 'HEADER': return inSectioning(el) ? null : 'banner';
      case 'FOOTER': return inSectioning(el) ? null : 'contentinfo';
      case 'SECTION': return hasName(el) ? 'region' : null;
      case 'FORM': return hasName(el) ? 'form' : null;
      case 'DIALOG': return 'dialog';
      case 'TABLE': return 'table';
      case 'TR': return 'row';
      case 'TD': return 'cell';
      case 'TH': return 'columnheader';
      case 'THEAD': case 'TBODY': case 'TFOOT': return 'rowgroup';
      case 'FIELDSET': case 'DETAILS': return 'group';
      case 'P': return 'paragraph';
      case 'HR': return 'separator';
      case 'PROGRESS': return 'progressbar';
      case 'METER': return 'meter';
      case 'OUTPUT': return 'status';
      case 'FIGURE': return 'figure';
      case 'BLOCKQUOTE': return 'blockquote';
      case 'SEARCH': return 'search';
      default: return null;
    }
  }

  function roleOf(el, bare) {
    const attr = bare ? null : el.getAttribute('role');  // (most elements have none: no split, no array)
    const explicit = attr ? attr.trim().split(/\s+/).find((r) => KNOWN_ROLES.has(r)) : undefined;
    if (explicit) return (explicit === 'none' || explicit === 'presentation') ? null : explicit;
    const r = implicitRole(el);
    return r === 'presentation' ? null : r;
  }

  function isHiddenStyle(el, display, bare) {
    return display === 'none' || (!bare && (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')));
  }

  // The children as rendered (the flat tree): a shadow host's are its shadow root's, and a <slot>
  // stands for the nodes assigned to it (else its fallback content); a host's light children show
  // only where a slot puts them. Most elements have neither: their childNodes, as they are.
  function kidsOf(node, flat) {
    const kids = node.shadowRoot ? node.shadowRoot.childNodes : node.childNodes;
    if (!(flat || inShadow(node))) return kids;
    const out = [];
    for (const c of kids) {
      if (c.nodeType === 1 && c.tagName === 'SLOT') out.push(...c.assignedNodes({ flatten: true }));
      else out.push(c);
    }
    return out;
  }
  // whether `node`'s children may hold a slot: it hosts a shadow root or sits in one
  const inShadow = (node) => !!node.shadowRoot || node.getRootNode() !== node.ownerDocument;

  // Text of a subtree as an accessible name from content (simplified accname).
  function textFrom(node, depth) {
    if (depth > 20) return '';
    let out = '';
    for (const c of kidsOf(node)) {
      if (c.nodeType === 3) { out += c.data; continue; }
      if (c.nodeType !== 1 || SKIP_TAGS.has(c.tagName)) continue;
      if (c.getAttribute('aria-hidden') === 'true') continue;
      const st = styleOf(c);
      if (st.display === 'none' || st.visibility === 'hidden') continue;
      const al = norm(c.getAttribute('aria-label'));
      if (al) { out += ' ' + al + ' '; continue; }
      if (c.tagName === 'IMG') { out += ' ' + (c.getAttribute('alt') || '') + ' '; continue; }
      if (c.tagName === 'INPUT' || c.tagName === 'TEXTAREA' || c.tagName === 'SELECT') continue;
      const block = st.display !== 'inline';
      out += (block ? ' ' : '') + textFrom(c, depth + 1) + (block ? ' ' : '');
    }
    return out;
  }

  function byIds(el, attr) {
    const value = el.getAttribute(attr);
    if (!value) return [];
    const ids = value.trim().split(/\s+/).filter(Boolean);
    const root = el.getRootNode();
    return ids.map((id) => root.getElementById ? root.getElementById(id) : el.ownerDocument.getElementById(id)).filter(Boolean);
  }

  // `bare`: the element has no attribute at all (most do not), so none is read
  function labelOf(el, role, bare) {
    if (!bare) {
      const lb = byIds(el, 'aria-labelledby');
      if (lb.length) {
        const t = norm(lb.map((e) => norm(e.getAttribute('aria-label')) || textFrom(e, 0)).join(' '));
        if (t) return t;
      }
      const al = norm(el.getAttribute('aria-label'));
      if (al && !MISSING_VALUE.test(al)) return al;
    }
    const tag = el.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'METER' || tag === 'PROGRESS' || tag === 'OUTPUT') {
      const t = bare ? '' : (el.getAttribute('type') || '').toLowerCase();
      if (tag === 'INPUT' && ['button', 'submit', 'reset'].includes(t)) {
        const v = norm(el.value);
        if (v) return v;
        if (t === 'submit') return 'Submit';
        if (t === 'reset') return 'Reset';
      }
      if (tag === 'INPUT' && t === 'image') { const a = norm(el.getAttribute('alt')); if (a) return a; }
      if (el.labels && el.labels.length) {
        const t2 = norm(Array.from(el.labels).map((l) => textFrom(l, 0)).join(' '));
        if (t2) return t2;
      }
    }
    if (tag === 'IMG' || tag === 'AREA') { const a = norm(el.getAttribute('alt')); if (a) return a; }
    if (tag === 'FIELDSET') { const lg = el.querySelector(':scope > legend'); if (lg) { const t = norm(textFrom(lg, 0)); if (t) return t; } }
    if (tag === 'TABLE') { const c = el.querySelector(':scope > caption'); if (c) { const t = norm(textFrom(c, 0)); if (t) return t; } }
    if (tag === 'FIGURE') { const c = el.querySelector(':scope > figcaption'); if (c) { const t = norm(textFrom(c, 0)); if (t) return t; } }
    if (role && NAME_FROM_CONTENT.has(role)) return null;  // from content: the walk computes it below
    return bare ? '' : labelAfterContent(el);
  }

  function labelAfterContent(el) {
    const title = norm(el.getAttribute('title'));
    if (title) return title;
    return norm(el.getAttribute('placeholder'));
  }

  let idFromDom = false;  // whether testIdOf's last answer is a DOM id (not a test id attribute)
  function testIdOf(el) {
    idFromDom = false;
    for (const a of TEST_ID_ATTRS) { const v = el.getAttribute(a); if (v) return v; }
    idFromDom = !!el.id;
    return idFromDom ? el.id : '';
  }

  // whether the element has text of its own (a text child that is not only whitespace)
  function hasOwnText(el) {
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3 && NOT_SPACE.test(c.data)) return true;
    return false;
  }

  const nodes = [];
  const elements = [];
  let frameCount = 0;
  const probes = [];  // (node index, x, y) of each node to hit-test: all together after the walk
  // per walked frame (fid - 1): its document's URL and the [first, end) of its nodes, which the
  // driver uses to act in the right frame without asking every frame for the node
  const frames = [];
  const F_VISIBLE = 1, F_ENABLED = 2, F_EDITABLE = 4, F_CHECKED = 8, F_SELECTED = 16, F_FOCUSED = 32,
    F_HITTABLE = 64, F_SCROLLABLE = 128, F_ACTIONABLE = 256, F_DOM_ID = 512, F_OVERLAY = 1024, F_EXPANDED = 2048,
    F_THROUGH = 4096;

  // a layer on top: fixed, or absolute with a z-index, over the viewport's centre (design §5 "Overlays")
  // (its box, read once: the walk keeps it for the node)
  let overlayBox = null;
  function isOverlay(el, st) {
    overlayBox = null;
    const pos = st.position;
    if (pos !== 'fixed' && !(pos === 'absolute' && st.zIndex !== 'auto')) return false;
    if (el === document.body || el === document.documentElement) return false;
    const r = overlayBox = el.getBoundingClientRect();
    return r.left <= vw / 2 && r.right >= vw / 2 && r.top <= vh / 2 && r.bottom >= vh / 2;
  }

  function deepActive(doc) {
    let a = doc.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }

  function scrollableStyle(el, st) {
    const oy = st.overflowY, ox = st.overflowX;  // (each read of a computed style crosses into the engine)
    return ((oy === 'auto' || oy === 'scroll') && el.scrollHeight > el.clientHeight + 1) ||
      ((ox === 'auto' || ox === 'scroll') && el.scrollWidth > el.clientWidth + 1);
  }

  // Returns the rendered text of the subtree (hidden parts excluded), capped as it bubbles up, and
  // leaves in `nameOut` what the subtree adds to an ancestor's accessible name from content (the
  // rules of textFrom, computed in the same walk instead of walking each subtree again).
  let nameOut = '';
  // `shallow`: the element's own node only, not its subtree (a targeted view's ancestors: no text)
  function visit(el, parent, frame, ox, oy, active, parentCursor, shallow) {
    nameOut = '';
    const tagName = el.tagName;
    if (SKIP_TAGS.has(tagName)) return '';
    const st = styleOf(el);
    const display = st.display;
    const bare = !el.hasAttributes();
    if (isHiddenStyle(el, display, bare)) return '';
    const visibility = st.visibility, cursor = st.cursor;
    const role = roleOf(el, bare);
    let label = labelOf(el, role, bare);
    const fromContent = label === null;
    if (fromContent) label = '';
    const id = bare ? '' : testIdOf(el);
    const domId = !bare && idFromDom;
    let contentEditable;  // el.isContentEditable, read at most once (it consults the style)
    // an editing host (a rich-text field) is focusable, though Chromium gives it tabIndex -1
    const host = !bare && el.hasAttribute('contenteditable') && (contentEditable = el.isContentEditable);
    const focusable = host || (el.tabIndex >= 0 && ((!bare && el.hasAttribute('tabindex')) || (contentEditable = el.isContentEditable)));
    const ownPointer = cursor === 'pointer' && parentCursor !== 'pointer';
    const clickable = ownPointer || (!bare && el.hasAttribute('onclick'));
    // a positioned layer over the page's centre (a modal of plain divs): a container for what it holds
    const overlay = !bare && isOverlay(el, st);
    const box = bare ? null : overlayBox;
    const keep = fromContent || !!role || !!label || !!id || focusable || clickable || overlay || tagName === 'IFRAME' || hasOwnText(el);
    let index = parent;
    if (keep) {
      const r = box || el.getBoundingClientRect();
      const x = r.left + ox, y = r.top + oy, w = r.width, h = r.height;
      const visible = w > 0 && h > 0 && visibility !== 'hidden' && visibility !== 'collapse';
      const enabled = !(el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true');
      const tag = tagName.toLowerCase();
      const type = (el.getAttribute('type') || '').toLowerCase();
      if (contentEditable === undefined) contentEditable = el.isContentEditable;
      const editable = (contentEditable || ((tag === 'input' && !NOT_TEXT_INPUTS.has(type)) || tag === 'textarea') && !el.readOnly) && enabled;
      const checked = ((tag === 'input' && (type === 'checkbox' || type === 'radio')) ? el.checked : el.getAttribute('aria-checked') === 'true');
      const selected = tag === 'option' ? el.selected : el.getAttribute('aria-selected') === 'true';
      const actionable = (!!role && INTERACTIVE.has(role)) || focusable || clickable;
      const cx = x + w / 2, cy = y + h / 2;
      const probe = visible && enabled && cx >= 0 && cy >= 0 && cx < vw && cy < vh;  // hit-tested after the walk
      const scrollable = scrollableStyle(el, st);
      let value = null;
      if (tag === 'input' || tag === 'textarea' || tag === 'select') {
        value = type === 'password' ? (el.value ? '•••' : '') : el.value;
      } else if (role === 'slider' || role === 'spinbutton') {  // an ARIA range widget: the value it says
        value = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
      }
      let flags = 0;
      if (visible) flags |= F_VISIBLE;
      if (enabled) flags |= F_ENABLED;
      if (editable) flags |= F_EDITABLE;
      if (checked) flags |= F_CHECKED;
      if (selected) flags |= F_SELECTED;
      if (el === active) flags |= F_FOCUSED;
      if (scrollable) flags |= F_SCROLLABLE;
      if (actionable) flags |= F_ACTIONABLE;
      if (domId) flags |= F_DOM_ID;
      if (overlay) flags |= F_OVERLAY;
      // what it opens is open: aria-expanded, a <details>' summary (an accordion's header, a tree's row)
      if (!bare && (el.getAttribute('aria-expanded') === 'true' || (tag === 'summary' && el.parentElement && el.parentElement.open))) flags |= F_EXPANDED;
      index = nodes.length;
      nodes.push([parent, role || 'generic', label, id, value, '', el.getAttribute('placeholder') || '', tag,
        el.getAttribute('href'), Math.round(x * 100) / 100, Math.round(y * 100) / 100, Math.round(w * 100) / 100,
        Math.round(h * 100) / 100, flags, frame,
        // a form control's name attribute and an input's type: secondary signals for suggestions (design §5)
        FORM_TAGS.has(tag) ? (el.getAttribute('name') || '') : '', tag === 'input' ? type : '',
        // a control's word-like class tokens: what may single out one with no name (design §5 item 6)
        actionable && !bare ? wordClasses(el) : '']);
      elements.push(el);
      if (probe) probes.push(index, r.left + w / 2, r.top + h / 2);
    }
    let text = '';
    let name = '';
    if (shallow) {
      // its text and name stay empty: only an element whose label comes from them is walked whole
    } else if (tagName === 'IFRAME') {
      let doc = null;
      try { doc = el.contentDocument; } catch (e) { doc = null; }
      if (doc && doc.documentElement) {
        const fr = el.getBoundingClientRect();
        frameCount += 1;
        const fid = frameCount;
        const body = doc.body || doc.documentElement;
        const range = [doc.location ? doc.location.href : '', nodes.length, 0];
        frames.push(range);
        visit_children(body, index, fid, ox + fr.left + el.clientLeft, oy + fr.top + el.clientTop, deepActive(doc), '');
        range[2] = nodes.length;
      }
    } else {
      text = visit_children(el, index, frame, ox, oy, active, cursor);
      name = nameOut;
    }
    if (keep && index !== parent) {
      const t = tagName;
      nodes[index][5] = (t === 'INPUT' || t === 'SELECT' || t === 'TEXTAREA') ? '' : norm(text).slice(0, MAX_TEXT);
      if (fromContent) nodes[index][2] = norm(name) || labelAfterContent(el);
    }
    // what this element adds to an ancestor's name from content (textFrom's rules)
    const tag = tagName;
    if (visibility === 'hidden') nameOut = '';
    else {
      const al = norm(el.getAttribute('aria-label'));
      if (al && !MISSING_VALUE.test(al)) nameOut = ' ' + al + ' ';
      else if (tag === 'IMG') nameOut = ' ' + (el.getAttribute('alt') || '') + ' ';
      else if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || tag === 'IFRAME') nameOut = '';
      else nameOut = display !== 'inline' ? ' ' + name + ' ' : name;
    }
    if (visibility === 'hidden') return '';
    return display === 'inline' ? text : ' ' + text + ' ';
  }

  // The rendered text of the children in the flat tree (kidsOf); `nameOut` gets their name from
  // content, capped like the text. `shadowDepth` says whether the walk is inside a shadow root (or in
  // light nodes slotted there, which only costs them kidsOf) without asking each element its root.
  let shadowDepth = 0;
  const shadowRoots = [];  // every shadow root walked (their animations are not the document's)
  function visit_children(el, parent, frame, ox, oy, active, cursor) {
    let text = '';
    let name = '';
    const host = !!el.shadowRoot;
    const flat = host || shadowDepth > 0;
    if (host) { shadowDepth += 1; shadowRoots.push(el.shadowRoot); }
    for (let i = 0, kids = flat ? kidsOf(el, true) : null, c = flat ? kids[0] : el.firstChild; c;
      c = flat ? kids[++i] : c.nextSibling) {
      if (c.nodeType === 3) { text += c.data; name += c.data; }
      else if (c.nodeType === 1) { text += visit(c, parent, frame, ox, oy, active, cursor); name += nameOut; }
      if (text.length > MAX_TEXT * 8) text = text.slice(0, MAX_TEXT * 8);
      if (name.length > MAX_TEXT * 8) name = name.slice(0, MAX_TEXT * 8);
    }
    if (host) shadowDepth -= 1;
    nameOut = name;
    return text;
  }

  // ---- The targeted view (design §13): the nodes a verified step's selector can match, each with
  // its whole subtree, and their ancestors (own fields only) — the same nodes, fields and order as
  // the full capture's, without walking the rest of the page. The page is not narrowed by what the
  // selector says exactly (Python decides that on the view): only by what can be told without doubt
  // (the role's elements, a test id's attribute, an ASCII equality), so every node the selector can
  // match in the full capture is in the view. Returns false where that cannot be promised (shadow
  // roots, a link with neither role nor id): the caller takes the full capture.
  const ROLE_TAGS = {
    link: 'a[href],area[href]', button: 'button,input', checkbox: 'input', radio: 'input', slider: 'input',
    spinbutton: 'input', searchbox: 'input', textbox: 'input,textarea', combobox: 'input,select',
    listbox: 'select', option: 'option', img: 'img', heading: 'h1,h2,h3,h4,h5,h6', list: 'ul,ol,menu',
    listitem: 'li', navigation: 'nav', main: 'main', complementary: 'aside', article: 'article',
    banner: 'header', contentinfo: 'footer', region: 'section', form: 'form', dialog: 'dialog',
    table: 'table', row: 'tr', cell: 'td', columnheader: 'th', rowgroup: 'thead,tbody,tfoot',
    group: 'fieldset,details', paragraph: 'p', separator: 'hr', progressbar: 'progress', meter: 'meter',
    status: 'output', figure: 'figure', blockquote: 'blockquote', search: 'search',
  };
  const PLAIN = /^[\x20-\x7e]*$/;  // printable ASCII: norm and case-folding agree with Python's here
  const fold = (s) => norm(s).toLowerCase();

  function cssFor(terms) {
    const among = terms.find((t) => t.key === 'role' && t.op === 'in' && Array.isArray(t.value));
    if (among) {  // any of several roles (an effect check's overlays): one scan, not one a role
      if (!among.value.every((r) => typeof r === 'string' && r !== 'generic' && PLAIN.test(r))) return null;
      return [...among.value.map((r) => ROLE_TAGS[r.toLowerCase()]).filter(Boolean), '[role]'].join(',');
    }
    const role = terms.find((t) => t.key === 'role' && t.op === '=' && typeof t.value === 'string');
    if (role) {
      const r = role.value.toLowerCase();
      if (r === 'generic' || !PLAIN.test(r)) return null;
      return ROLE_TAGS[r] ? ROLE_TAGS[r] + ',[role]' : '[role]';
    }
    const id = terms.find((t) => t.key === 'id' && t.op === '=' && typeof t.value === 'string');
    if (id && PLAIN.test(id.value) && id.value) {
      const v = JSON.stringify(norm(id.value));
      return [...TEST_ID_ATTRS, 'id'].map((a) => '[' + a + '=' + v + ' i]').join(',');
    }
    return null;
  }

  const ROW_FIELD = { label: 2, id: 3, value: 4, text: 5, placeholder: 6, tag: 7, href: 8 };
  // whether a candidate's node may match the terms: false only when a term surely fails
  function mayMatch(row, terms) {
    for (const t of terms) {
      if (t.op !== '=' || typeof t.value !== 'string' || !PLAIN.test(t.value)) continue;
      if (t.key === 'role') { if ((row[1] || 'generic') !== t.value.toLowerCase()) return false; continue; }
      const have = t.key === 'has-text' ? row[5] : (ROW_FIELD[t.key] !== undefined ? row[ROW_FIELD[t.key]] : undefined);
      if (have === undefined) continue;  // not known (yet)
      if (t.key === 'value' && have === null) return false;  // no value: never matches
      const h = have === null ? '' : String(have);
      if (!PLAIN.test(h)) continue;
      if (t.key === 'has-text') { if (!fold(h).includes(fold(t.value))) return false; }
      else if ((!h && t.key !== 'value') || fold(h) !== fold(t.value)) return false;  // (an empty field is absent)
    }
    return true;
  }

  // Where candidates are looked for: the top document, every same-origin iframe's document and every
  // shadow root in them (each root's `querySelectorAll` sees its own tree only).
  const bodies = new Map();  // document -> the element the walk starts under (body, or the root element)
  function rootsOf(top) {
    const roots = [top];
    bodies.set(top, top.body);
    for (let i = 0; i < roots.length; i++) {
      const root = roots[i];
      // every element once, in C as far as it goes (a TreeWalker beats iterating a collection in JS)
      const walker = (root.nodeType === 9 ? root : root.ownerDocument).createTreeWalker(root, 1);
      for (let e = walker.nextNode(); e; e = walker.nextNode()) if (e.shadowRoot) roots.push(e.shadowRoot);
      for (const f of root.querySelectorAll('iframe')) {
        let d = null;
        try { d = f.contentDocument; } catch (x) { d = null; }
        if (d && d.documentElement && !bodies.has(d)) { bodies.set(d, d.body || d.documentElement); roots.push(d); }
      }
    }
    return roots;
  }

  // The element the walk reaches `a` from (kidsOf's flat tree: a shadow root's children hang under its
  // host, a slotted node under its slot's parent, slots themselves are never visited); null when the
  // walk never reaches `a`; undefined where this cannot be told simply (a slot's fallback content):
  // the view is then not promised.
  function walkParent(a) {
    let s = a.assignedSlot;
    if (s) {
      while (s.assignedSlot) s = s.assignedSlot;  // a slot slotted on: flattened into the last one's place
      const sp = s.parentNode;
      return sp && sp.nodeType === 11 ? sp.host : sp;
    }
    const p = a.parentNode;
    if (!p) return null;
    if (p.nodeType === 11) return p.host || null;  // a shadow root's child (a fragment's: not in the page)
    if (p.nodeType !== 1) return null;
    if (p.shadowRoot) return null;  // a host's light child that no slot shows
    if (p.tagName === 'SLOT' && p.getRootNode().nodeType === 11) return undefined;  // fallback content
    return p;
  }

  // The element's chain from the top document down to it (crossing shadow roots and iframes), null
  // when the walk never reaches it (hidden, skipped, outside the body, a frame it does not enter),
  // undefined when that cannot be told.
  function chainOf(el) {
    const out = [];
    let a = el;
    for (;;) {
      const body = bodies.get(a.ownerDocument);
      if (body === undefined || body === null) return null;
      while (a !== body) {
        if (SKIP_TAGS.has(a.tagName)) return null;
        if (a.tagName === 'SLOT' && a.getRootNode().nodeType === 11) return null;  // replaced by what it shows
        if (isHiddenStyle(a, styleOf(a).display, !a.hasAttributes())) return null;
        out.push(a);
        const up = walkParent(a);
        if (up === undefined) return undefined;
        if (up === null) return null;
        a = up;
      }
      if (a.ownerDocument === document) break;
      const frameEl = a.ownerDocument.defaultView.frameElement;
      if (!frameEl || frameEl.tagName !== 'IFRAME') return null;
      a = frameEl;
    }
    return out.reverse();
  }

  // how many shadow hosts the walk passed on its way to chain[k] (visit_children's shadowDepth there)
  const hostsAbove = (chain, k) => { let n = 0; for (let i = 0; i < k; i++) if (chain[i].shadowRoot) n++; return n; };

  const before = (x, y) => {  // walk order of two chains (neither a prefix of the other)
    let i = 0;
    while (x[i] === y[i]) i++;
    const a = x[i], b = y[i];
    const parent = i > 0 ? x[i - 1] : null;
    if (parent && parent.tagName !== 'IFRAME' && (parent.shadowRoot || hostsAbove(x, i) > 0)) {
      const kids = Array.from(kidsOf(parent, true));  // the flat tree's order, slotted nodes where their slot is
      return kids.indexOf(a) < kids.indexOf(b) ? -1 : 1;
    }
    return (a.compareDocumentPosition(b) & 4) ? -1 : 1;  // DOCUMENT_POSITION_FOLLOWING
  };

  // whether an element's text may hold what a `has-text` term asks: its light DOM's characters
  // (spaces aside, as `textContent` runs them together) hold every character its rendered text can, in
  // order — not side by side: a hidden element's text may stand between two (accessible-autocomplete's
  // hint between "Select your country" and "Save") — but only where no shadow root adds text
  // `textContent` does not see (`light`: none in the page)
  function textMayHold(el, terms, light) {
    if (!light) return true;
    for (const t of terms) {
      if (t.key !== 'has-text' || t.op !== '=' || typeof t.value !== 'string' || !PLAIN.test(t.value)) continue;
      const want = fold(t.value).replace(/\s+/g, '');
      const have = el.textContent.toLowerCase().replace(/\s+/g, '');
      let at = 0;
      for (const ch of want) {
        at = have.indexOf(ch, at) + 1;
        if (at === 0) return false;
      }
    }
    return true;
  }

  function takeView(spec) {
    const roots = rootsOf(document);
    const light = roots.every((r) => r.nodeType === 9);  // documents only: no shadow root anywhere
    const full = new Set(spec.fullRoles || []);
    const picked = [];
    const taken = new Set();
    // links that look at the same elements are tried in one scan of them (a row's anchor, an effect's
    // rows and the next step's rows: one pass over a long list, not three)
    const groups = new Map();
    for (const terms of spec.links) {
      const css = cssFor(terms);
      if (css === null) return false;
      const role = terms.find((t) => t.key === 'role' && t.op === '=' && typeof t.value === 'string');
      const among = terms.find((t) => t.key === 'role' && t.op === 'in' && Array.isArray(t.value));
      const link = { terms, r: role ? role.value.toLowerCase() : null,
        roles: among ? new Set(among.value.map((x) => String(x).toLowerCase())) : null };
      if (!groups.has(css)) groups.set(css, []);
      groups.get(css).push(link);
    }
    for (const [css, links] of groups) {
      for (const root of roots) {
        for (const el of root.querySelectorAll(css)) {
          if (taken.has(el)) continue;
          const bare = !el.hasAttributes();
          const own = roleOf(el, bare);
          let early = null, chain = null, row = null;
          for (const { terms, r, roles } of links) {
            if (r !== null && own !== r) continue;
            if (roles !== null && !roles.has(own)) continue;
            if (!textMayHold(el, terms, light)) continue;
            // what its own attributes tell, before walking its subtree (a big region is rejected at once)
            if (early === null) {
              const label = labelOf(el, own, bare);
              early = [0, own, label === null ? undefined : label, bare ? '' : testIdOf(el), undefined, undefined,
                bare ? '' : (el.getAttribute('placeholder') || ''), el.tagName.toLowerCase(), bare ? null : el.getAttribute('href')];
            }
            if (!mayMatch(early, terms)) continue;
            if (chain === null) {
              chain = chainOf(el);
              if (chain === undefined) return false;
              if (chain === null) break;
              // its own node, walked dry (then dropped) to test what can be tested
              const at = nodes.length, kept = elements.length, probed = probes.length, fr = frames.length, fc = frameCount;
              shadowDepth = hostsAbove(chain, chain.length - 1);
              visit(el, 0, 0, 0, 0, null, '', false);
              shadowDepth = 0;
              row = nodes[at];
              nodes.length = at; elements.length = kept; probes.length = probed; frames.length = fr; frameCount = fc;
            }
            if (row !== undefined && mayMatch(row, terms)) { picked.push(chain); taken.add(el); break; }
          }
        }
      }
    }
    // what is walked whole: each pick, or its outermost ancestor whose own fields need its subtree (a
    // name from content, an anchor's or a scope's role: their text and key text come from it)
    const wholes = [];
    for (const chain of picked) {
      let cut = chain.length;
      for (let i = chain.length - 2; i >= 0; i--) {
        const a = chain[i];
        const r = roleOf(a, !a.hasAttributes());
        if (r ? NAME_FROM_CONTENT.has(r) || full.has(r) : full.has('generic')) cut = i + 1;
      }
      wholes.push(chain.slice(0, cut));
    }
    wholes.sort(before_or_prefix);
    // emit in walk order: each whole's missing ancestors (own node only), then the whole subtree
    const open = [];  // [element, node index its children hang under, frame, ox, oy, active, children's cursor]
    const top = { parent: 0, frame: 0, ox: 0, oy: 0, active: deepActive(document), cursor: document.body ? styleOf(document.body).cursor : '' };
    let last = null;
    for (const chain of wholes) {
      if (last && chain.length >= last.length && last.every((e, i) => chain[i] === e)) continue;  // walked with the last
      while (open.length && (open.length > chain.length - 1 || open[open.length - 1].el !== chain[open.length - 1])) {
        closeOne(open);
      }
      for (let i = open.length; i < chain.length; i++) {
        const el = chain[i];
        const ctx = open.length ? open[open.length - 1] : top;
        const at = nodes.length;
        shadowDepth = hostsAbove(chain, i);
        visit(el, ctx.parent, ctx.frame, ctx.ox, ctx.oy, ctx.active, ctx.cursor, i < chain.length - 1);
        shadowDepth = 0;
        if (i === chain.length - 1) break;
        const index = nodes.length > at ? at : ctx.parent;
        if (el.tagName === 'IFRAME') {
          const d = el.contentDocument;
          const fr = el.getBoundingClientRect();
          frameCount += 1;
          const range = [d.location ? d.location.href : '', nodes.length, 0];
          frames.push(range);
          open.push({ el, parent: index, frame: frameCount, ox: ctx.ox + fr.left + el.clientLeft,
            oy: ctx.oy + fr.top + el.clientTop, active: deepActive(d), cursor: '', range });
        } else {
          open.push({ el, parent: index, frame: ctx.frame, ox: ctx.ox, oy: ctx.oy, active: ctx.active, cursor: styleOf(el).cursor });
        }
      }
      last = chain;
    }
    while (open.length) closeOne(open);
    return true;
  }

  function closeOne(open) {
    const o = open.pop();
    if (o.range) o.range[2] = nodes.length;
  }

  // walk order, a chain before the chains it is a prefix of
  function before_or_prefix(x, y) {
    const n = Math.min(x.length, y.length);
    for (let i = 0; i < n; i++) if (x[i] !== y[i]) return before(x, y);
    return x.length - y.length;
  }

  const doc = document;
  const se = doc.scrollingElement || doc.documentElement;
  let rootFlags = 1 | 2;
  // a document being replaced may have no root element yet (a navigation's first instant): no tree, no flag
  if (se && (se.scrollHeight > se.clientHeight + 1 || se.scrollWidth > se.clientWidth + 1)) rootFlags |= 128;
  nodes.push([-1, 'document', norm(doc.title), '', null, '', '', 'html', null, 0, 0, vw, vh, rootFlags, 0]);
  elements.push(doc.documentElement);
  if (opts.view) {
    if (!takeView(opts.view)) return null;
  } else if (doc.body) visit_children(doc.body, 0, 0, 0, 0, deepActive(doc), styleOf(doc.body).cursor);

  // inside `el` as the page is drawn (the flat tree): light DOM a slot of el's shows counts as el's
  function drawnInside(n, el) {
    for (; n; n = n.assignedSlot || n.parentNode || n.host) if (n === el) return true;
    return false;
  }
  // the topmost element at (x, y) is el or drawn inside it. A shadow root's elementFromPoint answers its
  // host for the host's own slotted text: then the topmost of the root's own elements there decides.
  // the wrapper of el's own that takes the pointer for it (design §5 composed controls): the element at
  // el's centre is an ancestor of it (el takes no pointer events there) that is no control itself and
  // holds no other one — a segment button's host over its inner tab, a select's label over its button
  const OTHER = 'input, button, select, textarea, a[href], [role=button], [role=link], [role=tab], [role=switch], '
    + '[role=checkbox], [role=radio], [role=menuitem], [role=option], [role=combobox], [tabindex]';
  function ownWrapper(hit, el) {
    if (INTERACTIVE.has(roleOf(hit))) return false;
    if (!drawnInside(el, hit)) return ownEditor(hit, el);
    const others = (n) => [...n.querySelectorAll(OTHER)].some((c) => c !== el && !drawnInside(c, el) && !drawnInside(el, c));
    return !others(hit) && !(hit.shadowRoot && others(hit.shadowRoot));
  }
  // an editor's own input under what the editor draws (CodeMirror 5's textarea under its lines): the
  // component both sit in, below the body, holds no other control — a person's click lands in the editor
  const CONTROLS = 'input, button, select, textarea, a[href], [role=button], [role=link], [role=switch], '
    + '[role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [contenteditable=true], [contenteditable=""]';
  function ownEditor(hit, el) {
    if (!el.matches('textarea, input, [contenteditable=true], [contenteditable=""]')) return false;
    let common = el.parentElement;
    while (common && !common.contains(hit)) common = common.parentElement;
    if (!common || common === el.ownerDocument.body || common === el.ownerDocument.documentElement) return false;
    return ![...common.querySelectorAll(CONTROLS)].some((c) => c !== el);
  }
  // 0: not on top; F_HITTABLE: the topmost element at (x, y) is el or drawn inside it; with F_THROUGH: its
  // own wrapper is (a person's click lands there). A shadow root's elementFromPoint answers its host for
  // the host's own slotted text: then the topmost of the root's own elements there decides.
  function onTop(el, x, y) {
    const root = el.getRootNode();
    const hit = (root.elementFromPoint ? root : el.ownerDocument).elementFromPoint(x, y);
    if (!hit) return 0;
    if (hit === el || el.contains(hit) || (el.shadowRoot && el.shadowRoot.contains(hit)) || drawnInside(hit, el)) return F_HITTABLE;
    if (root.host && hit.contains(root.host)) {
      const own = root.elementsFromPoint(x, y).find((n) => n.getRootNode() === root);
      if (own && drawnInside(own, el)) return F_HITTABLE;
    }
    return ownWrapper(hit, el) ? F_HITTABLE | F_THROUGH : 0;
  }

  // hittable: the topmost element at the centre is the node or inside it. One batch after the walk,
  // not one between its reads: ~10 % of a small page's capture.
  for (let p = 0; p < probes.length; p += 3) nodes[probes[p]][13] |= onTop(elements[probes[p]], probes[p + 1], probes[p + 2]);
  const store = (window.__replayCapture = window.__replayCapture || { gens: {} });
  store.gens[gen] = elements;
  const keeps = [].concat(opts.keep ?? []);  // generations kept actable beyond the recent few
  for (const g of Object.keys(store.gens)) if (Number(g) < gen - 4 && !keeps.includes(Number(g))) delete store.gens[g];
  // The tree crosses the protocol as one XML string (lxml parses it in C): far faster than a
  // structured value of thousands of rows. Attributes use single quotes so the protocol's JSON
  // escapes little. The text returned is a line of JSON (generation, url, title, viewport, frames),
  // a newline, then the XML: not the XML inside JSON, which stringify and parse would copy again.
  const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
  const CTRL = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g;
  const SPECIAL = /[&<'\x00-\x1f\ud800-\udfff\ufffe\uffff]/;
  const esc = (v) => { const s = String(v); return SPECIAL.test(s) ? escSlow(s) : s; };
  const escSlow = (v) => v.replace(CTRL, '').replace(LONE, '\ufffd').replace(/&/g, '&amp;')
    .replace(/</g, '&lt;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
  const out = [];
  const open = [];
  for (let i = 0; i < nodes.length; i++) {
    const r = nodes[i];
    while (open.length && open[open.length - 1] !== r[0]) { out.push('</node>'); open.pop(); }
    let a = "<node i='" + i + "' role='" + esc(r[1]) + "' tag='" + esc(r[7]) + "' x='" + r[9] + "' y='" + r[10] +
      "' w='" + r[11] + "' h='" + r[12] + "' f='" + r[13] + "'";
    if (r[2]) a += " label='" + esc(r[2]) + "'";
    if (r[3]) a += " id='" + esc(r[3]) + "'";
    if (r[4] !== null && r[4] !== undefined) a += " value='" + esc(r[4]) + "'";
    if (r[5]) a += " text='" + esc(r[5]) + "'";
    if (r[6]) a += " placeholder='" + esc(r[6]) + "'";
    if (r[8]) a += " href='" + esc(r[8]) + "'";
    if (r[14]) a += " frame='" + r[14] + "'";
    if (r[15]) a += " name='" + esc(r[15]) + "'";
    if (r[16]) a += " type='" + esc(r[16]) + "'";
    if (r[17]) a += " class='" + esc(r[17]) + "'";
    out.push(a + '>');
    open.push(i);
  }
  while (open.length) { out.push('</node>'); open.pop(); }
  // a finite animation or transition under way (a popover fading in): what it ends in is not shown yet
  const finite = (a) => { const t = a.effect && a.effect.getComputedTiming(); return !!t && t.endTime !== Infinity; };
  // (Chromium's document.getAnimations() leaves out those of shadow trees: each root is asked too)
  const running = (scope) => !!scope.getAnimations && scope.getAnimations().some((a) => a.playState === 'running' && finite(a));
  const moving = running(doc) || shadowRoots.some(running);
  // the document's own moment of birth: the same across its looks, another after a load (design §5's page
  // ids); a page's own `performance` (the main world, off Chromium) may be anything: then none
  // Overlays that came and went between two looks (a toast gone in 700 ms, however late the next look):
  // an observer, armed at the first look of the document, keeps each one's role, last text and the
  // generation of the last look before it came; each look takes them (design §15). Explicit roles and <dialog> only: what the observer can
  // tell at once, without the walk.
  const PASSING = '[role=alert],[role=status],[role=dialog],[role=alertdialog],dialog';
  if (!window.__replayPassing && typeof MutationObserver === 'function' && doc.documentElement) {
    const st = (window.__replayPassing = { shown: new WeakMap(), passed: [], gen });
    const each = (n, fn) => {
      if (n.nodeType !== 1) return;
      if (n.matches(PASSING)) fn(n);
      for (const el of n.querySelectorAll(PASSING)) fn(el);
    };
    const roleOfPassing = (el) => (el.getAttribute('role') || 'dialog').trim().split(/\s+/)[0].toLowerCase();
    // and whether the document changed at all since the last look, however little of it the tree shows
    // (a popover's host added, then its parts drawn in the page's next tasks): the screen is not settled
    // while it does. Not the recorder's bar, not an element's style alone (a script's endless tween).
    const ours = (n) => n.nodeType === 1 && n.closest('replay-bar') !== null;
    new MutationObserver((records) => {
      for (const r of records) {
        const nodes = r.type === 'childList' ? [...r.addedNodes, ...r.removedNodes] : [];
        if (!st.changed && r.attributeName !== 'style' && !ours(r.target) && !(nodes.length && nodes.every(ours))) st.changed = true;
        for (const n of r.addedNodes) each(n, (el) => st.shown.set(el, st.gen));  // (after the look of that generation)
        for (const n of r.removedNodes) {
          each(n, (el) => {
            if (!st.shown.has(el) || st.passed.length >= 16) return;
            st.passed.push([roleOfPassing(el), norm(el.textContent || '').slice(0, MAX_TEXT), st.shown.get(el)]);
            st.shown.delete(el);
          });
        }
      }
    }).observe(doc.documentElement, { childList: true, subtree: true, attributes: true, characterData: true });
  }
  const passing = window.__replayPassing;
  const passed = passing ? passing.passed.splice(0) : [];
  const changed = !!passing && passing.changed;
  if (passing) { passing.gen = gen; passing.changed = false; }
  let born = null;
  try { born = typeof performance.timeOrigin === 'number' ? performance.timeOrigin : null; } catch (e) { born = null; }
  const head = JSON.stringify({ generation: gen, url: location.href, title: doc.title, viewport: [vw, vh], frames, moving, changed, document: born, passed });
  const xml = out.join('');
  // One non-ASCII character makes the whole string two-byte, which doubles its transfer: \u escapes
  // in the JSON and character references in the XML keep it one-byte (both decode to the same text;
  // the XML's values hold no lone surrogate, esc replaced them).
  return (NON_ASCII.test(head) ? head.replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) : head) +
    '\n' + (NON_ASCII.test(xml) ? xml.replace(/[\u{80}-\u{10ffff}]/gu, (c) => '&#x' + c.codePointAt(0).toString(16) + ';') : xml);
}
