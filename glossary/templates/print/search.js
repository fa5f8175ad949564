// The web page's search box: show only the entries whose key (data-search: both scripts, pinyin
// with and without tones, gloss, definition) holds what was typed. Runs offline, on this page only.
(function () {
  "use strict";
  var input = document.getElementById("search");
  var count = document.getElementById("search-count");
  if (!input) { return; }
  var entries = Array.prototype.slice.call(document.querySelectorAll("article[data-entry-id]"));
  var HAN = /[\u3400-\u9fff\uf900-\ufaff\u{20000}-\u{3ffff}]/u;
  function fold(text) {
    // Lower case, tone marks off, ü as u (typed as v or u): "xī jiē" and "xi jie" are one query.
    return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/v/g, "u")
      .replace(/\s+/g, " ").trim();
  }
  var keys = entries.map(function (e) { return " " + fold(e.getAttribute("data-search") || "") + " "; });
  function matches(key, query) {
    if (HAN.test(query)) { return key.indexOf(query.replace(/\s+/g, "")) >= 0; }
    // Words match from their start: "xi jie" finds xī jiē, not xiāng.
    return key.indexOf(" " + query) >= 0 || key.indexOf("(" + query) >= 0;
  }
  function run() {
    var query = fold(input.value);
    var shown = 0;
    document.body.classList.toggle("searching", query.length > 0);
    entries.forEach(function (entry, i) {
      var hit = query.length === 0 || matches(keys[i], query);
      entry.classList.toggle("miss", !hit);
      if (hit) { shown += 1; }
    });
    count.textContent = query.length ? shown + " of " + entries.length : "";
  }
  input.addEventListener("input", run);
  run();
}());
