// The transcribe page: notch buttons, pip steppers and a type change that
// redraws the controls. The form works without it (typed values, a button).
(function () {
  "use strict";
  var CYCLE = [".", "L", "S", "E"];
  var NAMES = { ".": "bare", L: "live", S: "strike", E: "empty", "?": "unknown" };

  function fire(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // The game's keys come with the box (the registry's, as the server reads them);
  // a stored code typed as itself stays.
  function edgeOf(input) {
    var keys = JSON.parse(input.dataset.keys || "{}");
    return input.value.split("").map(function (c) {
      return keys[c.toLowerCase()] || c.toUpperCase();
    }).join("");
  }

  function paintNotches(control) {
    var input = control.querySelector("[data-edge]");
    var edge = edgeOf(input);
    control.querySelectorAll("[data-notch]").forEach(function (button) {
      var i = Number(button.dataset.notch);
      var code = edge.charAt(i) || "?";
      var name = NAMES[code] || "unknown";
      // "?" fits a phone-wide notch where "unknown" would break in two.
      button.textContent = name === "unknown" ? "?" : name;
      button.className = "notch notch-" + name;
      button.setAttribute("aria-label", "Notch " + (i + 1) + ": " + name);
    });
  }

  function paintPips(control) {
    var input = control.querySelector("input");
    var box = control.querySelector("[data-pips]");
    if (!box) return;
    var n = parseInt(input.value, 10);
    var max = Number(box.dataset.pips);
    box.textContent = "";
    for (var i = 0; i < max; i++) {
      var dot = document.createElement("span");
      dot.className = "pip" + (!isNaN(n) && i < n ? " on" : "");
      box.appendChild(dot);
    }
  }

  function setUp(root) {
    root.querySelectorAll(".control-notches").forEach(function (control) {
      var input = control.querySelector("[data-edge]");
      control.querySelectorAll("[data-notch]").forEach(function (button) {
        button.addEventListener("click", function () {
          var i = Number(button.dataset.notch);
          var edge = edgeOf(input).slice(0, 6);
          while (edge.length < 6) edge += "?";
          var at = CYCLE.indexOf(edge.charAt(i));
          var next = CYCLE[(at + 1) % CYCLE.length];
          input.value = edge.slice(0, i) + next + edge.slice(i + 1);
          paintNotches(control);
          fire(input);
        });
      });
      input.addEventListener("input", function () {
        var typed = edgeOf(input);
        if (typed !== input.value) input.value = typed;
        paintNotches(control);
      });
      paintNotches(control);
    });
    root.querySelectorAll(".control-pips").forEach(function (control) {
      var input = control.querySelector("input");
      control.querySelectorAll("[data-step]").forEach(function (button) {
        button.addEventListener("click", function () {
          var n = parseInt(input.value, 10);
          var step = Number(button.dataset.step);
          var min = Number(input.dataset.min || 0), max = Number(input.dataset.max || 5);
          // An empty stepper counts as no pips: the first "+" gives one pip, as
          // a reader counting the dots expects, and the first "-" gives none.
          if (isNaN(n)) n = min;
          n = Math.min(max, Math.max(min, n + step));
          input.value = String(n);
          paintPips(control);
          fire(input);
        });
      });
      input.addEventListener("input", function () { paintPips(control); });
      paintPips(control);
    });
    root.querySelectorAll("[data-retype]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        var form = radio.form;
        var focused = document.activeElement;
        // Arrow keys step through the types faster than the answers come back:
        // only the answer for the latest choice is drawn.
        var asked = (form.dataset.retyped = String(Number(form.dataset.retyped || 0) + 1));
        var data = new FormData(form);
        data.append("retype", "1");
        fetch(form.action || window.location.href, { method: "POST", body: data, credentials: "same-origin" })
          .then(function (r) { return r.text(); })
          .then(function (html) {
            if (form.dataset.retyped !== asked) return;
            var doc = new DOMParser().parseFromString(html, "text/html");
            var fresh = doc.querySelector(".transcribe-controls");
            var old = form.querySelector(".transcribe-controls");
            if (fresh && old) {
              // DOMParser reads <noscript> as if scripts were off: its button
              // would become the form's first, the one Enter presses.
              fresh.querySelectorAll("noscript").forEach(function (n) { n.remove(); });
              old.replaceWith(fresh);
              setUp(fresh);
              // A keyboard reader keeps their place: the same control, redrawn.
              if (focused && focused.name && old.contains(focused)) {
                var selector = "[name='" + focused.name + "']";
                if (focused.type === "radio") selector += "[value='" + focused.value + "']";
                var again = fresh.querySelector(selector);
                if (again) again.focus();
              }
              var face = doc.querySelector("#face");
              if (face) document.querySelector("#face").innerHTML = face.innerHTML;
            }
          });
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("transcribe");
    if (form) setUp(form);
  });
})();
