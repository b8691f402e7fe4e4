// Live tables: the page shows the table at the version in #table[data-version] and catches up with the server's
// whenever it may have moved on (web/templates/web/_live.html is the hook: htmx's hx-get on #table, fired by the
// "refresh" event, answers 204 while the game is still at the version shown, else the new table).
//
// What tells the page the game moved: the game's event stream (Server-Sent Events, each entry's id its version)
// while it is open; else a poll every data-poll-ms. And, whatever the mode: every swap (the table may be older
// than what the stream announced), the stream's (re)opening, the tab coming back into view or focus, the network
// coming back. A refresh asked for while a request for the table is in flight (a click's POST, another refresh)
// is kept and made once that request has ended: it is never dropped. A table older than the one shown is never
// swapped in (a click's answer overtaken by a refresh); its sentence, if it has one, is kept.
//
// A stream that does not open within OPEN_MS (a server that buffers it: WSGI, a proxy) or that misses an entry
// the page learned of otherwise (STALL_MS after a check found the table behind) is closed: the page polls, and
// tries the stream again later, waiting longer each time (RETRY_MS, doubled up to RETRY_MAX_MS).
(function () {
  "use strict";
  var OPEN_MS = 5000;
  var STALL_MS = 3000;
  var CHECK_MS = 10000; // while streaming: ask the server anyway, as EventSource hides the stream's heartbeats
  var RETRY_MS = 5000;
  var RETRY_MAX_MS = 120000;

  var source = null; // the open EventSource, or null
  var streaming = false; // the stream is open and delivering
  var following = null; // the stream URL being followed (or opened)
  var openTimer = null;
  var retryTimer = null;
  var retryMs = RETRY_MS;
  var stallTimer = null;
  var ticker = null;
  var tickMs = 0;
  var inflight = []; // the requests whose answer replaces the table: {xhr, click (a POST: the player's decision)}
  var pending = false; // a refresh was asked for while one of them was in flight
  var streamed = -1; // the highest version the stream announced
  var lastAsk = 0; // when the page last asked the server for the table (ms)

  function table() {
    return document.getElementById("table");
  }
  function live() {
    var el = table();
    return el && el.dataset.pollMs ? el : null; // a finished game's table follows nothing
  }
  function shown() {
    var el = table();
    return el ? Number(el.dataset.version) : -1;
  }
  function mode(how) {
    document.documentElement.dataset.live = how; // "stream", "poll" or "off": what keeps the table live now
  }

  function refresh() {
    var el = live();
    if (!el || !window.htmx) {
      return;
    }
    if (inflight.length) {
      pending = true; // made when the request in flight has ended (settled)
      return;
    }
    pending = false;
    lastAsk = Date.now();
    // The hook's own request (hx-get, hx-swap), issued directly: htmx attaches a swapped-in table's "refresh"
    // listener only when it settles, and an event fired before that would be lost.
    window.htmx.ajax("GET", el.getAttribute("hx-get"), { source: el, target: el, swap: "outerHTML" });
  }

  function tick() {
    if (!live()) {
      return;
    }
    if (!streaming || Date.now() - lastAsk >= CHECK_MS) {
      refresh();
    }
  }
  function startTicking() {
    var el = live();
    var ms = el ? Number(el.dataset.pollMs) : 0;
    if (ms !== tickMs) {
      clearInterval(ticker);
      ticker = ms ? setInterval(tick, ms) : null;
      tickMs = ms;
    }
  }

  function close() {
    clearTimeout(openTimer);
    clearTimeout(stallTimer);
    if (source) {
      source.close();
      source = null;
    }
    streaming = false;
    following = null;
  }
  function broken() {
    close();
    mode("poll");
    refresh();
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }
  function announced(event) {
    var seq = Number(event.lastEventId);
    if (seq > streamed) {
      streamed = seq;
    }
    if (seq > shown()) {
      refresh();
    }
  }
  function open(url, kinds) {
    source = new EventSource(url);
    kinds.forEach(function (kind) {
      source.addEventListener(kind, announced);
    });
    source.onopen = function () {
      clearTimeout(openTimer);
      streaming = true;
      retryMs = RETRY_MS;
      mode("stream");
      refresh(); // anything that happened while the stream was being opened
    };
    source.onerror = broken;
  }

  function connect() {
    var el = live();
    startTicking();
    if (!el) {
      close();
      mode("off");
      return;
    }
    if (!el.dataset.stream) {
      close();
      mode("poll");
      return;
    }
    if (following === el.dataset.stream) {
      return;
    }
    close();
    mode("poll"); // until the stream opens
    following = el.dataset.stream;
    streamed = shown();
    openTimer = setTimeout(broken, OPEN_MS);
    var kinds = (el.dataset.streamKinds || "").split(" ");
    fetch(el.dataset.stream + "?after=" + encodeURIComponent(el.dataset.version), { credentials: "same-origin" })
      .then(function (answer) {
        if (!answer.ok) {
          throw new Error("no stream");
        }
        return answer.json();
      })
      .then(function (body) {
        if (following === el.dataset.stream && !source) {
          open(body.url, kinds);
        }
      })
      .catch(broken);
  }

  // A check found the table behind what the stream announced: the stream has STALL_MS to announce it too.
  function watchStream() {
    var version = shown();
    if (!streaming || streamed >= version) {
      return;
    }
    clearTimeout(stallTimer);
    stallTimer = setTimeout(function () {
      if (streaming && streamed < version) {
        broken();
      }
    }, STALL_MS);
  }

  function replacesTable(detail) {
    var target = detail.target;
    return target && target.id === "table";
  }
  function versionIn(html) {
    var match = /data-version="(\d+)"/.exec(html || "");
    return match ? Number(match[1]) : null;
  }
  // Keep the sentence of an answer not swapped in (it was older than the table shown): the player's click was
  // refused, and he should read why on the table he now sees.
  function keepSentence(html) {
    var found = new DOMParser().parseFromString(html, "text/html").getElementById("error");
    var el = table();
    if (!found || !el || el.querySelector("#error")) {
      return;
    }
    var sentence = document.createElement("p");
    sentence.className = "error";
    sentence.id = "error";
    sentence.setAttribute("role", "alert");
    sentence.textContent = found.textContent;
    var head = el.querySelector(".table-head");
    el.insertBefore(sentence, head ? head.nextSibling : el.firstChild);
  }

  // Every request whose answer replaces the table is followed to its end on the XHR itself ("loadend", after htmx
  // has swapped its answer): htmx's own events are dispatched on the element that asked, which the swap may have
  // taken out of the page, and an event there reaches no listener.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail;
    if (!replacesTable(detail)) {
      return;
    }
    var xhr = detail.xhr;
    var click = detail.requestConfig && detail.requestConfig.verb !== "get";
    if (click) {
      // A refresh answered during the click would take the clicked form out of the page, and the click's answer
      // with it: the refresh is given up and made again after the click.
      inflight.forEach(function (other) {
        if (!other.click) {
          pending = true;
          other.xhr.abort();
        }
      });
    }
    inflight.push({ xhr: xhr, click: click });
    xhr.addEventListener("loadend", function () {
      inflight = inflight.filter(function (entry) {
        return entry.xhr !== xhr;
      });
      var failed = xhr.status === 0 || xhr.status >= 400;
      if (click && failed) {
        pending = true; // the click brought no table (the network, a timeout, a server error): ask for it once
      }
      // The page may still be behind what the stream announced, or a refresh may have waited for this request.
      // (A refresh that failed is not repeated here, which would loop while offline: the next tick, the stream or
      // the network's return asks again.)
      if (!inflight.length && (pending || (!failed && streamed > shown()))) {
        setTimeout(refresh, 0);
      }
    });
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!replacesTable(detail) || !detail.shouldSwap) {
      return;
    }
    var incoming = versionIn(detail.serverResponse);
    if (incoming !== null && incoming < shown()) {
      detail.shouldSwap = false;
      keepSentence(detail.serverResponse);
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target && event.target.id === "table") {
      watchStream();
      connect(); // a table that began or ended a game follows (or stops following) its stream
    }
  });
  document.addEventListener("DOMContentLoaded", connect);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      refresh();
    }
  });
  window.addEventListener("focus", refresh);
  window.addEventListener("online", function () {
    refresh();
    if (!following && live() && live().dataset.stream) {
      clearTimeout(retryTimer); // the stream broke while offline: try it again now
      retryMs = RETRY_MS;
      connect();
    }
  });
})();
