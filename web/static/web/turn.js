// Your turn: while a decision of the player's is due at the table shown (#table[data-turn=mine]) the tab's title
// begins "Your turn" and the favicon wears a badge (<link id=favicon data-turn=...>). When one becomes due while he
// did not just click, an optional sound and an optional browser notification (the latter only while the tab is
// hidden). Each is turned on and off by its own button (#turn-sound, #turn-notify: ordinary buttons, so Tab and
// Enter reach them) and remembered in localStorage; the browser's permission for notifications is asked for only
// on a click of #turn-notify.
(function () {
  "use strict";
  var SOUND = "palace-turn-sound";
  var NOTIFY = "palace-turn-notify";
  var baseTitle = null;
  var shownVersion = null;
  var ownClick = false; // the next table comes from the player's own click: no signal for it
  var audio = null;

  function stored(key) {
    try {
      return window.localStorage.getItem(key) === "on";
    } catch (error) {
      return false; // storage refused (private mode): the signal stays off
    }
  }
  function store(key, on) {
    try {
      window.localStorage.setItem(key, on ? "on" : "off");
    } catch (error) {
      // nothing to keep it in: it lasts as long as the page
    }
  }
  function notifications() {
    return "Notification" in window;
  }

  function ensureAudio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context || !stored(SOUND)) {
      return;
    }
    if (!audio) {
      audio = new Context();
    }
    if (audio.state === "suspended") {
      audio.resume();
    }
  }
  function beep() {
    if (!audio || audio.state !== "running") {
      return;
    }
    var now = audio.currentTime;
    var tone = audio.createOscillator();
    var gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.35);
    tone.connect(gain);
    gain.connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.35);
  }
  function notify(table) {
    if (!notifications() || !stored(NOTIFY) || Notification.permission !== "granted" || !document.hidden) {
      return;
    }
    var deadline = table.querySelector("time.countdown");
    var heading = table.querySelector("h1");
    var body = heading ? heading.textContent : "Palace";
    if (deadline && window.palaceTimeLeft) {
      body += ": " + window.palaceTimeLeft(new Date(Date.parse(deadline.getAttribute("datetime"))), new Date());
    }
    var note = new Notification("Your turn", { body: body, tag: "palace-turn" });
    note.onclick = function () {
      window.focus();
      note.close();
    };
  }

  function show(initial) {
    var table = document.getElementById("table");
    if (!table) {
      return;
    }
    if (baseTitle === null) {
      baseTitle = document.title;
    }
    var due = table.dataset.turn === "mine";
    var version = table.dataset.version;
    document.title = due ? "Your turn · " + baseTitle : baseTitle;
    var icon = document.getElementById("favicon");
    if (icon) {
      if (!icon.dataset.plain) {
        icon.dataset.plain = icon.getAttribute("href");
      }
      icon.setAttribute("href", due ? icon.dataset.turn : icon.dataset.plain);
    }
    if (due && !initial && !ownClick && version !== shownVersion) {
      if (stored(SOUND)) {
        beep();
      }
      notify(table);
    }
    shownVersion = version;
    ownClick = false;
  }

  function drawButtons(message) {
    var sound = document.getElementById("turn-sound");
    var notify = document.getElementById("turn-notify");
    if (sound) {
      sound.setAttribute("aria-pressed", stored(SOUND) ? "true" : "false");
    }
    if (notify) {
      notify.hidden = !notifications();
      notify.setAttribute("aria-pressed", stored(NOTIFY) && Notification.permission === "granted" ? "true" : "false");
    }
    var status = document.getElementById("turn-signals-status");
    if (status && message !== undefined) {
      status.textContent = message;
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button") : null;
    if (!button) {
      return;
    }
    if (button.id === "turn-sound") {
      store(SOUND, !stored(SOUND));
      ensureAudio();
      drawButtons(stored(SOUND) ? "A sound will tell you when it is your turn." : "No sound on your turn.");
    } else if (button.id === "turn-notify" && notifications()) {
      if (stored(NOTIFY) && Notification.permission === "granted") {
        store(NOTIFY, false);
        drawButtons("No notification on your turn.");
        return;
      }
      Notification.requestPermission().then(function (answer) {
        store(NOTIFY, answer === "granted");
        drawButtons(
          answer === "granted"
            ? "Your browser will tell you when it is your turn while this tab is hidden."
            : "Your browser does not allow this site's notifications (its site settings can change that)."
        );
      });
    }
  });
  // A sound needs a gesture on the page before it may play: any click or key on it will do.
  document.addEventListener("pointerdown", ensureAudio);
  document.addEventListener("keydown", ensureAudio);
  document.addEventListener("htmx:beforeRequest", function (event) {
    var verb = event.detail.requestConfig ? event.detail.requestConfig.verb : "";
    if (verb === "post" && event.detail.target && event.detail.target.id === "table") {
      ownClick = true;
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target && event.target.id === "table") {
      show(false);
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    drawButtons();
    show(true);
  });
})();
