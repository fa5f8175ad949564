// On screen, a sheet's answers are hidden; tapping a row shows (or hides again) its answer.
(function () {
  "use strict";
  document.querySelectorAll("table.sheet tr[id]").forEach(function (row) {
    row.addEventListener("click", function () { row.classList.toggle("shown"); });
  });
}());
