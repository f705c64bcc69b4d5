/* The time zone field (accounts/forms.py, TimezoneSelect): a select of cities grouped by region,
 * which works without this script. This adds:
 * - a search box above it: typing filters the list to the cities (or offsets, "+05:30") that
 *   match, selects the first match when the chosen one is filtered out, and says how many
 *   match (a polite status);
 * - for a field with no zone yet (data-detect-timezone: sign-up), the browser's zone, chosen
 *   (added to the list when the browser reports an old name the list does not hold). */
(function () {
  "use strict";
  if (window.hexsiteTimezone) return;
  window.hexsiteTimezone = true;

  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/_/g, " ").toLowerCase();
  }

  function detect(select) {
    var zone;
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
    if (!zone) return;
    var match = Array.prototype.find.call(select.options, function (o) { return o.value === zone; });
    if (!match) {
      match = new Option(interpolate(gettext("%(zone)s (your browser's)"), {zone: zone.replace(/_/g, " ")}, true), zone);
      select.insertBefore(match, select.firstChild);
    }
    select.value = zone;
  }

  function addSearch(select) {
    var id = select.id + "-search";
    var box = document.createElement("span");
    box.className = "tz-search";
    var label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = gettext("Search the list");
    var input = document.createElement("input");
    input.type = "search";
    input.id = id;
    input.autocomplete = "off";
    input.spellcheck = false;
    input.placeholder = gettext("A city, or an offset such as +05:30");
    input.setAttribute("aria-controls", select.id);
    var status = document.createElement("span");
    status.id = select.id + "-matches";
    status.className = "helptext";
    status.setAttribute("role", "status");
    input.setAttribute("aria-describedby", status.id);
    box.append(label, input, status);
    select.parentNode.insertBefore(box, select);

    var options = Array.prototype.map.call(select.options, function (o) {
      return {option: o, text: fold(o.textContent + " " + o.value)};
    });
    input.addEventListener("input", function () {
      var words = fold(input.value).split(/\s+/).filter(Boolean);
      var zones = new Set();
      var matches = options.map(function (entry) {
        var hit = words.every(function (w) { return entry.text.indexOf(w) !== -1; });
        if (hit) zones.add(entry.option.value);
        return hit;
      });
      var filtering = zones.size > 0;  // nothing matches: the whole list stays
      options.forEach(function (entry, i) { entry.option.hidden = filtering && !matches[i]; });
      select.querySelectorAll("optgroup").forEach(function (group) {
        group.hidden = !Array.prototype.some.call(group.children, function (o) { return !o.hidden; });
      });
      var chosen = select.options[select.selectedIndex];
      if (filtering && (!chosen || chosen.hidden)) {
        select.value = options[matches.indexOf(true)].option.value;
      }
      if (!words.length) status.textContent = "";
      else if (!filtering) status.textContent = gettext("No time zone matches: the whole list is shown.");
      else status.textContent = interpolate(ngettext("%(n)s time zone matches.", "%(n)s time zones match.", zones.size), {n: zones.size}, true);
    });
    // Enter in the box chooses the match rather than sending the form half-chosen.
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { event.preventDefault(); select.focus(); }
    });
  }

  function setUp() {
    document.querySelectorAll("select[data-timezone]").forEach(function (select) {
      if (select.dataset.timezoneReady) return;
      select.dataset.timezoneReady = "1";
      if (select.hasAttribute("data-detect-timezone")) detect(select);
      addSearch(select);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
