// The stage plans' step-through (stage.html): on a screen, one step of a section at a time with
// previous / next buttons (and the arrow keys while a button has the focus); a link to a step
// (#st-…-3) opens that step. Without this script every step is shown, as in print.
(function () {
  "use strict";
  function setUp(section) {
    var steps = Array.prototype.slice.call(section.querySelectorAll(".stage-step"));
    if (steps.length < 2) return;
    var nav = section.querySelector(".stage-nav");
    var prev = nav.querySelector(".stage-prev");
    var next = nav.querySelector(".stage-next");
    var pos = nav.querySelector(".stage-pos");
    var current = 0;
    function show(n) {
      current = Math.max(0, Math.min(steps.length - 1, n));
      steps.forEach(function (step, i) { step.hidden = i !== current; });
      prev.disabled = current === 0;
      next.disabled = current === steps.length - 1;
      pos.textContent = "Step " + (current + 1) + " of " + steps.length;
    }
    prev.addEventListener("click", function () { show(current - 1); });
    next.addEventListener("click", function () { show(current + 1); });
    nav.addEventListener("keydown", function (event) {
      if (event.key === "ArrowLeft") { show(current - 1); event.preventDefault(); }
      if (event.key === "ArrowRight") { show(current + 1); event.preventDefault(); }
    });
    nav.hidden = false;
    section.classList.add("stepping");
    section.stageShow = function (id) {
      var i = steps.findIndex(function (step) { return step.id === id; });
      if (i >= 0) show(i);
    };
    show(0);
  }
  function fromHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var step = id && document.getElementById(id);
    if (step && step.classList.contains("stage-step")) {
      var section = step.closest(".stage");
      if (section && section.stageShow) { section.stageShow(id); step.scrollIntoView(); }
    }
  }
  function start() {
    Array.prototype.forEach.call(document.querySelectorAll(".stage"), setUp);
    fromHash();
    window.addEventListener("hashchange", fromHash);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
