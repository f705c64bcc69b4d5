/* Copy buttons: a button with data-copy="ID" copies the value of the field #ID and says so.
 * Progressive enhancement: without this script the button stays hidden and the read-only field
 * can be selected and copied by hand. Delegated from the document once, so htmx swaps need no
 * re-binding. */
(function () {
  "use strict";
  if (window.hexsiteCopy) return;
  window.hexsiteCopy = true;

  function reveal(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("button[data-copy][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function say(button, text) {
    var status = document.getElementById(button.dataset.copy + "-status");
    if (status) status.textContent = text;
  }

  function fallback(field, button) {
    field.focus();
    field.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    say(button, done ? gettext("Copied.") : gettext("Selected: press Ctrl+C (or ⌘+C) to copy."));
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.dataset.copy);
    if (!field) return;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () {
        say(button, gettext("Copied."));
      }, function () { fallback(field, button); });
    } else {
      fallback(field, button);
    }
  });

  // A click in the field selects the whole link.
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input.copy-source")) event.target.select();
  });

  if (window.htmx) htmx.onLoad(reveal);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  } else {
    reveal(document);
  }
})();
