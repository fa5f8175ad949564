// On screen, a sheet's answers are hidden; tapping a row shows (or hides again) its answer. Each
// row is also a stop of the Tab key: Enter or Space shows (or hides) its answer.
(function () {
  "use strict";
  document.querySelectorAll("table.sheet tr[id]").forEach(function (row) {
    function toggle() {
      row.classList.toggle("shown");
      row.setAttribute("aria-expanded", row.classList.contains("shown") ? "true" : "false");
    }
    row.tabIndex = 0;
    row.setAttribute("aria-expanded", "false");
    row.addEventListener("click", toggle);
    row.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(); }
    });
  });
}());
