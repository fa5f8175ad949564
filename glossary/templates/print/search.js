// The web page's search, as a dictionary app's: a short ranked list (headword, reading, gloss)
// under the box, each result opening its entry. MiniSearch (vendored above) ranks by BM25 with
// field boosts: headword and reading, then gloss, then definitions, then quotations. The build
// gives each entry the keys a browser cannot make (#search-data: headword forms folded to one
// script, pinyin with tone marks, tone numbers or none, the § number; the rites' names in every
// form) and the fold table the page's own texts and the query go through. Offline, this page only.
(function () {
  "use strict";
  var input = document.getElementById("search");
  var panel = document.getElementById("results");
  var status = document.getElementById("search-count");
  var source = document.getElementById("search-data");
  if (!input || !panel || !source || typeof MiniSearch === "undefined") { return; }
  var data = JSON.parse(source.textContent);
  var FOLDS = data.folds;
  var LIMIT = 20;
  var HAN = /\p{Script=Han}/u;
  var TOKEN = /\p{Script=Han}+|[\p{L}\p{N}]+/gu;
  var LATIN = /^[a-z]+$/;
  // Fields that index single characters as well as pairs (a one-character query is a headword).
  var UNIGRAMS = { h: true, z: true };
  var docs = {};
  // Query word's stem → the words it stands for (glossary/data/search_synonyms.tsv).
  var SYNONYMS = {};
  data.synonyms.forEach(function (group) {
    group.forEach(function (word) { SYNONYMS[stemmer(word)] = group; });
  });
  var index = null;
  var quotes = [];

  function fold(text) {
    var out = "";
    for (var ch of String(text).normalize("NFC").toLowerCase()) { out += FOLDS[ch] || ch; }
    return out;
  }
  function pairs(run, tokens, single) {
    var chars = Array.from(run);
    if (single || chars.length === 1) { tokens.push.apply(tokens, chars); }
    for (var i = 0; i + 1 < chars.length; i += 1) { tokens.push(chars[i] + chars[i + 1]); }
  }
  // Chinese is cut into overlapping pairs of characters (and, in headwords, single characters);
  // anything else into words.
  function tokenizeText(text, field) {
    var tokens = [];
    (fold(text).match(TOKEN) || []).forEach(function (run) {
      if (HAN.test(run)) { pairs(run, tokens, UNIGRAMS[field]); } else { tokens.push(run); }
    });
    return tokens;
  }
  function tokenizeQuery(text) {
    var tokens = [];
    (fold(text).match(TOKEN) || []).forEach(function (run) {
      if (HAN.test(run)) { pairs(run, tokens, false); } else { tokens.push(run); }
    });
    return tokens;
  }
  // English words by their stem (Porter): "steps" finds "step", "archers" "archery".
  function processTerm(term) { return LATIN.test(term) ? stemmer(term) : term; }

  function textOf(article, selector) {
    return Array.prototype.map.call(article.querySelectorAll(selector), function (e) {
      return e.textContent;
    }).join(" | ");
  }
  function build() {
    if (index) { return index; }
    index = new MiniSearch({
      idField: "id",
      fields: ["h", "p", "n", "e", "g", "d", "z"],
      tokenize: tokenizeText,
      processTerm: processTerm,
      searchOptions: {
        tokenize: tokenizeQuery,
        processTerm: processTerm,
        boost: { h: 8, p: 6, n: 6, e: 12, g: 4, d: 1.5, z: 1.5 },
        prefix: function (term) { return !HAN.test(term) && term.length > 1; },
        fuzzy: function (term) { return /^[a-z]{5,}$/.test(term) ? 0.2 : false; },
        combineWith: "AND"
      }
    });
    var all = [];
    data.entries.forEach(function (doc) {
      var article = document.getElementById("e-" + doc.id);
      doc.href = "#e-" + doc.id;
      if (article) {
        doc.g = textOf(article, ".sense .gloss");
        doc.d = textOf(article, ".sense .definition");
        doc.z = textOf(article, ".definition-zh");
        // Quotations are searched as text, not indexed: thousands of passages cut into pairs
        // would make an index whose every garbage collection costs a phone a keystroke.
        quotes.push([doc.id, fold(textOf(article, ".citations .quote"))]);
      }
      doc.n = doc.n == null ? "" : String(doc.n);
      docs[doc.id] = doc;
      all.push(doc);
    });
    data.rites.forEach(function (doc) {
      doc.href = "#" + doc.id;
      docs[doc.id] = doc;
      all.push(doc);
    });
    index.addAll(all);
    input.removeAttribute("data-search-pending");
    input.setAttribute("data-search-ready", "");
    return index;
  }

  // A headword or reading typed exactly as it is comes first.
  function exactBoost(query) {
    var bare = fold(query).replace(/[\s§]+/g, "");
    return function (id) {
      var doc = docs[id];
      var heads = (doc.h || "").split(" ");
      var readings = (doc.p || "").split(" ");
      if (heads.indexOf(bare) >= 0 || String(doc.n) === bare) { return 4; }
      if (readings.indexOf(bare) >= 0) { return 2.5; }
      return 1;
    };
  }
  // Each query word, or any word standing for it; all words (AND) unless ``options`` say OR.
  function expand(query) {
    var tokens = tokenizeQuery(query);
    if (!tokens.some(function (t) { return SYNONYMS[processTerm(t)]; })) { return query; }
    return {
      combineWith: "AND",
      queries: tokens.map(function (t) {
        var group = SYNONYMS[processTerm(t)];
        return group ? { combineWith: "OR", queries: group } : t;
      })
    };
  }
  // Ranked results: the index's (headword, reading, gloss, definitions), then the entries whose
  // quotations hold the Chinese typed (in book order).
  function search(query, options) {
    var opts = { boostDocument: exactBoost(query) };
    for (var key in options || {}) { opts[key] = options[key]; }
    var expanded = expand(query);
    if (typeof expanded !== "string" && opts.combineWith) { expanded.combineWith = opts.combineWith; }
    var found = build().search(expanded, opts);
    var bare = (fold(query).match(TOKEN) || []).join("");
    if (HAN.test(bare) && !(opts.combineWith === "OR" && found.length)) {
      var seen = {};
      found.forEach(function (r) { seen[r.id] = true; });
      var probe = Array.from(bare).length > 1 ? bare : null;
      quotes.forEach(function (q) {
        if (probe && !seen[q[0]] && q[1].indexOf(probe) >= 0) { found.push({ id: q[0], score: 0 }); }
      });
    }
    return found;
  }

  function item(doc) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = doc.href;
    a.className = "hit";
    var head = document.createElement("span");
    head.className = "hit-head";
    head.lang = "zh-Hans";
    head.textContent = doc.t;
    var reading = document.createElement("span");
    reading.className = "hit-py";
    reading.textContent = doc.r;
    var gloss = document.createElement("span");
    gloss.className = "hit-gloss";
    gloss.textContent = doc.e ? doc.e + " (rite, " + doc.c + " terms)" : doc.g;
    a.append(head, " ", reading, " ", gloss);
    if (doc.n) {
      var num = document.createElement("span");
      num.className = "hit-num";
      num.textContent = "§" + doc.n;
      a.append(" ", num);
    }
    li.appendChild(a);
    return li;
  }
  function show(query) {
    var list = document.createElement("ol");
    list.className = "hits";
    var found = search(query);
    status.textContent = !found.length ? "No results" :
      found.length + (found.length === 1 ? " result" : " results") +
      (found.length > LIMIT ? ", first " + LIMIT + " shown" : "");
    // Where the bar (with its count) ends; read before the list changes, so only the bar is
    // laid out for it.
    var bar = panel.parentElement.getBoundingClientRect();
    found.slice(0, LIMIT).forEach(function (r) { list.appendChild(item(docs[r.id])); });
    panel.replaceChildren();
    if (found.length) {
      panel.appendChild(list);
    } else {
      // Nothing with every word: the nearest entries with any word, spelled a little differently.
      var none = document.createElement("p");
      none.className = "no-results";
      none.textContent = "No entry matches \u201c" + query.trim() + "\u201d.";
      panel.appendChild(none);
      var near = search(query, { combineWith: "OR", fuzzy: 0.34 }).slice(0, 3);
      var hint = document.createElement("p");
      hint.className = "suggest";
      hint.textContent = near.length ? "Did you mean:" :
        "Try characters (西阶, 西階), pinyin (xi jie, xi1 jie1, xī jiē), English words, a § number or a rite (乡射礼, District Archery).";
      panel.appendChild(hint);
      near.forEach(function (r) { list.appendChild(item(docs[r.id])); });
      if (near.length) { panel.appendChild(list); }
    }
    panel.style.top = bar.bottom + "px";
    panel.style.left = bar.left + "px";
    panel.style.width = bar.width + "px";
    panel.hidden = false;
    input.setAttribute("aria-expanded", "true");
  }
  function close() {
    panel.hidden = true;
    input.setAttribute("aria-expanded", "false");
  }
  // The query lives in the address (?q=…), so a search can be bookmarked, shared and reloaded.
  function remember(query) {
    var url = new URL(location.href);
    if (query) { url.searchParams.set("q", query); } else { url.searchParams.delete("q"); }
    if (url.href !== location.href) { history.replaceState(history.state, "", url.href); }
  }
  var pending = 0;
  function run() {
    var query = input.value;
    // The address is updated once typing pauses (each update costs a slow phone a few ms).
    clearTimeout(pending);
    pending = setTimeout(function () { remember(input.value.trim()); }, 400);
    if (!query.trim()) {
      panel.replaceChildren();
      status.textContent = "";
      close();
      return;
    }
    show(query);
  }
  function links() { return Array.prototype.slice.call(panel.querySelectorAll("a")); }

  input.addEventListener("input", run);
  input.addEventListener("focus", function () { if (input.value.trim() && panel.hidden) { show(input.value); } });
  input.addEventListener("keydown", function (event) {
    var first = links()[0];
    if (event.key === "ArrowDown" && first) { event.preventDefault(); first.focus(); }
    else if (event.key === "Enter" && first) { event.preventDefault(); first.click(); }
    else if (event.key === "Escape") { close(); }
  });
  panel.addEventListener("keydown", function (event) {
    var all = links();
    var at = all.indexOf(document.activeElement);
    if (event.key === "ArrowDown" && at + 1 < all.length) { event.preventDefault(); all[at + 1].focus(); }
    else if (event.key === "ArrowUp") { event.preventDefault(); (at > 0 ? all[at - 1] : input).focus(); }
    else if (event.key === "Escape") { close(); input.focus(); }
  });
  // Opening a result, or any link of the page, closes the list; the query stays in the box.
  panel.addEventListener("click", function (event) { if (event.target.closest("a")) { close(); } });
  window.addEventListener("hashchange", close);
  // The reader scrolling the book (not the list) puts the list away; focusing the box brings it
  // back. (Not on "scroll": the page's own layout moves it as parts off screen are first drawn.)
  ["wheel", "touchmove"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (!panel.hidden && !panel.contains(event.target)) { close(); }
    }, { passive: true });
  });
  document.addEventListener("click", function (event) {
    if (!event.target.closest(".bar")) { close(); }
  });

  var asked = new URL(location.href).searchParams.get("q");
  if (asked) {
    input.value = asked;
    if (!location.hash) { show(asked); } else { build(); }
  } else {
    // The index is made when the page is idle, after its first paint, or at the first keystroke.
    (window.requestIdleCallback || setTimeout)(build, { timeout: 1500 });
  }
}());
