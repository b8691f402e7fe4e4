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
