// SPDX-License-Identifier: GPL-3.0-or-later
// raudio's read-along page: shows the publication's own pages in a frame and follows the player's events
// (docs/events.md) over the WebSocket it was served with: the sentence being read shaded, the word being
// heard highlighted, kept in view, chapters followed across resources; for narration the `par` being read;
// for an audiobook the cover (only when the manifest declares one), the chapter, the time (elapsed / total) on a
// bar that seeks when clicked or dragged. Clicking a sentence moves speech there (`go`). The volume follows the
// `settings` events; the book's bookmarks are listed (`bookmarks`, then each `bookmark` made) and one is gone to
// with `go` and its locator.
//
// Locators are found in the page with RAudioResolver (resolver.js), Readium's rule, the same code that
// `make locators` checks; highlights use the CSS Custom Highlight API, so the page's text is never changed
// (a book with media overlays also gets the classes it names, on the element read and the document).
//
// For tests and benchmarks, `window.raudioPage` keeps what was done: `log` (one entry per `range` event:
// the word asked, the resolver's status, the text actually highlighted, and when it was painted),
// `sentences` (the same per `utterance`, with `activeClass`: whether the book's media:active-class is on the
// element read; for the page's own audio played in place, `media`: its href, and `element`: the tag of the
// element marked playing), `hellos`, `connected`, `goes` (locators sent by clicks), `documentPlaying` (whether the
// book's media:playback-active-class is on the page's document element), `seeks` (the times the bar sent),
// `bookmarkGoes` (the bookmark ids gone to), `cover` (`none`, `loading`, `shown` or `failed`), `copyRight` (what
// `GET /raudio/copy` said) and `copies` (raudio's answers to the copies asked for).
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const frame = $("content");
  const HIGHLIGHT_STYLE =
    "::highlight(raudio-sentence) { background-color: rgba(255, 214, 10, 0.28); }\n" +
    "::highlight(raudio-word) { background-color: #ffd60a; color: black; }\n" +
    ".raudio-media-playing { outline: 3px solid #ffd60a; outline-offset: 2px; }\n";

  const page = (window.raudioPage = {
    connected: false, hellos: 0, log: [], sentences: [], goes: [], events: 0, mode: null, documentPlaying: false,
    seeks: [], bookmarkGoes: [], cover: null,
  });
  // Media overlays: the book's classes (`opened`'s `mediaOverlay`), the element that has the active one, the state.
  let overlayClasses = null;
  let activeElement = null;
  let mediaElement = null;   // the page's audio/video element raudio plays in place, outlined
  let playbackState = null;
  let socket = null;
  let frameHref = null;   // the href (no fragment) loaded or loading in the frame
  let frameReady = false;
  let waiting = [];       // [kind, locator, event] met while the frame loads
  let shownSentence = null;
  let goCount = 0;
  let duration = null;        // the publication's length in seconds, when `opened` gives it
  let seeking = false;        // the position bar is being dragged: positions do not move it
  let seekSentAt = 0;         // when the bar last sent a seek: positions in flight do not move it back at once
  let volumeDragging = false;
  let volumeTimer = null;
  let coverChecked = false;
  let bookmarks = [];         // the `bookmarks` event's entries, then each `bookmark` made

  // ------------------------------------------------------------ connection

  function connect() {
    socket = new WebSocket("ws://" + location.host + "/ws");
    socket.onopen = function () { page.connected = true; showConnection(true); };
    socket.onmessage = function (message) {
      let event;
      try { event = JSON.parse(message.data); } catch (e) { return; }
      page.events += 1;
      handle(event);
    };
    socket.onclose = function () {
      page.connected = false;
      showConnection(false);
      setTimeout(connect, 1000); // raudio restarted, or not yet there: try again
    };
  }

  function send(command) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(command));
  }

  function showConnection(online) {
    const element = $("connection");
    element.textContent = online ? "connected" : "not connected: retrying…";
    element.className = online ? "online" : "offline";
  }

  // ------------------------------------------------------------ events

  function handle(event) {
    if (page.checking) return;
    switch (event.type) {
      case "hello":
        page.hellos += 1;
        if (event.publication) showPublication(event.publication);
        showState(event.state);
        if (event.settings) showSettings(event.settings);
        if (event.locator) follow("place", event.locator, event);
        send({ command: "toc" });
        send({ command: "bookmarks", id: "page-bookmarks" });
        break;
      case "opened": showPublication(event.publication); break;
      case "state":
        showState(event.state);
        if (event.locator) follow("place", event.locator, event);
        break;
      case "utterance":
        page.mode = event.narration ? "narration" : event.media ? "media" : "speech";
        markDocumentPlaying();
        follow("sentence", event.locator, event);
        break;
      case "range": follow("word", event.locator, event); break;
      case "position":
        showPosition(event.locator);
        if (isAudio(event.locator)) follow("place", event.locator, event);
        break;
      case "toc": showChapters(event.entries || []); break;
      case "chapter": markChapter(event.index, event.title); break;
      case "settings": showSettings(event); break;
      case "bookmarks": showBookmarks(event.bookmarks || []); break;
      case "bookmark": addBookmark(event); break;
      case "error": if (event.code === "state-unavailable") bookmarksUnavailable(event.message); break;
    }
  }

  function isAudio(locator) {
    return !!locator && typeof locator.type === "string" && locator.type.indexOf("audio/") === 0;
  }

  // ------------------------------------------------------------ following locators

  function follow(kind, locator, event) {
    if (!locator || !locator.href) return;
    if (isAudio(locator)) return showAudiobook(locator);
    const href = locator.href.split("#")[0];
    if (href !== frameHref) load(href);
    if (!frameReady) { waiting.push([kind, locator, event]); return; }
    apply(kind, locator, event);
  }

  function load(href) {
    frameHref = href;
    frameReady = false;
    waiting = waiting.filter(function (item) { return item[1].href.split("#")[0] === href; });
    $("audiobook").hidden = true;
    frame.hidden = false;
    frame.onload = function () {
      const doc = frame.contentDocument;
      if (!doc) return;
      const style = doc.createElementNS("http://www.w3.org/1999/xhtml", "style");
      style.textContent = HIGHLIGHT_STYLE;
      (doc.head || doc.documentElement).appendChild(style);
      doc.addEventListener("click", onPageClick);
      doc.addEventListener("copy", onPageCopy);
      doc.addEventListener("cut", onPageCopy);
      frameReady = true;
      shownSentence = null;
      activeElement = null;
      mediaElement = null;
      markDocumentPlaying();
      const queued = waiting;
      waiting = [];
      queued.forEach(function (item) { apply(item[0], item[1], item[2]); });
    };
    frame.src = "/publication/" + href;
  }

  // ------------------------------------------------------------ the copy right

  // An LCP licence's `copy` right, as Readium's navigators honour it: the text can be selected, but a copy out of
  // the page is asked of raudio (`POST /raudio/copy`), which counts its characters against the right (shared with
  // `raudio text`): allowed whole when they fit, refused whole when not, and the page says which and why.
  // `page.copies` keeps raudio's answers.
  let copyRight = null;   // {limit, remaining} from GET /raudio/copy; limit null: nothing limits copying
  page.copies = [];

  function loadCopyRight() {
    fetch("/raudio/copy").then(function (answer) { return answer.json(); })
      .then(function (right) { copyRight = right; page.copyRight = right; })
      .catch(function () { copyRight = null; });
  }

  function onPageCopy(event) {
    if (!copyRight || copyRight.limit === null) return;
    const selection = frame.contentDocument && frame.contentDocument.getSelection();
    const text = selection ? selection.toString() : "";
    event.preventDefault();
    if (!text) return;
    fetch("/raudio/copy", { method: "POST", headers: { "Content-Type": "text/plain; charset=utf-8" }, body: text })
      .then(function (answer) { return answer.json(); })
      .then(function (answer) {
        page.copies.push(answer);
        copyRight.remaining = answer.remaining;
        if (!answer.allowed) return notify("Not copied: " + answer.reason + ".");
        const left = " (" + answer.remaining + " of the " + answer.limit + " characters this book's licence lets you copy are left)";
        const clipboard = navigator.clipboard && navigator.clipboard.writeText(text);
        if (!clipboard) return notify("Counted " + answer.characters + " characters, but this browser gives the page no clipboard" + left + ".");
        clipboard.then(function () { notify("Copied " + answer.characters + " characters" + left + "."); },
                       function () { notify("Counted " + answer.characters + " characters, but the browser refused the clipboard" + left + "."); });
      })
      .catch(function () { notify("Not copied: raudio did not answer."); });
  }

  function notify(text) {
    const element = $("notice");
    element.textContent = text;
    element.hidden = false;
  }

  function apply(kind, locator, event) {
    const doc = frame.contentDocument;
    const win = frame.contentWindow;
    let outcome;
    try { outcome = RAudioResolver.resolve(doc, locator); } catch (e) { outcome = { s: "error" }; }
    let range = outcome.range || null;
    if (!range && outcome.element) {
      range = doc.createRange();
      range.selectNodeContents(outcome.element);
    }
    const highlight = (locator.text && locator.text.highlight) || null;
    if (kind === "word") {
      setHighlight(win, "raudio-word", outcome.s === "exact" ? range : null);
      const entry = { highlight: highlight, status: outcome.s, painted: highlighted(win, "raudio-word"), paintedAt: null };
      page.log.push(entry);
      requestAnimationFrame(function () { entry.paintedAt = performance.timeOrigin + performance.now(); });
      if (range) keepInView(range);
      return;
    }
    if (kind === "place" && shownSentence) return; // a state's locator: the sentence shown already says where
    if (kind === "sentence") markMedia(event && event.media ? outcome.element : null);
    if (kind === "sentence" && event && event.media) {
      // The page's own audio, played by raudio in place: the element is outlined (its fallback text is not read).
      setHighlight(win, "raudio-sentence", null);
      setHighlight(win, "raudio-word", null);
      shownSentence = locator;
      page.sentences.push({ media: event.media.href, status: outcome.s, element: mediaElement ? mediaElement.localName : null });
      if (mediaElement) mediaElement.scrollIntoView({ block: "nearest" });
      return;
    }
    setHighlight(win, "raudio-sentence", range);
    setHighlight(win, "raudio-word", null);
    shownSentence = locator;
    if (kind === "sentence") {
      const marked = markActive(outcome.element || (range && elementOf(range.commonAncestorContainer)));
      page.sentences.push({ highlight: highlight, status: outcome.s, painted: highlighted(win, "raudio-sentence"), activeClass: marked });
    }
    if (range) keepInView(range);
  }

  function elementOf(node) {
    return node && node.nodeType === 1 ? node : node && node.parentElement;
  }

  // Media overlays (EPUB 3.3 Media Overlays §3.2.2): the book's active class on the element being read, and
  // its playback-active class on the document element while narration plays. Returns whether it was set.
  function markActive(element) {
    if (!overlayClasses || !overlayClasses.activeClass || page.mode !== "narration") return false;
    if (activeElement && activeElement !== element) activeElement.classList.remove(overlayClasses.activeClass);
    activeElement = element || null;
    if (!activeElement) return false;
    activeElement.classList.add(overlayClasses.activeClass);
    return true;
  }

  // Outlines `element`, the audio or video element being played in place (none: the outline goes).
  function markMedia(element) {
    if (mediaElement && mediaElement !== element) mediaElement.classList.remove("raudio-media-playing");
    mediaElement = element || null;
    if (mediaElement) mediaElement.classList.add("raudio-media-playing");
  }

  function markDocumentPlaying() {
    const doc = frame.contentDocument;
    const name = overlayClasses && overlayClasses.playbackActiveClass;
    if (!doc || !doc.documentElement || !name) return;
    const playing = playbackState === "playing" && page.mode === "narration";
    doc.documentElement.classList.toggle(name, playing);
    page.documentPlaying = doc.documentElement.classList.contains(name);
  }

  function setHighlight(win, name, range) {
    if (!win || !win.CSS || !win.CSS.highlights) return;
    if (range) win.CSS.highlights.set(name, new win.Highlight(range));
    else win.CSS.highlights.delete(name);
  }

  // The text the highlight `name` covers now, as the page shows it.
  function highlighted(win, name) {
    const highlight = win && win.CSS && win.CSS.highlights && win.CSS.highlights.get(name);
    if (!highlight) return null;
    let text = "";
    highlight.forEach(function (range) { text += range.toString(); });
    return text;
  }

  // Scrolls the frame so that the range is in view (either axis: vertical writing scrolls sideways).
  function keepInView(range) {
    const win = frame.contentWindow;
    const rect = range.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) return;
    let dx = 0, dy = 0;
    if (rect.top < 0 || rect.bottom > win.innerHeight) dy = rect.top - win.innerHeight / 3;
    if (rect.left < 0 || rect.right > win.innerWidth) dx = rect.left - win.innerWidth / 3;
    if (dx || dy) win.scrollBy(dx, dy);
  }

  // For tests: loads each locator's page in the frame and highlights it as a `range` event would be, without
  // playing; resolves to [{status, painted}] in the order given. Events are not followed meanwhile.
  page.check = function (locators) {
    page.checking = true;
    const results = [];
    let index = 0;
    return new Promise(function (resolve) {
      function next() {
        while (index < locators.length) {
          const locator = locators[index];
          const href = locator.href.split("#")[0];
          if (href !== frameHref || !frameReady) {
            if (href !== frameHref) load(href);
            const previousOnload = frame.onload;
            frame.onload = function () { previousOnload(); setTimeout(next, 0); };
            return;
          }
          const before = page.log.length;
          apply("word", locator);
          const entry = page.log[before];
          page.log.length = before;
          results.push({ status: entry.status, painted: entry.painted });
          index += 1;
        }
        page.checking = false;
        resolve(results);
      }
      next();
    });
  };

  // ------------------------------------------------------------ clicking a sentence

  function onPageClick(click) {
    if (page.mode === "audiobook") return;
    const doc = frame.contentDocument;
    const caret = doc.caretRangeFromPoint && doc.caretRangeFromPoint(click.clientX, click.clientY);
    if (!caret) return;
    const block = blockOf(caret.startContainer);
    const text = block.textContent;
    const offset = offsetIn(block, caret.startContainer, caret.startOffset);
    const language = languageOf(block) || undefined;
    let chosen = null;
    const segmenter = new Intl.Segmenter(language, { granularity: "sentence" });
    for (const segment of segmenter.segment(text)) {
      if (offset >= segment.index && offset <= segment.index + segment.segment.length) { chosen = segment; break; }
    }
    if (!chosen || !chosen.segment.trim()) return;
    const start = chosen.index + (chosen.segment.length - chosen.segment.trimStart().length);
    const locator = {
      href: frameHref,
      type: "application/xhtml+xml",
      locations: { cssSelector: selectorOf(block) },
      text: { highlight: chosen.segment.trim(), before: text.slice(Math.max(0, start - 40), start) },
    };
    page.goes.push(locator);
    goCount += 1;
    send({ command: "go", locator: locator, id: "page-go-" + goCount });
  }

  // The nearest element around `node` that is not laid out inline: the paragraph, heading or cell clicked.
  function blockOf(node) {
    const win = frame.contentWindow;
    const body = frame.contentDocument.body || frame.contentDocument.documentElement;
    let element = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
    while (element && element !== body) {
      const display = win.getComputedStyle(element).display;
      if (display !== "inline" && display !== "contents") return element;
      element = element.parentElement;
    }
    return body;
  }

  function offsetIn(root, node, offset) {
    if (node.nodeType !== Node.TEXT_NODE && node.nodeType !== Node.CDATA_SECTION_NODE) {
      const range = frame.contentDocument.createRange();
      range.setStart(root, 0);
      range.setEnd(node, offset);
      return range.toString().length;
    }
    const walker = frame.contentDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_CDATA_SECTION);
    let total = 0;
    for (let current = walker.nextNode(); current; current = walker.nextNode()) {
      if (current === node) return total + offset;
      total += current.data.length;
    }
    return total;
  }

  function languageOf(element) {
    for (let current = element; current; current = current.parentElement) {
      const language = current.getAttribute("lang") || current.getAttributeNS("http://www.w3.org/XML/1998/namespace", "lang");
      if (language) return language;
    }
    return null;
  }

  // A selector as raudio's locators write them: `#id`, else the path from html by :nth-child.
  function selectorOf(element) {
    if (element.id) return "#" + CSS.escape(element.id);
    const parts = [];
    for (let current = element; current && current.nodeType === Node.ELEMENT_NODE; current = current.parentElement) {
      const name = current.localName;
      if (name === "html" || name === "body") { parts.unshift(name); continue; }
      let index = 1;
      for (let sibling = current.previousElementSibling; sibling; sibling = sibling.previousElementSibling) index += 1;
      parts.unshift(name + ":nth-child(" + index + ")");
    }
    return parts.join(" > ");
  }

  // ------------------------------------------------------------ the rest of the page

  function showPublication(publication) {
    overlayClasses = publication.mediaOverlay || null;
    duration = typeof publication.duration === "number" && publication.duration > 0 ? publication.duration : null;
    $("title").textContent = publication.title || "Untitled";
    document.title = (publication.title || "raudio") + " — read along";
    const people = (publication.authors || []).concat((publication.narrators || []).map(function (name) { return name + " (narrator)"; }));
    $("authors").textContent = people.join(", ");
  }

  function showState(state) {
    if (!state) return;
    $("state").textContent = state;
    playbackState = state;
    markDocumentPlaying();
  }

  function showSettings(event) {
    if (typeof event.speed === "number") $("speed").value = String(event.speed);
    if (typeof event.volume === "number") {
      if (!volumeDragging && volumeTimer === null) $("volume").value = String(event.volume);
      $("volume-value").textContent = Math.round(event.volume * 100) + " %";
    }
    if (typeof event.voice === "string") {
      $("voice-control").hidden = false;
      if (document.activeElement !== $("voice")) $("voice").value = event.voice;
    }
  }

  function showPosition(locator) {
    if (!locator || !locator.locations) return;
    const total = locator.locations.totalProgression;
    let text = typeof total === "number" ? Math.round(total * 100) + " %" : "";
    const time = (locator.locations.fragments || []).map(function (f) { return /^t=([0-9.]+)/.exec(f); }).find(Boolean);
    if (time) text = clock(parseFloat(time[1])) + (text ? " · " + text : "");
    $("time").textContent = text;
    if (typeof total === "number" && !seeking && Date.now() - seekSentAt > 800) $("progress").value = total;
    if (!isAudio(locator)) return;
    $("progress").disabled = duration === null;
    if (!seeking) showClock(duration !== null && typeof total === "number" ? total * duration : time ? parseFloat(time[1]) : null);
  }

  // "elapsed / total" under the bar (the elapsed time alone when the publication's length is unknown).
  function showClock(elapsed) {
    if (elapsed === null) { $("clock").textContent = ""; return; }
    $("clock").textContent = clock(elapsed) + (duration !== null ? " / " + clock(duration) : "");
  }

  function showAudiobook(locator) {
    page.mode = "audiobook";
    frame.hidden = true;
    $("audiobook").hidden = false;
    if (locator.title) $("chapter-title").textContent = locator.title;
    showPosition(locator);
    showCover();
  }

  // The cover, only when the manifest declares one (as raudio's `/cover` finds it: the first link with rel
  // `cover`), and shown only once it has loaded: never a broken image, no request for a book without one.
  function showCover() {
    if (coverChecked) return;
    coverChecked = true;
    page.cover = "loading";
    fetch("/publication/manifest.json").then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (manifest) {
      const links = manifest ? [].concat(manifest.resources || [], manifest.links || [], manifest.readingOrder || []) : [];
      const hasCover = links.some(function (link) {
        return link && [].concat(link.rel || []).indexOf("cover") >= 0;
      });
      if (!hasCover) { page.cover = "none"; return; }
      const image = $("cover");
      image.onload = function () { image.hidden = false; page.cover = "shown"; };
      image.onerror = function () { image.hidden = true; image.removeAttribute("src"); page.cover = "failed"; };
      image.src = "/cover";
    }).catch(function () { page.cover = "failed"; });
  }

  function showChapters(entries) {
    const list = $("chapters");
    list.textContent = "";
    entries.forEach(function (entry) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = entry.title || entry.href;
      button.addEventListener("click", function () { send({ command: "chapter", value: entry.index }); });
      item.appendChild(button);
      item.style.marginLeft = (entry.depth || 0) + "em";
      item.dataset.index = entry.index;
      if (entry.current) item.className = "current";
      list.appendChild(item);
    });
  }

  function markChapter(index, title) {
    Array.prototype.forEach.call($("chapters").children, function (item) {
      item.className = Number(item.dataset.index) === index ? "current" : "";
    });
    if (title && page.mode === "audiobook") $("chapter-title").textContent = title;
  }

  // ------------------------------------------------------------ bookmarks

  function showBookmarks(entries) {
    bookmarks = entries.slice();
    renderBookmarks();
  }

  function addBookmark(entry) {
    if (typeof entry.id !== "number") return;
    bookmarks = bookmarks.filter(function (known) { return known.id !== entry.id; });
    bookmarks.push({ id: entry.id, locator: entry.locator, note: entry.note, created: entry.created });
    renderBookmarks();
  }

  function bookmarksUnavailable(message) {
    $("bookmarks-box").hidden = true;
    $("bookmark").disabled = true;
    $("bookmark").title = message || "Bookmarks need the listening state";
  }

  // Each bookmark a button (Tab reaches it, Enter or Space goes there): its note, else the sentence it
  // quotes, else its time; under it the chapter and the time.
  function renderBookmarks() {
    const list = $("bookmarks");
    list.textContent = "";
    $("bookmarks-box").hidden = false;
    $("bookmarks-none").hidden = bookmarks.length > 0;
    page.bookmarks = bookmarks.map(function (entry) { return entry.id; });
    bookmarks.forEach(function (entry) {
      const locator = entry.locator || {};
      const where = describe(locator);
      const quote = locator.text && locator.text.highlight ? shorten(locator.text.highlight, 80) : null;
      const label = entry.note || quote || where || "Bookmark " + entry.id;
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.id = entry.id;
      button.setAttribute("aria-label", "Go to bookmark: " + label + (where && where !== label ? ", " + where : ""));
      const title = document.createElement("span");
      title.textContent = label;
      button.appendChild(title);
      if (where && where !== label) {
        const detail = document.createElement("span");
        detail.className = "where";
        detail.textContent = where;
        button.appendChild(detail);
      }
      button.addEventListener("click", function () { goToBookmark(entry); });
      item.appendChild(button);
      list.appendChild(item);
    });
  }

  function goToBookmark(entry) {
    if (!entry.locator) return;
    page.bookmarkGoes.push(entry.id);
    goCount += 1;
    send({ command: "go", locator: entry.locator, id: "page-go-" + goCount });
  }

  // Where a locator is, for a person: its title, and for audio the time in the publication (else in the track).
  function describe(locator) {
    const parts = [];
    if (locator.title) parts.push(locator.title);
    if (isAudio(locator)) {
      const total = locator.locations && locator.locations.totalProgression;
      const time = ((locator.locations && locator.locations.fragments) || []).map(function (f) { return /^t=([0-9.]+)/.exec(f); }).find(Boolean);
      if (duration !== null && typeof total === "number") parts.push(clock(total * duration));
      else if (time) parts.push(clock(parseFloat(time[1])));
    } else if (!locator.title && locator.href) {
      parts.push(locator.href.split("#")[0].split("/").pop());
    }
    return parts.join(", ");
  }

  function shorten(text, length) {
    const flat = text.replace(/\s+/g, " ").trim();
    return flat.length > length ? flat.slice(0, length - 1) + "…" : flat;
  }

  function clock(seconds) {
    const s = Math.floor(seconds % 60), m = Math.floor(seconds / 60) % 60, h = Math.floor(seconds / 3600);
    return (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(s).padStart(2, "0");
  }

  // ------------------------------------------------------------ controls

  function setUpControls() {
    const speed = $("speed");
    for (let value = 0.5; value <= 3.001; value += 0.25) {
      const option = document.createElement("option");
      option.value = String(value);
      option.textContent = value + "×";
      speed.appendChild(option);
    }
    speed.value = "1";
    speed.addEventListener("change", function () { send({ command: "speed", value: Number(speed.value) }); });
    const step = function (forward) {
      const audio = page.mode === "audiobook";
      send({ command: audio ? (forward ? "forward" : "back") : (forward ? "next" : "previous") });
    };
    $("toggle").addEventListener("click", function () { send({ command: "toggle" }); });
    $("previous").addEventListener("click", function () { step(false); });
    $("next").addEventListener("click", function () { step(true); });
    $("chapter-previous").addEventListener("click", function () { send({ command: "chapter", value: "previous" }); });
    $("chapter-next").addEventListener("click", function () { send({ command: "chapter", value: "next" }); });
    $("voice").addEventListener("change", function () {
      if ($("voice").value.trim()) send({ command: "voice", value: $("voice").value.trim() });
    });
    ["en", "en-gb", "en-us", "fr", "de", "es", "it", "he", "ar", "ja"].forEach(function (voice) {
      const option = document.createElement("option");
      option.value = voice;
      $("voices").appendChild(option);
    });
    $("bookmark").addEventListener("click", function () { send({ command: "bookmark", id: "page-bookmark" }); });
    setUpVolume();
    setUpSeeking();
  }

  // The volume slider sends `volume` as it moves (at most every 100 ms); `settings` events move it otherwise.
  function setUpVolume() {
    const volume = $("volume");
    volume.addEventListener("pointerdown", function () { volumeDragging = true; });
    window.addEventListener("pointerup", function () { volumeDragging = false; });
    volume.addEventListener("input", function () {
      $("volume-value").textContent = Math.round(Number(volume.value) * 100) + " %";
      if (volumeTimer !== null) return;
      volumeTimer = setTimeout(function () {
        volumeTimer = null;
        send({ command: "volume", value: Number(volume.value) });
      }, 100);
    });
  }

  // The position bar: a click or a drag seeks there once released (`seek` to that time of the publication);
  // the arrow keys seek 10 s, Page Up/Down a minute, Home the start.
  function setUpSeeking() {
    const bar = $("progress");
    bar.addEventListener("pointerdown", function () { seeking = true; });
    bar.addEventListener("input", function () {
      seeking = true;
      if (duration !== null) showClock(Number(bar.value) * duration);
    });
    bar.addEventListener("change", function () {
      seeking = false;
      if (duration === null) return;
      seekTo({ to: Math.round(Number(bar.value) * duration * 10) / 10 });
    });
    window.addEventListener("pointerup", function () { setTimeout(function () { seeking = false; }, 0); });
    bar.addEventListener("keydown", function (key) {
      const steps = { ArrowLeft: -10, ArrowDown: -10, ArrowRight: 10, ArrowUp: 10, PageDown: -60, PageUp: 60 };
      if (key.key in steps) seekTo({ by: steps[key.key] });
      else if (key.key === "Home") seekTo({ to: 0 });
      else return;
      key.preventDefault();
    });
  }

  function seekTo(where) {
    seekSentAt = Date.now();
    page.seeks.push(where);
    const command = { command: "seek" };
    Object.keys(where).forEach(function (key) { command[key] = where[key]; });
    send(command);
  }

  setUpControls();
  loadCopyRight();
  connect();
})();
