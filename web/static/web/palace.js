// Deadlines count down: every <time class="countdown" datetime="..."> shows the time left, once a second.
// Written against the DOM each tick, so tables htmx swaps in count down with no set-up of their own.
(function () {
  "use strict";
  function tick() {
    var now = Date.now();
    document.querySelectorAll("time.countdown").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.getAttribute("datetime")) - now) / 1000));
      var text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") + " left";
      if (el.textContent !== text) {
        el.textContent = text;
      }
      el.classList.toggle("urgent", left <= 10);
    });
  }
  tick();
  setInterval(tick, 1000);
})();

// Live tables: follow the game's event stream (Server-Sent Events) and fire "refresh" on the table at each new
// log entry; htmx then fetches the table if it moved (web/templates/web/_live.html). While the stream cannot be
// had, fire "refresh" every data-poll-ms instead, and try the stream again every few seconds.
(function () {
  "use strict";
  var source = null;
  var following = null;
  var poller = null;
  var retry = null;

  function table() {
    return document.getElementById("table");
  }
  function refresh() {
    var el = table();
    if (el && window.htmx) {
      window.htmx.trigger(el, "refresh");
    }
  }
  function poll(on) {
    var el = table();
    if (poller) {
      clearInterval(poller);
      poller = null;
    }
    if (on && el && el.dataset.pollMs) {
      poller = setInterval(refresh, Number(el.dataset.pollMs));
    }
  }
  function close() {
    if (source) {
      source.close();
      source = null;
    }
    following = null;
  }
  function mode(how) {
    document.documentElement.dataset.live = how; // "stream" or "poll": what keeps the table live now
  }
  function broken() {
    close();
    mode("poll");
    poll(true);
    clearTimeout(retry);
    retry = setTimeout(connect, 5000);
  }
  function connect() {
    var el = table();
    if (!el || !el.dataset.pollMs) {
      close();
      poll(false); // a game that is over: nothing to follow
      return;
    }
    if (!el.dataset.stream) {
      close();
      mode("poll");
      if (!poller) {
        poll(true);
      }
      return;
    }
    if (following === el.dataset.stream) {
      return;
    }
    close();
    following = el.dataset.stream;
    var kinds = (el.dataset.streamKinds || "").split(" ");
    fetch(el.dataset.stream + "?after=" + encodeURIComponent(el.dataset.version), { credentials: "same-origin" })
      .then(function (answer) {
        if (!answer.ok) {
          throw new Error("no stream");
        }
        return answer.json();
      })
      .then(function (body) {
        source = new EventSource(body.url);
        kinds.forEach(function (kind) {
          source.addEventListener(kind, refresh);
        });
        source.onopen = function () {
          mode("stream");
          poll(false);
          refresh(); // anything that happened while the stream was being opened
        };
        source.onerror = broken;
      })
      .catch(broken);
  }
  document.addEventListener("DOMContentLoaded", connect);
  document.addEventListener("htmx:afterSettle", connect);
})();

// A table swapped in keeps open the <details> the player had open (the resign confirmation): someone else's move
// must not close what he is about to click.
(function () {
  "use strict";
  var open = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    var table = event.detail.elt;
    open = [];
    if (table && table.querySelectorAll) {
      table.querySelectorAll("details[open][class]").forEach(function (el) {
        open.push(el.className);
      });
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
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
