/* Small helps for the site's forms, on every page. Progressive enhancement: each form works
 * without this script.
 * - A form being submitted has its submit buttons disabled and marked busy: by htmx, until the
 *   answer has come; a plain one, while the next page loads (no double submission, and a
 *   visible sign that something is under way). */
(function () {
  "use strict";
  if (window.hexsiteForms) return;
  window.hexsiteForms = true;

  function buttonsOf(form) {
    var buttons = Array.prototype.slice.call(form.querySelectorAll("button[type=submit], button:not([type])"));
    if (form.id) {
      document.querySelectorAll('button[form="' + form.id + '"]').forEach(function (b) { buttons.push(b); });
    }
    return buttons;
  }

  function busy(form, on) {
    buttonsOf(form).forEach(function (button) {
      if (on) {
        if (button.disabled) return;
        button.disabled = true;
        button.setAttribute("aria-busy", "true");
        button.dataset.busy = "1";
      } else if (button.dataset.busy) {
        button.disabled = false;
        button.removeAttribute("aria-busy");
        delete button.dataset.busy;
      }
    });
  }

  function formOf(event) {
    var elt = event.detail && event.detail.elt;
    return elt && elt.tagName === "FORM" ? elt : null;
  }
  // A plain form (no htmx) leaves the page: its buttons wait with it, once the browser has
  // taken the form's data (after the submit event). Coming back to the page (the back button)
  // gives them back.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    setTimeout(function () {
      if (!event.defaultPrevented && !form.hasAttribute("hx-post") && form.target !== "_blank") busy(form, true);
    }, 0);
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) document.querySelectorAll("form").forEach(function (form) { busy(form, false); });
  });

  // The end is heard on the form itself: it gets the event even when its answer has taken it
  // off the page (a form kept by hx-preserve comes back, and must not stay disabled).
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = formOf(event);
    if (!form) return;
    busy(form, true);
    form.addEventListener("htmx:afterRequest", function () { busy(form, false); }, {once: true});
  });
})();
