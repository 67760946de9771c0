// Small DOM helpers: an element builder and an in-place "morph" that updates an
// existing subtree to match a freshly built one. Morphing keeps the very same
// nodes wherever they still fit, so the focused control, the caret in a text
// field and a screen reader's reading position survive every re-render.

/**
 * Build an element: h("button", {type: "button", onclick: f}, "Roll").
 * Attributes whose value is false/null/undefined are left out; `on*` keys add
 * listeners (kept on the node as `_handlers` so morph can swap them).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      setHandler(el, name.slice(2), value);
    } else if (name === "value" && "value" in el) {
      el.value = value;
      el.setAttribute("value", value);
    } else if (name === "checked" || name === "selected") {
      el[name] = Boolean(value);
      if (value) el.setAttribute(name, "");
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  appendChildren(el, children);
  return el;
}

function appendChildren(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** SVG element builder (same rules as h). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    el.setAttribute(name, String(value));
  }
  appendChildren(el, children);
  return el;
}

function setHandler(el, type, fn) {
  el._handlers = el._handlers || {};
  if (el._handlers[type]) el.removeEventListener(type, el._handlers[type]);
  el._handlers[type] = fn;
  el.addEventListener(type, fn);
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  if (a.nodeName !== b.nodeName) return false;
  if (identity(a) !== identity(b)) return false;
  if (a.nodeName === "INPUT" && a.type !== b.type) return false;
  return true;
}

/** What names an element among its siblings: its data-key, else its id. */
function identity(el) {
  if (el.nodeType !== Node.ELEMENT_NODE) return null;
  return el.getAttribute("data-key") ?? (el.id || null);
}

function morphAttributes(target, source) {
  for (const attr of Array.from(target.attributes)) {
    if (!source.hasAttribute(attr.name)) target.removeAttribute(attr.name);
  }
  for (const attr of Array.from(source.attributes)) {
    if (target.getAttribute(attr.name) !== attr.value) target.setAttribute(attr.name, attr.value);
  }
  const oldHandlers = target._handlers || {};
  const newHandlers = source._handlers || {};
  for (const type of Object.keys(oldHandlers)) {
    if (!newHandlers[type]) {
      target.removeEventListener(type, oldHandlers[type]);
      delete oldHandlers[type];
    }
  }
  for (const [type, fn] of Object.entries(newHandlers)) setHandler(target, type, fn);
  // Live properties: only touch them when the source says something different,
  // and never the value of a text field the user is typing in.
  if ("checked" in source && target.checked !== source.checked) target.checked = source.checked;
  if (target.nodeName === "SELECT" || (target.nodeName === "INPUT" && !isTyping(target))) {
    if (source.hasAttribute("value") && target.value !== source.getAttribute("value")) {
      target.value = source.getAttribute("value");
    }
  }
}

function isTyping(el) {
  return el === document.activeElement && /^(text|search|password|number|email|url)$/.test(el.type);
}

/** Make `target`'s children look like `source`'s children, reusing nodes. */
export function morphChildren(target, source) {
  const sourceKids = Array.from(source.childNodes);
  const wanted = new Set(sourceKids.map(identity).filter((key) => key !== null));
  let index = 0;
  for (const kid of sourceKids) {
    let existing = target.childNodes[index];
    // A named node the new tree no longer has goes away first, so that the
    // nodes after it (perhaps the focused one) are kept, not rebuilt.
    while (existing && !sameKind(existing, kid) && identity(existing) !== null && !wanted.has(identity(existing))) {
      existing.remove();
      existing = target.childNodes[index];
    }
    if (existing && sameKind(existing, kid)) {
      morphNode(existing, kid);
    } else {
      // Look ahead for a keyed match further on (a list item moved or one was inserted).
      const key = identity(kid);
      let match = null;
      if (key !== null) {
        for (let j = index + 1; j < target.childNodes.length; j++) {
          const cand = target.childNodes[j];
          if (sameKind(cand, kid)) { match = cand; break; }
        }
      }
      if (match) {
        target.insertBefore(match, existing || null);
        morphNode(match, kid);
      } else {
        // The source tree is throw-away, so its nodes can move as they are.
        target.insertBefore(kid, existing || null);
      }
    }
    index++;
  }
  while (target.childNodes.length > sourceKids.length) target.lastChild.remove();
}

function morphNode(target, source) {
  if (target.nodeType !== Node.ELEMENT_NODE) {
    if (target.nodeValue !== source.nodeValue) target.nodeValue = source.nodeValue;
    return;
  }
  morphAttributes(target, source);
  if (target.hasAttribute("data-morph-skip")) return;
  morphChildren(target, source);
  // A select's value can only be set once its options are there.
  if (target.nodeName === "SELECT" && source.hasAttribute("value")) {
    const value = source.getAttribute("value");
    if (target.value !== value) target.value = value;
  }
}

/** Replace the children of `container` with `children` by morphing. */
export function render(container, ...children) {
  const scratch = document.createElement(container.nodeName);
  appendChildren(scratch, children);
  morphChildren(container, scratch);
}

/** Is this element a field where letters are typed (so single-key shortcuts stay off)? */
export function isTextField(el) {
  if (!el || el === document.body) return false;
  if (el.isContentEditable) return true;
  if (el.nodeName === "TEXTAREA" || el.nodeName === "SELECT") return true;
  if (el.nodeName === "INPUT") {
    return !/^(button|submit|reset|checkbox|radio|range|color|file|image)$/.test(el.type);
  }
  return false;
}
