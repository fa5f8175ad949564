// On screen, a sheet's answers are hidden; tapping a row, or Enter or Space on a focused row,
// shows (or hides again) its answer.
(function () {
  "use strict";
  document.querySelectorAll("table.sheet tr[id]").forEach(function (row) {
    function toggle() {
      row.setAttribute("aria-expanded", String(row.classList.toggle("shown")));
    }
    row.addEventListener("click", toggle);
    row.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        toggle();
      }
    });
  });
}());
