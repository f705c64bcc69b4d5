/* The site header's menu on a phone (templates/base.html, site.css "The site header on a
 * phone"): the links fold behind a Menu button, a disclosure (aria-expanded) that opens and
 * closes them; Escape closes it and gives the focus back to the button. On a wide screen the
 * stylesheet hides the button and shows the links. Without this script the button stays hidden
 * and the links stay in view. Loaded right after the header, not deferred, so that the links
 * are folded before the page is first drawn. */
(function () {
  "use strict";
  var header = document.querySelector("header.site");
  var button = header && header.querySelector(".menu-toggle");
  if (!button || header.classList.contains("has-menu")) return;

  function setOpen(open) {
    button.setAttribute("aria-expanded", open ? "true" : "false");
    header.classList.toggle("menu-open", open);
  }

  header.classList.add("has-menu");
  button.hidden = false;
  setOpen(false);
  button.addEventListener("click", function () {
    setOpen(button.getAttribute("aria-expanded") !== "true");
  });
  header.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
      setOpen(false);
      button.focus();
    }
  });
})();
