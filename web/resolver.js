// SPDX-License-Identifier: GPL-3.0-or-later
// raudio's locator resolver: finds the DOM Range a Readium text locator designates in one content document.
//
// It follows the rule Readium documents for a text locator (and that its navigators apply to TTS and
// highlight locators): take the element that `locations.cssSelector` selects (the body when there is
// none), then search `text.before + text.highlight + text.after` in that element's textContent; when
// that is not found, search `text.highlight` alone. The text found becomes a DOM Range over the
// element's Text and CDATA nodes, and the locator is exact when Range.toString() is the highlight.
//
// Used by the read-along page (web/readalong.js) and by `make locators` (scripts/locators/browser-check.py,
// which runs RAudioResolver.statuses in each content document), so that what the tests check is what
// the page highlights.
//
// RAudioResolver.resolve(document, locator) returns { s: status, range?, element?, got? } with status one of
//   exact         the range's text is the highlight, found with its context (or alone and unique)
//   element       no text quote (an image, a math element, a media overlay's text): the selector matches
//                 exactly one element (given as `element`)
//   wrong         a range was built but its text differs from the highlight
//   ambiguous     the context did not match and the highlight alone occurs more than once
//   not-found     neither the quote with its context nor the highlight alone occurs
//   selector-N    the selector matches N elements (not exactly one)
//   bad-selector  the selector is not valid CSS
//   unrendered    the browser refused the document (an XML parsing error page)
var RAudioResolver = (function () {
  // Per document: the text index of each root element resolved in it.
  const caches = new WeakMap();

  function textIndex(document, root) {
    let cache = caches.get(document);
    if (!cache) { cache = new Map(); caches.set(document, cache); }
    let entry = cache.get(root);
    if (entry) return entry;
    const walker = document.createTreeWalker(
      root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_CDATA_SECTION);
    const nodes = [];
    const starts = [];
    let text = "";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push(node);
      starts.push(text.length);
      text += node.data;
    }
    entry = { nodes, starts, text };
    cache.set(root, entry);
    return entry;
  }

  // The Text node and offset where character `offset` of the element's text lies. An end offset
  // lands at the end of the node it closes rather than at the start of the next.
  function position(index, offset, isEnd) {
    let low = 0, high = index.nodes.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      const start = index.starts[middle];
      if (start < offset || (!isEnd && start === offset)) low = middle; else high = middle - 1;
    }
    return { node: index.nodes[low], offset: offset - index.starts[low] };
  }

  function isUnrendered(document) {
    return document.getElementsByTagName("parsererror").length > 0 ||
      document.documentElement.localName === "parsererror";
  }

  function resolve(document, locator) {
    if (isUnrendered(document)) return { s: "unrendered" };
    const selector = locator.locations && locator.locations.cssSelector;
    let root = document.body || document.documentElement;
    if (selector) {
      let matches;
      try { matches = document.querySelectorAll(selector); } catch (e) { return { s: "bad-selector" }; }
      if (matches.length !== 1) return { s: "selector-" + matches.length };
      root = matches[0];
    }
    const quote = locator.text || {};
    const highlight = quote.highlight;
    if (highlight === undefined || highlight === null || highlight === "") return { s: "element", element: root };
    const index = textIndex(document, root);
    const before = quote.before || "", after = quote.after || "";
    let start = index.text.indexOf(before + highlight + after);
    if (start >= 0) {
      start += before.length;
    } else {
      start = index.text.indexOf(highlight);
      if (start < 0) return { s: "not-found" };
      if (index.text.indexOf(highlight, start + 1) >= 0) return { s: "ambiguous" };
    }
    if (index.nodes.length === 0) return { s: "not-found" };
    const from = position(index, start, false);
    const to = position(index, start + highlight.length, true);
    const range = document.createRange();
    range.setStart(from.node, from.offset);
    range.setEnd(to.node, to.offset);
    const got = range.toString();
    return got === highlight ? { s: "exact", range } : { s: "wrong", range, got: got.slice(0, 200) };
  }

  // The status of each locator (and the wrong text), as plain objects a WebDriver script can return.
  function statuses(document, locators) {
    return locators.map(function (locator) {
      try {
        const outcome = resolve(document, locator);
        return outcome.got === undefined ? { s: outcome.s } : { s: outcome.s, got: outcome.got };
      } catch (e) {
        return { s: "error", got: String(e).slice(0, 200) };
      }
    });
  }

  return { resolve, statuses };
})();
