// Deadlines count down: every <time class="countdown" datetime="..."> says the time left in a player's words
// ("45 seconds left", "2 minutes left", "due by 14:00", "due by tomorrow 14:00"), once a second. Written against the
// DOM each tick, so tables htmx swaps in count down with no set-up of their own.
(function () {
  "use strict";
  var DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

  function plural(count, word) {
    return count + " " + word + (count === 1 ? "" : "s");
  }
  function clock(date) {
    return String(date.getHours()).padStart(2, "0") + ":" + String(date.getMinutes()).padStart(2, "0");
  }
  function dayWords(due, now) {
    var days = Math.round((new Date(due).setHours(0, 0, 0, 0) - new Date(now).setHours(0, 0, 0, 0)) / 86400000);
    if (days === 0) {
      return "";
    }
    if (days === 1) {
      return "tomorrow ";
    }
    if (days < 7) {
      return DAYS[due.getDay()] + " ";
    }
    return due.getDate() + " " + MONTHS[due.getMonth()] + " ";
  }
  // The time left until ``due`` (a Date) seen at ``now`` (a Date), in words.
  function words(due, now) {
    var left = Math.round((due - now) / 1000);
    if (left <= 0) {
      return "time is up";
    }
    if (left < 60) {
      return plural(left, "second") + " left";
    }
    if (left < 3600) {
      return plural(Math.ceil(left / 60), "minute") + " left";
    }
    return "due by " + dayWords(due, now) + clock(due);
  }
  function tick() {
    var now = new Date();
    document.querySelectorAll("time.countdown").forEach(function (el) {
      var due = new Date(Date.parse(el.getAttribute("datetime")));
      var text = words(due, now);
      if (el.textContent !== text) {
        el.textContent = text;
      }
      el.classList.toggle("urgent", due - now <= 10000);
    });
  }
  window.palaceTimeLeft = words; // for the tab title (web/static/web/turn.js)
  tick();
  setInterval(tick, 1000);
})();

// A table swapped in keeps open the <details> the player had open (the resign confirmation): someone else's move
// must not close what he is about to click. Only swaps of the table count: the badge, the chat and the rematch offer
// poll on their own, and their answers may land between the table's swap and its settling.
(function () {
  "use strict";
  var open = [];
  function ofTable(event) {
    var target = event.detail && event.detail.target;
    return !!target && target.id === "table";
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var table = document.getElementById("table");
    if (!ofTable(event) || !table || !event.detail.shouldSwap) {
      return;
    }
    // Added to, not replaced: a second table swap before the first settles finds the new table's <details> closed.
    table.querySelectorAll("details[open][class]").forEach(function (el) {
      if (open.indexOf(el.className) < 0) {
        open.push(el.className);
      }
    });
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!ofTable(event)) {
      return;
    }
    open.forEach(function (name) {
      document.querySelectorAll("details").forEach(function (el) {
        if (el.className === name) {
          el.open = true;
        }
      });
    });
    open = [];
  });
})();

// A table swapped in keeps the cards the player had ticked wherever it offers them again: someone else's move (the
// other player choosing his face-up cards while he chooses his) or a refused click ("those cards do not share a
// rank") must not undo a choice half made. Only the answer to his own decision, taken, starts him afresh.
(function () {
  "use strict";
  var ticked = [];
  function table() {
    return document.getElementById("table");
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var el = table();
    ticked = [];
    if (!el || !detail.target || detail.target.id !== "table") {
      return;
    }
    var click = detail.requestConfig && detail.requestConfig.verb !== "get";
    var refused = /\bid="error"/.test(detail.serverResponse || "");
    if (click && !refused) {
      return;
    }
    el.querySelectorAll("input.pick:checked").forEach(function (box) {
      ticked.push(box.name + "\n" + box.value);
    });
  });
  // afterSwap, not afterSettle: the swapped-in table is clickable at once.
  document.addEventListener("htmx:afterSwap", function () {
    var el = table();
    if (!el || !ticked.length) {
      return;
    }
    el.querySelectorAll("input.pick:not(:checked)").forEach(function (box) {
      var at = ticked.indexOf(box.name + "\n" + box.value);
      if (at >= 0) {
        box.checked = true;
        ticked.splice(at, 1); // each ticked box once: two decks may deal the same card twice
      }
    });
    ticked = [];
  });
})();

// Ticked cards go only with a control that takes them (data-uses-cards): every control of a table is a button of
// one form, and "Pick up" with a card still ticked is a pick-up, not a refusal for a field it does not take.
document.addEventListener("htmx:configRequest", function (event) {
  "use strict";
  var detail = event.detail;
  var act = detail.formData && detail.formData.get("act");
  if (!act || !detail.elt || !detail.elt.querySelectorAll) {
    return;
  }
  var pressed = Array.prototype.find.call(detail.elt.querySelectorAll("button[name=act]"), function (button) {
    return button.value === act;
  });
  if (pressed && !pressed.hasAttribute("data-uses-cards")) {
    detail.formData.delete("cards");
  }
});
