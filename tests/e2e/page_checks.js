/* Loaded by tests/e2e/checks.py before every page of the browser tests (after axe-core): once
 * the page has loaded, report its width and, for a page whose structure has not been checked
 * yet in this run, axe-core's serious and critical violations. Init scripts are not subject to
 * the site's CSP; the two functions it calls are Playwright bindings. */
(function () {
  "use strict";
  if (window !== window.top || !window.__hexsiteShouldScan) return;

  // A page's family: its width, its path without ids and tokens, and the classes of its
  // sections (a Hextension game page, a Hexland one…); its kind: the family and the classes of
  // its elements outside drawings. A kind is scanned once, and a family a few times (a room
  // seen 300 times in 40 states is not scanned 40 times).
  function classesOf(selector) {
    var names = {};
    document.querySelectorAll(selector).forEach(function (element) {
      if (element.closest("svg")) return;
      names[element.tagName + "." + Array.prototype.slice.call(element.classList).sort().join(".")] = 1;
    });
    return Object.keys(names).sort().join(",");
  }

  function family() {
    var path = location.pathname.replace(/\/join\/[^/]+/, "/join/T").replace(/\d+/g, "N");
    return window.innerWidth + " " + path + " " + classesOf("main section[class]");
  }

  // A Content-Security-Policy violation (an inline style or script the policy refuses, a
  // source it does not allow) is reported as the console errors are: the site must need no
  // exception to its policy. Reports without a source file come from the checks' own injected
  // scripts (axe measuring an element): the site's pages and scripts always have one.
  document.addEventListener("securitypolicyviolation", function (event) {
    if (!event.sourceFile && event.disposition === "enforce" && window.__hexsiteAxeRunning) return;
    window.__hexsiteViolation({
      url: location.href, directive: event.effectiveDirective, blocked: event.blockedURI,
      source: event.sourceFile, line: event.lineNumber, sample: event.sample
    });
  });

  window.__hexsiteChecked = location.protocol.indexOf("http") !== 0;  // true once this document has reported
  var checked;
  window.__hexsiteWhenChecked = new Promise(function (resolve) { checked = resolve; });

  function check() {
    var group = family(), key = group + " " + classesOf("body [class]");
    var width = document.scrollingElement.scrollWidth;
    window.__hexsiteShouldScan(key, group).then(function (scan) {
      if (!scan) return window.__hexsiteReport({url: location.href, key: key, group: group, width: width, scanned: false, violations: []});
      if (!window.axe) throw new Error("axe-core did not load");
      window.__hexsiteAxeRunning = true;
      return window.axe.run(document, {resultTypes: ["violations"]}).then(function (result) {
        window.__hexsiteAxeRunning = false;
        var violations = result.violations.filter(function (v) {
          return v.impact === "serious" || v.impact === "critical";
        }).map(function (v) {
          return {id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 6).map(function (n) {
            return n.target.join(" ") + " — " + (n.failureSummary || "").replace(/\s+/g, " ");
          })};
        });
        return window.__hexsiteReport({url: location.href, key: key, group: group, width: width, scanned: true, violations: violations});
      });
    }).then(function () { window.__hexsiteChecked = true; checked(); }, function (error) {
      console.error("The page checks failed: " + error);
      window.__hexsiteChecked = true;
      checked();
    });
  }

  window.addEventListener("load", function () { setTimeout(check, 0); });
})();
