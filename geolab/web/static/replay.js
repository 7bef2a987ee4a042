// Replays: the arrow keys step back and forward (the step is in the URL, so the browser's
// back button and a bookmark work); on the upload form a chosen file is read into the box.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var tag = (event.target && event.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    var link = document.getElementById({ArrowLeft: "prev", ArrowRight: "next"}[event.key] || "");
    if (link) { event.preventDefault(); window.location.href = link.href; }
  });
  var file = document.getElementById("file"), box = document.getElementById("record");
  if (file && box) {
    file.addEventListener("change", function () {
      if (!file.files.length) return;
      var reader = new FileReader();
      reader.onload = function () { box.value = reader.result; };
      reader.readAsText(file.files[0]);
    });
  }
})();
