/* Replays: the arrow keys, Page Up / Page Down, Home and End follow the replay's links (each
 * link names its key in data-replay-key). Without this script the links work as they are. */
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    var link = document.querySelector('a[data-replay-key="' + event.key + '"]');
    if (!link) return;
    event.preventDefault();
    window.location.assign(link.href);
  });
})();
